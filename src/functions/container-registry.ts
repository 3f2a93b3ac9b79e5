/**
 * The container registry: repositories of
 * a project or a group, one repository with its extras, its tags (keyset
 * pagination by name, both orders) and one tag's detail.
 */
import { z } from "zod";
import {
  inRepository,
  registryRepositoriesPath,
  registryRepository as repositoryShape,
  registryRepositoryPath,
  registryRepositorySubject,
  registryTag as tagDetailShape,
  registryTagPath as tagPathOf,
  registryTagsPath,
  registryTagSummary as tagSummaryShape,
  repositoryId,
} from "../api/container-registry";
import { ownerNamedBy, ownerReference } from "../api/owner";
import type { Needs } from "../api/needs";
import { defineListFunction, defineObjectFunction, type Camelized } from "./core";
import { notDotSegments } from "../validation";

export type RegistryRepository = Camelized<z.output<typeof repositoryShape>>;
export type RegistryTagSummary = Camelized<z.output<typeof tagSummaryShape>>;
export type RegistryTag = Camelized<z.output<typeof tagDetailShape>>;

const registryTagPath = (args: { project: string | number; repositoryId: number; name: string }) => tagPathOf(args.project, args.repositoryId, args.name);
const flag = z.boolean().optional();
/** Who may read a registry depends on the project's registry visibility; a disabled one refuses everyone. */
const registryRefusal = () =>
  "While the registry's visibility is enabled, any access to a public or internal project is enough; a disabled registry refuses everyone.";
type RegistryOwner = { project?: string | number; group?: string | number };
const registryOwner = (args: RegistryOwner): Needs["on"] =>
  args.project !== undefined || args.group !== undefined ? ownerNamedBy(args) : { kind: "described", what: "the repository's project" };
const readNeeds = (args: RegistryOwner): Needs => ({ on: registryOwner(args), role: "Reporter" });

const registryRepositories = defineListFunction({
  name: "getRegistryRepositories",
  args: z.object({
    /** The project whose repositories to list (id or full path); set this or `group`. */
    project: ownerReference.optional(),
    /** The group whose projects' repositories to list (id or full path); set this or `project`. */
    group: ownerReference.optional(),
    /** Include each repository's tags (projects only). */
    tags: flag,
    /** Include each repository's tag count (projects only). */
    tagsCount: flag,
  }),
  validate(args) {
    if ((args.project === undefined) === (args.group === undefined)) {
      return [{ argument: "project", reason: "project: set exactly one of project and group (a numeric id or a full path)" }];
    }
    return (["tags", "tagsCount"] as const)
      .filter((name) => args.group !== undefined && args[name] !== undefined)
      .map((name) => ({ argument: name, reason: `${name}: only for a project's repositories; the group list has no tag extras` }));
  },
  path: (args) => registryRepositoriesPath(args),
  query: (args) => ({ tags: args.tags, tags_count: args.tagsCount }),
  subject: (args) => (args.project !== undefined ? `the registry repositories of project ${args.project}` : `the registry repositories of group ${args.group}`),
  refusals: { 403: registryRefusal },
  needs: readNeeds,
  item: repositoryShape,
});

/**
 * The container registry repositories of a project or of a group (its projects', subgroups' included).
 *
 * ```ts
 * const images = await getRegistryRepositories({ project: "acme/web", tagsCount: true });
 * ```
 */
export const getRegistryRepositories = registryRepositories;
/** `getRegistryRepositories` as an Output. */
export const getRegistryRepositoriesOutput = registryRepositories.output;

const registryRepository = defineObjectFunction({
  name: "getRegistryRepository",
  args: z.object({
    /** The repository's id. */
    id: z.union([repositoryId, z.string().regex(/^\d+$/, { message: "must be a repository id (digits)" })]),
    tags: flag,
    tagsCount: flag,
    /** The deduplicated size in bytes (hosted offering, repositories created after 2021-11-04; null otherwise). */
    size: flag,
  }),
  path: (args) => registryRepositoryPath(args.id),
  query: (args) => ({ tags: args.tags, tags_count: args.tagsCount, size: args.size }),
  subject: (args) => `registry repository ${args.id}`,
  refusals: { 403: registryRefusal },
  needs: () => readNeeds({}),
  result: repositoryShape,
});

/**
 * One container registry repository by id, with the extras asked for.
 *
 * ```ts
 * const repository = await getRegistryRepository({ id: 3, tagsCount: true, size: true });
 * ```
 */
export const getRegistryRepository = registryRepository;
/** `getRegistryRepository` as an Output. */
export const getRegistryRepositoryOutput = registryRepository.output;


const registryTags = defineListFunction({
  name: "getRegistryTags",
  args: z.object({
    ...inRepository,
    /** By name, ascending (default) or descending. */
    sort: z.enum(["asc", "desc"]).default("asc"),
  }),
  path: (args) => registryTagsPath(args.project, args.repositoryId),
  // Keyset pagination, as the spec prefers to the deprecated offset pages.
  query: (args) => ({ pagination: "keyset", order_by: "name", sort: args.sort }),
  subject: (args) => `the tags of ${registryRepositorySubject(args)}`,
  refusals: { 403: registryRefusal },
  needs: readNeeds,
  item: tagSummaryShape,
});

/**
 * The tags of a registry repository, by name.
 *
 * ```ts
 * const newest = await getRegistryTags({ project: "acme/web", repositoryId: 3, sort: "desc", limit: 10 });
 * ```
 */
export const getRegistryTags = registryTags;
/** `getRegistryTags` as an Output. */
export const getRegistryTagsOutput = registryTags.output;

const registryTag = defineObjectFunction({
  name: "getRegistryTag",
  args: z.object({ ...inRepository, /** The tag's name. */ name: z.string().min(1).refine(...notDotSegments) }),
  path: registryTagPath,
  subject: (args) => `tag ${args.name} of ${registryRepositorySubject(args)}`,
  refusals: { 403: registryRefusal },
  needs: readNeeds,
  result: tagDetailShape,
});

/**
 * One tag's detail: revision, digest, manifest creation time, total size.
 *
 * ```ts
 * const { digest } = await getRegistryTag({ project: "acme/web", repositoryId: 3, name: "v1.4.0" });
 * ```
 */
export const getRegistryTag = registryTag;
/** `getRegistryTag` as an Output. */
export const getRegistryTagOutput = registryTag.output;
