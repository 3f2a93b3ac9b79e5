import { beforeEach, describe, expect, it } from "vitest";
import { addCacheEntry, defaultSeed, startEmulator, virtualRegistryStore, type Seed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const DAY = 86_400_000;
let now = Date.parse("2025-03-01T00:00:00.000Z");
const server = useEmulator({ clock: () => now });

const ACME_REGISTRIES = "/groups/acme/-/virtual_registries/container/registries";
let nameCounter = 0;
const uniqueName = (prefix: string) => `${prefix}-${++nameCounter}`;

async function newRegistry(group = "acme"): Promise<any> {
  const result = await call(server.emulator, `/groups/${group}/-/virtual_registries/container/registries`, { method: "POST", body: { name: uniqueName("reg") } });
  expect(result.status).toBe(201);
  return result.body;
}

async function newUpstream(registryId: number, fields: Record<string, unknown> = {}): Promise<any> {
  const result = await call(server.emulator, `/virtual_registries/container/registries/${registryId}/upstreams`, {
    method: "POST",
    body: { url: `https://${uniqueName("mirror")}.example.com`, name: uniqueName("up"), ...fields },
  });
  expect(result.status, result.text).toBe(201);
  return result.body;
}

// A group holds 5 registries: every test starts with none.
beforeEach(async () => {
  for (const r of virtualRegistryStore.of(server.emulator.state).registries.slice()) {
    await call(server.emulator, `/virtual_registries/container/registries/${r.id}`, { method: "DELETE" });
  }
});

const upstream = (id: number) => call(server.emulator, `/virtual_registries/container/upstreams/${id}`);
const registry = (id: number) => call(server.emulator, `/virtual_registries/container/registries/${id}`);

describe("gates", () => {
  it("a feature flag that is off answers 401 on the container routes and 404 on the cleanup policy", async () => {
    const seed: Seed = { ...defaultSeed, instance: { ...defaultSeed.instance, featureFlags: { container_virtual_registries: ["beta"] } } };
    const emulator = await startEmulator({ seed });
    try {
      const registries = await call(emulator, ACME_REGISTRIES);
      expect(registries.status).toBe(401);
      expect(registries.body).toEqual({ message: "401 Unauthorized" });
      const policy = await call(emulator, "/groups/acme/-/virtual_registries/cleanup/policy");
      expect(policy.status).toBe(404);
    } finally {
      await emulator.stop();
    }
  });

  it("a flag enabled for listed groups only is on for those", async () => {
    const seed: Seed = { ...defaultSeed, instance: { ...defaultSeed.instance, featureFlags: { container_virtual_registries: ["acme"] } } };
    const emulator = await startEmulator({ seed });
    try {
      expect((await call(emulator, ACME_REGISTRIES)).status).toBe(200);
    } finally {
      await emulator.stop();
    }
  });

  it("a Free group answers 404; a subgroup 400; a Developer 403 on writes but may read", async () => {
    expect((await call(server.emulator, "/groups/beta/-/virtual_registries/container/registries")).status).toBe(404);
    const sub = await call(server.emulator, "/groups/acme%2Fplatform/-/virtual_registries/container/upstreams");
    expect(sub.status).toBe(400);
    expect(sub.body).toEqual({ message: "400 Bad request - only available on top-level groups." });
    const dev = await call(server.emulator, ACME_REGISTRIES, { as: "dev", method: "POST", body: { name: "by-dev" } });
    expect(dev.status).toBe(403);
    expect((await call(server.emulator, ACME_REGISTRIES, { as: "dev" })).status).toBe(200);
    // Anonymous: the private group is invisible before the gate is reached.
    expect((await call(server.emulator, ACME_REGISTRIES, { as: null })).status).toBe(404);
  });

  it("a missing registry is 404 Not found (lowercase f); a non-integer id is 400", async () => {
    expect((await registry(999_999)).body).toEqual({ message: "404 Not found" });
    const bad = await call(server.emulator, "/virtual_registries/container/registries/foo");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "id is invalid" });
  });
});

describe("registries", () => {
  it("creates (201), reads with registry_upstreams, patches (200, status only) and deletes (204)", async () => {
    const created = await newRegistry();
    expect(created).toMatchObject({ id: expect.any(Number), group_id: server.emulator.state.groupByFullPath("acme")!.id, description: null });
    expect(created).not.toHaveProperty("registry_upstreams");
    const patched = await call(server.emulator, `/virtual_registries/container/registries/${created.id}`, { method: "PATCH", body: { description: "d" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toBe(200);
    expect((await registry(created.id)).body).toMatchObject({ description: "d", registry_upstreams: [] });
    const empty = await call(server.emulator, `/virtual_registries/container/registries/${created.id}`, { method: "PATCH", body: {} });
    expect(empty.body).toEqual({ error: "name, description are missing, at least one parameter must be provided" });
    expect((await call(server.emulator, `/virtual_registries/container/registries/${created.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await registry(created.id)).status).toBe(404);
  });

  it("refuses a sixth registry in a group with the real message", async () => {
    const existing = virtualRegistryStore.of(server.emulator.state).registries.filter((r) => r.groupId === server.emulator.state.groupByFullPath("acme")!.id).length;
    for (let i = existing; i < 5; i++) await newRegistry();
    const sixth = await call(server.emulator, ACME_REGISTRIES, { method: "POST", body: { name: "sixth" } });
    expect(sixth.status).toBe(400);
    expect(sixth.body).toEqual({ message: { base: ["5 registries is the maximum allowed per top-level group."] } });
  });

  it("refuses a name already used in the group", async () => {
    const first = await newRegistry();
    const again = await call(server.emulator, ACME_REGISTRIES, { method: "POST", body: { name: first.name } });
    expect(again.body).toEqual({ message: { name: ["has already been taken"] } });
  });
});

describe("upstreams", () => {
  it("creates with registry_upstream, never shows the password, and refuses a sixth in a registry", async () => {
    const reg = await newRegistry();
    const first = await newUpstream(reg.id, { username: "u", password: "s3cret-pw" });
    expect(first).toMatchObject({ username: "u", cache_validity_hours: 24, registry_upstream: { registry_id: reg.id, position: 1 } });
    expect(JSON.stringify(first)).not.toContain("s3cret-pw");
    expect(JSON.stringify((await upstream(first.id)).body)).not.toContain("s3cret-pw");
    for (let i = 0; i < 4; i++) await newUpstream(reg.id);
    const sixth = await call(server.emulator, `/virtual_registries/container/registries/${reg.id}/upstreams`, { method: "POST", body: { url: "https://six.example.com", name: "six" } });
    expect(sixth.status).toBe(400);
    expect(sixth.body).toEqual({ message: { "registry_upstreams.position": ["must be less than or equal to 5"] } });
  });

  it("refuses the same URL and credentials twice in a group, one credential alone, and local URLs", async () => {
    const reg = await newRegistry();
    await newUpstream(reg.id, { url: "https://dup.example.com", username: "u", password: "p" });
    const dup = await call(server.emulator, `/virtual_registries/container/registries/${reg.id}/upstreams`, {
      method: "POST",
      body: { url: "https://dup.example.com", name: "again", username: "u", password: "p" },
    });
    expect(dup.body).toEqual({ message: { group: ["already has an upstream with the same credentials"] } });
    const half = await call(server.emulator, `/virtual_registries/container/registries/${reg.id}/upstreams`, { method: "POST", body: { url: "https://h.example.com", name: "h", username: "u" } });
    expect(half.body).toEqual({ error: "username, password provide all or none of parameters" });
    const local = await call(server.emulator, `/virtual_registries/container/registries/${reg.id}/upstreams`, { method: "POST", body: { url: "http://127.0.0.1:5000", name: "l" } });
    expect(local.body).toEqual({ message: { url: ["is blocked: Requests to localhost are not allowed"] } });
  });

  it("a new URL clears the credentials unless both credentials change in the same request", async () => {
    const reg = await newRegistry();
    const up = await newUpstream(reg.id, { username: "u", password: "p1" });
    const path = `/virtual_registries/container/upstreams/${up.id}`;
    await call(server.emulator, path, { method: "PATCH", body: { url: "https://moved.example.com", username: "u", password: "p2" } });
    expect((await upstream(up.id)).body.username).toBeNull();
    await call(server.emulator, path, { method: "PATCH", body: { username: "u", password: "p2" } });
    await call(server.emulator, path, { method: "PATCH", body: { url: "https://moved-again.example.com", username: "v", password: "p3" } });
    expect((await upstream(up.id)).body).toMatchObject({ url: "https://moved-again.example.com", username: "v" });
  });

  it("associations: append, reorder (capped at the last position), disassociate (positions close up)", async () => {
    const [a, b] = [await newRegistry(), await newRegistry()];
    const u1 = await newUpstream(a.id);
    const u2 = await newUpstream(a.id);
    const u3 = await newUpstream(b.id);
    const link = await call(server.emulator, "/virtual_registries/container/registry_upstreams", { method: "POST", body: { registry_id: a.id, upstream_id: u3.id } });
    expect(link.status).toBe(201);
    expect(link.body).toEqual({ id: expect.any(Number), registry_id: a.id, upstream_id: u3.id, position: 3 });
    const again = await call(server.emulator, "/virtual_registries/container/registry_upstreams", { method: "POST", body: { registry_id: a.id, upstream_id: u3.id } });
    expect(again.body).toEqual({ message: { upstream_id: ["has already been taken"] } });
    await call(server.emulator, `/virtual_registries/container/registry_upstreams/${link.body.id}`, { method: "PATCH", body: { position: 1 } });
    const order = async () => (await registry(a.id)).body.registry_upstreams.map((l: any) => [l.upstream_id, l.position]);
    expect(await order()).toEqual([[u3.id, 1], [u1.id, 2], [u2.id, 3]]);
    await call(server.emulator, `/virtual_registries/container/registry_upstreams/${link.body.id}`, { method: "PATCH", body: { position: 20 } });
    expect(await order()).toEqual([[u1.id, 1], [u2.id, 2], [u3.id, 3]]);
    const outOfRange = await call(server.emulator, `/virtual_registries/container/registry_upstreams/${link.body.id}`, { method: "PATCH", body: { position: 21 } });
    expect(outOfRange.body).toEqual({ error: "position does not have a valid value" });
    await call(server.emulator, `/virtual_registries/container/upstreams/${u1.id}`, { method: "DELETE" });
    expect(await order()).toEqual([[u2.id, 1], [u3.id, 2]]);
    // Deleting registry a takes u2 (only in a) but not u3 (shared with b).
    await call(server.emulator, `/virtual_registries/container/registries/${a.id}`, { method: "DELETE" });
    expect((await upstream(u2.id)).status).toBe(404);
    expect((await upstream(u3.id)).body.registry_upstreams).toEqual([{ id: expect.any(Number), registry_id: b.id, position: 1 }]);
    const foreign = await call(server.emulator, "/virtual_registries/container/registry_upstreams", { method: "POST", body: { registry_id: b.id, upstream_id: 999_999 } });
    expect(foreign.body).toEqual({ message: "404 Upstream Not Found" });
  });

  it("a cache purge is accepted at once and done by the next run of due work", async () => {
    const reg = await newRegistry();
    const up = await newUpstream(reg.id);
    addCacheEntry(server.emulator.state, up.id, { relativePath: "/v2/library/alpine/manifests/3", size: 100 });
    expect((await call(server.emulator, `/virtual_registries/container/registries/${reg.id}/cache`, { method: "DELETE" })).status).toBe(204);
    const entries = () => virtualRegistryStore.of(server.emulator.state).cacheEntries.filter((e) => e.upstreamId === up.id);
    expect(entries()).toHaveLength(1);
    server.emulator.runDueWork();
    expect(entries()).toHaveLength(0);
  });
});

describe("cleanup policy", () => {
  const POLICY = "/groups/acme/-/virtual_registries/cleanup/policy";

  it("is Owner only, one per group, with Grape's messages for bad values", async () => {
    expect((await call(server.emulator, POLICY, { as: "maintainer", method: "POST", body: {} })).status).toBe(403);
    expect((await call(server.emulator, "/groups/acme%2Fplatform/-/virtual_registries/cleanup/policy", { as: "alice" })).status).toBe(403);
    expect((await call(server.emulator, POLICY, { as: "alice" })).body).toEqual({ message: "404 Not found" });
    const bad = await call(server.emulator, POLICY, { as: "alice", method: "POST", body: { cadence: 0 } });
    expect(bad.body).toEqual({ error: "cadence does not have a valid value" });
    const tooLong = await call(server.emulator, POLICY, { as: "alice", method: "POST", body: { keep_n_days_after_download: 370 } });
    expect(tooLong.body).toEqual({ error: "keep_n_days_after_download does not have a valid value" });
    const created = await call(server.emulator, POLICY, { as: "alice", method: "POST", body: { cadence: 7, enabled: true, keep_n_days_after_download: 10 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      cadence: 7,
      enabled: true,
      status: "scheduled",
      last_run_at: null,
      last_run_deleted_size: 0,
      last_run_detailed_metrics: {},
      next_run_at: new Date(now + 7 * DAY).toISOString(),
    });
    const second = await call(server.emulator, POLICY, { as: "alice", method: "POST", body: {} });
    expect(second.body).toEqual({ message: { group: ["has already been taken"] } });
  });

  it("runs when due: stale cache entries go and the figures are recorded", async () => {
    const reg = await newRegistry();
    const up = await newUpstream(reg.id);
    addCacheEntry(server.emulator.state, up.id, { relativePath: "/old", size: 300, downloadedAt: new Date(now - 30 * DAY).toISOString() });
    addCacheEntry(server.emulator.state, up.id, { relativePath: "/fresh", size: 50 });
    server.emulator.runDueWork();
    expect((await call(server.emulator, POLICY, { as: "alice" })).body.last_run_at).toBeNull();
    now += 7 * DAY;
    server.emulator.runDueWork();
    const policy = (await call(server.emulator, POLICY, { as: "alice" })).body;
    expect(policy).toMatchObject({
      last_run_at: new Date(now).toISOString(),
      next_run_at: new Date(now + 7 * DAY).toISOString(),
      last_run_deleted_size: 300,
      last_run_deleted_entries_count: 1,
      last_run_detailed_metrics: { container: { deleted_entries_count: 1, deleted_size: 300 } },
    });
    expect(virtualRegistryStore.of(server.emulator.state).cacheEntries.filter((e) => e.upstreamId === up.id).map((e) => e.relativePath)).toEqual(["/fresh"]);
  });

  it("PATCH needs a field, returns the policy; DELETE answers 204", async () => {
    const empty = await call(server.emulator, POLICY, { as: "alice", method: "PATCH", body: {} });
    expect(empty.status).toBe(400);
    const patched = await call(server.emulator, POLICY, { as: "alice", method: "PATCH", body: { notify_on_failure: true, cadence: 30 } });
    expect(patched.body).toMatchObject({ notify_on_failure: true, cadence: 30 });
    expect((await call(server.emulator, POLICY, { as: "alice", method: "DELETE" })).status).toBe(204);
    expect((await call(server.emulator, POLICY, { as: "alice" })).status).toBe(404);
  });
});
