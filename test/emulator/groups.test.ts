import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

const server = useEmulator();
const get = (path: string, as: string | null = "root") => call(server.emulator, path, { as });
const put = (path: string, body: object, as = "root") => call(server.emulator, path, { as, method: "PUT", body });

async function upload(path: string, form: FormData, as = "alice") {
  const response = await fetch(server.emulator.apiUrl + path, { method: "PUT", headers: { "PRIVATE-TOKEN": server.emulator.tokens[as]! }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

describe("GET /groups/:id", () => {
  it("shows the group with its settings, projects (at most 100) and the runners token to owners", async () => {
    const owner = await get("/groups/acme", "alice");
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({ full_path: "acme", visibility: "private", lfs_enabled: true, project_creation_level: "developer", shared_runners_setting: "enabled", prevent_sharing_groups_outside_hierarchy: false });
    expect(owner.body.runners_token).toMatch(/^GR1348941/);
    expect(owner.body.projects.map((p: { path: string }) => p.path).sort()).toEqual(["api", "web"]);
    expect(owner.body.wiki_access_level).toBe("enabled"); // Ultimate group: Premium fields shown
    const developer = await get("/groups/acme", "dev");
    expect(developer.body).not.toHaveProperty("runners_token");
    expect((await get("/groups/acme?with_projects=false")).body).not.toHaveProperty("projects");
  });

  it("hides Premium fields of a Free group and top-level fields of a subgroup", async () => {
    const beta = await get("/groups/beta");
    expect(beta.body).not.toHaveProperty("membership_lock");
    expect(beta.body).not.toHaveProperty("unique_project_download_limit");
    const platform = await get("/groups/acme%2Fplatform");
    expect(platform.body).not.toHaveProperty("prevent_sharing_groups_outside_hierarchy");
  });

  it("answers 404 Group Not Found to those who cannot see the group", async () => {
    const hidden = await get("/groups/acme", "outsider");
    expect(hidden).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect((await get("/groups/beta", null)).status).toBe(200);
  });
});

describe("GET /groups", () => {
  it("lists a user's groups by default, all visible ones with all_available, and everything for administrators", async () => {
    const mine = await get("/groups", "maintainer");
    expect(mine.body.map((g: { full_path: string }) => g.full_path).sort()).toEqual(["acme", "acme/platform"]);
    const all = await get("/groups?all_available=true", "maintainer");
    expect(all.body.map((g: { full_path: string }) => g.full_path).sort()).toEqual(["acme", "acme/platform", "beta", "beta/labs"]);
    expect((await get("/groups")).body).toHaveLength(4);
    const anonymous = await get("/groups", null);
    expect(anonymous.body.map((g: { full_path: string }) => g.full_path)).toEqual(["beta"]);
  });

  it("filters by search, owned, min_access_level, top_level_only, visibility and skip_groups, and orders", async () => {
    const names = (result: { body: { full_path: string }[] }) => result.body.map((g) => g.full_path);
    expect(names(await get("/groups?search=lab"))).toEqual(["beta/labs"]);
    // order_by=path orders by each group's own path (acme, beta, labs, platform), as the real `path` column does.
    expect(names(await get("/groups?owned=true&order_by=path", "alice"))).toEqual(["acme", "beta", "beta/labs", "acme/platform"]);
    expect(names(await get("/groups?min_access_level=40", "maintainer")).sort()).toEqual(["acme", "acme/platform"]);
    expect(names(await get("/groups?top_level_only=true&order_by=name&sort=desc"))).toEqual(["beta", "acme"]);
    expect(names(await get("/groups?visibility=internal"))).toEqual(["beta/labs"]);
    const acme = (await get("/groups/acme")).body.id;
    expect(names(await get(`/groups?top_level_only=true&skip_groups[]=${acme}`))).toEqual(["beta"]);
    expect((await get("/groups?min_access_level=7")).status).toBe(400);
  });

  it("paginates with offset headers, and keyset for anonymous callers only", async () => {
    const page = await get("/groups?per_page=2");
    expect(page.headers.get("x-total")).toBe("4");
    expect(page.headers.get("link")).toContain('rel="next"');
    const keyset = await get("/groups?pagination=keyset&order_by=name&sort=asc&per_page=1", null);
    expect(keyset.status).toBe(200);
    expect(keyset.headers.get("x-total")).toBeNull();
    // A signed-in caller's `pagination=keyset` is not read: offset pages, as `present_groups` paginates.
    const signedIn = await get("/groups?pagination=keyset&order_by=name&sort=asc&per_page=2");
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("x-total")).toBe("4");
  });

  it("gives statistics to administrators only", async () => {
    expect((await get("/groups?statistics=true")).body[0]).toHaveProperty("statistics");
    expect((await get("/groups?statistics=true", "alice")).body[0]).not.toHaveProperty("statistics");
  });
});

describe("PUT /groups/:id", () => {
  it("needs the Owner role", async () => {
    expect(await put("/groups/acme", { lfs_enabled: false }, "maintainer")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
  });

  it("validates enumerations with Grape's wording", async () => {
    expect(await put("/groups/beta", { visibility: "secret" })).toMatchObject({ status: 400, body: { error: "visibility does not have a valid value" } });
  });

  it("checks visibility against the parent, projects and subgroups", async () => {
    const up = await put("/groups/acme%2Fplatform", { visibility: "public" });
    expect(up).toMatchObject({ status: 400, body: { message: { visibility_level: ["public is not allowed since the parent group has a private visibility."] } } });
    const down = await put("/groups/beta", { visibility: "private" });
    expect(down.body.message.visibility_level).toContain("private is not allowed since this group contains projects with higher visibility.");
    expect(down.body.message.visibility_level).toContain("private is not allowed since there are sub-groups with higher visibility.");
  });

  it("maps the deprecated parameters to their replacements", async () => {
    const result = await put("/groups/beta", { emails_disabled: true, default_branch_protection: 0, shared_runners_setting: "disabled_with_override" });
    expect(result.body).toMatchObject({
      emails_enabled: false,
      emails_disabled: true,
      default_branch_protection: 0,
      default_branch_protection_defaults: { allow_force_push: true },
      shared_runners_setting: "disabled_and_overridable",
    });
    await put("/groups/beta", { emails_enabled: true, default_branch_protection: 2, shared_runners_setting: "enabled" });
  });

  it("drops fields the tier or offering lacks, refuses admin-only ones to owners, and keeps the caps", async () => {
    const free = await put("/groups/beta", { membership_lock: true, lfs_enabled: false });
    expect(free.status).toBe(200);
    expect(free.body).not.toHaveProperty("membership_lock");
    expect(free.body.lfs_enabled).toBe(false);
    await put("/groups/beta", { lfs_enabled: true });
    expect((await put("/groups/acme", { shared_runners_minutes_limit: 10 }, "alice")).status).toBe(403);
    const capped = await put("/groups/acme", { unique_project_download_limit: 10_001, unique_project_download_limit_allowlist: ["nobody"] });
    expect(capped.body.message).toMatchObject({ unique_project_download_limit: ["must be less than or equal to 10000"], unique_project_download_limit_allowlist: ["nobody does not exist"] });
    const subgroup = await put("/groups/acme%2Fplatform", { prevent_sharing_groups_outside_hierarchy: true });
    expect(subgroup.body.message.prevent_sharing_groups_outside_hierarchy).toEqual(["is only available on top-level groups"]);
  });

  it("uploads an avatar as a multipart file, serves it, and removes it with a null avatar", async () => {
    const form = new FormData();
    form.append("avatar", new Blob([Buffer.from("\x89PNG fake image", "latin1")], { type: "image/png" }), "logo.png");
    form.append("description", "With a logo");
    const uploaded = await upload("/groups/beta", form);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({ description: "With a logo", avatar_url: expect.stringMatching(/\/logo\.png$/) });
    const served = await fetch(`${server.emulator.apiUrl}/groups/beta/avatar`);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).toString("latin1")).toBe("\x89PNG fake image");

    const wrongType = new FormData();
    wrongType.append("avatar", new Blob(["text"]), "notes.txt");
    expect((await upload("/groups/beta", wrongType)).body.message.avatar[0]).toMatch(/file format is not supported/);

    expect((await put("/groups/beta", { avatar: null })).body.avatar_url).toBeNull();
    expect((await get("/groups/beta/avatar")).status).toBe(404);
  });

  it("removes the avatar with any blank value: JSON null or \"\", an empty form field, `avatar=` in the query", async () => {
    const setAvatar = async () => {
      const form = new FormData();
      form.append("avatar", new Blob([Buffer.from("\x89PNG fake image", "latin1")], { type: "image/png" }), "logo.png");
      expect((await upload("/groups/beta", form)).body.avatar_url).toMatch(/\/logo\.png$/);
    };
    await setAvatar();
    expect(await put("/groups/beta", { avatar: "" }, "alice")).toMatchObject({ status: 200, body: { avatar_url: null } });
    await setAvatar();
    const emptyField = new FormData();
    emptyField.append("avatar", "");
    expect(await upload("/groups/beta", emptyField)).toMatchObject({ status: 200, body: { avatar_url: null } });
    await setAvatar();
    const emptyFile = new FormData();
    emptyFile.append("avatar", new Blob([]), "");
    expect(await upload("/groups/beta", emptyFile)).toMatchObject({ status: 200, body: { avatar_url: null } });
    await setAvatar();
    const query = await fetch(`${server.emulator.apiUrl}/groups/beta?avatar=`, { method: "PUT", headers: { "PRIVATE-TOKEN": server.emulator.tokens.alice! } });
    expect(query.status).toBe(200);
    expect(((await query.json()) as { avatar_url: unknown }).avatar_url).toBeNull();
    expect((await put("/groups/beta", { avatar: 12 }, "alice")).body).toEqual({ error: "avatar is invalid" });
  });

  it("accepts the names real clients send for the assistant settings and shows both names", async () => {
    const sent = await put("/groups/acme", { duo_features_enabled: false, lock_duo_features_enabled: true, duo_availability: "default_off" });
    // Hosted offering: the self-managed assistant switches are dropped; the availability applies.
    expect(sent.body).toMatchObject({ assistant_availability: "default_off", duo_availability: "default_off" });
    const both = await put("/groups/acme", { assistant_availability: "never_on", duo_availability: "default_on" });
    expect(both).toMatchObject({ status: 400, body: { error: "assistant_availability, duo_availability are mutually exclusive" } });
    await put("/groups/acme", { duo_availability: "default_on" });
  });

  it("applies the settings part 4.2 gives no tier on a Free group, though part 2.1 shows them on Premium only", async () => {
    const free = await put("/groups/beta", { experiment_features_enabled: true, assistant_availability: "never_on" });
    expect(free.status).toBe(200);
    expect(free.body).not.toHaveProperty("experiment_features_enabled");
    expect(free.body).not.toHaveProperty("assistant_availability");
    // Part 2.1 lists these without a tier: shown on every group, applied on Premium and Ultimate only.
    expect(free.body).toMatchObject({ file_template_project_id: null, ip_restriction_ranges: null, only_allow_merge_if_pipeline_succeeds: false });
    await put("/groups/beta", { experiment_features_enabled: false, assistant_availability: "default_on" });
  });

  it("shows enabled_git_access_protocol on a top-level group to those who administer it, and nowhere else", async () => {
    expect((await get("/groups/acme", "alice")).body.enabled_git_access_protocol).toBe("all");
    expect((await get("/groups/acme")).body.enabled_git_access_protocol).toBe("all");
    expect((await get("/groups/acme", "maintainer")).body).not.toHaveProperty("enabled_git_access_protocol");
    expect((await get("/groups")).body.some((group: object) => "enabled_git_access_protocol" in group)).toBe(false);
    // A subgroup's is applied (its Owner may set it) but never shown.
    const subgroup = await put("/groups/acme%2Fplatform", { enabled_git_access_protocol: "ssh" });
    expect(subgroup.status).toBe(200);
    expect(subgroup.body).not.toHaveProperty("enabled_git_access_protocol");
    await put("/groups/acme%2Fplatform", { enabled_git_access_protocol: "all" });
  });

  it("clears the list-like settings with a blank value, shown as null", async () => {
    await put("/groups/acme", { ip_restriction_ranges: "10.0.0.0/8", allowed_email_domains_list: "example.com", default_branch: "trunk" });
    const cleared = await put("/groups/acme", { ip_restriction_ranges: "", allowed_email_domains_list: "", default_branch: "", step_up_auth_required_oauth_provider: "" });
    expect(cleared.body).toMatchObject({ ip_restriction_ranges: null, allowed_email_domains_list: null, default_branch: null, step_up_auth_required_oauth_provider: null });
  });

  it("renames a path; the old one is not found (groups are looked up without following redirects)", async () => {
    expect((await put("/groups/beta%2Flabs", { path: "lab" })).body.full_path).toBe("beta/lab");
    expect((await get("/groups/beta%2Flabs")).status).toBe(404);
    await put("/groups/beta%2Flab", { path: "labs" });
  });
});
