/**
 * ExclusiveGroupMembers and ExclusiveProjectMembers through `providers.<Name>`,
 * against the emulator over HTTP: a refresh records the direct members
 * neither kept nor ignored, the update removes exactly those, and the preview
 * refuses a set that would remove the token's user or a group's last Owner.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { reviewOf } from "../../src/review/changes";
import type { PreviewOutput } from "../../src/review/preview";
import { useEmulator } from "../support";
import { addUser, previewFailures } from "./membership-support";

const server = useEmulator();
const projectSet = providers.ExclusiveProjectMembers;
const groupSet = providers.ExclusiveGroupMembers;

let serial = 0;
const newUser = () => addUser(server, `xm-${++serial}`);
const addMember = (owner: string, userId: number, level: number) => server.as("root").post(`${owner}/members`, { user_id: userId, access_level: level });
const directIds = async (owner: string) => (await server.as("root").list<{ id: number }>(`${owner}/members`)).map((member) => member.id);
const preview = (provider: typeof projectSet, user: string, olds: Record<string, unknown>, news: Record<string, unknown>) => previewFailures(server, provider, user, olds, news);

beforeAll(async () => {
  await server.configureProviders();
});

describe("ExclusiveProjectMembers", () => {
  const API = "/projects/acme%2Fapi";

  it("create removes nothing; a refresh names the strays; the update removes exactly them, leaving the ignored and the inherited", async () => {
    const kept = newUser();
    const stray = newUser();
    const ignored = newUser();
    for (const user of [kept, stray, ignored]) await addMember(API, user.id, 30);
    const inputs = { project: "acme/api", keep: [`projects/acme%2Fapi/members/${kept.id}`], ignore: [ignored.username] };
    const checked = await projectSet.check({}, inputs);
    expect(checked.failures ?? []).toEqual([]);
    const { id, outs } = await projectSet.create(checked.inputs);
    expect(id).toBe("projects/acme%2Fapi/members");
    expect(await directIds(API)).toEqual(expect.arrayContaining([kept.id, stray.id, ignored.id]));
    const { props } = await projectSet.read(id, outs!);
    expect(props!.unexpected).toEqual([{ userId: stray.id, userName: stray.username, accessLevel: 30 }]);
    const next = await projectSet.check(props!, inputs);
    expect(next.inputs.deletes).toEqual([`project member ${stray.id} \`${stray.username}\` (Developer)`]);
    // A member made after the refresh is not removed by this update.
    const later = newUser();
    await addMember(API, later.id, 20);
    await projectSet.update(id, props!, next.inputs);
    const left = await directIds(API);
    expect(left).not.toContain(stray.id);
    expect(left).toEqual(expect.arrayContaining([kept.id, ignored.id, later.id]));
    // The group's members are the group's: acme's Owner still has the project.
    expect(server.emulator.state.groupByFullPath("acme")!.members[String(server.emulator.state.userByUsername("alice")!.id)]).toBe(50);
  });

  it("the review names each removal as a deletion, with the member", () => {
    const type = "pulumi-nodejs:dynamic/platform:ExclusiveProjectMembers";
    const unexpected = [{ userId: 41, userName: "mallory", accessLevel: 40 }];
    const review = reviewOf({
      steps: [
        {
          op: "update",
          urn: `urn:pulumi:e2e::members::${type}::only`,
          oldState: { type, id: "projects/acme%2Fweb/members", inputs: { project: "acme/web", keep: [], unexpected } },
          newState: { type, id: "projects/acme%2Fweb/members", inputs: { project: "acme/web", keep: [], unexpected: [] } },
        },
      ],
    } as unknown as PreviewOutput);
    expect(review.changes.map((change) => [change.kind, change.object, change.owner, change.note])).toEqual([
      ["removal", "project member `mallory`", "project acme/web", "takes Maintainer on project `acme/web` away from `mallory`"],
    ]);
  });

  it("a set that would remove the token's user is refused at preview", async () => {
    const failures = await preview(projectSet, "dev", {}, { project: "acme/platform/infra", keep: [] });
    expect(failures).toEqual([
      "keep: the set would remove the token's user (dev, Maintainer of project acme/platform/infra), which it never does: keep it, or ignore it",
    ]);
    expect(await preview(projectSet, "dev", {}, { project: "acme/platform/infra", keep: [], ignore: ["dev"] })).toEqual([]);
  });

  it("a set that would remove a project's Owner is refused for a token that is not an Owner", async () => {
    const owner = newUser();
    await addMember("/projects/acme%2Fweb", owner.id, 50);
    expect(await preview(projectSet, "maintainer", {}, { project: "acme/web", keep: [], ignore: ["*_bot*"] })).toEqual([
      `keep: the set would remove ${owner.username}, an Owner of project acme/web, which only an Owner may, and the token's user (maintainer) is not one: keep them, or ignore them`,
    ]);
    expect(await preview(projectSet, "alice", {}, { project: "acme/web", keep: [], ignore: ["*_bot*"] })).toEqual([]);
  });

  it("a keep value known only at apply is not judged", async () => {
    expect(await preview(projectSet, "dev", {}, { project: "acme/platform/infra", keep: ["04da6b54-80e4-46f7-96ec-b56ff0331ba9"] })).toEqual([]);
  });
});

describe("ExclusiveGroupMembers", () => {
  it("a set that would remove a group's last Owner is refused at preview, naming them", async () => {
    const failures = await preview(groupSet, "root", {}, { group: "beta", keep: [] });
    expect(failures).toEqual(["keep: the set would remove the last Owner of group beta (alice), which the server refuses: keep one"]);
    const alice = server.emulator.state.userByUsername("alice")!.id;
    expect(await preview(groupSet, "root", {}, { group: "beta", keep: [alice] })).toEqual([]);
  });

  it("a subgroup's Owners above it stay: its own direct members may all go", async () => {
    const member = newUser();
    await addMember("/groups/beta%2Flabs", member.id, 50);
    expect(await preview(groupSet, "root", {}, { group: "beta/labs", keep: [] })).toEqual([]);
  });

  it("a keep value that names no member is refused before any request", async () => {
    const checked = await groupSet.check({}, { group: "acme", keep: ["alice"] });
    expect((checked.failures ?? []).map((failure) => failure.reason)).toEqual(['keep.0: "alice" does not name a group member; give a GroupMember\'s userId or id']);
  });
});
