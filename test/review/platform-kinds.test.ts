/**
 * How the review words each step of the platform's own kinds (groups and
 * projects, who may do what, variables, hooks and credentials), through the
 * real path: the provider objects Pulumi calls check, create and read against
 * the emulator (verifying at preview, as a preview does), the steps made of
 * what they returned in the form `pulumi preview --json` writes, and the
 * review of them. Objects are named by their path (a group's, a project's, a
 * member's username, the invited group), never by an id or a display name;
 * access changes say who gains or loses what; a delete says what goes with
 * it; a token's rotation, replacement and delete say it is revoked; a
 * variable's value is named, never shown.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { OWNER_WORDS, reviewOf } from "../../src/review/changes";
import { unownedWords } from "../../src/review/terms";
import { markdownOf, sentenceOf } from "../../src/review/markdown";
import type { PreviewOutput } from "../../src/review/preview";
import { sshPublicKey, useEmulator } from "../support";
import { addUser } from "../resources/membership-support";

const server = useEmulator();
beforeAll(() => server.configureProviders("root", { "platform:verifyAtPreview": "true" }));

type Kind = keyof typeof providers;
type Args = Record<string, unknown>;
const type = (kind: string) => `pulumi-nodejs:dynamic/platform:${kind}`;
const urn = (kind: string, name: string) => `urn:pulumi:dev::platform::${type(kind)}::${name}`;

interface Made {
  kind: Kind;
  id: string;
  /** The state's inputs and outputs, as the apply recorded them. */
  state: { type: string; id: string; inputs: Args; outputs: Args };
  declared: Args;
}

/** check and create, as a preview and its apply do: the object, and its create step. */
async function made(kind: Kind, declared: Args): Promise<Made & { create: unknown }> {
  const checked = await providers[kind].check({}, declared);
  expect(checked.failures ?? [], kind).toEqual([]);
  const created = await providers[kind].create(checked.inputs);
  const state = { type: type(kind), id: created.id, inputs: checked.inputs as Args, outputs: created.outs as Args };
  return { kind, id: created.id, state, declared, create: { op: "create", urn: urn(kind, "created"), newState: { type: type(kind), inputs: checked.inputs } } };
}

/** The step a preview takes for the object declared anew: an update or a replacement, as the provider's diff says. */
async function changed(object: Made, change: Args, name = "changed"): Promise<unknown> {
  const checked = await providers[object.kind].check(object.state.inputs, { ...object.declared, ...change });
  expect(checked.failures ?? [], object.kind).toEqual([]);
  const diff = await providers[object.kind].diff(object.id, object.state.outputs, checked.inputs);
  const replaces = diff.replaces ?? [];
  // A provider that leaves the answer to the engine (a secret changed): the engine compares the inputs itself and names each that differs.
  const detailedDiff = diff.changes === undefined ? Object.fromEntries(differing(object.state.inputs, checked.inputs as Args).map((name) => [name, { kind: "update", inputDiff: true }])) : undefined;
  return {
    op: replaces.length > 0 ? "replace" : "update",
    urn: urn(object.kind, name),
    oldState: object.state,
    newState: { type: type(object.kind), inputs: checked.inputs },
    ...(replaces.length > 0 ? { replaceReasons: replaces } : {}),
    ...(detailedDiff ? { detailedDiff } : {}),
  };
}

const differing = (before: Args, after: Args) => [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((name) => !name.startsWith("__") && JSON.stringify(before[name]) !== JSON.stringify(after[name]));

const deleted = (object: Made, name = "deleted") => ({ op: "delete", urn: urn(object.kind, name), oldState: object.state });

/** Each change of a preview of these steps: its sentence and the words beside it. */
const said = (steps: unknown[]) => reviewOf({ steps } as PreviewOutput).changes.map((change) => [sentenceOf(change), change.note]);

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const groupId = async (path: string) => (await server.as().get<{ id: number }>(apiPath`/groups/${path}`)).id;

describe("groups and projects are named by their full path", () => {
  it("a group: its create, its update and its delete, under its parent named by id as platform-import writes it", async () => {
    const group = await made("Group", { parent: await groupId("acme"), path: "payments", name: "Payments" });
    expect(said([group.create, await changed(group, { description: "Charges and refunds" }), deleted(group)])).toEqual([
      ["marks for deletion group `acme/payments` of group acme", "with nothing else; restorable for the instance's deletion period (30 days by default) after it is marked, then removed by the server"],
      ["updates group `acme/payments` of group acme", undefined],
      ["creates group `acme/payments` of group acme", undefined],
    ]);
  });

  it("a rename says the old path redirects, a transfer where the object goes with all it holds, an archive that writes end", async () => {
    const group = await made("Group", { parent: "acme", path: "billing", name: "Billing" });
    expect(said([await changed(group, { path: "invoicing", parent: await groupId("beta") })])).toEqual([
      ["updates group `acme/billing` of group beta", "moves it to group `beta`, with all it holds; renames its path to `invoicing`: the old path keeps redirecting"],
    ]);
    expect(said([await changed(group, { parent: undefined })])).toEqual([["updates group `acme/billing` of the instance", "moves it to the top level, with all it holds"]]);
    const project = await made("Project", { group: "acme", name: "Ledger", path: "ledger" });
    expect(said([await changed(project, { archived: true })])).toEqual([["updates project `acme/ledger` of group acme", "archives it: the server then refuses every change to what it holds"]]);
  });

  it("a project: in a group named by id, and in the personal namespace of the token's user", async () => {
    const project = await made("Project", { group: await groupId("acme/platform"), name: "Payments API", path: "payments-api" });
    expect(said([project.create, await changed(project, { description: "Charges" }), deleted(project)])).toEqual([
      ["marks for deletion project `acme/platform/payments-api` of group acme/platform", expect.stringMatching(/^with nothing else; restorable/)],
      ["updates project `acme/platform/payments-api` of group acme/platform", undefined],
      ["creates project `acme/platform/payments-api` of group acme/platform", undefined],
    ]);
    const own = await made("Project", { name: "Scratch", path: "scratch" });
    expect(said([own.create, deleted(own)])).toEqual([
      ["deletes project `root/scratch` of the personal namespace of the token's user", expect.stringMatching(/^the server deletes it at once/)],
      ["creates project `scratch` of the personal namespace of the token's user", undefined],
    ]);
    expect(markdownOf(reviewOf({ steps: [own.create] } as PreviewOutput))).toContain("creates project <code>scratch</code> of the personal namespace of the token's user");
  });

  it("no kind's words for an object of no owner begin with an owner word: ownerName reads them after the owner words", () => {
    const unowned = [...unownedWords()];
    expect(unowned).toContain("the personal namespace of the token's user");
    expect(unowned.filter((words) => OWNER_WORDS.some((word) => words.startsWith(`${word} `)))).toEqual([]);
  });
});

describe("who gains or loses what", () => {
  it("a membership: named by its user; a role's change says the role before; a move takes under the one owner and gives under the other", async () => {
    const user = addUser(server, "payments-dev").username;
    const member = await made("ProjectMember", { project: "acme/web", user, accessLevel: "developer" });
    expect(said([member.create, await changed(member, { accessLevel: "maintainer" }), await changed(member, { project: "acme/api" }, "moved"), deleted(member)])).toEqual([
      ["deletes project member `payments-dev` of project acme/web", "takes Developer on project `acme/web` away from `payments-dev`"],
      [
        "replaces project member `payments-dev` of project acme/web by a new one of project acme/api (project changes)",
        "takes Developer on project `acme/web` away from `payments-dev`; gives `payments-dev` Developer on project `acme/api`",
      ],
      ["updates project member `payments-dev` of project acme/web", "gives `payments-dev` Maintainer on project `acme/web`, was Developer"],
      ["creates project member `payments-dev` of project acme/web", "gives `payments-dev` Developer on project `acme/web`"],
    ]);
  });

  it("a takeover of a membership says the role it had, as the preview read it", async () => {
    const user = addUser(server, "payments-reporter");
    await server.as().post(apiPath`/groups/${"acme/platform"}/members`, { user_id: user.id, access_level: 20 });
    const checked = await providers.GroupMember.check({}, { group: "acme/platform", user: user.username, accessLevel: "developer", adoptExisting: true });
    expect(said([{ op: "create", urn: urn("GroupMember", "taken"), newState: { type: type("GroupMember"), inputs: checked.inputs } }])).toEqual([
      ["takes over group member `payments-reporter` of group acme/platform", "gives `payments-reporter` Developer on group `acme/platform`, was Reporter"],
    ]);
  });

  it("a share: named by the group it invites; a new role says the one before", async () => {
    const share = await made("GroupShare", { group: "acme/platform", sharedWith: "beta", groupAccess: "reporter" });
    expect(said([share.create, await changed(share, { groupAccess: "developer" }), deleted(share)])).toEqual([
      ["deletes group share `beta` of group acme/platform", "takes Reporter on group `acme/platform` away from the members of group `beta`"],
      ["replaces group share `beta` of group acme/platform (groupAccess changes)", "gives the members of group `beta` up to Developer on group `acme/platform`, was Reporter"],
      ["creates group share `beta` of group acme/platform", "gives the members of group `beta` up to Reporter on group `acme/platform`"],
    ]);
  });

  it("a share whose group is named by id, as platform-import writes it, reads by the group's path, at create and after a refresh", async () => {
    const share = await made("ProjectShare", { project: "acme/api", sharedWith: await groupId("beta"), groupAccess: "guest" });
    const read = await providers.ProjectShare.read(share.id, share.state.outputs);
    const refreshed = { ...share, state: { ...share.state, inputs: read.inputs as Args, outputs: read.props as Args } };
    expect(said([share.create, deleted(refreshed)])).toEqual([
      ["deletes project share `beta` of project acme/api", "takes Guest on project `acme/api` away from the members of group `beta`"],
      ["creates project share `beta` of project acme/api", "gives the members of group `beta` up to Guest on project `acme/api`"],
    ]);
    // The path is no field of the share: the create lists the program's values only.
    const [created] = reviewOf({ steps: [share.create] } as PreviewOutput).changes;
    expect(created!.fields.map((field) => field.path)).toEqual(["project", "sharedWith", "groupAccess"]);
  });

  it("the members an only-these set removes: each by its username, with the role it loses", async () => {
    // The members there now are the program's others: ignored by name.
    const ignore = (await server.as().list<{ username: string }>(apiPath`/projects/${"acme/api"}/members`)).map((member) => member.username);
    const set = await made("ExclusiveProjectMembers", { project: "acme/api", keep: [], ignore });
    const user = addUser(server, "stray-member");
    await server.as().post(apiPath`/projects/${"acme/api"}/members`, { user_id: user.id, access_level: 30 });
    // The refresh records the member made by hand; the next preview deletes it.
    const read = await providers.ExclusiveProjectMembers.read(set.id, set.state.outputs);
    const recorded = { ...set, state: { ...set.state, inputs: read.inputs as Args, outputs: read.props as Args } };
    const removals = said([await changed(recorded, {})]).filter(([sentence]) => String(sentence).startsWith("deletes"));
    expect(removals).toEqual([["deletes project member `stray-member` of project acme/api", "takes Developer on project `acme/api` away from `stray-member`"]]);
  });
});

describe("labels say what their delete takes", () => {
  it("a label's delete and move take it off what it is on, an only-these set's removal too", async () => {
    const label = await made("Label", { project: "acme/web", name: "needs-review", color: "#336699" });
    const offAll = "takes it off every issue and merge request it is on";
    expect(said([await changed(label, { project: "acme/api" }), deleted(label)])).toEqual([
      [expect.stringMatching(/^deletes label \d+ `needs-review` of project acme\/web$/), offAll],
      [expect.stringMatching(/^replaces label \d+ `needs-review` of project acme\/web by a new one of project acme\/api \(project changes\)$/), offAll],
    ]);
    const set = await made("ExclusiveLabels", { project: "acme/web", keep: [], ignore: ["*"] });
    await server.as().post(apiPath`/projects/${"acme/web"}/labels`, { name: "stray-label", color: "#000000" });
    const declared = { project: "acme/web", keep: [], ignore: (await server.as().list<{ name: string; is_project_label: boolean }>(apiPath`/projects/${"acme/web"}/labels`)).filter((one) => one.is_project_label && one.name !== "stray-label").map((one) => one.name) };
    const read = await providers.ExclusiveLabels.read(set.id, { ...set.state.outputs, ...declared });
    const recorded = { ...set, state: { ...set.state, inputs: read.inputs as Args, outputs: read.props as Args }, declared };
    expect(said([await changed(recorded, {})]).filter(([sentence]) => String(sentence).startsWith("deletes"))).toEqual([[expect.stringMatching(/^deletes label \d+ `stray-label` of project acme\/web$/), offAll]]);
  });
});

describe("protected refs and approval rules say what their delete opens", () => {
  it("a protected branch renamed unprotects the branches the old pattern matched; a protected tag's new level unprotects it between the two", async () => {
    const branch = await made("ProtectedBranch", { project: "acme/web", name: "release/*", pushAccessLevel: "maintainer", mergeAccessLevel: "maintainer" });
    const [renamed] = said([await changed(branch, { name: "releases/*" })]);
    expect(renamed).toEqual(["replaces protected branch `release/*` of project acme/web (name changes)", expect.stringMatching(/^unprotects it: the branches it matched can then be pushed to/)]);
    expect(said([await changed(branch, { mergeAccessLevel: "developer" })])).toEqual([["updates protected branch `release/*` of project acme/web", undefined]]);
    const tag = await made("ProtectedTag", { project: "acme/web", name: "v*", createAccessLevel: "maintainer" });
    expect(said([await changed(tag, { createAccessLevel: "developer" })])).toEqual([
      ["replaces protected tag `v*` of project acme/web (createAccessLevel changes)", expect.stringMatching(/^unprotects it and protects it anew .*: between the two, anyone with the Developer role can create the tags it matched/)],
    ]);
    const rule = await made("ApprovalRule", { project: "acme/web", name: "security", approvalsRequired: 1 });
    expect(said([deleted(rule)])).toEqual([[expect.stringMatching(/^deletes approval rule \d+ `security` of project acme\/web$/), "removes the approvals it required from the merge requests it applied to"]]);
  });
});

describe("variables, hooks and credentials", () => {
  it("a variable's value is named, never shown: its change is a change of `value`, secret before and after", async () => {
    const variable = await made("ProjectVariable", { project: "acme/web", key: "DEPLOY_SECRET", value: "first-value-1234" });
    const step = (await changed(variable, { value: "second-value-5678" })) as { oldState: { inputs: Args }; newState: { inputs: Args } };
    // The CLI writes a secret as `[secret]` on both sides; the provider's diff names the property.
    for (const state of [step.oldState, step.newState]) state.inputs = { ...state.inputs, value: "[secret]" };
    const review = reviewOf({ steps: [step] } as PreviewOutput);
    expect(review.changes.map((change) => [sentenceOf(change), change.fields])).toEqual([["updates project variable `DEPLOY_SECRET` of project acme/web", [{ path: "value", before: { secret: true }, after: { secret: true } }]]]);
    expect(markdownOf(review)).not.toMatch(/first-value|second-value/);
  });

  it("a token's rotation, replacement and delete each say that the token in force is revoked; a deploy key's delete what it shuts out", async () => {
    const token = await made("ProjectAccessToken", { project: "acme/web", name: "deployer", scopes: ["read_api"], accessLevel: "reporter", expiresAt: inDays(30) });
    const revoked = "revokes the current token; what reads the token gets the new one in this run";
    expect(said([await changed(token, { expiresAt: inDays(60) }), await changed(token, { name: "deployer-2" }, "renamed"), deleted(token)])).toEqual([
      [expect.stringMatching(/^deletes project access token \d+ `deployer` of project acme\/web$/), "revokes the token: whatever still uses it can no longer authenticate with it"],
      [expect.stringMatching(/^replaces project access token \d+ `deployer` of project acme\/web \(name changes\)$/), revoked],
      [expect.stringMatching(/^rotates project access token \d+ `deployer` of project acme\/web$/), revoked],
    ]);
    const deployToken = await made("DeployToken", { group: "acme", name: "registry", scopes: ["read_registry"] });
    expect(said([await changed(deployToken, { name: "registry-2" }), deleted(deployToken)]).map(([, note]) => note)).toEqual([
      "revokes the token: whatever still uses it can no longer authenticate with it",
      revoked,
    ]);
    const key = await made("DeployKey", { project: "acme/web", title: "ci", key: sshPublicKey("ci") });
    expect(said([deleted(key)])).toEqual([[expect.stringMatching(/^deletes deploy key \d+ `ci` of project acme\/web$/), "whatever holds the key can no longer pull from or push to the project's repository with it"]]);
  });
});
