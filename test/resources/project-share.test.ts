/** ProjectShare and GroupShare through the provider objects, against the emulator over HTTP. */
import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { reviewOf } from "../../src/review/changes";
import type { PreviewOutput } from "../../src/review/preview";
import { useEmulator } from "../support";
import { previewFailures } from "./membership-support";

const server = useEmulator();
const projectShare = providers.ProjectShare;
const groupShare = providers.GroupShare;
const groupId = (path: string) => server.emulator.state.groupByFullPath(path)!.id;
const userId = (name: string) => server.emulator.state.userByUsername(name)!.id;

const preview = (provider: typeof projectShare, user: string, news: Record<string, unknown>) => previewFailures(server, provider, user, {}, news);

beforeAll(async () => {
  await server.configureProviders("alice");
  // outsider, a Maintainer of beta: a share of beta gives them their role, at most the share's.
  await server.as("alice").post(`/groups/beta/members`, { user_id: userId("outsider"), access_level: 40 });
});

describe("ProjectShare", () => {
  it("create shares the project; the invited group's members gain the role; read, a clean diff, delete", async () => {
    const inputs = { project: "acme/api", sharedWith: "beta", groupAccess: "reporter", expiresAt: "2030-01-31" };
    const checked = await projectShare.check({}, inputs);
    expect(checked.failures ?? []).toEqual([]);
    let made: { id: string; outs?: Record<string, unknown> } = { id: "" };
    const requests = await server.requestsDuring(async () => {
      made = await projectShare.create(checked.inputs);
    });
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual(["GET /api/v4/groups/beta", "POST /api/v4/projects/acme%2Fapi/share"]);
    expect(made.id).toBe(`projects/acme%2Fapi/share/${groupId("beta")}`);
    expect(made.outs).toMatchObject({ sharedWithGroupId: groupId("beta"), groupAccess: "reporter", expiresAt: "2030-01-31" });
    const member = await server.as().get<{ access_level: number }>(`/projects/acme%2Fapi/members/all/${userId("outsider")}`);
    expect(member.access_level).toBe(20);
    const read = await projectShare.read(made.id, made.outs!);
    expect(read.props).toMatchObject({ sharedWithGroupId: groupId("beta"), sharedWithPath: "beta", groupAccess: "reporter" });
    expect(await projectShare.diff(made.id, made.outs!, checked.inputs)).toMatchObject({ changes: false });
    expect(await projectShare.diff(made.id, made.outs!, { ...checked.inputs, groupAccess: "developer" })).toMatchObject({ changes: true, replaces: ["groupAccess"], deleteBeforeReplace: true });
    await projectShare.delete(made.id, made.outs!);
    await expect(server.as().get(`/projects/acme%2Fapi/members/all/${userId("outsider")}`)).rejects.toThrow(/404/);
    // Removed already (outside the program, or by an earlier delete whose answer was lost): the server's `404 Group Link Not Found` is the share itself.
    await expect(projectShare.delete(made.id, made.outs!)).resolves.toBeUndefined();
  });

  it("the preview refuses a share above the sharer's role, a missing group and a locked one, each named", async () => {
    expect(await preview(projectShare, "maintainer", { project: "acme/web", sharedWith: "beta", groupAccess: "owner" })).toEqual([
      "groupAccess: a share gives no higher role than the sharer's own: the token's user (maintainer) is Maintainer of project acme/web, below Owner",
    ]);
    expect(await preview(projectShare, "alice", { project: "acme/web", sharedWith: "nowhere", groupAccess: "guest" })).toEqual(["sharedWith: group nowhere does not exist, or the token's user cannot see it"]);
    await server.as("alice").put("/groups/acme", { share_with_group_lock: true });
    try {
      expect(await preview(projectShare, "alice", { project: "acme/web", sharedWith: "beta", groupAccess: "guest" })).toEqual([
        "sharedWith: sharing with groups is locked on group acme (share_with_group_lock), and the server refuses every share below it",
      ]);
    } finally {
      await server.as("alice").put("/groups/acme", { share_with_group_lock: false });
    }
  });

  it("the review says whose members gain what", () => {
    const type = "pulumi-nodejs:dynamic/platform:ProjectShare";
    const review = reviewOf({
      steps: [{ op: "create", urn: `urn:pulumi:e2e::s::${type}::qa`, newState: { type, inputs: { project: "acme/web", sharedWith: "qa", groupAccess: "reporter" } } }],
    } as unknown as PreviewOutput);
    expect(review.changes.map((change) => change.note)).toEqual(["gives the members of group `qa` up to Reporter on project `acme/web`"]);
  });

  it("import reads the share by its id", async () => {
    await server.as("alice").post("/projects/acme%2Fweb/share", { group_id: groupId("beta"), group_access: 10 });
    const id = `projects/acme%2Fweb/share/${groupId("beta")}`;
    expect(await projectShare.read(id, {})).toMatchObject({ id, props: { sharedWithGroupId: groupId("beta") } });
    await server.as("alice").delete(`/projects/acme%2Fweb/share/${groupId("beta")}`);
  });
});

describe("GroupShare", () => {
  it("shares a group; its subgroups' and projects' roles follow; the preview refuses sharing outside a hierarchy that prevents it", async () => {
    const checked = await groupShare.check({}, { group: "acme/platform", sharedWith: groupId("beta"), groupAccess: 30 });
    const made = await groupShare.create(checked.inputs);
    expect(made.id).toBe(`groups/acme%2Fplatform/share/${groupId("beta")}`);
    const member = await server.as().get<{ access_level: number }>(`/projects/acme%2Fplatform%2Finfra/members/all/${userId("outsider")}`);
    expect(member.access_level).toBe(30);
    await groupShare.delete(made.id, made.outs!);
    await server.as("alice").put("/groups/acme", { prevent_sharing_groups_outside_hierarchy: true });
    try {
      expect(await preview(groupShare, "alice", { group: "acme/platform", sharedWith: "beta", groupAccess: "guest" })).toEqual([
        "sharedWith: group acme prevents sharing with groups outside its hierarchy, and beta is outside it",
      ]);
    } finally {
      await server.as("alice").put("/groups/acme", { prevent_sharing_groups_outside_hierarchy: false });
    }
  });

  it("needs the Owner role, named at preview", async () => {
    expect((await preview(groupShare, "maintainer", { group: "acme", sharedWith: "beta", groupAccess: "guest" })).join("\n")).toMatch(/^group: .*the Owner role on group acme/);
  });
});
