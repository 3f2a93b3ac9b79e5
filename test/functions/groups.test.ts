/** The group lookups against the emulator: results, filters, pages, refusals, bad arguments. */
import { beforeAll, describe, expect, it } from "vitest";
import { getGroup, getGroupOutput, getGroupPersonalAccessTokens, getGroups } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// The default seed, 250 public top-level groups (three pages of 100), and 130
// more tokens of dev, an enterprise user of acme (137 in acme's inventory: two pages).
const MANY_GROUPS = 250;
const MANY_TOKENS = 130;
const defaultCredentials = defaultSeed.credentials as { personalAccessTokens: object[] };
const seed: Seed = {
  ...defaultSeed,
  groups: [
    ...(defaultSeed.groups ?? []),
    ...Array.from({ length: MANY_GROUPS }, (_, i) => ({ path: `bulk-${String(i).padStart(3, "0")}`, visibility: "public" as const, tier: "free" as const })),
  ],
  credentials: {
    ...defaultCredentials,
    personalAccessTokens: [
      ...defaultCredentials.personalAccessTokens,
      ...Array.from({ length: MANY_TOKENS }, (_, i) => ({ user: "dev", name: `script-${i}`, token: `glpat-dev-script-${String(i).padStart(4, "0")}`, createdAt: "2024-05-10T00:00:00.000Z" })),
    ],
  },
};

const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("alice");
});

/** Runs `action` as another seed user, then as the file's user again. */
const as = <T>(username: string, action: () => Promise<T>): Promise<T> => server.actingAs(username, action);

async function nothingSent(action: () => Promise<unknown>, message: RegExp): Promise<void> {
  const mark = server.emulator.mark();
  await expect(action()).rejects.toThrow(message);
  expect(server.emulator.requestsSince(mark)).toEqual([]);
}

describe("getGroup", () => {
  it("a group in camelCase, the runners token to its Owner, without projects unless asked, in one request", async () => {
    let acme: Awaited<ReturnType<typeof getGroup>> | undefined;
    const requests = await server.requestsDuring(async () => {
      acme = await getGroup({ group: "acme" });
    });
    expect(requests).toHaveLength(1);
    expect(server.emulator.requestLog.at(-1)!.query).toContain("with_projects=false");
    expect(acme).toMatchObject({ fullPath: "acme", fullName: "Acme", parentId: null, visibility: "private", sharedWithGroups: [], preventSharingGroupsOutsideHierarchy: false, lfsEnabled: true });
    expect(acme!.runnersToken).toMatch(/^GR1348941/);
    expect(acme!.defaultBranchProtectionDefaults.allowedToPush).toEqual([{ accessLevel: 40 }]);
    expect(acme).not.toHaveProperty("projects");
    const withProjects = await getGroup({ group: "acme", withProjects: true });
    expect(withProjects.projects!.map((project) => project.pathWithNamespace).sort()).toEqual(["acme/api", "acme/web"]);
  });

  it("by numeric id; custom attributes for administrators only; the Output form", async () => {
    const { id } = await getGroup({ group: "acme/platform" });
    expect((await getGroup({ group: id })).fullPath).toBe("acme/platform");
    expect(await getGroup({ group: "acme", withCustomAttributes: true })).not.toHaveProperty("customAttributes");
    const asRoot = await as("root", () => getGroup({ group: "acme", withCustomAttributes: true }));
    expect(asRoot.customAttributes).toContainEqual({ key: "department", value: "engineering" });
    const output = await new Promise((resolve) => getGroupOutput({ group: "beta" }).apply(resolve));
    expect(output).toMatchObject({ fullPath: "beta", visibility: "public" });
  });

  it("a missing group is named; a caller who may not see it gets the same", async () => {
    await expect(getGroup({ group: "acme/nope" })).rejects.toThrow(/getGroup: could not read group acme\/nope: GET .* answered 404 \(404 Group Not Found\)/);
    await as("outsider", async () => {
      await expect(getGroup({ group: "acme" })).rejects.toThrow(/group acme does not exist, or the token's user cannot see it/);
      expect(await getGroup({ group: "beta" })).not.toHaveProperty("runnersToken");
    });
  });

  it("bad arguments fail before any request, naming the argument", async () => {
    await nothingSent(() => getGroup({ group: "not a path!" }), /getGroup: invalid arguments: group: /);
    await nothingSent(() => getGroup({ group: "acme", withProject: true } as never), /withProject: unknown property; did you mean withProjects\?/);
    await nothingSent(() => getGroup({ group: "acme", withProjects: "yes" } as never), /withProjects/);
  });
});

describe("getGroups", () => {
  it("every page: 250 groups in three requests of 100", async () => {
    let found: Awaited<ReturnType<typeof getGroups>> = [];
    const requests = await server.requestsDuring(async () => {
      found = await getGroups({ search: "bulk", allAvailable: true });
    });
    expect(found).toHaveLength(MANY_GROUPS);
    expect(found[0]).toMatchObject({ fullPath: "bulk-000", parentId: null, visibility: "public" });
    expect(requests).toHaveLength(3);
    expect(requests.every((request) => request.status === 200)).toBe(true);
  });

  it("limit reads no more than it needs", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await getGroups({ allAvailable: true, limit: 5, orderBy: "id", sort: "desc" })).toHaveLength(5);
    });
    expect(requests).toHaveLength(1);
    expect(server.emulator.requestLog.at(-1)!.query).toContain("per_page=5");
  });

  it("the caller's own groups by default, and the filters in the API's names", async () => {
    expect((await getGroups({})).map((group) => group.fullPath).sort()).toEqual(["acme", "acme/platform", "beta", "beta/labs"]);
    expect((await getGroups({ owned: true, topLevelOnly: true })).map((group) => group.fullPath)).toEqual(["acme", "beta"]);
    expect((await getGroups({ archived: true })).map((group) => group.fullPath)).toEqual(["beta/labs"]);
    expect((await getGroups({ active: true, search: "a", orderBy: "similarity" })).map((group) => group.fullPath)[0]).toBe("acme");
    const acme = (await getGroup({ group: "acme" })).id;
    expect((await getGroups({ topLevelOnly: true, skipGroups: [acme] })).map((group) => group.fullPath)).toEqual(["beta"]);
    expect(server.emulator.requestLog.at(-1)!.query).toContain(`skip_groups%5B%5D=${acme}`);
    expect((await getGroups({ minAccessLevel: 50, visibility: "internal" })).map((group) => group.fullPath)).toEqual(["beta/labs"]);
  });

  it("administrators' filters and extras: custom attributes, statistics", async () => {
    const found = await as("root", () => getGroups({ customAttributes: { department: "engineering" }, statistics: true, withCustomAttributes: true }));
    expect(found.map((group) => group.fullPath)).toEqual(["acme"]);
    expect(found[0]!.statistics).toMatchObject({ repositorySize: 52_428_800 });
    expect(found[0]!.rootStorageStatistics).toHaveProperty("storageSize");
    expect(found[0]!.customAttributes).toHaveLength(2);
    expect(server.emulator.requestLog.at(-1)!.query).toContain("custom_attributes%5Bdepartment%5D=engineering");
  });

  it("a caller sees only what it may: an outsider's list has no private group", async () => {
    const seen = await as("outsider", () => getGroups({ allAvailable: true, topLevelOnly: true, limit: 10 }));
    expect(seen.map((group) => group.visibility)).not.toContain("private");
    expect(seen.map((group) => group.fullPath)).not.toContain("acme");
  });

  it("bad arguments fail before any request, naming the argument and the rule", async () => {
    await nothingSent(() => getGroups({ orderBy: "similarity" }), /orderBy: similarity orders by closeness to search; give search too/);
    await nothingSent(() => getGroups({ minAccessLevel: 7 as never }), /minAccessLevel: must be one of 5, 10, 15, 20, 30, 40, 50/);
    await nothingSent(() => getGroups({ markedForDeletionOn: "June" }), /markedForDeletionOn: must be a date, YYYY-MM-DD/);
    await nothingSent(() => getGroups({ orderBy: "created_at" as never }), /orderBy/);
    await nothingSent(() => getGroups({ skipGroups: [-1] }), /skipGroups/);
    await nothingSent(() => getGroups({ customAttributes: { "a b": "x" } }), /custom attribute names are letters/);
    await nothingSent(() => getGroups({ toplevelOnly: true } as never), /toplevelOnly: unknown property; did you mean topLevelOnly\?/);
    await nothingSent(() => getGroups({ limit: 0 }), /limit/);
  });
});

describe("getGroupPersonalAccessTokens", () => {
  it("the enterprise users' tokens over two pages, newest first, in camelCase", async () => {
    let tokens: Awaited<ReturnType<typeof getGroupPersonalAccessTokens>> = [];
    const requests = await server.requestsDuring(async () => {
      tokens = await getGroupPersonalAccessTokens({ group: "acme" });
    });
    expect(tokens).toHaveLength(MANY_TOKENS + 7);
    expect(requests).toHaveLength(2);
    expect(tokens[0]).toEqual({
      id: expect.any(Number), name: expect.any(String), revoked: false, createdAt: expect.any(String), description: "",
      scopes: ["api"], userId: expect.any(Number), lastUsedAt: null, active: true, expiresAt: null,
    });
    expect(tokens.map((token) => token.id)).toEqual([...tokens.map((token) => token.id)].sort((a, b) => b - a));
  });

  it("filters and sorts in the API's names; limit", async () => {
    expect((await getGroupPersonalAccessTokens({ group: "acme", state: "inactive" })).map((token) => token.name)).toEqual(["leaked", "old-ci"]);
    expect((await getGroupPersonalAccessTokens({ group: "acme", revoked: true })).map((token) => token.name)).toEqual(["leaked"]);
    expect((await getGroupPersonalAccessTokens({ group: "acme", search: "release" }))[0]).toMatchObject({ name: "release-script", description: "Tags releases", expiresAt: "2030-06-30" });
    const used = await getGroupPersonalAccessTokens({ group: "acme", lastUsedAfter: "2024-04-01T00:00:00Z", sort: "last_used_asc" });
    expect(used.map((token) => token.name)).toEqual(["release-script", "laptop"]);
    expect((await getGroupPersonalAccessTokens({ group: "acme", createdBefore: "2023-12-31", limit: 1 })).map((token) => token.name)).toEqual(["old-ci"]);
  });

  it("a missing group is named, with what the inventory needs", async () => {
    await expect(getGroupPersonalAccessTokens({ group: "nope" })).rejects.toThrow(
      /getGroupPersonalAccessTokens: could not read the personal access tokens of group nope's enterprise users: .*404 Group Not Found.*hosted offering only, for top-level groups/,
    );
  });

  it("a caller below Owner, and a Free group, are refused with the reason", async () => {
    await as("maintainer", async () => {
      await expect(getGroupPersonalAccessTokens({ group: "acme" })).rejects.toThrow(/could not read the personal access tokens of group acme's enterprise users: .*403.*: the token's user needs the Owner role on group acme, and group acme needs the Premium or Ultimate tier/);
    });
    await expect(getGroupPersonalAccessTokens({ group: "beta" })).rejects.toThrow(/403.*group beta needs the Premium or Ultimate tier/);
  });

  it("bad arguments fail before any request", async () => {
    await nothingSent(() => getGroupPersonalAccessTokens({ group: "acme", sort: "oldest" as never }), /sort/);
    await nothingSent(() => getGroupPersonalAccessTokens({ group: "acme", createdAfter: "yesterday" }), /createdAfter: must be an ISO 8601 date or time/);
    await nothingSent(() => getGroupPersonalAccessTokens({ group: "acme", createdAfter: "2024-05-01", createdBefore: "2024-04-01" }), /createdAfter: is later than createdBefore/);
    await nothingSent(() => getGroupPersonalAccessTokens({ group: "acme", state: "expired" as never }), /state/);
    await nothingSent(() => getGroupPersonalAccessTokens({} as never), /group: is required/);
  });
});
