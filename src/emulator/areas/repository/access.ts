/** Who may write to a project's repository: push access to the project and to one branch. */
import { projectAccessLevel } from "../../access";
import { AccessLevel, type EmulatorState, type Project, type User } from "../../state";
import { settingsOf as groupSettingsOf } from "../groups/model";

/** `push_code` on the project: Developer and above, or an administrator. */
export function canPushCode(state: EmulatorState, user: User | null, project: Project): boolean {
  if (!user) return false;
  return user.isAdmin || projectAccessLevel(state, user, project) >= AccessLevel.Developer;
}

/**
 * Gitlab::UserAccess#can_push_to_branch?: Developer on any branch but the
 * default one, which the group's default branch protection guards
 * (`allowed_to_push`, Maintainer by default).
 */
export function canPushTo(state: EmulatorState, user: User | null, project: Project, branch: string): boolean {
  if (!user) return false;
  if (user.isAdmin) return true;
  const level = projectAccessLevel(state, user, project);
  if (branch !== project.defaultBranch) return level >= AccessLevel.Developer;
  const allowed = groupSettingsOf(state, state.namespaceOf(project)).default_branch_protection_defaults.allowed_to_push;
  const needed = Math.min(...allowed.map((rule) => rule.access_level ?? AccessLevel.Maintainer));
  return level >= Math.max(needed, AccessLevel.Developer);
}
