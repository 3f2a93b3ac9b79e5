/**
 * Lists of projects: ProjectsFinder's filters and orderings, shared by every
 * list (a user's starred projects too), and the two lists of this area,
 * `GET /projects` and `GET /groups/:id/projects`. What each answers, and
 * what it follows, is in the emulator's README ("Lists of projects").
 */
import { canReadProject, groupAccessLevel, projectAccessLevel } from "../../access";
import { findGroup } from "../../lookup";
import { timeParam, type DeclaredParams } from "../../params";
import { paginate, route, type ApiResponse, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Project, type User } from "../../state";
import { starOf, starsOfProject } from "../starring/model";
import { presentBasicProject, presentProject, projectDetails, projectStatistics, type ProjectViewer } from "./present";

export interface ProjectFilters {
  archived?: boolean;
  membership?: boolean;
  owned?: boolean;
  starred?: boolean;
  withIssuesEnabled?: boolean;
  withMergeRequestsEnabled?: boolean;
  minAccessLevel?: number;
  search?: string;
  /** `search_namespaces`: the search also matches the namespace's path. */
  searchNamespaces?: boolean;
  updatedAfter?: number;
  updatedBefore?: number;
  lastActivityAfter?: number;
  lastActivityBefore?: number;
  idAfter?: number;
  idBefore?: number;
  visibility?: string;
  topics?: string[];
}

/** `ProjectsFinder`'s filters; those about the caller apply only to a signed-in caller. */
export function matchesFilters(state: EmulatorState, caller: User | null, project: Project, filters: ProjectFilters): boolean {
  const details = projectDetails(state, project);
  const updated = Date.parse(details.updatedAt);
  const active = Date.parse(details.lastActivityAt);
  const access = projectAccessLevel(state, caller, project);
  const search = filters.search?.toLowerCase();
  const searched = [project.name, project.path, project.description, ...(filters.searchNamespaces ? [state.projectFullPath(project)] : [])];
  const topics = details.topics.map((topic) => topic.toLowerCase());
  const checks: boolean[] = [
    filters.archived === undefined || details.archived === filters.archived,
    filters.visibility === undefined || project.visibility === filters.visibility,
    !filters.withIssuesEnabled || details.issuesEnabled,
    !filters.withMergeRequestsEnabled || details.mergeRequestsEnabled,
    filters.updatedAfter === undefined || updated > filters.updatedAfter,
    filters.updatedBefore === undefined || updated < filters.updatedBefore,
    filters.lastActivityAfter === undefined || active > filters.lastActivityAfter,
    filters.lastActivityBefore === undefined || active < filters.lastActivityBefore,
    filters.idAfter === undefined || project.id > filters.idAfter,
    filters.idBefore === undefined || project.id < filters.idBefore,
    !search || searched.some((text) => text.toLowerCase().includes(search)),
    filters.topics === undefined || filters.topics.every((topic) => topics.includes(topic.toLowerCase())),
  ];
  if (caller) {
    checks.push(
      // `owned_projects`: projects in groups the caller owns.
      !filters.owned || groupAccessLevel(state, caller, state.namespaceOf(project)) >= AccessLevel.Owner,
      // `authorized_projects`: a membership of the project or of a group above it.
      !filters.membership || access > 0,
      filters.minAccessLevel === undefined || access >= filters.minAccessLevel,
      !filters.starred || starOf(state, caller, project) !== undefined,
    );
  }
  return checks.every(Boolean);
}

export const PROJECT_ORDER_BY = ["id", "name", "path", "created_at", "updated_at", "star_count", "last_activity_at"] as const;
/** Orderings by size, which only administrators may ask for (`verify_statistics_order_by_projects!`: others get `created_at`). */
const STATISTICS_ORDER_BY = ["storage_size", "repository_size", "wiki_size", "packages_size"] as const;
type OrderBy = (typeof PROJECT_ORDER_BY)[number] | (typeof STATISTICS_ORDER_BY)[number];

function sortValue(state: EmulatorState, project: Project, orderBy: OrderBy): string | number {
  switch (orderBy) {
    case "id":
      return project.id;
    case "name":
      return project.name.toLowerCase();
    case "path":
      return project.path.toLowerCase();
    case "created_at":
      return Date.parse(project.createdAt);
    case "updated_at":
      return Date.parse(projectDetails(state, project).updatedAt);
    case "last_activity_at":
      return Date.parse(projectDetails(state, project).lastActivityAt);
    case "star_count":
      return starsOfProject(state, project).length;
    default:
      return projectStatistics(project)?.[orderBy] ?? 0;
  }
}

/** `reorder_projects`: the column, then the id in the same direction as the tie-breaker. */
export function orderedProjects(state: EmulatorState, projects: Project[], orderBy: string, sort: string): Project[] {
  const direction = sort === "asc" ? 1 : -1;
  const keyed = projects.map((project) => ({ project, key: sortValue(state, project, orderBy as OrderBy) }));
  keyed.sort((a, b) => direction * ((a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || a.project.id - b.project.id));
  return keyed.map(({ project }) => project);
}

/** A rough similarity to the search: exact name or path first, then prefixes, then the rest; ties by name. */
function bySimilarity(projects: Project[], search: string): Project[] {
  const needle = search.toLowerCase();
  const score = (project: Project): number => {
    const texts = [project.name.toLowerCase(), project.path.toLowerCase()];
    return texts.includes(needle) ? 3 : texts.some((text) => text.startsWith(needle)) ? 2 : 1;
  };
  return [...projects].sort((a, b) => score(b) - score(a) || a.name.localeCompare(b.name) || a.id - b.id);
}

/** `topic`: comma-separated or an array; every one must be on the project. */
function topicsParam(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((part) => String(part).split(","));
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** The parameters of every project list's filters (`filter_params`, `statistics_params`, `simple`). */
export const PROJECT_FILTER_PARAMS = {
  archived: { type: "boolean" },
  visibility: { type: "string", values: ["public", "internal", "private"] },
  search: { type: "string" },
  owned: { type: "boolean" },
  starred: { type: "boolean" },
  simple: { type: "boolean" },
  statistics: { type: "boolean" },
  with_issues_enabled: { type: "boolean" },
  with_merge_requests_enabled: { type: "boolean" },
  with_custom_attributes: { type: "boolean" },
  min_access_level: { type: "integer", values: [5, 10, 15, 20, 30, 40, 50] },
  sort: { type: "string", values: ["asc", "desc"] },
  updated_after: { type: "string" },
  updated_before: { type: "string" },
  last_activity_after: { type: "string" },
  last_activity_before: { type: "string" },
  id_after: { type: "integer" },
  id_before: { type: "integer" },
} as const;

type FilterParams = DeclaredParams<typeof PROJECT_FILTER_PARAMS> & { membership?: boolean; search_namespaces?: boolean };

/** The filters a request asks for. */
export function filtersOf(ctx: RequestContext<FilterParams>): ProjectFilters {
  const { params } = ctx;
  return {
    archived: params.archived,
    membership: params.membership,
    owned: params.owned,
    starred: params.starred,
    withIssuesEnabled: params.with_issues_enabled,
    withMergeRequestsEnabled: params.with_merge_requests_enabled,
    minAccessLevel: params.min_access_level,
    search: params.search,
    searchNamespaces: params.search_namespaces,
    updatedAfter: timeParam(params.updated_after, "updated_after"),
    updatedBefore: timeParam(params.updated_before, "updated_before"),
    lastActivityAfter: timeParam(params.last_activity_after, "last_activity_after"),
    lastActivityBefore: timeParam(params.last_activity_before, "last_activity_before"),
    idAfter: params.id_after,
    idBefore: params.id_before,
    visibility: params.visibility,
    topics: topicsParam(ctx.rawParams["topic"]),
  };
}

/** Keyset pages of project lists: by `id` only, either direction (Gitlab::Pagination::Keyset for Project). */
export const PROJECT_KEYSET = { id: (project: Project) => project.id, orderBy: { id: { value: (project: Project) => project.id, sorts: ["asc", "desc"] as const } } };

// ---------------------------------------------------------------------------
// GET /projects

const listProjectsParams = {
  ...PROJECT_FILTER_PARAMS,
  membership: { type: "boolean" },
  search_namespaces: { type: "boolean" },
  order_by: { type: "string", values: [...PROJECT_ORDER_BY, "similarity", ...STATISTICS_ORDER_BY] },
} as const;

function listProjects(ctx: RequestContext<DeclaredParams<typeof listProjectsParams>>): ApiResponse {
  const { state, user: caller, params } = ctx;
  const matching = state.projects.filter((project) => canReadProject(state, caller, project) && matchesFilters(state, caller, project, filtersOf(ctx)));
  const sizeOrder = (STATISTICS_ORDER_BY as readonly string[]).includes(params.order_by ?? "");
  const orderBy = sizeOrder && !caller?.isAdmin ? "created_at" : (params.order_by ?? "created_at");
  const sort = params.sort ?? "desc";
  const list = orderBy === "similarity" && params.search ? bySimilarity(matching, params.search) : orderedProjects(state, matching, orderBy === "similarity" ? "name" : orderBy, sort);
  const viewer: ProjectViewer = { user: caller, statistics: params.statistics === true, customAttributes: params.with_custom_attributes === true, withAccess: true };
  // Anonymous callers always get the basic entity: `simple` changes nothing for them.
  const basic = caller === null || params.simple === true;
  return paginate({ ...ctx, rawParams: { order_by: "created_at", sort: "desc", ...ctx.rawParams } }, list, {
    present: (project) => (basic ? presentBasicProject(state, project, viewer) : presentProject(state, project, viewer)),
    keyset: PROJECT_KEYSET,
  });
}

const listProjectsRoute = route("GET", "/projects", { params: listProjectsParams, paginated: true }, listProjects);

// ---------------------------------------------------------------------------
// GET /groups/:id/projects

const groupProjectsParams = {
  ...PROJECT_FILTER_PARAMS,
  id: { type: "string", required: true },
  with_shared: { type: "boolean" },
  include_subgroups: { type: "boolean" },
  include_ancestor_groups: { type: "boolean" },
  // `topic` is read as GET /projects reads it: an array, or comma-separated (CommaSeparatedToArray).
  order_by: { type: "string", values: ["id", "name", "path", "created_at", "updated_at", "last_activity_at", "similarity", "star_count"] },
} as const;

function listGroupProjects(ctx: RequestContext<DeclaredParams<typeof groupProjectsParams>>): ApiResponse {
  const { state, user: caller, params } = ctx;
  const group = findGroup(ctx);
  const groups = [group, ...(params.include_subgroups ? state.descendants(group) : []), ...(params.include_ancestor_groups ? state.selfAndAncestors(group).slice(1) : [])];
  const ids = new Set(groups.map((one) => one.id));
  // GroupProjectsFinder: the groups' own projects the caller may see (the emulator shares no project with a group: `with_shared` adds none).
  const matching = state.projects.filter((project) => ids.has(project.namespaceId) && canReadProject(state, caller, project) && matchesFilters(state, caller, project, filtersOf(ctx)));
  const sort = params.sort ?? "desc";
  let list: Project[];
  if (params.order_by === "similarity") {
    // Without a search, by name ascending, then id in `sort`'s direction.
    list = params.search ? bySimilarity(matching, params.search) : [...matching].sort((a, b) => a.name.localeCompare(b.name) || (sort === "asc" ? a.id - b.id : b.id - a.id));
  } else {
    list = orderedProjects(state, matching, params.order_by ?? "created_at", sort);
  }
  const viewer: ProjectViewer = { user: caller, customAttributes: params.with_custom_attributes === true };
  // Offset pages only (`paginate`): a `pagination=keyset` is not read.
  const { pagination: _ignored, ...rawParams } = ctx.rawParams;
  return paginate({ ...ctx, rawParams }, list, {
    present: (project) => (params.simple ? presentBasicProject(state, project, viewer) : presentProject(state, project, viewer)),
  });
}

const listGroupProjectsRoute = route("GET", "/groups/:id/projects", { params: groupProjectsParams, paginated: true }, listGroupProjects);

export const projectListRoutes: readonly RouteDefinition[] = [listProjectsRoute, listGroupProjectsRoute];
