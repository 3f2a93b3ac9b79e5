/**
 * Projects (`/projects/:id`): the fields the resources read of one. A project
 * is named by its numeric id or its full path; some endpoints take the numeric
 * id only, so a full path is resolved with one read.
 */
import { z } from "zod";
import { apiPath, type PlatformClient } from "../client";
import { requestsOf } from "./core";
import { idForm } from "./id-form";
import { onGroup, onProject, type EngineContext, type Needs } from "./needs";
import { groupPath, groupRequests } from "./groups";

const accessLevel = z.looseObject({ access_level: z.number() });

const nullableText = z.string().nullable();

/** A project as get-one and a settings update answer it (the fields read here; the rest passes through). */
export const project = z.looseObject({
  id: z.number(),
  path_with_namespace: z.string(),
  name: z.string().optional(),
  path: z.string().optional(),
  description: nullableText.optional(),
  visibility: z.enum(["private", "internal", "public"]).optional(),
  /** The group or user namespace it is in. */
  namespace: z.looseObject({ id: z.number(), full_path: z.string(), kind: z.string() }).optional(),
  archived: z.boolean().optional(),
  empty_repo: z.boolean().optional(),
  topics: z.array(z.string()).optional(),
  merge_method: z.string().optional(),
  squash_option: z.string().optional(),
  only_allow_merge_if_pipeline_succeeds: z.boolean().optional(),
  only_allow_merge_if_all_discussions_are_resolved: z.boolean().optional(),
  remove_source_branch_after_merge: z.boolean().nullable().optional(),
  ci_config_path: nullableText.optional(),
  /** `YYYY-MM-DD` while the project is marked for deletion (delayed deletion); null or absent otherwise. */
  marked_for_deletion_on: nullableText.optional(),
  /** With `statistics=true`, to Reporters and above: commits and sizes in bytes. */
  statistics: z.looseObject({ commit_count: z.number(), repository_size: z.number(), storage_size: z.number() }).optional(),
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

/** `/projects`: the projects the caller may see; `POST` creates one. */
export const PROJECTS_PATH = "/projects";
/** `/groups/acme/projects`. */
export const groupProjectsPath = (group: string | number): string => apiPath`/groups/${group}/projects`;
/** `/projects/7/transfer`, `/projects/7/archive`, `/projects/7/unarchive`, `/projects/7/restore`. */
export const projectActionPath = (project: string | number, action: "transfer" | "archive" | "unarchive" | "restore"): string => `${projectPath(project)}/${action}`;

/** A project's recorded id: its numeric id, which renames and transfers keep. */
const PROJECT_ID = /^[1-9]\d*$/;
export const parseProjectId = (id: string): { projectId: number } | undefined => (PROJECT_ID.test(id) ? { projectId: Number(id) } : undefined);
export const projectIdForm = idForm("a project's numeric id, such as 42", parseProjectId);

/** Whether the project shown is marked for deletion (the server deletes it later, and it may be restored until then). */
export const markedForDeletion = (live: { marked_for_deletion_on?: string | null }): boolean => typeof live.marked_for_deletion_on === "string" && live.marked_for_deletion_on !== "";

/** How the server deletes a project: marks it for deletion (restorable until its period ends), or deletes it at once. */
export type ProjectDeletion = "delayed" | "immediate";

/**
 * How the server will delete this project: a project of a user's namespace
 * at once; of a group, marked for deletion where the server delays deletions
 * (the Enterprise Edition, which shows `marked_for_deletion_on`), else at once.
 */
export function deletionOf(live: Project): ProjectDeletion {
  if (live.namespace?.kind === "user") return "immediate";
  return "marked_for_deletion_on" in live ? "delayed" : "immediate";
}

const VISIBILITY_RANK = { private: 0, internal: 1, public: 2 } as const;

/** Why a project's visibility is wider than its group's, in words; undefined when it is not (or the group cannot be read, or the value is not known yet). */
async function widerThanGroup(ctx: EngineContext, group: string | number, visibility: keyof typeof VISIBILITY_RANK): Promise<string | undefined> {
  if (!(visibility in VISIBILITY_RANK)) return undefined;
  const live = await groupRequests.get(ctx.client, groupPath(group), { with_projects: false }).catch(() => undefined);
  if (!live || VISIBILITY_RANK[visibility] <= VISIBILITY_RANK[live.visibility]) return undefined;
  return `visibility: a ${visibility} project is not allowed in group ${live.full_path}, which is ${live.visibility}: the server refuses a project more visible than its group`;
}

/**
 * The needs of creating a project: a role the group's `project_creation_level`
 * accepts (Developer by default), and no project of the same path or name in
 * the group (the server refuses it: a project marked for deletion keeps its
 * path); nothing beyond the token for the user's own namespace.
 */
export function projectCreateNeeds(args: { group?: string | number; name?: string; path?: string; visibility?: "private" | "internal" | "public" }): Needs {
  if (args.group === undefined) return { on: { kind: "described", what: "the personal namespace of the token's user" } };
  const path = args.path?.toLowerCase();
  return {
    on: onGroup(args.group),
    role: "Developer",
    phrase: "a role the group's project creation level allows (Developer by default)",
    ...(args.visibility === undefined ? {} : { rules: [{ property: "visibility", judge: (ctx) => widerThanGroup(ctx, args.group!, args.visibility!) }] }),
    unique: {
      list: "projects",
      read: (ctx, owner) => projectRequests.list(ctx.client, groupProjectsPath(owner.id), { with_shared: false }),
      find: (projects, owner) => {
        const own = (projects as Project[]).filter((one) => one.namespace === undefined || one.namespace.id === owner.id);
        const same = own.find((one) => (path !== undefined && one.path?.toLowerCase() === path) || one.name === args.name);
        return same && { what: `a project ${same.path?.toLowerCase() === path ? `with the path ${same.path}` : `named ${same.name}`}`, id: String(same.id) };
      },
    },
  };
}

/**
 * What changing and deleting a project need: the Maintainer role on it to
 * change its settings, the Owner role to delete it. The project is named by
 * its id where the step knows it (a rename or a transfer changes its path);
 * without one, nothing is read and a refusal is said in words.
 */
export function projectStepNeeds(operation: "update" | "delete", id: string | undefined): Needs {
  const role = operation === "delete" ? "Owner" : "Maintainer";
  const phrase =
    operation === "delete"
      ? "the Owner role on the project"
      : "the Maintainer role on the project to change its settings, and the Owner role to rename its path, change its visibility, archive or move it (and the Maintainer role on the group it moves to)";
  const projectId = id === undefined ? undefined : parseProjectId(id)?.projectId;
  return projectId === undefined ? { on: { kind: "described", what: "the project" }, phrase } : { on: { kind: "project", property: "group", ref: projectId }, role };
}

/** What reading a project needs: to see it. */
export const projectReadNeeds = (project: string | number): Needs => ({ on: onProject(project), phrase: "access to the project" });
