/** SamlIdentity through the provider, as the engine calls it, against the emulator. */
import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { selfManagedSeed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const server = useEmulator();
const samlIdentity = providers.SamlIdentity;
type Props = Record<string, unknown>;
const IDENTITIES = "/api/v4/groups/acme/saml/identities";

interface Identity {
  extern_uid: string;
  user_id: number;
}

const identities = () => server.as("alice").list<Identity>("/groups/acme/saml/identities");
const uidOf = async (userId: number) => (await identities()).find((identity) => identity.user_id === userId)?.extern_uid;
const setUid = (current: string, wanted: string) => server.as("alice").patch(`/groups/acme/saml/${encodeURIComponent(current)}`, { extern_uid: wanted });

async function check(inputs: Props) {
  const checked = await samlIdentity.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  return checked.inputs as Props;
}

async function create(inputs: Props) {
  const checked = await check(inputs);
  const created = await samlIdentity.create(checked);
  return { id: created.id, inputs: checked, outs: created.outs as Props };
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error) => error);
const line = (requests: { method: string; path: string }[]) => requests.map((r) => `${r.method} ${r.path}`);

beforeAll(async () => {
  await server.configureProviders("alice");
});

describe("life cycle", () => {
  it("create by username: the user's id, the identity found by user, one PATCH; the prior uid recorded", async () => {
    let created: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await create({ group: "acme", user: "dev", externUid: "dev@idp.example" });
    });
    expect(line(requests)).toEqual(["GET /api/v4/users", `GET ${IDENTITIES}`, "PATCH /api/v4/groups/acme/saml/idp-1003-dev"]);
    const { id, inputs, outs } = created!;
    expect(id).toBe("groups/acme/saml/users/4");
    expect(outs).toMatchObject({ group: "acme", user: "dev", externUid: "dev@idp.example", userId: 4, restoreValues: { externUid: "idp-1003-dev" } });
    expect(await uidOf(4)).toBe("dev@idp.example");
    // A second preview: no change.
    expect(await samlIdentity.diff(id, outs, inputs)).toMatchObject({ changes: false });

    // Update: one PATCH at the identity's current address; the prior value stays recorded.
    const changed = await check({ ...inputs, externUid: "dev-2@idp.example" });
    expect(await samlIdentity.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    let updated: Props = {};
    const updateRequests = await server.requestsDuring(async () => {
      updated = (await samlIdentity.update(id, outs, changed)).outs as Props;
    });
    expect(line(updateRequests)).toEqual(["PATCH /api/v4/groups/acme/saml/dev%40idp.example"]);
    expect(updated).toMatchObject({ externUid: "dev-2@idp.example", restoreValues: { externUid: "idp-1003-dev" } });

    // Delete gives the prior uid back, in one PATCH.
    const deleteRequests = await server.requestsDuring(() => samlIdentity.delete(id, updated));
    expect(line(deleteRequests)).toEqual(["PATCH /api/v4/groups/acme/saml/dev-2%40idp.example"]);
    expect(await uidOf(4)).toBe("idp-1003-dev");
  });

  it("create by user id: GET and PATCH only; nothing is sent when the uid is already the declared one", async () => {
    const requests = await server.requestsDuring(async () => {
      const { id, outs } = await create({ group: "acme", user: 5, externUid: "gus@idp.example" });
      await samlIdentity.delete(id, outs);
    });
    expect(requests.map((r) => r.method)).toEqual(["GET", "PATCH", "PATCH"]);
    const same = await server.requestsDuring(async () => {
      const { id, outs } = await create({ group: "acme", user: 5, externUid: "idp-1004-gus" });
      expect(outs.restoreValues).toEqual({ externUid: "idp-1004-gus" });
      await samlIdentity.delete(id, outs);
    });
    expect(line(same)).toEqual([`GET ${IDENTITIES}`]);
  });

  it("refresh reads the identity at its recorded uid, one GET, not the group's list", async () => {
    const { id, outs } = await create({ group: "acme", user: 5, externUid: "gus@idp.example" });
    let read: Awaited<ReturnType<typeof samlIdentity.read>> | undefined;
    const requests = await server.requestsDuring(async () => {
      read = await samlIdentity.read(id, outs);
    });
    expect(line(requests)).toEqual(["GET /api/v4/groups/acme/saml/gus%40idp.example"]);
    expect(read!.props).toMatchObject({ externUid: "gus@idp.example", userId: 5, restoreValues: { externUid: "idp-1004-gus" } });
    // An import knows no uid yet: the list, searched by user.
    const imported = await server.requestsDuring(() => samlIdentity.read(id, {}));
    expect(line(imported)).toEqual([`GET ${IDENTITIES}`]);
    await samlIdentity.delete(id, outs);
  });

  it("refresh finds an extern_uid changed out of band, also when another member took the old one; the next update puts the declared one back", async () => {
    const { id, inputs, outs } = await create({ group: "acme", user: 5, externUid: "gus@idp.example" });
    await setUid("gus@idp.example", "gus-drifted");
    // The recorded uid is gone: 404, then the list.
    const drifted = await server.requestsDuring(() => samlIdentity.read(id, outs));
    expect(line(drifted)).toEqual(["GET /api/v4/groups/acme/saml/gus%40idp.example", `GET ${IDENTITIES}`]);
    // The recorded uid is another member's now: not taken for this one's.
    await setUid("idp-1003-dev", "gus@idp.example");
    const taken = await samlIdentity.read(id, outs);
    expect(taken.props).toMatchObject({ externUid: "gus-drifted", userId: 5 });
    await setUid("gus@idp.example", "idp-1003-dev");
    const read = await samlIdentity.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toMatchObject({ externUid: "gus-drifted", restoreValues: { externUid: "idp-1004-gus" } });
    expect(read.inputs).toMatchObject({ externUid: "gus-drifted" });
    expect(await samlIdentity.diff(id, read.props!, inputs)).toMatchObject({ changes: true });
    const restored = await samlIdentity.update(id, read.props!, inputs);
    expect(restored.outs).toMatchObject({ externUid: "gus@idp.example" });
    expect(await uidOf(5)).toBe("gus@idp.example");
    await samlIdentity.delete(id, restored.outs!);
    expect(await uidOf(5)).toBe("idp-1004-gus");
  });

  it("an update after drift that no refresh saw: the old address is 404, the identity is found by user and PATCHed there", async () => {
    const { id, inputs, outs } = await create({ group: "acme", user: 5, externUid: "gus@idp.example" });
    await setUid("gus@idp.example", "gus-elsewhere");
    const requests = await server.requestsDuring(() => samlIdentity.update(id, outs, { ...inputs, externUid: "gus-3@idp.example" }));
    expect(line(requests)).toEqual([
      "PATCH /api/v4/groups/acme/saml/gus%40idp.example",
      `GET ${IDENTITIES}`,
      "PATCH /api/v4/groups/acme/saml/gus-elsewhere",
    ]);
    expect(await uidOf(5)).toBe("gus-3@idp.example");
    await samlIdentity.delete(id, { ...outs, externUid: "gus-3@idp.example" });
    expect(await uidOf(5)).toBe("idp-1004-gus");
  });

  it("a change of group or user replaces; deleteIdentityOnDestroy alone sends nothing", async () => {
    const { id, inputs, outs } = await create({ group: "acme", user: 5, externUid: "idp-1004-gus" });
    expect(await samlIdentity.diff(id, outs, { ...inputs, user: "dev" })).toMatchObject({ changes: true, replaces: ["user"] });
    expect(await samlIdentity.diff(id, outs, { ...inputs, group: "beta" })).toMatchObject({ replaces: ["group"] });
    const toggled = await check({ ...inputs, deleteIdentityOnDestroy: true });
    const requests = await server.requestsDuring(async () => {
      const updated = await samlIdentity.update(id, outs, toggled);
      expect(updated.outs).toMatchObject({ externUid: "idp-1004-gus", deleteIdentityOnDestroy: true, restoreValues: { externUid: "idp-1004-gus" } });
    });
    expect(requests).toEqual([]);
  });

  it("deleteIdentityOnDestroy: destroy deletes the identity; a gone identity reads as gone and deletes quietly", async () => {
    const { id, outs } = await create({ group: "acme", user: "guest", externUid: "gus-final", deleteIdentityOnDestroy: true });
    const requests = await server.requestsDuring(() => samlIdentity.delete(id, outs));
    expect(line(requests)).toEqual(["DELETE /api/v4/groups/acme/saml/gus-final"]);
    expect(await uidOf(5)).toBeUndefined();
    expect((await samlIdentity.read(id, outs)).id).toBe("");
    await samlIdentity.delete(id, outs);
    await samlIdentity.delete(id, { ...outs, deleteIdentityOnDestroy: false });
    // With no identity left, create explains that the member has not signed in with SAML.
    const error = await failure(create({ group: "acme", user: "guest", externUid: "x" }));
    expect(error?.message).toMatch(/user guest has no SAML identity in group acme: the member has not signed in with SAML yet/);
  });
});

describe("a PATCH applied whose outcome stays unknown", () => {
  it("is a failed create that records the prior uid; the next up converges and destroy gives the prior one back", async () => {
    await server.configureProviders("alice", { "platform:retryTimeout": "1.5" });
    const inputs = await check({ group: "acme", user: 4, externUid: "dev-lost@idp.example" });
    server.emulator.setFaultPlan({
      rules: [
        // Applied, answer lost; the client's retry at the old uid meets 404, and every look at the list then fails.
        { method: "PATCH", path: /^\/api\/v4\/groups\/acme\/saml\/idp-1003-dev$/, sequence: ["commit-then-error"] },
        { method: "GET", path: /^\/api\/v4\/groups\/acme\/saml\/identities$/, sequence: ["pass", ...Array<"error-502">(40).fill("error-502")] },
      ],
    });
    let error: (Error & { id?: string; properties?: Props }) | undefined;
    try {
      error = await failure(samlIdentity.create(inputs));
    } finally {
      server.emulator.setFaultPlan(undefined);
      await server.configureProviders("alice");
    }
    expect(error?.message).toMatch(/the prior one is recorded/);
    expect(error?.id).toBe("groups/acme/saml/users/4");
    expect(error?.properties).toMatchObject({ externUid: "idp-1003-dev", restoreValues: { externUid: "idp-1003-dev" } });
    expect(await uidOf(4)).toBe("dev-lost@idp.example");
    // The next `up` updates the recorded state: the old address is 404, the identity found by user already has the uid.
    const updated = await samlIdentity.update(error!.id!, error!.properties!, inputs);
    expect(updated.outs).toMatchObject({ externUid: "dev-lost@idp.example", restoreValues: { externUid: "idp-1003-dev" } });
    await samlIdentity.delete(error!.id!, updated.outs!);
    expect(await uidOf(4)).toBe("idp-1003-dev");
  });
});

describe("refusals, explained", () => {
  it("a Maintainer: the Owner role", async () => {
    await server.configureProviders("maintainer");
    try {
      const error = await failure(create({ group: "acme", user: "dev", externUid: "x" }));
      expect(error?.message).toMatch(/needs the Owner role on group acme/);
      expect(error?.stack ?? "").toBe("");
    } finally {
      await server.configureProviders("alice");
    }
    expect(await uidOf(4)).toBe("idp-1003-dev");
  });

  it("a Free group, a subgroup, an unknown user, a taken uid, a missing group", async () => {
    expect((await failure(create({ group: "beta", user: "alice", externUid: "x" })))?.message).toMatch(/group beta needs the Premium or Ultimate tier for group SAML SSO, and it is below it/);
    expect((await failure(create({ group: "acme/platform", user: "alice", externUid: "x" })))?.message).toMatch(/is a subgroup.*top-level group \(acme\)/);
    expect((await failure(create({ group: "acme", user: "ghost", externUid: "x" })))?.message).toMatch(/there is no user named ghost/);
    expect((await failure(create({ group: "acme", user: "dev", externUid: "idp-1001-alice" })))?.message).toMatch(/"idp-1001-alice" already belongs to another member's identity in group acme/);
    expect((await failure(create({ group: "nope", user: 4, externUid: "x" })))?.message).toMatch(/group nope does not exist/);
    expect(await uidOf(4)).toBe("idp-1003-dev");
  });

  it("check refuses bad values before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      const checked = await samlIdentity.check({}, { group: "acme", user: "dev", externUid: "a/b" });
      expect(checked.failures).toEqual([{ property: "", reason: expect.stringMatching(/^externUid: .*must not contain a slash/) }]);
      const noUser = await samlIdentity.check({}, { group: "acme", externUid: "x" });
      expect(noUser.failures).toEqual([{ property: "", reason: expect.stringMatching(/^user: .*required: must be a username/) }]);
    });
    expect(requests).toEqual([]);
  });
});

describe("on a self-managed instance", () => {
  const selfManaged = useEmulator({ seed: selfManagedSeed });

  it("the error says identities are managed through the users API there", async () => {
    await selfManaged.configureProviders("alice");
    try {
      const error = await failure(create({ group: "acme", user: "dev", externUid: "x" }));
      expect(error?.message).toMatch(/self-managed: there, SAML identities are not managed per group but through the users API/);
    } finally {
      await server.configureProviders("alice");
    }
  });
});
