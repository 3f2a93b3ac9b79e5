/**
 * A project's merge request approval rules: `/projects/:id/approval_rules`
 * (Premium and Ultimate). Rules are named by their numeric id; a project's
 * rule names are unique.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { requestsOf } from "./core";
import { idForm } from "./id-form";
import { onProject, type Needs, type Operation } from "./needs";
import { protectedBranch } from "./protected-refs";

const approver = z.looseObject({ id: z.number(), username: z.string(), name: z.string() });
const approverGroup = z.looseObject({ id: z.number(), name: z.string(), full_path: z.string() });

/** A project's approval rule as the API answers it. */
export const approvalRule = z.looseObject({
  id: z.number(),
  name: z.string(),
  /** `regular`, or `report_approver`/`code_owner`/`any_approver` for the rules the server makes. */
  rule_type: z.string(),
  report_type: z.string().nullable().optional(),
  approvals_required: z.number(),
  /** Who may approve: the users, and the members of the groups. */
  eligible_approvers: z.array(approver).optional(),
  users: z.array(approver),
  /** The groups the caller may see; `contains_hidden_groups` says whether there are others. */
  groups: z.array(approverGroup),
  contains_hidden_groups: z.boolean().optional(),
  protected_branches: z.array(protectedBranch).optional(),
  applies_to_all_protected_branches: z.boolean().optional(),
});
export type ApprovalRule = z.output<typeof approvalRule>;

export const approvalRuleRequests = requestsOf(approvalRule);

export const approvalRulesOf = (project: string | number): string => apiPath`/projects/${project}/approval_rules`;

/**
 * Reading a project's rules needs only to see the project; managing them
 * needs admin_project (Maintainer) and the Premium tier (`merge_request_approvers`).
 */
export const approvalRuleNeeds = (args: { project: string | number }, operation: Operation = "create"): Needs =>
  operation === "read"
    ? { on: onProject(args.project), phrase: "access to the project" }
    : { on: onProject(args.project), role: "Maintainer", tier: "premium", phrase: "at least the Maintainer role (and the Premium or Ultimate tier)" };

/** A rule's recorded id: `projects/<project, encoded>/approval_rules/<id>`. */
const RULE_ID = /^projects\/([^/]+)\/approval_rules\/(\d+)$/;

export function parseApprovalRuleId(id: string): { project: string; ruleId: number; path: string } | undefined {
  const match = RULE_ID.exec(id);
  if (!match) return undefined;
  try {
    return { project: decodeURIComponent(match[1]!), ruleId: Number(match[2]), path: "/" + id };
  } catch {
    return undefined;
  }
}

export const approvalRuleId = (project: string | number, ruleId: number): string => `${approvalRulesOf(project).slice(1)}/${ruleId}`;
export const approvalRuleIdForm = idForm("of the form projects/<project>/approval_rules/<id>, the project URL-encoded", parseApprovalRuleId);
