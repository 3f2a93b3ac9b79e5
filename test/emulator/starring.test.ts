/**
 * Project starring in the emulator (spec document 2, parts 2.6 and 4.7):
 * star and unstar (201, or 304 when nothing changes), the starrers of a
 * project, the projects a user starred with every filter and ordering of the
 * spec's table, star_count wherever a project is shown, and the `stars` seed.
 */
import { describe, expect, it } from "vitest";
import { projectDetailsStore, SeedError, stateFromSeed, starringStore, defaultSeed, type Seed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const T0 = Date.parse("2025-01-01T00:00:00.000Z");
let now = T0;
const clock = () => now;

const project = (path: string) => `/projects/${encodeURIComponent(path)}`;
const paths = (body: { path_with_namespace: string }[]) => body.map((p) => p.path_with_namespace);
const usernames = (body: { user: { username: string } }[]) => body.map((entry) => entry.user.username);

describe("star and unstar", () => {
  const server = useEmulator({ clock });

  it("stars: 201 with the project and its new star_count; again: 304 with no body", async () => {
    now = T0 + 1000;
    const before = (await call(server.emulator, project("acme/web"))).body.star_count;
    const starred = await call(server.emulator, `${project("acme/web")}/star`, { method: "POST" });
    expect(starred.status).toBe(201);
    expect(starred.body).toMatchObject({ id: 1, path_with_namespace: "acme/web", star_count: before + 1 });
    // Entities::Project, as the real endpoint presents it: no `permissions` (those are ProjectWithAccess's).
    expect(starred.body).not.toHaveProperty("permissions");
    const again = await call(server.emulator, `${project("acme/web")}/star`, { method: "POST" });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect((await call(server.emulator, project("acme/web"))).body.star_count).toBe(before + 1);
    // The star is root's, dated by the server's clock.
    const starrers = await call(server.emulator, `${project("acme/web")}/starrers?search=root`);
    expect(starrers.body).toEqual([
      {
        starred_since: new Date(T0 + 1000).toISOString(),
        user: { id: 1, username: "root", name: "Administrator", state: "active", avatar_url: null, web_url: "https://platform.example.test/root" },
      },
    ]);
  });

  it("unstars: 201 with the project; again: 304", async () => {
    const before = (await call(server.emulator, project("acme/web"))).body.star_count;
    const unstarred = await call(server.emulator, `${project("acme/web")}/unstar`, { method: "POST" });
    expect(unstarred.status).toBe(201);
    expect(unstarred.body.star_count).toBe(before - 1);
    const again = await call(server.emulator, `${project("acme/web")}/unstar`, { method: "POST" });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("needs a signed-in user who can see the project; any role (or none on a public project) may star", async () => {
    expect((await call(server.emulator, `${project("beta/site")}/star`, { method: "POST", as: null })).status).toBe(401);
    expect((await call(server.emulator, `${project("acme/web")}/star`, { method: "POST", as: "outsider" })).body).toEqual({ message: "404 Project Not Found" });
    expect((await call(server.emulator, `${project("acme/nope")}/star`, { method: "POST" })).status).toBe(404);
    // guest is a Guest of acme; outsider already starred the public beta/site in the seed.
    expect((await call(server.emulator, `${project("acme/platform/infra")}/star`, { method: "POST", as: "guest" })).status).toBe(201);
    expect((await call(server.emulator, `${project("beta/site")}/star`, { method: "POST", as: "outsider" })).status).toBe(304);
    expect((await call(server.emulator, `${project("beta/site")}/unstar`, { method: "POST", as: "outsider" })).status).toBe(201);
    expect((await call(server.emulator, `${project("beta/site")}/star`, { method: "POST", as: "outsider" })).status).toBe(201);
  });

  it("a write to a project's old path is refused; the numeric id works", async () => {
    const moved = await call(server.emulator, `${project("acme/website")}/star`, { method: "POST", as: "maintainer" });
    expect(moved).toMatchObject({ status: 405, body: { message: "Non GET methods are not allowed for moved projects" } });
    expect((await call(server.emulator, "/projects/1/star", { method: "POST", as: "maintainer" })).status).toBe(304);
  });
});

describe("GET /projects/:id/starrers", () => {
  const server = useEmulator();

  it("lists in the order the stars were made; private profiles only to themselves and administrators", async () => {
    expect(usernames((await call(server.emulator, `${project("acme/web")}/starrers`, { as: "dev" })).body)).toEqual(["alice", "maintainer", "dev"]);
    expect(usernames((await call(server.emulator, `${project("acme/web")}/starrers`, { as: "guest" })).body)).toEqual(["alice", "maintainer", "dev", "guest"]);
    expect(usernames((await call(server.emulator, `${project("acme/web")}/starrers`)).body)).toEqual(["alice", "maintainer", "dev", "guest"]);
  });

  it("search: part of the username or the name, or the whole email", async () => {
    const search = async (text: string) => usernames((await call(server.emulator, `${project("acme/web")}/starrers?search=${encodeURIComponent(text)}`)).body);
    expect(await search("main")).toEqual(["maintainer"]);
    expect(await search("OWNER")).toEqual(["alice"]);
    expect(await search("dev@example.test")).toEqual(["dev"]);
    expect(await search("example.test")).toEqual([]);
  });

  it("anonymous callers read a public project's starrers, not a private one's", async () => {
    expect(usernames((await call(server.emulator, `${project("beta/site")}/starrers`, { as: null })).body)).toEqual(["alice", "outsider"]);
    expect((await call(server.emulator, `${project("acme/web")}/starrers`, { as: null })).status).toBe(404);
  });

  it("is paginated with the real headers; a seeded time is kept", async () => {
    const page = await call(server.emulator, `${project("acme/web")}/starrers?per_page=2&page=2`);
    expect(usernames(page.body)).toEqual(["dev", "guest"]);
    expect(page.headers.get("x-total")).toBe("4");
    expect(page.headers.get("x-prev-page")).toBe("1");
    expect((await call(server.emulator, `${project("beta/site")}/starrers?search=alice`)).body[0].starred_since).toBe("2024-03-05T12:00:00.000Z");
    expect((await call(server.emulator, `${project("acme/web")}/starrers?per_page=0`)).body).toEqual({ error: "per_page does not have a valid value" });
  });
});

describe("GET /users/:user_id/starred_projects", () => {
  const server = useEmulator({ clock });
  const starred = async (query: string, as: string | null = "root") => call(server.emulator, `/users/alice/starred_projects${query}`, { as });

  it("by username or id; the default order is created_at desc; 404 User Not Found", async () => {
    expect(paths((await starred("")).body)).toEqual(["beta/site", "acme/api", "acme/web"]);
    expect(paths((await call(server.emulator, "/users/2/starred_projects")).body)).toEqual(["beta/site", "acme/api", "acme/web"]);
    expect((await call(server.emulator, "/users/nobody/starred_projects")).body).toEqual({ message: "404 User Not Found" });
  });

  it("shows only what the caller may read: anonymous callers the public projects, with the basic entity", async () => {
    const anonymous = await starred("", null);
    expect(paths(anonymous.body)).toEqual(["beta/site"]);
    expect(anonymous.body[0]).not.toHaveProperty("_links");
    expect(anonymous.body[0]).toMatchObject({ star_count: 3, topics: [], tag_list: [] });
    expect(paths((await starred("", "outsider")).body)).toEqual(["beta/site"]);
  });

  it("a private profile's stars: none for others, all for the user and administrators", async () => {
    expect((await call(server.emulator, "/users/guest/starred_projects", { as: "alice" })).body).toEqual([]);
    expect(paths((await call(server.emulator, "/users/guest/starred_projects", { as: "guest" })).body)).toEqual(["beta/site", "acme/web"]);
    expect(paths((await call(server.emulator, "/users/guest/starred_projects")).body)).toEqual(["beta/site", "acme/web"]);
  });

  it("the project fields of part 2.6, with statistics for Reporter+ and custom attributes for administrators", async () => {
    const [web] = (await call(server.emulator, "/users/maintainer/starred_projects?statistics=true&with_custom_attributes=true")).body;
    for (const field of [
      "id", "description", "description_html", "default_branch", "visibility", "ssh_url_to_repo", "http_url_to_repo", "web_url", "readme_url",
      "topics", "name", "name_with_namespace", "path", "path_with_namespace", "issues_enabled", "open_issues_count", "merge_requests_enabled",
      "jobs_enabled", "wiki_enabled", "snippets_enabled", "container_registry_access_level", "created_at", "updated_at", "last_activity_at",
      "creator_id", "namespace", "import_status", "archived", "avatar_url", "shared_runners_enabled", "group_runners_enabled", "forks_count",
      "star_count", "public_jobs", "shared_with_groups", "merge_method", "squash_option", "statistics", "container_registry_image_prefix", "_links",
    ]) {
      expect(web, field).toHaveProperty(field);
    }
    expect(web).toMatchObject({
      description_html: '<p data-sourcepos="1:1-1:18" dir="auto">The public website</p>',
      readme_url: "https://platform.example.test/acme/web/-/blob/main/README.md",
      star_count: 4,
      namespace: { id: 1, name: "Acme", path: "acme", kind: "group", full_path: "acme" },
      statistics: { commit_count: expect.any(Number), repository_size: expect.any(Number), storage_size: expect.any(Number) },
      _links: { self: "https://platform.example.test/api/v4/projects/1", issues: "https://platform.example.test/api/v4/projects/1/issues" },
      custom_attributes: [],
    });
    // guest is a Guest of acme: no statistics; not an administrator: no custom attributes.
    const [asGuest] = (await call(server.emulator, "/users/maintainer/starred_projects?statistics=true&with_custom_attributes=true", { as: "guest" })).body;
    expect(asGuest).not.toHaveProperty("statistics");
    expect(asGuest).not.toHaveProperty("custom_attributes");
    expect(asGuest.permissions).toEqual({ project_access: null, group_access: { access_level: 10, notification_level: 3 } });
  });

  it("simple: the basic entity only", async () => {
    const [site] = (await starred("?simple=true")).body;
    expect(site).toMatchObject({ path_with_namespace: "beta/site", star_count: 3 });
    expect(site).not.toHaveProperty("_links");
    expect(site).not.toHaveProperty("permissions");
  });

  it("filters: visibility, search, archived, with_issues_enabled, with_merge_requests_enabled", async () => {
    expect(paths((await starred("?visibility=public")).body)).toEqual(["beta/site"]);
    expect(paths((await starred("?visibility=private")).body)).toEqual(["acme/api", "acme/web"]);
    expect(paths((await starred("?search=WEBSITE")).body)).toEqual(["acme/web"]);
    expect(paths((await starred("?search=api")).body)).toEqual(["acme/api"]);
    const details = projectDetailsStore.of(server.emulator.state).byProject;
    const api = server.emulator.state.projectByFullPath("acme/api")!;
    details[String(api.id)] = { ...(details[String(api.id)] ?? { topics: [], issuesEnabled: true, mergeRequestsEnabled: true, updatedAt: api.createdAt, lastActivityAt: api.createdAt }), archived: true };
    expect(paths((await starred("?archived=true")).body)).toEqual(["acme/api"]);
    expect(paths((await starred("?archived=false")).body)).toEqual(["beta/site", "acme/web"]);
    expect((await call(server.emulator, project("acme/web"), { method: "PUT", body: { issues_enabled: false } })).body.issues_enabled).toBe(false);
    expect((await call(server.emulator, project("beta/site"), { method: "PUT", body: { merge_requests_enabled: false } })).body._links).not.toHaveProperty("merge_requests");
    expect(paths((await starred("?with_issues_enabled=true")).body)).toEqual(["beta/site", "acme/api"]);
    expect(paths((await starred("?with_merge_requests_enabled=true")).body)).toEqual(["acme/api", "acme/web"]);
  });

  it("filters about the caller: owned, membership, starred, min_access_level; ignored for anonymous callers", async () => {
    // dev is a Developer of acme (Maintainer of acme/platform/infra), a member of nothing in beta.
    expect(paths((await starred("?membership=true", "dev")).body)).toEqual(["acme/api", "acme/web"]);
    expect(paths((await starred("?min_access_level=30", "dev")).body)).toEqual(["acme/api", "acme/web"]);
    expect(paths((await starred("?min_access_level=40", "dev")).body)).toEqual([]);
    expect(paths((await starred("?owned=true", "alice")).body)).toEqual(["beta/site", "acme/api", "acme/web"]);
    expect(paths((await starred("?owned=true", "maintainer")).body)).toEqual([]);
    // dev starred acme/web (and acme/platform/infra, which alice did not).
    expect(paths((await starred("?starred=true", "dev")).body)).toEqual(["acme/web"]);
    expect(paths((await starred("?membership=true&owned=true&starred=true&min_access_level=50", null)).body)).toEqual(["beta/site"]);
  });

  it("updated_after and updated_before read updated_at, which a change sets", async () => {
    now = Date.parse("2025-06-01T00:00:00.000Z");
    await call(server.emulator, project("beta/site"), { method: "PUT", body: { topics: ["docs", "website", "docs"] } });
    expect(paths((await starred("?updated_after=2025-05-01T00:00:00Z")).body)).toEqual(["beta/site"]);
    expect(paths((await starred("?updated_before=2025-05-01T00:00:00Z")).body)).toEqual(["acme/api", "acme/web"]);
    const [site] = (await starred("?updated_after=2025-05-01T00:00:00Z")).body;
    expect(site).toMatchObject({ topics: ["docs", "website"], tag_list: ["docs", "website"], updated_at: "2025-06-01T00:00:00.000Z" });
  });

  it("order_by each column, sort asc and desc, id as the tie-breaker", async () => {
    const order = async (query: string) => paths((await starred(query)).body);
    expect(await order("?order_by=id&sort=asc")).toEqual(["acme/web", "acme/api", "beta/site"]);
    expect(await order("?order_by=name&sort=asc")).toEqual(["acme/api", "beta/site", "acme/web"]);
    expect(await order("?order_by=path")).toEqual(["acme/web", "beta/site", "acme/api"]);
    expect(await order("?order_by=created_at&sort=asc")).toEqual(["acme/web", "acme/api", "beta/site"]);
    expect(await order("?order_by=updated_at")).toEqual(["beta/site", "acme/web", "acme/api"]);
    expect(await order("?order_by=last_activity_at&sort=asc")).toEqual(["acme/web", "acme/api", "beta/site"]);
    // acme/web 4 stars, beta/site 3, acme/api 1.
    expect(await order("?order_by=star_count")).toEqual(["acme/web", "beta/site", "acme/api"]);
    expect(await order("?order_by=star_count&sort=asc")).toEqual(["acme/api", "beta/site", "acme/web"]);
  });

  it("bad parameters: Grape's 400s", async () => {
    expect((await starred("?min_access_level=7")).body).toEqual({ error: "min_access_level does not have a valid value" });
    expect((await starred("?order_by=stars")).body).toEqual({ error: "order_by does not have a valid value" });
    expect((await starred("?sort=up")).body).toEqual({ error: "sort does not have a valid value" });
    expect((await starred("?visibility=secret")).body).toEqual({ error: "visibility does not have a valid value" });
    expect((await starred("?archived=maybe")).body).toEqual({ error: "archived is invalid" });
    expect((await starred("?updated_after=yesterday")).body).toEqual({ error: "updated_after is invalid" });
  });
});

describe("more than 100 starred projects: pages of 100, offset and keyset", () => {
  const many: Seed = {
    ...defaultSeed,
    projects: [...(defaultSeed.projects ?? []), ...Array.from({ length: 120 }, (_, i) => ({ path: `lib-${String(i).padStart(3, "0")}`, namespace: "beta", visibility: "public" as const }))],
    stars: { ...(defaultSeed["stars"] as Record<string, unknown>), outsider: Array.from({ length: 120 }, (_, i) => `beta/lib-${String(i).padStart(3, "0")}`) },
  };
  const server = useEmulator({ seed: many });

  it("offset: two pages with the real headers", async () => {
    const first = await call(server.emulator, "/users/outsider/starred_projects?per_page=100&order_by=path&sort=asc", { as: null });
    expect(first.body).toHaveLength(100);
    expect(first.headers.get("x-total")).toBe("120");
    expect(first.headers.get("x-next-page")).toBe("2");
    expect(first.headers.get("link")).toContain('rel="next"');
    const second = await call(server.emulator, "/users/outsider/starred_projects?per_page=100&order_by=path&sort=asc&page=2", { as: null });
    expect(paths(second.body)).toEqual(Array.from({ length: 20 }, (_, i) => `beta/lib-${String(100 + i).padStart(3, "0")}`));
  });

  it("keyset by id, following Link rel=next", async () => {
    const seen: string[] = [];
    let url: string | undefined = `${server.emulator.apiUrl}/users/outsider/starred_projects?pagination=keyset&order_by=id&sort=asc&per_page=50`;
    while (url) {
      const response = await fetch(url);
      seen.push(...paths((await response.json()) as { path_with_namespace: string }[]));
      url = /<([^>]+)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
    }
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect((await call(server.emulator, "/users/outsider/starred_projects?pagination=keyset&order_by=name&sort=asc")).status).toBe(405);
  });

  it("star_count stays true in the project's own answer", async () => {
    const lib = await call(server.emulator, project("beta/lib-007"));
    expect(lib.body.star_count).toBe(1);
    expect(starringStore.of(server.emulator.state).stars.filter((star) => star.projectId === lib.body.id)).toHaveLength(1);
  });
});

describe("the stars seed section", () => {
  const seedWith = (stars: unknown): Seed => ({ ...defaultSeed, stars });

  it("refuses what it cannot read, naming where", () => {
    expect(() => stateFromSeed(seedWith({ nobody: ["acme/web"] }))).toThrow(/stars\["nobody"\]: unknown user nobody/);
    expect(() => stateFromSeed(seedWith({ alice: ["acme/nope"] }))).toThrow(/stars\["alice"\]\[0\]: unknown project acme\/nope/);
    expect(() => stateFromSeed(seedWith({ alice: ["acme/web", "acme/web"] }))).toThrow(/alice stars acme\/web twice/);
    expect(() => stateFromSeed(seedWith({ alice: [{ project: "acme/web", starredAt: "soon" }] }))).toThrow(/stars\["alice"\]\[0\]\.starredAt: must be an ISO 8601 time/);
    expect(() => stateFromSeed(seedWith({ alice: { projects: [], private: true } }))).toThrow(/stars\["alice"\]: unknown key\(s\) private/);
    expect(() => stateFromSeed(seedWith(["alice"]))).toThrow(SeedError);
  });

  it("dates stars without a time one hour apart, the same on every start", () => {
    const first = starringStore.of(stateFromSeed(defaultSeed)).stars;
    const again = starringStore.of(stateFromSeed(defaultSeed)).stars;
    expect(first).toEqual(again);
    expect(first.slice(0, 2).map((star) => star.starredAt)).toEqual(["2024-04-01T00:00:00.000Z", "2024-04-01T01:00:00.000Z"]);
  });
});
