/**
 * Project starring: star and unstar a
 * project, list its starrers, list the projects a user starred. The model
 * (stars, private profiles, the `stars` seed section) is in ./model.ts.
 *
 * Where the specification is silent, as real servers answer:
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
import { canReadProject } from "../../access";
import { notFound } from "../../errors";
import { findProject } from "../../lookup";
import type { DeclaredParams } from "../../params";
import { created, paginate, requireUser, route, type ApiResponse, type RequestContext, type RouteDefinition } from "../../router";
import type { EmulatorState, User } from "../../state";
import { presentBasicProject, presentProject, type ProjectViewer } from "../projects";
import { filtersOf, matchesFilters, orderedProjects, PROJECT_FILTER_PARAMS, PROJECT_KEYSET, PROJECT_ORDER_BY } from "../projects/list";
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

const starredProjectParams = {
  ...PROJECT_FILTER_PARAMS,
  user_id: { type: "string", required: true },
  membership: { type: "boolean" },
  order_by: { type: "string", values: PROJECT_ORDER_BY },
} as const;

type StarredProjectsContext = RequestContext<DeclaredParams<typeof starredProjectParams>>;

/** `find_user`: an integer is an id, anything else a username (case-insensitive). */
function findUser(state: EmulatorState, idOrUsername: string): User {
  const user = /^\d+$/.test(idOrUsername) ? state.userById(Number(idOrUsername)) : state.userByUsername(idOrUsername);
  if (!user) throw notFound("User");
  return user;
}

function listStarredProjects(ctx: StarredProjectsContext): ApiResponse {
  const { params } = ctx;
  const filters = filtersOf(ctx);
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
  const orderBy = params.order_by ?? "created_at";
  const sort = params.sort === "asc" ? "asc" : "desc";
  const viewer: ProjectViewer = { user: caller, statistics: params.statistics === true, customAttributes: params.with_custom_attributes === true, withAccess: true };
  // Anonymous callers always get the basic entity: `simple` changes nothing for them.
  const basic = caller === null || params.simple === true;
  return paginate(ctx, orderedProjects(state, matching, orderBy, sort), {
    present: (project) => (basic ? presentBasicProject(state, project, viewer) : presentProject(state, project, viewer)),
    keyset: PROJECT_KEYSET,
  });
}

const starredProjects = route("GET", "/users/:user_id/starred_projects", { params: starredProjectParams, paginated: true }, listStarredProjects);

export const starringRoutes: readonly RouteDefinition[] = [star, unstar, starrers, starredProjects];
