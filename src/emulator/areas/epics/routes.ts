/**
 * Epic links (a deprecated API that is still served): the children of an epic, assigning an existing epic as a
 * child (which removes its previous parent link), creating a child, reordering
 * children, unassigning. The model, the permission rules and their sources are
 * in ./model.ts.
 *
 * Answers, as real servers give them:
 * - Every call: 401 anonymous, then `404 Group Not Found`, then 403 when the
 *   group lacks the licence (`epics`: Premium for the list and unassign;
 *   `subepics`: Ultimate for assign, create and reorder) or the user the role.
 * - A parent epic iid that does not exist: 404 `{"message":"404 Epic Not Found"}`.
 *   Real servers answer 403 there (`authorize!` on a nil epic); the emulator
 *   answers a missing resource 404, as the specification does everywhere.
 * - Assign (POST .../epics/:child_epic_id): 201 with the child (Epic entity).
 *   A child the user cannot see or relate, or that does not exist: 404
 *   `No Epic found for given params`. A link the model refuses (itself,
 *   already a child of this parent, a cycle, deeper than 7 levels, a public
 *   child under a confidential parent, a 101st child): 409 with the model's
 *   message. The child goes first among its new siblings.
 * - Create (POST .../epics): 201 with the LinkedEpic entity; `title` required
 *   (400 `title is missing`); `confidential` defaults to the parent's and is
 *   ignored while the `confidential_epics` flag is off (on unless the seed
 *   sets it false); a public child of a confidential parent is 400
 *   `{"message":{"base":[...]}}`; the depth and children limits are 400
 *   `{"message":{"parent":[...]}}` (model validation errors).
 * - Reorder (PUT): 200 with every child in order. A child that is not a child
 *   of this parent, or a `move_before_id` / `move_after_id` that is not a
 *   sibling: 404 `Epic not found for given params`. Both may be given: the
 *   child goes between them. Neither: nothing moves.
 * - Unassign (DELETE): 200 with the epic, `parent_id` null; a child that is
 *   not a child of this parent: 404 `No Epic found for given params`.
 * - Lists are paginated, as the specification pages every list (real
 *   servers send every child in one answer; at most 100 can be linked).
 * - Paths are served with and without the `-/` GitLab accepts before `epics`.
 *
 * A group's list of epics and a single epic (the epics API) are served as
 * well: their rules are in the functions that answer them.
 */
import { ApiError, forbidden, notFound, validationError } from "../../errors";
import { findGroup } from "../../lookup";
import { timeParam, type DeclaredParams } from "../../params";
import { created, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import type { EmulatorState, Group } from "../../state";
import {
  EPIC_SEQUENCE,
  MAX_CHILDREN_COUNT,
  MAX_HIERARCHY_DEPTH,
  allEpics,
  ancestorsOf,
  canAdminEpicRelation,
  canAdminEpicTree,
  canCreateEpic,
  canReadEpic,
  childrenOf,
  depthMessage,
  epicById,
  epicByIid,
  epicStore,
  epicsLicensed,
  iidSequence,
  linkProblem,
  moveBetween,
  moveToStart,
  presentEpic,
  presentLinkedEpic,
  subepicsLicensed,
  type EpicRecord,
} from "./model";

const NO_EPIC = "No Epic found for given params";
const EPIC_NOT_FOUND = "Epic not found for given params";
const serviceError = (status: number, message: string): ApiError => new ApiError(status, { message });

const epicParams = {
  id: { type: "string", required: true },
  epic_iid: { type: "integer", required: true },
} as const;
const childParams = { ...epicParams, child_epic_id: { type: "integer", required: true } } as const;

type Licence = "epics" | "subepics";

/** authenticate!, find_group!, the group's licence, then the parent epic (`user_group.epics.find_by(iid:)`). */
function parentEpic(ctx: RequestContext<{ epic_iid: number }>, licence: Licence): { group: Group; epic: EpicRecord } {
  requireUser(ctx);
  const group = findGroup(ctx);
  const licensed = licence === "epics" ? epicsLicensed(ctx.state, group) : subepicsLicensed(ctx.state, group);
  if (!licensed) throw forbidden();
  const epic = epicByIid(ctx.state, group, ctx.params.epic_iid);
  if (!epic) throw notFound("Epic");
  return { group, epic };
}

/**
 * `GET /groups/:id/epics/:epic_iid`: anonymous callers
 * may read a public group's epics (`authenticate_non_get!`); 404 group, 403
 * without the `epics` licence, 404 for a missing epic (as the epic links
 * decide it), 403 for one the caller may not read (a confidential epic).
 */
function showEpic(ctx: RequestContext<{ id: string; epic_iid: number }>) {
  const group = findGroup(ctx);
  if (!epicsLicensed(ctx.state, group)) throw forbidden();
  const epic = epicByIid(ctx.state, group, ctx.params.epic_iid);
  if (!epic) throw notFound("Epic");
  if (!canReadEpic(ctx.state, ctx.user, epic)) throw forbidden();
  return ok({ ...presentEpic(ctx.state, epic), subscribed: ctx.user !== null && ctx.user.id === epic.authorId });
}

const listParams = {
  id: { type: "string", required: true },
  author_id: { type: "integer" },
  author_username: { type: "string" },
  labels: { type: "string" },
  order_by: { type: "string", values: ["created_at", "updated_at", "title"] },
  sort: { type: "string", values: ["asc", "desc"] },
  search: { type: "string" },
  state: { type: "string", values: ["opened", "closed", "all"] },
  created_after: { type: "string" },
  created_before: { type: "string" },
  updated_after: { type: "string" },
  updated_before: { type: "string" },
  include_ancestor_groups: { type: "boolean" },
  include_descendant_groups: { type: "boolean" },
  my_reaction_emoji: { type: "string" },
} as const;

type ListParams = DeclaredParams<typeof listParams>;

/** EpicsFinder's filters: every parameter but the groups searched. */
function epicFilter(ctx: RequestContext<ListParams>): (epic: EpicRecord) => boolean {
  const { params, state } = ctx;
  const author = params.author_username === undefined ? undefined : state.userByUsername(params.author_username)?.id ?? -1;
  const labels = params.labels?.split(",").map((label) => label.trim().toLowerCase()).filter((label) => label !== "");
  const [createdAfter, createdBefore] = [timeParam(params.created_after, "created_after"), timeParam(params.created_before, "created_before")];
  const [updatedAfter, updatedBefore] = [timeParam(params.updated_after, "updated_after"), timeParam(params.updated_before, "updated_before")];
  const search = params.search?.toLowerCase();
  // No epic carries award emoji here: `None` matches every epic, `Any` or a name none.
  const reaction = params.my_reaction_emoji;
  return (epic) =>
    (params.author_id === undefined || epic.authorId === params.author_id) &&
    (author === undefined || epic.authorId === author) &&
    (labels === undefined || labels.every((label) => label === "none" ? epic.labels.length === 0 : label === "any" ? epic.labels.length > 0 : epic.labels.some((own) => own.toLowerCase() === label))) &&
    // Every epic is open: `closed` finds none.
    (params.state ?? "all") !== "closed" &&
    (createdAfter === undefined || Date.parse(epic.createdAt) >= createdAfter) &&
    (createdBefore === undefined || Date.parse(epic.createdAt) <= createdBefore) &&
    (updatedAfter === undefined || Date.parse(epic.updatedAt) >= updatedAfter) &&
    (updatedBefore === undefined || Date.parse(epic.updatedAt) <= updatedBefore) &&
    (search === undefined || epic.title.toLowerCase().includes(search) || (epic.description ?? "").toLowerCase().includes(search)) &&
    (reaction === undefined || reaction.toLowerCase() === "none");
}

/**
 * `GET /groups/:id/epics`: the group's epics, its descendants' by default
 * (`include_descendant_groups`), its ancestors' on request, each one the
 * caller may read; ordered by `order_by` (`created_at`) and `sort` (`desc`),
 * then id descending, as EpicsFinder orders them.
 */
function listEpics(ctx: RequestContext<ListParams>) {
  const group = findGroup(ctx);
  if (!epicsLicensed(ctx.state, group)) throw forbidden();
  const { params, state } = ctx;
  const groups = [
    group,
    ...(params.include_descendant_groups === false ? [] : state.descendants(group)),
    ...(params.include_ancestor_groups === true ? state.selfAndAncestors(group).slice(1) : []),
  ];
  const groupIds = new Set(groups.map((one) => one.id));
  const keep = epicFilter(ctx);
  const orderBy = params.order_by ?? "created_at";
  const key = (epic: EpicRecord): string | number => (orderBy === "title" ? epic.title.toLowerCase() : Date.parse(orderBy === "created_at" ? epic.createdAt : epic.updatedAt));
  const direction = params.sort === "asc" ? 1 : -1;
  const epics = allEpics(state)
    .filter((epic) => groupIds.has(epic.groupId) && canReadEpic(state, ctx.user, epic) && keep(epic))
    .sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return (ka < kb ? -1 : ka > kb ? 1 : 0) * direction || b.id - a.id;
    });
  return paginate(ctx, epics, { present: (epic) => presentEpic(state, epic) });
}

/** The children the caller may see (CrossHierarchyChildrenFinder filters by read access). */
const visibleChildren = (ctx: RequestContext<unknown>, parent: EpicRecord): EpicRecord[] =>
  childrenOf(ctx.state, parent).filter((child) => canReadEpic(ctx.state, ctx.user, child));

/** The `child_epic` helper: a visible child of this parent with that global id, or undefined. */
const visibleChild = (ctx: RequestContext<unknown>, parent: EpicRecord, childId: number): EpicRecord | undefined =>
  visibleChildren(ctx, parent).find((child) => child.id === childId);

function touch(state: EmulatorState, epic: EpicRecord): void {
  epic.updatedAt = state.now();
}

function listChildren(ctx: RequestContext<{ id: string; epic_iid: number }>) {
  const { epic } = parentEpic(ctx, "epics");
  if (!canReadEpic(ctx.state, ctx.user, epic)) throw forbidden();
  return paginate(ctx, visibleChildren(ctx, epic), { present: (child) => presentEpic(ctx.state, child) });
}

function assignChild(ctx: RequestContext<{ id: string; epic_iid: number; child_epic_id: number }>) {
  const { epic: parent } = parentEpic(ctx, "subepics");
  if (!canAdminEpicTree(ctx.state, ctx.user, parent)) throw forbidden();
  if (ancestorsOf(ctx.state, parent).length + 1 >= MAX_HIERARCHY_DEPTH) throw serviceError(409, depthMessage());
  const child = epicById(ctx.state, ctx.params.child_epic_id);
  if (!child || !canAdminEpicTree(ctx.state, ctx.user, child)) throw serviceError(404, NO_EPIC);
  const problem = linkProblem(ctx.state, parent, child);
  if (problem) throw serviceError(409, problem);
  // An epic has one parent: the previous parent link, if any, goes with this one.
  child.parentId = parent.id;
  moveToStart(ctx.state, child, parent);
  touch(ctx.state, child);
  return created(presentEpic(ctx.state, child));
}

const createParams = { ...epicParams, title: { type: "string", required: true }, confidential: { type: "boolean" } } as const;

function createChild(ctx: RequestContext<{ id: string; epic_iid: number; title: string; confidential?: boolean }>) {
  const { group, epic: parent } = parentEpic(ctx, "subepics");
  if (!canAdminEpicTree(ctx.state, ctx.user, parent) || !canCreateEpic(ctx.state, ctx.user, group)) throw forbidden();
  const title = ctx.params.title.trim();
  if (title === "") throw validationError({ title: ["can't be blank"] });
  // `confidential_epics` ships enabled (FEATURE_FLAG_DEFAULTS): off only where the seed says so.
  const flagOn = ctx.state.featureEnabled("confidential_epics", group);
  const confidential = flagOn && ctx.params.confidential !== undefined ? ctx.params.confidential : parent.confidential;
  if (parent.confidential && !confidential) {
    throw validationError({ base: ["cannot assign a non-confidential epic to a confidential parent. Make the epic confidential and try again."] });
  }
  if (ancestorsOf(ctx.state, parent).length + 1 >= MAX_HIERARCHY_DEPTH) throw validationError({ parent: [depthMessage()] });
  if (childrenOf(ctx.state, parent).length >= MAX_CHILDREN_COUNT) {
    throw validationError({ parent: ["You cannot add any more epics. This epic already has maximum number of child epics."] });
  }
  const now = ctx.state.now();
  const child: EpicRecord = {
    id: ctx.state.nextId(EPIC_SEQUENCE),
    iid: ctx.state.nextId(iidSequence(group)),
    groupId: group.id,
    parentId: parent.id,
    title,
    description: null,
    authorId: ctx.user!.id,
    labels: [],
    confidential,
    startDate: null,
    dueDate: null,
    createdAt: now,
    updatedAt: now,
    relativePosition: 0,
  };
  epicStore.of(ctx.state).epics.push(child);
  moveToStart(ctx.state, child, parent);
  return created(presentLinkedEpic(ctx.state, child, parent));
}

const reorderParams = { ...childParams, move_before_id: { type: "integer" }, move_after_id: { type: "integer" } } as const;

function reorderChild(ctx: RequestContext<{ id: string; epic_iid: number; child_epic_id: number; move_before_id?: number; move_after_id?: number }>) {
  const { epic: parent } = parentEpic(ctx, "subepics");
  if (!canAdminEpicTree(ctx.state, ctx.user, parent)) throw forbidden();
  const child = visibleChild(ctx, parent, ctx.params.child_epic_id);
  // Epics::EpicLinks::UpdateService: the child must be one the user may relate, and each sibling a child of the same parent.
  if (!child || !canAdminEpicTree(ctx.state, ctx.user, child)) throw serviceError(404, EPIC_NOT_FOUND);
  const { move_before_id: beforeId, move_after_id: afterId } = ctx.params;
  if (beforeId !== undefined || afterId !== undefined) {
    const sibling = (id: number | undefined): EpicRecord | undefined => {
      if (id === undefined) return undefined;
      const found = childrenOf(ctx.state, parent).find((e) => e.id === id);
      if (!found) throw serviceError(404, EPIC_NOT_FOUND);
      return found;
    };
    const before = sibling(beforeId);
    const after = sibling(afterId);
    // Moving next to itself changes nothing.
    if (before?.id !== child.id && after?.id !== child.id) moveBetween(ctx.state, child, parent, before, after);
  }
  return ok(visibleChildren(ctx, parent).map((e) => presentEpic(ctx.state, e)));
}

function unassignChild(ctx: RequestContext<{ id: string; epic_iid: number; child_epic_id: number }>) {
  const { epic: parent } = parentEpic(ctx, "epics");
  if (!canAdminEpicRelation(ctx.state, ctx.user, parent)) throw forbidden();
  const child = visibleChild(ctx, parent, ctx.params.child_epic_id);
  // Epics::EpicLinks::DestroyService: read the parent's relations, administer the child's.
  if (!child || !canAdminEpicRelation(ctx.state, ctx.user, child)) throw serviceError(404, NO_EPIC);
  child.parentId = null;
  touch(ctx.state, child);
  return ok(presentEpic(ctx.state, child));
}

/** Each route under `/groups/:id/epics/...` and `/groups/:id/-/epics/...`, as GitLab's `(-/)` allows. */
function bothForms(build: (base: string) => RouteDefinition): RouteDefinition[] {
  return ["/groups/:id/epics/:epic_iid/epics", "/groups/:id/-/epics/:epic_iid/epics"].map(build);
}

const epicLinkRoutes: RouteDefinition[] = [
  ...bothForms((base) => route("GET", base, { params: epicParams, paginated: true }, listChildren)),
  ...bothForms((base) => route("POST", `${base}/:child_epic_id`, { params: childParams }, assignChild)),
  ...bothForms((base) => route("POST", base, { params: createParams }, createChild)),
  ...bothForms((base) => route("PUT", `${base}/:child_epic_id`, { params: reorderParams }, reorderChild)),
  ...bothForms((base) => route("DELETE", `${base}/:child_epic_id`, { params: childParams }, unassignChild)),
];

const listEpicsRoutes = ["/groups/:id/epics", "/groups/:id/-/epics"].map((path) => route("GET", path, { params: listParams, paginated: true }, listEpics));

const showEpicRoutes = ["/groups/:id/epics/:epic_iid", "/groups/:id/-/epics/:epic_iid"].map((path) => route("GET", path, { params: epicParams }, showEpic));

export const epicsRoutes: readonly RouteDefinition[] = [...epicLinkRoutes, ...listEpicsRoutes, ...showEpicRoutes];

export { epicStore };
