/**
 * `GET /groups`: its filters, orderings and both kinds of pages.
 *
 * Where the specification is silent, as real servers answer:
 * - Who sees what: anonymous callers get public groups only; `owned`, then
 *   `min_access_level`, take precedence over `all_available`, whose default is
 *   true for administrators (`can_read_all_resources?`) and false for others
 *   (then only groups the caller is a member of, memberships inherited).
 * - `skip_groups` takes `skip_groups[]=1` or a comma-separated `1,2`.
 * - `order_by` name (default), path (the group's own path column), id or
 *   similarity (with `search` only: best match first; without it, name); `id`
 *   ascending always breaks ties, whatever `sort` says.
 * - `statistics`, `with_custom_attributes`, `custom_attributes[key]=value`
 *   and `repository_storage` are administrators' (others' are ignored, as the
 *   real helpers drop them); `repository_storage` also needs Premium or the
 *   hosted offering (an EE finder parameter).
 * - Keyset pagination only for anonymous callers and only by name ascending
 *   (405 otherwise); signed-in callers always get offset pages, even when they
 *   send `pagination=keyset` (`present_groups` paginates by offset).
 *   Anonymous offset pages stop at the instance's maximum offset
 *   (`offset_pagination_limit`, 50,000 by default): 405 past it.
 */
import { groupAccessLevel, canReadGroup } from "../../access";
import { ApiError, paramError } from "../../errors";
import { isKeysetRequest, readOffsetPageRequest } from "../../pagination";
import { findGroup } from "../../lookup";
import { paginate, route, type RequestContext } from "../../router";
import { AccessLevel, type EmulatorState, type Group, type User } from "../../state";
import { detailsOf, isActive } from "./model";

/** How a group is shown in the list (`presentGroup` of groups.ts, passed in so the two modules do not import each other). */
export type GroupPresenter = (state: EmulatorState, group: Group, options: { statistics: boolean; customAttributes: boolean }) => Record<string, unknown>;

/** `offset_pagination_limit`'s default (ApplicationSetting). */
export const MAX_UNAUTHENTICATED_OFFSET = 50_000;

const listParams = {
  all_available: { type: "boolean" },
  search: { type: "string" },
  order_by: { type: "string", values: ["name", "path", "id", "similarity"] },
  sort: { type: "string", values: ["asc", "desc"] },
  statistics: { type: "boolean" },
  visibility: { type: "string", values: ["private", "internal", "public"] },
  with_custom_attributes: { type: "boolean" },
  owned: { type: "boolean" },
  min_access_level: { type: "integer", values: [5, 10, 15, 20, 30, 40, 50] },
  top_level_only: { type: "boolean" },
  repository_storage: { type: "string" },
  marked_for_deletion_on: { type: "string" },
  active: { type: "boolean" },
  archived: { type: "boolean" },
  custom_attributes: { type: "hash" },
} as const;

type ListParams = {
  all_available?: boolean;
  search?: string;
  order_by?: string;
  sort?: string;
  owned?: boolean;
  min_access_level?: number;
  visibility?: string;
  top_level_only?: boolean;
  repository_storage?: string;
  marked_for_deletion_on?: string;
  active?: boolean;
  archived?: boolean;
  custom_attributes?: Record<string, unknown>;
};

/** `CommaSeparatedToIntegerArray`: `skip_groups[]=1&skip_groups[]=2` or `skip_groups=1,2`. */
function readSkipGroups(raw: unknown): number[] {
  if (raw === undefined || raw === null || raw === "") return [];
  const parts = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : [raw];
  return parts.map((part) => {
    const text = String(part).trim();
    if (!/^\d+$/.test(text)) throw paramError("skip_groups is invalid");
    return Number(text);
  });
}

/** A Grape `Date`: `YYYY-MM-DD` (a full timestamp is cut to its date). */
function readDate(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(value.trim());
  if (!match || Number.isNaN(Date.parse(match[1]!))) throw paramError(`${name} is invalid`);
  return match[1];
}

/** The groups the caller may list before the filters: `GroupsFinder`'s starting set. */
function visibleGroups(state: EmulatorState, user: User | null, params: ListParams): Group[] {
  const groups = state.groups.filter((group) => group.personalOf === undefined);
  if (!user) return groups.filter((group) => group.visibility === "public");
  const readable = groups.filter((group) => canReadGroup(state, user, group));
  const level = (group: Group): number => groupAccessLevel(state, user, group);
  if (params.owned) return readable.filter((group) => level(group) >= AccessLevel.Owner);
  if (params.min_access_level !== undefined) return readable.filter((group) => level(group) >= params.min_access_level!);
  if (params.all_available ?? user.isAdmin) return readable;
  return readable.filter((group) => level(group) > 0);
}

/** The filters of the parameter table, in the finder's order. */
function filterGroups(ctx: RequestContext<unknown>, groups: Group[], params: ListParams, skip: number[]): Group[] {
  const { state, user } = ctx;
  const admin = user?.isAdmin === true;
  const premiumOrHosted = state.instance.offering === "hosted" || state.instance.tier !== "free";
  const markedOn = readDate(params.marked_for_deletion_on, "marked_for_deletion_on");
  const wantedAttributes = admin ? Object.entries(params.custom_attributes ?? {}) : [];
  const needle = params.search?.toLowerCase();
  return groups.filter((group) => {
    const details = detailsOf(state, group);
    if (skip.includes(group.id)) return false;
    if (params.visibility && group.visibility !== params.visibility) return false;
    if (params.top_level_only && group.parentId !== null) return false;
    if (needle && !group.name.toLowerCase().includes(needle) && !group.path.toLowerCase().includes(needle)) return false;
    if (params.archived !== undefined && details.archived !== params.archived) return false;
    if (params.active !== undefined && isActive(state, group) !== params.active) return false;
    if (markedOn !== undefined && details.markedForDeletionOn !== markedOn) return false;
    if (admin && premiumOrHosted && params.repository_storage !== undefined && details.repositoryStorage !== params.repository_storage) return false;
    return wantedAttributes.every(([key, value]) => details.customAttributes[key] === String(value));
  });
}

/** A rough similarity to the search: exact name or path first, then prefixes, then the rest. */
function similarity(group: Group, search: string): number {
  const needle = search.toLowerCase();
  if (group.path.toLowerCase() === needle || group.name.toLowerCase() === needle) return 3;
  if (group.path.toLowerCase().startsWith(needle) || group.name.toLowerCase().startsWith(needle)) return 2;
  return 1;
}

/** `order_groups`: the column in `sort`'s direction, then id ascending. */
function orderGroups(groups: Group[], params: ListParams): Group[] {
  const search = params.search ?? "";
  if (params.order_by === "similarity" && search !== "") {
    // sorted_by_similarity_and_parent_id_desc: best match first, then the deepest parents, then id.
    return [...groups].sort((a, b) => similarity(b, search) - similarity(a, search) || (b.parentId ?? 0) - (a.parentId ?? 0) || a.id - b.id);
  }
  const column = params.order_by === "id" ? "id" : params.order_by === "path" ? "path" : "name";
  const direction = params.sort === "desc" ? -1 : 1;
  const key = (group: Group): string | number => (column === "id" ? group.id : column === "path" ? group.path.toLowerCase() : group.name.toLowerCase());
  return [...groups].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return direction * (ka < kb ? -1 : ka > kb ? 1 : 0) || a.id - b.id;
  });
}

/** Offset pagination's cap for anonymous lists of groups (`offset_limit_exceeded?`). */
function checkOffsetLimit(ctx: RequestContext<unknown>): void {
  if (ctx.user || isKeysetRequest(ctx.rawParams)) return;
  const { page, perPage } = readOffsetPageRequest(ctx.rawParams);
  if (page * perPage > MAX_UNAUTHENTICATED_OFFSET) {
    throw new ApiError(405, {
      error:
        `Offset pagination has a maximum allowed offset of ${MAX_UNAUTHENTICATED_OFFSET} for requests that return objects of type Group. ` +
        "Remaining records can be retrieved using keyset pagination.",
    });
  }
}

/** The route, showing each group with `present`. */
export const listGroupsRoute = (presentGroup: GroupPresenter) => route("GET", "/groups", { paginated: true, params: listParams }, (ctx) => {
  const { state, user, params } = ctx;
  const skip = readSkipGroups(ctx.rawParams["skip_groups"]);
  const groups = orderGroups(filterGroups(ctx, visibleGroups(state, user, params), params, skip), params);
  const present = presenter(ctx, presentGroup, params);
  if (user) return offsetPages(ctx, groups, present);
  checkOffsetLimit(ctx);
  // Grape's defaults (order_by name, sort asc) make a bare `pagination=keyset` a keyset request by name.
  return paginate({ ...ctx, rawParams: { order_by: "name", sort: "asc", ...ctx.rawParams } }, groups, {
    present,
    keyset: { id: (group) => group.id, orderBy: { name: { value: (group) => group.name.toLowerCase(), sorts: ["asc"] } } },
  });
});

function presenter(ctx: RequestContext<unknown>, presentGroup: GroupPresenter, params: { statistics?: boolean; with_custom_attributes?: boolean }) {
  const admin = ctx.user?.isAdmin === true;
  return (group: Group) =>
    presentGroup(ctx.state, group, { statistics: admin && params.statistics === true, customAttributes: admin && params.with_custom_attributes === true });
}

/** Offset pages whatever the request asks (`present_groups` paginates by offset): a `pagination=keyset` is not read. */
function offsetPages(ctx: RequestContext<unknown>, groups: Group[], present: (group: Group) => unknown) {
  const { pagination: _ignored, ...rawParams } = ctx.rawParams;
  return paginate({ ...ctx, rawParams }, groups, { present });
}

/**
 * `GET /groups/:id/subgroups` (the group's children) and
 * `GET /groups/:id/descendant_groups` (every group below it): `find_groups`
 * with the group as parent, so the same visibility and filters as `GET
 * /groups` (a signed-in non-administrator without `all_available` sees only
 * groups they belong to), except that `top_level_only` replaces the parent;
 * offset pages only. A group the caller may not read is 404.
 */
export const listGroupsBelowRoute = (presentGroup: GroupPresenter, depth: "subgroups" | "descendant_groups") =>
  route("GET", `/groups/:id/${depth}`, { paginated: true, params: { id: { type: "string", required: true }, ...listParams } }, (ctx) => {
    const { state, user, params } = ctx;
    const parent = findGroup(ctx);
    const skip = readSkipGroups(ctx.rawParams["skip_groups"]);
    const below = new Set((depth === "subgroups" ? state.groups.filter((group) => group.parentId === parent.id) : state.descendants(parent)).map((group) => group.id));
    const candidates = visibleGroups(state, user, params).filter((group) => params.top_level_only || below.has(group.id));
    const groups = orderGroups(filterGroups(ctx, candidates, params, skip), params);
    return offsetPages(ctx, groups, presenter(ctx, presentGroup, params));
  });
