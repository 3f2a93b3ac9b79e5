/**
 * The container registry's model: registry
 * repositories per project with their tags, tag protection rules, the bulk
 * deletions waiting for the background worker, and the registry's own
 * settings; the `containerRegistry` seed section; who may read, delete and
 * administer images.
 *
 * Where the spec is silent this follows the real server's source
 * (gitlabhq/gitlabhq):
 * - `ContainerRepository#path` is the project's full path joined with the
 *   repository name, in lower case; `location` is `<registry host>/<path>`.
 * - `ContainerRepository#tags` lists tags sorted by name.
 * - Permissions (app/policies/project_policy.rb): `read_container_image` for
 *   Reporter+, and for everyone who can see a public or internal project when
 *   the registry is `enabled`; `destroy_container_image` for Developer+;
 *   `admin_container_image` for Maintainer+. `container_registry_disabled`
 *   prevents all of them, administrators included (a `prevent` rule beats
 *   every `enable`). `private` keeps Reporter+ (and administrators) only.
 * - Tag protection (ContainerRegistry::Protection::TagRule and
 *   Gitlab::DeleteTagsService#filter_out_protected!): a rule protects the
 *   tags its RE2 `tag_name_pattern` finds (unanchored) from users whose
 *   project access is below its `minimum_access_level_for_delete`
 *   (maintainer, owner or admin); administrators pass every rule.
 */
import { createHash, randomBytes } from "node:crypto";
import { RE2JS } from "re2js";
import { canReadProject, projectAccessLevel } from "../../access";
import { z } from "zod";
import { SeedError } from "../../seed-error";
import { AccessLevel, defineStore, type EmulatorState, type Project, type User } from "../../state";

export type RegistryAccessLevel = "enabled" | "private" | "disabled";
export const REGISTRY_ACCESS_LEVELS: readonly RegistryAccessLevel[] = ["disabled", "private", "enabled"];
export type RepositoryStatus = "delete_scheduled" | "delete_ongoing";
export type ProtectionAccessLevel = "maintainer" | "owner" | "admin";

export interface RegistryTagRecord {
  name: string;
  /** Manifest digest, `sha256:<64 hex>`; tags on one manifest share it. */
  digest: string;
  /** Config blob digest without its prefix (64 hex): the API's `revision`. */
  revision: string;
  /** Creation time of the manifest (not of the tag push); null when the registry does not know it. */
  createdAt: string | null;
  totalSize: number;
}

export interface RegistryRepositoryRecord {
  id: number;
  projectId: number;
  /** "" for the image at the project's own path. */
  name: string;
  createdAt: string;
  cleanupPolicyStartedAt: string | null;
  status: RepositoryStatus | null;
  tags: RegistryTagRecord[];
  /** When the last bulk tag deletion was accepted: the hour-long lease starts there. */
  lastBulkDeleteAt: string | null;
}

export interface TagProtectionRuleRecord {
  id: number;
  projectId: number;
  tagNamePattern: string;
  minimumAccessLevelForDelete: ProtectionAccessLevel;
  minimumAccessLevelForPush: ProtectionAccessLevel;
}

/** The declared parameters of an accepted bulk deletion, as CleanupContainerRepositoryWorker receives them. */
export interface BulkDeleteParams {
  nameRegexDelete: string | null;
  nameRegex: string | null;
  nameRegexKeep: string | null;
  keepN: number | null;
  olderThan: string | null;
}

export interface PendingBulkDelete {
  repositoryId: number;
  userId: number;
  acceptedAt: string;
  params: BulkDeleteParams;
}

export interface ContainerRegistryStore {
  repositories: RegistryRepositoryRecord[];
  protectionRules: TagProtectionRuleRecord[];
  pendingBulkDeletes: PendingBulkDelete[];
  /** The registry's tag delete feature (`DELETE /v2/<name>/tags/reference/<tag>` and manifest deletes). */
  tagDelete: boolean;
  /** HMAC key of the registry tokens `/jwt/auth` issues. */
  tokenSecret: string;
  /** The instance's registry is on (`registry.enabled` of gitlab.yml): off, `/jwt/auth` answers 404 and projects name no image prefix. */
  enabled: boolean;
  /** The registry's host (and port) as the API names it; default `registry.<instance host>`. */
  host?: string;
}

export const containerRegistryStore = defineStore(
  "container-registry",
  (): ContainerRegistryStore => ({
    repositories: [],
    protectionRules: [],
    pendingBulkDeletes: [],
    tagDelete: true,
    tokenSecret: randomBytes(32).toString("hex"),
    enabled: true,
  }),
);

export const REPOSITORY_SEQUENCE = "container_repositories";
const RULE_SEQUENCE = "container_registry_protection_tag_rules";

// ---------------------------------------------------------------------------
// Paths and lookups

/** The registry's host name: the seed's `host`, else `registry.<instance host>`. */
export const registryHost = (state: EmulatorState): string => containerRegistryStore.of(state).host ?? `registry.${state.instance.host}`;

export function repositoryPath(state: EmulatorState, repository: RegistryRepositoryRecord): string {
  const project = state.projectById(repository.projectId);
  const projectPath = project ? state.projectFullPath(project) : String(repository.projectId);
  return (repository.name === "" ? projectPath : `${projectPath}/${repository.name}`).toLowerCase();
}

export const repositoryLocation = (state: EmulatorState, repository: RegistryRepositoryRecord): string =>
  `${registryHost(state)}/${repositoryPath(state, repository)}`;

export const repositoriesOf = (state: EmulatorState, project: Project): RegistryRepositoryRecord[] =>
  containerRegistryStore
    .of(state)
    .repositories.filter((repository) => repository.projectId === project.id)
    .sort((a, b) => a.id - b.id);

export const repositoryById = (state: EmulatorState, id: number): RegistryRepositoryRecord | undefined =>
  containerRegistryStore.of(state).repositories.find((repository) => repository.id === id);

export const repositoryByPath = (state: EmulatorState, path: string): RegistryRepositoryRecord | undefined =>
  containerRegistryStore
    .of(state)
    .repositories.find((repository) => repositoryPath(state, repository) === path.toLowerCase());

/** The project an image path belongs to: the longest leading part of it that is a project's full path. */
export function projectOfImagePath(state: EmulatorState, imagePath: string): Project | undefined {
  const parts = imagePath.split("/");
  for (let length = parts.length; length >= 2; length--) {
    const project = state.projectByFullPath(parts.slice(0, length).join("/"));
    if (project) return project;
  }
  return undefined;
}

/** Tags sorted by name, as `ContainerRepository#tags` gives them. */
export const sortedTags = (repository: RegistryRepositoryRecord): RegistryTagRecord[] =>
  [...repository.tags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

// ---------------------------------------------------------------------------
// Permissions

export const registryAccessLevelOf = (project: Project): RegistryAccessLevel =>
  project.containerRegistryAccessLevel ?? "enabled";

/** `read_container_image` on the project. */
export function canReadContainerImages(state: EmulatorState, user: User | null, project: Project): boolean {
  const level = registryAccessLevelOf(project);
  if (level === "disabled") return false;
  if (user?.isAdmin) return true;
  if (projectAccessLevel(state, user, project) >= AccessLevel.Reporter) return true;
  return level === "enabled" && project.visibility !== "private" && canReadProject(state, user, project);
}

function hasRegistryRole(state: EmulatorState, user: User | null, project: Project, level: number): boolean {
  if (registryAccessLevelOf(project) === "disabled" || !user) return false;
  return user.isAdmin || projectAccessLevel(state, user, project) >= level;
}

/** `create_container_image` (push): Developer+. */
export const canPushContainerImages = (state: EmulatorState, user: User | null, project: Project): boolean =>
  hasRegistryRole(state, user, project, AccessLevel.Developer);

/** `destroy_container_image` (delete one tag): Developer+. */
export const canDestroyContainerImages = (state: EmulatorState, user: User | null, project: Project): boolean =>
  hasRegistryRole(state, user, project, AccessLevel.Developer);

/** `admin_container_image` (delete a repository, bulk tag deletion): Maintainer+. */
export const canAdminContainerImages = (state: EmulatorState, user: User | null, project: Project): boolean =>
  hasRegistryRole(state, user, project, AccessLevel.Maintainer);

const PROTECTION_LEVEL: Record<ProtectionAccessLevel, number> = { maintainer: 40, owner: 50, admin: 60 };

/** The RE2 patterns of the rules this user does not pass; none for administrators. */
export function protectedPatternsFor(state: EmulatorState, user: User | null, project: Project): RE2JS[] {
  if (user?.isAdmin) return [];
  const level = projectAccessLevel(state, user, project);
  return containerRegistryStore
    .of(state)
    .protectionRules.filter((rule) => rule.projectId === project.id && PROTECTION_LEVEL[rule.minimumAccessLevelForDelete] > level)
    .map((rule) => RE2JS.compile(rule.tagNamePattern));
}

export const isProtectedName = (patterns: readonly RE2JS[], name: string): boolean =>
  patterns.some((pattern) => pattern.matcher(name).find());

// ---------------------------------------------------------------------------
// Regular expressions (Gitlab::UntrustedRegexp, i.e. RE2)

/**
 * Go's RE2 wording (re2js) → the C++ RE2 wording real servers report
 * (`RegexpStatus::Text()`: `<code text>: <argument>`).
 */
const RE2_CODE_TEXT: [go: string, cpp: string][] = [
  ["missing closing )", "missing )"],
  ["missing closing ]", "missing ]"],
  ["missing argument to repetition operator", "no argument for repetition operator"],
  ["invalid nested repetition operator", "bad repetition operator"],
  ["invalid repeat count", "invalid repetition size"],
  ["invalid or unsupported Perl syntax", "invalid perl operator"],
  ["invalid named capture", "invalid named capture group"],
  ["trailing backslash at end of expression", "trailing \\"],
];

/** undefined when `pattern` is a valid RE2 expression, else RE2's error text. */
export function re2Error(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    const text = (error instanceof Error ? error.message : String(error)).replace(/^error parsing regexp: /, "");
    const match = /^(.*?): `(.*)`$/s.exec(text);
    if (!match) return text;
    const [, code = "", argument = ""] = match;
    const cppCode = RE2_CODE_TEXT.find(([go]) => go === code)?.[1] ?? code;
    return `${cppCode}: ${argument}`;
  }
}

// ---------------------------------------------------------------------------
// Seed section `containerRegistry`

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
