/**
 * Finding the estate over real HTTP: `GET /groups/:id/projects`,
 * `GET /groups/:id/subgroups`, `GET /groups/:id/descendant_groups` and
 * `GET /projects`, with their filters, orderings, pages and who sees what.
 */
import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

const server = useEmulator({ backgroundWork: "manual" });
const paths = (body: { path_with_namespace?: string; full_path?: string }[]) => body.map((one) => one.path_with_namespace ?? one.full_path);

describe("GET /groups/:id/projects", () => {
  it("the group's own projects, or with its subgroups', newest first; simple; filters", async () => {
    const { emulator } = server;
    expect(paths((await call(emulator, "/groups/acme/projects", { as: "dev" })).body)).toEqual(["acme/api", "acme/web"]);
    const deep = await call(emulator, "/groups/acme/projects?include_subgroups=true&order_by=path&sort=asc", { as: "dev" });
    expect(paths(deep.body)).toEqual(["acme/api", "acme/platform/infra", "acme/web"]);
    expect(deep.body[0]).toMatchObject({ _links: expect.any(Object), namespace: { full_path: "acme" } });
    expect(deep.body[0].permissions).toBeUndefined(); // Entities::Project, not ProjectWithAccess
    const simple = await call(emulator, "/groups/acme/projects?simple=true", { as: "dev" });
    expect(simple.body[0]._links).toBeUndefined();
    expect((await call(emulator, "/groups/acme/projects?search=we", { as: "dev" })).body.map((project: { path: string }) => project.path)).toEqual(["web"]);
    expect(paths((await call(emulator, "/groups/acme/projects?include_subgroups=true&min_access_level=40", { as: "dev" })).body)).toEqual(["acme/platform/infra"]);
  });

  it("pages by offset only, with the real headers; keyset is not read", async () => {
    const { emulator } = server;
    const page = await call(emulator, "/groups/acme/projects?include_subgroups=true&per_page=2&page=2&pagination=keyset", { as: "alice" });
    expect(page.body).toHaveLength(1);
    expect(page.headers.get("x-total")).toBe("3");
    expect(page.headers.get("x-page")).toBe("2");
    expect(page.headers.get("link")).toContain('rel="prev"');
  });

  it("a private group is hidden from non-members; a public group's private projects too", async () => {
    const { emulator } = server;
    expect((await call(emulator, "/groups/acme/projects", { as: "outsider" })).body).toEqual({ message: "404 Group Not Found" });
    expect((await call(emulator, "/groups/acme/projects", { as: null })).status).toBe(404);
    expect(paths((await call(emulator, "/groups/beta/projects?include_subgroups=true", { as: null })).body)).toEqual(["beta/site"]);
    expect((await call(emulator, "/groups/acme%2Fplatform/projects", { as: "dev" })).body.map((project: { path: string }) => project.path)).toEqual(["infra"]);
  });
});

describe("GET /groups/:id/subgroups and /descendant_groups", () => {
  it("children and every group below, as GET /groups shows them", async () => {
    const { emulator } = server;
    expect(paths((await call(emulator, "/groups/acme/subgroups", { as: "alice" })).body)).toEqual(["acme/platform"]);
    expect(paths((await call(emulator, "/groups/acme/descendant_groups", { as: "guest" })).body)).toEqual(["acme/platform"]);
    expect(paths((await call(emulator, "/groups/beta/descendant_groups", { as: "alice" })).body)).toEqual(["beta/labs"]);
    // A signed-in non-member sees the groups they belong to unless all_available; anonymous callers public ones.
    expect((await call(emulator, "/groups/beta/subgroups", { as: "outsider" })).body).toEqual([]);
    expect(paths((await call(emulator, "/groups/beta/subgroups?all_available=true", { as: "outsider" })).body)).toEqual(["beta/labs"]);
    expect((await call(emulator, "/groups/beta/subgroups", { as: null })).body).toEqual([]);
    expect((await call(emulator, "/groups/acme/subgroups", { as: "outsider" })).status).toBe(404);
    expect((await call(emulator, "/groups/acme/subgroups?search=nothing", { as: "alice" })).body).toEqual([]);
    const paged = await call(emulator, "/groups/acme/descendant_groups?per_page=1&pagination=keyset", { as: "alice" });
    expect(paged.headers.get("x-total")).toBe("1");
  });
});

describe("GET /projects", () => {
  it("what each caller may see; membership, owned, search, simple", async () => {
    const { emulator } = server;
    expect(paths((await call(emulator, "/projects", { as: null })).body)).toEqual(["beta/site"]);
    expect(paths((await call(emulator, "/projects", { as: "outsider" })).body)).toEqual(["beta/site"]);
    const dev = await call(emulator, "/projects?order_by=id&sort=asc", { as: "dev" });
    expect(paths(dev.body)).toEqual(["acme/web", "acme/api", "acme/platform/infra", "beta/site"]);
    expect(dev.body[0].permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
    expect(paths((await call(emulator, "/projects?membership=true&order_by=path&sort=asc", { as: "dev" })).body)).toEqual(["acme/api", "acme/platform/infra", "acme/web"]);
    expect(paths((await call(emulator, "/projects?owned=true&order_by=id&sort=asc", { as: "alice" })).body)).toEqual(["acme/web", "acme/api", "acme/platform/infra", "beta/site"]);
    expect(paths((await call(emulator, "/projects?search=infr", { as: "dev" })).body)).toEqual(["acme/platform/infra"]);
    expect(paths((await call(emulator, "/projects?search=platform&search_namespaces=true", { as: "dev" })).body)).toEqual(["acme/platform/infra"]);
    const simple = (await call(emulator, "/projects?simple=true&membership=true", { as: "dev" })).body;
    expect(simple[0].permissions).toBeUndefined();
    expect((await call(emulator, "/projects?order_by=nope", { as: "dev" })).body).toEqual({ error: "order_by does not have a valid value" });
  });

  it("keyset pages by id, in either direction; other orderings 405", async () => {
    const { emulator } = server;
    const first = await call(emulator, "/projects?pagination=keyset&order_by=id&sort=asc&per_page=3", { as: "root" });
    expect(first.body.map((project: { id: number }) => project.id)).toEqual([1, 2, 3]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
    expect(next).toContain("id_after=3");
    expect(first.headers.get("x-total")).toBeNull();
    const second = await fetch(next!, { headers: { "PRIVATE-TOKEN": emulator.tokens.root! } });
    expect(((await second.json()) as { id: number }[]).map((project) => project.id)).toEqual([4]);
    const down = await call(emulator, "/projects?pagination=keyset&order_by=id&sort=desc&per_page=2", { as: "root" });
    expect(down.body.map((project: { id: number }) => project.id)).toEqual([4, 3]);
    expect(down.headers.get("link")).toContain("id_before=3");
    expect((await call(emulator, "/projects?pagination=keyset&order_by=name&sort=asc", { as: "root" })).body).toEqual({ error: "Keyset pagination is not yet available for this type of request" });
  });
});
