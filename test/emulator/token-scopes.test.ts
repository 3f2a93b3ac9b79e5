/**
 * The API guard's token scopes, for every endpoint: a token whose scopes the
 * seed lists needs `api`, or `read_api` for a GET or HEAD; anything else is
 * 403 `insufficient_scope` before the request's parameters or objects are
 * looked at. The review template's previews rely on it: their read_api token
 * cannot write. Driven over HTTP and with @gitbeaker/rest.
 */
import { Gitlab } from "@gitbeaker/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator";

/** The default seed's token of maintainer with the scopes read_api and write_repository. */
const READ_API = "glpat-maintainer-release-0004";
/** The default seed's group access token of acme, read_api only. */
const GROUP_READ_API = "glpat-acme-group-bot-0006";
const INSUFFICIENT = {
  error: "insufficient_scope",
  error_description: "The request requires higher privileges than provided by the access token.",
  scope: "api read_api",
};

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emulator.stop();
});

const call = async (method: string, path: string, token: string, body?: unknown) => {
  const response = await fetch(`${emulator.apiUrl}${path}`, {
    method,
    headers: { "PRIVATE-TOKEN": token, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: response.status === 204 ? undefined : ((await response.json()) as unknown) };
};

describe("token scopes", () => {
  it("a read_api token reads, and every write is 403 insufficient_scope, before its parameters or object are looked at", async () => {
    expect((await call("GET", "/projects/acme%2Fweb/badges", READ_API)).status).toBe(200);
    expect((await fetch(`${emulator.apiUrl}/projects/acme%2Fweb`, { method: "HEAD", headers: { "PRIVATE-TOKEN": READ_API } })).status).toBe(200);
    const badge = { link_url: "https://ci.example.com", image_url: "https://ci.example.com/b.svg" };
    expect(await call("POST", "/projects/acme%2Fweb/badges", READ_API, badge)).toEqual({ status: 403, body: INSUFFICIENT });
    expect(await call("POST", "/projects/acme%2Fweb/badges", READ_API, {})).toEqual({ status: 403, body: INSUFFICIENT });
    expect(await call("PUT", "/projects/no%2Fsuch/badges/1", READ_API, badge)).toEqual({ status: 403, body: INSUFFICIENT });
    expect(await call("DELETE", "/groups/acme/badges/1", GROUP_READ_API)).toEqual({ status: 403, body: INSUFFICIENT });
    expect(await call("POST", "/projects/acme%2Fweb/merge_requests/1/notes", GROUP_READ_API, { body: "hi" })).toEqual({ status: 403, body: INSUFFICIENT });
    // A token whose scopes the seed does not list has them all.
    expect((await call("POST", "/projects/acme%2Fweb/badges", emulator.tokens.maintainer!, badge)).status).toBe(201);
  });

  it("@gitbeaker/rest with a read_api token lists, and its write is refused with the same answer", async () => {
    const api = new Gitlab({ host: emulator.url, token: READ_API });
    expect((await api.ProjectBadges.all("acme/web")).length).toBeGreaterThan(0);
    await expect(api.Issues.create("acme/web", "Drift: prod")).rejects.toMatchObject({
      cause: { response: { status: 403 }, description: expect.stringContaining("insufficient_scope") },
    });
  });
});
