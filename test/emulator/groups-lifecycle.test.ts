/**
 * A group's life on the emulator, over HTTP: `POST /groups` and its rules,
 * the rename's redirect, `POST /groups/:id/transfer`, delayed deletion
 * (marked, restored, removed for good, or removed when the period ends) and
 * immediate deletion, and `can_create_group` of the current user.
 */
import { describe, expect, it } from "vitest";
import { selfManagedSeed, startEmulator, type Emulator } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

let now = Date.parse("2026-03-01T10:00:00.000Z");
const server = useEmulator({ clock: () => now });
const post = (path: string, body: object, as = "root") => call(server.emulator, path, { method: "POST", body, as });
const idOf = async (fullPath: string) => (await call(server.emulator, `/groups/${encodeURIComponent(fullPath)}`)).body.id as number;

describe("POST /groups", () => {
  it("creates a subgroup with the update's settings; its creator owns it", async () => {
    const acme = await idOf("acme");
    const created = await post("/groups", { name: "Team One", path: "team-one", parent_id: acme, description: "first", request_access_enabled: false, membership_lock: true }, "alice");
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ full_path: "acme/team-one", parent_id: acme, description: "first", request_access_enabled: false, membership_lock: true, visibility: "private", marked_for_deletion_on: null });
    // Its creator may change it: the Owner role.
    expect((await call(server.emulator, `/groups/${created.body.id}`, { method: "PUT", body: { description: "changed" }, as: "alice" })).status).toBe(200);
  });

  it("refuses the paths and names the model refuses, in the API's words", async () => {
    const acme = await idOf("acme");
    const refused = async (body: object) => (await post("/groups", { parent_id: acme, name: "X", path: "x", ...body })).body.message;
    expect(await refused({ path: "-x" })).toMatch(/^Failed to save group \{:path=>\["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-'/);
    expect(await refused({ path: "platform" })).toBe('Failed to save group {:path=>["has already been taken"]}');
    // A project's path in the same parent is taken too.
    expect(await refused({ path: "web" })).toBe('Failed to save group {:path=>["has already been taken"]}');
    expect((await post("/groups", { name: "Admin", path: "admin" })).body.message).toBe('Failed to save group {:path=>["admin is a reserved name"]}');
    expect(await refused({ name: "-x" })).toMatch(/^Failed to save group \{:name=>\["can contain only letters, digits, emoji/);
    expect(await refused({ visibility: "public" })).toBe('Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}');
    expect((await post("/groups", { parent_id: acme, path: "x" })).body).toEqual({ error: "name is missing" });
  });

  it("a subgroup needs the role the parent's subgroup_creation_level names; an unseen parent is 404", async () => {
    const acme = await idOf("acme");
    expect((await post("/groups", { name: "D", path: "by-dev", parent_id: acme }, "dev")).status).toBe(403);
    expect((await post("/groups", { name: "M", path: "by-maintainer", parent_id: acme }, "maintainer")).status).toBe(201);
    await call(server.emulator, `/groups/${acme}`, { method: "PUT", body: { subgroup_creation_level: "owner" } });
    try {
      expect((await post("/groups", { name: "M", path: "by-maintainer-2", parent_id: acme }, "maintainer")).status).toBe(403);
      expect((await post("/groups", { name: "O", path: "by-owner", parent_id: acme }, "alice")).status).toBe(201);
    } finally {
      await call(server.emulator, `/groups/${acme}`, { method: "PUT", body: { subgroup_creation_level: "maintainer" } });
    }
    expect((await post("/groups", { name: "X", path: "x", parent_id: acme }, "outsider")).body).toEqual({ message: "404 Group Not Found" });
  });

  it("the hosted offering's API creates subgroups only; administrators may create top-level groups", async () => {
    expect((await post("/groups", { name: "Top", path: "top" }, "alice")).status).toBe(403);
    expect((await call(server.emulator, "/user", { as: "alice" })).body.can_create_group).toBe(true);
    expect((await post("/groups", { name: "Top", path: "top-by-root" })).status).toBe(201);
  });
});

describe("a self-managed instance", () => {
  it("lets users create top-level groups until an administrator turns it off; can_create_group says so", async () => {
    const emulator: Emulator = await startEmulator({ seed: selfManagedSeed });
    try {
      const as = (username: string, path: string, options: Parameters<typeof call>[2] = {}) => call(emulator, path, { as: username, ...options });
      expect((await as("alice", "/groups", { method: "POST", body: { name: "Mine", path: "mine" } })).status).toBe(201);
      await as("root", "/application/settings", { method: "PUT", body: { top_level_group_creation_enabled: false } });
      expect((await as("alice", "/user")).body.can_create_group).toBe(false);
      expect((await as("alice", "/groups", { method: "POST", body: { name: "Mine 2", path: "mine-2" } })).status).toBe(403);
      expect((await as("root", "/user")).body.can_create_group).toBe(true);
    } finally {
      await emulator.stop();
    }
  });
});

describe("rename and transfer", () => {
  it("a new path: the groups API no longer finds the group by the old one (404), a project below it still is", async () => {
    const created = await post("/groups", { name: "Old", path: "old-name", parent_id: await idOf("acme") });
    const project = await post("/projects", { path: "inside", namespace_id: created.body.id });
    await call(server.emulator, `/groups/${created.body.id}`, { method: "PUT", body: { path: "new-name" } });
    const old = await call(server.emulator, `/groups/${encodeURIComponent("acme/old-name")}`);
    expect(old).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    const below = await call(server.emulator, `/projects/${encodeURIComponent("acme/old-name/inside")}`);
    expect(below.status).toBe(301);
    expect(below.headers.get("location")).toContain(`/projects/${project.body.id}`);
  });

  it("moves a group under another, lowers what is more visible than the new parent; the old path is not found", async () => {
    const beta = await idOf("beta");
    const moving = await post("/groups", { name: "Mover", path: "mover", parent_id: beta, visibility: "public" });
    const moved = await post(`/groups/${moving.body.id}/transfer`, { group_id: await idOf("acme") });
    expect(moved.status).toBe(201);
    expect(moved.body).toMatchObject({ full_path: "acme/mover", visibility: "private" });
    expect((await call(server.emulator, `/groups/${encodeURIComponent("beta/mover")}`)).status).toBe(404);
    // To the top level: no group_id.
    expect((await post(`/groups/${moving.body.id}/transfer`, {})).body).toMatchObject({ full_path: "mover", parent_id: null });
  });

  it("refuses what the transfer service refuses, with its words", async () => {
    const acme = await idOf("acme");
    const platform = await idOf("acme/platform");
    const refused = async (id: number, body: object, as = "root") => {
      const answer = await post(`/groups/${id}/transfer`, body, as);
      return [answer.status, answer.body.message];
    };
    expect(await refused(platform, { group_id: acme })).toEqual([400, "Transfer failed: Group is already associated to the parent group."]);
    expect(await refused(acme, { group_id: platform })).toEqual([400, "Transfer failed: Cannot transfer group to one of its subgroup."]);
    expect(await refused(acme, {})).toEqual([400, "Transfer failed: Group is already root."]);
    const clash = await post("/groups", { name: "Platform", path: "platform", parent_id: await idOf("beta") });
    expect(await refused(clash.body.id, { group_id: acme })).toEqual([400, "Transfer failed: The parent group already has a subgroup or a project with the same path."]);
    expect(await refused(platform, { group_id: await idOf("beta") }, "maintainer")).toEqual([403, "403 Forbidden"]);
  });
});

describe("DELETE /groups/:id", () => {
  it("marks the group where deletion is delayed; restore gives it back; permanent removal needs its full path", async () => {
    const created = await post("/groups", { name: "Doomed", path: "doomed", parent_id: await idOf("acme") });
    const id = created.body.id as number;
    expect((await call(server.emulator, `/groups/${id}`, { method: "DELETE", as: "maintainer" })).status).toBe(403);
    const deleted = await call(server.emulator, `/groups/${id}`, { method: "DELETE" });
    expect([deleted.status, deleted.body]).toEqual([202, { message: "202 Accepted" }]);
    expect((await call(server.emulator, `/groups/${id}`)).body.marked_for_deletion_on).toBe("2026-03-01");
    expect((await call(server.emulator, `/groups/${id}`, { method: "DELETE" })).body).toEqual({ message: "Group has been already marked for deletion" });
    const restored = await post(`/groups/${id}/restore`, {});
    expect([restored.status, restored.body.marked_for_deletion_on]).toEqual([201, null]);
    expect((await post(`/groups/${id}/restore`, {})).body).toEqual({ message: "Group has not been marked for deletion" });
    expect((await call(server.emulator, `/groups/${id}?permanently_remove=true&full_path=acme%2Fdoomed`, { method: "DELETE" })).body).toEqual({ message: "Group must be marked for deletion first." });
    await call(server.emulator, `/groups/${id}`, { method: "DELETE" });
    expect((await call(server.emulator, `/groups/${id}?permanently_remove=true&full_path=doomed`, { method: "DELETE" })).body).toEqual({
      message: "`full_path` is incorrect. You must enter the complete path for the group.",
    });
    expect((await call(server.emulator, `/groups/${id}?permanently_remove=true&full_path=acme%2Fdoomed`, { method: "DELETE" })).status).toBe(202);
    expect((await call(server.emulator, `/groups/${id}`)).status).toBe(404);
  });

  it("removes a marked group, its subgroups and their projects once the deletion period has passed", async () => {
    const outer = await post("/groups", { name: "Aging", path: "aging", parent_id: await idOf("acme") });
    const inner = await post("/groups", { name: "Inner", path: "inner", parent_id: outer.body.id });
    await call(server.emulator, `/groups/${outer.body.id}`, { method: "DELETE" });
    now += 29 * 86_400_000;
    await server.emulator.runDueWork();
    expect((await call(server.emulator, `/groups/${inner.body.id}`)).status).toBe(200);
    now += 86_400_000;
    await server.emulator.runDueWork();
    expect((await call(server.emulator, `/groups/${outer.body.id}`)).status).toBe(404);
    expect((await call(server.emulator, `/groups/${inner.body.id}`)).status).toBe(404);
  });

  it("removes the group at once on the Community Edition, which has no restore", async () => {
    server.emulator.state.instance.enterprise = false;
    try {
      const created = await post("/groups", { name: "Gone", path: "gone", parent_id: await idOf("acme") });
      expect(created.body).not.toHaveProperty("marked_for_deletion_on");
      expect((await call(server.emulator, `/groups/${created.body.id}`, { method: "DELETE" })).status).toBe(202);
      expect((await call(server.emulator, `/groups/${created.body.id}`)).status).toBe(404);
      expect((await post(`/groups/${await idOf("acme")}/restore`, {})).status).toBe(404);
    } finally {
      server.emulator.state.instance.enterprise = true;
    }
  });
});
