/** The answers' bodies: `Entities::ProtectedBranch`, `Entities::ProtectedRefAccess`, `Entities::ProtectedTag`. */
import type { EmulatorState, Project } from "../../state";
import { deployKeyById } from "../deploy-keys/model";
import { ADMIN_ACCESS, usersAndGroupsLicensed, type ProtectedBranchRecord, type ProtectedTagRecord, type RefAccessRecord } from "./model";

const HUMAN_LEVELS: Record<number, string> = { 0: "No one", 30: "Developers + Maintainers", 40: "Maintainers", [ADMIN_ACCESS]: "Administrators" };

function describe(state: EmulatorState, entry: RefAccessRecord): string {
  if (entry.userId !== null) return state.userById(entry.userId)?.name ?? "";
  if (entry.groupId !== null) return state.groupById(entry.groupId)?.name ?? "";
  // `humanize_deploy_key`: the key's title, while the key exists.
  if (entry.deployKeyId !== null) return deployKeyById(state, entry.deployKeyId)?.title ?? "Deploy key";
  return HUMAN_LEVELS[entry.accessLevel ?? 0] ?? "";
}

/** Entities::ProtectedRefAccess: `user_id` and `group_id` shown on Premium and Ultimate. */
function presentAccess(state: EmulatorState, project: Project, entry: RefAccessRecord, withDeployKey: boolean): Record<string, unknown> {
  return {
    id: entry.id,
    access_level: entry.accessLevel,
    access_level_description: describe(state, entry),
    ...(withDeployKey ? { deploy_key_id: entry.deployKeyId } : {}),
    ...(usersAndGroupsLicensed(state, project) ? { user_id: entry.userId, group_id: entry.groupId } : {}),
  };
}

export function presentBranchRule(state: EmulatorState, project: Project, rule: ProtectedBranchRecord): Record<string, unknown> {
  return {
    id: rule.id,
    name: rule.name,
    push_access_levels: rule.push.map((entry) => presentAccess(state, project, entry, true)),
    merge_access_levels: rule.merge.map((entry) => presentAccess(state, project, entry, false)),
    allow_force_push: rule.allowForcePush,
    unprotect_access_levels: rule.unprotect.map((entry) => presentAccess(state, project, entry, false)),
    code_owner_approval_required: rule.codeOwnerApprovalRequired,
    ...(usersAndGroupsLicensed(state, project) ? { inherited: false } : {}),
  };
}

export function presentTagRule(state: EmulatorState, project: Project, rule: ProtectedTagRecord): Record<string, unknown> {
  return { name: rule.name, create_access_levels: rule.create.map((entry) => presentAccess(state, project, entry, true)) };
}

