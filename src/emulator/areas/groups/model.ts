/**
 * The groups area's model: the settings kept per group (what `PUT /groups/:id`
 * writes, branch protection defaults), and what the core model does not hold
 * about a group but the groups API shows or
 * filters on: custom attributes, the
 * archived flag, the date a group is marked for deletion, its repository
 * storage and its storage statistics. Kept in the groups area's own store and
 * seeded from the section `groupDetails` (keys are group full paths):
 *
 *     "groupDetails": {
 *       "acme": { "customAttributes": { "department": "engineering" },
 *                 "repositoryStorage": "default", "archived": false,
 *                 "markedForDeletionOn": "2024-06-01",
 *                 "statistics": { "repositorySize": 1024, "lfsObjectsSize": 2048 } }
 *     }
 *
 * As real servers show them: custom attributes are key/value pairs shown as
 * `[{"key","value"}]` and only to administrators; the statistics are the
 * namespace's root storage statistics and the group's aggregated project
 * statistics.
 */
import { hasGroupAccess } from "../../access";
import { AccessLevel, defineStore, type EmulatorState, type Group, type User } from "../../state";
import { applicationSettingsValues } from "../application-settings";

/** Sizes in bytes, as the API's `statistics` object names them (storage_size is their sum). */
export const STATISTICS_FIELDS = [
  "repository_size",
  "wiki_size",
  "lfs_objects_size",
  "job_artifacts_size",
  "pipeline_artifacts_size",
  "packages_size",
  "snippets_size",
  "uploads_size",
] as const;
export type StatisticsField = (typeof STATISTICS_FIELDS)[number];

export interface GroupDetailsRecord {
  customAttributes: Record<string, string>;
  repositoryStorage: string;
  archived: boolean;
  /** `YYYY-MM-DD`, or null when the group is not marked for deletion. */
  markedForDeletionOn: string | null;
  statistics: Record<StatisticsField, number>;
}

export const groupDetailsStore = defineStore("groupDetails", (): Record<string, GroupDetailsRecord> => ({}));

export const zeroStatistics = (): Record<StatisticsField, number> =>
  Object.fromEntries(STATISTICS_FIELDS.map((field) => [field, 0])) as Record<StatisticsField, number>;

/** A group's details, created with the defaults on first use. */
export function detailsOf(state: EmulatorState, group: Group): GroupDetailsRecord {
  const all = groupDetailsStore.of(state);
  return (all[String(group.id)] ??= {
    customAttributes: {},
    repositoryStorage: "default",
    archived: false,
    markedForDeletionOn: null,
    statistics: zeroStatistics(),
  });
}

/** `active` of `GET /groups`: neither archived nor marked for deletion. */
export function isActive(state: EmulatorState, group: Group): boolean {
  const details = detailsOf(state, group);
  return !details.archived && details.markedForDeletionOn === null;
}

/** `custom_attributes` as `Entities::CustomAttribute` lists them. */
export function presentCustomAttributes(state: EmulatorState, group: Group): { key: string; value: string }[] {
  return Object.entries(detailsOf(state, group).customAttributes).map(([key, value]) => ({ key, value }));
}

/** The group's own `statistics` (storage_size is the sum of the parts). */
export function presentStatistics(state: EmulatorState, group: Group): Record<string, number> {
  const parts = detailsOf(state, group).statistics;
  const storageSize = STATISTICS_FIELDS.reduce((sum, field) => sum + parts[field], 0);
  return { storage_size: storageSize, ...parts };
}

/**
 * `root_storage_statistics` of a top-level group: the sums over the group and
 * its subgroups. The container registry size exists only with the registry's
 * metadata database, which the emulator does not model: 0, not estimated.
 */
export function presentRootStorageStatistics(state: EmulatorState, group: Group): Record<string, number | boolean> {
  const totals = zeroStatistics();
  for (const member of [group, ...state.descendants(group)]) {
    for (const field of STATISTICS_FIELDS) totals[field] += detailsOf(state, member).statistics[field];
  }
  const storageSize = STATISTICS_FIELDS.reduce((sum, field) => sum + totals[field], 0);
  return {
    build_artifacts_size: totals.job_artifacts_size,
    container_registry_size: 0,
    container_registry_size_is_estimated: false,
    dependency_proxy_size: 0,
    lfs_objects_size: totals.lfs_objects_size,
    packages_size: totals.packages_size,
    pipeline_artifacts_size: totals.pipeline_artifacts_size,
    repository_size: totals.repository_size,
    snippets_size: totals.snippets_size,
    storage_size: storageSize,
    uploads_size: totals.uploads_size,
    wiki_size: totals.wiki_size,
  };
}

// ---------------------------------------------------------------------------
// Settings kept per group

export interface BranchProtectionDefaults {
  allowed_to_push: { access_level: number }[];
  allow_force_push: boolean;
  allowed_to_merge: { access_level: number }[];
  developer_can_initial_push?: boolean;
}

export interface GroupSettingsRecord {
  share_with_group_lock: boolean;
  require_two_factor_authentication: boolean;
  two_factor_grace_period: number;
  project_creation_level: string;
  subgroup_creation_level: string;
  auto_devops_enabled: boolean | null;
  emails_enabled: boolean;
  mentions_disabled: boolean | null;
  lfs_enabled: boolean;
  request_access_enabled: boolean;
  default_branch: string | null;
  default_branch_protection: number;
  default_branch_protection_defaults: BranchProtectionDefaults;
  shared_runners_setting: string;
  enabled_git_access_protocol: string;
  prevent_sharing_groups_outside_hierarchy: boolean;
  math_rendering_limits_enabled: boolean;
  lock_math_rendering_limits_enabled: boolean;
  max_artifacts_size: number | null;
  step_up_auth_required_oauth_provider: string | null;
  experiment_features_enabled: boolean;
  assistant_availability: string;
  web_based_commit_signing_enabled: boolean;
  // Premium and Ultimate
  file_template_project_id: number | null;
  membership_lock: boolean;
  prevent_forking_outside_group: boolean;
  ip_restriction_ranges: string | null;
  allowed_email_domains_list: string | null;
  wiki_access_level: string;
  only_allow_merge_if_pipeline_succeeds: boolean;
  allow_merge_on_skipped_pipeline: boolean;
  only_allow_merge_if_all_discussions_are_resolved: boolean;
  assistant_features_enabled: boolean;
  lock_assistant_features_enabled: boolean;
  shared_runners_minutes_limit: number | null;
  extra_shared_runners_minutes_limit: number | null;
  // Ultimate
  unique_project_download_limit: number;
  unique_project_download_limit_interval_in_seconds: number;
  unique_project_download_limit_allowlist: string[];
  unique_project_download_limit_alertlist: number[];
  auto_ban_user_on_excessive_projects_download: boolean;
  /** The uploaded avatar: file name, bytes (base64) and their SHA-256. */
  avatar: { filename: string; contentBase64: string; sha256: string } | null;
}

/** `Gitlab::Access::BranchProtection` levels 0-4 as the defaults hash that replaced them. */
export function branchProtectionDefaults(level: number): BranchProtectionDefaults {
  const developer = [{ access_level: AccessLevel.Developer }];
  const maintainer = [{ access_level: AccessLevel.Maintainer }];
  switch (level) {
    case 0: // not protected
      return { allowed_to_push: developer, allow_force_push: true, allowed_to_merge: developer };
    case 1: // partially protected: developers push, no force push
      return { allowed_to_push: developer, allow_force_push: false, allowed_to_merge: maintainer };
    case 3: // protected against pushes: developers merge
      return { allowed_to_push: maintainer, allow_force_push: false, allowed_to_merge: developer };
    case 4: // fully protected after the initial push
      return { allowed_to_push: maintainer, allow_force_push: false, allowed_to_merge: maintainer, developer_can_initial_push: true };
    default: // 2: fully protected
      return { allowed_to_push: maintainer, allow_force_push: false, allowed_to_merge: maintainer };
  }
}

export const sameDefaults = (a: BranchProtectionDefaults, b: BranchProtectionDefaults): boolean =>
  JSON.stringify({ ...a, developer_can_initial_push: a.developer_can_initial_push ?? false }) ===
  JSON.stringify({ ...b, developer_can_initial_push: b.developer_can_initial_push ?? false });

function defaultSettings(): GroupSettingsRecord {
  return {
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: "developer",
    subgroup_creation_level: "maintainer",
    auto_devops_enabled: null,
    emails_enabled: true,
    mentions_disabled: null,
    lfs_enabled: true,
    request_access_enabled: true,
    default_branch: null,
    default_branch_protection: 2,
    default_branch_protection_defaults: branchProtectionDefaults(2),
    shared_runners_setting: "enabled",
    enabled_git_access_protocol: "all",
    prevent_sharing_groups_outside_hierarchy: false,
    math_rendering_limits_enabled: true,
    lock_math_rendering_limits_enabled: false,
    max_artifacts_size: null,
    step_up_auth_required_oauth_provider: null,
    experiment_features_enabled: false,
    assistant_availability: "default_on",
    web_based_commit_signing_enabled: false,
    file_template_project_id: null,
    membership_lock: false,
    prevent_forking_outside_group: false,
    ip_restriction_ranges: null,
    allowed_email_domains_list: null,
    wiki_access_level: "enabled",
    only_allow_merge_if_pipeline_succeeds: false,
    allow_merge_on_skipped_pipeline: false,
    only_allow_merge_if_all_discussions_are_resolved: false,
    assistant_features_enabled: true,
    lock_assistant_features_enabled: false,
    shared_runners_minutes_limit: null,
    extra_shared_runners_minutes_limit: null,
    unique_project_download_limit: 0,
    unique_project_download_limit_interval_in_seconds: 0,
    unique_project_download_limit_allowlist: [],
    unique_project_download_limit_alertlist: [],
    auto_ban_user_on_excessive_projects_download: false,
    avatar: null,
  };
}

export const groupSettingsStore = defineStore("groupSettings", (): Record<string, GroupSettingsRecord> => ({}));

/** A group's settings, created with the defaults on first use. */
export function settingsOf(state: EmulatorState, group: Group): GroupSettingsRecord {
  const all = groupSettingsStore.of(state);
  return (all[String(group.id)] ??= defaultSettings());
}

// ---------------------------------------------------------------------------
// Deletion

/**
 * Whether `DELETE /groups/:id` marks the group for deletion (restorable for
 * the instance's `deletion_adjourned_period`) rather than removing it: the
 * Enterprise Edition delays every group's deletion since 18.0, on every tier;
 * the Community Edition removes at once.
 */
export const deletionIsDelayed = (state: EmulatorState): boolean => state.instance.enterprise;

/** The groups marked for deletion through the API, by id, with the day their deletion period ends (`YYYY-MM-DD`). */
export const groupDeletionsStore = defineStore("groupDeletions", (): Record<string, string> => ({}));

/** Marks the group for deletion today; the server removes it once `periodDays` have passed. */
export function markForDeletion(state: EmulatorState, group: Group, periodDays: number): void {
  const today = state.now().slice(0, 10);
  detailsOf(state, group).markedForDeletionOn = today;
  groupDeletionsStore.of(state)[String(group.id)] = new Date(Date.parse(`${today}T00:00:00Z`) + periodDays * 86_400_000).toISOString().slice(0, 10);
}

/** Gives back a group marked for deletion. */
export function restoreGroup(state: EmulatorState, group: Group): void {
  detailsOf(state, group).markedForDeletionOn = null;
  delete groupDeletionsStore.of(state)[String(group.id)];
}

/** Removes the group, its subgroups and their projects, and what this area keeps of them. */
export function removeGroup(state: EmulatorState, group: Group): void {
  const gone = new Set([group, ...state.descendants(group)].map((removed) => removed.id));
  state.projects = state.projects.filter((project) => !gone.has(project.namespaceId));
  state.groups = state.groups.filter((kept) => !gone.has(kept.id));
  for (const id of gone) {
    delete groupSettingsStore.of(state)[String(id)];
    delete groupDetailsStore.of(state)[String(id)];
    delete groupDeletionsStore.of(state)[String(id)];
  }
}

// ---------------------------------------------------------------------------
// Who may create groups

/**
 * The user's `can_create_group`, as the current user's answer shows it: administrators always;
 * others where the instance lets users create top-level groups (`top_level_group_creation_enabled`).
 */
export function userCanCreateGroup(state: EmulatorState, user: User): boolean {
  return user.isAdmin || applicationSettingsValues(state).top_level_group_creation_enabled !== false;
}

/** `:create_group` through the API: a top-level group. Never for users on the hosted offering, whose API creates subgroups only. */
export function mayCreateTopLevelGroup(state: EmulatorState, user: User): boolean {
  if (!user.isAdmin && state.instance.offering === "hosted") return false;
  return userCanCreateGroup(state, user);
}

/** `:create_subgroup`: the role the parent's `subgroup_creation_level` names, or an administrator. */
export function mayCreateSubgroup(state: EmulatorState, user: User, parent: Group): boolean {
  const level = settingsOf(state, parent).subgroup_creation_level === "owner" ? AccessLevel.Owner : AccessLevel.Maintainer;
  return hasGroupAccess(state, user, parent, level);
}

