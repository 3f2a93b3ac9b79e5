/**
 * Groups: one group, the groups
 * list with every filter of the API, and the credentials inventory of a
 * top-level group (its enterprise users' personal access tokens, hosted
 * offering, Premium and Ultimate).
 *
 * Pages: the lookups always send a token, and the groups list offers keyset
 * pages to anonymous callers only, so every list here reads offset pages
 * (100 a request) by their `Link rel="next"`.
 */
import { z } from "zod";
import { type Query } from "../client";
import { descendantGroupsPath, group as groupDetailShape, groupPath, GROUPS_PATH, groupTokensPath, listedGroup as groupShape, groupPersonalAccessToken as personalAccessTokenShape, subgroupsPath } from "../api/groups";
import { queryOf } from "../api/fields";
import { ownerReference } from "../api/owner";
import { defineListFunction, defineObjectFunction, groupNeeds, type Camelized } from "./core";

export type GroupInfo = Camelized<z.output<typeof groupDetailShape>>;
export type GroupSummary = Camelized<z.output<typeof groupShape>>;
export type GroupPersonalAccessToken = Camelized<z.output<typeof personalAccessTokenShape>>;

const flag = z.boolean().optional();
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date, YYYY-MM-DD" });
const time = z.string().refine((text) => !Number.isNaN(Date.parse(text)), { message: "must be an ISO 8601 date or time (2024-05-01 or 2024-05-01T10:00:00Z)" });
const ACCESS_LEVELS = [5, 10, 15, 20, 30, 40, 50] as const;

// ---------------------------------------------------------------------------
// getGroup

const group = defineObjectFunction({
  name: "getGroup",
  args: z.object({
    /** The group: its numeric id or its full path (`acme/platform`). */
    group: ownerReference,
    /** The group's custom attributes (administrators only; others get none). */
    withCustomAttributes: flag,
    /** The deprecated `projects` and `sharedProjects` (at most 100 each); off by default to keep the answer small. */
    withProjects: z.boolean().default(false),
  }),
  path: (args) => groupPath(args.group),
  query: (args) => ({ with_custom_attributes: args.withCustomAttributes, with_projects: args.withProjects }),
  subject: (args) => `group ${args.group}`,
  result: groupDetailShape,
});

/**
 * One group, with the fields its caller may see (`runnersToken` for Owners and administrators).
 *
 * ```ts
 * const acme = await getGroup({ group: "acme" });
 * ```
 */
export const getGroup = group;
/** `getGroup` as an Output. */
export const getGroupOutput = group.output;

// ---------------------------------------------------------------------------
// getGroups

const groupsArgs = z.object({
  /** Leave these group ids out. */
  skipGroups: z.array(z.number().int().positive()).optional(),
  /** Every group the caller can see, not only its own (the default for administrators). */
  allAvailable: flag,
  /** Part of the name or path. */
  search: z.string().min(1).optional(),
  /** `name` (default), `path`, `id`, or `similarity` to `search`. */
  orderBy: z.enum(["name", "path", "id", "similarity"]).optional(),
  sort: z.enum(["asc", "desc"]).optional(),
  /** Storage statistics (administrators only). */
  statistics: flag,
  visibility: z.enum(["private", "internal", "public"]).optional(),
  /** Custom attributes (administrators only). */
  withCustomAttributes: flag,
  /** Only groups the caller owns (before `allAvailable`). */
  owned: flag,
  /** Only groups where the caller has at least this role (before `allAvailable`). */
  minAccessLevel: z.union(ACCESS_LEVELS.map((level) => z.literal(level)) as [z.ZodLiteral<5>, ...z.ZodLiteral<number>[]], {
    error: () => `must be one of ${ACCESS_LEVELS.join(", ")}`,
  }).optional(),
  topLevelOnly: flag,
  /** Only groups on this storage (administrators; Premium and Ultimate). */
  repositoryStorage: z.string().min(1).optional(),
  /** Only groups marked for deletion on this date (Premium and Ultimate). */
  markedForDeletionOn: date.optional(),
  /** Only groups neither archived nor marked for deletion (`false`: only those that are). */
  active: flag,
  /** Only archived groups, or only groups not archived (an experiment of the API). */
  archived: flag,
  /** Only groups with these custom attributes (administrators only). */
  customAttributes: z.record(z.string(), z.string()).optional(),
});

function groupsQuery(args: Omit<z.output<typeof groupsArgs>, "topLevelOnly"> & { topLevelOnly?: boolean }): Query {
  const query: Query = {
    skip_groups: args.skipGroups,
    all_available: args.allAvailable,
    search: args.search,
    order_by: args.orderBy,
    sort: args.sort,
    statistics: args.statistics,
    visibility: args.visibility,
    with_custom_attributes: args.withCustomAttributes,
    owned: args.owned,
    min_access_level: args.minAccessLevel,
    top_level_only: args.topLevelOnly,
    repository_storage: args.repositoryStorage,
    marked_for_deletion_on: args.markedForDeletionOn,
    active: args.active,
    archived: args.archived,
  };
  for (const [key, value] of Object.entries(args.customAttributes ?? {})) query[`custom_attributes[${key}]`] = value;
  return query;
}

/** The rules across the list's arguments, one wording for every list of groups. */
function groupsListRules(args: { orderBy?: string; search?: string; customAttributes?: Record<string, string> }) {
  // Without a search the server orders "similarity" by name: say so rather than order silently otherwise.
  const failures = [];
  if (args.orderBy === "similarity" && args.search === undefined) {
    failures.push({ argument: "orderBy", reason: "orderBy: similarity orders by closeness to search; give search too" });
  }
  // The name travels inside `custom_attributes[<name>]`: brackets or spaces would change the parameter.
  for (const name of Object.keys(args.customAttributes ?? {}).filter((key) => !/^[A-Za-z0-9_.-]+$/.test(key))) {
    failures.push({ argument: "customAttributes", reason: `customAttributes: "${name}": custom attribute names are letters, digits, '_', '-' and '.'` });
  }
  return failures;
}

const groups = defineListFunction({
  name: "getGroups",
  args: groupsArgs,
  validate: groupsListRules,
  path: () => GROUPS_PATH,
  query: groupsQuery,
  subject: () => "the groups list",
  item: groupShape,
});

/**
 * Groups the caller can see, filtered and ordered as the API does.
 *
 * ```ts
 * const topLevel = await getGroups({ topLevelOnly: true, minAccessLevel: 40 });
 * ```
 */
export const getGroups = groups;
/** `getGroups` as an Output. */
export const getGroupsOutput = groups.output;

// ---------------------------------------------------------------------------
// getGroupSubgroups, getGroupDescendants

/** The arguments of a group's subgroups or descendants: the group, and the filters of the groups list (but `topLevelOnly`, which would list from the top instead). */
const belowArgs = groupsArgs.omit({ topLevelOnly: true }).extend({
  /** The group whose subgroups are listed: its numeric id or its full path. */
  group: ownerReference,
});

/** A list of the groups below a group: its path and its subject in words. */
const groupsBelow = (name: string, path: (group: string | number) => string, what: string) =>
  defineListFunction({
    name,
    args: belowArgs,
    validate: groupsListRules,
    path: (args) => path(args.group),
    query: groupsQuery,
    subject: (args) => `${what} group ${args.group}`,
    item: groupShape,
  });

const subgroups = groupsBelow("getGroupSubgroups", subgroupsPath, "the subgroups of");

/**
 * A group's direct subgroups the caller can see, filtered and ordered as the groups list.
 *
 * ```ts
 * const teams = await getGroupSubgroups({ group: "acme", allAvailable: true });
 * ```
 */
export const getGroupSubgroups = subgroups;
/** `getGroupSubgroups` as an Output. */
export const getGroupSubgroupsOutput = subgroups.output;

const descendants = groupsBelow("getGroupDescendants", descendantGroupsPath, "the groups below");

/**
 * Every group below a group, at any depth, that the caller can see, filtered and ordered as the groups list.
 *
 * ```ts
 * const all = await getGroupDescendants({ group: "acme", allAvailable: true, search: "platform" });
 * ```
 */
export const getGroupDescendants = descendants;
/** `getGroupDescendants` as an Output. */
export const getGroupDescendantsOutput = descendants.output;

// ---------------------------------------------------------------------------
// getGroupPersonalAccessTokens

export const INVENTORY_SORTS = ["created_asc", "created_desc", "expires_asc", "expires_desc", "last_used_asc", "last_used_desc", "name_asc", "name_desc"] as const;
const inventoryRule = "The credentials inventory exists on the hosted offering only, for top-level groups.";

const groupPersonalAccessTokens = defineListFunction({
  name: "getGroupPersonalAccessTokens",
  args: z.object({
    /** The top-level group (id or full path). */
    group: ownerReference,
    createdAfter: time.optional(),
    createdBefore: time.optional(),
    lastUsedAfter: time.optional(),
    lastUsedBefore: time.optional(),
    /** Only revoked tokens, or only tokens not revoked. */
    revoked: flag,
    /** `active`: neither revoked nor expired; `inactive`: the others. */
    state: z.enum(["active", "inactive"]).optional(),
    /** Part of the token's name. */
    search: z.string().min(1).optional(),
    /** Default: newest token first. */
    sort: z.enum(INVENTORY_SORTS).optional(),
  }),
  validate(args) {
    const after = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && Date.parse(a) > Date.parse(b);
    const failures = [];
    if (after(args.createdAfter, args.createdBefore)) failures.push({ argument: "createdAfter", reason: "createdAfter: is later than createdBefore, so nothing can match" });
    if (after(args.lastUsedAfter, args.lastUsedBefore)) failures.push({ argument: "lastUsedAfter", reason: "lastUsedAfter: is later than lastUsedBefore, so nothing can match" });
    return failures;
  },
  path: (args) => groupTokensPath(args.group),
  query: (args) => queryOf(args, ["createdAfter", "createdBefore", "lastUsedAfter", "lastUsedBefore", "revoked", "state", "search", "sort"]),
  subject: (args) => `the personal access tokens of group ${args.group}'s enterprise users`,
  refusals: {
    403: () => inventoryRule,
    404: () => `Check the group, and that the server is the hosted offering. ${inventoryRule}`,
  },
  needs: groupNeeds("Owner", { tier: "premium" }),
  item: personalAccessTokenShape,
});

/**
 * The personal access tokens of a top-level group's enterprise users (the credentials inventory).
 *
 * ```ts
 * const stale = await getGroupPersonalAccessTokens({ group: "acme", state: "active", lastUsedBefore: "2024-01-01" });
 * ```
 */
export const getGroupPersonalAccessTokens = groupPersonalAccessTokens;
/** `getGroupPersonalAccessTokens` as an Output. */
export const getGroupPersonalAccessTokensOutput = groupPersonalAccessTokens.output;
