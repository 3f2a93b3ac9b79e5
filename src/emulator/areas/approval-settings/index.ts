/**
 * A project's merge request approval settings (`/projects/:id/approvals`,
 * doc/api/merge_request_approvals.md): what each call answers and refuses is
 * in the emulator's README ("Merge request approval settings").
 */
import { hasProjectAccess } from "../../access";
import { ApiError, forbidden, paramError } from "../../errors";
import { findProject } from "../../lookup";
import { created, ok, requireUser, route, type RequestContext } from "../../router";
import { AccessLevel, defineStore, type EmulatorState, type Project } from "../../state";
import type { EmulatorArea } from "../../area";

/** One project's settings, as `project_settings` and the project's columns hold them. */
export interface ApprovalSettingsRecord {
  approvalsBeforeMerge: number;
  resetApprovalsOnPush: boolean;
  selectiveCodeOwnerRemovals: boolean;
  disableOverridingApproversPerMergeRequest: boolean;
  mergeRequestsAuthorApproval: boolean;
  mergeRequestsDisableCommittersApproval: boolean;
  requireReauthenticationToApprove: boolean;
}

/** A new project's values (the columns' defaults). */
const DEFAULTS: ApprovalSettingsRecord = {
  approvalsBeforeMerge: 0,
  resetApprovalsOnPush: true,
  selectiveCodeOwnerRemovals: false,
  disableOverridingApproversPerMergeRequest: false,
  mergeRequestsAuthorApproval: false,
  mergeRequestsDisableCommittersApproval: false,
  requireReauthenticationToApprove: false,
};

export const approvalSettingsStore = defineStore("approvalSettings", (): { byProject: Record<string, ApprovalSettingsRecord> } => ({ byProject: {} }));

/** A project's settings: the defaults until something is written. */
export function approvalSettingsOf(state: EmulatorState, project: Project): ApprovalSettingsRecord {
  return approvalSettingsStore.of(state).byProject[project.id] ?? { ...DEFAULTS };
}

/** `EE::API::Entities::ApprovalSettings`: the deprecated approver lists always empty, the deprecated password flag the same value as its replacement. */
function present(settings: ApprovalSettingsRecord): Record<string, unknown> {
  return {
    approvers: [],
    approver_groups: [],
    approvals_before_merge: settings.approvalsBeforeMerge,
    reset_approvals_on_push: settings.resetApprovalsOnPush,
    selective_code_owner_removals: settings.selectiveCodeOwnerRemovals,
    disable_overriding_approvers_per_merge_request: settings.disableOverridingApproversPerMergeRequest,
    merge_requests_author_approval: settings.mergeRequestsAuthorApproval,
    merge_requests_disable_committers_approval: settings.mergeRequestsDisableCommittersApproval,
    require_password_to_approve: settings.requireReauthenticationToApprove,
    require_reauthentication_to_approve: settings.requireReauthenticationToApprove,
  };
}

/** Changing them: `admin_project` (Maintainer) and the `merge_request_approvers` licence (Premium and Ultimate); below either 403. */
function administeredProject(ctx: RequestContext<unknown>): Project {
  const user = requireUser(ctx);
  const project = findProject(ctx);
  if (!hasProjectAccess(ctx.state, user, project, AccessLevel.Maintainer) || ctx.state.tierOf(ctx.state.namespaceOf(project)) === "free") throw forbidden();
  return project;
}

const PARAMS = {
  approvals_before_merge: { type: "integer" },
  reset_approvals_on_push: { type: "boolean" },
  selective_code_owner_removals: { type: "boolean" },
  disable_overriding_approvers_per_merge_request: { type: "boolean" },
  merge_requests_author_approval: { type: "boolean" },
  merge_requests_disable_committers_approval: { type: "boolean" },
  require_password_to_approve: { type: "boolean" },
  require_reauthentication_to_approve: { type: "boolean" },
} as const;

const PATH = "/projects/:id/approvals";

export const approvalSettingsArea: EmulatorArea = {
  name: "approval-settings",
  routes: [
    route("GET", PATH, { params: { id: { type: "string", required: true } } }, (ctx) => ok(present(approvalSettingsOf(ctx.state, findProject(ctx))))),
    route("POST", PATH, { params: { id: { type: "string", required: true }, ...PARAMS } }, (ctx) => {
      const params = ctx.params as Record<string, unknown>;
      if (Object.keys(PARAMS).every((name) => params[name] === undefined)) {
        throw paramError(`${Object.keys(PARAMS).join(", ")} are missing, at least one parameter must be provided`);
      }
      const project = administeredProject(ctx);
      const next = { ...approvalSettingsOf(ctx.state, project) };
      const given = <T>(name: keyof typeof PARAMS) => params[name] as T | undefined;
      next.approvalsBeforeMerge = given<number>("approvals_before_merge") ?? next.approvalsBeforeMerge;
      next.resetApprovalsOnPush = given<boolean>("reset_approvals_on_push") ?? next.resetApprovalsOnPush;
      next.selectiveCodeOwnerRemovals = given<boolean>("selective_code_owner_removals") ?? next.selectiveCodeOwnerRemovals;
      next.disableOverridingApproversPerMergeRequest = given<boolean>("disable_overriding_approvers_per_merge_request") ?? next.disableOverridingApproversPerMergeRequest;
      next.mergeRequestsAuthorApproval = given<boolean>("merge_requests_author_approval") ?? next.mergeRequestsAuthorApproval;
      next.mergeRequestsDisableCommittersApproval = given<boolean>("merge_requests_disable_committers_approval") ?? next.mergeRequestsDisableCommittersApproval;
      // Both given: the newer name wins.
      next.requireReauthenticationToApprove = given<boolean>("require_reauthentication_to_approve") ?? given<boolean>("require_password_to_approve") ?? next.requireReauthenticationToApprove;
      const errors: Record<string, string[]> = {};
      if (next.approvalsBeforeMerge < 0) errors["approvals_before_merge"] = ["must be greater than or equal to 0"];
      if (next.selectiveCodeOwnerRemovals && next.resetApprovalsOnPush) errors["selective_code_owner_removals"] = ["can only be enabled when reset_approvals_on_push is disabled"];
      if (Object.keys(errors).length > 0) throw new ApiError(400, { message: errors });
      approvalSettingsStore.of(ctx.state).byProject[project.id] = next;
      return created(present(next));
    }),
  ],
};
