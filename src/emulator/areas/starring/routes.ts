/**
 * Project starring: star and unstar a
 * project, list its starrers, list the projects a user starred. The model
 * (stars, private profiles, the `stars` seed section) is in ./model.ts.
 *
 * Where the spec is silent, the real server's code was followed (gitlabhq:
 * lib/api/projects.rb, app/finders/starred_projects_finder.rb,
 * app/finders/users_star_projects_finder.rb, app/models/users_star_project.rb,
 * lib/api/entities/user_stars_project.rb, doc/api/project_starring.md):
 * - Writes need a signed-in user (401); the project must be visible to the
 *   caller (404 `404 Project Not Found`); any role, or none on a public or
 *   internal project, may star it: starring needs only `read_project`.
 * - `POST .../star` answers 201 with the project (its new `star_count`), or
 *   **304 Not Modified with no body** when the caller already starred it;
 *   `POST .../unstar` answers 201 with the project, or 304 when the caller
 *   had not starred it (`not_modified!`).
 * - Starrers: `UsersStarProjectsFinder`, in the order stars were made
 *   (offset pagination orders by id when the query has no order); `search`
 *   matches part of the username or name, or the whole email
 *   (`User.search`); users with a private profile are listed only to
 *   themselves and administrators (`with_visible_profile`). Readable by
 *   whoever may read the project, anonymous callers included on public ones.
 * - Starred projects: `StarredProjectsFinder` is a `ProjectsFinder` over the
 *   user's starred projects, so the caller sees only what it may read
 *   (anonymous callers: public projects only); a user whose profile is private
 *   shows none, except to themselves and administrators. `user_id` is an id or
 *   a username (404 `404 User Not Found`). Filters `owned`, `membership`,
 *   `starred` and `min_access_level` are about the caller, and are ignored
 *   for anonymous callers, as ProjectsFinder ignores them. Ordering:
 *   `order_by` (default `created_at`) with `id` as tie-breaker in the same
 *   direction, `sort` default `desc`. Authenticated callers get
 *   `Entities::ProjectWithAccess`, anonymous ones and `simple=true`
 *   `Entities::BasicProjectDetails`; `statistics` for Reporter+,
 *   `custom_attributes` for administrators. Keyset pagination by `id`, as for
 *   project lists.
 */
import { canReadProject, groupAccessLevel, projectAccessLevel } from "../../access";
import { notFound, paramError } from "../../errors";
import { findProject } from "../../lookup";
import type { DeclaredParams } from "../../params";
import { created, paginate, requireUser, route, type ApiResponse, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Project, type User } from "../../state";
import { presentBasicProject, presentProject, projectDetails, type ProjectViewer } from "../projects";
import {
  addStar,
  canReadProfile,
  removeStar,
  starOf,
  starsOfProject,
  starsOfUser,
  type StarRecord,
} from "./model";

const idParam = { id: { type: "string", required: true } } as const;

/** `not_modified!`: 304 with no body. */
const notModified = (): ApiResponse => ({ status: 304 });

// ---------------------------------------------------------------------------
// Star and unstar

const star = route("POST", "/projects/:id/star", { params: idParam }, (ctx) => {
  const user = requireUser(ctx);
  const project = findProject(ctx);
  if (starOf(ctx.state, user, project)) return notModified();
  addStar(ctx.state, user, project, ctx.state.now());
  return created(presentProject(ctx.state, project, { user }));
});

const unstar = route("POST", "/projects/:id/unstar", { params: idParam }, (ctx) => {
  const user = requireUser(ctx);
  const project = findProject(ctx);
  const existing = starOf(ctx.state, user, project);
  if (!existing) return notModified();
  removeStar(ctx.state, existing);
  return created(presentProject(ctx.state, project, { user }));
});

// ---------------------------------------------------------------------------
// Starrers

/** `User.search`: part of the username or name, or the whole email, ignoring case. */
function userMatches(user: User, search: string): boolean {
  const query = search.toLowerCase();
  return user.username.toLowerCase().includes(query) || user.name.toLowerCase().includes(query) || user.email.toLowerCase() === query;
}

/** `Entities::UserStarsProject`: the star's time and the starrer as `Entities::UserBasic`. */
function presentStarrer(state: EmulatorState, star: StarRecord, user: User): Record<string, unknown> {
  return {
    starred_since: star.starredAt,
    user: {
      id: user.id,
      username: user.username,
      name: user.name,
      state: "active",
      avatar_url: null,
      web_url: `https://${state.instance.host}/${user.username}`,
    },
  };
}

const starrers = route("GET", "/projects/:id/starrers", { params: { ...idParam, search: { type: "string" } }, paginated: true }, (ctx) => {
  const project = findProject(ctx);
  const { search } = ctx.params;
  const entries = starsOfProject(ctx.state, project)
    .sort((a, b) => a.id - b.id)
    .flatMap((starRecord) => {
      const user = ctx.state.userById(starRecord.userId);
      return user ? [{ starRecord, user }] : [];
    })
    .filter(({ user }) => canReadProfile(ctx.state, ctx.user, user))
    .filter(({ user }) => !search || userMatches(user, search));
  return paginate(ctx, entries, { present: ({ starRecord, user }) => presentStarrer(ctx.state, starRecord, user) });
});

// ---------------------------------------------------------------------------
// Projects starred by a user

const ORDER_BY = ["id", "name", "path", "created_at", "updated_at", "star_count", "last_activity_at"] as const;
type OrderBy = (typeof ORDER_BY)[number];

const starredProjectParams = {
  user_id: { type: "string", required: true },
  archived: { type: "boolean" },
  membership: { type: "boolean" },
  owned: { type: "boolean" },
  starred: { type: "boolean" },
  statistics: { type: "boolean" },
  simple: { type: "boolean" },
  with_issues_enabled: { type: "boolean" },
  with_merge_requests_enabled: { type: "boolean" },
  with_custom_attributes: { type: "boolean" },
  min_access_level: { type: "integer", values: [5, 10, 15, 20, 30, 40, 50] },
  order_by: { type: "string", values: ORDER_BY },
  sort: { type: "string", values: ["asc", "desc"] },
  search: { type: "string" },
  updated_after: { type: "string" },
  updated_before: { type: "string" },
  visibility: { type: "string", values: ["public", "internal", "private"] },
} as const;

type StarredProjectsContext = RequestContext<DeclaredParams<typeof starredProjectParams>>;

/** `find_user`: an integer is an id, anything else a username (case-insensitive). */
function findUser(state: EmulatorState, idOrUsername: string): User {
  const user = /^\d+$/.test(idOrUsername) ? state.userById(Number(idOrUsername)) : state.userByUsername(idOrUsername);
  if (!user) throw notFound("User");
  return user;
}

/** Grape's DateTime coercion: an unreadable time is `<name> is invalid`. */
function timeParam(raw: unknown, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const time = Date.parse(String(raw));
  if (Number.isNaN(time)) throw paramError(`${name} is invalid`);
  return time;
}

interface StarredProjectFilters {
  archived?: boolean;
  membership?: boolean;
  owned?: boolean;
  starred?: boolean;
  withIssuesEnabled?: boolean;
  withMergeRequestsEnabled?: boolean;
  minAccessLevel?: number;
  search?: string;
  updatedAfter?: number;
  updatedBefore?: number;
  visibility?: string;
}

/** `ProjectsFinder`'s filters; those about the caller apply only to a signed-in caller. */
function matchesFilters(state: EmulatorState, caller: User | null, project: Project, filters: StarredProjectFilters): boolean {
  const details = projectDetails(state, project);
  const updated = Date.parse(details.updatedAt);
  const access = projectAccessLevel(state, caller, project);
  const search = filters.search?.toLowerCase();
  const checks: boolean[] = [
    filters.archived === undefined || details.archived === filters.archived,
    filters.visibility === undefined || project.visibility === filters.visibility,
    !filters.withIssuesEnabled || details.issuesEnabled,
    !filters.withMergeRequestsEnabled || details.mergeRequestsEnabled,
    filters.updatedAfter === undefined || updated > filters.updatedAfter,
    filters.updatedBefore === undefined || updated < filters.updatedBefore,
    !search || [project.name, project.path, project.description].some((text) => text.toLowerCase().includes(search)),
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
  }
}

/** `reorder_projects`: the column, then the id in the same direction as the tie-breaker. */
function ordered(state: EmulatorState, projects: Project[], orderBy: OrderBy, sort: "asc" | "desc"): Project[] {
  const direction = sort === "asc" ? 1 : -1;
  const keyed = projects.map((project) => ({ project, key: sortValue(state, project, orderBy) }));
  keyed.sort((a, b) => direction * ((a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || a.project.id - b.project.id));
  return keyed.map(({ project }) => project);
}

function listStarredProjects(ctx: StarredProjectsContext): ApiResponse {
  const { params } = ctx;
  const filters: StarredProjectFilters = {
    archived: params.archived,
    membership: params.membership,
    owned: params.owned,
    starred: params.starred,
    withIssuesEnabled: params.with_issues_enabled,
    withMergeRequestsEnabled: params.with_merge_requests_enabled,
    minAccessLevel: params.min_access_level,
    search: params.search,
    updatedAfter: timeParam(params.updated_after, "updated_after"),
    updatedBefore: timeParam(params.updated_before, "updated_before"),
    visibility: params.visibility,
  };
  const { state, user: caller } = ctx;
  const target = findUser(state, params.user_id);
  // StarredProjectsFinder: no stars at all of a private profile, except for its owner and administrators.
  const starredProjects = canReadProfile(state, caller, target)
    ? starsOfUser(state, target).flatMap((starRecord) => {
        const project = state.projectById(starRecord.projectId);
        return project && canReadProject(state, caller, project) ? [project] : [];
      })
    : [];
  const matching = starredProjects.filter((project) => matchesFilters(state, caller, project, filters));
  const orderBy = (params.order_by as OrderBy | undefined) ?? "created_at";
  const sort = params.sort === "asc" ? "asc" : "desc";
  const viewer: ProjectViewer = { user: caller, statistics: params.statistics === true, customAttributes: params.with_custom_attributes === true, withAccess: true };
  // Anonymous callers always get the basic entity: `simple` changes nothing for them.
  const basic = caller === null || params.simple === true;
  return paginate(ctx, ordered(state, matching, orderBy, sort), {
    present: (project) => (basic ? presentBasicProject(state, project, viewer) : presentProject(state, project, viewer)),
    keyset: { id: (project) => project.id, orderBy: { id: { value: (project) => project.id, sorts: ["asc", "desc"] } } },
  });
}

const starredProjects = route("GET", "/users/:user_id/starred_projects", { params: starredProjectParams, paginated: true }, listStarredProjects);

export const starringRoutes: readonly RouteDefinition[] = [star, unstar, starrers, starredProjects];
