/**
 * Project starring: a project's starrers (`/projects/:id/starrers`), a user's
 * starred projects (`/users/:id/starred_projects`), and the star and unstar
 * requests (`POST /projects/:id/star`, `/unstar`), which answer 304 when
 * there is nothing to do.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { requestsOf } from "./core";
import { project } from "./projects";
import { idForm } from "./id-form";

const userBasic = z.looseObject({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  /** `active`, `blocked`, ... */
  state: z.string(),
  avatar_url: z.string().nullable().optional(),
  web_url: z.string(),
});

export const starrer = z.looseObject({
  /** When the user starred the project. */
  starred_since: z.string(),
  user: userBasic,
});

const namespace = z.looseObject({ id: z.number(), name: z.string(), path: z.string(), kind: z.string(), full_path: z.string() });

const flagOrNull = z.boolean().nullable().optional();

/**
 * A starred project. The full entity for a signed-in caller; with
 * `simple: true` (and always for anonymous callers) only the basic fields.
 */
export const starredProject = z.looseObject({
  id: z.number(),
  description: z.string().nullable(),
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  created_at: z.string(),
  default_branch: z.string().nullable().optional(),
  topics: z.array(z.string()).optional(),
  ssh_url_to_repo: z.string(),
  http_url_to_repo: z.string(),
  web_url: z.string(),
  readme_url: z.string().nullable().optional(),
  forks_count: z.number().optional(),
  avatar_url: z.string().nullable().optional(),
  star_count: z.number(),
  last_activity_at: z.string().nullable().optional(),
  visibility: z.string().optional(),
  namespace: namespace,
  // The full entity only.
  description_html: z.string().nullable().optional(),
  issues_enabled: flagOrNull,
  open_issues_count: z.number().optional(),
  merge_requests_enabled: flagOrNull,
  jobs_enabled: flagOrNull,
  wiki_enabled: flagOrNull,
  snippets_enabled: flagOrNull,
  container_registry_access_level: z.string().optional(),
  updated_at: z.string().nullable().optional(),
  creator_id: z.number().nullable().optional(),
  import_status: z.string().nullable().optional(),
  archived: flagOrNull,
  shared_runners_enabled: flagOrNull,
  group_runners_enabled: flagOrNull,
  public_jobs: flagOrNull,
  shared_with_groups: z.array(z.unknown()).optional(),
  merge_method: z.string().optional(),
  squash_option: z.string().optional(),
  /** With `statistics: true`, for callers with at least the Reporter role. */
  statistics: z.looseObject({ commit_count: z.number(), storage_size: z.number(), repository_size: z.number() }).optional(),
  container_registry_image_prefix: z.string().optional(),
  /** Related API addresses: self, issues, merge_requests, repo_branches, labels, events, members, cluster_agents. */
  _links: z.record(z.string(), z.string()).optional(),
  /** With `withCustomAttributes: true`, for administrators. */
  custom_attributes: z.array(z.unknown()).optional(),
});

export type Starrer = z.output<typeof starrer>;

/** A project as a star's answer and get-one show it: with its star count. */
export const starredOnce = project.extend({ star_count: z.number() });
export const starCountRequests = requestsOf(starredOnce);
export const starrerRequests = requestsOf(starrer);

/** The starrers of the project at `projectPath` (`/projects/12` → `/projects/12/starrers`). */
export const starrersOf = (projectPath: string): string => `${projectPath}/starrers`;
/** `/projects/acme%2Fweb/starrers`. */
export const starrersPath = (project: string | number): string => starrersOf(apiPath`/projects/${project}`);
/** `/users/alice/starred_projects`. */
export const starredProjectsPath = (user: string | number): string => apiPath`/users/${user}/starred_projects`;
/** `POST` here stars the project at `projectPath`; 304 when the user had starred it already. */
export const starPath = (projectPath: string): string => `${projectPath}/star`;
/** `POST` here unstars it; 304 when the user had not starred it. */
export const unstarPath = (projectPath: string): string => `${projectPath}/unstar`;

const STAR_ID = /^projects\/(\d+)\/starrers\/(\d+)$/;

/** A star's recorded id: `projects/<project id>/starrers/<user id>`. */
export const starId = (projectId: number, userId: number): string => `projects/${projectId}/starrers/${userId}`;

/** A recorded star id read back; undefined when it is not one. */
export function parseStarId(id: string): { projectId: number; userId: number } | undefined {
  const match = STAR_ID.exec(id);
  return match ? { projectId: Number(match[1]), userId: Number(match[2]) } : undefined;
}

/** A star id as resources record it. */
export const starIdForm = idForm("of the form projects/<project id>/starrers/<user id>", parseStarId);
