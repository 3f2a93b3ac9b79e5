/**
 * Protected environments of projects and groups (Premium and Ultimate): the
 * rules, their deploy access levels and approval rules, and which users and
 * groups an entry may name. What each endpoint answers and refuses is in the
 * emulator's README ("Protected environments").
 */
import { projectAccessLevel } from "../../access";
import { AccessLevel, defineStore, type EmulatorState, type Group, type Project, type User } from "../../state";

/** `ProtectedEnvironments::Authorizable::ALLOWED_ACCESS_LEVELS`: Reporter, Developer, Maintainer, administrator. */
export const ENVIRONMENT_ACCESS_LEVELS = [20, 30, 40, 60] as const;
/** `Environment.tiers`: the names a group's protected environment takes. */
export const DEPLOYMENT_TIERS = ["production", "staging", "testing", "development", "other"] as const;
/** `GROUP_INHERITANCE_TYPE`: the group's direct members (0) or its subgroups' too (1). */
export const GROUP_INHERITANCE_TYPES = [0, 1] as const;
/** `required_approvals` of an approval rule: 1 to 5. */
export const MAX_REQUIRED_APPROVALS = 5;

/** One entry of a rule's deploy access levels or approval rules: exactly one of a role, a user or a group. */
export interface EnvironmentAccessRecord {
  id: number;
  accessLevel: number | null;
  userId: number | null;
  groupId: number | null;
  groupInheritanceType: number;
  /** Approval rules only. */
  requiredApprovals?: number;
}

export interface ProtectedEnvironmentRecord {
  id: number;
  /** The project's rule, or the group's. */
  projectId: number | null;
  groupId: number | null;
  name: string;
  deploy: EnvironmentAccessRecord[];
  approvals: EnvironmentAccessRecord[];
}

export const protectedEnvironmentsStore = defineStore("protectedEnvironments", (): { rules: ProtectedEnvironmentRecord[] } => ({ rules: [] }));

export const SEQUENCES = { rule: "protected_environments", deploy: "protected_environment_deploy_access_levels", approval: "protected_environment_approval_rules" } as const;

/** The container a rule belongs to. */
export type EnvironmentContainer = { kind: "project"; project: Project } | { kind: "group"; group: Group };

/** The container's rules, sorted by name (`sorted_by_name`). */
export function environmentRulesOf(state: EmulatorState, container: EnvironmentContainer): ProtectedEnvironmentRecord[] {
  const rules = protectedEnvironmentsStore.of(state).rules;
  const own = container.kind === "project" ? rules.filter((rule) => rule.projectId === container.project.id) : rules.filter((rule) => rule.groupId === container.group.id);
  return [...own].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Protected environments are a Premium feature: the container's top-level group's tier. */
export function environmentsLicensed(state: EmulatorState, container: EnvironmentContainer): boolean {
  const group = container.kind === "project" ? state.namespaceOf(container.project) : container.group;
  return state.tierOf(group) !== "free";
}

/** Highest direct membership in the group or its ancestors (`members_with_parents`, shares left out). */
function membershipWithParents(state: EmulatorState, user: User, group: Group): number {
  return Math.max(AccessLevel.NoAccess, ...state.selfAndAncestors(group).map((one) => one.members[String(user.id)] ?? AccessLevel.NoAccess));
}

/**
 * ProtectedEnvironments::BaseService#valid_attribute?: the groups an entry
 * may name (a project's invited groups; a group, its subgroups and the
 * groups it is shared with) and the users (at least Developer on the
 * project; Maintainer or Owner of the group or an ancestor).
 */
export function qualifiedGroup(state: EmulatorState, container: EnvironmentContainer, groupId: number): boolean {
  if (container.kind === "project") return (container.project.sharedWith ?? []).some((link) => link.groupId === groupId);
  const own = [container.group, ...state.descendants(container.group)].some((group) => group.id === groupId);
  return own || (container.group.sharedWith ?? []).some((link) => link.groupId === groupId);
}

export function qualifiedUser(state: EmulatorState, container: EnvironmentContainer, userId: number): boolean {
  const user = state.userById(userId);
  if (!user) return false;
  if (container.kind === "project") return projectAccessLevel(state, user, container.project) >= AccessLevel.Developer;
  return membershipWithParents(state, user, container.group) >= AccessLevel.Maintainer;
}
