/**
 * The instance's application settings (`/application/settings`): on
 * self-managed and dedicated instances only, administrators only. Every field
 * may be absent or null: editions and versions differ in what they hold.
 */
import { z } from "zod";
import { decimalValue, SETTING_ENTRIES } from "../application-settings-catalogue";
import { field } from "./fields";
import type { Needs } from "./needs";
import { requestsOf } from "./core";

/** Instance-wide settings: for administrators, on the offerings that have an instance of their own. */
export const INSTANCE_SETTINGS_NEEDS: Needs = { on: { kind: "instance" }, role: "administrator", offering: "self-managed" };

const int = z.number().int().nullable().optional();
const bool = z.boolean().nullable().optional();
const text = z.string().nullable().optional();
const strings = z.array(z.string()).nullable().optional();
/** A numeric column: text on real servers (`"1.0"`), a number on others. */
const decimal = z.union([z.string(), z.number()]).nullable().optional();

/** The throttles: `throttle_<scope>_enabled`, `_period_in_seconds`, `_requests_per_period`. */
export const THROTTLE_SCOPES = [
  "authenticated_api", "authenticated_web", "authenticated_packages_api", "authenticated_git_http",
  "unauthenticated_api", "unauthenticated_web", "unauthenticated_packages_api", "unauthenticated_git_http", "unauthenticated",
] as const;
const throttles = Object.fromEntries(
  THROTTLE_SCOPES.flatMap((scope) => [
    [`throttle_${scope}_enabled`, bool],
    [`throttle_${scope}_period_in_seconds`, int],
    [`throttle_${scope}_requests_per_period`, int],
  ]),
) as Record<`throttle_${(typeof THROTTLE_SCOPES)[number]}_${"enabled" | "period_in_seconds" | "requests_per_period"}`, typeof int | typeof bool>;

/** The settings that hold credentials (the API keys and tokens of the services the instance talks to), as the catalogue marks them: secret wherever they are read. */
const credentials = Object.fromEntries(SETTING_ENTRIES.filter(([, entry]) => entry.secret).map(([name]) => [name, field(text, { secret: true })]));

const protectionDefaults = z.looseObject({
  allowed_to_push: z.array(z.looseObject({ access_level: z.number() })).optional(),
  allow_force_push: z.boolean().optional(),
  allowed_to_merge: z.array(z.looseObject({ access_level: z.number() })).optional(),
});

/** The settings as the API sends them (the resource records them so). */
export const applicationSettings = z.looseObject({
  id: z.number(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  signup_enabled: bool,
  default_projects_limit: int,
  default_branch_protection: int,
  default_branch_protection_defaults: protectionDefaults.nullable().optional(),
  default_preferred_language: text,
  default_project_visibility: text,
  default_group_visibility: text,
  default_snippet_visibility: text,
  restricted_visibility_levels: strings,
  sign_in_restrictions: z.record(z.string(), z.unknown()).nullable().optional(),
  password_authentication_enabled_for_web: bool,
  max_attachment_size: int,
  max_export_size: int,
  max_import_size: int,
  max_decompressed_archive_size: int,
  max_import_remote_file_size: int,
  bulk_import_max_download_file_size: int,
  max_login_attempts: int,
  failed_login_attempts_unlock_period_in_minutes: int,
  session_expire_delay: int,
  /** Seconds; 0 is unlimited. */
  terminal_max_session_time: int,
  /** Bytes. */
  snippet_size_limit: int,
  wiki_page_max_content_bytes: int,
  asciidoc_max_includes: int,
  unconfirmed_users_delete_after_days: int,
  /** Seconds. */
  project_runner_token_expiration_interval: int,
  delete_inactive_projects: bool,
  time_tracking_limit_to_hours: bool,
  top_level_group_creation_enabled: bool,
  silent_mode_enabled: bool,
  silent_admin_exports_enabled: bool,
  user_defaults_to_private_profile: bool,
  admin_mode: bool,
  enforce_terms: bool,
  terms: text,
  two_factor_grace_period: int,
  email_restrictions_enabled: bool,
  email_restrictions: text,
  unique_ips_limit_enabled: bool,
  unique_ips_limit_per_user: int,
  unique_ips_limit_time_window: int,
  abuse_notification_email: text,
  valid_runner_registrars: strings,
  whats_new_variant: text,
  container_expiration_policies_enable_historic_entries: bool,
  container_registry_cleanup_tags_service_max_list_size: int,
  container_registry_delete_tags_service_timeout: int,
  container_registry_expiration_policies_caching: bool,
  container_registry_expiration_policies_worker_capacity: int,
  container_registry_token_expire_delay: int,
  decompress_archive_file_timeout: int,
  issues_create_limit: int,
  raw_blob_request_limit: int,
  project_jobs_api_rate_limit: int,
  projects_api_rate_limit_unauthenticated: int,
  runner_jobs_request_api_limit: int,
  runner_jobs_patch_trace_api_limit: int,
  runner_jobs_endpoints_api_limit: int,
  polling_interval_multiplier: decimal,
  /** Seconds, a float. */
  external_authorization_service_timeout: z.number().nullable().optional(),
  users_api_limit_followers: int,
  users_api_limit_following: int,
  users_api_limit_status: int,
  users_api_limit_ssh_keys: int,
  users_api_limit_ssh_key: int,
  users_api_limit_gpg_keys: int,
  users_api_limit_gpg_key: int,
  ...throttles,
  // Premium and Ultimate only: absent on a lower licence.
  allow_all_integrations: bool,
  allowed_integrations: strings,
  default_project_deletion_protection: bool,
  disable_personal_access_tokens: bool,
  group_owners_can_manage_default_branch_protection: bool,
  lock_memberships_to_saml: bool,
  file_template_project_id: int,
  security_approval_policies_limit: int,
  scan_execution_policies_action_limit: int,
  scan_execution_policies_schedule_limit: int,
  virtual_registries_endpoints_api_limit: int,
  secret_push_protection_available: bool,
  assistant_features_enabled: bool,
  lock_assistant_features_enabled: bool,
  ...credentials,
});

/** The settings as a lookup gives them: a decimal column as a number. */
export const applicationSettingsRead = applicationSettings.extend({
  polling_interval_multiplier: decimal.transform((value) => decimalValue(value) as number | null | undefined),
});

export type ApplicationSettings = z.output<typeof applicationSettings>;
export const applicationSettingsRequests = requestsOf(applicationSettings);

export const APPLICATION_SETTINGS_PATH = "/application/settings";
