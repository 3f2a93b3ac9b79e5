/**
 * Verification at preview (src/engine/verify.ts) of `Upstream`, whose owner is
 * a container virtual registry named by id (its group, found by reading the
 * registry once per run), and of the five exclusive sets (the owner and the
 * role of their removals). Through `providers.<Name>.check` against the
 * emulator, as test/engine/verify.test.ts does for the other resources.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();

type Name = keyof typeof providers;

/** The failures' reasons of a check of new inputs (a create) as the engine sends it. */
async function failuresOf(resource: Name, inputs: Record<string, unknown>, olds: Record<string, unknown> = {}): Promise<string[]> {
  const result = await providers[resource].check(olds, inputs);
  return (result.failures ?? []).map((failure) => failure.reason);
}

/** A new run (configure) as `user`, verifying at preview (the tests' support turns it off by default). */
async function runAs(user: string): Promise<void> {
  await server.configureProviders(user, { "platform:verifyAtPreview": "true" });
}

/** The API requests (method and path, query left out) the emulator saw during `action`. */
async function requestsOf(action: () => Promise<unknown>): Promise<string[]> {
  const requests = await server.requestsDuring(action);
  return requests.map(({ method, path }) => `${method} ${path.split("?")[0]}`);
}

const upstream = (registry: number, url = "https://registry-1.docker.io") => ({ registry, url, name: "Docker Hub" });

let containers: number;
let mirrors: number;
let acmeId: number;
beforeAll(async () => {
  const admin = server.as();
  const create = (name: string) => admin.post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name });
  containers = (await create("containers")).id;
  mirrors = (await create("mirrors")).id;
  acmeId = (await admin.get<{ id: number }>(apiPath`/groups/${"acme"}`)).id;
});

let savedFlags: Record<string, boolean | string[]> | undefined;
beforeEach(() => {
  savedFlags = { ...(server.emulator.state.instance.featureFlags ?? {}) };
});
afterEach(() => {
  server.emulator.state.instance.featureFlags = savedFlags;
});

describe("Upstream: the group of its registry", () => {
  it("passes for a Maintainer of the registry's group; a Developer's role is too low", async () => {
    await runAs("maintainer");
    expect(await failuresOf("Upstream", upstream(containers))).toEqual([]);
    await runAs("dev");
    expect(await failuresOf("Upstream", upstream(containers))).toEqual(["registry: the token's user (dev) needs at least the Maintainer role on group acme for Upstream, and is Developer there"]);
  });

  it("a registry that does not exist (or whose group is below Premium: the server answers 404 to both)", async () => {
    await runAs("maintainer");
    expect(await failuresOf("Upstream", upstream(987654))).toEqual([
      "registry: container virtual registry 987654 does not exist, or its group needs the Premium or Ultimate tier for Upstream, and may be below it (the server answers 404 to both)",
    ]);
    const acme = server.emulator.state.groupByFullPath("acme")!;
    const tier = acme.tier;
    acme.tier = "free";
    try {
      await runAs("maintainer");
      expect(await failuresOf("Upstream", upstream(containers))).toEqual([
        `registry: container virtual registry ${containers} does not exist, or its group needs the Premium or Ultimate tier for Upstream, and may be below it (the server answers 404 to both)`,
      ]);
    } finally {
      acme.tier = tier;
    }
  });

  it("a user without a role in the registry's group", async () => {
    await runAs("outsider");
    expect(await failuresOf("Upstream", upstream(containers))).toEqual([
      `registry: the token's user (outsider) needs at least the Maintainer role on the group of container virtual registry ${containers} for Upstream, and is not a member there (the server refuses to show it)`,
    ]);
  });

  it("the feature flag off for the registry's group: found by any user, since the server answers 401", async () => {
    server.emulator.state.instance.featureFlags = { ...savedFlags, container_virtual_registries: ["beta"] };
    await runAs("maintainer");
    expect(await failuresOf("Upstream", upstream(containers))).toEqual([
      `registry: feature flag container_virtual_registries is off for the group of container virtual registry ${containers} (the server answers 401); Upstream needs it (an administrator can enable it)`,
    ]);
    // The token is accepted: the 401 is the flag's, not a token problem.
    expect(await failuresOf("Upstream", upstream(containers))).not.toContainEqual(expect.stringContaining("refused the token"));
  });

  it("an anonymous upstream of the same URL already in the registry is named with its id; credentials, adoption and another registry pass", async () => {
    const url = "https://quay.example.com";
    const existing = await server.as().post<{ id: number }>(apiPath`/virtual_registries/container/registries/${containers}/upstreams`, { url, name: "Quay" });
    await runAs("maintainer");
    expect(await failuresOf("Upstream", upstream(containers, url))).toEqual([
      `an anonymous upstream of ${url} in container virtual registry ${containers} already exists in group acme (id ${existing.id}): adopt it with the import option (import: "${existing.id}") or remove it`,
    ]);
    expect(await failuresOf("Upstream", { ...upstream(containers, url), adoptExisting: true })).toEqual([]);
    // With credentials the server compares a password it never shows: left to the server.
    expect(await failuresOf("Upstream", { ...upstream(containers, url), username: "puller", password: "s3cret" })).toEqual([]);
    // The other registry's list is not read for this one: a collision there is left to the server.
    expect(await failuresOf("Upstream", upstream(mirrors, "https://ghcr.example.com"))).toEqual([]);
  });

  it("a registry that already holds five upstreams is named for a new one, by the property that puts it there; adoption and a registry with room pass", async () => {
    const admin = server.as();
    const full = (await admin.post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name: "full" })).id;
    try {
      for (let i = 0; i < 5; i++) await admin.post(apiPath`/virtual_registries/container/registries/${full}/upstreams`, { url: `https://full-${i}.example.com`, name: `Full ${i}` });
      await runAs("maintainer");
      const withCredentials = { url: "https://sixth.example.com", name: "Sixth", username: "puller", password: "s3cret" };
      const requests = await requestsOf(async () => {
        expect(await failuresOf("Upstream", { registry: full, ...withCredentials })).toEqual([
          `registry: container virtual registry ${full} already holds 5 upstreams, the most it may hold; the server would refuse one more (remove one from it, or use another)`,
        ]);
        expect(await failuresOf("Upstream", { registry: mirrors, otherRegistries: [{ registry: containers }, { registry: full }], ...withCredentials })).toEqual([
          `otherRegistries[1]: container virtual registry ${full} already holds 5 upstreams, the most it may hold; the server would refuse one more (remove one from it, or use another)`,
        ]);
      });
      // Each registry's upstreams are read once in the run, whichever property names it.
      const listReads = requests.filter((request) => request.endsWith("/upstreams")).sort();
      expect(listReads).toEqual(
        [full, mirrors, containers].map((id) => `GET /api/v4/virtual_registries/container/registries/${id}/upstreams`).sort(),
      );
      // An upstream taken over is in the registry already; one with room left passes.
      expect(await failuresOf("Upstream", { registry: full, ...withCredentials, adoptExisting: true })).toEqual([]);
      await admin.delete(`/virtual_registries/container/upstreams/${(await admin.get<{ id: number }[]>(`/virtual_registries/container/registries/${full}/upstreams`))[0]!.id}`);
      await runAs("maintainer");
      expect(await failuresOf("Upstream", { registry: full, ...withCredentials })).toEqual([]);
    } finally {
      await admin.delete(`/virtual_registries/container/registries/${full}`);
    }
  });

  it("an update verifies the role only, through the same registry read", async () => {
    await runAs("dev");
    const recorded = upstream(containers, "https://recorded.example.com");
    const requests = await requestsOf(async () => {
      expect(await failuresOf("Upstream", { ...recorded, name: "Renamed" }, recorded)).toEqual([
        "registry: the token's user (dev) needs at least the Maintainer role on group acme for Upstream, and is Developer there",
      ]);
    });
    const user = (await server.as("dev").get<{ id: number }>("/user")).id;
    expect(requests).toEqual([
      "GET /api/v4/user",
      `GET /api/v4/virtual_registries/container/registries/${containers}`,
      `GET /api/v4/groups/${acmeId}`,
      `GET /api/v4/groups/${acmeId}/members/all/${user}`,
    ]);
  });
});

describe("the exclusive sets: the owner, the role of their list (create) and of their removals (an update that removes)", () => {
  const keep = { keep: [] };
  /** The check of an update after a refresh recorded one stray: it removes it. */
  const removing = (resource: Name, inputs: Record<string, unknown>, stray: Record<string, unknown>) => failuresOf(resource, inputs, { ...inputs, unexpected: [stray] });

  it("ExclusiveBadges: the list needs to see the owner; the removals Maintainer of a project, Owner of a group", async () => {
    await runAs("dev");
    expect(await failuresOf("ExclusiveBadges", { project: "acme/web", ...keep })).toEqual([]);
    expect(await removing("ExclusiveBadges", { project: "acme/web", ...keep }, { badgeId: 4, name: "legacy", linkUrl: "https://x.test" })).toEqual([
      "project: the token's user (dev) needs at least the Maintainer role on project acme/web for ExclusiveBadges, and is Developer there",
    ]);
    // An update that removes nothing (keep changed, no stray recorded) sends nothing: nothing to verify.
    expect(await failuresOf("ExclusiveBadges", { project: "acme/web", keep: [7] }, { project: "acme/web", keep: [], unexpected: [] })).toEqual([]);
    await runAs("maintainer");
    expect(await removing("ExclusiveBadges", { project: "acme/web", ...keep }, { badgeId: 4, name: "legacy", linkUrl: "https://x.test" })).toEqual([]);
    expect(await removing("ExclusiveBadges", { group: "acme", ...keep }, { badgeId: 4, name: "legacy", linkUrl: "https://x.test" })).toEqual([
      "group: the token's user (maintainer) needs the Owner role on group acme for ExclusiveBadges, and is Maintainer there",
    ]);
    expect(await failuresOf("ExclusiveBadges", { project: "acme/nope", ...keep })).toEqual([
      `project: project acme/nope does not exist, or the token's user (maintainer) cannot see it (private groups and projects are hidden from non-members)`,
    ]);
    await runAs("alice");
    expect(await failuresOf("ExclusiveBadges", { group: "acme", ...keep })).toEqual([]);
  });

  it("ExclusiveGroupIntegrations: Maintainer (a Developer passed the preview and failed at up)", async () => {
    await runAs("dev");
    expect(await failuresOf("ExclusiveGroupIntegrations", { group: "acme", ...keep })).toEqual([
      "group: the token's user (dev) needs at least the Maintainer role on group acme for ExclusiveGroupIntegrations, and is Developer there",
    ]);
    await runAs("maintainer");
    expect(await failuresOf("ExclusiveGroupIntegrations", { group: "acme", ...keep })).toEqual([]);
    expect(await failuresOf("ExclusiveGroupIntegrations", { group: "acme/nope", ...keep })).toEqual([
      `group: group acme/nope does not exist, or the token's user (maintainer) cannot see it (private groups and projects are hidden from non-members)`,
    ]);
  });

  it("ExclusivePipelineSchedules: a Reporter lists them; removing others' schedules needs Maintainer", async () => {
    await runAs("guest");
    expect(await failuresOf("ExclusivePipelineSchedules", { project: "acme/web", ...keep })).toEqual([
      "project: the token's user (guest) needs at least the Reporter role on project acme/web for ExclusivePipelineSchedules, and is Guest there",
    ]);
    await runAs("dev");
    const stray = { scheduleId: 9, description: "old", ref: "main", cron: "0 1 * * *" };
    expect(await failuresOf("ExclusivePipelineSchedules", { project: "acme/web", ...keep })).toEqual([]);
    expect(await removing("ExclusivePipelineSchedules", { project: "acme/web", ...keep }, stray)).toEqual([
      "project: the token's user (dev) needs at least the Maintainer role on project acme/web for ExclusivePipelineSchedules, and is Developer there",
    ]);
    await runAs("maintainer");
    expect(await removing("ExclusivePipelineSchedules", { project: "acme/web", ...keep }, stray)).toEqual([]);
  });

  it("ExclusiveSamlGroupLinks: Owner, and the Premium tier", async () => {
    await runAs("maintainer");
    expect(await failuresOf("ExclusiveSamlGroupLinks", { group: "acme", ...keep })).toEqual([
      "group: the token's user (maintainer) needs the Owner role on group acme for ExclusiveSamlGroupLinks, and is Maintainer there",
    ]);
    await runAs("alice");
    expect(await failuresOf("ExclusiveSamlGroupLinks", { group: "beta", ...keep })).toEqual(["group: group beta needs the Premium or Ultimate tier for ExclusiveSamlGroupLinks, and it is on Free"]);
    expect(await failuresOf("ExclusiveSamlGroupLinks", { group: "acme", ...keep })).toEqual([]);
  });

  it("ExclusiveUpstreams: the registry's group, as Upstream; a Guest lists, a Maintainer removes", async () => {
    await runAs("dev");
    expect(await failuresOf("ExclusiveUpstreams", { registry: containers, ...keep })).toEqual([]);
    expect(await removing("ExclusiveUpstreams", { registry: containers, ...keep }, { upstreamId: 3, name: "old", url: "https://old.test", registryUpstreamId: 5 })).toEqual([
      "registry: the token's user (dev) needs at least the Maintainer role on group acme for ExclusiveUpstreams, and is Developer there",
    ]);
    await runAs("maintainer");
    expect(await failuresOf("ExclusiveUpstreams", { registry: containers, ...keep })).toEqual([]);
    expect(await failuresOf("ExclusiveUpstreams", { registry: 987654, ...keep })).toEqual([
      "registry: container virtual registry 987654 does not exist, or its group needs the Premium or Ultimate tier for ExclusiveUpstreams, and may be below it (the server answers 404 to both)",
    ]);
    server.emulator.state.instance.featureFlags = { ...savedFlags, container_virtual_registries: false };
    await runAs("maintainer");
    expect(await failuresOf("ExclusiveUpstreams", { registry: containers, ...keep })).toEqual([
      `registry: feature flag container_virtual_registries is off for the group of container virtual registry ${containers} (the server answers 401); ExclusiveUpstreams needs it (an administrator can enable it)`,
    ]);
  });
});

describe("reads: shared by every resource of an owner", () => {
  it("the sets of a group share its reads; the upstreams of its registries add one read per registry, and the list that decides uniqueness", async () => {
    await runAs("alice");
    const user = (await server.as("alice").get<{ id: number }>("/user")).id;
    const ofGroup = await requestsOf(() =>
      Promise.all([
        failuresOf("ExclusiveBadges", { group: "acme", keep: [] }),
        failuresOf("ExclusiveGroupIntegrations", { group: "acme", keep: [] }),
        failuresOf("ExclusiveSamlGroupLinks", { group: "acme", keep: [] }),
        failuresOf("VirtualRegistry", { group: "acme", name: "fresh" }),
      ]),
    );
    expect(ofGroup.sort()).toEqual(
      [
        "GET /api/v4/user",
        "GET /api/v4/groups/acme",
        `GET /api/v4/groups/${acmeId}/members/all/${user}`,
        "GET /api/v4/namespaces/acme",
        `GET /api/v4/groups/${acmeId}/-/virtual_registries/container/registries`,
      ].sort(),
    );
    // The group, its membership and its tier are known: each registry is read once, and the
    // anonymous upstreams' list once per registry. The registry's answer shows the tier and the flag.
    const ofRegistries = await requestsOf(() =>
      Promise.all([
        failuresOf("Upstream", upstream(containers, "https://one.example.com")),
        failuresOf("Upstream", upstream(containers, "https://two.example.com")),
        failuresOf("Upstream", upstream(mirrors, "https://three.example.com")),
        failuresOf("ExclusiveUpstreams", { registry: containers, keep: [] }),
        failuresOf("ExclusiveUpstreams", { registry: mirrors, keep: [] }),
      ]),
    );
    expect(ofRegistries.sort()).toEqual(
      [
        `GET /api/v4/virtual_registries/container/registries/${containers}`,
        `GET /api/v4/virtual_registries/container/registries/${mirrors}`,
        `GET /api/v4/virtual_registries/container/registries/${containers}/upstreams`,
        `GET /api/v4/virtual_registries/container/registries/${mirrors}/upstreams`,
      ].sort(),
    );
    // The same run asks nothing again.
    expect(await requestsOf(() => failuresOf("Upstream", upstream(containers, "https://four.example.com")))).toEqual([]);
  });
});
