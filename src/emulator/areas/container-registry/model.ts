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
 * - Permissions: `read_container_image` for
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
import { randomBytes } from "node:crypto";
import { RE2JS } from "re2js";
import { canReadProject, projectAccessLevel } from "../../access";
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
export const RULE_SEQUENCE = "container_registry_protection_tag_rules";

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

export const PROTECTION_LEVEL: Record<ProtectionAccessLevel, number> = { maintainer: 40, owner: 50, admin: 60 };

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

