import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { PlatformClient } from "../../src/client";
import { readEstate, readTargets } from "../../src/import/read";
import { targetsOfState } from "../../src/import/terraform";
import { reviewOf } from "../../src/review/changes";
import { markdownOf } from "../../src/review/markdown";
import type { PreviewOutput } from "../../src/review/preview";
import { verifyDeletes } from "../../src/review/verify-deletes";
import { useEmulator } from "../support";
import { addUser, checkAndCreate, previewStepFailures } from "./membership-support";

const server = useEmulator();
const member = providers.GroupMember;
const TYPE = "pulumi-nodejs:dynamic/platform:GroupMember";
const PROJECT_TYPE = "pulumi-nodejs:dynamic/platform:ProjectMember";

let serial = 0;
const newUser = (): string => addUser(server, `gm-${++serial}`).username;
const idOf = (username: string) => server.emulator.state.userByUsername(username)!.id;
const create = (inputs: Record<string, unknown>) => checkAndCreate(member, inputs);

beforeAll(async () => {
  await server.configureProviders();
});

describe("lifecycle", () => {
  it("a member of a group gains the role on its subgroups and projects; removing them takes it away", async () => {
    const user = newUser();
    const { id, outs } = await create({ group: "acme/platform", user: idOf(user), accessLevel: "maintainer" });
    expect(id).toBe(`groups/acme%2Fplatform/members/${idOf(user)}`);
    const infra = await server.as().get<{ access_level: number }>(`/projects/acme%2Fplatform%2Finfra/members/all/${idOf(user)}`);
    expect(infra.access_level).toBe(40);
    await member.delete(id, outs);
    await expect(server.as().get(`/projects/acme%2Fplatform%2Finfra/members/all/${idOf(user)}`)).rejects.toThrow(/404/);
  });
});

describe("the last Owner of a group", () => {
  const alice = { group: "beta", user: "alice", accessLevel: "owner" };

  it("is not lowered: refused at preview, as the server refuses it", async () => {
    const id = `groups/beta/members/${idOf("alice")}`;
    const failures = await previewStepFailures(server, member, "alice", id, alice, { ...alice, accessLevel: "maintainer" });
    expect(failures.join("\n")).toContain("accessLevel: alice is the last Owner of group beta, and the server refuses to lower the role of the last Owner; make another member an Owner first");
    await expect(member.update(id, alice, { ...alice, accessLevel: "maintainer" })).rejects.toThrow(/403/);
  });

  it("is not removed: the review's delete verification refuses it, and lets a group with another Owner go", async () => {
    const step = (name: string, group: string, user: string) => ({
      op: "delete",
      urn: `urn:pulumi:e2e::members::${TYPE}::${name}`,
      oldState: { type: TYPE, id: `groups/${group}/members/${idOf(user)}`, inputs: { __provider: "exports.handler=…", group, user, accessLevel: "owner" } },
    });
    const preview = { config: { "platform:url": server.emulator.url }, steps: [step("alice-beta", "beta", "alice"), step("alice-acme", "acme", "alice")] } as unknown as PreviewOutput;
    await server.as("root").post("/groups/acme/members", { username: newUser(), access_level: 50 });
    const verified = await verifyDeletes(preview, { PLATFORM_TOKEN: server.emulator.tokens.alice! });
    expect(verified.refusals.map((refusal) => refusal.message)).toEqual([
      expect.stringContaining("user: alice is the last Owner of group beta, and the server refuses to remove the last Owner"),
    ]);
  });
});

describe("the review", () => {
  const state = (type: string, inputs: Record<string, unknown>, id = "projects/acme%2Fweb/members/9") => ({ type, id, inputs, outputs: { ...inputs } });

  it("says who gains or loses what", () => {
    const web = { project: "acme/web", user: "bob" };
    const review = reviewOf({
      steps: [
        { op: "update", urn: `urn:pulumi:e2e::members::${PROJECT_TYPE}::bob`, oldState: state(PROJECT_TYPE, { ...web, accessLevel: "developer" }), newState: state(PROJECT_TYPE, { ...web, accessLevel: "maintainer" }) },
        { op: "create", urn: `urn:pulumi:e2e::members::${TYPE}::carol`, newState: state(TYPE, { group: "acme", user: "carol", accessLevel: 20, expiresAt: "2027-01-31" }) },
        { op: "delete", urn: `urn:pulumi:e2e::members::${TYPE}::dave`, oldState: state(TYPE, { group: "acme", user: "dave", accessLevel: "owner" }) },
      ],
    } as unknown as PreviewOutput);
    expect(review.changes.map((change) => [change.kind, change.note])).toEqual([
      ["delete", "takes Owner on group `acme` away from `dave`"],
      ["update", "gives `bob` Maintainer on project `acme/web`, was Developer"],
      ["create", "gives `carol` Reporter on group `acme` until `2027-01-31`"],
    ]);
    expect(markdownOf(review, { stack: "e2e" })).toContain("<em>takes Owner on group <code>acme</code> away from <code>dave</code></em>");
  });
});

describe("import", () => {
  it("platform-import declares each group's and project's direct members by the id their import takes, not access tokens' bots", async () => {
    const client = new PlatformClient({ url: server.emulator.url, token: server.emulator.tokens.root!, retryBaseDelayMs: 10 });
    const estate = await readEstate(client, { group: "acme/platform", projects: [], instance: false, exclusive: false });
    const infra = server.emulator.state.projectByFullPath("acme/platform/infra")!.id;
    const members = estate.declarations.filter((declaration) => declaration.kind === "ProjectMember" || declaration.kind === "GroupMember");
    expect(members.map((declaration) => [declaration.kind, declaration.importId, declaration.args])).toEqual([
      ["ProjectMember", `projects/${infra}/members/${idOf("dev")}`, { project: infra, user: "dev", accessLevel: 40 }],
    ]);
  });

  it("with --exclusive, the set of a group's members keeps those imported and ignores the access tokens' bots", async () => {
    const client = new PlatformClient({ url: server.emulator.url, token: server.emulator.tokens.root!, retryBaseDelayMs: 10 });
    // A bot of acme/platform's own, as an access token's bot is.
    const platform = server.emulator.state.groupByFullPath("acme/platform")!;
    const { state } = server.emulator;
    const botId = state.nextId("users");
    state.users.push({ id: botId, username: `group_${platform.id}_bot_0a1b2c3d`, name: "bot", email: "bot@example.test", isAdmin: false, tokens: [], createdAt: "2024-01-01T00:00:00.000Z" });
    platform.members[String(botId)] = 30;
    platform.members[String(idOf("guest"))] = 20;
    const estate = await readEstate(client, { group: "acme/platform", projects: [], instance: false, exclusive: true });
    const acme = platform;
    const set = estate.declarations.find((declaration) => declaration.kind === "ExclusiveGroupMembers" && declaration.owner.fullPath === "acme/platform")!;
    const bots = Object.keys(acme.members).map((id) => server.emulator.state.userById(Number(id))!.username).filter((name) => name.includes("_bot"));
    expect(bots.length).toBeGreaterThan(0);
    expect(set.args).toMatchObject({ group: acme.id, ignore: bots });
    expect((set.args.keep as unknown[]).length).toBe(Object.keys(acme.members).length - bots.length);
  });

  it("a Terraform state's memberships are the same objects", async () => {
    const acme = server.emulator.state.groupByFullPath("acme")!.id;
    const state = JSON.stringify({
      version: 4,
      resources: [
        { mode: "managed", type: "gitlab_group_membership", name: "dev", provider: 'provider["registry.terraform.io/gitlabhq/gitlab"]', instances: [{ schema_version: 0, attributes: { id: `${acme}:${idOf("dev")}`, group_id: String(acme), user_id: idOf("dev"), access_level: "developer" } }] },
      ],
    });
    const { targets } = targetsOfState(state);
    expect(targets.map((target) => [target.kind, target.owner?.kind, target.key])).toEqual([["GroupMember", "group", idOf("dev")]]);
    const client = new PlatformClient({ url: server.emulator.url, token: server.emulator.tokens.root!, retryBaseDelayMs: 10 });
    const estate = await readTargets(client, targets);
    expect(estate.declarations.map((declaration) => [declaration.importId, declaration.args])).toEqual([[`groups/${acme}/members/${idOf("dev")}`, { group: acme, user: "dev", accessLevel: 30 }]]);
  });
});
