/**
 * ProjectStar: the token's user stars a project. A star has nothing to change: another project replaces it.
 *
 * - create: `GET /user` (who the token's user is), `POST /projects/:id/star`,
 *   then the starrers list searched by that username for `starred_since`.
 *   A project the user had already starred answers 304: the star is taken
 *   over, no error, and recorded as `starredBefore`, so that destroy leaves
 *   it as it found it (a star made by Pulumi is removed, one that was there
 *   before is kept).
 * - read: the starrers list searched by the recorded username, the user
 *   matched by id (a star removed elsewhere reads as gone, so the next `up`
 *   stars again), and the project for its `star_count`.
 * - delete: `POST /projects/:id/unstar`. A 304 means the user has no star
 *   there: already gone, unless the token now belongs to another user, who
 *   cannot remove someone else's star; that is explained.
 *
 * The resource id is `projects/<project id>/starrers/<user id>`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ownerInput } from "./common";
import { apiPath } from "../client";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { ExplainedError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { ownerReference } from "../api/owner";
import { projectPath as projectPathOf } from "../api/projects";
import { CURRENT_USER_PATH, userRequests } from "../api/users";
import { parseStarId, starCountRequests, starId, starPath, starrerRequests, starrersOf, unstarPath, type Starrer as StarrerLive, starIdForm } from "../api/starring";
import { onProject } from "../api/needs";
import { parsedId } from "../api/id-form";

/** What the engine records of a star: the starrer entry, the project's id and star count, and whether it was there before. */
export interface StarLive extends Record<string, unknown> {
  project_id: number;
  star_count: number;
  starred_since: string;
  user: StarrerLive["user"];
  starred_before: boolean;
}

const schema = z.object({
  /** The project to star (numeric id or full path). */
  project: ownerInput(ownerReference),
});

type StarInputs = z.output<typeof schema>;

function parseId(id: string): { projectId: number; userId: number } {
  return parsedId("ProjectStar", starIdForm, id);
}

/** The user's entry among the project's starrers: searched by username (one short page), matched by id. */
function findStarrer(ctx: EngineContext, projectPath: string, user: { id: number; username?: string }): Promise<StarrerLive | undefined> {
  const query = user.username === undefined ? undefined : { search: user.username };
  return starrerRequests.find(ctx.client, starrersOf(projectPath), query, (entry) => entry.user.id === user.id);
}

const isStarrer = (body: unknown): body is StarrerLive => typeof body === "object" && body !== null && "starred_since" in body;
const isProject = (body: unknown): body is { id: number; star_count: number } =>
  typeof body === "object" && body !== null && typeof (body as { id?: unknown }).id === "number" && "star_count" in body;

async function createStar(ctx: EngineContext, args: StarInputs): Promise<{ id: string; live: StarLive }> {
  const me = await userRequests.get(ctx.client, CURRENT_USER_PATH);
  const projectPath = apiPath`/projects/${args.project}`;
  // A POST whose answer is lost is settled by the starrers list: the star is there or it is not.
  const answer = await ctx.client.request<unknown>("POST", starPath(projectPath), { body: {}, findCreated: () => findStarrer(ctx, projectPath, me) });
  const starredBefore = answer.status === 304;
  // The star's answer is the project (with its new star_count), except for a 304 or an answer recovered from the list.
  const project = isProject(answer.body) ? answer.body : await starCountRequests.get(ctx.client, projectPath);
  const entry = isStarrer(answer.body) ? starrerRequests.check(answer.body, `POST ${starPath(projectPath)}`) : await findStarrer(ctx, `/projects/${project.id}`, me);
  if (!entry) {
    throw new ExplainedError(
      `ProjectStar: project ${args.project} accepted the star of ${me.username}, but its starrers list does not show it; it was probably removed at once by someone else. Run \`pulumi up\` again.`,
    );
  }
  const live: StarLive = { project_id: project.id, star_count: project.star_count, starred_since: entry.starred_since, user: entry.user, starred_before: starredBefore };
  return { id: starId(project.id, me.id), live };
}

async function readStar(ctx: EngineContext, id: string, recorded: Record<string, unknown>): Promise<StarLive | undefined> {
  const { projectId, userId } = parseId(id);
  const username = typeof recorded.username === "string" ? recorded.username : undefined;
  const entry = await findStarrer(ctx, `/projects/${projectId}`, { id: userId, username });
  if (!entry) return undefined;
  const project = await starCountRequests.get(ctx.client, projectPathOf(projectId));
  return { project_id: projectId, star_count: project.star_count, starred_since: entry.starred_since, user: entry.user, starred_before: recorded.starredBefore === true };
}

async function deleteStar(ctx: EngineContext, id: string, recorded: Record<string, unknown>): Promise<void> {
  // A star that was there before the first apply stays: destroy leaves the user's stars as it found them.
  if (recorded.starredBefore === true) return;
  const { projectId, userId } = parseId(id);
  const answer = await ctx.client.request<unknown>("POST", unstarPath(`/projects/${projectId}`), { body: {} });
  if (answer.status !== 304) return;
  // 304: the token's user has no star there. Gone already, or the token is another user's now.
  const me = await userRequests.get(ctx.client, CURRENT_USER_PATH);
  if (me.id === userId) return;
  const starrer = typeof recorded.username === "string" ? `${recorded.username} (user ${userId})` : `user ${userId}`;
  throw new ExplainedError(
    `ProjectStar: the star on project ${String(recorded.project ?? projectId)} was made by ${starrer}, but platform:token is now ${me.username}'s; ` +
      `a star can be removed only by the user who made it. Use ${starrer}'s token to destroy it, or \`pulumi state delete\` to leave it.`,
  );
}

export const projectStarDefinition = defineObjectResource({
  name: "ProjectStar",
  words: { noun: "project star" },
  imported: { notImported: "a star is the token's user's own, not part of what the platform's groups and projects hold" },
  onePerOwner: { owner: "project", what: "star on", rule: "a user stars a project once" },
  idForm: starIdForm,
  // A deleted (or no longer visible) project has no star: `404 Project Not Found` reads as gone.
  notFoundSubject: "Project",
  schema,
  // A project given by its path, then by its id, is the same project: removing the old star first keeps the new one.
  deleteBeforeReplace: true,
  // projectId and userId from the id, which stays known in a preview; an id of another form (a test's mock) gives nothing rather than failing the program.
  outputs: {
    /** The project's numeric id. */
    projectId: { value: (live: StarLive) => live.project_id, fromId: (id) => parseStarId(id)?.projectId as number },
    /** The starring user (the token's user when the star was made). */
    userId: { value: (live: StarLive) => live.user.id, fromId: (id) => parseStarId(id)?.userId as number },
    username: (live: StarLive) => live.user.username,
    /** When the star was made (`starred_since`). */
    starredSince: (live: StarLive) => live.starred_since,
    /** The project's star count when last read. */
    starCount: (live: StarLive) => live.star_count,
    /** The user had starred the project before the first apply: destroy keeps the star. */
    starredBefore: (live: StarLive) => live.starred_before,
  },
  // Starring needs only that the token's user can see the project (read_project): any role, or none on a public or internal project.
  // Any role, or none on a public project: only the project's existence is verified at preview.
  needs: (args) => ({ on: onProject(args.project), phrase: "access to the project" }),

  create: createStar,

  read(ctx, id, args) {
    return readStar(ctx, id, args as Record<string, unknown>);
  },

  async update(ctx, id, _args, _changed, olds) {
    // Only `project` is declared, and it replaces: there is nothing to update in place.
    const live = await readStar(ctx, id, olds as Record<string, unknown>);
    if (!live) throw new Error(`ProjectStar ${id} no longer exists; run \`pulumi refresh\`.`);
    return live;
  },

  delete(ctx, id, args) {
    return deleteStar(ctx, id, args as Record<string, unknown>);
  },
});

export type ProjectStarArgs = ResourceArgs<typeof schema>;

/**
 * A star on a project, by the user whose token the provider uses (a team's
 * bot account, say). A star the user had already made is taken over and kept
 * on destroy; a star removed elsewhere is made again by the next `up`.
 *
 * ```ts
 * const star = new ProjectStar("watch-web", { project: "acme/web" });
 * export const stars = star.starCount;
 * ```
 */
export interface ProjectStar extends ResourceOutputs<typeof projectStarDefinition> {}
export class ProjectStar extends PlatformResource {
  static {
    ofKind(this, projectStarDefinition);
  }
  constructor(name: string, args: ProjectStarArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
