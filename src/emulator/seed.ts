/**
 * The seed: a small, human-written description of an instance (users with
 * their tokens, groups, projects, memberships) that becomes the emulator's
 * starting state. Given as an object or as the path of a JSON file.
 *
 * Groups refer to their parent and projects to their group by full path;
 * memberships are `username → access level`. Parents must come before their
 * subgroups. Omitted ids are assigned in order; omitted creation times are
 * spaced one hour apart from 2024-01-01 in seed order, so the state is the
 * same on every start.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { FaultPlan } from "./faults";
import { z } from "zod";
import { parseSection, seedingOrder, type EmulatorArea } from "./area";
import { SeedError } from "./seed-error";
import {
  EmulatorState,
  Sequence,
  type Clock,
  type Group,
  type InstanceInfo,
  type Members,
  type Project,
  type Tier,
  type User,
  type Visibility,
} from "./state";

export interface SeedUser {
  username: string;
  id?: number;
  name?: string;
  email?: string;
  admin?: boolean;
  /** A personal access token; `tokens` for several. */
  token?: string;
  tokens?: string[];
  /** Scopes per token (`{"glpat-x": ["read_api"]}`); a token not listed has every scope. */
  tokenScopes?: Record<string, string[]>;
  /** A blocked account: its tokens are refused with 403 by every API call. */
  blocked?: boolean;
}

export interface SeedGroup {
  /** The group's own path segment. */
  path: string;
  /** Full path of the parent group; absent for a top-level group. */
  parent?: string;
  id?: number;
  name?: string;
  description?: string;
  /** Default private. */
  visibility?: Visibility;
  /** Hosted offering: the top-level group's subscription tier. */
  tier?: Tier;
  createdAt?: string;
  /** username → access level (10 guest ... 50 owner). */
  members?: Record<string, number>;
  /** Full paths the group had before renames (a project below it is still found through them; the group is not). */
  formerPaths?: string[];
}

export interface SeedProject {
  path: string;
  /** Full path of the group the project lives in. */
  namespace: string;
  id?: number;
  name?: string;
  description?: string;
  visibility?: Visibility;
  createdAt?: string;
  /** Default "main". */
  defaultBranch?: string;
  /** Last commit on the default branch; default a fixed sha derived from the path; null: empty repository. */
  commitSha?: string | null;
  latestTag?: string | null;
  /** Branch names; default [defaultBranch]. A short ref is expanded against these and `tags`. */
  branches?: string[];
  /** Tag names; default [latestTag] (none without a latest tag). */
  tags?: string[];
  members?: Record<string, number>;
  formerPaths?: string[];
}

export interface Seed {
  instance?: Partial<InstanceInfo>;
  users?: SeedUser[];
  groups?: SeedGroup[];
  projects?: SeedProject[];
  /** A fault plan in force from the start (faults.ts; a path starting with `^` is a RegExp). Not part of the state. */
  faults?: FaultPlan;
  /**
   * The sections of the API areas (`containerRegistry`, `securityReports`,
   * `errorTracking`, ...): each area reads its own (`EmulatorArea.seed`).
   */
  [section: string]: unknown;
}

const visibility = z.enum(["private", "internal", "public"], { error: "must be private, internal or public" });
const accessLevels = z.record(z.string(), z.number({ error: "must be an access level (10 to 50)" }).int("must be an access level (10 to 50)"), {
  error: "must be an object of username to access level",
});
const paths = z.array(z.string({ error: "must be a string" }), { error: "must be a list of full paths" });
const time = z.string({ error: "must be an ISO 8601 time" }).refine((text) => !Number.isNaN(Date.parse(text)), "must be an ISO 8601 time");
const id = z.number({ error: "must be an integer" }).int("must be an integer");
const text = z.string({ error: "must be a string" });

const named = z.string({ error: "must be a string" }).min(1, "must be a non-empty string");

/** The instance's facts over `DEFAULT_INSTANCE`; a key the emulator does not read is kept, as the state keeps it. */
const instanceSchema = z.looseObject(
  {
    offering: z.enum(["hosted", "self-managed", "dedicated"], { error: "must be hosted, self-managed or dedicated" }).optional(),
    tier: z.enum(["free", "premium", "ultimate"], { error: "must be free, premium or ultimate" }).optional(),
    host: named.optional(),
    pagesDomain: named.optional(),
    version: named.optional(),
    revision: named.optional(),
    enterprise: z.boolean({ error: "must be a boolean" }).optional(),
    featureFlags: z
      .record(z.string(), z.union([z.boolean(), z.array(text)], { error: "must be true, false or a list of top-level group full paths" }), {
        error: "must be an object of flag name to true, false or group full paths",
      })
      .optional(),
    featureFlagDefaults: z
      .record(z.string(), z.boolean({ error: "must be true, false or null" }).nullable(), { error: "must be an object of flag name to default" })
      .optional(),
  },
  { error: "must be an object" },
) satisfies z.ZodType<Partial<InstanceInfo>>;

/** The core's sections, as the interfaces above describe them; the areas' sections are parsed by their own schemas. */
const coreSections = {
  users: z.array(
    z.looseObject({
      username: text,
      id: id.optional(),
      name: text.optional(),
      email: text.optional(),
      admin: z.boolean({ error: "must be a boolean" }).optional(),
      token: text.optional(),
      tokens: z.array(text, { error: "must be a list of tokens" }).optional(),
      tokenScopes: z.record(z.string(), z.array(text), { error: "must be an object of token to scopes" }).optional(),
      blocked: z.boolean({ error: "must be a boolean" }).optional(),
    }) satisfies z.ZodType<SeedUser>,
    { error: "must be a list of users" },
  ),
  groups: z.array(
    z.looseObject({
      path: text,
      parent: text.optional(),
      id: id.optional(),
      name: text.optional(),
      description: text.optional(),
      visibility: visibility.optional(),
      tier: z.enum(["free", "premium", "ultimate"], { error: "must be free, premium or ultimate" }).optional(),
      createdAt: time.optional(),
      members: accessLevels.optional(),
      formerPaths: paths.optional(),
    }) satisfies z.ZodType<SeedGroup>,
    { error: "must be a list of groups" },
  ),
  projects: z.array(
    z.looseObject({
      path: text,
      namespace: text,
      id: id.optional(),
      name: text.optional(),
      description: text.optional(),
      visibility: visibility.optional(),
      createdAt: time.optional(),
      defaultBranch: text.optional(),
      commitSha: text.nullable().optional(),
      latestTag: text.nullable().optional(),
      branches: z.array(text, { error: "must be a list of branch names" }).optional(),
      tags: z.array(text, { error: "must be a list of tag names" }).optional(),
      members: accessLevels.optional(),
      formerPaths: paths.optional(),
    }) satisfies z.ZodType<SeedProject>,
    { error: "must be a list of projects" },
  ),
};

const CORE_SECTIONS = new Set(["instance", "users", "groups", "projects", "faults"]);

export const DEFAULT_INSTANCE: InstanceInfo = {
  offering: "self-managed",
  tier: "free",
  host: "platform.example.test",
  pagesDomain: "pages.example.test",
  version: "18.6.0-ee",
  revision: "2b296bd0dff",
  enterprise: true,
};

const SEED_EPOCH = Date.parse("2024-01-01T00:00:00.000Z");
const HOUR = 3_600_000;
const VISIBILITY_RANK: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

/** Reads a seed from a JSON file, or returns the given object. */
export function readSeed(seed: Seed | string): Seed {
  if (typeof seed !== "string") return seed;
  return JSON.parse(readFileSync(seed, "utf8")) as Seed;
}


/**
 * Builds the starting state from a seed: the core part, then each area's
 * section (`areas`: the areas served, seeded in `seedingOrder`).
 * Throws on an unknown section, dangling references or impossible
 * visibility. The areas are given, not imported: an area may build a state
 * of its own part (repository content does), and the list of areas imports
 * every area.
 */
export function stateOfAreas(input: Seed | string, clock: Clock | undefined, areas: readonly EmulatorArea[]): EmulatorState {
  const seed = structuredClone(readSeed(input));
  const areaSeeds = seedingOrder(areas).flatMap((area) => (area.seed ? [area.seed] : []));
  const known = [...CORE_SECTIONS, ...areaSeeds.map((area) => area.key)];
  for (const key of Object.keys(seed)) {
    if (!known.includes(key)) throw new SeedError(`unknown section "${key}"; the sections are ${known.join(", ")}`);
  }
  for (const [key, schema] of Object.entries(coreSections)) parseSection<unknown>(key, schema, seed[key]);
  const instance = parseSection("instance", instanceSchema, seed.instance);
  const state = new EmulatorState(
    {
      format: 1,
      instance: { ...DEFAULT_INSTANCE, ...instance },
      users: [],
      groups: [],
      projects: [],
      sequences: {},
      stores: {},
    },
    clock,
  );
  let order = 0;
  const nextCreatedAt = (given: string | undefined): string => {
    const fallback = new Date(SEED_EPOCH + order++ * HOUR).toISOString();
    return given === undefined ? fallback : new Date(given).toISOString();
  };
  const assignId = (sequence: string, given: number | undefined): number => {
    if (given === undefined) return state.nextId(sequence);
    state.reserveId(sequence, given);
    return given;
  };

  for (const seedUser of seed.users ?? []) addUser(state, seedUser, nextCreatedAt(undefined), assignId);
  for (const seedGroup of seed.groups ?? []) addGroup(state, seedGroup, nextCreatedAt(seedGroup.createdAt), assignId);
  for (const seedProject of seed.projects ?? []) {
    addProject(state, seedProject, nextCreatedAt(seedProject.createdAt), assignId);
  }
  for (const area of areaSeeds) {
    const section = seed[area.key];
    area.apply(state, area.schema ? parseSection(area.key, area.schema, section) : section);
  }
  return state;
}

type AssignId = (sequence: string, given: number | undefined) => number;

function addUser(state: EmulatorState, seedUser: SeedUser, createdAt: string, assignId: AssignId): void {
  if (state.userByUsername(seedUser.username)) throw new SeedError(`user ${seedUser.username} appears twice`);
  const tokens = [...(seedUser.token ? [seedUser.token] : []), ...(seedUser.tokens ?? [])];
  for (const token of tokens) {
    if (state.userByToken(token)) throw new SeedError(`token of ${seedUser.username} is already used`);
  }
  const user: User = {
    id: assignId(Sequence.users, seedUser.id),
    username: seedUser.username,
    name: seedUser.name ?? seedUser.username,
    email: seedUser.email ?? `${seedUser.username}@example.test`,
    isAdmin: seedUser.admin ?? false,
    tokens,
    ...(seedUser.tokenScopes ? { tokenScopes: seedUser.tokenScopes } : {}),
    ...(seedUser.blocked ? { blocked: true } : {}),
    createdAt,
  };
  state.users.push(user);
}

function membersOf(state: EmulatorState, members: Record<string, number> | undefined, owner: string): Members {
  const result: Members = {};
  for (const [username, level] of Object.entries(members ?? {})) {
    const user = state.userByUsername(username);
    if (!user) throw new SeedError(`${owner} has unknown member ${username}`);
    result[String(user.id)] = level;
  }
  return result;
}

function checkVisibility(child: Visibility, parent: Visibility, what: string): void {
  if (VISIBILITY_RANK[child] > VISIBILITY_RANK[parent]) {
    throw new SeedError(`${what} is ${child} but its parent group is ${parent}`);
  }
}

function addGroup(state: EmulatorState, seedGroup: SeedGroup, createdAt: string, assignId: AssignId): void {
  const parent = seedGroup.parent === undefined ? undefined : state.groupByFullPath(seedGroup.parent);
  if (seedGroup.parent !== undefined && !parent) {
    throw new SeedError(`group ${seedGroup.path} has unknown parent ${seedGroup.parent} (list parents first)`);
  }
  const fullPath = parent ? `${state.groupFullPath(parent)}/${seedGroup.path}` : seedGroup.path;
  if (state.groupByFullPath(fullPath)) throw new SeedError(`group ${fullPath} appears twice`);
  const visibility = seedGroup.visibility ?? "private";
  if (parent) checkVisibility(visibility, parent.visibility, `group ${fullPath}`);
  const group: Group = {
    id: assignId(Sequence.namespaces, seedGroup.id),
    name: seedGroup.name ?? seedGroup.path,
    path: seedGroup.path,
    parentId: parent?.id ?? null,
    visibility,
    description: seedGroup.description ?? "",
    createdAt,
    tier: seedGroup.tier ?? null,
    members: membersOf(state, seedGroup.members, `group ${fullPath}`),
    formerPaths: seedGroup.formerPaths ?? [],
  };
  state.groups.push(group);
}

function addProject(state: EmulatorState, seedProject: SeedProject, createdAt: string, assignId: AssignId): void {
  const group = state.groupByFullPath(seedProject.namespace);
  if (!group) throw new SeedError(`project ${seedProject.path} has unknown namespace ${seedProject.namespace}`);
  const fullPath = `${state.groupFullPath(group)}/${seedProject.path}`;
  if (state.projectByFullPath(fullPath)) throw new SeedError(`project ${fullPath} appears twice`);
  const visibility = seedProject.visibility ?? "private";
  checkVisibility(visibility, group.visibility, `project ${fullPath}`);
  const project: Project = {
    id: assignId(Sequence.projects, seedProject.id),
    name: seedProject.name ?? seedProject.path,
    path: seedProject.path,
    namespaceId: group.id,
    visibility,
    description: seedProject.description ?? "",
    createdAt,
    defaultBranch: seedProject.defaultBranch ?? "main",
    lastCommitSha:
      seedProject.commitSha === undefined
        ? createHash("sha1").update(fullPath).digest("hex")
        : seedProject.commitSha,
    latestTag: seedProject.latestTag ?? null,
    branches: seedProject.branches ?? [seedProject.defaultBranch ?? "main"],
    tags: seedProject.tags ?? (seedProject.latestTag ? [seedProject.latestTag] : []),
    members: membersOf(state, seedProject.members, `project ${fullPath}`),
    formerPaths: seedProject.formerPaths ?? [],
  };
  state.projects.push(project);
}
