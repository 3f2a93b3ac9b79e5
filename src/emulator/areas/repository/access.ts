/** Who may write to a project's repository: push access to the project, and what the protected branches allow. */
import { projectAccessLevel } from "../../access";
import { AccessLevel, type EmulatorState, type Project, type User } from "../../state";
import { canForcePushBranch, canMergeToBranch, canPushToBranch } from "../protected-refs/model";

/** `read_code` (`download_code`): public code for anyone, internal for every signed-in user, private for Reporters and above; administrators always. */
export function canReadCode(state: EmulatorState, user: User | null, project: Project): boolean {
  return (
    user?.isAdmin === true ||
    project.visibility === "public" ||
    (project.visibility === "internal" && user !== null) ||
    projectAccessLevel(state, user, project) >= AccessLevel.Reporter
  );
}

/** `push_code` on the project: Developer and above, or an administrator. */
export function canPushCode(state: EmulatorState, user: User | null, project: Project): boolean {
  if (!user) return false;
  return user.isAdmin || projectAccessLevel(state, user, project) >= AccessLevel.Developer;
}

/**
 * Gitlab::UserAccess#can_push_to_branch?: push access to the project, and
 * on a protected branch what the rules matching it allow (the most
 * permissive wins: ../protected-refs/model.ts).
 */
export function canPushTo(state: EmulatorState, user: User | null, project: Project, branch: string): boolean {
  return canPushCode(state, user, project) && canPushToBranch(state, user, project, branch);
}

/** Gitlab::UserAccess#can_merge_to_branch?: what the merge levels of the rules matching the branch allow. */
export function canMergeTo(state: EmulatorState, user: User | null, project: Project, branch: string): boolean {
  return canPushCode(state, user, project) && canMergeToBranch(state, user, project, branch);
}

/** Whether a push may rewrite the branch's history: unprotected, or a matching rule allows force push. */
export const canForcePush = (state: EmulatorState, project: Project, branch: string): boolean => canForcePushBranch(state, project, branch);
