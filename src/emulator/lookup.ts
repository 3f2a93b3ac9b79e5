/**
 * Resolving a `:id` path parameter (an integer id or a URL-encoded full path)
 * to a group or project the caller may see — `find_group!`/`find_project!`.
 * Invisible and missing resources look the same: 404 `404 Group Not Found`
 * or `404 Project Not Found`. A path a project had before a rename or a
 * transfer (its own, or a group's above it) answers a GET with 301 to the
 * same URL under the project's numeric id (only for callers who may see it),
 * and a write with 405. A group's former path is not followed: 404, as
 * `find_group` looks groups up without following redirects.
 */
import { canReadGroup, canReadProject } from "./access";
import { ApiError, MovedError, notFound } from "./errors";
import type { RequestContext } from "./router";
import type { EmulatorState, Group, Project } from "./state";

const INTEGER_ID = /^\d+$/;

interface Lookup<T> {
  resourceName: string;
  byId(state: EmulatorState, id: number): T | undefined;
  byPath(state: EmulatorState, fullPath: string): T | undefined;
  canRead(ctx: RequestContext<unknown>, resource: T): boolean;
  /** How a former path is answered, for a kind looked up following redirects: the URL's replacement, and the answer to a write (not GET or HEAD). */
  moved?: { replacement: (resource: T) => string; write: () => ApiError };
}

function find<T>(ctx: RequestContext<unknown>, param: string, lookup: Lookup<T>, value = ctx.pathParams[param] ?? ""): T {
  const { state } = ctx;
  const found = INTEGER_ID.test(value) ? lookup.byId(state, Number(value)) : lookup.byPath(state, value);
  if (found !== undefined) {
    if (lookup.canRead(ctx, found)) return found;
    throw notFound(lookup.resourceName);
  }
  if (lookup.moved && !INTEGER_ID.test(value)) {
    const currentPath = state.currentPathOf(value);
    const moved = currentPath === undefined ? undefined : lookup.byPath(state, currentPath);
    if (moved !== undefined && lookup.canRead(ctx, moved)) {
      if (ctx.method !== "GET" && ctx.method !== "HEAD") throw lookup.moved.write();
      throw new MovedError(param, lookup.moved.replacement(moved));
    }
  }
  throw notFound(lookup.resourceName);
}

const groupOnly = (group: Group | undefined): Group | undefined => (group?.personalOf === undefined ? group : undefined);

const groupLookup: Lookup<Group> = {
  resourceName: "Group",
  // A personal namespace is no group of the groups API.
  byId: (state, id) => groupOnly(state.groupById(id)),
  byPath: (state, path) => groupOnly(state.groupByFullPath(path)),
  canRead: (ctx, group) => canReadGroup(ctx.state, ctx.user, group),
};

const projectLookup: Lookup<Project> = {
  resourceName: "Project",
  byId: (state, id) => state.projectById(id),
  byPath: (state, path) => state.projectByFullPath(path),
  canRead: (ctx, project) => canReadProject(ctx.state, ctx.user, project),
  moved: { replacement: (project) => String(project.id), write: () => new ApiError(405, { message: "Non GET methods are not allowed for moved projects" }) },
};

/** The group named by path parameter `param` (default `id`), if the caller may read it. */
export const findGroup = (ctx: RequestContext<unknown>, param = "id"): Group => find(ctx, param, groupLookup);

/** The group a parameter names by id (`parent_id`, `group_id`), as `find_group!` finds it: 404 when the caller may not see it. */
export const findGroupNamed = (ctx: RequestContext<unknown>, param: string, value: string | number): Group => find(ctx, param, groupLookup, String(value));

/** The project named by path parameter `param` (default `id`), if the caller may read it. */
export const findProject = (ctx: RequestContext<unknown>, param = "id"): Project => find(ctx, param, projectLookup);
