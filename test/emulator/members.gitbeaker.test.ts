/**
 * The members API (areas/members/) driven by a real client: @gitbeaker/rest's
 * `GroupMembers` and `ProjectMembers` (`all`, with and without
 * `includeInherited`, `show`, `add`, `edit`, `remove`), and the shares
 * (areas/sharing/): `Groups.share`/`unshare`, `Projects.share`/`unshare`.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const server = useEmulator();
const as = (username: string) => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens[username]! });
const idOf = (username: string) => server.emulator.state.userByUsername(username)!.id;
const status = (error: unknown) => (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;

describe("@gitbeaker/rest members", () => {
  it("lists a project's direct members, and with includeInherited its groups' too", async () => {
    const api = as("dev");
    expect((await api.ProjectMembers.all("acme/platform/infra")).map((member) => member.username)).toEqual(["dev"]);
    const all = await api.ProjectMembers.all("acme/platform/infra", { includeInherited: true });
    expect(all.map((member) => member.username)).toEqual(expect.arrayContaining(["alice", "maintainer", "dev", "guest"]));
  });

  it("adds, shows, edits and removes a group member", async () => {
    const api = as("alice");
    const added = await api.GroupMembers.add("acme/platform", 30, { userId: idOf("outsider"), expiresAt: "2030-01-31" });
    expect(added).toMatchObject({ username: "outsider", access_level: 30, expires_at: "2030-01-31", membership_state: "active" });
    expect(await api.GroupMembers.show("acme/platform", idOf("outsider"))).toMatchObject({ access_level: 30 });
    expect(await api.GroupMembers.edit("acme/platform", idOf("outsider"), 40)).toMatchObject({ access_level: 40 });
    await api.GroupMembers.remove("acme/platform", idOf("outsider"));
    expect(status(await api.GroupMembers.show("acme/platform", idOf("outsider")).catch((error: unknown) => error))).toBe(404);
  });

  it("adds a project member by username; a role below an inherited one is a 400", async () => {
    const api = as("alice");
    expect(await api.ProjectMembers.add("acme/api", 20, { username: "outsider" })).toMatchObject({ username: "outsider", access_level: 20 });
    expect(status(await api.ProjectMembers.add("acme/api", 10, { userId: idOf("dev") }).catch((error: unknown) => error))).toBe(400);
  });

  it("shares a project and a group with a group, and unshares them", async () => {
    const api = as("alice");
    const beta = server.emulator.state.groupByFullPath("beta")!.id;
    await api.Projects.share("acme/web", beta, 20, { expiresAt: "2030-01-31" });
    expect((await api.Projects.show("acme/web")).shared_with_groups).toEqual([expect.objectContaining({ group_id: beta, group_access_level: 20, expires_at: "2030-01-31" })]);
    const group = await api.Groups.share("acme/platform", beta, 30, {});
    expect(group.shared_with_groups).toEqual([expect.objectContaining({ group_id: beta, group_access_level: 30 })]);
    await api.Projects.unshare("acme/web", beta);
    await api.Groups.unshare("acme/platform", beta, {});
    expect((await api.Projects.show("acme/web")).shared_with_groups).toEqual([]);
  });
});
