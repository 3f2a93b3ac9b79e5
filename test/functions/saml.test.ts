/** The SAML lookups against the emulator: identities and group links, pages, refusals explained, bad arguments. */
import { beforeAll, describe, expect, it } from "vitest";
import { getSamlGroupLink, getSamlGroupLinks, getSamlIdentities, getSamlIdentitiesOutput, getSamlIdentity } from "pulumi-platform";
import { defaultSeed, selfManagedSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// The default seed, and 130 more members of acme who signed in with SAML: with acme's four, two pages of 100.
const MANY = 130;
const member = (i: number) => `member-${String(i).padStart(3, "0")}`;
const acme = defaultSeed.groups!.find((group) => group.path === "acme")!;
const seed: Seed = {
  ...defaultSeed,
  users: [...defaultSeed.users!, ...Array.from({ length: MANY }, (_, i) => ({ username: member(i) }))],
  groups: defaultSeed.groups!.map((group) =>
    group === acme ? { ...group, members: { ...group.members, ...Object.fromEntries(Array.from({ length: MANY }, (_, i) => [member(i), 10])) } } : group,
  ),
  samlIdentities: {
    acme: [
      ...(defaultSeed.samlIdentities as { acme: unknown[] }).acme,
      ...Array.from({ length: MANY }, (_, i) => ({ username: member(i), externUid: `idp-${member(i)}` })),
    ],
  },
};
const LINKS = 120;

const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("alice");
  // Group links have no seed section: 120 of them made through the API, and one name shared by two providers.
  const alice = server.as("alice");
  for (let i = 0; i < LINKS; i++) await alice.post("/groups/acme/saml_group_links", { saml_group_name: `team-${String(i).padStart(3, "0")}`, access_level: 30 });
  await alice.post("/groups/acme/saml_group_links", { saml_group_name: "shared", access_level: 10 });
  await alice.post("/groups/acme/saml_group_links", { saml_group_name: "shared", access_level: 40, provider: "okta" });
});

async function asUser<T>(username: string, action: () => Promise<T>): Promise<T> {
  await server.configureProviders(username);
  try {
    return await action();
  } finally {
    await server.configureProviders("alice");
  }
}

/** Fails the test if `action` sends anything. */
async function sendsNothing(action: () => Promise<unknown>): Promise<void> {
  const mark = server.emulator.mark();
  await action();
  expect(server.emulator.requestsSince(mark)).toEqual([]);
}

describe("getSamlIdentities", () => {
  it("every identity of the group, camelCased, over two pages of 100", async () => {
    let found: Awaited<ReturnType<typeof getSamlIdentities>> = [];
    const requests = await server.requestsDuring(async () => {
      found = await getSamlIdentities({ group: "acme" });
    });
    expect(requests.map((r) => r.path)).toEqual(["/api/v4/groups/acme/saml/identities", "/api/v4/groups/acme/saml/identities"]);
    expect(found).toHaveLength(4 + MANY);
    expect(found[0]).toEqual({ externUid: "idp-1001-alice", userId: 2 });
    expect(found.at(-1)).toMatchObject({ externUid: `idp-${member(MANY - 1)}` });
  });

  it("limit reads no more than it needs; the Output form", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await getSamlIdentities({ group: "acme", limit: 3 })).toHaveLength(3);
    });
    expect(requests).toHaveLength(1);
    const uids = await new Promise<string[]>((resolve) => getSamlIdentitiesOutput({ group: "acme", limit: 2 }).apply((list) => resolve(list.map((i) => i.externUid))));
    expect(uids).toEqual(["idp-1001-alice", "idp-1002-mia"]);
  });

  it("a group without SAML is explained: the Free tier, a subgroup", async () => {
    await expect(getSamlIdentities({ group: "beta" })).rejects.toThrow(/getSamlIdentities: .*answered 400 \(400 Bad request\): group beta needs the Premium or Ultimate tier for group SAML SSO, and it is below it/);
    await expect(getSamlIdentities({ group: "acme/platform" })).rejects.toThrow(/group acme\/platform is a subgroup: .*top-level group \(acme\)/);
  });

  it("a missing group is named; a Maintainer is told the Owner role is needed", async () => {
    await expect(getSamlIdentities({ group: "nope" })).rejects.toThrow(/could not read the SAML identities of group nope: .*404 Group Not Found/);
    await asUser("maintainer", () => expect(getSamlIdentities({ group: "acme" })).rejects.toThrow(/could not read the SAML identities of group acme: .*403.*Owner role/));
  });

  it("bad arguments are refused before any request", async () => {
    await sendsNothing(async () => {
      await expect(getSamlIdentities({ groop: "acme" } as never)).rejects.toThrow(/getSamlIdentities: invalid arguments: .*groop.*No request was sent/);
      await expect(getSamlIdentities({ group: "acme", limit: 0 })).rejects.toThrow(/limit/);
    });
  });
});

describe("getSamlIdentity", () => {
  it("one identity by its uid", async () => {
    expect(await getSamlIdentity({ group: "acme", uid: "idp-1003-dev" })).toEqual({ externUid: "idp-1003-dev", userId: 4 });
  });

  it("an unknown uid is named; a Guest is refused", async () => {
    await expect(getSamlIdentity({ group: "acme", uid: "nobody" })).rejects.toThrow(/could not read SAML identity nobody of group acme: .*404 Identity Not Found\): the identity does not exist, or the token's user cannot see it.*no SAML identity of the group has this extern_uid/);
    await asUser("guest", () => expect(getSamlIdentity({ group: "acme", uid: "idp-1003-dev" })).rejects.toThrow(/403.*Owner role/));
  });

  it("a uid with a slash or an empty one sends nothing", async () => {
    await sendsNothing(async () => {
      await expect(getSamlIdentity({ group: "acme", uid: "a/b" })).rejects.toThrow(/uid: .*must not contain a slash/);
      await expect(getSamlIdentity({ group: "acme", uid: "" })).rejects.toThrow(/uid: .*must not be empty/);
    });
  });
});

describe("getSamlGroupLinks and getSamlGroupLink", () => {
  it("every link, over two pages", async () => {
    let links: Awaited<ReturnType<typeof getSamlGroupLinks>> = [];
    const requests = await server.requestsDuring(async () => {
      links = await getSamlGroupLinks({ group: "acme" });
    });
    expect(requests).toHaveLength(2);
    expect(links).toHaveLength(LINKS + 2);
    expect(links[0]).toEqual({ name: "team-000", accessLevel: 30, memberRoleId: null, provider: null });
  });

  it("one link by name, and by name and provider", async () => {
    expect(await getSamlGroupLink({ group: "acme", samlGroupName: "team-007" })).toMatchObject({ name: "team-007", accessLevel: 30 });
    expect(await getSamlGroupLink({ group: "acme", samlGroupName: "shared", provider: "okta" })).toMatchObject({ accessLevel: 40, provider: "okta" });
    expect(await getSamlGroupLink({ group: "acme", samlGroupName: "shared", provider: "" })).toMatchObject({ accessLevel: 10, provider: null });
  });

  it("a name shared by several providers (422) says to pass provider", async () => {
    await expect(getSamlGroupLink({ group: "acme", samlGroupName: "shared" })).rejects.toThrow(
      /getSamlGroupLink: group acme has several SAML group links named shared, for different providers .*422.*Pass provider to say which one/,
    );
  });

  it("a missing link is named; the 401 of a Maintainer or a Free group is explained", async () => {
    await expect(getSamlGroupLink({ group: "acme", samlGroupName: "nope" })).rejects.toThrow(/could not read SAML group link nope of group acme: .*404.*: SAML group link nope of group acme does not exist, or the token's user cannot see it/);
    await asUser("maintainer", () => expect(getSamlGroupLinks({ group: "acme" })).rejects.toThrow(/answered 401 .*: either group acme needs the Premium or Ultimate tier and is below it, or the token's user needs the Owner role on group acme and lacks it, or group acme does not exist/));
    await expect(getSamlGroupLinks({ group: "beta" })).rejects.toThrow(/401/);
  });

  it("bad arguments are refused before any request", async () => {
    await sendsNothing(async () => {
      await expect(getSamlGroupLink({ group: "acme", samlGroupName: "" })).rejects.toThrow(/samlGroupName: .*must not be empty/);
      await expect(getSamlGroupLinks({ group: "a b" })).rejects.toThrow(/group: .*numeric id or a full path/);
      await expect(getSamlGroupLink({ group: "acme", samlGroupName: "x", provder: "okta" } as never)).rejects.toThrow(/provder/);
    });
  });
});

describe("on a self-managed instance", () => {
  const selfManaged = useEmulator({ seed: selfManagedSeed });

  it("identities are explained as the users API's", async () => {
    await selfManaged.configureProviders("alice");
    try {
      await expect(getSamlIdentities({ group: "acme" })).rejects.toThrow(/self-managed: there, SAML identities are not managed per group but through the users API/);
    } finally {
      await server.configureProviders("alice");
    }
  });
});
