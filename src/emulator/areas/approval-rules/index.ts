/**
 * A project's merge request approval rules (`/projects/:id/approval_rules`,
 * doc/api/merge_request_approvals.md): what each answers and refuses is in
 * the emulator's README ("Merge request approval rules").
 */
import { canReadGroup, hasProjectAccess } from "../../access";
import { ApiError, forbidden, recordNotFound } from "../../errors";
import { findProject } from "../../lookup";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext } from "../../router";
import { AccessLevel, defineStore, type EmulatorState, type Group, type Project, type User } from "../../state";
import type { EmulatorArea } from "../../area";
import { branchRulesOf } from "../protected-refs/model";
import { presentBranchRule } from "../protected-refs/present";

export interface ApprovalRuleRecord {
  id: number;
  projectId: number;
  name: string;
  approvalsRequired: number;
  userIds: number[];
  groupIds: number[];
  protectedBranchIds: number[];
  appliesToAllProtectedBranches: boolean;
}

export const approvalRuleStore = defineStore("approvalRules", (): { rules: ApprovalRuleRecord[] } => ({ rules: [] }));
const SEQUENCE = "approval_project_rules";
/** ApprovalRuleLike: `approvals_required` from 0 to 100. */
const MAX_APPROVALS = 100;

const rulesOf = (state: EmulatorState, project: Project) => approvalRuleStore.of(state).rules.filter((rule) => rule.projectId === project.id);

function presentUser(state: EmulatorState, user: User): Record<string, unknown> {
  return { id: user.id, username: user.username, name: user.name, state: user.blocked ? "blocked" : "active", avatar_url: null, web_url: `https://${state.instance.host}/${user.username}` };
}

function presentGroup(state: EmulatorState, group: Group): Record<string, unknown> {
  const fullPath = state.groupFullPath(group);
  return { id: group.id, name: group.name, path: group.path, description: group.description, visibility: group.visibility, full_name: state.groupFullName(group), full_path: fullPath, parent_id: group.parentId, web_url: `https://${state.instance.host}/groups/${fullPath}` };
}

/** `EE::API::Entities::ProjectApprovalRule`: a group the caller cannot see is left out and counted in `contains_hidden_groups`. */
function presentRule(state: EmulatorState, viewer: User | null, project: Project, rule: ApprovalRuleRecord): Record<string, unknown> {
  const users = rule.userIds.flatMap((id) => state.userById(id) ?? []);
  const groups = rule.groupIds.flatMap((id) => state.groupById(id) ?? []);
  const visible = groups.filter((group) => canReadGroup(state, viewer, group));
  const members = groups.flatMap((group) => Object.keys(group.members).flatMap((id) => state.userById(Number(id)) ?? []));
  const eligible = [...new Map([...users, ...members].map((user) => [user.id, user])).values()];
  const branches = branchRulesOf(state, project).filter((branch) => rule.protectedBranchIds.includes(branch.id));
  return {
    id: rule.id,
    name: rule.name,
    rule_type: "regular",
    report_type: null,
    eligible_approvers: eligible.map((user) => presentUser(state, user)),
    approvals_required: rule.approvalsRequired,
    users: users.map((user) => presentUser(state, user)),
    groups: visible.map((group) => presentGroup(state, group)),
    contains_hidden_groups: visible.length < groups.length,
    protected_branches: branches.map((branch) => presentBranchRule(state, project, branch)),
    applies_to_all_protected_branches: rule.appliesToAllProtectedBranches,
  };
}

/** Managing rules: `admin_project` (Maintainer) and the `merge_request_approvers` licence (Premium and Ultimate); below either 403. */
function administeredProject(ctx: RequestContext<unknown>): Project {
  const user = requireUser(ctx);
  const project = findProject(ctx);
  if (!hasProjectAccess(ctx.state, user, project, AccessLevel.Maintainer) || ctx.state.tierOf(ctx.state.namespaceOf(project)) === "free") throw forbidden();
  return project;
}

function findRule(state: EmulatorState, project: Project, id: number): ApprovalRuleRecord {
  const rule = rulesOf(state, project).find((found) => found.id === id);
  if (!rule) throw recordNotFound();
  return rule;
}

const idParam = { id: { type: "string", required: true } } as const;
const ruleIdParam = { approval_rule_id: { type: "integer", required: true } } as const;
const ruleParams = {
  approvals_required: { type: "integer" },
  user_ids: { type: "integer[]" },
  group_ids: { type: "integer[]" },
  usernames: { type: "string[]" },
  protected_branch_ids: { type: "integer[]" },
  applies_to_all_protected_branches: { type: "boolean" },
  rule_type: { type: "string", values: ["regular"] },
} as const;

interface RuleParams {
  name?: string;
  approvals_required?: number;
  user_ids?: number[];
  group_ids?: number[];
  usernames?: string[];
  protected_branch_ids?: number[];
  applies_to_all_protected_branches?: boolean;
}

/**
 * The rule with the parameters applied (ApprovalRules::Params): users by id
 * and by username, groups and the project's protected branches by id, each
 * unknown one dropped; a name another rule of the project has, or a number
 * of approvals out of 0 to 100, is 400 with the model's errors.
 */
function applyParams(state: EmulatorState, project: Project, rule: ApprovalRuleRecord, params: RuleParams): ApprovalRuleRecord {
  const next = { ...rule };
  if (params.name !== undefined) next.name = params.name;
  if (params.approvals_required !== undefined) next.approvalsRequired = params.approvals_required;
  if (params.user_ids !== undefined || params.usernames !== undefined) {
    const byName = (params.usernames ?? []).flatMap((username) => state.userByUsername(username)?.id ?? []);
    next.userIds = [...new Set([...(params.user_ids ?? []), ...byName])].filter((id) => state.userById(id) !== undefined);
  }
  if (params.group_ids !== undefined) next.groupIds = [...new Set(params.group_ids)].filter((id) => state.groupById(id) !== undefined);
  if (params.protected_branch_ids !== undefined) {
    const own = new Set(branchRulesOf(state, project).map((branch) => branch.id));
    next.protectedBranchIds = [...new Set(params.protected_branch_ids)].filter((id) => own.has(id));
  }
  if (params.applies_to_all_protected_branches !== undefined) next.appliesToAllProtectedBranches = params.applies_to_all_protected_branches;
  const errors: Record<string, string[]> = {};
  if (next.name.trim() === "") errors["name"] = ["can't be blank"];
  else if (rulesOf(state, project).some((other) => other.id !== rule.id && other.name === next.name)) errors["name"] = ["has already been taken"];
  if (next.approvalsRequired < 0) errors["approvals_required"] = ["must be greater than or equal to 0"];
  if (next.approvalsRequired > MAX_APPROVALS) errors["approvals_required"] = [`must be less than or equal to ${MAX_APPROVALS}`];
  if (Object.keys(errors).length > 0) throw new ApiError(400, { message: errors });
  return next;
}

const BASE = "/projects/:id/approval_rules";
const ONE = `${BASE}/:approval_rule_id`;

export const approvalRulesArea: EmulatorArea = {
  name: "approval-rules",
  routes: [
    route("GET", BASE, { params: idParam, paginated: true }, (ctx) => {
      const project = findProject(ctx);
      return paginate(ctx, rulesOf(ctx.state, project), { present: (rule) => presentRule(ctx.state, ctx.user, project, rule) });
    }),
    route("GET", ONE, { params: { ...idParam, ...ruleIdParam } }, (ctx) => {
      const project = findProject(ctx);
      return ok(presentRule(ctx.state, ctx.user, project, findRule(ctx.state, project, ctx.params.approval_rule_id)));
    }),
    route("POST", BASE, { params: { ...idParam, name: { type: "string", required: true }, ...ruleParams, approvals_required: { type: "integer", required: true } } }, (ctx) => {
      const project = administeredProject(ctx);
      const blank: ApprovalRuleRecord = { id: 0, projectId: project.id, name: "", approvalsRequired: 0, userIds: [], groupIds: [], protectedBranchIds: [], appliesToAllProtectedBranches: false };
      const rule = applyParams(ctx.state, project, blank, ctx.params);
      rule.id = ctx.state.nextId(SEQUENCE);
      approvalRuleStore.of(ctx.state).rules.push(rule);
      return created(presentRule(ctx.state, ctx.user, project, rule));
    }),
    route("PUT", ONE, { params: { ...idParam, ...ruleIdParam, name: { type: "string" }, ...ruleParams } }, (ctx) => {
      const project = administeredProject(ctx);
      const rule = findRule(ctx.state, project, ctx.params.approval_rule_id);
      Object.assign(rule, applyParams(ctx.state, project, rule, ctx.params));
      return ok(presentRule(ctx.state, ctx.user, project, rule));
    }),
    route("DELETE", ONE, { params: { ...idParam, ...ruleIdParam } }, (ctx) => {
      const project = administeredProject(ctx);
      const rule = findRule(ctx.state, project, ctx.params.approval_rule_id);
      const store = approvalRuleStore.of(ctx.state);
      store.rules = store.rules.filter((found) => found !== rule);
      return noContent();
    }),
  ],
};
