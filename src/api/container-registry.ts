/**
 * The container registry of a project or group: its repositories
 * (`/projects/:id/registry/repositories`, `/groups/:id/registry/repositories`),
 * one repository (`/registry/repositories/:id`), and a repository's tags.
 */
import { z } from "zod";
import { apiPath, pathSegment, type PlatformClient } from "../client";
import { requestsOf } from "./core";
import { ownerReference } from "./owner";

export const registryTagSummary = z.looseObject({
  name: z.string(),
  path: z.string(),
  location: z.string(),
});
export type RegistryTagSummary = z.output<typeof registryTagSummary>;
export const registryTagSummaryRequests = requestsOf(registryTagSummary);

export const registryTag = registryTagSummary.extend({
  /** 64 hexadecimal characters. */
  revision: z.string().nullable(),
  short_revision: z.string().nullable(),
  /** `sha256:...`. */
  digest: z.string().nullable(),
  /** When the manifest was created, not when the tag was pushed. */
  created_at: z.string().nullable(),
  /** Bytes. */
  total_size: z.number().nullable(),
});
export type RegistryTag = z.output<typeof registryTag>;
export const registryTagRequests = requestsOf(registryTag);

export const registryRepository = z.looseObject({
  id: z.number(),
  /** Empty for the repository at the project's root image path. */
  name: z.string(),
  path: z.string(),
  project_id: z.number(),
  /** Registry host and path: what `docker pull` takes. */
  location: z.string(),
  created_at: z.string().nullable(),
  cleanup_policy_started_at: z.string().nullable().optional(),
  /** null, `delete_scheduled` or `delete_ongoing`. */
  status: z.string().nullable().optional(),
  /** Only when asked for (`tagsCount: true`). */
  tags_count: z.number().optional(),
  /** Only when asked for (`tags: true`). */
  tags: z.array(registryTagSummary).optional(),
  /** Bytes, deduplicated; only when asked for (`size: true`), and only on the hosted offering for repositories created after 2021-11-04. */
  size: z.number().nullable().optional(),
});
export type RegistryRepository = z.output<typeof registryRepository>;
export const registryRepositoryRequests = requestsOf(registryRepository);

/** The repositories of a project or a group. */
export const registryRepositoriesPath = (owner: { project?: string | number; group?: string | number }): string =>
  owner.project !== undefined ? apiPath`/projects/${owner.project}/registry/repositories` : apiPath`/groups/${owner.group!}/registry/repositories`;
/** One repository, by its id alone. */
export const registryRepositoryPath = (id: string | number): string => apiPath`/registry/repositories/${id}`;
/** A project's registry repository: its tags are read, and it and its tags deleted, under it. */
export const projectRepositoryPath = (project: string | number, repositoryId: number): string => apiPath`/projects/${project}/registry/repositories/${repositoryId}`;
/** A project repository's tags. */
export const registryTagsPath = (project: string | number, repositoryId: number): string => `${projectRepositoryPath(project, repositoryId)}/tags`;
/** One tag, by name. */
export const registryTagPath = (project: string | number, repositoryId: number, name: string): string => `${registryTagsPath(project, repositoryId)}/${pathSegment(name)}`;

/** One tag's detail, and the server's clock when it answered (its `Date` header; ours when it sends none). */
export async function registryTagWithClock(client: PlatformClient, path: string): Promise<{ tag: RegistryTag; now: number }> {
  const response = await client.request<unknown>("GET", path);
  const date = Date.parse(String(response.headers["date"] ?? ""));
  return { tag: registryTagRequests.check(response.body, `GET ${path}`), now: Number.isNaN(date) ? Date.now() : date };
}

/** A registry repository's numeric id, as the calls take it. */
export const repositoryId = z.number().int().positive();
/** The arguments naming one registry repository of a project, as the calls on it take them. */
export const inRepository = {
  /** The project that owns the repository (id or full path). */
  project: ownerReference,
  /** The repository's id (see `getRegistryRepositories`). */
  repositoryId,
};
export const registryRepositorySubject = (args: { project: string | number; repositoryId: number }) =>
  `registry repository ${args.repositoryId} of project ${args.project}`;
