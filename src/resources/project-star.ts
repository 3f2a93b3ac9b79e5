/**
 * ProjectStar: the token's user stars a project.
 *
 * - create asks who the token's user is, stars the project, and reads the
 *   star back from the project's starrers (searched by username) for its
 *   time. A project the user had already starred (304) is taken over: its
 *   star is recorded as `starredBefore`, and destroy leaves it.
 * - refresh reads the star and the project's current star count; a star
 *   removed elsewhere, or a deleted project, reads as gone.
 * - delete unstars. A 304 means there was no star of the token's user: gone,
 *   when the token's user made the star; an error naming both users when the
 *   token is now another user's, who could never remove it.
 * - another project replaces the star (the old one goes first: a path and an
 *   id may name one project).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiError } from "../client";
import { countDeclaration, declarationKey } from "../engine/declarations";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { ExplainedError } from "../engine/errors";
import { PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { ownerReference } from "../api/owner";
import { projectCalls, projectPath, type Project } from "../api/projects";
import { parseStarId, starId, starNeeds, starPath, starrerCalls, starrersOf, unstarPath, type Starrer } from "../api/starring";
import { CURRENT_USER_PATH, userCalls, type User } from "../api/users";

/** The star as the starrers list shows it, with what the resource adds from the project and the star's answer. */
type StarLive = Starrer & { project_id: number; star_count: number; starred_before: boolean };

const schema = z.object({
  /** The project to star (numeric id or full path). */
  project: ownerReference,
});

const currentUser = (ctx: EngineContext): Promise<User> => userCalls.get(ctx.client, CURRENT_USER_PATH);

/** The user's star among the project's starrers (searched by username), or undefined. */
const starOf = (ctx: EngineContext, projectId: number, user: { id: number; username: string }): Promise<Starrer | undefined> =>
  starrerCalls.find(ctx.client, starrersOf(projectPath(projectId)), { search: user.username }, (entry) => entry.user.id === user.id);

async function createStar(ctx: EngineContext, args: { project: string | number }) {
  const user = await currentUser(ctx);
  const path = starPath(args.project);
  const answer = await ctx.client.request<unknown>("POST", path, { body: {} });
  const starredBefore = answer.status === 304;
  const project: Project = starredBefore ? await projectCalls.get(ctx.client, projectPath(args.project)) : projectCalls.check(answer.body, `POST ${path}`);
  const star = await starOf(ctx, project.id, user);
  if (!star) throw new ExplainedError(`ProjectStar: project ${args.project} was starred, but user ${user.username}'s star is not among its starrers.`);
  const live: StarLive = { ...star, project_id: project.id, star_count: project.star_count ?? 0, starred_before: starredBefore };
  return { id: starId(project.id, user.id), live };
}

async function readStar(ctx: EngineContext, id: string, recorded: Record<string, unknown>): Promise<StarLive | undefined> {
  const { projectId, userId } = idParts(id);
  try {
    const star = await starOf(ctx, projectId, { id: userId, username: String(recorded.username) });
    if (!star) return undefined;
    const project = await projectCalls.get(ctx.client, projectPath(projectId));
    return { ...star, project_id: projectId, star_count: project.star_count ?? 0, starred_before: recorded.starredBefore === true };
  } catch (error) {
    // The project is gone (or hidden now): so is the star.
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

async function deleteStar(ctx: EngineContext, id: string, recorded: Record<string, unknown>): Promise<void> {
  // A star the user had made before this resource is theirs to keep.
  if (recorded.starredBefore === true) return;
  const { projectId, userId } = idParts(id);
  const answer = await ctx.client.request<unknown>("POST", unstarPath(projectId), { body: {} });
  if (answer.status !== 304) return;
  const user = await currentUser(ctx);
  if (user.id === userId) return;
  throw new ExplainedError(
    `ProjectStar: the star on project ${String(recorded.project)} was made by ${String(recorded.username)} (user ${userId}), but platform:token is now ${user.username}'s, ` +
      `who cannot remove another user's star. Set the token of ${String(recorded.username)} to destroy it, or remove the resource from the state.`,
  );
}

function idParts(id: string): { projectId: number; userId: number } {
  const parts = parseStarId(id);
  if (!parts) throw new Error(`ProjectStar id "${id}" is not of the form projects/<project id>/starrers/<user id>.`);
  return parts;
}

export const projectStarDefinition = defineObjectResource({
  name: "ProjectStar",
  schema,
  fields: {
    project: { local: true, replaceOnChange: true },
  },
  outputs: {
    /** The project's numeric id. */
    projectId: { value: (live: StarLive) => live.project_id, fromId: (id) => parseStarId(id)?.projectId as number },
    /** The numeric id of the user who starred it (the token's user). */
    userId: { value: (live: StarLive) => live.user.id, fromId: (id) => parseStarId(id)?.userId as number },
    /** The username of the user who starred it. */
    username: (live: StarLive) => live.user.username,
    /** When the star was made (`starred_since`). */
    starredSince: (live: StarLive) => live.starred_since,
    /** The project's number of stars, as last read. */
    starCount: (live: StarLive) => live.star_count,
    /** The user had starred the project before this resource: destroy leaves that star. */
    starredBefore: (live: StarLive) => live.starred_before,
  },
  needs: (args) => starNeeds(args.project),
  deleteBeforeReplace: true,

  create: createStar,
  read: (ctx, id, args) => readStar(ctx, id, args),
  delete: (ctx, id, args) => deleteStar(ctx, id, args),
});

export type ProjectStarArgs = ResourceArgs<typeof schema>;

/**
 * A star of the token's user on a project. A project the user already
 * starred is taken over, and destroy leaves that star.
 *
 * ```ts
 * new ProjectStar("web", { project: "acme/web" });
 * ```
 */
export interface ProjectStar extends ResourceOutputs<typeof projectStarDefinition> {}
export class ProjectStar extends PlatformResource {
  constructor(name: string, args: ProjectStarArgs, opts?: pulumi.CustomResourceOptions) {
    // One user stars a project once: a second declaration would unstar the first one's star on destroy.
    countDeclaration(
      "star-per-project",
      declarationKey(args.project, args.connection),
      1,
      () => `ProjectStar ${name}: project: the program declares a second star on project ${String(args.project)}; a user stars a project once.`,
    );
    super(projectStarDefinition, name, args, opts);
  }
}
