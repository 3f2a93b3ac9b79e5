/**
 * Groups: `GET /groups/:id`, `PUT /groups/:id` and `GET /groups/:id/avatar`;
 * `GET /groups` is in groups-list.ts, the details the core model lacks
 * (custom attributes, archived, deletion, storage) in group-details.ts, the
 * token endpoints in group-tokens.ts. Creating and deleting groups is not
 * part of the API documentation.
 *
 * Behaviour taken from the real server's source:
 * - `runners_token` only for the group's Owners and administrators;
 *   `custom_attributes` (with `with_custom_attributes`) only for administrators;
 *   `prevent_sharing_groups_outside_hierarchy` only on top-level groups;
 *   `enabled_git_access_protocol` only in the get-one answer, on a top-level
 *   group, to those who can administer it (`Entities::GroupDetail`:
 *   `group.root? && options[:user_can_admin_group]`), though any group's
 *   Owner may set it; the fields the API documentation calls "Premium and Ultimate
 *   only" only when the group's tier has them, though `experiment_features_enabled`
 *   and `assistant_availability` (which need no tier to be written) are applied on every tier.
 *   So some values are applied but not shown: clients must not read absence
 *   as a change.
 * - The assistant settings also under the names real clients send
 *   (`duo_features_enabled`, `lock_duo_features_enabled`, `duo_availability`):
 *   accepted in a PUT as aliases, shown beside the API documentation's `assistant_*` names.
 * - PUT needs `admin_group` (Owner or administrator): 403 otherwise.
 *   `shared_runners_minutes_limit` and `extra_shared_runners_minutes_limit`
 *   need an administrator (403). Fields the group's tier or the offering does
 *   not have are dropped silently, as the real EE helpers do
 *   (`params.delete(...) unless licensed_feature_available?`).
 * - Visibility may not exceed the parent's, nor fall below a subgroup's or a
 *   project's: 400 `{"message":{"visibility_level":["..."]}}`.
 * - Deprecated parameters: `emails_disabled` sets `emails_enabled` to its
 *   negation; `default_branch_protection` sets the defaults hash;
 *   `disabled_with_override` is stored as `disabled_and_overridable`.
 * - `avatar` as a multipart file uploads it; a blank `avatar` (JSON `null` or
 *   `""`, an empty form field, `avatar=`) removes it (the real helper
 *   reads Grape's blank file as nil: `remove_avatar! if params[:avatar].nil?`).
 * - Blank values of the list-like strings (`ip_restriction_ranges`,
 *   `allowed_email_domains_list`, `step_up_auth_required_oauth_provider`,
 *   `default_branch`) clear them: shown as null afterwards, as the real
 *   entity derives them from rows that no longer exist.
 */
import { createHash } from "node:crypto";
import { canReadProject, hasGroupAccess } from "../../access";
import { forbidden, notFound, paramError, validationError } from "../../errors";
import { findGroup } from "../../lookup";
import { isUploadedFile, type ParamSpec, type UploadedFile } from "../../params";
import { ok, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Group, type Tier, type Visibility } from "../../state";
import { presentProject } from "../projects";
import {
  branchProtectionDefaults,
  deletionIsDelayed,
  detailsOf,
  groupSettingsStore,
  presentCustomAttributes,
  presentRootStorageStatistics,
  presentStatistics,
  sameDefaults,
  settingsOf,
  type BranchProtectionDefaults,
  type GroupSettingsRecord,
} from "./model";
import { listGroupsBelowRoute, listGroupsRoute } from "./list";
import { presentSharedWithGroups } from "../sharing/model";
import { AVATAR_FORMAT_REFUSAL, AVATAR_MAX_BYTES, avatarMediaType, isAvatarImage } from "./avatar";

// ---------------------------------------------------------------------------
// Who sees and may change what

type Requirement = "premium" | "ultimate" | "self-managed" | "admin" | "top-level" | "hosted-top-level";

/** Fields of the group update that need a tier, an offering, a role or a top-level group. */
const REQUIREMENTS: Partial<Record<keyof GroupSettingsRecord, Requirement[]>> = {
  extra_shared_runners_minutes_limit: ["admin", "premium", "self-managed"],
  shared_runners_minutes_limit: ["admin", "premium", "self-managed"],
  file_template_project_id: ["premium"],
  membership_lock: ["premium"],
  prevent_forking_outside_group: ["premium"],
  unique_project_download_limit: ["ultimate", "top-level"],
  unique_project_download_limit_interval_in_seconds: ["ultimate", "top-level"],
  unique_project_download_limit_allowlist: ["ultimate", "top-level"],
  unique_project_download_limit_alertlist: ["ultimate", "top-level"],
  auto_ban_user_on_excessive_projects_download: ["ultimate"],
  ip_restriction_ranges: ["premium"],
  allowed_email_domains_list: ["premium"],
  wiki_access_level: ["premium"],
  assistant_features_enabled: ["premium", "self-managed"],
  lock_assistant_features_enabled: ["premium", "self-managed"],
  only_allow_merge_if_pipeline_succeeds: ["premium"],
  only_allow_merge_if_all_discussions_are_resolved: ["premium"],
  allow_merge_on_skipped_pipeline: ["premium"],
  prevent_sharing_groups_outside_hierarchy: ["top-level"],
  web_based_commit_signing_enabled: ["hosted-top-level"],
};

/** Fields every answer carries (a group's fields that need no tier), whatever the group's tier applies. */
const ALWAYS_SHOWN_FIELDS: (keyof GroupSettingsRecord)[] = [
  "file_template_project_id",
  "ip_restriction_ranges",
  "only_allow_merge_if_pipeline_succeeds",
  "allow_merge_on_skipped_pipeline",
  "only_allow_merge_if_all_discussions_are_resolved",
];
/** Fields the response carries only when the group's tier has them (the group's "Premium and Ultimate only" fields, and two of the update's Premium fields). */
const PREMIUM_RESPONSE_FIELDS: (keyof GroupSettingsRecord)[] = [
  "shared_runners_minutes_limit",
  "extra_shared_runners_minutes_limit",
  "membership_lock",
  "wiki_access_level",
  "assistant_features_enabled",
  "lock_assistant_features_enabled",
  "experiment_features_enabled",
  "assistant_availability",
  "prevent_forking_outside_group",
  "allowed_email_domains_list",
];
/** The names real clients use for the assistant settings (`duo_*`), shown beside the API documentation's and accepted in a PUT. */
export const ASSISTANT_ALIASES = {
  duo_features_enabled: "assistant_features_enabled",
  lock_duo_features_enabled: "lock_assistant_features_enabled",
  duo_availability: "assistant_availability",
} as const satisfies Record<string, keyof GroupSettingsRecord>;
const ULTIMATE_RESPONSE_FIELDS: (keyof GroupSettingsRecord)[] = [
  "unique_project_download_limit",
  "unique_project_download_limit_interval_in_seconds",
  "unique_project_download_limit_allowlist",
  "unique_project_download_limit_alertlist",
  "auto_ban_user_on_excessive_projects_download",
];

const TIER_RANK: Record<Tier, number> = { free: 0, premium: 1, ultimate: 2 };
export const VISIBILITY_RANK: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

function tierAtLeast(state: EmulatorState, group: Group, tier: Tier): boolean {
  return TIER_RANK[state.tierOf(group)] >= TIER_RANK[tier];
}

/** Whether the group's tier and the offering have a field (a role is checked apart). */
function available(state: EmulatorState, group: Group, field: keyof GroupSettingsRecord): boolean {
  for (const requirement of REQUIREMENTS[field] ?? []) {
    if (requirement === "premium" && !tierAtLeast(state, group, "premium")) return false;
    if (requirement === "ultimate" && !tierAtLeast(state, group, "ultimate")) return false;
    if (requirement === "self-managed" && state.instance.offering === "hosted") return false;
    if (requirement === "hosted-top-level" && (state.instance.offering !== "hosted" || group.parentId !== null)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Presenting

function avatarUrl(state: EmulatorState, group: Group, settings: GroupSettingsRecord): string | null {
  if (!settings.avatar) return null;
  return `https://${state.instance.host}/uploads/-/system/group/avatar/${group.id}/${encodeURIComponent(settings.avatar.filename)}`;
}

/** The fields of `Entities::Group` (lists and get-one alike). */
export function presentGroup(state: EmulatorState, group: Group, options: { statistics?: boolean; customAttributes?: boolean } = {}): Record<string, unknown> {
  const fullPath = state.groupFullPath(group);
  const settings = settingsOf(state, group);
  const details = detailsOf(state, group);
  const body: Record<string, unknown> = {
    id: group.id,
    web_url: `https://${state.instance.host}/groups/${fullPath}`,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    share_with_group_lock: settings.share_with_group_lock,
    require_two_factor_authentication: settings.require_two_factor_authentication,
    two_factor_grace_period: settings.two_factor_grace_period,
    project_creation_level: settings.project_creation_level,
    auto_devops_enabled: settings.auto_devops_enabled,
    subgroup_creation_level: settings.subgroup_creation_level,
    emails_disabled: !settings.emails_enabled,
    emails_enabled: settings.emails_enabled,
    mentions_disabled: settings.mentions_disabled,
    lfs_enabled: settings.lfs_enabled,
    math_rendering_limits_enabled: settings.math_rendering_limits_enabled,
    lock_math_rendering_limits_enabled: settings.lock_math_rendering_limits_enabled,
    default_branch: settings.default_branch,
    default_branch_protection: settings.default_branch_protection,
    default_branch_protection_defaults: settings.default_branch_protection_defaults,
    avatar_url: avatarUrl(state, group, settings),
    request_access_enabled: settings.request_access_enabled,
    full_name: state.groupFullName(group),
    full_path: fullPath,
    created_at: group.createdAt,
    parent_id: group.parentId,
    organization_id: 1,
    shared_runners_setting: settings.shared_runners_setting,
    max_artifacts_size: settings.max_artifacts_size,
    repository_storage: details.repositoryStorage,
    step_up_auth_required_oauth_provider: settings.step_up_auth_required_oauth_provider,
  };
  for (const field of ALWAYS_SHOWN_FIELDS) body[field] = settings[field];
  if (state.instance.offering === "hosted" && group.parentId === null) {
    body.web_based_commit_signing_enabled = settings.web_based_commit_signing_enabled;
  }
  if (tierAtLeast(state, group, "premium")) {
    for (const field of PREMIUM_RESPONSE_FIELDS) body[field] = settings[field];
    for (const [alias, field] of Object.entries(ASSISTANT_ALIASES)) body[alias] = settings[field];
  }
  if (deletionIsDelayed(state)) body.marked_for_deletion_on = details.markedForDeletionOn;
  if (tierAtLeast(state, group, "ultimate")) for (const field of ULTIMATE_RESPONSE_FIELDS) body[field] = settings[field];
  // Administrators only (the callers check): `custom_attributes`, `statistics`, and a top-level group's `root_storage_statistics`.
  if (options.customAttributes) body.custom_attributes = presentCustomAttributes(state, group);
  if (options.statistics) {
    body.statistics = presentStatistics(state, group);
    if (group.parentId === null) body.root_storage_statistics = presentRootStorageStatistics(state, group);
  }
  return body;
}

/** `Entities::GroupDetail`: the group, its sharing, and the fields its viewer may see. */
export function presentGroupDetail(ctx: RequestContext<unknown>, group: Group, withProjects: boolean, withCustomAttributes = false): Record<string, unknown> {
  const { state, user } = ctx;
  const body = presentGroup(state, group, { customAttributes: withCustomAttributes && user?.isAdmin === true });
  body.shared_with_groups = presentSharedWithGroups(state, group.sharedWith);
  const canAdminGroup = hasGroupAccess(state, user, group, AccessLevel.Owner);
  if (canAdminGroup) body.runners_token = runnersToken(group);
  if (group.parentId === null && canAdminGroup) body.enabled_git_access_protocol = settingsOf(state, group).enabled_git_access_protocol;
  if (group.parentId === null) body.prevent_sharing_groups_outside_hierarchy = settingsOf(state, group).prevent_sharing_groups_outside_hierarchy;
  if (withProjects) {
    // Deprecated, at most 100 each.
    body.projects = state
      .projectsIn(group, { includeSubgroups: false })
      .filter((project) => canReadProject(state, user, project))
      .slice(0, 100)
      .map((project) => presentProject(state, project));
    body.shared_projects = [];
  }
  return body;
}

function runnersToken(group: Group): string {
  return "GR1348941" + createHash("sha256").update(`runners-${group.id}`).digest("hex").slice(0, 20);
}

// ---------------------------------------------------------------------------
// GET /groups/:id and its avatar

const getGroup = route(
  "GET",
  "/groups/:id",
  {
    params: {
      id: { type: "string", required: true },
      with_projects: { type: "boolean" },
      with_custom_attributes: { type: "boolean" },
    },
  },
  (ctx) => ok(presentGroupDetail(ctx, findGroup(ctx), ctx.params.with_projects ?? true, ctx.params.with_custom_attributes === true)),
);

const getAvatar = route("GET", "/groups/:id/avatar", { params: { id: { type: "string", required: true } } }, (ctx) => {
  const group = findGroup(ctx);
  const avatar = settingsOf(ctx.state, group).avatar;
  if (!avatar) throw notFound("Avatar");
  const content = Buffer.from(avatar.contentBase64, "base64");
  return {
    status: 200,
    body: content,
    headers: { "Content-Type": avatarMediaType(avatar.filename), "Content-Disposition": `attachment; filename="${avatar.filename}"` },
  };
});


// ---------------------------------------------------------------------------
// PUT /groups/:id

const updateParams = {
  id: { type: "string", required: true },
  name: { type: "string" },
  path: { type: "string" },
  description: { type: "string" },
  visibility: { type: "string", values: ["private", "internal", "public"] },
  // `avatar` is read apart (see avatarChange): a file, or a blank value that removes the avatar.
  share_with_group_lock: { type: "boolean" },
  require_two_factor_authentication: { type: "boolean" },
  two_factor_grace_period: { type: "integer" },
  project_creation_level: { type: "string", values: ["noone", "maintainer", "developer", "owner", "administrator"] },
  auto_devops_enabled: { type: "boolean", nullable: true },
  subgroup_creation_level: { type: "string", values: ["owner", "maintainer"] },
  emails_disabled: { type: "boolean" },
  emails_enabled: { type: "boolean" },
  mentions_disabled: { type: "boolean", nullable: true },
  lfs_enabled: { type: "boolean" },
  request_access_enabled: { type: "boolean" },
  default_branch: { type: "string", nullable: true },
  default_branch_protection: { type: "integer", values: [0, 1, 2, 3, 4] },
  default_branch_protection_defaults: { type: "hash" },
  shared_runners_setting: {
    type: "string",
    values: ["enabled", "disabled_and_overridable", "disabled_and_unoverridable", "disabled_with_override"],
  },
  enabled_git_access_protocol: { type: "string", values: ["ssh", "http", "all"] },
  prevent_sharing_groups_outside_hierarchy: { type: "boolean" },
  math_rendering_limits_enabled: { type: "boolean" },
  lock_math_rendering_limits_enabled: { type: "boolean" },
  max_artifacts_size: { type: "integer", nullable: true },
  step_up_auth_required_oauth_provider: { type: "string", nullable: true },
  experiment_features_enabled: { type: "boolean" },
  assistant_availability: { type: "string", values: ["default_on", "default_off", "never_on"] },
  web_based_commit_signing_enabled: { type: "boolean" },
  file_template_project_id: { type: "integer", nullable: true },
  membership_lock: { type: "boolean" },
  prevent_forking_outside_group: { type: "boolean" },
  ip_restriction_ranges: { type: "string", nullable: true },
  allowed_email_domains_list: { type: "string", nullable: true },
  wiki_access_level: { type: "string", values: ["disabled", "private", "enabled"] },
  only_allow_merge_if_pipeline_succeeds: { type: "boolean" },
  allow_merge_on_skipped_pipeline: { type: "boolean" },
  only_allow_merge_if_all_discussions_are_resolved: { type: "boolean" },
  assistant_features_enabled: { type: "boolean" },
  lock_assistant_features_enabled: { type: "boolean" },
  shared_runners_minutes_limit: { type: "integer", nullable: true },
  extra_shared_runners_minutes_limit: { type: "integer", nullable: true },
  unique_project_download_limit: { type: "integer" },
  unique_project_download_limit_interval_in_seconds: { type: "integer" },
  unique_project_download_limit_allowlist: { type: "string[]" },
  unique_project_download_limit_alertlist: { type: "integer[]" },
  auto_ban_user_on_excessive_projects_download: { type: "boolean" },
  duo_features_enabled: { type: "boolean" },
  lock_duo_features_enabled: { type: "boolean" },
  duo_availability: { type: "string", values: ["default_on", "default_off", "never_on"] },
} as const satisfies ParamSpec;

/** Blank values of these clear them (null), as the real entity shows a list with no rows. */
const CLEARED_WHEN_BLANK = ["ip_restriction_ranges", "allowed_email_domains_list", "step_up_auth_required_oauth_provider", "default_branch"] as const;

/** Settings fields written as given (the others need translation or live on the group itself). */
const PLAIN_FIELDS = Object.keys(updateParams).filter(
  (name) =>
    !["id", "name", "path", "description", "visibility", "emails_disabled", "default_branch_protection", "default_branch_protection_defaults", "shared_runners_setting"].includes(name) &&
    !(name in ASSISTANT_ALIASES),
) as (keyof GroupSettingsRecord)[];

/**
 * The assistant settings sent under the real clients' names, as the API documentation's:
 * both names with different values is Grape's `mutually_exclusive` 400.
 */
function withAssistantAliases(params: Record<string, unknown>): Record<string, unknown> {
  const result = { ...params };
  for (const [alias, field] of Object.entries(ASSISTANT_ALIASES)) {
    const value = params[alias];
    if (value === undefined) continue;
    if (params[field] !== undefined && params[field] !== value) throw paramError(`${field}, ${alias} are mutually exclusive`);
    result[field] = value;
  }
  return result;
}

/** What the PUT does to the avatar: a file uploads it, a blank value (null, "", `avatar=`) removes it. */
function avatarChange(raw: Record<string, unknown>): UploadedFile | "remove" | undefined {
  if (!("avatar" in raw)) return undefined;
  const value = raw.avatar;
  // A form's empty file field arrives as a part with an empty file name and no content.
  if (isUploadedFile(value)) return value.filename === "" && value.content.length === 0 ? "remove" : value;
  if (value === null || (typeof value === "string" && value.trim() === "")) return "remove";
  throw paramError("avatar is invalid");
}

const updateGroup = route("PUT", "/groups/:id", { params: updateParams }, (ctx) => {
  const { state, user } = ctx;
  const group = findGroup(ctx);
  if (!hasGroupAccess(state, user, group, AccessLevel.Owner)) throw forbidden();
  const errors = writeGroupParams(ctx, group, ctx.params as Record<string, unknown>);
  if (errors) throw validationError(errors);
  return ok(presentGroupDetail(ctx, group, true));
});

/** The parameters of `PUT /groups/:id` (and of `POST /groups`, which takes the same settings). */
export type GroupParams = Record<string, unknown>;
export const groupParams: ParamSpec = updateParams;

/**
 * Writes the name, path, description, visibility and settings of `params` to
 * the group (an existing one, or one being created, not yet in the state),
 * after checking them all: the model's errors by attribute when any fails,
 * and nothing written then. A 403 for administrators' fields sent by others.
 */
export function writeGroupParams(ctx: RequestContext<unknown>, group: Group, params: GroupParams): Record<string, string[]> | undefined {
  const { state, user } = ctx;
  const avatarChanged = avatarChange(ctx.rawParams as Record<string, unknown>);
  const given = withAssistantAliases(params);
  for (const field of CLEARED_WHEN_BLANK) if (typeof given[field] === "string" && (given[field] as string).trim() === "") given[field] = null;
  const sent = (name: string): boolean => given[name] !== undefined;
  if ((sent("shared_runners_minutes_limit") || sent("extra_shared_runners_minutes_limit")) && !user?.isAdmin) throw forbidden();

  const settings = settingsOf(state, group);
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const next: GroupSettingsRecord = structuredClone(settings);
  for (const field of PLAIN_FIELDS) {
    const value = given[field];
    if (value === undefined || !available(state, group, field)) continue;
    const requirements = REQUIREMENTS[field] ?? [];
    if (requirements.includes("top-level") && group.parentId !== null) {
      fail(field, "is only available on top-level groups");
      continue;
    }
    (next as unknown as Record<string, unknown>)[field] = value;
  }
  if (given.emails_disabled !== undefined && given.emails_enabled === undefined) next.emails_enabled = !given.emails_disabled;
  if (given.shared_runners_setting !== undefined) {
    next.shared_runners_setting = given.shared_runners_setting === "disabled_with_override" ? "disabled_and_overridable" : String(given.shared_runners_setting);
  }
  if (given.default_branch_protection_defaults !== undefined) {
    const defaults = readProtectionDefaults(given.default_branch_protection_defaults as Record<string, unknown>);
    next.default_branch_protection_defaults = defaults;
    next.default_branch_protection = [0, 1, 2, 3, 4].find((level) => sameDefaults(branchProtectionDefaults(level), defaults)) ?? next.default_branch_protection;
  } else if (given.default_branch_protection !== undefined) {
    next.default_branch_protection = Number(given.default_branch_protection);
    next.default_branch_protection_defaults = branchProtectionDefaults(Number(given.default_branch_protection));
  }

  if (next.unique_project_download_limit < 0 || next.unique_project_download_limit > 10_000) {
    fail("unique_project_download_limit", "must be less than or equal to 10000");
  }
  if (next.unique_project_download_limit_interval_in_seconds < 0 || next.unique_project_download_limit_interval_in_seconds > 864_000) {
    fail("unique_project_download_limit_interval_in_seconds", "must be less than or equal to 864000");
  }
  if (next.unique_project_download_limit_allowlist.length > 100) fail("unique_project_download_limit_allowlist", "exceeds maximum length (100 usernames)");
  if (next.unique_project_download_limit_alertlist.length > 100) fail("unique_project_download_limit_alertlist", "exceeds maximum length (100 user ids)");
  for (const username of next.unique_project_download_limit_allowlist) {
    if (!state.userByUsername(username)) fail("unique_project_download_limit_allowlist", `${username} does not exist`);
  }
  for (const id of next.unique_project_download_limit_alertlist) {
    if (!state.userById(id)) fail("unique_project_download_limit_alertlist", `${id} does not exist`);
  }
  if (next.two_factor_grace_period < 0) fail("two_factor_grace_period", "must be greater than or equal to 0");
  if (next.max_artifacts_size !== null && next.max_artifacts_size < 0) fail("max_artifacts_size", "must be greater than or equal to 0");
  if (next.file_template_project_id !== null && !state.projectById(next.file_template_project_id)) fail("file_template_project_id", "is invalid");

  const visibility = given.visibility as Visibility | undefined;
  const name = given.name as string | undefined;
  const path = given.path as string | undefined;
  if (visibility !== undefined) checkVisibility(state, group, visibility, fail);
  if (name !== undefined) checkName(name, fail);
  if (path !== undefined) checkPath(state, group, path, fail);
  let avatar = next.avatar;
  if (avatarChanged === "remove") avatar = null;
  else if (avatarChanged) avatar = readAvatar(avatarChanged, fail);

  if (Object.keys(errors).length > 0) return errors;

  next.avatar = avatar;
  groupSettingsStore.of(state)[String(group.id)] = next;
  if (visibility !== undefined) group.visibility = visibility;
  if (name !== undefined) group.name = name;
  if (given.description !== undefined) group.description = String(given.description);
  if (path !== undefined && path !== group.path) {
    if (state.groupById(group.id)) group.formerPaths.push(state.groupFullPath(group));
    group.path = path;
  }
  return undefined;
}

function readProtectionDefaults(hash: Record<string, unknown>): BranchProtectionDefaults {
  const levels = (value: unknown): { access_level: number }[] => {
    if (!Array.isArray(value)) throw paramError("default_branch_protection_defaults is invalid");
    return value.map((entry) => {
      const level = Number((entry as Record<string, unknown>)?.access_level);
      if (![0, 30, 40, 60].includes(level)) throw paramError("default_branch_protection_defaults[access_level] does not have a valid value");
      return { access_level: level };
    });
  };
  const flag = (value: unknown): boolean => value === true || value === "true";
  const defaults: BranchProtectionDefaults = {
    allowed_to_push: levels(hash.allowed_to_push ?? []),
    allow_force_push: flag(hash.allow_force_push),
    allowed_to_merge: levels(hash.allowed_to_merge ?? []),
  };
  if (hash.developer_can_initial_push !== undefined) defaults.developer_can_initial_push = flag(hash.developer_can_initial_push);
  return defaults;
}

/** The model validations on `visibility_level`, with the real messages. */
function checkVisibility(state: EmulatorState, group: Group, wanted: string, fail: (field: string, message: string) => void): void {
  const rank = VISIBILITY_RANK[wanted as Visibility];
  const parent = group.parentId === null ? undefined : state.groupById(group.parentId);
  if (parent && rank > VISIBILITY_RANK[parent.visibility]) {
    fail("visibility_level", `${wanted} is not allowed since the parent group has a ${parent.visibility} visibility.`);
  }
  if (state.projectsIn(group, { includeSubgroups: false }).some((project) => VISIBILITY_RANK[project.visibility] > rank)) {
    fail("visibility_level", `${wanted} is not allowed since this group contains projects with higher visibility.`);
  }
  if (state.descendants(group).some((child) => VISIBILITY_RANK[child.visibility] > rank)) {
    fail("visibility_level", `${wanted} is not allowed since there are sub-groups with higher visibility.`);
  }
}

/**
 * Paths a top-level group may not take (`Gitlab::PathRegex::TOP_LEVEL_ROUTES`: the instance's own
 * routes), and the one a subgroup may not (`GROUP_ROUTES`); compared without regard to case.
 */
export const RESERVED_TOP_LEVEL_PATHS: readonly string[] = [
  "-", ".well-known", "404.html", "422.html", "500.html", "502.html", "503.html", "admin", "api", "apple-touch-icon.png",
  "assets", "dashboard", "deploy.html", "explore", "favicon.ico", "favicon.png", "files", "groups", "health_check", "help",
  "import", "jwt", "login", "oauth", "profile", "projects", "public", "robots.txt", "s", "search", "sitemap", "sitemap.xml",
  "sitemap.xml.gz", "slash-command-logo.png", "snippets", "unsubscribes", "uploads", "users", "v2",
];
export const RESERVED_SUBGROUP_PATHS: readonly string[] = ["-"];

function checkPath(state: EmulatorState, group: Group, path: string, fail: (field: string, message: string) => void): void {
  if (!/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/.test(path) || path.endsWith(".git") || path.endsWith(".atom")) {
    fail("path", "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'");
    return;
  }
  const reserved = group.parentId === null ? RESERVED_TOP_LEVEL_PATHS : RESERVED_SUBGROUP_PATHS;
  if (reserved.includes(path.toLowerCase())) {
    fail("path", `${path} is a reserved name`);
    return;
  }
  const parent = group.parentId === null ? undefined : state.groupById(group.parentId);
  if (pathTaken(state, parent, path, group.id)) fail("path", "has already been taken");
}

/** Whether a group or (in a parent) a project already holds the path there: their routes share one namespace. */
export function pathTaken(state: EmulatorState, parent: Group | undefined, path: string, exceptGroupId?: number): boolean {
  const fullPath = (parent ? state.groupFullPath(parent) + "/" : "") + path;
  const taken = state.groupByFullPath(fullPath);
  return (taken !== undefined && taken.id !== exceptGroupId) || state.projectByFullPath(fullPath) !== undefined;
}

/** `Gitlab::Regex.group_name_regex`, with its message. */
function checkName(name: string, fail: (field: string, message: string) => void): void {
  if (name.trim() === "") fail("name", "can't be blank");
  else if (!/^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Pd}\p{Extended_Pictographic}+_(). ]*$/u.test(name)) {
    fail("name", "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.");
  }
}

function readAvatar(file: UploadedFile, fail: (field: string, message: string) => void): GroupSettingsRecord["avatar"] {
  if (!isAvatarImage(file.filename)) {
    fail("avatar", AVATAR_FORMAT_REFUSAL);
    return null;
  }
  if (file.content.length > AVATAR_MAX_BYTES) {
    fail("avatar", "is too big (should be at most 200 KiB)");
    return null;
  }
  return {
    filename: file.filename,
    contentBase64: file.content.toString("base64"),
    sha256: createHash("sha256").update(file.content).digest("hex"),
  };
}

export const groupRoutes: readonly RouteDefinition[] = [
  getGroup,
  getAvatar,
  listGroupsRoute(presentGroup),
  listGroupsBelowRoute(presentGroup, "subgroups"),
  listGroupsBelowRoute(presentGroup, "descendant_groups"),
  updateGroup,
];

