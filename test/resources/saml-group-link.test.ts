import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { providers, resetDeclarations, SamlGroupLink } from "pulumi-platform";
import { configOf, useEmulator } from "../support";

const server = useEmulator();
const link = providers.SamlGroupLink;
let n = 0;
const inputs = (overrides: Record<string, unknown> = {}) => ({ group: "acme", samlGroupName: `idp-group-${++n}`, accessLevel: "developer", ...overrides });

async function create(overrides: Record<string, unknown> = {}) {
  const checked = await link.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await link.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

beforeAll(async () => {
  await server.configureProviders("alice");
});

describe("lifecycle", () => {
  it("create is one POST; a role name stays as written although the server answers with numbers", async () => {
    let created: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => (created = await create({ samlGroupName: "platform-devs", memberRoleId: 4 })));
    expect(requests).toEqual([{ method: "POST", path: "/api/v4/groups/acme/saml_group_links", status: 201 }]);
    const { id, outs, inputs: declared } = created!;
    expect(id).toBe("groups/acme/saml_group_links/platform-devs");
    expect(outs).toMatchObject({ accessLevel: "developer", samlGroupName: "platform-devs", memberRoleId: 4 });
    expect(await link.diff(id, outs, declared)).toMatchObject({ changes: false });
    expect(await link.diff(id, outs, { ...declared, accessLevel: 30 })).toMatchObject({ changes: false });
    const refreshed = await link.read(id, outs);
    expect(refreshed.props).toMatchObject({ accessLevel: "developer" });
    expect(await link.diff(id, refreshed.props!, declared)).toMatchObject({ changes: false });
  });

  it("a new role replaces the link, deleting first (same name and provider cannot coexist)", async () => {
    const { id, outs, inputs: declared } = await create();
    expect(await link.diff(id, outs, { ...declared, accessLevel: "maintainer" })).toMatchObject({ changes: true, replaces: ["accessLevel"], deleteBeforeReplace: true });
    expect(await link.diff(id, outs, { ...declared, samlGroupName: "other" })).toMatchObject({ replaces: ["samlGroupName"], deleteBeforeReplace: false });
    // A link without a provider cannot be deleted by name once a link of that name with a provider exists: deleted first.
    expect(await link.diff(id, outs, { ...declared, provider: "okta" })).toMatchObject({ replaces: ["provider"], deleteBeforeReplace: true });
    const withProvider = await create({ samlGroupName: "with-provider", provider: "okta" });
    expect(await link.diff(withProvider.id, withProvider.outs, { ...withProvider.inputs, provider: "azure" })).toMatchObject({ replaces: ["provider"], deleteBeforeReplace: false });
  });

  it("refresh sees an out-of-band change and an out-of-band delete", async () => {
    const { id, outs, inputs: declared } = await create({ samlGroupName: "drifting" });
    await server.as().delete("/groups/acme/saml_group_links/drifting");
    await server.as().post("/groups/acme/saml_group_links", { saml_group_name: "drifting", access_level: 20 });
    const requests = await server.requestsDuring(async () => {
      const refreshed = await link.read(id, outs);
      expect(refreshed.props).toMatchObject({ accessLevel: 20 });
      expect(await link.diff(id, refreshed.props!, declared)).toMatchObject({ changes: true, replaces: ["accessLevel"] });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/groups/acme/saml_group_links/drifting", status: 200 }]);
    await server.as().delete("/groups/acme/saml_group_links/drifting");
    expect(await link.read(id, outs)).toEqual({ id: "" });
  });

  it("delete is one request; deleting again succeeds", async () => {
    const { id, outs } = await create();
    const requests = await server.requestsDuring(() => link.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: `/api/v4/${id}`, status: 204 }]);
    await expect(link.delete(id, outs)).resolves.toBeUndefined();
  });

  it("links that share a name: reads and deletes always send provider; an ambiguous one says to set provider", async () => {
    const okta = await create({ samlGroupName: "shared", provider: "okta" });
    const plain = await create({ samlGroupName: "shared" });
    expect(okta.id).toBe("groups/acme/saml_group_links/shared?provider=okta");
    const requests = await server.requestsDuring(() => link.read(okta.id, okta.outs));
    expect(requests[0]!.status).toBe(200);
    expect(server.emulator.requestLog.at(-1)!.query).toBe("provider=okta");
    await expect(link.read(plain.id, plain.outs)).rejects.toThrow(/share this name.*Set provider/);
    await link.delete(okta.id, okta.outs);
    expect((await link.read(plain.id, plain.outs)).id).toBe(plain.id);
  });
});

describe("adoption and errors", () => {
  it("create of an existing link says to use adoptExisting", async () => {
    await server.as().post("/groups/acme/saml_group_links", { saml_group_name: "by-hand", access_level: 30 });
    const checked = await link.check({}, inputs({ samlGroupName: "by-hand" }));
    await expect(link.create(checked.inputs)).rejects.toThrow(/already has a SAML group link named "by-hand".*adoptExisting/);
  });

  it("adoptExisting takes over a matching link with one GET, and replaces a differing one", async () => {
    await server.as().post("/groups/acme/saml_group_links", { saml_group_name: "adopt-me", access_level: 30 });
    const requests = await server.requestsDuring(() => create({ samlGroupName: "adopt-me", accessLevel: "developer", adoptExisting: true }));
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
    const differing = await server.requestsDuring(() => create({ samlGroupName: "adopt-me", accessLevel: "maintainer", adoptExisting: true }));
    expect(differing.map((r) => r.method)).toEqual(["GET", "DELETE", "POST"]);
    expect((await server.as().get<{ access_level: number }>("/groups/acme/saml_group_links/adopt-me")).access_level).toBe(40);
  });

  it("a 401 for a token that is not accepted says so (this API's other 401s: test/catalogue/refused-by-server.test.ts)", async () => {
    await link.configure({ config: configOf({ "platform:url": server.emulator.url, "platform:token": "glpat-revoked" }) });
    try {
      const acme = await link.check({}, inputs());
      await expect(link.create(acme.inputs)).rejects.toThrow(
        "SamlGroupLink: POST /groups/acme/saml_group_links failed with 401: the server refused the token in platform:token (or PLATFORM_TOKEN): it is mistyped, expired or revoked;",
      );
    } finally {
      await server.configureProviders("alice");
    }
  });

  it("a member role the server ignores (no custom roles) is an error, and leaves no link behind", async () => {
    server.emulator.state.groupByFullPath("beta")!.tier = "premium";
    const checked = await link.check({}, inputs({ group: "beta", samlGroupName: "roles", memberRoleId: 9 }));
    await expect(link.create(checked.inputs)).rejects.toThrow(/ignored memberRoleId 9/);
    expect(await server.as().get<unknown[]>("/groups/beta/saml_group_links")).toEqual([]);
  });
});

describe("access levels: exactly those the SAML link API takes", () => {
  it("0 (no access), in the spec's list of levels but not in the endpoint's values, is refused at check with the reason; the server refuses it too", async () => {
    const checked = await link.check({}, inputs({ accessLevel: 0 }));
    expect(checked.failures?.map((f) => f.reason)).toEqual([expect.stringMatching(/^accessLevel: 0 \(no access\) is not a role a SAML group link can grant.*minimal_access \(5\)/)]);
    const refused = await server.as("alice").post("/groups/acme/saml_group_links", { saml_group_name: "nobody", access_level: 0 }).catch((error: { status: number }) => error);
    expect(refused).toMatchObject({ status: 400 });
    // Minimal access, the least a link can grant, works end to end.
    const { id, outs, inputs: declared } = await create({ accessLevel: "minimal_access" });
    expect(await link.diff(id, (await link.read(id, outs)).props!, declared)).toMatchObject({ changes: false });
  });
});

describe("a link declared twice in one program", () => {
  beforeEach(() => {
    pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs });
    resetDeclarations();
  });
  afterEach(() => resetDeclarations());

  it("is refused while the program runs, naming both declarations; at apply the second create would fail on the taken name", async () => {
    new SamlGroupLink("devs", { group: "acme", samlGroupName: "twice", accessLevel: "developer" });
    expect(() => new SamlGroupLink("devs-too", { group: "acme", samlGroupName: "twice", accessLevel: "maintainer" })).toThrow(
      /SamlGroupLink "devs-too": samlGroupName: SamlGroupLink "devs" of this program already declares the link "twice" of group acme without a provider/,
    );
    // The same name for another provider is another link.
    expect(() => new SamlGroupLink("devs-okta", { group: "acme", samlGroupName: "twice", accessLevel: "developer", provider: "okta" })).not.toThrow();

    await create({ samlGroupName: "twice" });
    const second = await link.check({}, inputs({ samlGroupName: "twice", accessLevel: "maintainer" }));
    await expect(link.create(second.inputs)).rejects.toThrow(/already has a SAML group link named "twice".*declare the link once/);
  });
});
