/**
 * The virtual registry lookups against the emulator. A group has at most 5
 * registries and a registry at most 5 upstreams, and neither list is
 * paginated: one request each. A group's upstreams are paginated and can be
 * many (an upstream stays in the group when its registries drop it): the seed
 * gives acme 130, two pages.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getCleanupPolicy, getUpstream, getUpstreams, getVirtualRegistries, getVirtualRegistry, getVirtualRegistryOutput } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const MIRRORS = 128;
const mirror = (i: number) => `mirror-${String(i).padStart(3, "0")}`;
const seed: Seed = {
  ...defaultSeed,
  virtualRegistries: {
    acme: {
      upstreams: [
        { name: "Docker Hub", url: "https://registry-1.docker.io", username: "acme-bot", password: "planted-upstream-password", cacheValidityHours: 48 },
        { name: "Quay", url: "https://quay.io", description: "Red Hat images" },
        ...Array.from({ length: MIRRORS }, (_, i) => ({ name: mirror(i), url: `https://${mirror(i)}.example.test` })),
      ],
      registries: [
        { name: "containers", description: "Everything we pull", upstreams: ["Quay", "Docker Hub"] },
        { name: "mirrors", upstreams: [mirror(0), mirror(1), "Docker Hub"] },
      ],
    },
  },
};
const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("alice");
});

/** Runs `action` as another seed user, then as the file's user again. */
const as = <T>(username: string, action: () => Promise<T>): Promise<T> => server.actingAs(username, action);

/** Runs `action` with a feature flag off for every group. */
async function withFlagOff<T>(flag: string, action: () => Promise<T>): Promise<T> {
  const flags = server.emulator.state.instance.featureFlags!;
  const saved = flags[flag]!;
  flags[flag] = false;
  try {
    return await action();
  } finally {
    flags[flag] = saved;
  }
}

const registryNamed = async (name: string) => (await getVirtualRegistries({ group: "acme" })).find((registry) => registry.name === name)!;

describe("getVirtualRegistries and getVirtualRegistry", () => {
  it("a group's registries in one request, and one with its upstreams in position order", async () => {
    let registries: Awaited<ReturnType<typeof getVirtualRegistries>> = [];
    const requests = await server.requestsDuring(async () => {
      registries = await getVirtualRegistries({ group: "acme" });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/groups/acme/-/virtual_registries/container/registries", status: 200 }]);
    expect(registries.map((r) => [r.name, r.description])).toEqual([["containers", "Everything we pull"], ["mirrors", null]]);
    expect(registries[0]).toMatchObject({ id: expect.any(Number), groupId: server.emulator.state.groupByFullPath("acme")!.id, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const containers = await getVirtualRegistry({ id: registries[0]!.id });
    const [quay, dockerHub] = await getUpstreams({ registry: containers.id });
    expect(containers.registryUpstreams).toEqual([
      { id: expect.any(Number), position: 1, upstreamId: quay!.id },
      { id: expect.any(Number), position: 2, upstreamId: dockerHub!.id },
    ]);
  });

  it("the Output form", async () => {
    const { id } = await registryNamed("mirrors");
    const names = await new Promise<number>((resolve) => getVirtualRegistryOutput({ id }).apply((registry) => resolve(registry.registryUpstreams.length)));
    expect(names).toBe(3);
  });

  it("a missing registry is named; a subgroup or a bad id is refused before any request", async () => {
    await expect(getVirtualRegistry({ id: 99_999 })).rejects.toThrow(/getVirtualRegistry: could not read container virtual registry 99999: .*404 Not found/);
    const mark = server.emulator.mark();
    await expect(getVirtualRegistries({ group: "acme/platform" })).rejects.toThrow(/getVirtualRegistries: invalid arguments: group: must be a top-level group/);
    await expect(getVirtualRegistry({ id: -2 })).rejects.toThrow(/id: must be a virtual registry's numeric id/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("the tier, the feature flag and a non-member are each explained", async () => {
    await expect(getVirtualRegistries({ group: "beta" })).rejects.toThrow(/could not read the container virtual registries of group beta: .*404.*when its group needs the Premium or Ultimate tier and is below it/);
    await withFlagOff("container_virtual_registries", () =>
      expect(getVirtualRegistries({ group: "acme" })).rejects.toThrow(/answered 401 .*: either feature flag container_virtual_registries is off for the group \(an administrator can enable it\), or/),
    );
    await as("outsider", () => expect(getVirtualRegistries({ group: "acme" })).rejects.toThrow(/404 Group Not Found/));
  });
});

describe("getUpstreams and getUpstream", () => {
  it("a registry's upstreams in position order, each with its place; the password never shown", async () => {
    const { id } = await registryNamed("containers");
    const upstreams = await getUpstreams({ registry: id });
    expect(upstreams.map((u) => [u.name, u.registryUpstream?.position])).toEqual([["Quay", 1], ["Docker Hub", 2]]);
    expect(upstreams[1]).toMatchObject({ url: "https://registry-1.docker.io", username: "acme-bot", cacheValidityHours: 48, registryUpstream: { registryId: id } });
    expect(upstreams[0]).toMatchObject({ description: "Red Hat images", username: null, cacheValidityHours: 24 });
    expect(JSON.stringify(upstreams)).not.toContain("planted-upstream-password");
  });

  it("a group's upstreams, linked or not, across pages; the name filter", async () => {
    let names: string[] = [];
    const requests = await server.requestsDuring(async () => {
      names = (await getUpstreams({ group: "acme" })).map((u) => u.name);
    });
    expect(names).toHaveLength(MIRRORS + 2);
    expect(names.slice(0, 3)).toEqual(["Docker Hub", "Quay", mirror(0)]);
    expect(requests).toHaveLength(2);
    expect((await getUpstreams({ group: "acme", upstreamName: "DOCKER" })).map((u) => u.name)).toEqual(["Docker Hub"]);
    expect(server.emulator.requestLog.at(-1)!.query).toContain("upstream_name=DOCKER");
    expect(await getUpstreams({ group: "acme", limit: 5 })).toHaveLength(5);
  });

  it("one upstream with every registry that uses it", async () => {
    const dockerHub = (await getUpstreams({ group: "acme", upstreamName: "docker" }))[0]!;
    const containers = await registryNamed("containers");
    const mirrors = await registryNamed("mirrors");
    expect(await getUpstream({ id: dockerHub.id })).toMatchObject({
      name: "Docker Hub",
      registryUpstreams: [
        { id: expect.any(Number), registryId: containers.id, position: 2 },
        { id: expect.any(Number), registryId: mirrors.id, position: 3 },
      ],
    });
  });

  it("exactly one of registry and group; the name filter for groups only; nothing sent", async () => {
    const mark = server.emulator.mark();
    await expect(getUpstreams({})).rejects.toThrow(/getUpstreams: invalid arguments: registry: set exactly one of registry .* and group/);
    await expect(getUpstreams({ registry: 1, group: "acme" })).rejects.toThrow(/set exactly one/);
    await expect(getUpstreams({ registry: 1, upstreamName: "docker" })).rejects.toThrow(/upstreamName: filters a group's upstreams only/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("a missing upstream is named", async () => {
    await expect(getUpstream({ id: 99_999 })).rejects.toThrow(/getUpstream: could not read container upstream 99999/);
  });
});

describe("getCleanupPolicy", () => {
  it("no policy yet: the 404 lists what it can mean", async () => {
    await expect(getCleanupPolicy({ group: "acme" })).rejects.toThrow(/getCleanupPolicy: could not read the virtual registry cleanup policy of group acme: .*404.*no policy yet.*Premium or Ultimate.*maven_virtual_registry/);
  });

  it("the group's policy, every field, camelCased", async () => {
    await server.as("alice").post("/groups/acme/-/virtual_registries/cleanup/policy", { cadence: 14, enabled: true, keep_n_days_after_download: 60 });
    const policy = await getCleanupPolicy({ group: "acme" });
    expect(policy).toEqual({
      groupId: server.emulator.state.groupByFullPath("acme")!.id,
      cadence: 14,
      enabled: true,
      keepNDaysAfterDownload: 60,
      notifyOnSuccess: false,
      notifyOnFailure: false,
      status: "scheduled",
      nextRunAt: expect.any(String),
      lastRunAt: null,
      lastRunDeletedSize: 0,
      lastRunDeletedEntriesCount: 0,
      failureMessage: null,
      lastRunDetailedMetrics: {},
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it("a Maintainer is refused: only Owners read it", async () => {
    await as("maintainer", () => expect(getCleanupPolicy({ group: "acme" })).rejects.toThrow(/getCleanupPolicy: could not read .*403.*: the token's user needs the Owner role on group acme/));
  });

  it("a subgroup is refused before any request", async () => {
    const mark = server.emulator.mark();
    await expect(getCleanupPolicy({ group: "acme/platform" })).rejects.toThrow(/group: must be a top-level group/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});
