/**
 * Projects (`/projects/:id`): the fields the resources read of one. A project
 * is named by its numeric id or its full path; some endpoints take the numeric
 * id only, so a full path is resolved with one read.
 */
import { z } from "zod";
import { apiPath, type PlatformClient } from "../client";
import { requestsOf } from "./core";

const accessLevel = z.looseObject({ access_level: z.number() });

/** A project as get-one and a settings update answer it (the fields read here; the rest passes through). */
export const project = z.looseObject({
  id: z.number(),
  path_with_namespace: z.string(),
  star_count: z.number().optional(),
  /** Null for a project whose repository is empty. */
  default_branch: z.string().nullish(),
  /** `enabled`, `private` or `disabled`; absent on servers without the container registry. */
  container_registry_access_level: z.string().optional(),
  /** The caller's direct and inherited roles (`Entities::ProjectWithAccess`); null where it has none. */
  permissions: z
    .looseObject({ project_access: accessLevel.nullish(), group_access: accessLevel.nullish() })
    .optional(),
});
export type Project = z.output<typeof project>;
export const projectRequests = requestsOf(project);

/** `/projects/acme%2Fweb`. */
export const projectPath = (project: string | number): string => apiPath`/projects/${project}`;

/** The project's numeric id: as given, or read once from its full path. */
export async function numericProjectId(client: PlatformClient, reference: string | number): Promise<number> {
  if (typeof reference === "number") return reference;
  return (await projectRequests.get(client, projectPath(reference))).id;
}
