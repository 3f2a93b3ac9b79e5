/**
 * Protected branches and tags: the rules, who they let push, merge, force
 * push, unprotect and create tags, and the protection a project's default
 * branch gets when the project is made. What each endpoint answers and
 * refuses is in the emulator's README ("Protected branches and tags").
 */
import { groupAccessLevel, projectAccessLevel } from "../../access";
import { AccessLevel, defineStore, type EmulatorState, type Project, type User } from "../../state";
import { sameDefaults, branchProtectionDefaults, settingsOf as groupSettingsOf } from "../groups/model";

/** `ProtectedRefAccess.allowed_access_levels`: no one, Developer, Maintainer, administrator. */
export const REF_ACCESS_LEVELS = [0, 30, 40, 60] as const;
export const ADMIN_ACCESS = 60;

/** One entry of a rule's `push_access_levels` (or merge, unprotect, create): a role, a user, a group or a deploy key. */
export interface RefAccessRecord {
  id: number;
  accessLevel: number | null;
  userId: number | null;
  groupId: number | null;
  deployKeyId: number | null;
}

export interface ProtectedBranchRecord {
  id: number;
  projectId: number;
  name: string;
  push: RefAccessRecord[];
  merge: RefAccessRecord[];
  unprotect: RefAccessRecord[];
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
}

export interface ProtectedTagRecord {
  id: number;
  projectId: number;
  name: string;
  create: RefAccessRecord[];
}

export type BranchAccessKind = "push" | "merge" | "unprotect";

interface ProtectedRefsStore {
  branches: ProtectedBranchRecord[];
  tags: ProtectedTagRecord[];
  /** Projects whose creation-time protection of the default branch is done (given or not). */
  protectedAtCreation: number[];
}

export const protectedRefsStore = defineStore("protectedRefs", (): ProtectedRefsStore => ({ branches: [], tags: [], protectedAtCreation: [] }));

export const SEQUENCES = {
  branch: "protected_branches",
  tag: "protected_tags",
  push: "protected_branch_push_access_levels",
  merge: "protected_branch_merge_access_levels",
  unprotect: "protected_branch_unprotect_access_levels",
  create: "protected_tag_create_access_levels",
} as const;

/** A role entry, with its id from the kind's sequence. */
export function roleAccess(state: EmulatorState, sequence: string, accessLevel: number): RefAccessRecord {
  return { id: state.nextId(sequence), accessLevel, userId: null, groupId: null, deployKeyId: null };
}

/**
 * The default branch's protection at creation (ProtectDefaultBranchService):
 * the namespace's `default_branch_protection_defaults`, none when they
 * protect nothing (level 0: Developers push and force push). Done once per
 * project, when the project is first seen here: a seeded project at seeding,
 * a project made later at the first request that reads its rules.
 */
function protectAtCreation(state: EmulatorState, project: Project): void {
  const store = protectedRefsStore.of(state);
  if (store.protectedAtCreation.includes(project.id)) return;
  store.protectedAtCreation.push(project.id);
  const defaults = groupSettingsOf(state, state.namespaceOf(project)).default_branch_protection_defaults;
  if (sameDefaults(defaults, branchProtectionDefaults(0))) return;
  if (store.branches.some((rule) => rule.projectId === project.id && rule.name === project.defaultBranch)) return;
  const levels = (entries: { access_level: number }[], sequence: string) => entries.map((entry) => roleAccess(state, sequence, entry.access_level));
  store.branches.push({
    id: state.nextId(SEQUENCES.branch),
    projectId: project.id,
    name: project.defaultBranch,
    push: levels(defaults.allowed_to_push, SEQUENCES.push),
    merge: levels(defaults.allowed_to_merge, SEQUENCES.merge),
    unprotect: [roleAccess(state, SEQUENCES.unprotect, AccessLevel.Maintainer)],
    allowForcePush: defaults.allow_force_push,
    codeOwnerApprovalRequired: false,
  });
}

/** Every project's default branch protected as at its creation: seeded projects get their rules (and ids) in project order. */
export function protectSeededProjects(state: EmulatorState): void {
  for (const project of state.projects) protectAtCreation(state, project);
}

/** The project's protected branch rules, in creation order. */
export function branchRulesOf(state: EmulatorState, project: Project): ProtectedBranchRecord[] {
  protectAtCreation(state, project);
  return protectedRefsStore.of(state).branches.filter((rule) => rule.projectId === project.id);
}

export function tagRulesOf(state: EmulatorState, project: Project): ProtectedTagRecord[] {
  return protectedRefsStore.of(state).tags.filter((rule) => rule.projectId === project.id);
}

/**
 * ProtectedRef#matches?: a name without `*` matches itself; with one, each
 * `*` matches any run of characters (slashes too), the whole name anchored.
 */
export function refMatches(pattern: string, ref: string): boolean {
  if (!pattern.includes("*")) return pattern === ref;
  const parts = pattern.split("*");
  if (!ref.startsWith(parts[0]!) || !ref.endsWith(parts.at(-1)!) || ref.length < parts[0]!.length + parts.at(-1)!.length) return false;
  let at = parts[0]!.length;
  const end = ref.length - parts.at(-1)!.length;
  for (const middle of parts.slice(1, -1)) {
    const found = ref.indexOf(middle, at);
    if (found < 0 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return at <= end;
}

export const matchingBranchRules = (state: EmulatorState, project: Project, branch: string): ProtectedBranchRecord[] =>
  branchRulesOf(state, project).filter((rule) => refMatches(rule.name, branch));

export const matchingTagRules = (state: EmulatorState, project: Project, tag: string): ProtectedTagRecord[] =>
  tagRulesOf(state, project).filter((rule) => refMatches(rule.name, tag));

/** Users and groups in access entries count on Premium and Ultimate (`protected_refs_for_users`). */
export const usersAndGroupsLicensed = (state: EmulatorState, project: Project): boolean => state.tierOf(state.namespaceOf(project)) !== "free";

/**
 * ProtectedRefAccess#check_access: a role entry lets in the project's
 * members of that role and above (no one for 0; administrators only for 60,
 * and administrators for every role but 0); a user entry that user, a group
 * entry the group's members, both with at least Developer on the project.
 */
export function accessAllows(state: EmulatorState, user: User, project: Project, entry: RefAccessRecord): boolean {
  if (entry.accessLevel !== null && entry.userId === null && entry.groupId === null && entry.deployKeyId === null) {
    if (entry.accessLevel === AccessLevel.NoAccess) return false;
    if (user.isAdmin) return true;
    return entry.accessLevel !== ADMIN_ACCESS && projectAccessLevel(state, user, project) >= entry.accessLevel;
  }
  if (!usersAndGroupsLicensed(state, project) || projectAccessLevel(state, user, project) < AccessLevel.Developer) return false;
  if (entry.userId !== null) return entry.userId === user.id;
  if (entry.groupId !== null) {
    const group = state.groupById(entry.groupId);
    return group !== undefined && groupAccessLevel(state, user, group) > 0;
  }
  return false;
}

/**
 * Gitlab::UserAccess#can_push_to_branch? / can_merge_to_branch?: a branch no
 * rule matches takes Developer; one that rules match, any entry of the kind
 * in any of them (the most permissive rule wins).
 */
function branchAllows(state: EmulatorState, user: User | null, project: Project, branch: string, kind: "push" | "merge"): boolean {
  if (!user) return false;
  const rules = matchingBranchRules(state, project, branch);
  if (rules.length === 0) return user.isAdmin || projectAccessLevel(state, user, project) >= AccessLevel.Developer;
  return rules.some((rule) => rule[kind].some((entry) => accessAllows(state, user, project, entry)));
}

export const canPushToBranch = (state: EmulatorState, user: User | null, project: Project, branch: string): boolean => branchAllows(state, user, project, branch, "push");
export const canMergeToBranch = (state: EmulatorState, user: User | null, project: Project, branch: string): boolean => branchAllows(state, user, project, branch, "merge");

/** ProtectedBranch.allow_force_push?: unprotected, or any matching rule allows it. */
export const canForcePushBranch = (state: EmulatorState, project: Project, branch: string): boolean => {
  const rules = matchingBranchRules(state, project, branch);
  return rules.length === 0 || rules.some((rule) => rule.allowForcePush);
};

/** Whether a role entry of the rules lets Developers in (`developers_can_push`, `developers_can_merge`). */
export const developersCan = (rules: readonly ProtectedBranchRecord[], kind: "push" | "merge"): boolean =>
  rules.some((rule) => rule[kind].some((entry) => entry.userId === null && entry.groupId === null && entry.deployKeyId === null && entry.accessLevel === AccessLevel.Developer));

/** ProtectedTag.protected_ref_accessible_to?: a tag no rule matches takes Developer; else any create entry. */
export function canCreateTag(state: EmulatorState, user: User | null, project: Project, tag: string): boolean {
  if (!user) return false;
  const rules = matchingTagRules(state, project, tag);
  if (rules.length === 0) return user.isAdmin || projectAccessLevel(state, user, project) >= AccessLevel.Developer;
  return rules.some((rule) => rule.create.some((entry) => accessAllows(state, user, project, entry)));
}
