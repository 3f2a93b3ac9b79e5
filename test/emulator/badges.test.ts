import { beforeAll, describe, expect, it } from "vitest";
import { badgeStore } from "../../src/emulator";
import { call, createBadge, useEmulator } from "./helpers";

const server = useEmulator();

const WEB = "/projects/acme%2Fweb";
const API = "/projects/acme%2Fapi";
const INFRA = "/projects/acme%2Fplatform%2Finfra";
const ACME = "/groups/acme";

describe("creating a badge", () => {
  it("answers 201 with the badge, rendered for the project", async () => {
    const web = server.emulator.state.projectByFullPath("acme/web")!;
    const result = await call(server.emulator, `${WEB}/badges`, {
      method: "POST",
      body: {
        name: "Coverage",
        link_url: "https://ci.example.test/%{project_path}/-/commits/%{default_branch}",
        image_url: "https://ci.example.test/%{project_id}/badge.svg",
      },
    });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      name: "Coverage",
      link_url: "https://ci.example.test/%{project_path}/-/commits/%{default_branch}",
      image_url: "https://ci.example.test/%{project_id}/badge.svg",
      rendered_link_url: "https://ci.example.test/acme/web/-/commits/main",
      rendered_image_url: `https://ci.example.test/${web.id}/badge.svg`,
      id: expect.any(Number),
      kind: "project",
    });
  });

  it("leaves the name null when none is given", async () => {
    const badge = await createBadge(server.emulator, WEB);
    expect(badge.name).toBeNull();
  });

  it("answers 400 {error} naming each missing required parameter", async () => {
    const one = await call(server.emulator, `${WEB}/badges`, {
      method: "POST",
      body: { image_url: "https://x.example/i.svg" },
    });
    expect(one.status).toBe(400);
    expect(one.body).toEqual({ error: "link_url is missing" });
    const both = await call(server.emulator, `${WEB}/badges`, { method: "POST", body: { name: "n" } });
    expect(both.body).toEqual({ error: "link_url is missing, image_url is missing" });
  });

  it("answers 400 {message: {field: [...]}} for URLs that are not http(s) URLs", async () => {
    const result = await call(server.emulator, `${WEB}/badges`, {
      method: "POST",
      body: { link_url: "not a url", image_url: "ftp://files.example/i.svg" },
    });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      message: { link_url: ["must be a valid URL"], image_url: ["must be a valid URL"] },
    });
    const empty = await call(server.emulator, `${WEB}/badges`, {
      method: "POST",
      body: { link_url: "", image_url: "https://x.example/i.svg" },
    });
    expect(empty.body).toEqual({ message: { link_url: ["must be a valid URL"] } });
  });

  it("accepts placeholders anywhere in a URL, the host included", async () => {
    const badge = await createBadge(server.emulator, WEB, {
      link_url: "https://%{gitlab_server}/%{project_path}",
      image_url: "http://%{gitlab_pages_domain}/badge.svg?sha=%{commit_sha}",
    });
    expect(badge.rendered_link_url).toBe("https://platform.example.test/acme/web");
  });
});

describe("permissions", () => {
  const body = { link_url: "https://p.example/l", image_url: "https://p.example/i.svg" };

  it("refuses a project Developer with 403 and lets a Maintainer create", async () => {
    const developer = await call(server.emulator, `${WEB}/badges`, { as: "dev", method: "POST", body });
    expect(developer.status).toBe(403);
    expect(developer.body).toEqual({ message: "403 Forbidden" });
    const maintainer = await call(server.emulator, `${WEB}/badges`, { as: "maintainer", method: "POST", body });
    expect(maintainer.status).toBe(201);
  });

  it("counts a direct project role above the inherited one", async () => {
    // dev is Developer of acme but Maintainer of acme/platform/infra.
    const result = await call(server.emulator, `${INFRA}/badges`, { as: "dev", method: "POST", body });
    expect(result.status).toBe(201);
  });

  it("needs Owner on a group, as admin_group does", async () => {
    const maintainer = await call(server.emulator, `${ACME}/badges`, { as: "maintainer", method: "POST", body });
    expect(maintainer.status).toBe(403);
    const owner = await call(server.emulator, `${ACME}/badges`, { as: "alice", method: "POST", body });
    expect(owner.status).toBe(201);
    expect(owner.body.kind).toBe("group");
  });

  it("lets any reader list: a Guest of the group", async () => {
    const result = await call(server.emulator, `${WEB}/badges`, { as: "guest" });
    expect(result.status).toBe(200);
  });

  it("hides a private source from an outsider with 404, for reads and writes", async () => {
    const read = await call(server.emulator, `${WEB}/badges`, { as: "outsider" });
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ message: "404 Project Not Found" });
    const write = await call(server.emulator, `${ACME}/badges`, { as: "outsider", method: "POST", body });
    expect(write.status).toBe(404);
    expect(write.body).toEqual({ message: "404 Group Not Found" });
  });

  it("answers 403 to a non-member writing to a public project", async () => {
    const result = await call(server.emulator, "/projects/beta%2Fsite/badges", { as: "outsider", method: "POST", body });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ message: "403 Forbidden" });
  });
});

describe("listing", () => {
  let groupBadge: any;
  let subgroupBadge: any;
  let apiBadge: any;

  beforeAll(async () => {
    groupBadge = await createBadge(server.emulator, ACME, {
      name: "Group pipeline",
      link_url: "https://ci.example.test/%{project_path}?ref=%{default_branch}",
    });
    subgroupBadge = await createBadge(server.emulator, "/groups/acme%2Fplatform", { name: "Platform" });
    apiBadge = await createBadge(server.emulator, API, { name: "Release" });
    await createBadge(server.emulator, API, { name: "release" });
  });

  it("includes the group chain's badges with kind group, in creation order", async () => {
    const result = await call(server.emulator, `${INFRA}/badges`);
    expect(result.status).toBe(200);
    const { state } = server.emulator;
    const infraId = state.projectByFullPath("acme/platform/infra")!.id;
    const chainIds = [state.groupByFullPath("acme")!.id, state.groupByFullPath("acme/platform")!.id];
    const infraBadges = badgeStore
      .of(state)
      .badges.filter(
        (badge) =>
          (badge.kind === "project" && badge.sourceId === infraId) ||
          (badge.kind === "group" && chainIds.includes(badge.sourceId)),
      )
      .map((badge) => badge.id)
      .sort((a, b) => a - b);
    expect(infraBadges.length).toBeGreaterThanOrEqual(3);
    expect(result.body.map((badge: any) => badge.id)).toEqual(infraBadges);
    expect(result.body.filter((badge: any) => badge.kind === "group").map((badge: any) => badge.id)).toEqual(
      expect.arrayContaining([groupBadge.id, subgroupBadge.id]),
    );
  });

  it("renders a group badge seen through a project with that project's values", async () => {
    const result = await call(server.emulator, `${API}/badges`);
    const seen = result.body.find((badge: any) => badge.id === groupBadge.id);
    expect(seen).toMatchObject({
      kind: "group",
      rendered_link_url: "https://ci.example.test/acme/api?ref=develop",
    });
  });

  it("lists only the group's own badges on a group", async () => {
    const result = await call(server.emulator, `${ACME}/badges`);
    expect(result.body.every((badge: any) => badge.kind === "group")).toBe(true);
    expect(result.body.map((badge: any) => badge.id)).not.toContain(subgroupBadge.id);
  });

  it("filters by exact, case-sensitive name", async () => {
    const result = await call(server.emulator, `${API}/badges?name=Release`);
    expect(result.body.map((badge: any) => badge.id)).toEqual([apiBadge.id]);
    expect((await call(server.emulator, `${API}/badges?name=Releas`)).body).toEqual([]);
  });

  it("sends pagination headers", async () => {
    const result = await call(server.emulator, `${API}/badges?per_page=1`);
    expect(result.headers.get("x-per-page")).toBe("1");
    expect(result.headers.get("x-page")).toBe("1");
    expect(result.headers.get("x-next-page")).toBe("2");
  });
});

describe("one badge", () => {
  it("gets a badge of the source", async () => {
    const badge = await createBadge(server.emulator, WEB, { name: "one" });
    const result = await call(server.emulator, `${WEB}/badges/${badge.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(badge);
  });

  it("answers 404 {message: '404 Not found'} for a missing badge", async () => {
    const result = await call(server.emulator, `${WEB}/badges/999999`);
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ message: "404 Not found" });
  });

  it("does not find another project's badge or a group badge through a project", async () => {
    const other = await createBadge(server.emulator, API);
    const group = await createBadge(server.emulator, ACME);
    for (const id of [other.id, group.id]) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const result = await call(server.emulator, `${WEB}/badges/${id}`, { method, body: method === "PUT" ? {} : undefined });
        expect(result.status, `${method} ${id}`).toBe(404);
        expect(result.body).toEqual({ message: "404 Not found" });
      }
    }
    expect((await call(server.emulator, `${ACME}/badges/${group.id}`)).status).toBe(200);
  });

  it("answers 400 for a badge id that is not an integer", async () => {
    const result = await call(server.emulator, `${WEB}/badges/abc`);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: "badge_id is invalid" });
  });
});

describe("updating and deleting", () => {
  it("changes only the fields given", async () => {
    const badge = await createBadge(server.emulator, WEB, { name: "before" });
    const result = await call(server.emulator, `${WEB}/badges/${badge.id}`, { method: "PUT", body: { name: "after" } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ ...badge, name: "after" });
    const url = await call(server.emulator, `${WEB}/badges/${badge.id}`, {
      method: "PUT",
      body: { image_url: "https://new.example/%{latest_tag}.svg" },
    });
    expect(url.body).toMatchObject({
      name: "after",
      link_url: badge.link_url,
      image_url: "https://new.example/%{latest_tag}.svg",
      rendered_image_url: "https://new.example/v1.4.0.svg",
    });
  });

  it("rejects an invalid URL on update with 400 and keeps the badge", async () => {
    const badge = await createBadge(server.emulator, WEB);
    const result = await call(server.emulator, `${WEB}/badges/${badge.id}`, { method: "PUT", body: { link_url: "mailto:x@y" } });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ message: { link_url: ["must be a valid URL"] } });
    expect((await call(server.emulator, `${WEB}/badges/${badge.id}`)).body).toEqual(badge);
  });

  it("refuses updates and deletes below Maintainer", async () => {
    const badge = await createBadge(server.emulator, WEB);
    expect((await call(server.emulator, `${WEB}/badges/${badge.id}`, { as: "dev", method: "PUT", body: { name: "x" } })).status).toBe(403);
    expect((await call(server.emulator, `${WEB}/badges/${badge.id}`, { as: "dev", method: "DELETE" })).status).toBe(403);
  });

  it("deletes with 204 and an empty body", async () => {
    const badge = await createBadge(server.emulator, WEB);
    const result = await call(server.emulator, `${WEB}/badges/${badge.id}`, { method: "DELETE" });
    expect(result.status).toBe(204);
    expect(result.text).toBe("");
    expect(result.headers.get("content-type")).toBeNull();
    expect((await call(server.emulator, `${WEB}/badges/${badge.id}`)).status).toBe(404);
  });
});

describe("render", () => {
  const allPlaceholders = [
    "project_path",
    "project_title",
    "project_name",
    "project_id",
    "project_namespace",
    "group_name",
    "service_server",
    "gitlab_server",
    "service_pages_domain",
    "gitlab_pages_domain",
    "default_branch",
    "commit_sha",
    "latest_tag",
  ]
    .map((name) => `${name}=%{${name}}`)
    .join("&");
  const linkUrl = `https://render.example/x?${allPlaceholders}`;
  const renderPath = (source: string, link = linkUrl, image = "https://render.example/%{project_name}.svg") =>
    `${source}/badges/render?link_url=${encodeURIComponent(link)}&image_url=${encodeURIComponent(image)}`;

  it("renders every placeholder with the project's values", async () => {
    const web = server.emulator.state.projectByFullPath("acme/web")!;
    const result = await call(server.emulator, renderPath(WEB));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      name: null,
      link_url: linkUrl,
      image_url: "https://render.example/%{project_name}.svg",
      rendered_link_url:
        "https://render.example/x?project_path=acme/web&project_title=Web&project_name=web" +
        `&project_id=${web.id}&project_namespace=acme&group_name=Acme` +
        "&service_server=platform.example.test&gitlab_server=platform.example.test" +
        "&service_pages_domain=pages.example.test&gitlab_pages_domain=pages.example.test" +
        "&default_branch=main&commit_sha=4fad28417dafda0a34a76720d5db3ad93d067efb&latest_tag=v1.4.0",
      rendered_image_url: "https://render.example/web.svg",
    });
  });

  it("renders missing values as empty and leaves unknown placeholders alone", async () => {
    const result = await call(
      server.emulator,
      renderPath(INFRA, "https://render.example/?tag=%{latest_tag}&x=%{unknown}&ns=%{project_namespace}&g=%{group_name}"),
    );
    expect(result.body.rendered_link_url).toBe("https://render.example/?tag=&x=%{unknown}&ns=acme/platform&g=Acme");
  });

  it("renders a group badge with the group's first project by creation date, not from subgroups", async () => {
    // acme/web was created before acme/api; acme/platform/infra is older still but lives in a subgroup.
    const result = await call(server.emulator, renderPath(ACME, "https://render.example/%{project_path}"), { as: "alice" });
    expect(result.status).toBe(200);
    expect(result.body.rendered_link_url).toBe("https://render.example/acme/web");
    expect(result.body.rendered_image_url).toBe("https://render.example/web.svg");
  });

  it("returns the raw URLs for a group without projects", async () => {
    const result = await call(server.emulator, renderPath("/groups/beta%2Flabs"), { as: "alice" });
    expect(result.status).toBe(200);
    expect(result.body.rendered_link_url).toBe(linkUrl);
    expect(result.body.rendered_image_url).toBe("https://render.example/%{project_name}.svg");
  });

  it("shows group badges of a group without projects raw in its list too", async () => {
    const badge = await createBadge(server.emulator, "/groups/beta%2Flabs", { link_url: "https://l.example/%{project_path}" }, "alice");
    expect(badge.rendered_link_url).toBe("https://l.example/%{project_path}");
  });

  it("needs an authenticated administrator of the source", async () => {
    const anonymous = await call(server.emulator, renderPath("/projects/beta%2Fsite"), { as: null });
    expect(anonymous.status).toBe(401);
    const developer = await call(server.emulator, renderPath(WEB), { as: "dev" });
    expect(developer.status).toBe(403);
    expect(developer.body).toEqual({ message: "403 Forbidden" });
    const outsider = await call(server.emulator, renderPath(WEB), { as: "outsider" });
    expect(outsider.status).toBe(404);
  });

  it("validates its parameters like create", async () => {
    const missing = await call(server.emulator, `${WEB}/badges/render?link_url=https://x.example`);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "image_url is missing" });
    const invalid = await call(server.emulator, renderPath(WEB, "javascript:alert(1)"));
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: { link_url: ["must be a valid URL"] } });
  });
});
