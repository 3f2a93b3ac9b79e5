import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

let now = Date.parse("2026-12-06T12:00:00Z");
const server = useEmulator({ clock: () => now });
const groupId = (path: string) => server.emulator.state.groupByFullPath(path)!.id;

describe("sharing a project with a group", () => {
  it("gives the invited group's members their role there, at most the share's, and shows the share", async () => {
    // alice is Owner of beta: beta shared into acme/api as Reporter makes her a Reporter of the project, no more.
    expect((await call(server.emulator, "/projects/acme%2Fapi", { as: "outsider" })).status).toBe(404);
    const shared = await call(server.emulator, "/projects/acme%2Fapi/share", { as: "alice", method: "POST", body: { group_id: groupId("beta"), group_access: 20, expires_at: "2027-01-31" } });
    expect(shared).toMatchObject({ status: 201, body: { group_id: groupId("beta"), group_access: 20, expires_at: "2027-01-31" } });
    const project = await call(server.emulator, "/projects/acme%2Fapi", { as: "alice" });
    expect(project.body.shared_with_groups).toEqual([{ group_id: groupId("beta"), group_name: "Beta", group_full_path: "beta", group_access_level: 20, expires_at: "2027-01-31" }]);
    expect((await call(server.emulator, "/projects/acme%2Fapi/members/all/" + server.emulator.state.userByUsername("alice")!.id, { as: "alice" })).body.access_level).toBe(50);
  });

  it("a member of the invited group who is nothing in the project gains the share's role, capped by their own", async () => {
    const outsider = server.emulator.state.userByUsername("outsider")!.id;
    await call(server.emulator, "/groups/beta/members", { as: "alice", method: "POST", body: { user_id: outsider, access_level: 40 } });
    const seen = await call(server.emulator, `/projects/acme%2Fapi/members/all/${outsider}`, { as: "outsider" });
    expect(seen).toMatchObject({ status: 200, body: { access_level: 20 } });
    // A Reporter may not manage badges: the share gives no more.
    const badge = await call(server.emulator, "/projects/acme%2Fapi/badges", { as: "outsider", method: "POST", body: { link_url: "https://x.test", image_url: "https://x.test/i" } });
    expect(badge.status).toBe(403);
  });

  it("refuses a share higher than the sharer's role, a second share, and any share where the groups lock it", async () => {
    expect((await call(server.emulator, "/projects/acme%2Fweb/share", { as: "maintainer", method: "POST", body: { group_id: groupId("beta"), group_access: 50 } })).status).toBe(403);
    expect(await call(server.emulator, "/projects/acme%2Fapi/share", { as: "alice", method: "POST", body: { group_id: groupId("beta"), group_access: 30 } })).toMatchObject({ status: 409, body: { message: "Project already shared with this group" } });
    await call(server.emulator, "/groups/acme", { as: "alice", method: "PUT", body: { share_with_group_lock: true } });
    const locked = await call(server.emulator, "/projects/acme%2Fweb/share", { as: "alice", method: "POST", body: { group_id: groupId("beta"), group_access: 30 } });
    expect(locked).toMatchObject({ status: 400, body: { message: "400 Bad request - The project sharing with group is disabled" } });
    await call(server.emulator, "/groups/acme", { as: "alice", method: "PUT", body: { share_with_group_lock: false } });
  });

  it("an expired share gives nothing, and a removed one neither", async () => {
    const outsider = server.emulator.state.userByUsername("outsider")!.id;
    now = Date.parse("2027-01-31T00:10:00Z");
    expect((await call(server.emulator, `/projects/acme%2Fapi/members/all/${outsider}`, { as: "alice" })).status).toBe(404);
    now = Date.parse("2026-12-06T12:00:00Z");
    expect((await call(server.emulator, `/projects/acme%2Fapi/share/${groupId("beta")}`, { as: "alice", method: "DELETE" })).status).toBe(204);
    expect((await call(server.emulator, `/projects/acme%2Fapi/members/all/${outsider}`, { as: "alice" })).status).toBe(404);
    // `not_found!('Group Link')` for a share there is not.
    expect(await call(server.emulator, `/projects/acme%2Fapi/share/${groupId("beta")}`, { as: "alice", method: "DELETE" })).toMatchObject({ status: 404, body: { message: "404 Group Link Not Found" } });
  });
});

describe("sharing a group with a group", () => {
  it("needs the Owner role; gives the invited group's members the role in the group and below it", async () => {
    const outsider = server.emulator.state.userByUsername("outsider")!.id;
    expect((await call(server.emulator, "/groups/acme%2Fplatform/share", { as: "maintainer", method: "POST", body: { group_id: groupId("beta"), group_access: 30 } })).status).toBe(404);
    const shared = await call(server.emulator, "/groups/acme%2Fplatform/share", { as: "alice", method: "POST", body: { group_id: groupId("beta"), group_access: 30 } });
    expect(shared).toMatchObject({ status: 201, body: { full_path: "acme/platform", shared_with_groups: [{ group_full_path: "beta", group_access_level: 30 }] } });
    expect((await call(server.emulator, `/projects/acme%2Fplatform%2Finfra/members/all/${outsider}`, { as: "alice" })).body.access_level).toBe(30);
    expect((await call(server.emulator, "/groups/acme%2Fplatform", { as: "outsider" })).status).toBe(200);
  });

  it("refuses sharing outside the hierarchy when the top-level group prevents it", async () => {
    await call(server.emulator, "/groups/acme", { as: "alice", method: "PUT", body: { prevent_sharing_groups_outside_hierarchy: true } });
    const refused = await call(server.emulator, "/groups/acme/share", { as: "alice", method: "POST", body: { group_id: groupId("beta/labs"), group_access: 10 } });
    expect(refused).toMatchObject({ status: 404, body: { message: "Not Found" } });
    await call(server.emulator, "/groups/acme", { as: "alice", method: "PUT", body: { prevent_sharing_groups_outside_hierarchy: false } });
    expect((await call(server.emulator, `/groups/acme%2Fplatform/share/${groupId("beta")}`, { as: "alice", method: "DELETE" })).status).toBe(204);
  });
});
