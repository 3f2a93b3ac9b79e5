/**
 * Requests beside the API (a token service on the configured server, a
 * registry on another host): which credentials go where. Two plain HTTP
 * servers record what they receive: "server" is the configured one, "registry"
 * another host.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, closeAllPools, PlatformClient } from "pulumi-platform";

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
}

type Answer = (url: string) => { status: number; headers?: Record<string, string>; body?: unknown };

/** A server that records every request and answers with `answer` (settable per test). */
function recordingServer() {
  const received: Received[] = [];
  const state = { answer: (() => ({ status: 200, body: {} })) as Answer, url: "", received };
  const server: Server = createServer((req, res) => {
    received.push({ url: req.url ?? "", headers: req.headers });
    const { status, headers = {}, body } = state.answer(req.url ?? "");
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(body === undefined ? "" : JSON.stringify(body));
  });
  return {
    state,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

const TOKEN = "glpat-configured-server-token";
const apiServer = recordingServer();
const registry = recordingServer();

beforeAll(async () => {
  await apiServer.start();
  await registry.start();
});
afterAll(async () => {
  await closeAllPools();
  await apiServer.stop();
  await registry.stop();
});
beforeEach(() => {
  apiServer.state.received.length = 0;
  registry.state.received.length = 0;
});

const client = () => new PlatformClient({ url: apiServer.state.url, token: TOKEN, retryBaseDelayMs: 10, headers: { "x-proxy-auth": "proxy-secret" } });

describe("getOutsideApi", () => {
  it("sends Basic with the client's own token to the configured server's root, not the token header", async () => {
    apiServer.state.answer = () => ({ status: 200, body: { token: "registry-token" } });
    const answer = await client().getOutsideApi<{ token: string }>("/jwt/auth", { service: "container_registry", scope: "registry:catalog:*" }, { basicUsername: "someone" });
    expect(answer.body).toEqual({ token: "registry-token" });
    const [request] = apiServer.state.received;
    expect(request!.url).toBe("/jwt/auth?service=container_registry&scope=registry%3Acatalog%3A*");
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`someone:${TOKEN}`).toString("base64")}`);
    expect(request!.headers["private-token"]).toBeUndefined();
    // The configured server's proxy headers go with it, as with every request to it.
    expect(request!.headers["x-proxy-auth"]).toBe("proxy-secret");
  });
});

describe("pagesWithBearer", () => {
  it("sends only the bearer token to the other host, and follows its Link pages there", async () => {
    registry.state.answer = (url) =>
      url.includes("last=")
        ? { status: 200, body: { repositories: ["c"] } }
        : { status: 200, headers: { link: '</v2/_catalog?last=b&n=2>; rel="next"' }, body: { repositories: ["a", "b"] } };
    const pages: unknown[] = [];
    for await (const page of client().pagesWithBearer<{ repositories: string[] }>(new URL(`${registry.state.url}/v2/_catalog?n=2`), "registry-token")) pages.push(page.body);
    expect(pages).toEqual([{ repositories: ["a", "b"] }, { repositories: ["c"] }]);
    expect(registry.state.received.map((r) => r.url)).toEqual(["/v2/_catalog?n=2", "/v2/_catalog?last=b&n=2"]);
    for (const { headers } of registry.state.received) {
      expect(headers.authorization).toBe("Bearer registry-token");
      expect(headers["private-token"]).toBeUndefined();
      expect(headers["x-proxy-auth"]).toBeUndefined();
    }
    expect(apiServer.state.received).toEqual([]);
  });

  it("refuses a Link or a redirect to another host: the bearer token stays where it was sent", async () => {
    registry.state.answer = () => ({ status: 200, headers: { link: `<${apiServer.state.url}/v2/_catalog?last=b>; rel="next"` }, body: { repositories: ["a"] } });
    const pages = client().pagesWithBearer(new URL(`${registry.state.url}/v2/_catalog`), "registry-token");
    await expect((async () => { for await (const _ of pages) void _; })()).rejects.toThrow(/pointed to another host .*refusing to send the token there/);
    registry.state.answer = () => ({ status: 302, headers: { location: `${apiServer.state.url}/v2/_catalog` } });
    const redirected = client().pagesWithBearer(new URL(`${registry.state.url}/v2/_catalog`), "registry-token");
    await expect((async () => { for await (const _ of redirected) void _; })()).rejects.toThrow(/pointed to another host/);
    expect(apiServer.state.received).toEqual([]);
  });

  it("reads the registry's error body, and names no token", async () => {
    registry.state.answer = () => ({ status: 401, body: { errors: [{ code: "UNAUTHORIZED", message: "authentication required", detail: null }] } });
    const pages = client().pagesWithBearer(new URL(`${registry.state.url}/v2/_catalog`), "registry-token");
    const error = await (async () => { for await (const _ of pages) void _; })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).serverMessage).toBe("authentication required");
    expect((error as ApiError).message).not.toContain("registry-token");
    expect((error as ApiError).message).not.toContain(TOKEN);
  });
});
