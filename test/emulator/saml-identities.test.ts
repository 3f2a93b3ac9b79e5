/** SAML identities of a group: every endpoint, the permission order, the model's rules, the seed section. */
import { describe, expect, it } from "vitest";
import { defaultSeed, selfManagedSeed, stateFromSeed, SeedError, type Seed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const server = useEmulator();
const SAML = "/groups/acme/saml";

describe("SAML identities", () => {
  it("lists the group's identities (extern_uid, user_id) with pagination headers", async () => {
    const list = await call(server.emulator, `${SAML}/identities`, { as: "alice" });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { extern_uid: "idp-1001-alice", user_id: 2 },
      { extern_uid: "idp-1002-mia", user_id: 3 },
      { extern_uid: "idp-1003-dev", user_id: 4 },
      { extern_uid: "idp-1004-gus", user_id: 5 },
    ]);
    expect(list.headers.get("x-total")).toBe("4");
    const page = await call(server.emulator, `${SAML}/identities?per_page=3&page=2`, { as: "alice" });
    expect(page.body).toEqual([{ extern_uid: "idp-1004-gus", user_id: 5 }]);
    expect(page.headers.get("x-prev-page")).toBe("1");
  });

  it("gets one identity by its uid, case-insensitively; an unknown uid is 404 Identity Not Found", async () => {
    expect((await call(server.emulator, `${SAML}/idp-1003-dev`, { as: "alice" })).body).toEqual({ extern_uid: "idp-1003-dev", user_id: 4 });
    expect((await call(server.emulator, `${SAML}/IDP-1003-DEV`, { as: "alice" })).body).toEqual({ extern_uid: "idp-1003-dev", user_id: 4 });
    const missing = await call(server.emulator, `${SAML}/nobody`, { as: "alice" });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Identity Not Found" });
  });

  it("PATCH changes extern_uid (form field), and the identity moves to its new address", async () => {
    const patched = await call(server.emulator, `${SAML}/idp-1004-gus`, { as: "alice", method: "PATCH", body: new URLSearchParams({ extern_uid: "gus@idp.example" }) });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ extern_uid: "gus@idp.example", user_id: 5 });
    expect((await call(server.emulator, `${SAML}/idp-1004-gus`, { as: "alice" })).status).toBe(404);
    expect((await call(server.emulator, `${SAML}/gus%40idp.example`, { as: "alice" })).body.user_id).toBe(5);
    // A JSON body works too; back to the seed's value.
    const back = await call(server.emulator, `${SAML}/gus@idp.example`, { as: "alice", method: "PATCH", body: { extern_uid: "idp-1004-gus" } });
    expect(back.body.extern_uid).toBe("idp-1004-gus");
  });

  it("PATCH refuses a missing, blank or taken extern_uid with the real bodies", async () => {
    const path = `${SAML}/idp-1003-dev`;
    expect((await call(server.emulator, path, { as: "alice", method: "PATCH", body: {} })).body).toEqual({ error: "extern_uid is missing" });
    const blank = await call(server.emulator, path, { as: "alice", method: "PATCH", body: { extern_uid: " " } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: "SAML NameID is missing from your SAML response. Please contact your administrator" });
    const taken = await call(server.emulator, path, { as: "alice", method: "PATCH", body: { extern_uid: "IDP-1001-ALICE" } });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toMatch(/^Extern uid has already been taken/);
    // Its own value again is no clash.
    expect((await call(server.emulator, path, { as: "alice", method: "PATCH", body: { extern_uid: "idp-1003-dev" } })).status).toBe(200);
    expect((await call(server.emulator, `${SAML}/nobody`, { as: "alice", method: "PATCH", body: { extern_uid: "x" } })).status).toBe(404);
  });

  it("DELETE removes the identity: 204, empty body on the wire", async () => {
    const { emulator } = server;
    const deleted = await call(emulator, `${SAML}/idp-1002-mia`, { as: "alice", method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await call(emulator, `${SAML}/idp-1002-mia`, { as: "alice" })).status).toBe(404);
    expect((await call(emulator, `${SAML}/idp-1002-mia`, { as: "alice", method: "DELETE" })).body).toEqual({ message: "404 Identity Not Found" });
    expect((await call(emulator, `${SAML}/identities`, { as: "alice" })).body.map((i: { user_id: number }) => i.user_id)).not.toContain(3);
  });

  it("refuses in Grape's order: 401 anonymous, 404 invisible group, 403 below Owner (even before parameters)", async () => {
    const anonymous = await call(server.emulator, `${SAML}/identities`, { as: null });
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: "401 Unauthorized" }]);
    const outsider = await call(server.emulator, `${SAML}/identities`, { as: "outsider" });
    expect([outsider.status, outsider.body]).toEqual([404, { message: "404 Group Not Found" }]);
    for (const as of ["maintainer", "dev", "guest"]) {
      const refused = await call(server.emulator, `${SAML}/idp-1003-dev`, { as, method: "PATCH", body: {} });
      expect([refused.status, refused.body]).toEqual([403, { message: "403 Forbidden" }]);
    }
    expect((await call(server.emulator, `${SAML}/identities`, { as: "root" })).status).toBe(200);
    expect((await call(server.emulator, "/groups/nope/saml/identities", { as: "root" })).body).toEqual({ message: "404 Group Not Found" });
  });

  it("a group without a SAML provider (Free tier, not configured, a subgroup): list 400, get 404", async () => {
    for (const path of ["/groups/beta/saml", "/groups/acme%2Fplatform/saml"]) {
      const list = await call(server.emulator, `${path}/identities`, { as: "alice" });
      expect([list.status, list.body]).toEqual([400, { message: "400 Bad request" }]);
      expect((await call(server.emulator, `${path}/idp-1001-alice`, { as: "alice" })).body).toEqual({ message: "404 Identity Not Found" });
    }
  });
});

describe("self-managed", () => {
  const selfManaged = useEmulator({ seed: selfManagedSeed });

  it("has no group SAML provider: the list is 400 and identities are not found (the users API manages them there)", async () => {
    const list = await call(selfManaged.emulator, `${SAML}/identities`, { as: "alice" });
    expect([list.status, list.body]).toEqual([400, { message: "400 Bad request" }]);
    const one = await call(selfManaged.emulator, `${SAML}/idp-1001-alice`, { as: "alice", method: "PATCH", body: { extern_uid: "x" } });
    expect([one.status, one.body]).toEqual([404, { message: "404 Identity Not Found" }]);
  });
});

describe("GET /users?username=", () => {
  it("finds one user by username, case-insensitively, as UserBasic", async () => {
    const found = await call(server.emulator, "/users?username=DEV", { as: "alice" });
    expect(found.body).toEqual([{ id: 4, username: "dev", name: "Dev Developer", state: "active", locked: false, avatar_url: null, web_url: "https://platform.example.test/dev" }]);
    expect((await call(server.emulator, "/users?username=nobody", { as: "alice" })).body).toEqual([]);
  });
});

describe("seed section samlIdentities", () => {
  const seedWith = (section: unknown): Seed => ({ ...defaultSeed, samlIdentities: section });

  it("refuses what cannot be", () => {
    const cases: [unknown, RegExp][] = [
      [[], /object keyed by top-level group/],
      [{ nope: [] }, /unknown group nope/],
      [{ "acme/platform": [] }, /top-level groups only/],
      [{ acme: {} }, /must be an array/],
      [{ acme: [{ username: "ghost", externUid: "x" }] }, /unknown user ghost/],
      [{ acme: [{ username: "outsider", externUid: "x" }] }, /outsider is not a member of group acme/],
      [{ acme: [{ username: "alice", externUid: "" }] }, /samlIdentities\["acme"\]\[0\]\.externUid: must be a non-empty string/],
      [{ acme: [{ username: "alice", externUid: "a" }, { username: "dev", externUid: "A" }] }, /repeats the user or the externUid/],
      [{ acme: [{ username: "alice", externUid: "a" }, { username: "alice", externUid: "b" }] }, /repeats the user or the externUid/],
    ];
    for (const [section, message] of cases) {
      expect(() => stateFromSeed(seedWith(section))).toThrow(SeedError);
      expect(() => stateFromSeed(seedWith(section))).toThrow(message);
    }
  });

  it("a group listed with no identities has SSO configured and an empty list", async () => {
    const state = stateFromSeed(seedWith({ acme: [] }));
    expect(state.toJSON().stores.samlIdentities).toEqual({ providerGroupIds: [state.groupByFullPath("acme")!.id], identities: [] });
  });
});
