/**
 * ContainerRegistryCleanup: a bulk tag deletion rule kept for one registry
 * repository of a project, or for all of them. The rule lives in the program,
 * not on the server: each `up` runs it through the bulk endpoint
 * (`DELETE /projects/:id/registry/repositories/:repository_id/tags`) where
 * it would delete something that no earlier run already asked for, and the
 * preview shows the tags a run would delete now (`wouldDelete`, read at check
 * through the tags list, ./container-registry-cleanup-rule.ts).
 *
 * The server runs a repository's bulk deletion at most once an hour and
 * answers 400 inside the hour: that repository is left for a later `up`, its
 * tags stay in `wouldDelete`, and the run says so in a warning. Destroy
 * deletes nothing on the server: the rule stops being applied.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field, type ObservedTrait } from "../api/fields";
import { ownerInput } from "./common";
import { ApiError } from "../client";
import { parseDuration } from "../chronic-duration";
import { countDeclaration, declarationKey } from "../engine/declarations";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { warn } from "../engine/engine-log";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { registryRepositoriesPath, registryRepositoryRequests, registryTagsPath } from "../api/container-registry";
import { ownerReference } from "../api/owner";
import { re2Problem, tagsToDelete, type CleanupRule, type RegistryRepositoryLive } from "./container-registry-cleanup-rule";
import { onProject } from "../api/needs";

/** What one accepted run of the rule asked the server to delete from a repository. */
export interface AcceptedRun {
  /** When the server accepted the run (its clock); it deletes in the background, within minutes. */
  acceptedAt: string;
  /** The tags the rule selected then (`<repository path>:<tag>`). */
  tags: string[];
}

/** The rule's state, as this resource keeps it (the server holds no object for it). */
export interface CleanupLive extends Record<string, unknown> {
  /** Tags a run would still delete: those of repositories the server refused to run now. */
  wouldDelete: string[];
  repositories: string[];
  deleted: Record<string, AcceptedRun>;
  refused: Record<string, string>;
  lastRunAt: string | null;
}

const schema = z.object({
  /** The project whose registry is cleaned (numeric id or full path). */
  project: ownerInput(ownerReference),
  /** One repository of the project, by name (`""` for the image at the project's own path); absent: every repository of the project. */
  repository: ownerInput(z.string().optional()),
  /** RE2 expression of the tag names to delete, matched against the whole name (`.*`: all). `latest` is never deleted. */
  // The rule is the run's, not a field of an object: nothing is sent or compared with the server.
  nameRegexDelete: field(z.string(), { local: true }),
  /** RE2 expression of the tag names to keep, matched against the whole name; it overrides `nameRegexDelete`. */
  nameRegexKeep: field(z.string().optional(), { local: true }),
  /** Keep this many of the newest tags the expressions select. */
  keepN: field(z.number().int().min(0).optional(), { local: true }),
  /** Delete only tags older than this (`1h`, `30d`, `1month`). */
  olderThan: field(z.string().optional(), { local: true }),
  /** Read at preview: the tags (`<repository path>:<tag>`) a run would delete now. Never declared. */
  wouldDelete: field(z.array(z.string()).optional(), { observed: wouldDeleteNowObserved() }),
});

type CleanupInputs = z.output<typeof schema>;

/** `wouldDelete`: read at check, pending while it lists a tag no run has asked the server to delete. */
function wouldDeleteNowObserved(): ObservedTrait {
  return {
    // Once `up` ran the rule, nothing it selected is left to delete: the next preview lists only what is new.
    afterApply: [],
    read: async (ctx, args) => wouldDeleteNow(ctx, args as CleanupInputs, await coveredRepositories(ctx, args as CleanupInputs)),
    pending: (value, recorded) => {
      const asked = alreadyAsked(recorded);
      return (value as string[]).some((tag) => !asked.has(tag));
    },
  };
}

const ruleOf = (args: CleanupInputs): CleanupRule => ({
  nameRegexDelete: args.nameRegexDelete,
  nameRegexKeep: args.nameRegexKeep,
  keepN: args.keepN,
  olderThan: args.olderThan,
});

const subjectOf = (args: CleanupInputs) =>
  args.repository === undefined ? `the registry of project ${args.project}` : `registry repository "${args.repository}" of project ${args.project}`;

/** The repositories the rule covers: the project's, or the one it names (none yet: nothing to clean, said once per run). */
const projectRepositories = (ctx: EngineContext, args: CleanupInputs) =>
  registryRepositoryRequests.list(ctx.client, registryRepositoriesPath({ project: args.project }));

async function coveredRepositories(ctx: EngineContext, args: CleanupInputs): Promise<RegistryRepositoryLive[]> {
  const all = await projectRepositories(ctx, args);
  if (args.repository === undefined) return all;
  const named = all.filter((repository) => repository.name === args.repository);
  if (named.length === 0) {
    await warn(`ContainerRegistryCleanup: project ${args.project} has no registry repository named "${args.repository}"; the rule applies once it exists.`);
  }
  return named;
}

async function wouldDeleteNow(ctx: EngineContext, args: CleanupInputs, repositories: RegistryRepositoryLive[]): Promise<string[]> {
  const lists = await Promise.all(repositories.map((repository) => tagsToDelete(ctx.client, args.project, repository, ruleOf(args))));
  return lists.flat().sort();
}

const repositoryOf = (tag: string) => tag.slice(0, tag.lastIndexOf(":"));

/** Every tag an accepted run already asked for: the server deletes it, or leaves it (protected) whatever a new run asks. */
function alreadyAsked(recorded: Record<string, unknown>): Set<string> {
  const runs = (recorded.deleted ?? {}) as Record<string, AcceptedRun>;
  return new Set(Object.values(runs).flatMap((run) => run.tags));
}

const isHourlyLimit = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 400 && /at most once an hour/i.test(error.serverMessage);

/** The bulk deletion of one repository with the rule; when the server accepted it. */
async function runOn(ctx: EngineContext, args: CleanupInputs, repository: RegistryRepositoryLive): Promise<string> {
  const query = { name_regex_delete: args.nameRegexDelete, name_regex_keep: args.nameRegexKeep, keep_n: args.keepN, older_than: args.olderThan };
  const response = await ctx.client.request("DELETE", registryTagsPath(args.project, repository.id), { query });
  const date = Date.parse(String(response.headers["date"] ?? ""));
  return new Date(Number.isNaN(date) ? Date.now() : date).toISOString();
}

/**
 * The rule applied: a bulk deletion of each covered repository where a tag
 * would be deleted that no accepted run asked for yet; the others get no
 * request (nor spend the hour the server allows between runs).
 */
async function applyRule(ctx: EngineContext, args: CleanupInputs, recorded: Record<string, unknown>): Promise<CleanupLive> {
  const repositories = await coveredRepositories(ctx, args);
  const wouldDelete = args.wouldDelete ?? (await wouldDeleteNow(ctx, args, repositories));
  const asked = alreadyAsked(recorded);
  const paths = repositories.map((repository) => repository.path);
  const earlier = (recorded.deleted ?? {}) as Record<string, AcceptedRun>;
  const deleted = Object.fromEntries(Object.entries(earlier).filter(([path]) => paths.includes(path)));
  const live: CleanupLive = { wouldDelete: [], repositories: paths, deleted, refused: {}, lastRunAt: (recorded.lastRunAt as string | undefined) ?? null };
  for (const repository of repositories) {
    const tags = wouldDelete.filter((tag) => repositoryOf(tag) === repository.path);
    if (!tags.some((tag) => !asked.has(tag))) continue;
    try {
      const acceptedAt = await runOn(ctx, args, repository);
      deleted[repository.path] = { acceptedAt, tags };
      live.lastRunAt = acceptedAt;
    } catch (error) {
      if (!isHourlyLimit(error)) throw error;
      live.refused[repository.path] = error.serverMessage;
      live.wouldDelete.push(...tags);
      await warn(hourlyLimitWarning(repository.path, error, earlier[repository.path]));
    }
  }
  return live;
}

function hourlyLimitWarning(path: string, error: ApiError, last: AcceptedRun | undefined): string {
  const next = last ? ` after ${new Date(Date.parse(last.acceptedAt) + 3_600_000).toISOString()}` : " an hour after the last run";
  return (
    `ContainerRegistryCleanup: the server refused to run the rule on ${path} now (${error.status}: ${error.serverMessage}). ` +
    `Its tags stay and remain in wouldDelete; a \`pulumi up\`${next} runs the rule again.`
  );
}

const resourceId = (args: CleanupInputs) =>
  `registry-cleanup/${encodeURIComponent(String(args.project))}` + (args.repository === undefined ? "" : `/${encodeURIComponent(args.repository)}`);

export const containerRegistryCleanupDefinition = defineObjectResource({
  name: "ContainerRegistryCleanup",
  words: { noun: "container registry cleanup" },
  imported: { notImported: "its rule lives in the program, not on the server: there is nothing to read back" },
  notFoundSubject: "Project",
  schema,
  outputs: {
    /** Tags a run would still delete after this `up`: those of repositories the server refused to run within its hour. */
    wouldDelete: (live: CleanupLive) => live.wouldDelete,
    /** The paths of the repositories the rule covers. */
    repositories: (live: CleanupLive) => live.repositories,
    /** Per repository path, the last run the server accepted: when, and the tags it was asked to delete. */
    deleted: (live: CleanupLive) => live.deleted,
    /** Per repository path, the server's answer when it refused to run the rule at the last `up` (its once-an-hour limit). */
    refused: (live: CleanupLive) => live.refused,
    /** When the server last accepted a run of the rule. */
    lastRunAt: (live: CleanupLive) => live.lastRunAt,
  },
  validate(args) {
    const problems: { property: string; reason: string }[] = [];
    for (const property of ["nameRegexDelete", "nameRegexKeep"] as const) {
      const problem = args[property] === undefined ? undefined : re2Problem(args[property]);
      if (problem) problems.push({ property, reason: `must be an RE2 regular expression (${problem})` });
    }
    if (args.olderThan !== undefined && parseDuration(args.olderThan) === undefined) {
      problems.push({ property: "olderThan", reason: "must be a duration such as 1h, 30d, 2 weeks or 1month" });
    }
    return problems;
  },
  // Reading the tags needs read_container_image (Reporter); the bulk deletion admin_container_image (Maintainer).
  needs: (args, operation) => ({ on: onProject(args.project), subject: subjectOf(args), role: operation === "read" ? "Reporter" : "Maintainer" }),

  async create(ctx, args) {
    return { id: resourceId(args), live: await applyRule(ctx, args, {}) };
  },

  async read(ctx, _id, args) {
    const repositories = await projectRepositories(ctx, args);
    const recorded = args as Record<string, unknown>;
    return {
      wouldDelete: (recorded.wouldDelete as string[] | undefined) ?? [],
      repositories: repositories.filter((r) => args.repository === undefined || r.name === args.repository).map((r) => r.path),
      deleted: (recorded.deleted ?? {}) as Record<string, AcceptedRun>,
      refused: (recorded.refused ?? {}) as Record<string, string>,
      lastRunAt: (recorded.lastRunAt as string | undefined) ?? null,
    };
  },

  async update(ctx, _id, args, _changed, olds) {
    return applyRule(ctx, args, olds as Record<string, unknown>);
  },

  // The rule exists only in the program: deleting it deletes nothing on the server.
  async delete() {},
});

export type ContainerRegistryCleanupArgs = Omit<ResourceArgs<typeof schema>, "wouldDelete">;

/**
 * A tag cleanup rule for a project's container registry (one repository, or
 * all of them), applied at each `up` through the bulk tag deletion.
 *
 * ```ts
 * new ContainerRegistryCleanup("web-images", {
 *   project: "acme/web", repository: "api",
 *   nameRegexDelete: "v.*", keepN: 10, olderThan: "30d",
 * });
 * ```
 */
export interface ContainerRegistryCleanup extends ResourceOutputs<typeof containerRegistryCleanupDefinition> {}
export class ContainerRegistryCleanup extends PlatformResource {
  static {
    ofKind(this, containerRegistryCleanupDefinition);
  }
  constructor(name: string, args: ContainerRegistryCleanupArgs, opts?: pulumi.CustomResourceOptions) {
    // Two rules for one repository would each run the bulk deletion, and the server allows one run an hour.
    const plain = (value: unknown) => typeof value === "string" || typeof value === "number";
    const repository = args.repository === undefined ? "*" : args.repository;
    countDeclaration(
      "registry-cleanup-per-repository",
      plain(args.project) && plain(repository) ? declarationKey(`${String(args.project)}\n${String(repository)}`, args.connection) : undefined,
      1,
      () => `ContainerRegistryCleanup ${name}: project: the program declares a second cleanup rule for ${String(args.project)}${args.repository === undefined ? "" : ` repository "${String(args.repository)}"`}; keep one rule per repository.`,
    );
    super(name, args, opts);
  }
}
