/**
 * ProtectedEnvironment and GroupProtectedEnvironment through the provider
 * objects Pulumi calls, against the emulator over HTTP: create, refresh, an
 * update that changes the rule in place (one PUT with the entries' ids and
 * `_destroy`, never an unprotect), delete, the takeover of an existing rule,
 * the preview's refusals (the role, the tier, bad entries), a lost answer,
 * and the review's words for an unprotect.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { PlatformClient } from "../../src/client";
import { readEstate } from "../../src/import/read";
import { reviewOf } from "../../src/review/changes";
import { markdownOf } from "../../src/review/markdown";
import type { PreviewOutput } from "../../src/review/preview";
import { protectedEnvironmentDefinition } from "../../src/resources/protected-environment";
import { groupProtectedEnvironmentDefinition } from "../../src/resources/group-protected-environment";
import { UNKNOWN } from "../../src/engine/values";
import { useEmulator } from "../support";

const server = useEmulator();
const environment = providers.ProtectedEnvironment;
const tier = providers.GroupProtectedEnvironment;
const WEB = "/api/v4/projects/acme%2Fweb/protected_environments";
const ACME = "/api/v4/groups/acme/protected_environments";

interface Entry {
  id: number;
  access_level: number | null;
  user_id: number | null;
  group_id: number | null;
  group_inheritance_type: number;
  required_approvals?: number;
}
interface LiveRule {
  name: string;
  deploy_access_levels: Entry[];
  approval_rules: Entry[];
  required_approval_count: number;
}

const unique = () => Math.random().toString(36).slice(2, 8);
const inputs = (overrides: Record<string, unknown> = {}) => ({ project: "acme/web", name: `review-${unique()}`, deployAccessLevels: [{ accessLevel: "maintainer" }], ...overrides });

async function createWith(provider: typeof environment, declared: Record<string, unknown>) {
  const checked = await provider.check({}, declared);
  expect(checked.failures ?? []).toEqual([]);
  const created = await provider.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}
const createRule = (overrides: Record<string, unknown> = {}) => createWith(environment, inputs(overrides));

const live = (id: string) => server.as().get<LiveRule>("/" + id);
const userId = async (username: string) => (await server.as().get<{ id: number }[]>("/users", { username }))[0]!.id;
const groupId = async (path: string) => (await server.as().get<{ id: number }>(apiPath`/groups/${path}`)).id;

beforeAll(async () => {
  await server.configureProviders();
  // acme/platform's members may then be named by acme/web's rules (a project's rules name its invited groups).
  await server.as().post(apiPath`/projects/${"acme/web"}/share`, { group_id: await groupId("acme/platform"), group_access: 30 });
});

describe("ProtectedEnvironment", () => {
  it("create sends one POST and records the entries as declared and the server's ids", async () => {
    const dev = await userId("dev");
    let created: Awaited<ReturnType<typeof createRule>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createRule({ deployAccessLevels: [{ accessLevel: "maintainer" }, { userId: dev }], approvalRules: [{ accessLevel: 40, requiredApprovals: 2 }] });
    });
    expect(requests).toEqual([{ method: "POST", path: WEB, status: 201 }]);
    const { id, inputs: declared, outs } = created!;
    expect(id).toBe(`projects/acme%2Fweb/protected_environments/${declared.name as string}`);
    const onServer = await live(id);
    expect(onServer).toMatchObject({
      name: declared.name,
      deploy_access_levels: [{ access_level: 40, user_id: null }, { access_level: null, user_id: dev }],
      approval_rules: [{ access_level: 40, required_approvals: 2 }],
      required_approval_count: 0,
    });
    expect(outs).toMatchObject({ project: "acme/web", deployAccessLevelsOnServer: onServer.deploy_access_levels, requiredApprovalCount: 0 });
    expect(await environment.diff(id, outs, declared)).toMatchObject({ changes: false });
    // A refresh keeps the program's form of entries the server holds (`maintainer` for 40).
    const refreshed = await environment.read(id, outs);
    expect(refreshed.props).toMatchObject({ deployAccessLevels: [{ accessLevel: "maintainer" }, { userId: dev }], approvalRules: [{ accessLevel: 40, requiredApprovals: 2 }] });
    expect(await environment.diff(id, refreshed.props, declared)).toMatchObject({ changes: false });
  });

  it("a change of who deploys is one PUT that keeps the environment protected: kept entries by id, removed ones destroyed", async () => {
    const [dev, platform] = [await userId("dev"), await groupId("acme/platform")];
    const { id, inputs: declared, outs } = await createRule({ deployAccessLevels: [{ accessLevel: "maintainer" }, { userId: dev }], approvalRules: [{ accessLevel: "maintainer" }] });
    const before = await live(id);
    const changed = {
      ...declared,
      deployAccessLevels: [{ accessLevel: "maintainer" }, { groupId: platform, groupInheritanceType: 1 }],
      approvalRules: [{ accessLevel: "maintainer", requiredApprovals: 3 }],
    };
    expect(await environment.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const checked = (await environment.check(outs, changed)).inputs;
    let updated: Awaited<ReturnType<typeof environment.update>> | undefined;
    const path = `${WEB}/${declared.name as string}`;
    const requests = await server.requestsDuring(async () => {
      updated = await environment.update(id, outs, checked);
    });
    expect(requests).toEqual([
      { method: "GET", path, status: 200 },
      { method: "PUT", path, status: 200 },
    ]);
    const after = await live(id);
    const [role, user] = before.deploy_access_levels;
    expect(after.deploy_access_levels).toEqual([role, expect.objectContaining({ group_id: platform, group_inheritance_type: 1 })]);
    expect(after.deploy_access_levels.some((entry) => entry.id === user!.id)).toBe(false);
    expect(after.approval_rules).toEqual([{ ...before.approval_rules[0], required_approvals: 3 }]);
    expect(await environment.diff(id, updated!.outs!, checked)).toMatchObject({ changes: false });
  });

  it("refresh shows an entry changed out of band, and the next update brings it back in place", async () => {
    const { id, inputs: declared, outs } = await createRule();
    const entry = (await live(id)).deploy_access_levels[0]!;
    await server.as().put(`/${id}`, { deploy_access_levels: [{ access_level: 30 }, { id: entry.id, access_level: 40, _destroy: true }] });
    const refreshed = await environment.read(id, outs);
    expect(refreshed.props).toMatchObject({ deployAccessLevels: [{ accessLevel: 30 }] });
    expect(await environment.diff(id, refreshed.props, declared)).toMatchObject({ changes: true, replaces: [] });
    await environment.update(id, refreshed.props, declared);
    expect((await live(id)).deploy_access_levels).toMatchObject([{ access_level: 40 }]);
  });

  it("leaving approval rules out leaves the server's as they are; removing them from the program destroys them", async () => {
    const { id, inputs: declared, outs } = await createRule({ approvalRules: [{ accessLevel: "developer" }] });
    const { approvalRules: _dropped, ...without } = declared;
    expect(await environment.diff(id, outs, without)).toMatchObject({ changes: true });
    await environment.update(id, outs, (await environment.check(outs, without)).inputs);
    expect((await live(id)).approval_rules).toEqual([]);
  });

  it("a new name replaces the rule", async () => {
    const { id, inputs: declared, outs } = await createRule();
    expect(await environment.diff(id, outs, { ...declared, name: "other" })).toMatchObject({ changes: true, replaces: ["name"] });
  });

  it("delete unprotects with one request; again, it is gone already", async () => {
    const { id, outs } = await createRule();
    const requests = await server.requestsDuring(() => environment.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: "/api/v4/" + id, status: 204 }]);
    await expect(live(id)).rejects.toThrow(/404/);
    await expect(environment.delete(id, outs)).resolves.toBeUndefined();
    expect(await environment.read(id, outs)).toEqual({ id: "" });
  });

  it("a lost answer to the POST makes one rule, found by its name", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/protected_environments$/, sequence: ["commit-then-error"] }] });
    try {
      const { id, inputs: declared } = await createRule();
      expect((await live(id)).name).toBe(declared.name);
    } finally {
      server.emulator.setFaultPlan({ rules: [] });
    }
  });

  it("the review words an unprotect as what it opens, among what destroys, a name in it inert", () => {
    const says = protectedEnvironmentDefinition.words.says!;
    expect(says({ kind: "delete", before: { name: "production", deployAccessLevels: [{ accessLevel: "maintainer" }], approvalRules: [{ accessLevel: 40, requiredApprovals: 2 }] }, owner: "project `acme/web`" })).toBe(
      "unprotects it: anyone with the Developer role on project `acme/web` may then deploy to environment `production` (was Maintainers and above), unless a group's rule protects its tier; deployments no longer wait for the approvals its approval rules required",
    );
    expect(says({ kind: "update", before: { name: "production" }, after: { name: "production" }, owner: "project `acme/web`" })).toBeUndefined();
    // Under another name the old rule goes: its environment is unprotected.
    expect(says({ kind: "replace", before: { name: "production" }, after: { name: "prod" }, owner: "project `acme/web`" })).toMatch(/^unprotects it: anyone with the Developer role on project `acme\/web` may then deploy to environment `production`/);
    const type = "pulumi-nodejs:dynamic/platform:ProtectedEnvironment";
    const name = "<b>prod</b>";
    const review = reviewOf({
      steps: [
        {
          op: "delete",
          urn: `urn:pulumi:dev::infra::${type}::production`,
          oldState: { type, id: `projects/acme%2Fweb/protected_environments/${encodeURIComponent(name)}`, inputs: { project: "acme/web", name, deployAccessLevels: [{ accessLevel: 40 }] }, outputs: { project: "acme/web", name } },
        },
      ],
    } as PreviewOutput);
    expect(review.counts.delete).toBe(1);
    const line = markdownOf(review, { stack: "dev" }).split("\n").find((text) => text.includes("protected environment"))!;
    expect(line).toContain("unprotects it: anyone with the Developer role on project <code>acme/web</code> may then deploy to environment <code>&#60;b>prod&#60;/b></code> (was Maintainers and above)");
    expect(line).toContain("deletes protected environment <code>&#60;b>prod&#60;/b></code> of project <code>acme/web</code>, <em>unprotects it:");
    expect(line).not.toContain("<b>prod");
  });
});

describe("takeover", () => {
  it("the preview refuses a second rule of a name, naming the id to import it by", async () => {
    const { inputs: declared } = await createRule();
    await server.verifyingAs("root", async () => {
      const checked = await environment.check({}, { ...declared });
      expect(checked.failures?.map((failure) => failure.reason)).toEqual([expect.stringMatching(new RegExp(`protected environment ${declared.name as string} already exists in project acme/web .*import: "projects/acme%2Fweb/protected_environments/${declared.name as string}"`))]);
    });
  });

  it("the import option takes it over by its id: one GET when it matches", async () => {
    const { id, inputs: declared } = await createRule();
    const checked = await environment.check({}, { ...declared, __import: id });
    const requests = await server.requestsDuring(async () => {
      expect((await environment.create(checked.inputs)).id).toBe(id);
    });
    expect(requests).toEqual([{ method: "GET", path: `${WEB}/${declared.name as string}`, status: 200 }]);
  });

  it("adoptExisting takes it over and changes it in place", async () => {
    const { id, inputs: declared } = await createRule();
    const before = await live(id);
    const checked = await environment.check({}, { ...declared, deployAccessLevels: [{ accessLevel: "developer" }], adoptExisting: true });
    const requests = await server.requestsDuring(() => environment.create(checked.inputs));
    expect(requests.map((request) => request.method)).not.toContain("DELETE");
    expect(requests.filter((request) => request.method === "PUT")).toHaveLength(1);
    expect((await live(id)).deploy_access_levels).toMatchObject([{ access_level: 30 }]);
    expect((await live(id)).deploy_access_levels[0]!.id).not.toBe(before.deploy_access_levels[0]!.id);
  });

  it("an import id not of the form is refused, saying the form", async () => {
    const checked = await environment.check({}, { ...inputs(), __import: "acme/web:production" });
    await expect(environment.create(checked.inputs)).rejects.toThrow(/projects\/<project>\/protected_environments\/<name>/);
  });

  it("platform-import declares each rule of a project, and the declaration takes it over with reads only", async () => {
    const { inputs: declared } = await createWith(environment, { project: "acme/api", name: "production", deployAccessLevels: [{ accessLevel: "maintainer" }], approvalRules: [{ accessLevel: "maintainer", requiredApprovals: 2 }] });
    const reader = new PlatformClient({ url: server.emulator.url, token: server.emulator.tokens.root!, retryBaseDelayMs: 10 });
    const estate = await readEstate(reader, { projects: ["acme/api"], instance: false, exclusive: false });
    const found = estate.declarations.filter((declaration) => declaration.kind === "ProtectedEnvironment");
    expect(found.map((declaration) => [declaration.importId, declaration.args.name])).toEqual([["projects/2/protected_environments/production", declared.name]]);
    const checked = await environment.check({}, { ...found[0]!.args, __import: found[0]!.importId });
    expect(checked.failures ?? []).toEqual([]);
    const requests = await server.requestsDuring(() => environment.create(checked.inputs));
    expect(requests.map((request) => request.method)).toEqual(["GET"]);
  });
});

describe("GroupProtectedEnvironment", () => {
  it("protects a tier of the group, changes it with one PUT, and unprotects it", async () => {
    const { id, inputs: declared, outs } = await createWith(tier, { group: "acme", name: "staging", deployAccessLevels: [{ accessLevel: "developer" }] });
    expect(id).toBe("groups/acme/protected_environments/staging");
    const maintainer = await userId("maintainer");
    const changed = { ...declared, deployAccessLevels: [{ accessLevel: "developer" }, { userId: maintainer }], approvalRules: [{ groupId: await groupId("acme/platform") }] };
    const requests = await server.requestsDuring(async () => {
      await tier.update(id, outs, (await tier.check(outs, changed)).inputs);
    });
    expect(requests).toEqual([
      { method: "GET", path: `${ACME}/staging`, status: 200 },
      { method: "PUT", path: `${ACME}/staging`, status: 200 },
    ]);
    expect(await live(id)).toMatchObject({ deploy_access_levels: [{ access_level: 30 }, { user_id: maintainer }], approval_rules: [{ required_approvals: 1 }] });
    await tier.delete(id, outs);
    await expect(live(id)).rejects.toThrow(/404/);
  });

  it("a name that is not a deployment tier is refused at preview, before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      const checked = await tier.check({}, { group: "acme", name: "prod", deployAccessLevels: [{ accessLevel: "maintainer" }] });
      expect(checked.failures?.map((failure) => failure.reason)).toEqual([expect.stringMatching(/^name: must be a deployment tier: production, staging, testing, development, other/)]);
    });
    expect(requests).toEqual([]);
  });

  it("the review words a tier's unprotect as what it opens in the group's projects", () => {
    expect(groupProtectedEnvironmentDefinition.words.says!({ kind: "delete", before: { name: "production", deployAccessLevels: [{ userId: 7 }] }, owner: "group `acme`" })).toBe(
      "unprotects it: anyone with the Developer role may then deploy to the `production` environments of the projects of group `acme` (was user `7`), unless a project's own rule protects them",
    );
  });
});

describe("at preview", () => {
  const reasonsOf = async (provider: typeof environment, declared: Record<string, unknown>) => ((await provider.check({}, declared)).failures ?? []).map((failure) => failure.reason);

  it("entries that name no one, two at once, a level the API lacks or approvals out of 1 to 5 are refused naming the property, before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await reasonsOf(environment, inputs({ deployAccessLevels: [] }))).toEqual([expect.stringMatching(/^deployAccessLevels: must name at least one role, user or group who may deploy/)]);
      expect(await reasonsOf(environment, inputs({ deployAccessLevels: [{}] }))).toEqual([expect.stringMatching(/^deployAccessLevels\.0: must name exactly one of accessLevel, userId or groupId/)]);
      expect(await reasonsOf(environment, inputs({ deployAccessLevels: [{ accessLevel: 40, userId: 3 }] }))).toEqual([expect.stringMatching(/^deployAccessLevels\.0: must name exactly one/)]);
      expect(await reasonsOf(environment, inputs({ deployAccessLevels: [{ accessLevel: "no_one" }] }))).toEqual([expect.stringMatching(/^deployAccessLevels\.0\.accessLevel: must be one of reporter, developer, maintainer, admin or the access levels 20, 30, 40, 60/)]);
      expect(await reasonsOf(environment, inputs({ deployAccessLevels: [{ accessLevel: 40, groupInheritanceType: 1 }] }))).toEqual([expect.stringMatching(/^deployAccessLevels\.0\.groupInheritanceType: applies to a groupId entry only/)]);
      expect(await reasonsOf(environment, inputs({ deployAccessLevels: [{ accessLevel: 40 }, { accessLevel: "maintainer" }] }))).toEqual([expect.stringMatching(/^deployAccessLevels: must not name the same role, user or group twice/)]);
      expect(await reasonsOf(environment, inputs({ approvalRules: [{ accessLevel: 40, requiredApprovals: 6 }] }))).toEqual([expect.stringMatching(/^approvalRules\.0\.requiredApprovals: must be at most 5/)]);
      expect(await reasonsOf(environment, inputs({ name: "a/b" }))).toEqual([expect.stringMatching(/^name: must not contain a slash/)]);
    });
    expect(requests).toEqual([]);
  });

  it("a Developer is refused naming the Maintainer role; a group's Maintainer, naming the Owner role", async () => {
    await server.verifyingAs("dev", async () => {
      expect((await reasonsOf(environment, inputs())).join("\n")).toMatch(/needs at least the Maintainer role on project acme\/web for ProtectedEnvironment, and is Developer there/);
    });
    await server.verifyingAs("maintainer", async () => {
      expect(await reasonsOf(environment, inputs())).toEqual([]);
      expect((await reasonsOf(tier, { group: "acme", name: "production", deployAccessLevels: [{ accessLevel: 40 }] })).join("\n")).toMatch(/needs the Owner role on group acme for GroupProtectedEnvironment/);
    });
  });

  it("a Free project or group is refused naming the tier", async () => {
    await server.verifyingAs("alice", async () => {
      expect((await reasonsOf(environment, { project: "beta/site", name: "production", deployAccessLevels: [{ accessLevel: 40 }] })).join("\n")).toMatch(/beta\/site.*Premium or Ultimate|Premium or Ultimate.*beta\/site/);
      expect((await reasonsOf(tier, { group: "beta", name: "production", deployAccessLevels: [{ accessLevel: 40 }] })).join("\n")).toMatch(/Premium/);
    });
  });
});

describe("at preview, the users and groups an entry names", () => {
  const reasonsOf = async (provider: typeof environment, declared: Record<string, unknown>) => ((await provider.check({}, declared)).failures ?? []).map((failure) => failure.reason);

  it("a user below Developer, or a group the project is not shared with, is refused: the server would drop the entry without a word", async () => {
    const [guest, dev, platform, beta] = [await userId("guest"), await userId("dev"), await groupId("acme/platform"), await groupId("beta")];
    await server.verifyingAs("maintainer", async () => {
      expect(await reasonsOf(environment, inputs({ deployAccessLevels: [{ accessLevel: 40 }, { userId: dev }, { groupId: platform }] }))).toEqual([]);
      expect(await reasonsOf(environment, inputs({ deployAccessLevels: [{ accessLevel: 40 }, { userId: guest }] }))).toEqual([
        `deployAccessLevels: user ${guest} needs at least the Developer role on project acme/web to be named: the server drops the entry without a word`,
      ]);
      expect(await reasonsOf(environment, inputs({ approvalRules: [{ groupId: beta }] }))).toEqual([
        `approvalRules: group ${beta} is not shared with project acme/web, and only groups it is shared with may be named: the server drops the entry without a word`,
      ]);
    });
  });

  it("entries known only at apply are not judged: an unknown fact is no refusal", async () => {
    await server.verifyingAs("maintainer", async () => {
      const requests = await server.requestsDuring(async () => {
        expect(await reasonsOf(environment, inputs({ deployAccessLevels: UNKNOWN, approvalRules: UNKNOWN }))).toEqual([]);
      });
      expect(requests.some((request) => request.path.includes("/members/"))).toBe(false);
    });
  });

  it("an entry whose user or group is known only at apply (another resource's output) is not judged either", async () => {
    await server.verifyingAs("maintainer", async () => {
      const requests = await server.requestsDuring(async () => {
        expect(await reasonsOf(environment, inputs({ deployAccessLevels: [{ accessLevel: 40 }, { userId: UNKNOWN }], approvalRules: [{ groupId: UNKNOWN, requiredApprovals: 2 }] }))).toEqual([]);
      });
      expect(requests.some((request) => request.path.includes("/members/"))).toBe(false);
    });
  });

  it("on a group: a Developer, or a group outside it, is refused; its subgroup is not", async () => {
    const [dev, maintainer, platform, beta] = [await userId("dev"), await userId("maintainer"), await groupId("acme/platform"), await groupId("beta")];
    await server.verifyingAs("alice", async () => {
      const declared = (deployAccessLevels: unknown[]) => ({ group: "acme", name: "testing", deployAccessLevels });
      expect(await reasonsOf(tier, declared([{ userId: maintainer }, { groupId: platform }]))).toEqual([]);
      expect(await reasonsOf(tier, declared([{ userId: dev }]))).toEqual([`deployAccessLevels: user ${dev} needs the Maintainer or Owner role on group acme to be named: the server drops the entry without a word`]);
      expect(await reasonsOf(tier, declared([{ groupId: beta }]))).toEqual([
        `deployAccessLevels: group ${beta} (beta) is neither group acme, one of its subgroups nor a group it is shared with: the server drops the entry without a word`,
      ]);
    });
  });
});
