import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { route, startEmulator, type RouteModule } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

/** A route that fails on purpose, to see the 500 answer. */
const brokenRoutes: RouteModule = {
  name: "broken",
  routes: [
    route("GET", "/test/broken", {}, () => {
      throw new Error("boom");
    }),
  ],
};

const server = useEmulator({ extraRoutes: [brokenRoutes] });

describe("authentication", () => {
  it("answers 401 with the real body for an unknown token", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fweb", { token: "glpat-nope" });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ message: "401 Unauthorized" });
    expect(result.headers.get("content-type")).toBe("application/json");
  });

  it("answers 401 for an unknown token even on a public resource", async () => {
    const result = await call(server.emulator, "/projects/beta%2Fsite", { token: "glpat-nope" });
    expect(result.status).toBe(401);
  });

  it("accepts Authorization: Bearer as well as PRIVATE-TOKEN", async () => {
    const result = await call(server.emulator, "/user", {
      as: null,
      headers: { Authorization: `Bearer ${server.emulator.tokens.alice}` },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ username: "alice", is_admin: false });
  });

  it("lets anonymous requests read public resources", async () => {
    const project = await call(server.emulator, "/projects/beta%2Fsite", { as: null });
    expect(project.status).toBe(200);
    expect(project.body).toMatchObject({ path_with_namespace: "beta/site", visibility: "public" });
    const group = await call(server.emulator, "/groups/beta", { as: null });
    expect(group.status).toBe(200);
  });

  it("answers 401 to anonymous writes, even on public resources", async () => {
    const result = await call(server.emulator, "/projects/beta%2Fsite/badges", {
      as: null,
      method: "POST",
      body: { link_url: "https://x.example", image_url: "https://x.example/i.svg" },
    });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ message: "401 Unauthorized" });
  });

  it("needs a token for /version and /user", async () => {
    expect((await call(server.emulator, "/version", { as: null })).status).toBe(401);
    expect((await call(server.emulator, "/user", { as: null })).status).toBe(401);
  });
});

describe("visibility", () => {
  it("hides a private project from an outsider with 404 Project Not Found", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fweb", { as: "outsider" });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ message: "404 Project Not Found" });
  });

  it("hides a private group from an outsider and from anonymous callers", async () => {
    for (const as of ["outsider", null]) {
      const result = await call(server.emulator, "/groups/acme", { as });
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ message: "404 Group Not Found" });
    }
  });

  it("shows private resources to members, directly or through an ancestor group", async () => {
    expect((await call(server.emulator, "/groups/acme", { as: "guest" })).status).toBe(200);
    expect((await call(server.emulator, "/groups/acme%2Fplatform", { as: "guest" })).status).toBe(200);
    expect((await call(server.emulator, "/projects/acme%2Fplatform%2Finfra", { as: "guest" })).status).toBe(200);
  });

  it("shows internal groups to any signed-in user but not to anonymous callers", async () => {
    expect((await call(server.emulator, "/groups/beta%2Flabs", { as: "outsider" })).status).toBe(200);
    expect((await call(server.emulator, "/groups/beta%2Flabs", { as: null })).status).toBe(404);
  });

  it("shows everything to an administrator without membership", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fapi", { as: "root" });
    expect(result.status).toBe(200);
  });

  it("finds groups and projects by numeric id too", async () => {
    const web = server.emulator.state.projectByFullPath("acme/web")!;
    const byId = await call(server.emulator, `/projects/${web.id}`);
    expect(byId.body).toMatchObject({ id: web.id, path_with_namespace: "acme/web", default_branch: "main" });
    expect((await call(server.emulator, "/projects/987654")).body).toEqual({ message: "404 Project Not Found" });
  });
});

describe("routing", () => {
  it("matches an encoded full path as one segment", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fweb");
    expect(result.status).toBe(200);
    expect(result.body.path_with_namespace).toBe("acme/web");
  });

  it("answers 404 {error} when the full path was decoded", async () => {
    const result = await call(server.emulator, "/projects/acme/web/badges");
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ error: "404 Not Found" });
  });

  it("answers 404 {error} for unknown routes and methods", async () => {
    expect((await call(server.emulator, "/no/such/thing")).body).toEqual({ error: "404 Not Found" });
    const patch = await call(server.emulator, "/projects/acme%2Fweb", { method: "PATCH", body: {} });
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual({ error: "404 Not Found" });
  });

  it("answers HEAD like GET, without a body", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fweb/badges", { method: "HEAD" });
    expect(result.status).toBe(200);
    expect(result.headers.get("x-page")).toBe("1");
    expect(result.text).toBe("");
  });

  it("answers 500 with the real body when a handler fails", async () => {
    const result = await call(server.emulator, "/test/broken");
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ message: "500 Internal Server Error" });
  });

  it("answers 414 for an overlong URL, before Node's own 431", async () => {
    const result = await call(server.emulator, `/projects/acme%2Fweb/badges?name=${"x".repeat(20_000)}`);
    expect(result.status).toBe(414);
    expect(server.emulator.requestLog.at(-1)).toMatchObject({ status: 414, path: "/api/v4/projects/acme%2Fweb/badges" });
  });

  it("accepts a URL just under the limit", async () => {
    // Not a list route: a list would echo the padding three times in its Link header.
    const path = "/version?padding=";
    const padding = 8192 - "/api/v4".length - path.length;
    const result = await call(server.emulator, path + "y".repeat(padding));
    expect(result.status).toBe(200);
  });
});

describe("redirects after a rename", () => {
  const projectId = (fullPath: string) => server.emulator.state.projectByFullPath(fullPath)!.id;

  it("answers 301 with the project's numeric id in Location for a renamed project (`url_with_project_id`)", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fwebsite/badges?name=x");
    expect(result.status).toBe(301);
    expect(result.headers.get("location")).toBe(`${server.emulator.apiUrl}/projects/${projectId("acme/web")}/badges?name=x`);
  });

  it("redirects the projects below a renamed group, but not the group itself: `find_group` follows no redirect (404)", async () => {
    const group = await call(server.emulator, "/groups/acme-corp");
    expect(group).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(group.headers.get("location")).toBeNull();
    const project = await call(server.emulator, "/projects/acme-corp%2Fapi");
    expect(project.headers.get("location")).toBe(`${server.emulator.apiUrl}/projects/${projectId("acme/api")}`);
  });

  it("refuses a write through a project's former path (its own or its group's) with 405, and changes nothing", async () => {
    const before = await call(server.emulator, "/projects/acme%2Fweb/badges");
    for (const path of ["/projects/acme%2Fwebsite/badges", "/projects/acme-corp%2Fweb/badges"]) {
      const write = await call(server.emulator, path, { method: "POST", body: { link_url: "https://x.test/l", image_url: "https://x.test/i.svg" } });
      expect(write).toMatchObject({ status: 405, body: { message: "Non GET methods are not allowed for moved projects" } });
      expect(write.headers.get("location")).toBeNull();
    }
    expect((await call(server.emulator, "/projects/acme%2Fweb/badges")).body).toEqual(before.body);
    // Someone who may not see the project learns nothing: 404, as for any unknown path.
    expect((await call(server.emulator, "/projects/acme%2Fwebsite/star", { method: "POST", as: "outsider" })).status).toBe(404);
  });

  it("does not reveal the new path to someone who cannot see it", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fwebsite", { as: "outsider" });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ message: "404 Project Not Found" });
  });
});

describe("instance endpoints", () => {
  it("serves /version and /metadata with the same object", async () => {
    const version = await call(server.emulator, "/version", { as: "outsider" });
    const metadata = await call(server.emulator, "/metadata", { as: "outsider" });
    expect(version.status).toBe(200);
    expect(version.body).toEqual(metadata.body);
    expect(version.body).toMatchObject({
      version: expect.any(String),
      revision: expect.any(String),
      enterprise: true,
      kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    });
  });

  it("serves the current user", async () => {
    const result = await call(server.emulator, "/user", { as: "root" });
    expect(result.body).toMatchObject({ username: "root", is_admin: true, id: expect.any(Number) });
  });

  it("serves a group with its parent and full path", async () => {
    const result = await call(server.emulator, "/groups/acme%2Fplatform");
    const acme = server.emulator.state.groupByFullPath("acme")!;
    expect(result.body).toMatchObject({
      name: "Platform",
      path: "platform",
      full_path: "acme/platform",
      full_name: "Acme / Platform",
      parent_id: acme.id,
      visibility: "private",
      web_url: "https://platform.example.test/groups/acme/platform",
    });
  });

  it("serves a project with its namespace", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fplatform%2Finfra");
    expect(result.body).toMatchObject({
      path_with_namespace: "acme/platform/infra",
      namespace: { full_path: "acme/platform", kind: "group" },
      web_url: "https://platform.example.test/acme/platform/infra",
    });
  });
});

describe("request log", () => {
  it("records every request with its raw path, raw query and status", async () => {
    const mark = server.emulator.mark();
    await call(server.emulator, "/projects/acme%2Fweb/badges?name=a%20b&per_page=5");
    await call(server.emulator, "/nothing", { token: "glpat-nope" });
    const entries = server.emulator.requestsSince(mark);
    expect(entries.map(({ method, path, query, status }) => ({ method, path, query, status }))).toEqual([
      { method: "GET", path: "/api/v4/projects/acme%2Fweb/badges", query: "name=a%20b&per_page=5", status: 200 },
      { method: "GET", path: "/api/v4/nothing", query: "", status: 404 },
    ]);
    expect(typeof entries[0]!.time).toBe("number");
  });

  it("can be cleared", async () => {
    await call(server.emulator, "/version");
    server.emulator.clearLog();
    expect(server.emulator.requestLog).toHaveLength(0);
  });
});

describe("parameters", () => {
  it("accepts form bodies as well as JSON", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fweb/badges", {
      method: "POST",
      body: new URLSearchParams({ link_url: "https://form.example/l", image_url: "https://form.example/i", name: "form" }),
    });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ name: "form", link_url: "https://form.example/l" });
  });

  it("reads parameters from the query string of a write too", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fweb/badges?link_url=https://q.example/l&image_url=https://q.example/i", {
      method: "POST",
    });
    expect(result.status).toBe(201);
    expect(result.body.link_url).toBe("https://q.example/l");
  });

  it("rejects a malformed JSON body with 400", async () => {
    const response = await fetch(`${server.emulator.apiUrl}/projects/acme%2Fweb/badges`, {
      method: "POST",
      headers: { "PRIVATE-TOKEN": server.emulator.tokens.root!, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The request body is not valid JSON" });
  });
});

describe("stop", () => {
  it("closes open connections and leaves nothing listening", async () => {
    const emulator = await startEmulator();
    const port = Number(new URL(emulator.url).port);
    // fetch keeps its connection alive; stop() must not wait for it to idle out.
    expect((await call(emulator, "/version")).status).toBe(200);
    // A connection in the middle of a request neither idles out nor ends: were stop() to wait for the
    // connections to end, it would not return before the server's headers timeout (a minute), past this test's.
    const halfSent = connect(port, "127.0.0.1");
    // The server may end it with a reset rather than a close: either ends it.
    halfSent.on("error", () => undefined);
    await new Promise((resolve) => halfSent.once("connect", resolve));
    halfSent.write("GET /api/v4/version HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const halfSentClosed = new Promise((resolve) => halfSent.once("close", resolve));
    await emulator.stop();
    await halfSentClosed;
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(true));
    });
    expect(refused).toBe(true);
  });

  it("ends requests still in progress", async () => {
    const emulator = await startEmulator();
    emulator.setFaultPlan({ slowMs: 10_000, rules: [{ path: "/version", sequence: ["slow"] }] });
    const pending = call(emulator, "/version").then(
      () => "answered",
      () => "failed",
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Held for 10 s, past a wait for it: "failed", not "answered", says stop() ended it.
    await emulator.stop();
    expect(await pending).toBe("failed");
  });

  it("listens on 127.0.0.1 only", async () => {
    expect(server.emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.emulator.apiUrl).toBe(`${server.emulator.url}/api/v4`);
  });
});

describe("a trailing *rest route segment", () => {
  const restRoutes: RouteModule = {
    name: "rest-segment",
    routes: [
      route("GET", "/test/rest/*path", { params: { path: { type: "string", required: true } } }, (ctx) => ({ status: 200, body: { rest: ctx.params.path } })),
      route("GET", "/test/rest/fixed", {}, () => ({ status: 200, body: { fixed: true } })),
      route("GET", "/test/rest/:one/end", {}, (ctx) => ({ status: 200, body: { one: ctx.pathParams["one"] } })),
    ],
  };

  it("takes the rest of the path, decoded segment by segment, and yields to literals and :params", async () => {
    const emulator = await startEmulator({ extraRoutes: [restRoutes] });
    try {
      expect((await call(emulator, "/test/rest/acme/web/api-server")).body).toEqual({ rest: "acme/web/api-server" });
      expect((await call(emulator, "/test/rest/a%20b/c")).body).toEqual({ rest: "a b/c" });
      expect((await call(emulator, "/test/rest/fixed")).body).toEqual({ fixed: true });
      expect((await call(emulator, "/test/rest/x/end")).body).toEqual({ one: "x" });
      expect((await call(emulator, "/test/rest/x/y/end")).body).toEqual({ rest: "x/y/end" });
      // The rest is one segment or more, none of them empty.
      expect((await call(emulator, "/test/rest/")).status).toBe(404);
      expect((await call(emulator, "/test/rest/a//b")).status).toBe(404);
    } finally {
      await emulator.stop();
    }
  });
});
