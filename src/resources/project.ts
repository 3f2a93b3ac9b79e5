/**
 * Project: a project in a group (or the token's user's own namespace) with
 * its settings.
 *
 * - create: `POST /projects` with the declared settings (and
 *   `initialize_with_readme`, read only then); then `POST .../archive` when
 *   declared archived. A lost answer is found again by name in the namespace.
 * - read: `GET /projects/:id?statistics=true` (commits and sizes, shown to
 *   Reporters and above), and how the server deletes it (`deletionOf`).
 * - update: a `group` change transfers (`PUT /projects/:id/transfer`), never
 *   replaces; a `path` change renames in place (the old path keeps
 *   redirecting); the settings with `PUT /projects/:id`; `archived` with
 *   `POST .../archive` or `.../unarchive` (unarchived first, archived last, as
 *   an archived project takes no writes to what it holds).
 * - delete: `DELETE /projects/:id`: the server marks it for deletion where it
 *   delays deletions (restorable until its period ends) or deletes it at
 *   once; the review says which, and what goes with it, first.
 *
 * The resource id is the project's numeric id, which renames and transfers keep.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiError } from "../client";
import { groupPath, groupRequests } from "../api/groups";
import { field } from "../api/fields";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { wholeNumber, type Found, type TerraformTarget } from "../engine/estate";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { parsedId } from "../api/id-form";
import { onGroup, ownerReference } from "../api/owner";
import {
  deletionOf,
  groupProjectsPath,
  PROJECTS_PATH,
  projectActionPath,
  projectCreateNeeds,
  projectStepNeeds,
  projectIdForm,
  projectPath,
  projectRequests,
  type Project as ProjectLive,
} from "../api/projects";
import { notDotSegments } from "../validation";
import { BAD_REF, fullPathName, pathWords } from "./common";

const accessLevel = z.enum(["disabled", "private", "enabled"]);

/** The features whose access level a project sets, by property (`issuesAccessLevel` → `issues_access_level`). */
const FEATURES = [
  "issues",
  "repository",
  "mergeRequests",
  "forking",
  "wiki",
  "builds",
  "snippets",
  "analytics",
  "releases",
  "environments",
  "featureFlags",
  "infrastructure",
  "monitor",
  "securityAndCompliance",
  "containerRegistry",
] as const;

const featureLevels = Object.fromEntries(FEATURES.map((feature) => [`${feature}AccessLevel`, accessLevel.optional()])) as {
  [K in (typeof FEATURES)[number] as `${K}AccessLevel`]: z.ZodOptional<typeof accessLevel>;
};

const sameSet = (declared: unknown, live: unknown) =>
  Array.isArray(declared) && Array.isArray(live) && [...new Set(declared as string[])].sort().join("\n") === [...new Set(live as string[])].sort().join("\n");

/** The namespace as the project shows it; a program names it by id or full path. */
const sameNamespace = (declared: unknown, live: unknown): boolean => {
  const shown = live as { id?: number; full_path?: string } | undefined;
  if (shown === undefined || shown === null) return false;
  return typeof declared === "number" ? declared === shown.id : String(declared).toLowerCase() === shown.full_path?.toLowerCase();
};

const PATH_RULE = "may contain only letters, digits, '_', '-' and '.', not start with '-', and not end in .git or .atom";
const RESERVED = ["-", "badges", "blame", "blob", "builds", "commits", "create", "create_dir", "edit", "environments", "files", "find_file", "new", "preview", "raw", "refs", "tree", "update", "wikis"];

const schema = z.object({
  /**
   * The group the project is in: its numeric id or full path; none for the
   * token's user's own namespace. A change moves the project (a transfer,
   * never a replacement): its old path keeps redirecting.
   */
  group: field(ownerReference.optional(), { fromApi: (live) => live.namespace, sameValue: sameNamespace, toApi: () => undefined }),
  /** The project's name (letters, digits, emoji, '_', '.', '+', dashes and spaces, starting with a letter, digit, emoji or '_'). */
  name: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\p{L}\p{N}_\p{Extended_Pictographic}][\p{L}\p{N}\p{Extended_Pictographic}_.+\- ]*$/u, {
      message: "may contain only letters, digits, emoji, '_', '.', '+', dashes and spaces, and must start with a letter, digit, emoji or '_'",
    }),
  /** The last part of its full path; by default the server's from the name. A change renames in place; the old path keeps redirecting. */
  path: z
    .string()
    .max(255)
    .regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/, { message: PATH_RULE })
    .refine((value) => !value.endsWith(".git") && !value.endsWith(".atom"), { message: PATH_RULE })
    .refine((value) => !RESERVED.includes(value.toLowerCase()), { message: `must not be a reserved name (${RESERVED.join(", ")})` })
    .refine(...notDotSegments)
    .optional(),
  description: z.string().max(2000).optional(),
  /** `private`, `internal` or `public`; never more visible than its group (the server refuses it). */
  visibility: z.enum(["private", "internal", "public"]).optional(),
  /** The default branch. On an existing repository it must be one of its branches. */
  defaultBranch: z
    .string()
    .min(1)
    .max(255)
    .refine((value) => !BAD_REF.test(value), { message: "must be a valid branch name" })
    .optional(),
  /** Create the repository with a README commit on the default branch. Read at create only: a later change does nothing. */
  initializeWithReadme: field(z.boolean().optional(), { fromApi: () => null, sameValue: () => true, toApi: () => undefined }),
  /** How merge requests are merged: `merge`, `rebase_merge` or `ff`. */
  mergeMethod: z.enum(["merge", "rebase_merge", "ff"]).optional(),
  /** Squashing on merge: `never`, `always`, `default_on` or `default_off`. */
  squashOption: z.enum(["never", "always", "default_on", "default_off"]).optional(),
  onlyAllowMergeIfPipelineSucceeds: z.boolean().optional(),
  onlyAllowMergeIfAllDiscussionsAreResolved: z.boolean().optional(),
  removeSourceBranchAfterMerge: z.boolean().optional(),
  /** Each feature's access level (`disabled`, `private`: members only, `enabled`). */
  ...featureLevels,
  /** The project's topics (compared as a set: the server sorts them). */
  topics: field(z.array(z.string().min(1).max(255)).optional(), { sameValue: sameSet }),
  /** The CI/CD configuration file's path (default `.gitlab-ci.yml`). */
  ciConfigPath: z.string().max(255).optional(),
  /** Archived: read-only (the server refuses writes to what it holds). */
  archived: field(z.boolean().optional(), { toApi: () => undefined }),
});

type ProjectInputs = z.output<typeof schema>;

/** What the engine records: the project as the server shows it, and how the server would delete it. */
type ProjectRecord = ProjectLive & { deletion?: string };

const idOf = (id: string): number => parsedId("Project", projectIdForm, id).projectId;

/** The project with its statistics, and how the server deletes it. */
async function readProject(ctx: EngineContext, id: number | string): Promise<ProjectRecord> {
  const live = await projectRequests.get(ctx.client, projectPath(id), { statistics: true });
  return { ...live, deletion: deletionOf(live) };
}

/** The project a lost create made: the one of that name in the namespace. */
async function findCreated(ctx: EngineContext, args: ProjectInputs): Promise<ProjectLive | undefined> {
  const matches = (found: ProjectLive) => found.name === args.name && (args.path === undefined || found.path === args.path);
  if (args.group !== undefined) return projectRequests.find(ctx.client, groupProjectsPath(args.group), { search: args.name }, matches);
  return projectRequests.find(ctx.client, PROJECTS_PATH, { owned: true, search: args.name }, matches);
}

async function setArchived(ctx: EngineContext, id: number, archived: boolean): Promise<void> {
  await ctx.client.request("POST", projectActionPath(id, archived ? "archive" : "unarchive"), { body: {} });
}

/** The deletion as the review reads it (the kind's `deletion` part). */
function deletionModeOf(deletion: string | undefined): { delayed: boolean; periodDays?: number | null } | null {
  if (deletion === "delayed") return { delayed: true, periodDays: null };
  return deletion === "immediate" ? { delayed: false } : null;
}

/** A Terraform state's `gitlab_project`: its id is the project's numeric id (or full path), the project itself. */
function terraformProject(id: string): TerraformTarget | undefined {
  const ref = wholeNumber(id) !== undefined || id.includes("/") ? id : undefined;
  return ref === undefined ? undefined : { owner: { kind: "project", ref }, key: ref };
}

/** A project found, declared by its id in its group (none: a user's namespace). */
function foundProject(live: ProjectLive): Found {
  const address = live.namespace?.kind === "group" ? { group: live.namespace.id } : {};
  return { importId: String(live.id), name: live.path ?? String(live.id), live, address };
}

export const projectDefinition = defineObjectResource({
  name: "Project",
  words: { noun: "project", name: fullPathName, says: pathWords("group"), unowned: "the personal namespace of the token's user" },
  imported: {
    word: "project",
    listed: "projects",
    // Each project of the estate is itself the object, as the importer listed it (read where it was not).
    on: ["project"],
    isOwner: true,
    async find({ owner, read }) {
      const live = (owner.listed as ProjectLive | undefined) ?? ((await read(String(owner.id), {})) as ProjectLive | undefined);
      return live ? { found: [foundProject(live)] } : { found: [] };
    },
    async findOne({ owner, read }) {
      const live = (await read(String(owner.id), {})) as ProjectLive | undefined;
      return live ? { found: [foundProject(live)] } : { found: [], skipped: [{ what: `project ${owner.fullPath}`, why: "not found" }] };
    },
  },
  terraform: [{ type: "gitlab_project", target: (id) => terraformProject(id) }],
  idForm: projectIdForm,
  notFoundSubject: "Project",
  schema,
  deletion: { takes: { commitCount: "commits of its repository" }, mode: "deletionMode", marked: "markedForDeletionOn" },
  outputs: {
    /** The project's numeric id. */
    projectId: { value: (live: ProjectRecord) => live.id, fromId: (id) => Number(id) },
    /** Its full path (`acme/web`), as the server shows it now. */
    fullPath: { value: (live: ProjectRecord) => live.path_with_namespace, derivedFrom: ["group", "path", "name"] },
    /** The id of the namespace it is in. */
    namespaceId: { value: (live: ProjectRecord) => live.namespace?.id, derivedFrom: [] },
    /** The project's page. */
    webUrl: { value: (live: ProjectRecord) => live.web_url as string | undefined, derivedFrom: ["group", "path", "name"] },
    /** The repository's clone URLs. */
    httpUrlToRepo: { value: (live: ProjectRecord) => live.http_url_to_repo as string | undefined, derivedFrom: ["group", "path", "name"] },
    sshUrlToRepo: { value: (live: ProjectRecord) => live.ssh_url_to_repo as string | undefined, derivedFrom: ["group", "path", "name"] },
    /** Whether its repository has no commits. */
    emptyRepo: { value: (live: ProjectRecord) => live.empty_repo, derivedFrom: [] },
    /** Commits on the default branch and the repository's size in bytes; absent where the token is not shown them. */
    commitCount: { value: (live: ProjectRecord) => live.statistics?.commit_count, derivedFrom: [] },
    repositorySize: { value: (live: ProjectRecord) => live.statistics?.repository_size, derivedFrom: [] },
    /** The day it was marked for deletion (delayed deletion), or null. */
    markedForDeletionOn: { value: (live: ProjectRecord) => live.marked_for_deletion_on ?? null, derivedFrom: [] },
    /** How the server deletes it: `{ delayed: false }` at once, or `{ delayed: true, periodDays }` marked for deletion and restorable (null: the instance's period); null where the token cannot tell. */
    deletionMode: { value: (live: ProjectRecord) => deletionModeOf(live.deletion), derivedFrom: [] },
  },
  validate(args) {
    // The server refuses a feature of the repository more open than the repository itself.
    const rank = { disabled: 0, private: 1, enabled: 2 } as const;
    const repository = args.repositoryAccessLevel;
    if (repository === undefined || !(repository in rank)) return [];
    return (["mergeRequestsAccessLevel", "buildsAccessLevel"] as const)
      .filter((name) => args[name] !== undefined && args[name]! in rank && rank[args[name]!] > rank[repository])
      .map((name) => ({ property: name, reason: `${name}: must not be more open than repositoryAccessLevel (${repository}): the server refuses it` }));
  },
  needs: (args, operation, id) => {
    if (operation === "create") return projectCreateNeeds(args);
    // Any role in its group sees the project: a 404 then means it is gone.
    if (operation === "read") return args.group === undefined ? projectStepNeeds("update", undefined) : { on: onGroup(args.group), role: "Guest" };
    return projectStepNeeds(operation, id);
  },

  async create(ctx, args) {
    const body: Record<string, unknown> = {
      ...requestBody(this.fields, args),
      ...(args.group === undefined ? {} : { namespace_id: typeof args.group === "number" ? args.group : await namespaceIdOf(ctx, args.group) }),
      ...(args.initializeWithReadme === undefined ? {} : { initialize_with_readme: args.initializeWithReadme }),
    };
    const made = await projectRequests.post(ctx.client, PROJECTS_PATH, body, () => findCreated(ctx, args));
    if (args.archived) await setArchived(ctx, made.id, true);
    return { id: String(made.id), live: await readProject(ctx, made.id) };
  },

  async read(ctx, id) {
    return readProject(ctx, idOf(id));
  },

  async update(ctx, id, args, changed) {
    const projectId = idOf(id);
    if (changed.has("group") && args.group !== undefined) {
      await ctx.client.request("PUT", projectActionPath(projectId, "transfer"), { body: { namespace: args.group } });
    }
    if (changed.has("archived") && args.archived === false) await setArchived(ctx, projectId, false);
    const body = requestBody(this.fields, args, changed);
    if (Object.keys(body).length > 0) await projectRequests.put(ctx.client, projectPath(projectId), body);
    if (changed.has("archived") && args.archived === true) await setArchived(ctx, projectId, true);
    return readProject(ctx, projectId);
  },

  async delete(ctx, id) {
    try {
      await ctx.client.delete(projectPath(idOf(id)));
    } catch (error) {
      // Marked already (by an earlier delete whose answer was lost, or by hand): it goes as the server decides.
      if (error instanceof ApiError && error.status === 400 && /already marked for deletion/i.test(error.serverMessage)) return;
      throw error;
    }
  },
});

/** A group's numeric id from its full path (`POST /projects` takes the id). */
async function namespaceIdOf(ctx: EngineContext, group: string): Promise<number> {
  return (await groupRequests.get(ctx.client, groupPath(group))).id;
}

export type ProjectArgs = ResourceArgs<typeof schema>;

/**
 * A project in a group (or in the token's user's own namespace) with its settings.
 *
 * ```ts
 * new Project("web", { group: "acme", name: "Web", path: "web", visibility: "private",
 *   mergeMethod: "ff", onlyAllowMergeIfPipelineSucceeds: true, topics: ["frontend"] });
 * ```
 */
export interface Project extends ResourceOutputs<typeof projectDefinition> {}
export class Project extends PlatformResource {
  static {
    ofKind(this, projectDefinition);
  }
  constructor(name: string, args: ProjectArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
