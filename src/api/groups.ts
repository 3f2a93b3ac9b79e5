/**
 * Groups: the groups list (`/groups`), one group (`/groups/:id`, which the
 * group settings resource also updates) and a group's credentials inventory.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { requestsOf } from "./core";
import { idForm } from "./id-form";

const nullableText = z.string().nullable();
const nullableFlag = z.boolean().nullable();
const accessLevelEntry = z.looseObject({ access_level: z.number() });

/** A group as the list gives it (`Entities::Group`): the documented fields and the list fields. */
export const listedGroup = z.looseObject({
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
export const group = listedGroup.extend({
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
export const groupPersonalAccessToken = z.looseObject({
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

export type Group = z.output<typeof group>;
export const groupRequests = requestsOf(group);

/** `/groups/acme%2Fplatform`. */
export const groupPath = (group: string | number): string => apiPath`/groups/${group}`;
export const GROUPS_PATH = "/groups";
/** `/groups/acme/manage/personal_access_tokens`. */
export const groupTokensPath = (group: string | number): string => `${groupPath(group)}/manage/personal_access_tokens`;
/** Starts the group's LDAP sync. */
export const groupLdapSyncPath = (group: string | number): string => `${groupPath(group)}/ldap_sync`;
/** Revokes a token that reaches the top-level group. */
export const groupTokenRevocationPath = (group: string | number): string => `${groupPath(group)}/tokens/revoke`;
/** `/groups/12/avatar`: the avatar file. */
export const groupAvatarPath = (group: string | number): string => `${groupPath(group)}/avatar`;

/** The typed requests of groups as lists give them (subgroups, descendants). */
export const listedGroupRequests = requestsOf(listedGroup);

/** A group's direct subgroups. */
export const subgroupsPath = (group: string | number): string => `${groupPath(group)}/subgroups`;
/** Every group below a group, at any depth. */
export const descendantGroupsPath = (group: string | number): string => `${groupPath(group)}/descendant_groups`;
/** The projects of a group (with `include_subgroups`, those below it too). */
export const groupProjectsPath = (group: string | number): string => `${groupPath(group)}/projects`;
/** Moves a group under another (`group_id`), or to the top level (none). */
export const groupTransferPath = (group: string | number): string => `${groupPath(group)}/transfer`;
/** Gives back a group marked for deletion. */
export const groupRestorePath = (group: string | number): string => `${groupPath(group)}/restore`;

/** A group's id as the `Group` resource records it: `groups/<numeric id>`, which a rename or a transfer never changes. */
export const groupIdOf = (id: number): string => `groups/${id}`;

const GROUP_ID = /^groups\/(\d+)$/;

/** A recorded group id read back: the group's numeric id and API path; undefined when it is not one. */
export function parseGroupId(id: string): { groupId: number; path: string } | undefined {
  const match = GROUP_ID.exec(id);
  return match ? { groupId: Number(match[1]), path: "/" + id } : undefined;
}

/** A group id as the `Group` resource records it. */
export const groupIdForm = idForm("of the form groups/<numeric group id>", parseGroupId);

/**
 * Path segments a group may not take, as the server refuses them: a top-level
 * group none of the instance's own routes (`-`, `admin`, `api`, `groups`,
 * `users`, ...), a subgroup not `-`. Compared without regard to case.
 */
export const RESERVED_TOP_LEVEL_PATHS: readonly string[] = [
  "-", ".well-known", "404.html", "422.html", "500.html", "502.html", "503.html", "admin", "api", "apple-touch-icon.png",
  "assets", "dashboard", "deploy.html", "explore", "favicon.ico", "favicon.png", "files", "groups", "health_check", "help",
  "import", "jwt", "login", "oauth", "profile", "projects", "public", "robots.txt", "s", "search", "sitemap", "sitemap.xml",
  "sitemap.xml.gz", "slash-command-logo.png", "snippets", "unsubscribes", "uploads", "users", "v2",
];
export const RESERVED_SUBGROUP_PATHS: readonly string[] = ["-"];
