/**
 * A project's merge request approval rules (`/projects/:id/approval_rules`):
 * the answers, the rules of a write, and who may make them; and
 * @gitbeaker/rest's `MergeRequestApprovals` driving the same endpoints.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { defaultSeed, type Emulator } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const WEB = "/projects/acme%2Fweb";
const server = useEmulator({ seed: defaultSeed });
const post = (emulator: Emulator, path: string, body: object, as = "maintainer") => call(emulator, path, { as, method: "POST", body });

describe("/projects/:id/approval_rules", () => {
  it("makes a rule with users by id or username, groups and the project's protected branches; unknown ones are dropped", async () => {
    const { emulator } = server;
    const acme = (await call(emulator, "/groups/acme")).body.id as number;
    const main = (await call(emulator, `${WEB}/protected_branches/main`, { as: "maintainer" })).body.id as number;
    const made = await post(emulator, `${WEB}/approval_rules`, { name: "security", approvals_required: 2, usernames: ["dev"], group_ids: [acme, 99_999], protected_branch_ids: [main, 99_999] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: "security",
      rule_type: "regular",
      report_type: null,
      approvals_required: 2,
      users: [{ username: "dev" }],
      groups: [{ id: acme, full_path: "acme" }],
      contains_hidden_groups: false,
      protected_branches: [{ id: main, name: "main" }],
      applies_to_all_protected_branches: false,
    });
    expect(made.body.eligible_approvers.map((user: { username: string }) => user.username)).toEqual(expect.arrayContaining(["alice", "dev", "maintainer"]));
    expect((await call(emulator, `${WEB}/approval_rules/${made.body.id}`, { as: "guest" })).body).toMatchObject({ id: made.body.id });
    // The project is private: who cannot see it is told it does not exist.
    expect((await call(emulator, `${WEB}/approval_rules`, { as: "outsider" })).status).toBe(404);
  });

  it("refuses a name the project has, a count out of 0 to 100 (400); a Developer and a Free project 403; anonymous 401", async () => {
    const { emulator } = server;
    await post(emulator, `${WEB}/approval_rules`, { name: "twice", approvals_required: 1 });
    expect(await post(emulator, `${WEB}/approval_rules`, { name: "twice", approvals_required: 1 })).toMatchObject({ status: 400, body: { message: { name: ["has already been taken"] } } });
    expect(await post(emulator, `${WEB}/approval_rules`, { name: "many", approvals_required: 101 })).toMatchObject({ status: 400, body: { message: { approvals_required: ["must be less than or equal to 100"] } } });
    expect(await post(emulator, `${WEB}/approval_rules`, { name: "x" })).toMatchObject({ status: 400, body: { error: "approvals_required is missing" } });
    expect((await post(emulator, `${WEB}/approval_rules`, { name: "dev", approvals_required: 1 }, "dev")).status).toBe(403);
    expect((await post(emulator, "/projects/beta%2Fsite/approval_rules", { name: "free", approvals_required: 1 }, "alice")).status).toBe(403);
    expect((await call(emulator, `${WEB}/approval_rules`, { as: null, method: "POST", body: { name: "a", approvals_required: 1 } })).status).toBe(401);
  });

  it("PUT changes the rule in place, the users given replacing its users; DELETE removes it", async () => {
    const { emulator } = server;
    const made = (await post(emulator, `${WEB}/approval_rules`, { name: "edit me", approvals_required: 1, usernames: ["dev"] })).body;
    const edited = await call(emulator, `${WEB}/approval_rules/${made.id}`, { as: "maintainer", method: "PUT", body: { approvals_required: 3, usernames: ["alice"] } });
    expect(edited.body).toMatchObject({ id: made.id, name: "edit me", approvals_required: 3, users: [{ username: "alice" }] });
    expect((await call(emulator, `${WEB}/approval_rules/${made.id}`, { as: "maintainer", method: "DELETE" })).status).toBe(204);
    expect((await call(emulator, `${WEB}/approval_rules/${made.id}`)).status).toBe(404);
  });
});

describe("@gitbeaker/rest MergeRequestApprovals", () => {
  const api = () => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens.maintainer! });

  it("creates, lists, shows, edits and removes a project's rule", async () => {
    const made = await api().MergeRequestApprovals.createApprovalRule("acme/web", "gitbeaker", 1);
    expect(made).toMatchObject({ name: "gitbeaker", approvals_required: 1 });
    expect((await api().MergeRequestApprovals.allApprovalRules("acme/web")).map((rule) => rule.name)).toContain("gitbeaker");
    expect((await api().MergeRequestApprovals.showApprovalRule("acme/web", made.id)).id).toBe(made.id);
    expect(await api().MergeRequestApprovals.editApprovalRule("acme/web", made.id, "gitbeaker", 2)).toMatchObject({ approvals_required: 2 });
    await api().MergeRequestApprovals.removeApprovalRule("acme/web", made.id);
    expect((await api().MergeRequestApprovals.allApprovalRules("acme/web")).map((rule) => rule.name)).not.toContain("gitbeaker");
  });
});
