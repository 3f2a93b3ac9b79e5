/**
 * A project's merge request approval settings: `GET /projects/:id/approvals`
 * and `POST /projects/:id/approvals` (Premium and Ultimate), the settings
 * that `PUT /projects/:id` does not hold. The number of approvals the
 * project requires is an approval rule's (`/approval_rules`): the deprecated
 * `approvals_before_merge` is shown here and never written.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { requestsOf } from "./core";
import { approvalRuleNeeds } from "./approval-rules";

/** `EE::API::Entities::ApprovalSettings` as the API answers it. */
export const approvalSettings = z.looseObject({
  /** Deprecated in GitLab 12.3: always empty. */
  approvers: z.array(z.unknown()).optional(),
  approver_groups: z.array(z.unknown()).optional(),
  /** Deprecated in GitLab 12.3: the count is an approval rule's. */
  approvals_before_merge: z.number().nullable().optional(),
  reset_approvals_on_push: z.boolean(),
  selective_code_owner_removals: z.boolean().optional(),
  disable_overriding_approvers_per_merge_request: z.boolean().nullable().optional(),
  merge_requests_author_approval: z.boolean().nullable().optional(),
  merge_requests_disable_committers_approval: z.boolean().nullable().optional(),
  /** Deprecated in GitLab 16.9: the same value as `require_reauthentication_to_approve`. */
  require_password_to_approve: z.boolean().nullable().optional(),
  /** GitLab 17.1 and later. */
  require_reauthentication_to_approve: z.boolean().nullable().optional(),
});
export type ApprovalSettings = z.output<typeof approvalSettings>;

export const approvalSettingsRequests = requestsOf(approvalSettings);

export const approvalSettingsOf = (project: string | number): string => apiPath`/projects/${project}/approvals`;

/**
 * Reading the settings needs only to see the project; changing them needs what
 * managing the project's approval rules does: admin_project (Maintainer) and
 * the Premium tier (`merge_request_approvers`).
 */
export const approvalSettingsNeeds = approvalRuleNeeds;
