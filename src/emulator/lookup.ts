/**
 * Resolving a `:id` path parameter (an integer id or a URL-encoded full path)
 * to a group or project the caller may see — `find_group!`/`find_project!`.
 * Invisible and missing resources look the same: 404 `404 Group Not Found`
 * or `404 Project Not Found`. A path the resource had before a rename
 * answers 301 to the new path (only for callers who may see it); a write
 * to a project's former path is refused with 405 instead.
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
  /** The answer to a write (not GET or HEAD) through a former path, when it is not the redirect. */
  movedWrite?: () => ApiError;
}

function find<T>(ctx: RequestContext<unknown>, param: string, lookup: Lookup<T>, value = ctx.pathParams[param] ?? ""): T {
  const { state } = ctx;
  const found = INTEGER_ID.test(value) ? lookup.byId(state, Number(value)) : lookup.byPath(state, value);
  if (found !== undefined) {
    if (lookup.canRead(ctx, found)) return found;
    throw notFound(lookup.resourceName);
  }
  if (!INTEGER_ID.test(value)) {
    const currentPath = state.currentPathOf(value);
    const moved = currentPath === undefined ? undefined : lookup.byPath(state, currentPath);
    if (currentPath !== undefined && moved !== undefined && lookup.canRead(ctx, moved)) {
      if (lookup.movedWrite && ctx.method !== "GET" && ctx.method !== "HEAD") throw lookup.movedWrite();
      throw new MovedError(param, currentPath);
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
  movedWrite: () => new ApiError(405, { message: "Non GET methods are not allowed for moved projects" }),
};

/** The group named by path parameter `param` (default `id`), if the caller may read it. */
export const findGroup = (ctx: RequestContext<unknown>, param = "id"): Group => find(ctx, param, groupLookup);

/** The group a parameter names by id (`parent_id`, `group_id`), as `find_group!` finds it: 404 when the caller may not see it. */
export const findGroupNamed = (ctx: RequestContext<unknown>, param: string, value: string | number): Group => find(ctx, param, groupLookup, String(value));

/** The project named by path parameter `param` (default `id`), if the caller may read it. */
export const findProject = (ctx: RequestContext<unknown>, param = "id"): Project => find(ctx, param, projectLookup);
