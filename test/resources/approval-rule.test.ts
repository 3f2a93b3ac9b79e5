/**
 * ApprovalRule through the provider objects Pulumi calls, against the
 * emulator over HTTP: create, refresh, an update in place, delete, takeover,
 * the preview's refusals (the role, the tier), and the rule's protected
 * branches named by a ProtectedBranch's id.
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
