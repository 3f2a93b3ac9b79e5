/**
 * The emulator's in-memory model: the instance, users, groups, projects,
 * id sequences, and one store per API area that route modules define for
 * themselves (see `defineStore`). Everything here is plain JSON, so the whole
 * state can be written to a file and read back (`toJSON` / `fromJSON`).
 */

export type Offering = "hosted" | "self-managed" | "dedicated";
export type Tier = "free" | "premium" | "ultimate";
export type Visibility = "private" | "internal" | "public";

/** Access levels, as the API numbers them. */
export const AccessLevel = {
  NoAccess: 0,
  Minimal: 5,
  Guest: 10,
  Planner: 15,
  Reporter: 20,
  Developer: 30,
  Maintainer: 40,
  Owner: 50,
} as const;
export type AccessLevelValue = (typeof AccessLevel)[keyof typeof AccessLevel];

export interface InstanceInfo {
  offering: Offering;
  /** The licence tier of the instance; on the hosted offering, the tier of top-level groups without their own. */
  tier: Tier;
  /** Host name the instance believes it is served at (`%{gitlab_server}`, `web_url`). */
  host: string;
  /** Pages hosting domain (`%{gitlab_pages_domain}`). */
  pagesDomain: string;
  version: string;
  revision: string;
  enterprise: boolean;
  /**
   * Feature flags by name: true or false for the whole instance, or the full
   * paths of the top-level groups it is enabled for (`Feature.enabled?(flag, group)`).
   * A flag that is not listed runs on its definition's default (`featureFlagDefaults`).
   */
  featureFlags?: Record<string, boolean | string[]>;
  /**
   * The definitions of the instance's code, over `FEATURE_FLAG_DEFAULTS`: the
   * default a flag never set runs on (`default_enabled`), or null for a flag
   * removed from the code (the feature is generally available: always on,
   * listed neither by `GET /features` nor by `GET /features/definitions`).
   */
  featureFlagDefaults?: Record<string, boolean | null>;
}

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  isAdmin: boolean;
  /** Personal access tokens, sent in `PRIVATE-TOKEN` or `Authorization: Bearer`. */
  tokens: string[];
  /** Scopes per token (`api`, `read_api`, ...); a token not listed has every scope. */
  tokenScopes?: Record<string, string[]>;
  /** A blocked account's tokens are refused by every API call (absent: active). */
  blocked?: boolean;
  createdAt: string;
}

/** Direct memberships: user id (as a JSON object key) → access level. */
export type Members = Record<string, number>;

/** A group invited into a group or a project (a share): its members get up to `access` there. */
export interface GroupLink {
  groupId: number;
  access: number;
  /** `YYYY-MM-DD`, or null: the share never ends. */
  expiresAt: string | null;
}

export interface Group {
  id: number;
  name: string;
  path: string;
  parentId: number | null;
  visibility: Visibility;
  description: string;
  createdAt: string;
  /** Hosted offering: the subscription tier of a top-level group (null: the instance's tier). */
  tier: Tier | null;
  members: Members;
  /** The groups this group is shared with (absent: none). */
  sharedWith?: GroupLink[];
  /** Full paths this group had before a rename: the projects below it are still found through them (the group itself is not). */
  formerPaths: string[];
  /**
   * A user's personal namespace (the user's id), where the projects a user
   * makes without naming a group go: no group of the groups API (never
   * found or listed as one), owned by its user.
   */
  personalOf?: number;
}

export interface Project {
  id: number;
  name: string;
  path: string;
  /** The group the project lives in. */
  namespaceId: number;
  visibility: Visibility;
  description: string;
  createdAt: string;
  defaultBranch: string;
  /** Last commit on the default branch; null for an empty repository. */
  lastCommitSha: string | null;
  latestTag: string | null;
  /** Branch names of the repository (absent in older state files: then only the default branch). */
  branches?: string[];
  /** Each branch's head commit, as the repository has it (absent in older state files). */
  branchHeads?: Record<string, string>;
  /** Tag names of the repository (absent in older state files: then only `latestTag`, if any). */
  tags?: string[];
  /**
   * What the repository held when its refs were last read (at start, after
   * each write): the commits of the default branch and its size on disk in
   * bytes. Absent until then.
   */
  repositoryStatistics?: { commitCount: number; repositorySize: number };
  members: Members;
  /** The groups this project is shared with (absent: none). */
  sharedWith?: GroupLink[];
  formerPaths: string[];
  /** Who sees the container registry (`container_registry_access_level`); absent: "enabled". */
  containerRegistryAccessLevel?: "enabled" | "private" | "disabled";
}

export interface SerializedState {
  format: 1;
  instance: InstanceInfo;
  users: User[];
  groups: Group[];
  projects: Project[];
  sequences: Record<string, number>;
  stores: Record<string, unknown>;
}

/** Id sequences of the core model; route modules use their own names. */
/**
 * The feature flags the emulated code defines, with the default each runs on
 * when never set (`default_enabled` of its definition): the experiments off,
 * the flags GitLab ships enabled on.
 */
export const FEATURE_FLAG_DEFAULTS: Readonly<Record<string, boolean>> = {
  container_virtual_registries: false,
  maven_virtual_registry: false,
  group_agnostic_token_revocation: false,
  confidential_epics: true,
  epic_relations_for_non_members: true,
};

export const Sequence = { users: "users", namespaces: "namespaces", projects: "projects" } as const;

export type Clock = () => number;

const sameText = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export class EmulatorState {
  instance: InstanceInfo;
  users: User[];
  groups: Group[];
  projects: Project[];
  private readonly sequences: Record<string, number>;
  private readonly stores: Record<string, unknown>;

  constructor(
    data: SerializedState,
    /** Milliseconds since the epoch; tests may pass a fake one. */
    readonly clock: Clock = Date.now,
  ) {
    this.instance = data.instance;
    this.users = data.users;
    this.groups = data.groups;
    this.projects = data.projects;
    this.sequences = { ...data.sequences };
    this.stores = { ...data.stores };
  }

  static fromJSON(data: SerializedState, clock?: Clock): EmulatorState {
    if (data.format !== 1) throw new Error(`unsupported emulator state format: ${String(data.format)}`);
    return new EmulatorState(structuredClone(data), clock);
  }

  toJSON(): SerializedState {
    return structuredClone({
      format: 1,
      instance: this.instance,
      users: this.users,
      groups: this.groups,
      projects: this.projects,
      sequences: this.sequences,
      stores: this.stores,
    });
  }

  /** The current time as the ISO 8601 text the API uses. */
  now(): string {
    return new Date(this.clock()).toISOString();
  }

  /** Next id of a named sequence (1, 2, ...); ids are never reused. */
  nextId(sequence: string): number {
    const next = (this.sequences[sequence] ?? 0) + 1;
    this.sequences[sequence] = next;
    return next;
  }

  /** Makes sure a sequence continues after ids that were given explicitly (seeds). */
  reserveId(sequence: string, id: number): void {
    this.sequences[sequence] = Math.max(this.sequences[sequence] ?? 0, id);
  }

  /** The store of one API area, created on first use. Prefer `defineStore` to calling this. */
  store<T>(name: string, create: () => T): T {
    if (!(name in this.stores)) this.stores[name] = create();
    return this.stores[name] as T;
  }

  // --- users -----------------------------------------------------------------

  userByToken(token: string): User | undefined {
    return this.users.find((user) => user.tokens.includes(token));
  }

  userById(id: number): User | undefined {
    return this.users.find((user) => user.id === id);
  }

  userByUsername(username: string): User | undefined {
    return this.users.find((user) => sameText(user.username, username));
  }

  // --- groups ----------------------------------------------------------------

  groupById(id: number): Group | undefined {
    return this.groups.find((group) => group.id === id);
  }

  /** Full paths are matched case-insensitively, as real servers do. */
  groupByFullPath(fullPath: string): Group | undefined {
    return this.groups.find((group) => sameText(this.groupFullPath(group), fullPath));
  }

  /** The user's personal namespace, made on first use (path: the username). */
  personalNamespaceOf(user: User): Group {
    const found = this.groups.find((group) => group.personalOf === user.id);
    if (found) return found;
    const namespace: Group = {
      id: this.nextId(Sequence.namespaces),
      name: user.name,
      path: user.username,
      parentId: null,
      // A personal namespace limits no project's visibility.
      visibility: "public",
      description: "",
      createdAt: this.now(),
      tier: null,
      members: { [String(user.id)]: 50 },
      formerPaths: [],
      personalOf: user.id,
    };
    this.groups.push(namespace);
    return namespace;
  }

  /** The group itself, then its parent, up to the top-level group. */
  selfAndAncestors(group: Group): Group[] {
    const chain: Group[] = [];
    for (let current: Group | undefined = group; current; ) {
      chain.push(current);
      current = current.parentId === null ? undefined : this.groupById(current.parentId);
    }
    return chain;
  }

  topLevelGroup(group: Group): Group {
    const chain = this.selfAndAncestors(group);
    return chain[chain.length - 1] ?? group;
  }

  groupFullPath(group: Group): string {
    return this.selfAndAncestors(group)
      .reverse()
      .map((g) => g.path)
      .join("/");
  }

  /** `Parent / Child` as in the API's `full_name`. */
  groupFullName(group: Group): string {
    return this.selfAndAncestors(group)
      .reverse()
      .map((g) => g.name)
      .join(" / ");
  }

  /** Every group below this one, at any depth. */
  descendants(group: Group): Group[] {
    const children = this.groups.filter((g) => g.parentId === group.id);
    return children.flatMap((child) => [child, ...this.descendants(child)]);
  }

  /** Licence tier that applies to a group (hosted: its top-level group's subscription). */
  tierOf(group: Group): Tier {
    if (this.instance.offering !== "hosted") return this.instance.tier;
    return this.topLevelGroup(group).tier ?? this.instance.tier;
  }

  /**
   * The flags the instance's code defines, with the default of each; a flag
   * defined by neither (an unknown name, or one removed) is on.
   */
  featureFlagDefinitions(): Record<string, { defaultEnabled: boolean }> {
    const defaults = { ...FEATURE_FLAG_DEFAULTS, ...this.instance.featureFlagDefaults };
    return Object.fromEntries(Object.entries(defaults).flatMap(([name, value]) => (value === null ? [] : [[name, { defaultEnabled: value }]])));
  }

  /** Whether a feature flag is on, for the instance or for the top-level group of `group`. */
  featureEnabled(flag: string, group?: Group): boolean {
    const setting = this.instance.featureFlags?.[flag];
    if (typeof setting === "boolean") return setting;
    if (!setting) return this.featureFlagDefinitions()[flag]?.defaultEnabled ?? !(flag in this.featureFlagDefinitions());
    if (!group) return false;
    const topLevelPath = this.groupFullPath(this.topLevelGroup(group));
    return setting.some((path) => sameText(path, topLevelPath));
  }

  // --- projects --------------------------------------------------------------

  projectById(id: number): Project | undefined {
    return this.projects.find((project) => project.id === id);
  }

  projectByFullPath(fullPath: string): Project | undefined {
    return this.projects.find((project) => sameText(this.projectFullPath(project), fullPath));
  }

  namespaceOf(project: Project): Group {
    const group = this.groupById(project.namespaceId);
    if (!group) throw new Error(`project ${project.id} has no namespace ${project.namespaceId}`);
    return group;
  }

  projectFullPath(project: Project): string {
    return `${this.groupFullPath(this.namespaceOf(project))}/${project.path}`;
  }

  /** Projects directly in a group, or also in its subgroups. */
  projectsIn(group: Group, options: { includeSubgroups: boolean }): Project[] {
    const groupIds = new Set([group.id]);
    if (options.includeSubgroups) for (const g of this.descendants(group)) groupIds.add(g.id);
    return this.projects.filter((project) => groupIds.has(project.namespaceId));
  }

  // --- renames ---------------------------------------------------------------

  /**
   * The current full path for a path that a group or project had before a
   * rename. A group's old path also moves everything below it:
   * `old-acme/web` → `acme/web`.
   */
  currentPathOf(formerPath: string): string | undefined {
    const lower = formerPath.toLowerCase();
    for (const project of this.projects) {
      if (project.formerPaths.some((old) => old.toLowerCase() === lower)) return this.projectFullPath(project);
    }
    for (const group of this.groups) {
      for (const old of group.formerPaths) {
        const oldLower = old.toLowerCase();
        if (lower === oldLower || lower.startsWith(`${oldLower}/`)) {
          return this.groupFullPath(group) + formerPath.slice(old.length);
        }
      }
    }
    return undefined;
  }
}

/**
 * A typed handle on one API area's store, for route modules:
 *
 *     const badgeStore = defineStore("badges", (): BadgeStore => ({ badges: [] }));
 *     badgeStore.of(ctx.state).badges.push(...)
 *
 * The store is plain JSON and is saved with the rest of the state.
 */
export function defineStore<T>(name: string, create: () => T): { readonly name: string; of(state: EmulatorState): T } {
  return { name, of: (state) => state.store(name, create) };
}
