/**
 * The starring routes. Star and unstar follow lib/api/projects.rb (`star`,
 * `unstar`): 201 with `Entities::Project`, 304 with no body when nothing
 * changes. Starrers follow `starrers` (lib/api/projects.rb, `UsersStarProjectsFinder`):
 * `search` matches part of a username or name or a whole email, and users with a
 * private profile are shown only to themselves and administrators. Starred
 * projects follow lib/api/users.rb and lib/api/helpers/projects_helpers.rb's
 * project filters, the finder's ordering (default `created_at` desc, `id` the
 * tie-breaker) and the project entities (basic for anonymous callers and `simple`).
 */
import { canReadProject, projectAccessLevel } from "../../access";
import { notFound, paramError } from "../../errors";
import { findProject } from "../../lookup";
import { created, paginate, requireUser, route, type RequestContext } from "../../router";
import type { EmulatorState, Project, User } from "../../state";
import { presentBasicProject, presentProject, projectDetails, type ProjectViewer } from "../projects";
import { addStar, removeStar, showsStarsOf, starCountOf, starOf, starringStore, type StarRecord } from "./model";

const notModified = () => ({ status: 304 });

/** `POST /projects/:id/star` and `/unstar`: `change` says whether the star changed. */
function starRoute(verb: "star" | "unstar", change: (state: EmulatorState, user: User, project: Project) => boolean) {
  return route("POST", `/projects/:id/${verb}`, { params: { id: { type: "string", required: true } } }, (ctx) => {
    const user = requireUser(ctx);
    const project = findProject(ctx);
    if (!change(ctx.state, user, project)) return notModified();
    return created(presentProject(ctx.state, project, { user }));
  });
}

function presentStarrer(state: EmulatorState, star: StarRecord, user: User): Record<string, unknown> {
  return {
    starred_since: star.starredAt,
    user: { id: user.id, username: user.username, name: user.name, state: "active", avatar_url: null, web_url: `https://${state.instance.host}/${user.username}` },
  };
}

function matchesSearch(user: User, search: string | undefined): boolean {
  if (search === undefined || search === "") return true;
  const text = search.toLowerCase();
  return user.username.toLowerCase().includes(text) || user.name.toLowerCase().includes(text) || user.email.toLowerCase() === text;
}

const starrers = route(
  "GET",
  "/projects/:id/starrers",
  { params: { id: { type: "string", required: true }, search: { type: "string" } }, paginated: true },
  (ctx) => {
    const project = findProject(ctx);
    const entries = starringStore
      .of(ctx.state)
      .stars.filter((star) => star.projectId === project.id && showsStarsOf(ctx.state, ctx.user, star.userId))
      .sort((a, b) => Date.parse(a.starredAt) - Date.parse(b.starredAt))
      .map((star) => ({ star, user: ctx.state.userById(star.userId)! }))
      .filter(({ user }) => matchesSearch(user, ctx.params.search));
    return paginate(ctx, entries, { present: ({ star, user }) => presentStarrer(ctx.state, star, user) });
  },
);

// ---------------------------------------------------------------------------
// A user's starred projects

const ORDER_COLUMNS = ["id", "name", "path", "created_at", "updated_at", "last_activity_at", "star_count"] as const;
const ACCESS_LEVELS = [5, 10, 15, 20, 30, 40, 50] as const;

const starredProjectsParams = {
  user_id: { type: "string", required: true },
  order_by: { type: "string", values: ORDER_COLUMNS },
  sort: { type: "string", values: ["asc", "desc"] },
  visibility: { type: "string", values: ["private", "internal", "public"] },
  search: { type: "string" },
  archived: { type: "boolean" },
  owned: { type: "boolean" },
  membership: { type: "boolean" },
  starred: { type: "boolean" },
  simple: { type: "boolean" },
  statistics: { type: "boolean" },
  with_custom_attributes: { type: "boolean" },
  with_issues_enabled: { type: "boolean" },
  with_merge_requests_enabled: { type: "boolean" },
  min_access_level: { type: "integer", values: ACCESS_LEVELS },
  updated_after: { type: "string" },
  updated_before: { type: "string" },
} as const;

type StarredContext = RequestContext<{ [K in keyof typeof starredProjectsParams]?: unknown }>;
type Params = StarredContext["params"];

function timeParam(params: Params, name: "updated_after" | "updated_before"): number | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  const time = Date.parse(String(value));
  if (Number.isNaN(time)) throw paramError(`${name} is invalid`);
  return time;
}

function targetUser(ctx: StarredContext): User {
  const ref = ctx.pathParams.user_id ?? "";
  const user = /^\d+$/.test(ref) ? ctx.state.userById(Number(ref)) : ctx.state.userByUsername(ref);
  if (!user) throw notFound("User");
  return user;
}

/** The filters about the project itself. */
function projectFilter(ctx: StarredContext): (project: Project) => boolean {
  const { state, params } = ctx;
  const after = timeParam(params, "updated_after");
  const before = timeParam(params, "updated_before");
  const search = typeof params.search === "string" ? params.search.toLowerCase() : undefined;
  return (project) => {
    const details = projectDetails(state, project);
    const updated = Date.parse(details.updatedAt);
    if (params.visibility !== undefined && project.visibility !== params.visibility) return false;
    if (search && ![project.name, project.path, project.description ?? ""].some((text) => text.toLowerCase().includes(search))) return false;
    if (params.archived !== undefined && details.archived !== params.archived) return false;
    if (params.with_issues_enabled === true && !details.issuesEnabled) return false;
    if (params.with_merge_requests_enabled === true && !details.mergeRequestsEnabled) return false;
    return (after === undefined || updated > after) && (before === undefined || updated < before);
  };
}

/** The filters about the caller; ignored for anonymous callers. */
function callerFilter(ctx: StarredContext): (project: Project) => boolean {
  const { state, params, user } = ctx;
  if (!user) return () => true;
  return (project) => {
    const level = projectAccessLevel(state, user, project);
    if (params.owned === true && level < 50) return false;
    if (params.membership === true && level <= 0) return false;
    if (params.min_access_level !== undefined && level < Number(params.min_access_level)) return false;
    return params.starred !== true || starOf(state, user, project) !== undefined;
  };
}

function orderValue(state: EmulatorState, project: Project, column: string): string | number {
  const details = projectDetails(state, project);
  const values: Record<string, string | number> = {
    id: project.id,
    name: project.name.toLowerCase(),
    path: project.path.toLowerCase(),
    created_at: project.createdAt,
    updated_at: details.updatedAt,
    last_activity_at: details.lastActivityAt,
    star_count: starCountOf(state, project),
  };
  return values[column]!;
}

function ordered(state: EmulatorState, projects: Project[], column: string, sort: string): Project[] {
  const direction = sort === "asc" ? 1 : -1;
  return projects.sort((a, b) => {
    const [x, y] = [orderValue(state, a, column), orderValue(state, b, column)];
    return direction * (x < y ? -1 : x > y ? 1 : a.id - b.id);
  });
}

const starredProjects = route("GET", "/users/:user_id/starred_projects", { params: starredProjectsParams, paginated: true }, (ctx) => {
  const { state, user: caller, params } = ctx;
  const owner = targetUser(ctx);
  const shown = showsStarsOf(state, caller, owner.id) ? starringStore.of(state).stars.filter((star) => star.userId === owner.id) : [];
  const [byProject, byCaller] = [projectFilter(ctx), callerFilter(ctx)];
  const projects = shown
    .map((star) => state.projectById(star.projectId))
    .filter((project): project is Project => project !== undefined && canReadProject(state, caller, project) && byProject(project) && byCaller(project));
  const viewer: ProjectViewer = { user: caller, statistics: params.statistics === true, customAttributes: params.with_custom_attributes === true, withAccess: true };
  const basic = caller === null || params.simple === true;
  return paginate(ctx, ordered(state, projects, String(params.order_by ?? "created_at"), String(params.sort ?? "desc")), {
    present: (project) => (basic ? presentBasicProject(state, project, viewer) : presentProject(state, project, viewer)),
    keyset: { id: (project) => project.id, orderBy: { id: { value: (project) => project.id, sorts: ["asc", "desc"] } } },
  });
});

export const starringRoutes = [starRoute("star", addStar), starRoute("unstar", removeStar), starrers, starredProjects];
