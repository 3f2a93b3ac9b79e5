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
import { apiPath, type Query } from "../client";
import { ownerReference } from "../api/owner";
import { defineListFunction, defineObjectFunction, type Camelized } from "./core";

const nullableText = z.string().nullable();
const nullableFlag = z.boolean().nullable();
const accessLevelEntry = z.looseObject({ access_level: z.number() });

/** A group as the list gives it (`Entities::Group`): the documented fields and the list fields. */
const groupShape = z.looseObject({
  id: z.number(),
  name: z.string(),
  path: z.string(),
  full_name: z.string(),
  full_path: z.string(),
  description: nullableText,
  visibility: z.enum(["private", "internal", "public"]),
  avatar_url: nullableText,
  web_url: z.string(),
  request_access_enabled: z.boolean(),
  repository_storage: z.string().optional(),
  created_at: z.string(),
  /** null for a top-level group. */
  parent_id: z.number().nullable(),
  share_with_group_lock: z.boolean(),
  require_two_factor_authentication: z.boolean(),
  /** Hours. */
  two_factor_grace_period: z.number(),
  project_creation_level: z.string(),
  subgroup_creation_level: z.string(),
  auto_devops_enabled: nullableFlag,
  emails_disabled: nullableFlag,
  emails_enabled: nullableFlag,
  mentions_disabled: nullableFlag,
  lfs_enabled: z.boolean(),
  default_branch: nullableText,
  default_branch_protection: z.number(),
  default_branch_protection_defaults: z.looseObject({
    allowed_to_push: z.array(accessLevelEntry),
    allow_force_push: z.boolean(),
    allowed_to_merge: z.array(accessLevelEntry),
  }),
  file_template_project_id: z.number().nullable().optional(),
  math_rendering_limits_enabled: z.boolean().optional(),
  lock_math_rendering_limits_enabled: z.boolean().optional(),
  ip_restriction_ranges: nullableText.optional(),
  // Premium and Ultimate only.
  shared_runners_minutes_limit: z.number().nullable().optional(),
  extra_shared_runners_minutes_limit: z.number().nullable().optional(),
  /** `YYYY-MM-DD` when the group is marked for deletion. */
  marked_for_deletion_on: nullableText.optional(),
  membership_lock: z.boolean().optional(),
  wiki_access_level: z.string().optional(),
  assistant_features_enabled: z.boolean().optional(),
  lock_assistant_features_enabled: z.boolean().optional(),
  experiment_features_enabled: z.boolean().optional(),
  assistant_availability: z.string().optional(),
  only_allow_merge_if_pipeline_succeeds: z.boolean().optional(),
  allow_merge_on_skipped_pipeline: z.boolean().optional(),
  only_allow_merge_if_all_discussions_are_resolved: z.boolean().optional(),
  /** Administrators, with `withCustomAttributes`. */
  custom_attributes: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
  /** Administrators, with `statistics`: sizes in bytes. */
  statistics: z.record(z.string(), z.number()).optional(),
  /** Administrators, with `statistics`, top-level groups: sizes in bytes over the group and its subgroups. */
  root_storage_statistics: z.record(z.string(), z.union([z.number(), z.boolean()])).optional(),
});

/** One group (`Entities::GroupDetail`): its sharing, and what its viewer may see. */
const groupDetailShape = groupShape.extend({
  enabled_git_access_protocol: z.string().optional(),
  shared_with_groups: z.array(
    z.looseObject({ group_id: z.number(), group_name: z.string(), group_full_path: z.string(), group_access_level: z.number(), expires_at: nullableText }),
  ),
  /** Administrators and the group's Owners only. */
  runners_token: z.string().optional(),
  /** Top-level groups only. */
  prevent_sharing_groups_outside_hierarchy: z.boolean().optional(),
  /** Deprecated: only with `withProjects: true`, at most 100. */
  projects: z.array(z.looseObject({ id: z.number(), path_with_namespace: z.string() })).optional(),
  shared_projects: z.array(z.looseObject({ id: z.number() })).optional(),
});

/** A credentials inventory record (`Entities::PersonalAccessToken`). */
const personalAccessTokenShape = z.looseObject({
  id: z.number(),
  name: z.string(),
  revoked: z.boolean(),
  created_at: z.string(),
  description: nullableText.optional(),
  scopes: z.array(z.string()),
  user_id: z.number(),
  last_used_at: nullableText,
  /** Neither revoked nor expired. */
  active: z.boolean(),
  /** `YYYY-MM-DD`, or null for no expiry. */
  expires_at: nullableText,
});

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
  path: (args) => apiPath`/groups/${args.group}`,
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

function groupsQuery(args: z.output<typeof groupsArgs>): Query {
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

const groups = defineListFunction({
  name: "getGroups",
  args: groupsArgs,
  validate(args) {
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
  },
  path: () => "/groups",
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
// getGroupPersonalAccessTokens

export const INVENTORY_SORTS = ["created_asc", "created_desc", "expires_asc", "expires_desc", "last_used_asc", "last_used_desc", "name_asc", "name_desc"] as const;
const inventoryRule = "The credentials inventory exists on the hosted offering only, for top-level groups on Premium or Ultimate, and needs the group's Owner role.";

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
  path: (args) => apiPath`/groups/${args.group}/manage/personal_access_tokens`,
  query: (args) => ({
    created_after: args.createdAfter,
    created_before: args.createdBefore,
    last_used_after: args.lastUsedAfter,
    last_used_before: args.lastUsedBefore,
    revoked: args.revoked,
    state: args.state,
    search: args.search,
    sort: args.sort,
  }),
  subject: (args) => `the personal access tokens of group ${args.group}'s enterprise users`,
  refusals: {
    403: () => inventoryRule,
    404: () => `Check the group, and that the server is the hosted offering. ${inventoryRule}`,
  },
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
