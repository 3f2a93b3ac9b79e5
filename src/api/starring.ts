/**
 * Project starring: `POST /projects/:id/star` and `/unstar` (the project, or
 * 304 with no body when nothing changes), a project's starrers
 * (`/projects/:id/starrers`) and a user's starred projects
 * (`/users/:user_id/starred_projects`).
 */
import { z } from "zod";
import { apiPath } from "../client";
import { callsOf } from "./core";
import { onProject, type NamedOwner } from "./owner";
import { projectPath } from "./projects";

/** A user as a starrer list shows one (`Entities::UserBasic`). */
export const starringUser = z.looseObject({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  state: z.string(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});

/** One entry of a project's starrers: who starred it, and when. */
export const starrer = z.looseObject({
  starred_since: z.string(),
  user: starringUser,
});
export type Starrer = z.output<typeof starrer>;
export const starrerCalls = callsOf(starrer);

/** A project in a user's starred list: the full entity, or the basic one for anonymous callers and `simple`. */
export const starredProject = z.looseObject({
  id: z.number(),
  name: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  name_with_namespace: z.string(),
  star_count: z.number(),
  visibility: z.string().optional(),
  namespace: z.looseObject({ id: z.number(), full_path: z.string(), kind: z.string() }),
  statistics: z.looseObject({ commit_count: z.number(), repository_size: z.number(), storage_size: z.number() }).optional(),
});
export type StarredProject = z.output<typeof starredProject>;

/** `/projects/acme%2Fweb/star`. */
export const starPath = (project: string | number): string => `${projectPath(project)}/star`;
/** `/projects/acme%2Fweb/unstar`. */
export const unstarPath = (project: string | number): string => `${projectPath(project)}/unstar`;
/** `/projects/acme%2Fweb/starrers`. */
export const starrersPath = (project: string | number): string => starrersOf(projectPath(project));
/** The starrers of the project at `projectApiPath` (`/projects/1` → `/projects/1/starrers`). */
export const starrersOf = (projectApiPath: string): string => `${projectApiPath}/starrers`;
/** `/users/alice/starred_projects`. */
export const starredProjectsPath = (user: string | number): string => apiPath`/users/${user}/starred_projects`;

const USER_FORM = "a user id or a username";
const USER_RULE = `must be ${USER_FORM}`;

/** A user named by numeric id or username. */
export const userReference = z.union(
  [z.number().int({ message: USER_RULE }).positive({ message: USER_RULE }), z.string().regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/, { message: USER_RULE })],
  { error: (issue) => (issue.input === undefined ? `is required: ${USER_FORM}` : USER_RULE) },
);

/** A star's recorded id: the project's and the user's numeric ids (`projects/1/starrers/4`). */
export const starId = (projectId: number, userId: number): string => `projects/${projectId}/starrers/${userId}`;

const STAR_ID = /^projects\/(\d+)\/starrers\/(\d+)$/;

/** A recorded star id read back; undefined when it is not one. */
export function parseStarId(id: string): { projectId: number; userId: number } | undefined {
  const match = STAR_ID.exec(id);
  return match ? { projectId: Number(match[1]), userId: Number(match[2]) } : undefined;
}

/** Starring needs only a signed-in user who can see the project: any role, or none on a public project. */
export const starNeeds = (project: string | number): { on: NamedOwner; phrase: string } => ({
  on: onProject(project),
  phrase: "a signed-in user who can see the project",
});
