import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

const server = useEmulator();

/** Resolves to the error of a request that got no HTTP answer. */
async function networkFailure(path: string, init: RequestInit = {}): Promise<unknown> {
  return fetch(server.emulator.apiUrl + path, {
    ...init,
    headers: { "PRIVATE-TOKEN": server.emulator.tokens.root!, "Content-Type": "application/json", ...init.headers },
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

const badgeNames = async (project: string): Promise<string[]> =>
  (await call(server.emulator, `/projects/${project}/badges?per_page=100`)).body.map((badge: any) => badge.name);

describe("injected responses", () => {
  it("replaces the next matching answer once, then the real answer returns", async () => {
    server.emulator.inject({ method: "GET", path: "/version", status: 503, body: { message: "down" }, headers: { "Retry-After": "2" } });
    const mark = server.emulator.mark();
    const faulted = await call(server.emulator, "/version");
    expect(faulted.status).toBe(503);
    expect(faulted.body).toEqual({ message: "down" });
    expect(faulted.headers.get("retry-after")).toBe("2");
    expect((await call(server.emulator, "/version")).status).toBe(200);
    expect(server.emulator.requestsSince(mark).map(({ status, fault }) => ({ status, fault }))).toEqual([
      { status: 503, fault: true },
      { status: 200, fault: false },
    ]);
  });

  it("hits as many times as asked", async () => {
    server.emulator.inject({ path: "/api/v4/version", status: 502, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(server.emulator, "/version")).status);
    expect(statuses).toEqual([502, 502, 200]);
  });

  it("matches a RegExp against the raw, still encoded path, and only the given method", async () => {
    server.emulator.inject({ method: "POST", path: /\/projects\/acme%2Fweb\/badges$/, status: 500 });
    expect((await call(server.emulator, "/projects/acme%2Fweb/badges")).status).toBe(200);
    const post = await call(server.emulator, "/projects/acme%2Fweb/badges", {
      method: "POST",
      body: { link_url: "https://f.example", image_url: "https://f.example/i", name: "not-created" },
    });
    expect(post.status).toBe(500);
    expect(await badgeNames("acme%2Fweb")).not.toContain("not-created");
  });

  it("sends a string body as text/plain", async () => {
    server.emulator.inject({ path: "/version", status: 429, body: "Retry later\n" });
    const result = await call(server.emulator, "/version");
    expect(result.status).toBe(429);
    expect(result.text).toBe("Retry later\n");
    expect(result.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("can be cleared", async () => {
    server.emulator.inject({ path: "/version", status: 500, times: 5 });
    server.emulator.clearFaults();
    expect((await call(server.emulator, "/version")).status).toBe(200);
  });

  it("refuses a body without a status", () => {
    expect(() => server.emulator.inject({ body: "x" })).toThrow(/needs a status/);
  });
});

describe("dropped connections and delays", () => {
  it("drops the connection without an answer and logs status 0", async () => {
    server.emulator.inject({ path: "/version", dropConnection: true });
    const mark = server.emulator.mark();
    expect(await networkFailure("/version")).toBeInstanceOf(TypeError);
    expect(server.emulator.requestsSince(mark)).toMatchObject([{ path: "/api/v4/version", status: 0, fault: true }]);
    expect((await call(server.emulator, "/version")).status).toBe(200);
  });

  it("delays the real answer when only delayMs is given", async () => {
    server.emulator.inject({ path: "/version", delayMs: 300 });
    const started = Date.now();
    const result = await call(server.emulator, "/version");
    expect(result.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});

describe("faults after handling (a lost response)", () => {
  const body = (name: string) => ({ link_url: "https://f.example/l", image_url: "https://f.example/i", name });

  it("really creates the object, then answers with the fault", async () => {
    server.emulator.inject({ method: "POST", path: /\/badges$/, status: 502, body: "Bad Gateway", afterHandling: true });
    const result = await call(server.emulator, "/projects/acme%2Fweb/badges", { method: "POST", body: body("lost") });
    expect(result.status).toBe(502);
    expect(result.text).toBe("Bad Gateway");
    expect(await badgeNames("acme%2Fweb")).toContain("lost");
  });

  it("really creates the object, then drops the connection", async () => {
    server.emulator.inject({ method: "POST", path: /\/badges$/, dropConnection: true, afterHandling: true });
    const error = await networkFailure("/projects/acme%2Fweb/badges", { method: "POST", body: JSON.stringify(body("dropped")) });
    expect(error).toBeInstanceOf(TypeError);
    expect(await badgeNames("acme%2Fweb")).toContain("dropped");
  });
});
