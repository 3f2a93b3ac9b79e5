import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { defaultSeed, stateFromSeed, type Seed } from "../../src/emulator";
import { errorTrackingStore } from "../../src/emulator/areas/error-tracking/routes";
import { eventKindOf, parseEnvelope, sentryKeyFromHeader, decodeBody } from "../../src/emulator/areas/error-tracking/envelope";
import { call, useEmulator } from "./helpers";

const SEEDED_KEY = "glet_3d4f6a8b0c1e2d3f4a5b6c7d8e9f0a1b";
const INACTIVE_KEY = "glet_00000000000000000000000000000000";

/** The default seed with a Reporter on acme/web, tokens with limited scopes, and an inactive key on acme/api. */
const seed: Seed = {
  ...defaultSeed,
  users: [
    ...(defaultSeed.users ?? []).map((user) =>
      user.username === "maintainer"
        ? {
            ...user,
            tokens: ["glpat-maintainer-read-api", "glpat-maintainer-read-user", "glpat-maintainer-api"],
            tokenScopes: {
              "glpat-maintainer-read-api": ["read_api"],
              "glpat-maintainer-read-user": ["read_user"],
              "glpat-maintainer-api": ["api", "read_user"],
            },
          }
        : user,
    ),
    { username: "reporter", token: "glpat-reporter-token" },
  ],
  projects: (defaultSeed.projects ?? []).map((p) => (p.path === "web" ? { ...p, members: { reporter: 20 } } : p)),
  errorTracking: {
    ...(defaultSeed["errorTracking"] as object),
    "acme/api": { clientKeys: [{ publicKey: INACTIVE_KEY, active: false }] },
  },
};

const server = useEmulator({ seed });
const WEB = "/projects/acme%2Fweb";
const KEYS = `${WEB}/error_tracking/client_keys`;

const webId = () => server.emulator.state.projectByFullPath("acme/web")!.id;
const dsnPattern = (publicKey: string) =>
  `http://${publicKey}@${new URL(server.emulator.url).host}/api/v4/error_tracking/collector/${webId()}`;

describe("client keys", () => {
  it("lists the seeded key with the real entity's fields, its DSN on the emulator's own origin", async () => {
    const result = await call(server.emulator, KEYS, { as: "maintainer" });
    expect(result.status).toBe(200);
    expect(result.headers.get("x-total")).toBe("1");
    expect(result.body).toEqual([
      { id: expect.any(Number), active: true, public_key: SEEDED_KEY, sentry_dsn: dsnPattern(SEEDED_KEY) },
    ]);
  });

  it("rotates a key: create a new one (201), list both, delete the old one (200 with the key), list the new one", async () => {
    const before = await call(server.emulator, KEYS, { as: "maintainer" });
    const old = before.body.find((key: { public_key: string }) => key.public_key === SEEDED_KEY);
    const created = await call(server.emulator, KEYS, { as: "maintainer", method: "POST" });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(["id", "active", "public_key", "sentry_dsn"]);
    expect(created.body.public_key).toMatch(/^glet_[0-9a-f]{32}$/);
    expect(created.body.sentry_dsn).toBe(dsnPattern(created.body.public_key));
    expect(created.body.active).toBe(true);

    const both = await call(server.emulator, KEYS, { as: "maintainer" });
    expect(both.body.map((key: { id: number }) => key.id)).toEqual([old.id, created.body.id]);

    const deleted = await call(server.emulator, `${KEYS}/${old.id}`, { as: "maintainer", method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(old);
    const after = await call(server.emulator, KEYS, { as: "maintainer" });
    expect(after.body).toEqual([created.body]);

    const again = await call(server.emulator, `${KEYS}/${old.id}`, { as: "maintainer", method: "DELETE" });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: "404 Not found" });
  });

  it("answers 404 Not found for a key id of another project, or no id at all", async () => {
    const apiKeys = await call(server.emulator, "/projects/acme%2Fapi/error_tracking/client_keys");
    const otherId = apiKeys.body[0].id;
    expect((await call(server.emulator, `${KEYS}/${otherId}`, { method: "DELETE" })).body).toEqual({ message: "404 Not found" });
    expect((await call(server.emulator, `${KEYS}/abc`, { method: "DELETE" })).status).toBe(404);
    // Without a key id no route matches (what @gitbeaker's remove() sends).
    const noId = await call(server.emulator, KEYS, { method: "DELETE" });
    expect(noId.status).toBe(404);
    expect(noId.body).toEqual({ error: "404 Not Found" });
  });

  it("gates every call: 401 anonymous, 404 outsider, 403 below Maintainer", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const path = method === "DELETE" ? `${KEYS}/1` : KEYS;
      expect((await call(server.emulator, path, { as: null, method })).status).toBe(401);
      expect((await call(server.emulator, path, { as: "outsider", method })).body).toEqual({ message: "404 Project Not Found" });
      for (const user of ["guest", "reporter", "dev"]) {
        const refused = await call(server.emulator, path, { as: user, method });
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ message: "403 Forbidden" });
      }
    }
    for (const user of ["maintainer", "alice", "root"]) expect((await call(server.emulator, KEYS, { as: user })).status).toBe(200);
  });

  it("needs the api scope to write, and api or read_api to read (insufficient_scope otherwise)", async () => {
    const insufficient = {
      error: "insufficient_scope",
      error_description: "The request requires higher privileges than provided by the access token.",
      scope: "api read_api",
    };
    const readOnly = "glpat-maintainer-read-api";
    expect((await call(server.emulator, KEYS, { token: readOnly })).status).toBe(200);
    const refusedWrite = await call(server.emulator, KEYS, { token: readOnly, method: "POST" });
    expect(refusedWrite.status).toBe(403);
    expect(refusedWrite.body).toEqual(insufficient);
    const deleteRefused = await call(server.emulator, `${KEYS}/999`, { token: readOnly, method: "DELETE" });
    expect(deleteRefused.body).toEqual(insufficient);

    const noApi = await call(server.emulator, KEYS, { token: "glpat-maintainer-read-user" });
    expect(noApi.status).toBe(403);
    expect(noApi.body).toEqual(insufficient);

    const full = await call(server.emulator, KEYS, { token: "glpat-maintainer-api", method: "POST" });
    expect(full.status).toBe(201);
    // The scope is checked before the project: a scope-less token learns nothing about projects.
    expect((await call(server.emulator, "/projects/acme%2Fnope/error_tracking/client_keys", { token: "glpat-maintainer-read-user" })).status).toBe(403);
  });

  it("gives every seeded key without a public key a distinct derived one", () => {
    const many: Seed = {
      ...defaultSeed,
      errorTracking: { "acme/web": { clientKeys: Array.from({ length: 105 }, () => ({})) } },
    };
    const state = stateFromSeed(many);
    expect(new Set(errorTrackingStore.of(state).clientKeys.map((k) => k.publicKey)).size).toBe(105);
  });
});

describe("client key pagination through HTTP", () => {
  const big = useEmulator({
    seed: { ...defaultSeed, errorTracking: { "acme/web": { clientKeys: Array.from({ length: 105 }, () => ({})) } } },
  });

  it("answers pages of at most 100 with the real headers", async () => {
    const first = await call(big.emulator, `${KEYS}?per_page=100`);
    expect(first.body).toHaveLength(100);
    expect(first.headers.get("x-total")).toBe("105");
    expect(first.headers.get("x-next-page")).toBe("2");
    const second = await call(big.emulator, `${KEYS}?per_page=100&page=2`);
    expect(second.body).toHaveLength(5);
    expect((await call(big.emulator, KEYS)).body).toHaveLength(20);
  });
});

describe("the collector", () => {
  const storeUrl = (project: number | string, query = "") =>
    `${server.emulator.url}/api/v4/error_tracking/collector/api/${project}/store${query}`;
  const exception = { event_id: "a".repeat(32), platform: "go", exception: { values: [{ type: "Error", value: "boom" }] } };
  const message = { event_id: "b".repeat(32), platform: "php", message: "hello" };
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  const auth = (key: string) => ({ "X-Sentry-Auth": `Sentry sentry_version=7, sentry_client=sentry.go/0.20.0, sentry_key=${key}` });
  const events = () => errorTrackingStore.of(server.emulator.state).events;

  it("records an exception sent to store with X-Sentry-Auth, and a message with ?sentry_key=, answering 200 with no body", async () => {
    const key = (await call(server.emulator, KEYS, { method: "POST" })).body;
    const first = await post(storeUrl(webId()), exception, auth(key.public_key));
    expect(first.status).toBe(200);
    expect(await first.text()).toBe("");
    const second = await post(storeUrl(webId(), `?sentry_key=${key.public_key}`), message);
    expect(second.status).toBe(200);
    const mine = events().filter((e) => e.clientKeyId === key.id);
    expect(mine.map((e) => [e.kind, e.endpoint])).toEqual([["exception", "store"], ["message", "store"]]);
    expect(mine[0]!.payload).toEqual(exception);
  });

  it("also takes the trailing slash SDKs add, and the project's full path", async () => {
    const key = (await call(server.emulator, KEYS, { method: "POST" })).body;
    const slash = await post(`${storeUrl(webId())}/`, exception, auth(key.public_key));
    expect(slash.status).toBe(200);
    expect((await post(storeUrl("acme%2Fweb"), exception, auth(key.public_key))).status).toBe(200);
  });

  it("refuses unknown projects, missing credentials, unknown, deleted or inactive keys, and unsupported payloads", async () => {
    const key = (await call(server.emulator, KEYS, { method: "POST" })).body;
    const count = events().length;
    const noProject = await post(storeUrl(999999), exception, auth(key.public_key));
    expect([noProject.status, await noProject.json()]).toEqual([404, { message: "404 Project Not Found" }]);
    const noHeader = await post(storeUrl(webId()), exception);
    expect([noHeader.status, await noHeader.json()]).toEqual([400, { message: "400 Bad request - Failed to parse sentry request" }]);
    const wrong = await post(storeUrl(webId()), exception, auth("glet_1fedb514e17f4b958435093deb02048c"));
    expect([wrong.status, await wrong.json()]).toEqual([404, { message: "404 Not Found" }]);
    const apiId = server.emulator.state.projectByFullPath("acme/api")!.id;
    expect((await post(storeUrl(apiId), exception, auth(INACTIVE_KEY))).status).toBe(404);
    // A key of acme/api is no key of acme/web.
    expect((await post(storeUrl(webId()), exception, auth(INACTIVE_KEY))).status).toBe(404);
    const unsupported = await post(storeUrl(webId()), { platform: "go" }, auth(key.public_key));
    expect([unsupported.status, await unsupported.json()]).toEqual([400, { message: "400 Bad request - Unsupported sentry payload" }]);
    await call(server.emulator, `${KEYS}/${key.id}`, { method: "DELETE" });
    expect((await post(storeUrl(webId()), exception, auth(key.public_key))).status).toBe(404);
    expect(events().length).toBe(count);
  });

  it("needs no access token, and ignores one", async () => {
    const key = (await call(server.emulator, KEYS, { method: "POST" })).body;
    const result = await post(storeUrl(webId()), message, { ...auth(key.public_key), "PRIVATE-TOKEN": "not-a-token" });
    expect(result.status).toBe(200);
  });
});

describe("reading what SDKs send", () => {
  const session = JSON.stringify({ sid: "s1", status: "ok", x: 1 });
  const envelope = [
    JSON.stringify({ event_id: "c".repeat(32), sent_at: "2024-05-01T00:00:00Z" }),
    JSON.stringify({ type: "event" }),
    JSON.stringify({ exception: { values: [{ type: "ValueError", value: "bad" }] } }),
    JSON.stringify({ type: "session", length: Buffer.byteLength(session) }),
    session,
    JSON.stringify({ type: "event" }),
    JSON.stringify({ message: "plain" }),
    JSON.stringify({ type: "attachment", length: 4 }),
    "\u0000abc",
  ].join("\n");

  it("splits an envelope into its items, length-prefixed or by lines, gzipped or not", () => {
    for (const body of [Buffer.from(envelope), decodeBody(gzipSync(Buffer.from(envelope)), "gzip")]) {
      const items = parseEnvelope(body);
      expect(items.map((item) => item.type)).toEqual(["event", "session", "event", "attachment"]);
      expect(items.map((item) => eventKindOf(item.payload))).toEqual(["exception", undefined, "message", undefined]);
      expect(items[1]!.payload).toEqual({ sid: "s1", status: "ok", x: 1 });
    }
    expect(() => parseEnvelope(Buffer.from(""))).toThrow();
    expect(() => parseEnvelope(Buffer.from("{}\nnot json\n{}"))).toThrow();
  });

  it("reads the key of an X-Sentry-Auth header", () => {
    expect(sentryKeyFromHeader(`Sentry sentry_version=7, sentry_key=${SEEDED_KEY}, sentry_secret=x`)).toBe(SEEDED_KEY);
    expect(sentryKeyFromHeader("Sentry sentry_version=7")).toBeUndefined();
  });
});

describe("the envelope endpoint, over HTTP", () => {
  const envelopeUrl = () => `${server.emulator.url}/api/v4/error_tracking/collector/api/${webId()}/envelope`;
  const items = (...lines: object[]) => lines.map((line) => JSON.stringify(line)).join("\n");
  let publicKey = "";
  const send = async (body: Buffer | string, headers: Record<string, string> = {}) => {
    // A key of its own: earlier tests rotate and delete the seeded one.
    publicKey ||= (await call(server.emulator, KEYS, { method: "POST" })).body.public_key;
    return fetch(envelopeUrl(), { method: "POST", headers: { "Content-Type": "application/x-sentry-envelope", "X-Sentry-Auth": `Sentry sentry_key=${publicKey}`, ...headers }, body });
  };

  it("records exception, message and session items, drops transactions, reads gzip", async () => {
    const before = errorTrackingStore.of(server.emulator.state).events.length;
    const body = items(
      { event_id: "d".repeat(32) },
      { type: "event" }, { exception: { values: [{ type: "E", value: "v" }] } },
      { type: "transaction" }, { spans: [] },
      { type: "event" }, { message: "m" },
      { type: "session" }, { sid: "s" },
    );
    const answer = await send(gzipSync(Buffer.from(body)), { "Content-Encoding": "gzip" });
    expect(answer.status).toBe(200);
    expect(errorTrackingStore.of(server.emulator.state).events.slice(before).map((e) => [e.kind, e.endpoint])).toEqual([
      ["exception", "envelope"], ["message", "envelope"], ["session", "envelope"],
    ]);
  });

  it("answers 400 for an envelope of other item types, an unreadable one, and an empty body", async () => {
    const refuse = async (body: string) => {
      const answer = await send(body);
      return [answer.status, await answer.json()];
    };
    expect(await refuse(items({}, { type: "client_report" }, {}))).toEqual([400, { message: "400 Bad Request" }]);
    expect(await refuse("not json")).toEqual([400, { message: "400 Bad request - Failed to parse sentry request" }]);
    expect(await refuse("")).toEqual([400, { message: "400 Bad request - Failed to parse sentry request" }]);
  });
});

describe("retention", () => {
  let now = Date.parse("2024-06-01T00:00:00.000Z");
  const timed = useEmulator({ clock: () => now });

  it("drops events received more than 90 days ago when background work runs", async () => {
    const key = (await call(timed.emulator, KEYS, { method: "POST" })).body;
    const webProject = timed.emulator.state.projectByFullPath("acme/web")!.id;
    const url = `${timed.emulator.url}/api/v4/error_tracking/collector/api/${webProject}/store?sentry_key=${key.public_key}`;
    const send = () =>
      fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message: "m" }) });
    expect((await send()).status).toBe(200);
    now += 60 * 86_400_000;
    expect((await send()).status).toBe(200);
    now += 31 * 86_400_000;
    timed.emulator.runDueWork();
    expect(errorTrackingStore.of(timed.emulator.state).events.map((e) => e.receivedAt)).toEqual(["2024-07-31T00:00:00.000Z"]);
  });
});

describe("the errorTracking seed section", () => {
  it("rejects unknown projects and malformed keys", () => {
    expect(() => stateFromSeed({ ...defaultSeed, errorTracking: { "acme/nope": {} } })).toThrow(/unknown project/);
    expect(() =>
      stateFromSeed({ ...defaultSeed, errorTracking: { "acme/web": { clientKeys: [{ publicKey: "secret" }] } } }),
    ).toThrow(/clientKeys\[0\]\.publicKey: must be "glet_"/);
    expect(() =>
      stateFromSeed({ ...defaultSeed, errorTracking: { "acme/web": { clientKeys: [{ publicKey: SEEDED_KEY }, { publicKey: SEEDED_KEY }] } } }),
    ).toThrow(/repeats/);
  });
});
