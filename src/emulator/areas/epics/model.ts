/**
 * The epics area's model: epics per group (global `id`, `iid` per group, a
 * parent link, a relative position among siblings), the seed section that
 * fills it, the permission rules, sibling ordering, and the API's entities.
 * The routes are in ./routes.ts.
 *
 * Where the API documentation is silent, as real servers behave:
 * - Licences: the `epics` feature is Premium (reading children, unassigning);
 *   `subepics` (multi-level epics: assigning, creating a child, reordering) is
 *   Ultimate. Either missing: 403.
 * - Roles: reading needs read access to the group (a confidential epic: the
 *   Planner role or higher); the tree relations (`admin_epic_tree_relation`,
 *   `admin_epic_relation`) need any membership, Guest included, while the
 *   `epic_relations_for_non_members` flag is on (it is on by default in GitLab,
 *   so here it counts as on unless the seed sets it to false; off, the Planner
 *   role is needed); creating an epic needs the Planner role (Reporter before
 *   that role existed): a Guest gets 403.
 * - A child may live in any group whose epics the user may relate (GitLab
 *   18 lets children cross group hierarchies; older releases required the
 *   parent's group or a subgroup of it). The hierarchy is at most 7 levels.
 *   A parent has at most 100 children, checked when a child is added (a
 *   seed may hold more, as old data on real servers can).
 * - A new child goes to the start of its siblings (`move_to_start`); siblings
 *   are ordered by relative position ascending, then id descending.
 */
import { canReadGroup, groupAccessLevel } from "../../access";
import { AccessLevel, defineStore, type EmulatorState, type Group, type User } from "../../state";

export interface EpicRecord {
  /** Global id: what `child_epic_id`, `move_before_id` and `move_after_id` take. */
  id: number;
  /** Internal id, unique in its group: what `:epic_iid` takes. */
  iid: number;
  groupId: number;
  parentId: number | null;
  title: string;
  description: string | null;
  authorId: number;
  labels: string[];
  confidential: boolean;
  /** Fixed dates (`YYYY-MM-DD`) or null. */
  startDate: string | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  relativePosition: number;
}

export const epicStore = defineStore("epics", (): { epics: EpicRecord[] } => ({ epics: [] }));

export const EPIC_SEQUENCE = "epics";
export const iidSequence = (group: Group): string => `epic_iids_${group.id}`;

export const MAX_HIERARCHY_DEPTH = 7;
export const MAX_CHILDREN_COUNT = 100;
/** Distance between neighbours when positions are laid out afresh. */
export const POSITION_GAP = 1024;

// ---------------------------------------------------------------------------
// Licences, flags and roles

export const epicsLicensed = (state: EmulatorState, group: Group): boolean => state.tierOf(group) !== "free";
export const subepicsLicensed = (state: EmulatorState, group: Group): boolean => state.tierOf(group) === "ultimate";


export const groupOf = (state: EmulatorState, epic: EpicRecord): Group => {
  const group = state.groupById(epic.groupId);
  if (!group) throw new Error(`epic ${epic.id} has no group ${epic.groupId}`);
  return group;
};

const isAdmin = (user: User | null): boolean => user?.isAdmin === true;

export function canReadEpic(state: EmulatorState, user: User | null, epic: EpicRecord): boolean {
  const group = groupOf(state, epic);
  if (!epicsLicensed(state, group) || !canReadGroup(state, user, group)) return false;
  return !epic.confidential || isAdmin(user) || groupAccessLevel(state, user, group) >= AccessLevel.Planner;
}

/** The role the tree relations need in the epic's group. */
function relationLevel(state: EmulatorState, group: Group): number {
  return state.featureEnabled("epic_relations_for_non_members", group) ? AccessLevel.Guest : AccessLevel.Planner;
}

/** `admin_epic_relation`: unassigning (Premium). */
export function canAdminEpicRelation(state: EmulatorState, user: User | null, epic: EpicRecord): boolean {
  const group = groupOf(state, epic);
  if (!canReadEpic(state, user, epic)) return false;
  return isAdmin(user) || groupAccessLevel(state, user, group) >= relationLevel(state, group);
}

/** `admin_epic_tree_relation`: assigning and reordering (Ultimate: multi-level epics). */
export function canAdminEpicTree(state: EmulatorState, user: User | null, epic: EpicRecord): boolean {
  return subepicsLicensed(state, groupOf(state, epic)) && canAdminEpicRelation(state, user, epic);
}

/** `create_epic` in a group: the Planner role. */
export function canCreateEpic(state: EmulatorState, user: User | null, group: Group): boolean {
  return epicsLicensed(state, group) && (isAdmin(user) || groupAccessLevel(state, user, group) >= AccessLevel.Planner);
}

// ---------------------------------------------------------------------------
// The tree

export const allEpics = (state: EmulatorState): EpicRecord[] => epicStore.of(state).epics;
export const epicById = (state: EmulatorState, id: number): EpicRecord | undefined => allEpics(state).find((e) => e.id === id);
export const epicByIid = (state: EmulatorState, group: Group, iid: number): EpicRecord | undefined =>
  allEpics(state).find((e) => e.groupId === group.id && e.iid === iid);

/** `order_relative_position`: position ascending, then id descending. */
export function childrenOf(state: EmulatorState, parent: EpicRecord): EpicRecord[] {
  return allEpics(state)
    .filter((e) => e.parentId === parent.id)
    .sort((a, b) => a.relativePosition - b.relativePosition || b.id - a.id);
}

/** Ancestors of an epic, nearest first. */
export function ancestorsOf(state: EmulatorState, epic: EpicRecord): EpicRecord[] {
  const chain: EpicRecord[] = [];
  for (let id = epic.parentId; id !== null; ) {
    const parent = epicById(state, id);
    if (!parent || chain.includes(parent)) break;
    chain.push(parent);
    id = parent.parentId;
  }
  return chain;
}

/** Levels of the subtree under an epic, the epic included (1 for a leaf). */
function subtreeDepth(state: EmulatorState, epic: EpicRecord): number {
  const children = allEpics(state).filter((e) => e.parentId === epic.id);
  return 1 + Math.max(0, ...children.map((child) => subtreeDepth(state, child)));
}

export const depthMessage = (): string =>
  `This epic cannot be added. One or more epics would exceed the maximum depth (${MAX_HIERARCHY_DEPTH}) from its most distant ancestor.`;

/**
 * Why `child` cannot become a child of `parent` (`validate_parent_epic`,
 * `validate_confidential_parent`, `validate_children_count`), or undefined.
 */
export function linkProblem(state: EmulatorState, parent: EpicRecord, child: EpicRecord): string | undefined {
  if (child.id === parent.id) return "This epic cannot be added. An epic cannot be added to itself.";
  if (child.parentId === parent.id) return "This epic cannot be added. It is already assigned to the parent epic.";
  if (ancestorsOf(state, parent).some((e) => e.id === child.id)) return "This epic cannot be added. It is already an ancestor of the parent epic.";
  if (subtreeDepth(state, child) + ancestorsOf(state, parent).length >= MAX_HIERARCHY_DEPTH) return depthMessage();
  if (!child.confidential && parent.confidential) return "A non-confidential epic cannot be assigned to a confidential parent epic";
  if (childrenOf(state, parent).length >= MAX_CHILDREN_COUNT) return "You cannot add any more epics. This epic already has maximum number of child epics.";
  return undefined;
}

/** Lays the siblings out again, `POSITION_GAP` apart, in their current order (RelativePositioning's rebalancing). */
export function spreadOut(siblings: EpicRecord[]): void {
  siblings.forEach((epic, index) => (epic.relativePosition = (index + 1) * POSITION_GAP));
}

/** `move_to_start` among the children of `parent` (the epic is already linked to it). */
export function moveToStart(state: EmulatorState, epic: EpicRecord, parent: EpicRecord): void {
  const others = childrenOf(state, parent).filter((e) => e.id !== epic.id);
  const first = others[0];
  epic.relativePosition = first ? first.relativePosition - POSITION_GAP : POSITION_GAP;
}

/**
 * `move_between(before, after)`: the epic goes after `before` and before
 * `after`, either of which may be absent. Siblings given the wrong way round
 * are swapped, as RelativePositioning does.
 */
export function moveBetween(state: EmulatorState, epic: EpicRecord, parent: EpicRecord, before?: EpicRecord, after?: EpicRecord): void {
  if (before && after && after.relativePosition < before.relativePosition) [before, after] = [after, before];
  const siblings = childrenOf(state, parent).filter((e) => e.id !== epic.id);
  let lower = before;
  let upper = after;
  if (lower && !upper) upper = siblings[siblings.indexOf(lower) + 1];
  if (upper && !lower) lower = siblings[siblings.indexOf(upper) - 1];
  const low = lower ? lower.relativePosition : (upper?.relativePosition ?? 0) - 2 * POSITION_GAP;
  const high = upper ? upper.relativePosition : low + 2 * POSITION_GAP;
  if (high - low >= 2) {
    epic.relativePosition = Math.floor((low + high) / 2);
    return;
  }
  // No room between the two: spread every sibling out, then place the epic in the gap that opened.
  const order = [...siblings];
  order.splice(lower ? order.indexOf(lower) + 1 : upper ? order.indexOf(upper) : order.length, 0, epic);
  spreadOut(order);
}

// ---------------------------------------------------------------------------
// Entities

/** `EE::API::Entities::Epic`: the documented fields, plus the real entity's `confidential`, `state`, `web_url`, `parent_iid` and `references`. */
export function presentEpic(state: EmulatorState, epic: EpicRecord): Record<string, unknown> {
  const group = groupOf(state, epic);
  const author = state.userById(epic.authorId);
  const host = state.instance.host;
  const fullPath = state.groupFullPath(group);
  const parent = epic.parentId === null ? undefined : epicById(state, epic.parentId);
  return {
    id: epic.id,
    iid: epic.iid,
    group_id: epic.groupId,
    parent_id: epic.parentId,
    parent_iid: parent?.iid ?? null,
    title: epic.title,
    description: epic.description,
    state: "opened",
    confidential: epic.confidential,
    web_url: `https://${host}/groups/${fullPath}/-/epics/${epic.iid}`,
    references: { short: `&${epic.iid}`, relative: `&${epic.iid}`, full: `${fullPath}&${epic.iid}` },
    author: author
      ? { id: author.id, name: author.name, username: author.username, state: "active", avatar_url: null, web_url: `https://${host}/${author.username}` }
      : null,
    start_date: epic.startDate,
    start_date_is_fixed: epic.startDate !== null,
    start_date_fixed: epic.startDate,
    start_date_from_milestones: null,
    start_date_from_inherited_source: null,
    end_date: epic.dueDate,
    due_date: epic.dueDate,
    due_date_is_fixed: epic.dueDate !== null,
    due_date_fixed: epic.dueDate,
    due_date_from_milestones: null,
    due_date_from_inherited_source: null,
    created_at: epic.createdAt,
    updated_at: epic.updatedAt,
    labels: [...epic.labels],
  };
}

/** `EE::API::Entities::LinkedEpic`: the answer of create-and-assign. */
export function presentLinkedEpic(state: EmulatorState, epic: EpicRecord, parent: EpicRecord): Record<string, unknown> {
  const base = `https://${state.instance.host}/groups`;
  const parentGroup = groupOf(state, parent);
  const group = groupOf(state, epic);
  return {
    id: epic.id,
    iid: epic.iid,
    title: epic.title,
    group_id: epic.groupId,
    parent_id: epic.parentId,
    has_children: allEpics(state).some((e) => e.parentId === epic.id),
    has_issues: false,
    // `to_reference(parent's group)`: short within the same group, full across groups.
    reference: group.id === parentGroup.id ? `&${epic.iid}` : `${state.groupFullPath(group)}&${epic.iid}`,
    url: `${base}/${state.groupFullPath(group)}/-/epics/${epic.iid}`,
    relation_url: `${base}/${state.groupFullPath(parentGroup)}/-/epics/${parent.iid}/links/${epic.id}`,
  };
}
