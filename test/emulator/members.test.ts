import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

let now = Date.parse("2026-12-06T12:00:00Z");
const server = useEmulator({ clock: () => now });

const ACME = "/groups/acme";
const PLATFORM = "/groups/acme%2Fplatform";
const WEB = "/projects/acme%2Fweb";
const INFRA = "/projects/acme%2Fplatform%2Finfra";
const idOf = (username: string) => server.emulator.state.userByUsername(username)!.id;

describe("listing members", () => {
  it("lists the direct members with role, expiry and state; /all adds the inherited ones, each once at its highest", async () => {
    const direct = await call(server.emulator, `${INFRA}/members`, { as: "dev" });
    expect(direct.status).toBe(200);
    expect(direct.body.map((m: any) => [m.username, m.access_level])).toEqual([["dev", 40]]);
    expect(direct.body[0]).toMatchObject({ expires_at: null, membership_state: "active", state: "active" });
    const all = await call(server.emulator, `${INFRA}/members/all`, { as: "dev" });
    // The seeded group access token's bot is a member of acme too.
    expect(all.body.filter((m: any) => !m.username.includes("_bot_")).map((m: any) => [m.username, m.access_level])).toEqual([
      ["alice", 50],
      ["maintainer", 40],
      ["dev", 40],
      ["guest", 10],
    ]);
  });

  it("answers one direct member, and for an inherited one ActiveRecord's 404, which names nothing (`find_by!`)", async () => {
    const found = await call(server.emulator, `${INFRA}/members/${idOf("dev")}`, { as: "dev" });
    expect(found.body).toMatchObject({ username: "dev", access_level: 40 });
    const inherited = await call(server.emulator, `${INFRA}/members/${idOf("alice")}`, { as: "dev" });
    expect(inherited).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    const none = await call(server.emulator, `${ACME}/members/all/${idOf("outsider")}`, { as: "alice" });
    expect(none).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  it("hides the members of a source the caller cannot see", async () => {
    expect((await call(server.emulator, `${ACME}/members`, { as: "outsider" })).status).toBe(404);
  });
});

describe("adding a member", () => {
  it("gives the role, and the role checks read it at once", async () => {
    expect((await call(server.emulator, `${PLATFORM}/badges`, { as: "outsider", method: "POST", body: { link_url: "https://x.test", image_url: "https://x.test/i" } })).status).toBe(404);
    const added = await call(server.emulator, `${PLATFORM}/members`, { as: "alice", method: "POST", body: { user_id: idOf("outsider"), access_level: 50, expires_at: "2027-01-31" } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ username: "outsider", access_level: 50, expires_at: "2027-01-31", created_by: { username: "alice" }, membership_state: "active" });
    const badge = await call(server.emulator, `${PLATFORM}/badges`, { as: "outsider", method: "POST", body: { link_url: "https://x.test", image_url: "https://x.test/i" } });
    expect(badge.status).toBe(201);
  });

  it("refuses a second membership (409), an unknown user (404) and an unknown role (400)", async () => {
    const again = await call(server.emulator, `${PLATFORM}/members`, { as: "alice", method: "POST", body: { user_id: idOf("outsider"), access_level: 30 } });
    expect(again).toMatchObject({ status: 409, body: { message: "Member already exists" } });
    const nobody = await call(server.emulator, `${PLATFORM}/members`, { as: "alice", method: "POST", body: { user_id: 9999, access_level: 30 } });
    expect(nobody).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    const odd = await call(server.emulator, `${WEB}/members`, { as: "alice", method: "POST", body: { username: "outsider", access_level: 35 } });
    expect(odd).toMatchObject({ status: 400, body: { message: { access_level: ["is not included in the list"] } } });
  });

  it("refuses a role below an inherited one, naming it and the group", async () => {
    const lower = await call(server.emulator, `${WEB}/members`, { as: "alice", method: "POST", body: { user_id: idOf("dev"), access_level: 20 } });
    expect(lower).toMatchObject({ status: 400, body: { message: { access_level: ["should be greater than or equal to Developer inherited membership from group Acme"] } } });
  });

  it("lets only an Owner give the Owner role; a Maintainer gives the rest of a project's roles", async () => {
    const owner = await call(server.emulator, `${WEB}/members`, { as: "maintainer", method: "POST", body: { username: "guest", access_level: 50 } });
    expect(owner.status).toBe(403);
    const developer = await call(server.emulator, `${WEB}/members`, { as: "maintainer", method: "POST", body: { username: "guest", access_level: 30 } });
    expect(developer.status).toBe(201);
    const group = await call(server.emulator, `${ACME}/members`, { as: "maintainer", method: "POST", body: { username: "outsider", access_level: 10 } });
    expect(group.status).toBe(403);
  });

  it("refuses an expiry in the past", async () => {
    const past = await call(server.emulator, `${WEB}/members`, { as: "alice", method: "POST", body: { username: "outsider", access_level: 30, expires_at: "2026-01-01" } });
    expect(past).toMatchObject({ status: 400, body: { message: { expires_at: ["cannot be a date in the past"] } } });
  });
});

describe("changing and removing a member", () => {
  it("changes the role in place", async () => {
    const changed = await call(server.emulator, `${WEB}/members/${idOf("guest")}`, { as: "alice", method: "PUT", body: { access_level: 40 } });
    expect(changed).toMatchObject({ status: 200, body: { access_level: 40, created_by: { username: "maintainer" } } });
  });

  it("never lowers or removes a group's last Owner", async () => {
    const lower = await call(server.emulator, `/groups/beta/members/${idOf("alice")}`, { as: "alice", method: "PUT", body: { access_level: 40 } });
    expect(lower.status).toBe(403);
    const removed = await call(server.emulator, `/groups/beta/members/${idOf("alice")}`, { as: "root", method: "DELETE" });
    expect(removed.status).toBe(403);
    expect(server.emulator.state.groupByFullPath("beta")!.members[String(idOf("alice"))]).toBe(50);
  });

  it("removes a member (204) and the role goes with it", async () => {
    const removed = await call(server.emulator, `${WEB}/members/${idOf("guest")}`, { as: "alice", method: "DELETE" });
    expect(removed.status).toBe(204);
    expect((await call(server.emulator, `${WEB}/members/${idOf("guest")}`, { as: "alice" })).status).toBe(404);
  });

  it("removes a membership once its expiry date has come", async () => {
    now = Date.parse("2027-01-31T00:30:00Z");
    await server.emulator.runDueWork();
    expect((await call(server.emulator, `${PLATFORM}/members/${idOf("outsider")}`, { as: "alice" })).status).toBe(404);
    expect((await call(server.emulator, PLATFORM, { as: "outsider" })).status).toBe(404);
  });
});
