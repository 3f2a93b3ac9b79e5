/** A project's merge request approval rules (Premium and Ultimate): how many approvals, from whom, on which branches. */
import { z } from "zod";
import { approvalRule, approvalRuleNeeds, approvalRulesOf } from "../api/approval-rules";
import { ownerReference } from "../api/owner";
import { defineListFunction, type Camelized } from "./core";

export type ApprovalRuleInfo = Camelized<z.output<typeof approvalRule>>;

const rules = defineListFunction({
  name: "getApprovalRules",
  args: z.object({
    /** The project (id or full path). */
    project: ownerReference,
  }),
  path: (args) => approvalRulesOf(args.project),
  subject: (args) => `the approval rules of project ${args.project}`,
  needs: (args) => approvalRuleNeeds(args, "read"),
  item: approvalRule,
});

/**
 * A project's approval rules, each with its users, groups, eligible approvers and protected branches.
 *
 * ```ts
 * const rules = await getApprovalRules({ project: "acme/web" });
 * ```
 */
export const getApprovalRules = rules;
/** `getApprovalRules` as an Output. */
export const getApprovalRulesOutput = rules.output;
