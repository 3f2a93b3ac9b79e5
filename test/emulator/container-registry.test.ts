import { describe, expect, it } from "vitest";
import { containerRegistryStore, selfManagedSeed } from "../../src/emulator";
import { call, type CallResult } from "./helpers";
import { API_SERVER, HOUR, START, WEB, freshEmulator, registrySeed, type ClockedEmulator } from "./registry-fixtures";

const tagNames = (result: CallResult): string[] => result.body.map((tag: { name: string }) => tag.name);

async function allTagNames(server: ClockedEmulator, repository = API_SERVER): Promise<string[]> {
  return tagNames(await call(server.emulator, `${repository}/tags?per_page=100`));
}

describe("listing a project's repositories", () => {
  it("answers the repositories in id order with the real fields, tags and tags_count only when asked", async () => {
    const { emulator } = await freshEmulator();
    const web = emulator.state.projectByFullPath("acme/web")!;
    const plain = await call(emulator, `${WEB}/registry/repositories`);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual([
      {
        id: 1, name: "", path: "acme/web", project_id: web.id, location: "registry.platform.example.test/acme/web",
        created_at: "2024-02-01T10:00:00.000Z", cleanup_policy_started_at: null, status: null,
      },
      {
        id: 2, name: "api-server", path: "acme/web/api-server", project_id: web.id,
        location: "registry.platform.example.test/acme/web/api-server",
        created_at: "2024-02-01T11:00:00.000Z", cleanup_policy_started_at: null, status: null,
      },
    ]);
    const extras = await call(emulator, `${WEB}/registry/repositories?tags=true&tags_count=true`);
    expect(extras.body[0].tags_count).toBe(2);
    expect(extras.body[0].tags).toEqual([
      { name: "latest", path: "acme/web:latest", location: "registry.platform.example.test/acme/web:latest" },
      { name: "main", path: "acme/web:main", location: "registry.platform.example.test/acme/web:main" },
    ]);
    expect(Object.keys(extras.body[1])).toEqual([
      "id", "name", "path", "project_id", "location", "created_at", "cleanup_policy_started_at", "tags_count", "tags", "status",
    ]);
  });

  it("pages with offset pagination headers", async () => {
    const { emulator } = await freshEmulator();
    const first = await call(emulator, `${WEB}/registry/repositories?per_page=1`);
    expect(first.body.map((r: any) => r.id)).toEqual([1]);
    expect(first.headers.get("x-total")).toBe("2");
    expect(first.headers.get("x-next-page")).toBe("2");
    const second = await call(emulator, `${WEB}/registry/repositories?per_page=1&page=2`);
    expect(second.body.map((r: any) => r.id)).toEqual([2]);
    expect(second.headers.get("x-next-page")).toBe("");
  });

  it("follows the roles: Reporter+ on a private project, anyone on a public one, 404 for outsiders", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, `${WEB}/registry/repositories`, { as: "reporter" })).status).toBe(200);
    const guest = await call(emulator, `${WEB}/registry/repositories`, { as: "guest" });
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: "403 Forbidden" });
    const outsider = await call(emulator, `${WEB}/registry/repositories`, { as: "outsider" });
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ message: "404 Project Not Found" });
    const anonymous = await call(emulator, "/projects/beta%2Fsite/registry/repositories", { as: null });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.map((r: any) => r.path)).toEqual(["beta/site"]);
    expect((await call(emulator, "/projects/beta%2Fsite/registry/repositories", { as: "outsider" })).status).toBe(200);
    expect((await call(emulator, "/projects/acme%2Fnope/registry/repositories")).status).toBe(404);
  });
});

describe("container_registry_access_level", () => {
  it("is shown on the project, enabled by default", async () => {
    const { emulator } = await freshEmulator();
    const project = await call(emulator, WEB);
    expect(project.body).toMatchObject({
      container_registry_access_level: "enabled",
      container_registry_enabled: true,
      container_registry_image_prefix: "registry.platform.example.test/acme/web",
    });
  });

  it("is set with PUT /projects/:id by a Maintainer, and answers the project", async () => {
    const { emulator } = await freshEmulator();
    const result = await call(emulator, "/projects/beta%2Fsite", { as: "alice", method: "PUT", body: { container_registry_access_level: "private" } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: expect.any(Number), name: "Site", container_registry_access_level: "private" });
    // private: members with Reporter+ only; the public project's anonymous readers and outsiders are refused.
    expect((await call(emulator, "/projects/beta%2Fsite/registry/repositories", { as: null })).status).toBe(403);
    expect((await call(emulator, "/projects/beta%2Fsite/registry/repositories", { as: "outsider" })).status).toBe(403);
    expect((await call(emulator, "/projects/beta%2Fsite/registry/repositories", { as: "alice" })).status).toBe(200);
    expect((await call(emulator, "/projects/beta%2Fsite/registry/repositories", { as: "root" })).status).toBe(200);
  });

  it("disabled turns the registry off for everyone, administrators included (403)", async () => {
    const { emulator } = await freshEmulator();
    await call(emulator, WEB, { method: "PUT", body: { container_registry_access_level: "disabled" } });
    for (const as of ["root", "alice", "reporter"]) {
      expect((await call(emulator, `${WEB}/registry/repositories`, { as })).status).toBe(403);
    }
    expect((await call(emulator, `${API_SERVER}/tags`)).status).toBe(403);
    expect((await call(emulator, "/registry/repositories/2")).status).toBe(403);
    expect((await call(emulator, "/groups/acme/registry/repositories")).body.map((r: any) => r.path)).toEqual(["acme/platform/infra/tools"]);
  });

  it("accepts the deprecated container_registry_enabled boolean", async () => {
    const { emulator } = await freshEmulator();
    const off = await call(emulator, WEB, { method: "PUT", body: { container_registry_enabled: false } });
    expect(off.body).toMatchObject({ container_registry_access_level: "disabled", container_registry_enabled: false });
    const on = await call(emulator, WEB, { method: "PUT", body: new URLSearchParams({ container_registry_enabled: "true" }) });
    expect(on.body.container_registry_access_level).toBe("enabled");
  });

  it("refuses other values, empty updates, Developers and anonymous callers", async () => {
    const { emulator } = await freshEmulator();
    const bad = await call(emulator, WEB, { method: "PUT", body: { container_registry_access_level: "public" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "container_registry_access_level does not have a valid value" });
    const empty = await call(emulator, WEB, { method: "PUT", body: { unknown_setting: 1 } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/are missing, at least one parameter must be provided$/);
    expect((await call(emulator, WEB, { as: "dev", method: "PUT", body: { container_registry_access_level: "private" } })).status).toBe(403);
    expect((await call(emulator, WEB, { as: null, method: "PUT", body: { container_registry_access_level: "private" } })).status).toBe(401);
    expect((await call(emulator, WEB, { as: "outsider", method: "PUT", body: { container_registry_access_level: "private" } })).status).toBe(404);
  });
});

describe("listing a group's repositories", () => {
  it("covers the group's and its subgroups' projects, without tags, paginated", async () => {
    const { emulator } = await freshEmulator();
    const all = await call(emulator, "/groups/acme/registry/repositories?tags=true&tags_count=true");
    expect(all.status).toBe(200);
    expect(all.body.map((r: any) => r.path)).toEqual(["acme/web", "acme/web/api-server", "acme/platform/infra/tools"]);
    expect(all.body[0]).not.toHaveProperty("tags");
    expect(all.body[0]).not.toHaveProperty("tags_count");
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const result = await call(emulator, `/groups/acme/registry/repositories?per_page=2&page=${page}`);
      pages.push(result.body.map((r: any) => r.id));
      expect(result.headers.get("x-total-pages")).toBe("2");
    }
    expect(pages).toEqual([[1, 2], [3], []]);
    expect((await call(emulator, "/groups/acme%2Fplatform/registry/repositories")).body.map((r: any) => r.id)).toEqual([3]);
  });

  it("needs Reporter+ in the group (403), and a visible group (404 Group Not Found)", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, "/groups/acme/registry/repositories", { as: "reporter" })).status).toBe(200);
    expect((await call(emulator, "/groups/acme/registry/repositories", { as: "guest" })).status).toBe(403);
    const outsider = await call(emulator, "/groups/acme/registry/repositories", { as: "outsider" });
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ message: "404 Group Not Found" });
    expect((await call(emulator, "/groups/beta/registry/repositories", { as: null })).status).toBe(403);
  });
});

describe("GET /registry/repositories/:id", () => {
  it("answers the repository with tags, tags_count, size and, for those who may administer it, delete_api_path", async () => {
    const { emulator } = await freshEmulator();
    const result = await call(emulator, "/registry/repositories/1?tags=true&tags_count=true&size=true", { as: "maintainer" });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      id: 1, name: "", path: "acme/web", project_id: expect.any(Number), location: "registry.platform.example.test/acme/web",
      created_at: "2024-02-01T10:00:00.000Z", cleanup_policy_started_at: null, tags_count: 2,
      tags: [
        { name: "latest", path: "acme/web:latest", location: "registry.platform.example.test/acme/web:latest" },
        { name: "main", path: "acme/web:main", location: "registry.platform.example.test/acme/web:main" },
      ],
      delete_api_path: `https://platform.example.test/api/v4/projects/${result.body.project_id}/registry/repositories/1`,
      // `latest` and `main` share one manifest: counted once.
      size: 48_213_331,
      status: null,
    });
    const reporter = await call(emulator, "/registry/repositories/1", { as: "reporter" });
    expect(reporter.body).not.toHaveProperty("delete_api_path");
    expect(reporter.body).not.toHaveProperty("size");
  });

  it("gives size null off the hosted offering and for repositories created before 2021-11-04", async () => {
    const selfManaged = await freshEmulator({ ...structuredClone(selfManagedSeed) });
    expect((await call(selfManaged.emulator, "/registry/repositories/1?size=true")).body.size).toBeNull();
    const old = await freshEmulator(registrySeed((seed) => (seed.containerRegistry.repositories["beta/site"][0].createdAt = "2021-01-01T00:00:00Z")));
    expect((await call(old.emulator, "/registry/repositories/4?size=true")).body.size).toBeNull();
  });

  it("needs a signed-in user (401), answers 404 Not found for an unknown id and 403 without read access", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, "/registry/repositories/4", { as: null })).status).toBe(401);
    const missing = await call(emulator, "/registry/repositories/999");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Not found" });
    expect((await call(emulator, "/registry/repositories/2", { as: "outsider" })).status).toBe(403);
    expect((await call(emulator, "/registry/repositories/2", { as: "guest" })).status).toBe(403);
    expect((await call(emulator, "/registry/repositories/4", { as: "outsider" })).status).toBe(200);
    const notNumeric = await call(emulator, "/registry/repositories/abc");
    expect(notNumeric.status).toBe(404);
    expect(notNumeric.body).toEqual({ error: "404 Not Found" });
  });
});

describe("listing tags", () => {
  it("lists tag summaries by name with offset pagination over several pages", async () => {
    const server = await freshEmulator();
    const names = await allTagNames(server);
    expect(names).toEqual([
      "feature-login", "latest", "main-1a2b3c4d", "main-2b3c4d5e", "main-3c4d5e6f", "main-4d5e6f70", "main-5e6f7081",
      "v1.0.0", "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0",
    ]);
    const pages: string[][] = [];
    for (let page = 1; page <= 3; page++) {
      const result = await call(server.emulator, `${API_SERVER}/tags?per_page=5&page=${page}`);
      expect(result.headers.get("x-total")).toBe("12");
      pages.push(tagNames(result));
    }
    expect(pages.flat()).toEqual(names);
    expect(pages.map((p) => p.length)).toEqual([5, 5, 2]);
  });

  async function walkKeyset(server: ClockedEmulator, sort: string): Promise<string[][]> {
    const pages: string[][] = [];
    let url: string | undefined = `${server.emulator.apiUrl}${API_SERVER}/tags?pagination=keyset&order_by=name&sort=${sort}&per_page=5`;
    while (url) {
      const result = await call(server.emulator, url.slice(server.emulator.apiUrl.length));
      expect(result.status).toBe(200);
      expect(result.headers.get("x-total")).toBeNull();
      pages.push(tagNames(result));
      url = /<([^>]+)>; rel="next"/.exec(result.headers.get("link") ?? "")?.[1];
    }
    return pages;
  }

  it("pages with keyset pagination by name, ascending and descending, through the `last` marker", async () => {
    const server = await freshEmulator();
    const names = await allTagNames(server);
    const ascending = await walkKeyset(server, "asc");
    expect(ascending.map((p) => p.length)).toEqual([5, 5, 2]);
    expect(ascending.flat()).toEqual(names);
    const descending = await walkKeyset(server, "desc");
    expect(descending.flat()).toEqual([...names].reverse());
    const first = await call(server.emulator, `${API_SERVER}/tags?pagination=keyset&order_by=name&sort=asc&per_page=5`);
    expect(first.headers.get("link")).toContain("last=main-3c4d5e6f");
  });

  it("refuses keyset pagination to anonymous callers (401) and by another column (405)", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, "/projects/beta%2Fsite/registry/repositories/4/tags?pagination=keyset", { as: null })).status).toBe(401);
    expect((await call(emulator, "/projects/beta%2Fsite/registry/repositories/4/tags", { as: null })).status).toBe(200);
    const byDate = await call(emulator, `${API_SERVER}/tags?pagination=keyset&order_by=created_at&sort=asc`);
    expect(byDate.status).toBe(405);
  });

  it("answers 404 Not found for a repository of another project", async () => {
    const { emulator } = await freshEmulator();
    const result = await call(emulator, `${WEB}/registry/repositories/4/tags`);
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ message: "404 Not found" });
  });
});

describe("tag details", () => {
  it("answers the tag detail", async () => {
    const { emulator } = await freshEmulator();
    const result = await call(emulator, `${API_SERVER}/tags/v1.0.0`, { as: "reporter" });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      name: "v1.0.0",
      path: "acme/web/api-server:v1.0.0",
      location: "registry.platform.example.test/acme/web/api-server:v1.0.0",
      revision: expect.stringMatching(/^[0-9a-f]{64}$/),
      short_revision: result.body.revision.slice(0, 9),
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      created_at: "2024-02-10T12:00:00.000Z",
      total_size: 61_004_288,
    });
    const latest = await call(emulator, `${API_SERVER}/tags/latest`);
    const release = await call(emulator, `${API_SERVER}/tags/v1.4.0`);
    expect(latest.body.digest).toBe(release.body.digest);
  });

  it("answers 404 Tag Not Found for an unknown tag", async () => {
    const { emulator } = await freshEmulator();
    const result = await call(emulator, `${API_SERVER}/tags/v9`);
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ message: "404 Tag Not Found" });
  });
});

describe("deleting one tag", () => {
  it("lets a Developer delete an unprotected tag: 200, only that tag goes", async () => {
    const server = await freshEmulator();
    const result = await call(server.emulator, `${API_SERVER}/tags/main-1a2b3c4d`, { as: "dev", method: "DELETE" });
    expect(result.status).toBe(200);
    expect(result.body).toBe(200);
    expect(await allTagNames(server)).not.toContain("main-1a2b3c4d");
    expect((await call(server.emulator, `${API_SERVER}/tags/main-1a2b3c4d`)).status).toBe(404);
  });

  it("refuses a protected tag to a role below the rule (403), lets a Maintainer delete it and keeps the manifest's other tags", async () => {
    const server = await freshEmulator();
    const refused = await call(server.emulator, `${API_SERVER}/tags/v1.4.0`, { as: "dev", method: "DELETE" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "403 Forbidden - cannot delete protected tag(s)" });
    expect((await call(server.emulator, `${API_SERVER}/tags/v1.4.0`, { as: "maintainer", method: "DELETE" })).status).toBe(200);
    expect(await allTagNames(server)).toContain("latest");
  });

  it("refuses Reporters and Guests (403) and answers 404 for an unknown tag", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, `${API_SERVER}/tags/main-1a2b3c4d`, { as: "reporter", method: "DELETE" })).status).toBe(403);
    expect((await call(emulator, `${API_SERVER}/tags/main-1a2b3c4d`, { as: "guest", method: "DELETE" })).status).toBe(403);
    expect((await call(emulator, `${API_SERVER}/tags/nope`, { as: "dev", method: "DELETE" })).body).toEqual({ message: "404 Tag Not Found" });
  });
});

describe("deleting a repository", () => {
  it("answers 202, schedules the deletion, and the background work moves it to delete_ongoing then removes it", async () => {
    const server = await freshEmulator();
    const { emulator } = server;
    const result = await call(emulator, API_SERVER, { as: "maintainer", method: "DELETE" });
    expect(result.status).toBe(202);
    expect(result.body).toBe(202);
    expect((await call(emulator, "/registry/repositories/2")).body.status).toBe("delete_scheduled");
    emulator.runDueWork();
    const ongoing = await call(emulator, "/registry/repositories/2?tags_count=true");
    expect(ongoing.body).toMatchObject({ status: "delete_ongoing", tags_count: 0 });
    emulator.runDueWork();
    expect((await call(emulator, "/registry/repositories/2")).status).toBe(404);
    expect((await call(emulator, `${WEB}/registry/repositories`)).body.map((r: any) => r.id)).toEqual([1]);
  });

  it("needs a Maintainer (403 for a Developer) and a repository of the project (404)", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, API_SERVER, { as: "dev", method: "DELETE" })).status).toBe(403);
    expect((await call(emulator, `${WEB}/registry/repositories/4`, { method: "DELETE" })).status).toBe(404);
    expect((await call(emulator, API_SERVER, { as: null, method: "DELETE" })).status).toBe(401);
  });
});

describe("bulk tag deletion", () => {
  /** A fresh emulator, one bulk call as a Maintainer, the background work, and the tags left. */
  async function bulk(query: string, seed = registrySeed()): Promise<{ status: number; left: string[]; server: ClockedEmulator }> {
    const server = await freshEmulator(seed);
    const result = await call(server.emulator, `${API_SERVER}/tags?${query}`, { as: "maintainer", method: "DELETE" });
    server.emulator.runDueWork();
    return { status: result.status, left: await allTagNames(server), server };
  }

  it("answers 202 and deletes nothing until the background work runs", async () => {
    const server = await freshEmulator();
    const result = await call(server.emulator, `${API_SERVER}/tags?name_regex_delete=.*`, { as: "maintainer", method: "DELETE" });
    expect(result.status).toBe(202);
    expect(result.body).toBe(202);
    expect(await allTagNames(server)).toHaveLength(12);
    server.emulator.runDueWork();
    expect(await allTagNames(server)).toEqual(["latest"]);
  });

  it("deletes only full matches of the delete expression, never `latest`", async () => {
    const { left } = await bulk("name_regex_delete=main-.*");
    expect(left).toEqual(["feature-login", "latest", "v1.0.0", "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0"]);
    // `main` alone is not a full match of any tag.
    expect((await bulk("name_regex_delete=main")).left).toHaveLength(12);
  });

  it("accepts the deprecated name_regex", async () => {
    expect((await bulk("name_regex=feature-.*")).left).not.toContain("feature-login");
  });

  it("keeps the names matching name_regex_keep", async () => {
    const { left } = await bulk(`name_regex_delete=.*&name_regex_keep=${encodeURIComponent("v1\\..*|main-5.*")}`);
    expect(left).toEqual(["latest", "main-5e6f7081", "v1.0.0", "v1.1.0", "v1.2.0", "v1.3.0", "v1.4.0"]);
  });

  it("keeps the keep_n newest matching tags by manifest creation", async () => {
    const { left } = await bulk("name_regex_delete=main-.*&keep_n=2");
    expect(left.filter((name) => name.startsWith("main-"))).toEqual(["main-4d5e6f70", "main-5e6f7081"]);
  });

  it("deletes only tags older than older_than (1h, 1d, 1month forms)", async () => {
    // The clock is 2024-06-01: 1month back is 2024-05-02.
    const month = await bulk("name_regex_delete=.*&older_than=1month");
    expect(month.left).toEqual(["feature-login", "latest", "main-4d5e6f70", "main-5e6f7081"]);
    const days = await bulk("name_regex_delete=.*&older_than=30d");
    expect(days.left).toEqual(month.left);
    const hours = await bulk("name_regex_delete=main-.*&older_than=700h");
    expect(hours.left.filter((name) => name.startsWith("main-"))).toEqual(["main-4d5e6f70", "main-5e6f7081"]);
  });

  it("reads older_than as the server's duration parser does: the clock form, a leading unit, unknown words passed over", async () => {
    const month = (await bulk("name_regex_delete=.*&older_than=30d")).left;
    // 720:00:00 is 720 hours; "30 days, give or take" is 30 days; "month" is one month (30 days).
    for (const text of ["720:00:00", "30 days, give or take", "month"]) expect((await bulk(`name_regex_delete=.*&older_than=${encodeURIComponent(text)}`)).left).toEqual(month);
  });

  it("leaves out tags protected for the caller", async () => {
    const seed = registrySeed((s) => s.containerRegistry.protectionRules["acme/web"].push({ tagNamePattern: "^feature", minimumAccessLevelForDelete: "owner" }));
    const { left } = await bulk("name_regex_delete=.*", seed);
    expect(left).toEqual(["feature-login", "latest"]);
    const owner = await freshEmulator(seed);
    await call(owner.emulator, `${API_SERVER}/tags?name_regex_delete=.*`, { as: "alice", method: "DELETE" });
    owner.emulator.runDueWork();
    expect(await allTagNames(owner)).toEqual(["latest"]);
  });

  it("runs at most once an hour per repository, with the real answer the second time", async () => {
    const server = await freshEmulator();
    const path = `${API_SERVER}/tags?name_regex_delete=main-1.*`;
    expect((await call(server.emulator, path, { as: "maintainer", method: "DELETE" })).status).toBe(202);
    server.advance(HOUR - 1000);
    const again = await call(server.emulator, path, { as: "maintainer", method: "DELETE" });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      message: "This request has already been made. You can run this at most once an hour for a given container repository",
    });
    // Another repository has its own lease.
    expect((await call(server.emulator, `${WEB}/registry/repositories/1/tags?name_regex_delete=x`, { as: "maintainer", method: "DELETE" })).status).toBe(202);
    server.advance(1000);
    expect((await call(server.emulator, path, { as: "maintainer", method: "DELETE" })).status).toBe(202);
  });

  it("deletes at most 200 tags per call on the hosted offering, the oldest first; all of them self-managed", async () => {
    const manyTags = (seed: any): void => {
      seed.containerRegistry.repositories["acme/web"][1].tags = Array.from({ length: 250 }, (_, i) => ({
        name: `build-${String(i).padStart(3, "0")}`,
        createdAt: new Date(START - (300 - i) * HOUR).toISOString(),
      }));
    };
    const hosted = await bulk("name_regex_delete=build-.*", registrySeed(manyTags));
    expect(hosted.left).toHaveLength(50);
    expect(hosted.left[0]).toBe("build-200");
    hosted.server.advance(HOUR);
    await call(hosted.server.emulator, `${API_SERVER}/tags?name_regex_delete=build-.*`, { as: "maintainer", method: "DELETE" });
    hosted.server.emulator.runDueWork();
    expect(await allTagNames(hosted.server)).toEqual([]);
    const selfManaged = await bulk("name_regex_delete=build-.*", registrySeed((seed) => {
      manyTags(seed);
      seed.instance.offering = "self-managed";
    }));
    expect(selfManaged.left).toEqual([]);
  });

  it("validates the expressions with RE2 and the real messages", async () => {
    const { emulator } = await freshEmulator();
    const del = (query: string) => call(emulator, `${API_SERVER}/tags?${query}`, { as: "maintainer", method: "DELETE" });
    expect((await del(`name_regex_delete=${encodeURIComponent("(v1")}`)).body).toEqual({ error: "name_regex_delete is an invalid regexp: missing ): (v1" });
    expect((await del(`name_regex=${encodeURIComponent("[a-")}`)).body).toEqual({ error: "name_regex is an invalid regexp: missing ]: [a-" });
    expect((await del(`name_regex_delete=.*&name_regex_keep=${encodeURIComponent("a**")}`)).body).toEqual({
      error: "name_regex_keep is an invalid regexp: bad repetition operator: **",
    });
    // A Perl look-ahead is not RE2.
    expect((await del(`name_regex_delete=${encodeURIComponent("v(?=1)")}`)).status).toBe(400);
    const neither = await del("keep_n=1");
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ error: "name_regex, name_regex_delete are missing, at least one parameter must be provided" });
    expect((await del("name_regex_delete=.*&older_than=soon")).body).toEqual({ error: "older_than is invalid" });
    expect((await del("name_regex_delete=.*&keep_n=many")).body).toEqual({ error: "keep_n is invalid" });
    // None of the refused calls took the hourly lease.
    expect((await del("name_regex_delete=none")).status).toBe(202);
  });

  it("needs a Maintainer (403 for Developers and Reporters)", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, `${API_SERVER}/tags?name_regex_delete=.*`, { as: "dev", method: "DELETE" })).status).toBe(403);
    expect((await call(emulator, `${API_SERVER}/tags?name_regex_delete=.*`, { as: "reporter", method: "DELETE" })).status).toBe(403);
    expect(containerRegistryStore.of(emulator.state).pendingBulkDeletes).toEqual([]);
  });
});

describe("the containerRegistry seed section", () => {
  it("derives revisions and digests deterministically and rejects bad sections", async () => {
    const a = await freshEmulator();
    const b = await freshEmulator();
    const tagA = (await call(a.emulator, `${API_SERVER}/tags/main-1a2b3c4d`)).body;
    const tagB = (await call(b.emulator, `${API_SERVER}/tags/main-1a2b3c4d`)).body;
    expect(tagA.digest).toBe(tagB.digest);
    expect(tagA.revision).toBe(tagB.revision);
    await expect(freshEmulator(registrySeed((s) => (s.containerRegistry.repositories["acme/nope"] = [])))).rejects.toThrow(/unknown project acme\/nope/);
    await expect(freshEmulator(registrySeed((s) => (s.containerRegistry.protectionRules["acme/web"][0].tagNamePattern = "(")))).rejects.toThrow(/tagNamePattern/);
    await expect(freshEmulator(registrySeed((s) => (s.containerRegistry.accessLevels = { "acme/web": "open" })))).rejects.toThrow(/accessLevels/);
    await expect(freshEmulator(registrySeed((s) => (s.containerRegistry.repositories["acme/web"][0].tags[0].digest = "sha256:x")))).rejects.toThrow(
      'containerRegistry.repositories["acme/web"][0].tags[0].digest: must be sha256:<64 hex>',
    );
    await expect(freshEmulator(registrySeed((s) => (s.containerRegistry.protectionRules["acme/web"][0].minimumAccessLevelForPush = "developer")))).rejects.toThrow(
      'containerRegistry.protectionRules["acme/web"][0].minimumAccessLevelForPush: must be one of maintainer, owner, admin',
    );
    await expect(freshEmulator(registrySeed((s) => (s.containerRegistry.protectionRules["acme/web"][0].tagNamePattern = "(")))).rejects.toThrow(
      'containerRegistry.protectionRules["acme/web"][0].tagNamePattern: must be an RE2 pattern: ',
    );
    const privateLevel = await freshEmulator(registrySeed((s) => (s.containerRegistry.accessLevels = { "beta/site": "private" })));
    expect((await call(privateLevel.emulator, "/projects/beta%2Fsite/registry/repositories", { as: null })).status).toBe(403);
  });
});
