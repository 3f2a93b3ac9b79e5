import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

const server = useEmulator();
const ACME = "/groups/acme/saml_group_links";

describe("SAML group links", () => {
  it("creates (201), lists, reads and deletes (204) a link", async () => {
    const created = await call(server.emulator, ACME, { method: "POST", body: { saml_group_name: "devs", access_level: 30, member_role_id: 7 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: "devs", access_level: 30, member_role_id: 7, provider: null });
    expect((await call(server.emulator, ACME)).body).toContainEqual(created.body);
    expect((await call(server.emulator, `${ACME}/devs`)).body).toEqual(created.body);
    const deleted = await call(server.emulator, `${ACME}/devs`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const gone = await call(server.emulator, `${ACME}/devs`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: "404 Not Found" });
  });

  it("validates parameters and duplicates with the real statuses", async () => {
    expect((await call(server.emulator, ACME, { method: "POST", body: { saml_group_name: "x" } })).body).toEqual({ error: "access_level is missing" });
    expect((await call(server.emulator, ACME, { method: "POST", body: { saml_group_name: "x", access_level: 11 } })).body).toEqual({ error: "access_level does not have a valid value" });
    await call(server.emulator, ACME, { method: "POST", body: { saml_group_name: "dup", access_level: 10 } });
    const dup = await call(server.emulator, ACME, { method: "POST", body: { saml_group_name: "dup", access_level: 20, provider: " " } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: "Saml group name has already been taken" });
    const long = await call(server.emulator, ACME, { method: "POST", body: { saml_group_name: "p", access_level: 10, provider: "x".repeat(256) } });
    expect(long.body.message).toMatch(/Provider is too long/);
  });

  it("a name shared across providers needs provider on get and delete (422 otherwise)", async () => {
    await call(server.emulator, ACME, { method: "POST", body: { saml_group_name: "shared", access_level: 10 } });
    await call(server.emulator, ACME, { method: "POST", body: { saml_group_name: "shared", access_level: 40, provider: "okta" } });
    const ambiguous = await call(server.emulator, `${ACME}/shared`);
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.message).toMatch(/specify a provider parameter/);
    expect((await call(server.emulator, `${ACME}/shared?provider=okta`)).body.access_level).toBe(40);
    expect((await call(server.emulator, `${ACME}/shared?provider=`)).body.access_level).toBe(10);
    expect((await call(server.emulator, `${ACME}/shared`, { method: "DELETE" })).status).toBe(422);
    expect((await call(server.emulator, `${ACME}/shared?provider=okta`, { method: "DELETE" })).status).toBe(204);
    expect((await call(server.emulator, `${ACME}/shared`)).body.access_level).toBe(10);
  });

  it("answers 401 for every permission failure: anonymous, non-owner, unlicensed, missing group", async () => {
    for (const [path, as] of [
      [ACME, null],
      [ACME, "maintainer"],
      ["/groups/beta/saml_group_links", "alice"],
      ["/groups/nope/saml_group_links", "root"],
    ] as const) {
      const result = await call(server.emulator, path, { as });
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ message: "401 Unauthorized" });
    }
    expect((await call(server.emulator, ACME, { as: "alice" })).status).toBe(200);
  });

  it("drops member_role_id where custom roles are unavailable", async () => {
    server.emulator.state.groupByFullPath("beta")!.tier = "premium";
    const created = await call(server.emulator, "/groups/beta/saml_group_links", { as: "alice", method: "POST", body: { saml_group_name: "b", access_level: 10, member_role_id: 3 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: "b", access_level: 10, provider: null });
  });
});
