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
  type RegistryAccessLevel,
  type RegistryRepositoryRecord,
  type RegistryTagRecord,
} from "./model";

export interface SeedRegistryTag {
  name: string;
  /** Manifest creation time; default: the repository's creation plus one hour per tag, in order. */
  createdAt?: string;
  /** Bytes; default derived from the names. */
  size?: number;
  /** `sha256:<64 hex>`; default derived from the repository path and tag name. */
  digest?: string;
  /** 64 hex; default derived from the digest. */
  revision?: string;
  /** Another tag of the same repository (listed before) whose manifest this tag points at. */
  sameAs?: string;
}

export interface SeedRegistryRepository {
  /** "" (default) for the project's root image. */
  name?: string;
  id?: number;
  createdAt?: string;
  tags?: SeedRegistryTag[];
}

export interface SeedTagProtectionRule {
  tagNamePattern: string;
  minimumAccessLevelForDelete?: ProtectionAccessLevel;
  minimumAccessLevelForPush?: ProtectionAccessLevel;
}

export interface ContainerRegistrySeed {
  /** The instance's registry is on; default true. */
  enabled?: boolean;
  /** The registry's host as the API names it (`location`, `container_registry_image_prefix`); default `registry.<instance host>`. */
  host?: string;
  /** The registry's tag delete feature; default true. */
  tagDelete?: boolean;
  /** Project full path → the registry access level (default enabled). */
  accessLevels?: Record<string, RegistryAccessLevel>;
  /** Project full path → its repositories. */
  repositories?: Record<string, SeedRegistryRepository[]>;
  /** Project full path → its tag protection rules. */
  protectionRules?: Record<string, SeedTagProtectionRule[]>;
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
const HOUR_MS = 3_600_000;

function seedProject(state: EmulatorState, fullPath: string, what: string): Project {
  const project = state.projectByFullPath(fullPath);
  if (!project) throw new SeedError(`containerRegistry.${what} names unknown project ${fullPath}`);
  return project;
}

function seedTag(path: string, tag: SeedRegistryTag, index: number, repositoryCreatedAt: string, earlier: RegistryTagRecord[]): RegistryTagRecord {
  if (typeof tag.name !== "string" || tag.name === "") throw new SeedError(`containerRegistry: a tag of ${path} has no name`);
  if (earlier.some((t) => t.name === tag.name)) throw new SeedError(`containerRegistry: tag ${path}:${tag.name} appears twice`);
  if (tag.sameAs !== undefined) {
    const target = earlier.find((t) => t.name === tag.sameAs);
    if (!target) throw new SeedError(`containerRegistry: tag ${path}:${tag.name} is sameAs unknown tag ${tag.sameAs} (list it first)`);
    return { ...target, name: tag.name };
  }
  if (tag.digest !== undefined && !/^sha256:[0-9a-f]{64}$/.test(tag.digest)) {
    throw new SeedError(`containerRegistry: tag ${path}:${tag.name} has a digest that is not sha256:<64 hex>`);
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
  for (const [fullPath, repositories] of Object.entries(section.repositories ?? {})) {
    const project = seedProject(state, fullPath, "repositories");
    for (const seed of repositories) {
      const name = (seed.name ?? "").toLowerCase();
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
      (seed.tags ?? []).forEach((tag, index) => repository.tags.push(seedTag(path, tag, index, createdAt, repository.tags)));
      store.repositories.push(repository);
    }
  }
}

function seedProtectionRules(state: EmulatorState, store: ContainerRegistryStore, section: ContainerRegistrySeed): void {
  const levels = Object.keys(PROTECTION_LEVEL);
  for (const [fullPath, rules] of Object.entries(section.protectionRules ?? {})) {
    const project = seedProject(state, fullPath, "protectionRules");
    for (const rule of rules) {
      const problem = re2Error(rule.tagNamePattern ?? "");
      if (!rule.tagNamePattern || problem) throw new SeedError(`containerRegistry: bad tagNamePattern of ${fullPath}: ${problem ?? "missing"}`);
      const forDelete = rule.minimumAccessLevelForDelete ?? "maintainer";
      const forPush = rule.minimumAccessLevelForPush ?? "maintainer";
      if (!levels.includes(forDelete) || !levels.includes(forPush)) {
        throw new SeedError(`containerRegistry: protection rule levels of ${fullPath} must be one of ${levels.join(", ")}`);
      }
      store.protectionRules.push({
        id: state.nextId(RULE_SEQUENCE),
        projectId: project.id,
        tagNamePattern: rule.tagNamePattern,
        minimumAccessLevelForDelete: forDelete,
        minimumAccessLevelForPush: forPush,
      });
    }
  }
}

/** Applies the `containerRegistry` seed section (absent: an empty registry with tag delete on). */
const switchRule = "must be true or false";

/** The section's settings; its repositories and protection rules are read by `seedRepositories` and `seedProtectionRules`. */
export const containerRegistrySeedSchema = z.object(
  {
    enabled: z.boolean({ error: switchRule }).default(true),
    host: z.string({ error: "must be a host name" }).min(1, "must be a host name").optional(),
    tagDelete: z.boolean({ error: switchRule }).default(true),
    accessLevels: z
      .record(z.string(), z.enum(REGISTRY_ACCESS_LEVELS, { error: `must be one of ${REGISTRY_ACCESS_LEVELS.join(", ")}` }), { error: "must be an object keyed by project full path" })
      .default({}),
    repositories: z.record(z.string(), z.array(z.unknown(), { error: "must be a list of repositories" }), { error: "must be an object keyed by project full path" }).optional(),
    protectionRules: z.record(z.string(), z.array(z.unknown(), { error: "must be a list of rules" }), { error: "must be an object keyed by project full path" }).optional(),
  },
  { error: "must be an object" },
);

export function applyContainerRegistrySeed(state: EmulatorState, section: z.infer<typeof containerRegistrySeedSchema> | undefined): void {
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
  seedRepositories(state, store, section as ContainerRegistrySeed);
  seedProtectionRules(state, store, section as ContainerRegistrySeed);
}
