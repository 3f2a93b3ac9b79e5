/**
 * Who may see and change what. Mirrors the real server's policies closely
 * enough for a client to meet the same 404s and 403s:
 * - effective access = the highest of the direct membership and the
 *   memberships inherited from ancestor groups (a project also inherits from
 *   its group chain), and of the shares of those (a group invited into a
 *   group or a project gives its members, direct and inherited, their role
 *   there but at most the share's; shares do not pass on through the invited
 *   group's own shares; an expired share gives nothing);
 * - administrators see and may do everything;
 * - public resources are readable by everyone (anonymous included), internal
 *   ones by any signed-in user, private ones by members only;
 * - like GroupPolicy's `has_projects`, a user with access somewhere below a
 *   group (a subgroup or a project in it) may read that group.
 */
import {
  AccessLevel,
  type EmulatorState,
  type Group,
  type GroupLink,
  type Members,
  type Project,
  type User,
  type Visibility,
} from "./state";

function directLevel(members: Members, user: User): number {
  return members[String(user.id)] ?? AccessLevel.NoAccess;
}

/** Open to this viewer by visibility alone, without any membership. */
function openByVisibility(visibility: Visibility, user: User | null): boolean {
  return visibility === "public" || (visibility === "internal" && user !== null);
}

/** Highest membership in the group or any of its ancestors, shares left out (0 for none). */
function membershipLevel(state: EmulatorState, user: User, group: Group): number {
  return Math.max(...state.selfAndAncestors(group).map((g) => directLevel(g.members, user)));
}

/** The highest role the shares give the user: their membership of each invited group, at most the share's role. */
function sharedLevel(state: EmulatorState, user: User, links: readonly GroupLink[] | undefined): number {
  const today = state.now().slice(0, 10);
  let level: number = AccessLevel.NoAccess;
  for (const link of links ?? []) {
    const invited = state.groupById(link.groupId);
    if (!invited || (link.expiresAt !== null && link.expiresAt <= today)) continue;
    level = Math.max(level, Math.min(link.access, membershipLevel(state, user, invited)));
  }
  return level;
}

/** Highest membership in the group or any of its ancestors, their shares included (0 for none). */
export function groupAccessLevel(state: EmulatorState, user: User | null, group: Group): number {
  if (!user) return AccessLevel.NoAccess;
  const chain = state.selfAndAncestors(group);
  return Math.max(membershipLevel(state, user, group), ...chain.map((g) => sharedLevel(state, user, g.sharedWith)));
}

/** Highest of the project membership, the project's shares and the group chain's memberships and shares. */
export function projectAccessLevel(state: EmulatorState, user: User | null, project: Project): number {
  if (!user) return AccessLevel.NoAccess;
  return Math.max(directLevel(project.members, user), sharedLevel(state, user, project.sharedWith), groupAccessLevel(state, user, state.namespaceOf(project)));
}

export function canReadProject(state: EmulatorState, user: User | null, project: Project): boolean {
  if (user?.isAdmin) return true;
  return openByVisibility(project.visibility, user) || projectAccessLevel(state, user, project) > 0;
}

export function canReadGroup(state: EmulatorState, user: User | null, group: Group): boolean {
  if (user?.isAdmin) return true;
  if (openByVisibility(group.visibility, user) || groupAccessLevel(state, user, group) > 0) return true;
  if (!user) return false;
  const below = state.descendants(group);
  return (
    below.some((g) => directLevel(g.members, user) > 0) ||
    state.projectsIn(group, { includeSubgroups: true }).some((p) => directLevel(p.members, user) > 0)
  );
}

/** At least `level` on the project, or an administrator. */
export function hasProjectAccess(state: EmulatorState, user: User | null, project: Project, level: number): boolean {
  return user !== null && (user.isAdmin || projectAccessLevel(state, user, project) >= level);
}

/** At least `level` on the group, or an administrator. */
export function hasGroupAccess(state: EmulatorState, user: User | null, group: Group, level: number): boolean {
  return user !== null && (user.isAdmin || groupAccessLevel(state, user, group) >= level);
}
