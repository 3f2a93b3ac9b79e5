/**
 * ApprovalRule through the provider objects Pulumi calls, against the
 * emulator over HTTP: create, refresh, an update in place, delete, takeover,
 * the preview's refusals (the role, the tier), and the rule's protected
 * branches named by a ProtectedBranch's id or name (a preview of a change to
 * that ProtectedBranch knows its name, not its id).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, getApprovalRules, getApprovalRulesOutput, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const rule = providers.ApprovalRule;
const RULES = "/api/v4/projects/acme%2Fweb/approval_rules";

interface LiveRule {
  id: number;
  name: string;
  approvals_required: number;
  users: { id: number }[];
  groups: { id: number }[];
  protected_branches: { id: number; name: string }[];
}

const unique = () => Math.random().toString(36).slice(2, 8);
const inputs = (overrides: Record<string, unknown> = {}) => ({ project: "acme/web", name: `review ${unique()}`, approvalsRequired: 1, ...overrides });

async function createRule(overrides: Record<string, unknown> = {}) {
  const checked = await rule.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await rule.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (id: string) => server.as().get<LiveRule>("/" + id);
const userId = async (username: string) => (await server.as().get<{ id: number }[]>("/users", { username }))[0]!.id;

beforeAll(async () => {
  await server.configureProviders();
});

describe("lifecycle", () => {
  it("create sends one POST with the users, groups and protected branches; its own state shows no change", async () => {
    const [dev, acme] = [await userId("dev"), (await server.as().get<{ id: number }>(apiPath`/groups/${"acme"}`)).id];
    const main = await server.as().get<{ id: number }>(apiPath`/projects/${"acme/web"}/protected_branches/${"main"}`);
    let created: Awaited<ReturnType<typeof createRule>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createRule({ approvalsRequired: 2, userIds: [dev], groupIds: [acme], protectedBranchIds: [main.id] });
    });
    expect(requests).toEqual([{ method: "POST", path: RULES, status: 201 }]);
    const { id, inputs: declared, outs } = created!;
    const onServer = await live(id);
    expect(id).toBe(`projects/acme%2Fweb/approval_rules/${onServer.id}`);
    expect(onServer).toMatchObject({ approvals_required: 2, users: [{ id: dev }], groups: [{ id: acme }], protected_branches: [{ id: main.id, name: "main" }] });
    expect(outs).toMatchObject({ approvalRuleId: onServer.id, userIds: [dev], eligibleApprovers: expect.arrayContaining(["dev", "alice", "maintainer"]) });
    expect(await rule.diff(id, outs, declared)).toMatchObject({ changes: false });
  });

  it("a new count, name or set of users is one PUT in place; refresh shows a change made elsewhere", async () => {
    const { id, inputs: declared, outs } = await createRule();
    const changed = { ...declared, approvalsRequired: 3, name: `${declared.name as string} renamed`, userIds: [await userId("maintainer")] };
    expect(await rule.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(() => rule.update(id, outs, changed));
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/" + id, status: 200 }]);
    expect(await live(id)).toMatchObject({ approvals_required: 3, name: changed.name, users: [{ id: changed.userIds[0] }] });
    await server.as().put("/" + id, { approvals_required: 5 });
    const refreshed = await rule.read(id, outs);
    expect(refreshed.props).toMatchObject({ approvalsRequired: 5 });
  });

  it("delete removes it with one request; again, it is gone already", async () => {
    const { id, outs } = await createRule();
    expect(await server.requestsDuring(() => rule.delete(id, outs))).toEqual([{ method: "DELETE", path: "/api/v4/" + id, status: 204 }]);
    await expect(rule.delete(id, outs)).resolves.toBeUndefined();
    expect(await rule.read(id, outs)).toEqual({ id: "" });
  });

  it("adoptExisting takes over the rule of the same name: the list, then a PUT of what differs", async () => {
    const existing = await server.as().post<LiveRule>(apiPath`/projects/${"acme/web"}/approval_rules`, { name: "adopt me", approvals_required: 1 });
    const checked = await rule.check({}, inputs({ name: "adopt me", approvalsRequired: 2, adoptExisting: true }));
    let created: Awaited<ReturnType<typeof rule.create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await rule.create(checked.inputs);
    });
    expect(requests.map((request) => request.method)).toEqual(["GET", "PUT"]);
    expect(created!.id).toBe(`projects/acme%2Fweb/approval_rules/${existing.id}`);
    expect((await live(created!.id)).approvals_required).toBe(2);
  });

  it("a lost answer to the POST makes one rule, found by its name", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/approval_rules$/, sequence: ["commit-then-error"] }] });
    try {
      const { id, inputs: declared } = await createRule();
      const same = (await server.as().list<LiveRule>(apiPath`/projects/${"acme/web"}/approval_rules`)).filter((found) => found.name === declared.name);
      expect(same.map((found) => `projects/acme%2Fweb/approval_rules/${found.id}`)).toEqual([id]);
    } finally {
      server.emulator.setFaultPlan({ rules: [] });
    }
  });
});

describe("protected branches by name", () => {
  const branch = providers.ProtectedBranch;
  const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

  async function protect(name: string) {
    const checked = await branch.check({}, { project: "acme/web", name });
    const created = await branch.create(checked.inputs);
    return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
  }

  it("create resolves the names to the branches' ids with one list; a name the project does not protect fails before any write", async () => {
    const name = `names-${unique()}/*`;
    const protectedBranch = await protect(name);
    let created: Awaited<ReturnType<typeof createRule>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createRule({ protectedBranches: [name, "main"] });
    });
    expect(requests.map((request) => request.method)).toEqual(["GET", "POST"]);
    const onServer = await live(created!.id);
    expect(onServer.protected_branches.map((found) => found.name).sort()).toEqual(["main", name].sort());
    expect(onServer.protected_branches.map((found) => found.id)).toContain(protectedBranch.outs.protectedBranchId);
    expect(await rule.diff(created!.id, created!.outs, created!.inputs)).toMatchObject({ changes: false });
    expect(await rule.diff(created!.id, (await rule.read(created!.id, created!.outs)).props!, created!.inputs)).toMatchObject({ changes: false });

    const checked = await rule.check({}, inputs({ protectedBranches: ["nowhere/*"] }));
    const writes = await server.requestsDuring(async () => {
      await expect(rule.create(checked.inputs)).rejects.toThrow(/protectedBranches: project acme\/web protects no branch named nowhere\/\*/);
    });
    expect(writes.map((request) => request.method)).toEqual(["GET"]);
  });

  it("a preview of a change to the ProtectedBranch: by id the rule shows a change the apply does not make; by name none, and the apply sends the rule nothing", async () => {
    const name = `preview-${unique()}/*`;
    const protectedBranch = await protect(name);
    const byName = await createRule({ protectedBranches: [name] });
    const byId = await createRule({ protectedBranchIds: [protectedBranch.outs.protectedBranchId] });

    // The preview of an update: the engine hands a provider without previews (the dynamic provider host) the checked
    // inputs as the outputs it previews, so the branch's `name` is known and its `protectedBranchId` is not.
    const previewed = (await branch.check(protectedBranch.inputs, { ...protectedBranch.inputs, mergeAccessLevel: "developer" })).inputs as Record<string, unknown>;
    expect(previewed.name).toBe(name);
    expect(previewed).not.toHaveProperty("protectedBranchId");
    const byIdNews = (await rule.check(byId.inputs, { ...byId.inputs, protectedBranchIds: UNKNOWN })).inputs;
    expect(await rule.diff(byId.id, byId.outs, byIdNews)).toMatchObject({ changes: true });
    const byNameNews = (await rule.check(byName.inputs, { ...byName.inputs, protectedBranches: [previewed.name] })).inputs;
    expect(await rule.diff(byName.id, byName.outs, byNameNews)).toMatchObject({ changes: false });

    // The apply: one PATCH of the branch, which keeps its id; then both rules' inputs are known and unchanged.
    const updated = (await branch.update(protectedBranch.id, protectedBranch.outs, { ...protectedBranch.inputs, mergeAccessLevel: "developer" })).outs as Record<string, unknown>;
    expect(updated.protectedBranchId).toBe(protectedBranch.outs.protectedBranchId);
    expect(await rule.diff(byName.id, byName.outs, { ...byName.inputs, protectedBranches: [updated.name] })).toMatchObject({ changes: false });
    expect(await rule.diff(byId.id, byId.outs, { ...byId.inputs, protectedBranchIds: [updated.protectedBranchId] })).toMatchObject({ changes: false });
  });

  it("a branch rule deleted and made again under its name: a refresh shows the rule's change, and the update names the new rule", async () => {
    const name = `again-${unique()}/*`;
    await protect(name);
    const created = await createRule({ protectedBranches: [name] });
    await server.as().delete(apiPath`/projects/${"acme/web"}/protected_branches/${name}`);
    const again = await protect(name);
    const refreshed = (await rule.read(created.id, created.outs)).props!;
    expect(refreshed.protectedBranches).toEqual([]);
    expect(await rule.diff(created.id, refreshed, created.inputs)).toMatchObject({ changes: true });
    await rule.update(created.id, refreshed, created.inputs);
    expect((await live(created.id)).protected_branches.map((found) => found.id)).toEqual([again.outs.protectedBranchId]);
  });

  it("a change of names is one list and one PUT; both forms at once are refused naming the rule", async () => {
    const name = `change-${unique()}/*`;
    await protect(name);
    const created = await createRule({ protectedBranches: ["main"] });
    const changed = { ...created.inputs, protectedBranches: [name] };
    expect(await rule.diff(created.id, created.outs, changed)).toMatchObject({ changes: true, replaces: [] });
    let outs: Record<string, unknown> = {};
    const requests = await server.requestsDuring(async () => {
      outs = (await rule.update(created.id, created.outs, changed)).outs as Record<string, unknown>;
    });
    expect(requests.map((request) => request.method)).toEqual(["GET", "PUT"]);
    expect((await live(created.id)).protected_branches.map((found) => found.name)).toEqual([name]);
    const unchangedNames = await server.requestsDuring(() => rule.update(created.id, outs, { ...changed, approvalsRequired: 2 }));
    expect(unchangedNames.map((request) => request.method)).toEqual(["PUT"]);
    const both = (await rule.check({}, inputs({ protectedBranches: ["main"], protectedBranchIds: [1] }))).failures ?? [];
    expect(both.map((failure) => failure.reason)).toEqual(["protectedBranches: name the protected branches either by name or by id (protectedBranchIds), not both"]);
  });
});

describe("at preview", () => {
  const reasonsOf = async (declared: Record<string, unknown>) => ((await rule.check({}, declared)).failures ?? []).map((failure) => failure.reason);

  it("a count out of range or users by name are refused naming the property, before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await reasonsOf(inputs({ approvalsRequired: 101 }))).toEqual([expect.stringMatching(/^approvalsRequired: must be at most 100/)]);
      expect(await reasonsOf(inputs({ userIds: ["dev"] }))).toEqual([expect.stringMatching(/^userIds\.0: /)]);
    });
    expect(requests).toEqual([]);
  });

  it("a Developer is refused naming the Maintainer role; a Free project the tier; a rule of the name the id to import it by", async () => {
    await server.verifyingAs("dev", async () => {
    expect((await reasonsOf(inputs())).join("\n")).toMatch(/at least the Maintainer role on project acme\/web/);
    });
    await server.verifyingAs("alice", async () => {
    expect((await reasonsOf(inputs({ project: "beta/site" }))).join("\n")).toMatch(/Premium or Ultimate/);
    await server.as().post(apiPath`/projects/${"acme/web"}/approval_rules`, { name: "taken", approvals_required: 1 });
    expect((await reasonsOf(inputs({ name: "taken" }))).join("\n")).toMatch(/approval rule taken already exists in project acme\/web .*import: "projects\/acme%2Fweb\/approval_rules\/\d+"/);
    });
  });
});

describe("getApprovalRules", () => {
  it("a project's rules in camelCase, in one request; the Output form; a Free project's writes are refused by the server", async () => {
    await createRule({ name: "listed" });
    const requests = await server.requestsDuring(async () => {
      expect((await getApprovalRules({ project: "acme/web" })).find((found) => found.name === "listed")).toMatchObject({ approvalsRequired: 1, ruleType: "regular", users: [] });
    });
    expect(requests.map((request) => request.path)).toEqual([RULES]);
    const names = await new Promise<string[]>((resolve) => getApprovalRulesOutput({ project: "acme/web" }).apply((list) => resolve(list.map((found) => found.name))));
    expect(names).toContain("listed");
    await expect(server.as("alice").post(apiPath`/projects/${"beta/site"}/approval_rules`, { name: "x", approvals_required: 1 })).rejects.toThrow(/403/);
  });
});
