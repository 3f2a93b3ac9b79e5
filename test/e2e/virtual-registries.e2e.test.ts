/** The virtual-registries example through the end-to-end steps (see scenario.ts). */
import { expect } from "vitest";
import { ApiError, apiPath, type PlatformClient } from "pulumi-platform";
import { describeExample } from "./scenario";

interface LiveRegistry {
  id: number;
  name: string;
  description: string | null;
}
interface LiveUpstream {
  id: number;
  name: string;
  url: string;
  cache_validity_hours: number;
  username: string | null;
  registry_upstream: { position: number };
}
interface LivePolicy {
  created_at: string;
  cadence: number;
  enabled: boolean;
  keep_n_days_after_download: number;
  notify_on_failure: boolean;
}

let handMadePolicy: LivePolicy;
const DOCKER_HUB_TOKEN = "dckr_pat_e2e-secret-value";
const POLICY = apiPath`/groups/${"acme"}/-/virtual_registries/cleanup/policy`;

const registries = (api: PlatformClient) => api.get<LiveRegistry[]>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`);
const upstreamsOf = (api: PlatformClient, registry: number) => api.get<LiveUpstream[]>(apiPath`/virtual_registries/container/registries/${registry}/upstreams`);
const policy = (api: PlatformClient) =>
  api.get<LivePolicy>(POLICY).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  });

async function theRegistry(api: PlatformClient) {
  const all = await registries(api);
  expect(all.map((registry) => registry.name)).toHaveLength(1);
  return { registry: all[0]!, upstreams: await upstreamsOf(api, all[0]!.id) };
}

describeExample({
  example: "virtual-registries",
  secrets: { dockerHubToken: DOCKER_HUB_TOKEN },

  async snapshot({ api }) {
    const all = await registries(api);
    return {
      registries: await Promise.all(all.map(async (registry) => ({ ...registry, upstreams: await upstreamsOf(api, registry.id) }))),
      policy: await policy(api),
    };
  },

  async prepare({ api }) {
    // A cleanup policy set up by hand before the program existed: the program adopts it.
    handMadePolicy = await api.post<LivePolicy>(POLICY, { cadence: 1, enabled: false, keep_n_days_after_download: 5 });
  },

  async verifyCreated({ api }) {
    const { registry, upstreams } = await theRegistry(api);
    expect(registry.name).toBe("containers");
    expect(upstreams.map((u) => [u.name, u.registry_upstream.position, u.username])).toEqual([
      ["Docker Hub", 1, "platform-puller"],
      ["Team mirror", 2, null],
    ]);
    expect(await policy(api)).toMatchObject({ cadence: 7, enabled: true, keep_n_days_after_download: 30, notify_on_failure: true });
  },

  async verifyAdopted({ api }) {
    // Adopted, not deleted and created again: the hand-made policy (one per group) holds the declared values.
    expect(await policy(api)).toMatchObject({ created_at: handMadePolicy.created_at, cadence: 14, enabled: true, keep_n_days_after_download: 30 });
  },

  change: {
    config: { cleanupCadence: "14", cacheValidityHours: "48", registryName: "ci-images" },
    expect: {
      containers: { op: "update", changed: ["name"] },
      "docker-hub": { op: "update", changed: ["cacheValidityHours"] },
      "cache-cleanup": { op: "update", changed: ["cadence"] },
    },
    async verify({ api }) {
      const { registry, upstreams } = await theRegistry(api);
      expect(registry.name).toBe("ci-images");
      expect(upstreams[0]).toMatchObject({ name: "Docker Hub", cache_validity_hours: 48, username: "platform-puller" });
      expect((await policy(api))?.cadence).toBe(14);
    },
  },

  drift: {
    async apply({ api }) {
      const { upstreams } = await theRegistry(api);
      const [dockerHub, mirror] = upstreams;
      await api.patch(apiPath`/virtual_registries/container/upstreams/${dockerHub!.id}`, { cache_validity_hours: 1 });
      await api.delete(apiPath`/virtual_registries/container/upstreams/${mirror!.id}`);
      await api.patch(POLICY, { enabled: false });
    },
    expect: {
      "docker-hub": { op: "update", changed: ["cacheValidityHours"] },
      mirror: { op: "create" },
      "cache-cleanup": { op: "update", changed: ["enabled"] },
    },
    async verify({ api }) {
      const { upstreams } = await theRegistry(api);
      expect(upstreams.map((u) => [u.name, u.registry_upstream.position, u.cache_validity_hours])).toEqual([
        ["Docker Hub", 1, 48],
        ["Team mirror", 2, 24],
      ]);
      expect((await policy(api))?.enabled).toBe(true);
    },
  },
});
