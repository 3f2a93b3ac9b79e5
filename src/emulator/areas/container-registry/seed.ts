/** The `containerRegistry` seed section: the registry settings, and each project's repositories, tags and protection rules. */
import { createHash } from "node:crypto";
import { z } from "zod";
import { SeedError } from "../../seed-error";
import { type EmulatorState, type Project } from "../../state";
import {
  containerRegistryStore,
  PROTECTION_LEVEL,
  re2Error,
  REGISTRY_ACCESS_LEVELS,
  repositoriesOf,
  REPOSITORY_SEQUENCE,
  repositoryPath,
  RULE_SEQUENCE,
  type ContainerRegistryStore,
  type ProtectionAccessLevel,
  type RegistryRepositoryRecord,
  type RegistryTagRecord,
} from "./model";

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
const HOUR_MS = 3_600_000;

function seedProject(state: EmulatorState, fullPath: string, what: string): Project {
  const project = state.projectByFullPath(fullPath);
  if (!project) throw new SeedError(`containerRegistry.${what} names unknown project ${fullPath}`);
  return project;
}

function seedTag(path: string, tag: SeedRegistryTag, index: number, repositoryCreatedAt: string, earlier: RegistryTagRecord[]): RegistryTagRecord {
  if (earlier.some((t) => t.name === tag.name)) throw new SeedError(`containerRegistry: tag ${path}:${tag.name} appears twice`);
  if (tag.sameAs !== undefined) {
    const target = earlier.find((t) => t.name === tag.sameAs);
    if (!target) throw new SeedError(`containerRegistry: tag ${path}:${tag.name} is sameAs unknown tag ${tag.sameAs} (list it first)`);
    return { ...target, name: tag.name };
  }
  const digest = tag.digest ?? `sha256:${sha256(`manifest ${path}:${tag.name}`)}`;
  return {
    name: tag.name,
    digest,
    revision: tag.revision ?? sha256(`config ${digest}`),
    createdAt: new Date(tag.createdAt ?? Date.parse(repositoryCreatedAt) + (index + 1) * HOUR_MS).toISOString(),
    totalSize: tag.size ?? 1_000_000 + (Number.parseInt(digest.slice(7, 13), 16) % 50_000_000),
  };
}

function seedRepositories(state: EmulatorState, store: ContainerRegistryStore, section: ContainerRegistrySeed): void {
  for (const [fullPath, repositories] of Object.entries(section.repositories)) {
    const project = seedProject(state, fullPath, "repositories");
    for (const seed of repositories) {
      const { name } = seed;
      if (repositoriesOf(state, project).some((r) => r.name === name)) {
        throw new SeedError(`containerRegistry: repository "${name}" of ${fullPath} appears twice`);
      }
      const id = seed.id ?? state.nextId(REPOSITORY_SEQUENCE);
      if (seed.id !== undefined) state.reserveId(REPOSITORY_SEQUENCE, seed.id);
      const createdAt = new Date(seed.createdAt ?? Date.parse(project.createdAt) + 24 * HOUR_MS).toISOString();
      const repository: RegistryRepositoryRecord = {
        id, projectId: project.id, name, createdAt, cleanupPolicyStartedAt: null, status: null, tags: [], lastBulkDeleteAt: null,
      };
      const path = repositoryPath(state, repository);
      seed.tags.forEach((tag, index) => repository.tags.push(seedTag(path, tag, index, createdAt, repository.tags)));
      store.repositories.push(repository);
    }
  }
}

function seedProtectionRules(state: EmulatorState, store: ContainerRegistryStore, section: ContainerRegistrySeed): void {
  for (const [fullPath, rules] of Object.entries(section.protectionRules)) {
    const project = seedProject(state, fullPath, "protectionRules");
    for (const rule of rules) store.protectionRules.push({ id: state.nextId(RULE_SEQUENCE), projectId: project.id, ...rule });
  }
}

const switchRule = "must be true or false";
const time = z.string({ error: "must be an ISO 8601 time" }).refine((text) => !Number.isNaN(Date.parse(text)), "must be an ISO 8601 time");
const byProject = { error: "must be an object keyed by project full path" };

const seedTagSchema = z.object(
  {
    name: z.string({ error: "must be a tag name" }).min(1, "must be a tag name"),
    /** Manifest creation time; default: the repository's creation plus one hour per tag, in order. */
    createdAt: time.optional(),
    /** Bytes; default derived from the names. */
    size: z.number({ error: "must be a number of bytes" }).int("must be a number of bytes").nonnegative("must be a number of bytes").optional(),
    /** Default derived from the repository path and tag name. */
    digest: z.string({ error: "must be sha256:<64 hex>" }).regex(/^sha256:[0-9a-f]{64}$/, "must be sha256:<64 hex>").optional(),
    /** 64 hex; default derived from the digest. */
    revision: z.string({ error: "must be a string" }).optional(),
    /** Another tag of the same repository (listed before) whose manifest this tag points at. */
    sameAs: z.string({ error: "must be a tag name" }).optional(),
  },
  { error: "must be an object" },
);
type SeedRegistryTag = z.output<typeof seedTagSchema>;

const seedRepositorySchema = z.object(
  {
    /** "" (default) for the project's root image; stored in lower case, as the registry names it. */
    name: z
      .string({ error: "must be a string" })
      .default("")
      .transform((name) => name.toLowerCase()),
    id: z.number({ error: "must be an integer" }).int("must be an integer").positive("must be a positive integer").optional(),
    createdAt: time.optional(),
    tags: z.array(seedTagSchema, { error: "must be a list of tags" }).default([]),
  },
  { error: "must be an object" },
);

const protectionLevel = z.enum(Object.keys(PROTECTION_LEVEL) as [ProtectionAccessLevel, ...ProtectionAccessLevel[]], {
  error: `must be one of ${Object.keys(PROTECTION_LEVEL).join(", ")}`,
});
const seedProtectionRuleSchema = z.object(
  {
    tagNamePattern: z
      .string({ error: "must be an RE2 pattern" })
      .min(1, "must be an RE2 pattern")
      .superRefine((pattern, context) => {
        const problem = re2Error(pattern);
        if (problem) context.addIssue({ code: "custom", message: `must be an RE2 pattern: ${problem}` });
      }),
    minimumAccessLevelForDelete: protectionLevel.default("maintainer"),
    minimumAccessLevelForPush: protectionLevel.default("maintainer"),
  },
  { error: "must be an object" },
);

/** The section: the registry's settings, and per project its access level, repositories (with their tags) and tag protection rules. */
export const containerRegistrySeedSchema = z.object(
  {
    enabled: z.boolean({ error: switchRule }).default(true),
    host: z.string({ error: "must be a host name" }).min(1, "must be a host name").optional(),
    tagDelete: z.boolean({ error: switchRule }).default(true),
    accessLevels: z
      .record(z.string(), z.enum(REGISTRY_ACCESS_LEVELS, { error: `must be one of ${REGISTRY_ACCESS_LEVELS.join(", ")}` }), byProject)
      .default({}),
    repositories: z.record(z.string(), z.array(seedRepositorySchema, { error: "must be a list of repositories" }), byProject).default({}),
    protectionRules: z.record(z.string(), z.array(seedProtectionRuleSchema, { error: "must be a list of rules" }), byProject).default({}),
  },
  { error: "must be an object" },
);
type ContainerRegistrySeed = z.output<typeof containerRegistrySeedSchema>;

/** Applies the `containerRegistry` seed section (absent: an empty registry with tag delete on). */
export function applyContainerRegistrySeed(state: EmulatorState, section: ContainerRegistrySeed | undefined): void {
  const store = containerRegistryStore.of(state);
  // A stable key per seed, so that tokens stay valid across restarts from the same seed.
  store.tokenSecret = sha256(`registry token key ${state.instance.host}`);
  if (section === undefined) return;
  store.tagDelete = section.tagDelete;
  store.enabled = section.enabled;
  store.host = section.host;
  for (const [fullPath, level] of Object.entries(section.accessLevels)) {
    seedProject(state, fullPath, "accessLevels").containerRegistryAccessLevel = level;
  }
  seedRepositories(state, store, section);
  seedProtectionRules(state, store, section);
}
