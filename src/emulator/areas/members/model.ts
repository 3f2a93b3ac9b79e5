/**
 * The members area's model. A membership's role is the core model's
 * (`group.members` / `project.members`: user id → access level), which every
 * role check of the emulator reads (../../access.ts); what the members API
 * shows besides the role is kept here, per membership: when and by whom it
 * was made, when it expires, its custom role.
 */
import { AccessLevel, defineStore, type EmulatorState, type Group, type Project } from "../../state";

export type SourceKind = "group" | "project";
export type Source = { kind: "group"; group: Group } | { kind: "project"; project: Project };

export interface MembershipDetails {
  createdAt: string;
  /** The user who made the membership; null for seeded ones. */
  createdById: number | null;
  /** `YYYY-MM-DD`, or null: no expiry. */
  expiresAt: string | null;
  /** A custom role (Ultimate), or null. */
  memberRoleId: number | null;
}

export const membershipStore = defineStore("memberships", (): Record<string, MembershipDetails> => ({}));

const keyOf = (source: Source, userId: number): string =>
  source.kind === "group" ? `group:${source.group.id}:${userId}` : `project:${source.project.id}:${userId}`;

export const membersOfSource = (source: Source): Record<string, number> => (source.kind === "group" ? source.group.members : source.project.members);

/** The details of a membership; a seeded one has none recorded: made when its source was, by nobody named. */
export function detailsOf(state: EmulatorState, source: Source, userId: number): MembershipDetails {
  const recorded = membershipStore.of(state)[keyOf(source, userId)];
  const createdAt = source.kind === "group" ? source.group.createdAt : source.project.createdAt;
  return recorded ?? { createdAt, createdById: null, expiresAt: null, memberRoleId: null };
}

export function setMembership(state: EmulatorState, source: Source, userId: number, level: number, details: MembershipDetails): void {
  membersOfSource(source)[String(userId)] = level;
  membershipStore.of(state)[keyOf(source, userId)] = details;
}

export function removeMembership(state: EmulatorState, source: Source, userId: number): void {
  delete membersOfSource(source)[String(userId)];
  delete membershipStore.of(state)[keyOf(source, userId)];
}

/** The groups whose memberships a source inherits: a group's ancestors; a project's group and its ancestors. */
export function inheritedFrom(state: EmulatorState, source: Source): Group[] {
  return source.kind === "group" ? state.selfAndAncestors(source.group).slice(1) : state.selfAndAncestors(state.namespaceOf(source.project));
}

/** The highest inherited membership of the user and the group it is in (the nearest of equals); undefined for none. */
export function highestInherited(state: EmulatorState, source: Source, userId: number): { level: number; group: Group } | undefined {
  let best: { level: number; group: Group } | undefined;
  for (const group of inheritedFrom(state, source)) {
    const level = group.members[String(userId)];
    if (level !== undefined && level > AccessLevel.NoAccess && (!best || level > best.level)) best = { level, group };
  }
  return best;
}

/**
 * `Group#last_owner?`: the user is an Owner of the group and the only one
 * among the group's members with those of its ancestors.
 */
export function isLastOwner(state: EmulatorState, group: Group, userId: number): boolean {
  const owners = new Set<string>();
  for (const g of state.selfAndAncestors(group)) {
    for (const [id, level] of Object.entries(g.members)) if (level === AccessLevel.Owner) owners.add(id);
  }
  return owners.has(String(userId)) && owners.size === 1;
}

/** Every membership whose expiry date has come (`RemoveExpiredMembersWorker`): removed. */
export function removeExpired(state: EmulatorState): void {
  const today = state.now().slice(0, 10);
  for (const [key, details] of Object.entries(membershipStore.of(state))) {
    if (details.expiresAt === null || details.expiresAt > today) continue;
    const [kind, sourceId, userId] = key.split(":");
    const owner = kind === "group" ? state.groupById(Number(sourceId)) : state.projectById(Number(sourceId));
    if (owner) delete owner.members[userId!];
    delete membershipStore.of(state)[key];
  }
}
