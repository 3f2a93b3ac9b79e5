import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const registry = providers.VirtualRegistry;
const upstream = providers.Upstream;

interface LiveRegistry {
  id: number;
  name: string;
  description: string | null;
  registry_upstreams: { id: number; position: number; upstream_id: number }[];
}

const inputs = (overrides: Record<string, unknown> = {}) => ({
  group: "acme",
  name: `registry-${Math.random().toString(36).slice(2, 8)}`,
  description: "Images for the platform",
  ...overrides,
});

async function createRegistry(overrides: Record<string, unknown> = {}) {
  const checked = await registry.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await registry.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (id: string) => server.as().get<LiveRegistry>(`/virtual_registries/container/registries/${id}`);

beforeAll(async () => {
  await server.configureProviders();
});

// A group holds 5 registries: each test leaves none behind.
afterEach(async () => {
  const all = await server.as().get<LiveRegistry[]>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`);
  for (const r of all) await server.as().delete(`/virtual_registries/container/registries/${r.id}`);
});

describe("lifecycle", () => {
  it("create sends one request; outputs carry the id and the (empty) upstreams", async () => {
    let created: Awaited<ReturnType<typeof createRegistry>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createRegistry();
    });
    expect(requests).toEqual([{ method: "POST", path: "/api/v4/groups/acme/-/virtual_registries/container/registries", status: 201 }]);
    const onServer = await live(created!.id);
    expect(created!.outs).toMatchObject({ group: "acme", name: onServer.name, registryId: onServer.id, groupId: expect.any(Number), upstreams: [] });
  });

  it("a second preview after apply shows no change and sends nothing", async () => {
    const { id, inputs: declared, outs } = await createRegistry();
    const requests = await server.requestsDuring(async () => {
      await registry.check(outs, declared);
      expect(await registry.diff(id, outs, declared)).toMatchObject({ changes: false, replaces: [] });
    });
    expect(requests).toEqual([]);
  });

  it("a new name or description updates in place with one PATCH; a new group replaces", async () => {
    const { id, inputs: declared, outs } = await createRegistry();
    const changed = { ...declared, description: "Changed" };
    expect(await registry.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    expect(await registry.diff(id, outs, { ...declared, group: "beta" })).toMatchObject({ replaces: ["group"] });
    let updated: Record<string, unknown> = {};
    const requests = await server.requestsDuring(async () => {
      updated = (await registry.update(id, outs, changed)).outs as Record<string, unknown>;
    });
    expect(requests).toEqual([{ method: "PATCH", path: `/api/v4/virtual_registries/container/registries/${id}`, status: 200 }]);
    expect((await live(id)).description).toBe("Changed");
    expect(updated).toMatchObject({ description: "Changed", registryId: Number(id), upstreams: [] });
    expect(await registry.diff(id, updated, changed)).toMatchObject({ changes: false });
  });

  it("refresh reads the live registry (one GET): an out-of-band change and the upstreams show", async () => {
    const { id, inputs: declared, outs } = await createRegistry();
    await server.as().patch(`/virtual_registries/container/registries/${id}`, { description: "edited by hand" });
    const added = await server.as().post<{ id: number }>(`/virtual_registries/container/registries/${id}/upstreams`, { url: "https://mirror.example.com", name: "m" });
    const requests = await server.requestsDuring(async () => {
      const refreshed = await registry.read(id, outs);
      expect(refreshed.props).toMatchObject({ description: "edited by hand", upstreams: [{ upstreamId: added.id, position: 1, registryUpstreamId: expect.any(Number) }] });
      expect(refreshed.inputs).toMatchObject({ description: "edited by hand", group: "acme" });
      expect(await registry.diff(id, refreshed.props, declared)).toMatchObject({ changes: true, replaces: [] });
    });
    expect(requests).toEqual([{ method: "GET", path: `/api/v4/virtual_registries/container/registries/${id}`, status: 200 }]);
  });

  it("delete sends one DELETE; a registry deleted out of band is gone on refresh and its delete succeeds", async () => {
    const { id, outs } = await createRegistry();
    const requests = await server.requestsDuring(() => registry.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: `/api/v4/virtual_registries/container/registries/${id}`, status: 204 }]);
    expect(await registry.read(id, outs)).toEqual({ id: "" });
    await expect(registry.delete(id, outs)).resolves.toBeUndefined();
  });

  it("a sixth registry in a group fails with the server's message", async () => {
    for (let i = 0; i < 5; i++) await createRegistry();
    const checked = await registry.check({}, inputs());
    await expect(registry.create(checked.inputs)).rejects.toThrow(/5 registries is the maximum allowed per top-level group\./);
  });
});

describe("adoption", () => {
  it("takes over the group's registry of the same name and updates it", async () => {
    const existing = await server.as().post<LiveRegistry>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name: "adopt-me", description: "old" });
    let result: Awaited<ReturnType<typeof createRegistry>> | undefined;
    const requests = await server.requestsDuring(async () => {
      result = await createRegistry({ name: "adopt-me", adoptExisting: true });
    });
    expect(requests.map((r) => r.method)).toEqual(["GET", "GET", "PATCH"]);
    expect(result!.id).toBe(String(existing.id));
    expect((await live(result!.id)).description).toBe("Images for the platform");
    expect(await registry.diff(result!.id, result!.outs, result!.inputs)).toMatchObject({ changes: false });
  });

  it("creates when there is nothing to adopt", async () => {
    const { id } = await createRegistry({ name: "fresh", adoptExisting: true });
    expect((await live(id)).name).toBe("fresh");
  });
});

describe("destroying a registry and its upstreams", () => {
  async function registryWithUpstream() {
    const created = await createRegistry();
    const checked = await upstream.check({}, { registry: Number(created.id), name: "hub", url: `https://hub-${created.id}.example.com` });
    const up = await upstream.create(checked.inputs);
    return { registry: created, upstream: up };
  }

  it("upstream first, then registry (the order Pulumi uses)", async () => {
    const { registry: reg, upstream: up } = await registryWithUpstream();
    await upstream.delete(up.id, up.outs);
    await registry.delete(reg.id, reg.outs);
    await expect(live(reg.id)).rejects.toThrow(/404/);
  });

  it("registry first: the server deletes its upstream, and the upstream's delete still succeeds", async () => {
    const { registry: reg, upstream: up } = await registryWithUpstream();
    await registry.delete(reg.id, reg.outs);
    const requests = await server.requestsDuring(() => upstream.delete(up.id, up.outs));
    expect(requests).toEqual([{ method: "DELETE", path: `/api/v4/virtual_registries/container/upstreams/${up.id}`, status: 404 }]);
  });
});
