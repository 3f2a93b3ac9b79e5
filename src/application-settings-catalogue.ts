/**
 * The instance's application settings as real servers have them: each
 * setting's type, its default, its enumeration, the licence it needs and
 * whether it is a secret. The ApplicationSettings resource generates its
 * schema entries from it (src/resources/application-settings.ts), declaring by
 * hand only the settings that need more rules than their type. The emulator
 * states the server's settings in its own table; test/emulator/restated-facts.test.ts
 * compares the two, so a wrong entry fails there.
 *
 * Sources: the API documentation (the settings it lists, with its
 * defaults); for the others, the server's parameters (names, types,
 * enumerations, settings required together) and the defaults stated in their
 * descriptions or in the documented example answer. Where
 * neither states a default, the column's empty value is used (false, null, []).
 */

export type SettingValue = string | number | boolean | null | unknown[] | Record<string, unknown>;

/**
 * How a setting travels in JSON, as its database column makes it: `number` a
 * float column (a JSON number), `decimal` a numeric column, which Rails writes
 * as text (`"1.0"`); both are numbers to a program.
 */
export type SettingKind = "boolean" | "integer" | "number" | "decimal" | "string" | "string[]" | "integer[]" | "hash";

export interface SettingEntry {
  kind: SettingKind;
  default: SettingValue;
  /** The values an enumerated setting takes. */
  values?: readonly (string | number)[];
  /** The licence the setting needs; below it the server neither shows nor applies it. */
  tier?: "premium" | "ultimate";
  /** A credential: kept secret in state. */
  secret?: true;
  /** Never shown in an answer (`Entities::ApplicationSetting` leaves it out): only ever written. */
  writeOnly?: true;
}

// The helpers keep each entry's kind (and enumeration) in its type: the resource's schema is typed from them.
type Tier = SettingEntry["tier"];
const bool = (value: boolean, tier?: Tier) => ({ kind: "boolean" as const, default: value, ...(tier ? { tier } : {}) });
const int = (value: number | null, tier?: Tier) => ({ kind: "integer" as const, default: value, ...(tier ? { tier } : {}) });
const num = (value: number | null) => ({ kind: "number" as const, default: value });
const decimal = (value: number | null) => ({ kind: "decimal" as const, default: value });
const text = (value: string | null, tier?: Tier) => ({ kind: "string" as const, default: value, ...(tier ? { tier } : {}) });
const oneOf = <const V extends string | number>(value: V | null, values: readonly V[], tier?: Tier) => ({
  kind: (typeof values[0] === "number" ? "integer" : "string") as V extends number ? "integer" : "string",
  default: value,
  values,
  ...(tier ? { tier } : {}),
});
const texts = (value: string[] = [], tier?: Tier) => ({ kind: "string[]" as const, default: value, ...(tier ? { tier } : {}) });
const hash = (value: Record<string, unknown> = {}) => ({ kind: "hash" as const, default: value });
/** A credential the answer shows to administrators (as the real entity does). */
const secret = () => ({ kind: "string" as const, default: null, secret: true as const });
/** A credential the answer never shows. */
const hiddenSecret = () => ({ kind: "string" as const, default: null, secret: true as const, writeOnly: true as const });

const VISIBILITIES = ["private", "internal", "public"] as const;
/** `Gitlab::Access.project_creation_values`: no one, maintainers, developers, administrators, owners. */
const PROJECT_CREATION_LEVELS = [0, 1, 2, 3, 4] as const;
/** `KeyRestrictionValidator`: -1 forbids the key type, 0 sets no minimum. */
const RSA_KEY_SIZES = [-1, 0, 1024, 2048, 3072, 4096] as const;
const ECDSA_KEY_SIZES = [-1, 0, 256, 384, 521] as const;
const ED25519_KEY_SIZES = [-1, 0, 256] as const;

/** The throttle settings' pattern, `unauthenticated` being the deprecated scope. */
export const THROTTLE_SCOPES = [
  "authenticated_api",
  "authenticated_web",
  "authenticated_packages_api",
  "authenticated_git_http",
  "authenticated_dependency_proxy",
  "unauthenticated_api",
  "unauthenticated_web",
  "unauthenticated_packages_api",
  "unauthenticated_git_http",
  "unauthenticated",
] as const;
/** A decimal as Rails writes it in JSON (`BigDecimal#to_s("F")`): always with a fraction, `1` as "1.0". */
export function decimalText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** A decimal read from an answer: text on real servers; a number is taken as it is. */
export function decimalValue(value: unknown): unknown {
  if (typeof value !== "string" || value.trim() === "") return value;
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}

export type ThrottleScope = (typeof THROTTLE_SCOPES)[number];

const THROTTLE_DEFAULTS: Record<ThrottleScope, [period: number, requests: number]> = {
  authenticated_api: [3600, 7200],
  authenticated_web: [3600, 7200],
  authenticated_packages_api: [15, 1000],
  authenticated_git_http: [3600, 3600],
  authenticated_dependency_proxy: [15, 1000],
  unauthenticated_api: [3600, 3600],
  unauthenticated_web: [3600, 3600],
  unauthenticated_packages_api: [15, 800],
  unauthenticated_git_http: [3600, 3600],
  unauthenticated: [3600, 3600],
};

type ThrottleEntries = { [S in ThrottleScope as `throttle_${S}_enabled`]: ReturnType<typeof bool> } & {
  [S in ThrottleScope as `throttle_${S}_period_in_seconds` | `throttle_${S}_requests_per_period`]: ReturnType<typeof int>;
};
const throttles = Object.fromEntries(
  THROTTLE_SCOPES.flatMap((scope) => {
    const [period, requests] = THROTTLE_DEFAULTS[scope];
    return [
      [`throttle_${scope}_enabled`, bool(false)],
      [`throttle_${scope}_period_in_seconds`, int(period)],
      [`throttle_${scope}_requests_per_period`, int(requests)],
    ];
  }),
) as ThrottleEntries;

/** Every setting, by its API name. */
export const APPLICATION_SETTINGS = {
  // --- the settings the specification lists ---------------------------------
  signup_enabled: bool(true),
  default_projects_limit: int(100000),
  default_branch_protection: oneOf(2, [0, 1, 2, 3, 4]),
  default_branch_protection_defaults: hash({ allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }] }),
  default_preferred_language: text("en"),
  default_project_visibility: oneOf("private", VISIBILITIES),
  default_group_visibility: oneOf("private", VISIBILITIES),
  default_snippet_visibility: oneOf("private", VISIBILITIES),
  restricted_visibility_levels: texts(),
  sign_in_restrictions: hash(),
  password_authentication_enabled_for_web: bool(true),
  max_attachment_size: int(100),
  max_export_size: int(0),
  max_import_size: int(0),
  max_decompressed_archive_size: int(25600),
  max_import_remote_file_size: int(10240),
  bulk_import_max_download_file_size: int(5120),
  max_login_attempts: int(null),
  failed_login_attempts_unlock_period_in_minutes: int(null),
  session_expire_delay: int(10080),
  terminal_max_session_time: int(0),
  snippet_size_limit: int(52428800),
  wiki_page_max_content_bytes: int(5242880),
  asciidoc_max_includes: int(32),
  delete_unconfirmed_users: bool(false, "premium"),
  unconfirmed_users_delete_after_days: int(7, "premium"),
  project_runner_token_expiration_interval: int(null),
  delete_inactive_projects: bool(false),
  time_tracking_limit_to_hours: bool(false),
  top_level_group_creation_enabled: bool(true),
  silent_mode_enabled: bool(false),
  silent_admin_exports_enabled: bool(false),
  user_defaults_to_private_profile: bool(false),
  admin_mode: bool(false),
  enforce_terms: bool(false),
  terms: text(null),
  require_two_factor_authentication: bool(false),
  two_factor_grace_period: int(48),
  email_restrictions_enabled: bool(false),
  email_restrictions: text(null),
  unique_ips_limit_enabled: bool(false),
  unique_ips_limit_per_user: int(10),
  unique_ips_limit_time_window: int(3600),
  abuse_notification_email: text(null),
  valid_runner_registrars: texts(["project", "group"]),
  whats_new_variant: oneOf("all_tiers", ["all_tiers", "current_tier", "disabled"]),
  container_expiration_policies_enable_historic_entries: bool(false),
  container_registry_cleanup_tags_service_max_list_size: int(200),
  container_registry_delete_tags_service_timeout: int(250),
  container_registry_expiration_policies_caching: bool(true),
  container_registry_expiration_policies_worker_capacity: int(4),
  container_registry_token_expire_delay: int(5),
  decompress_archive_file_timeout: int(210),
  issues_create_limit: int(300),
  raw_blob_request_limit: int(300),
  project_jobs_api_rate_limit: int(600),
  projects_api_rate_limit_unauthenticated: int(400),
  runner_jobs_request_api_limit: int(2000),
  runner_jobs_patch_trace_api_limit: int(200),
  runner_jobs_endpoints_api_limit: int(200),
  users_api_limit_followers: int(100),
  users_api_limit_following: int(100),
  users_api_limit_status: int(240),
  users_api_limit_ssh_keys: int(120),
  users_api_limit_ssh_key: int(120),
  users_api_limit_gpg_keys: int(120),
  users_api_limit_gpg_key: int(120),
  akismet_enabled: bool(false),
  akismet_api_key: secret(),
  recaptcha_enabled: bool(false),
  recaptcha_site_key: secret(),
  recaptcha_private_key: secret(),
  external_pipeline_validation_service_url: text(null),
  external_pipeline_validation_service_token: secret(),
  external_pipeline_validation_service_timeout: int(null),
  ...throttles,
  // Premium and Ultimate (the specification's licensed settings)
  allow_all_integrations: bool(true, "ultimate"),
  allowed_integrations: texts([], "ultimate"),
  default_project_deletion_protection: bool(false, "premium"),
  disable_personal_access_tokens: bool(false, "premium"),
  group_owners_can_manage_default_branch_protection: bool(true, "premium"),
  lock_memberships_to_saml: bool(false, "premium"),
  file_template_project_id: int(null, "premium"),
  security_approval_policies_limit: int(5, "premium"),
  scan_execution_policies_action_limit: int(0, "premium"),
  scan_execution_policies_schedule_limit: int(0, "premium"),
  virtual_registries_endpoints_api_limit: int(1000, "premium"),
  secret_push_protection_available: bool(false, "ultimate"),
  assistant_features_enabled: bool(true, "premium"),
  lock_assistant_features_enabled: bool(false, "premium"),
  assistant_availability: oneOf("default_on", ["default_on", "default_off", "never_on"], "premium"),

  // --- real servers' other settings ------------------------------------------
  after_sign_up_text: text(null),
  after_sign_out_path: text(null),
  allow_account_deletion: bool(true, "premium"),
  allow_bypass_placeholder_confirmation: bool(false),
  allow_local_requests_from_system_hooks: bool(true),
  allow_local_requests_from_web_hooks_and_services: bool(false),
  allow_project_creation_for_guest_and_below: bool(true),
  allow_runner_registration_token: bool(true),
  archive_builds_in_human_readable: text(null),
  asset_proxy_enabled: bool(false),
  asset_proxy_url: text(null),
  asset_proxy_secret_key: hiddenSecret(),
  asset_proxy_allowlist: texts(),
  authn_data_retention_cleanup_enabled: bool(false),
  authorized_keys_enabled: bool(true),
  auto_devops_domain: text(null),
  auto_devops_enabled: bool(true),
  autocomplete_users_limit: int(300),
  autocomplete_users_unauthenticated_limit: int(100),
  bulk_import_concurrent_pipeline_batch_limit: int(25),
  bulk_import_enabled: bool(false),
  can_create_group: bool(true),
  ci_delete_pipelines_in_seconds_limit_human_readable: text("1 year"),
  ci_job_live_trace_enabled: bool(false),
  ci_lint_limit_per_user: int(0),
  ci_max_includes: int(150),
  ci_max_total_yaml_size_bytes: int(314572800),
  commit_email_hostname: text(null),
  concurrent_bitbucket_import_jobs_limit: int(100),
  concurrent_bitbucket_server_import_jobs_limit: int(100),
  concurrent_github_import_jobs_limit: int(1000),
  concurrent_relation_batch_export_limit: int(25),
  custom_http_clone_url_root: text(null),
  default_artifacts_expire_in: text("30 days"),
  default_branch_name: text(null),
  default_ci_config_path: text(null),
  default_project_creation: oneOf(2, PROJECT_CREATION_LEVELS),
  deletion_adjourned_period: int(30),
  diagramsnet_enabled: bool(true),
  diagramsnet_url: text("https://embed.diagrams.net"),
  diff_max_files: int(1000),
  diff_max_lines: int(50000),
  diff_max_patch_bytes: int(204800),
  disable_admin_oauth_scopes: bool(false),
  disable_feed_token: bool(false),
  disable_password_authentication_for_users_with_sso_identities: bool(false),
  disabled_oauth_sign_in_sources: texts(),
  dns_rebinding_protection_enabled: bool(true),
  domain_allowlist: texts(),
  domain_denylist_enabled: bool(false),
  domain_denylist: texts(),
  downstream_pipeline_trigger_limit_per_project_user_sha: int(0),
  dsa_key_restriction: oneOf(-1, RSA_KEY_SIZES),
  ecdsa_key_restriction: oneOf(0, ECDSA_KEY_SIZES),
  ecdsa_sk_key_restriction: oneOf(0, ECDSA_KEY_SIZES),
  ed25519_key_restriction: oneOf(0, ED25519_KEY_SIZES),
  ed25519_sk_key_restriction: oneOf(0, ED25519_KEY_SIZES),
  rsa_key_restriction: oneOf(0, RSA_KEY_SIZES),
  eks_integration_enabled: bool(false),
  eks_account_id: text(null),
  eks_access_key_id: text(null),
  eks_secret_access_key: hiddenSecret(),
  email_author_in_body: bool(false),
  email_confirmation_setting: oneOf("off", ["off", "soft", "hard"]),
  enable_artifact_external_redirect_warning_page: bool(true),
  enabled_git_access_protocol: oneOf("all", ["ssh", "http", "all"]),
  external_auth_client_cert: text(null),
  external_auth_client_key: secret(),
  external_auth_client_key_pass: secret(),
  external_authorization_service_default_label: text(null),
  external_authorization_service_enabled: bool(false),
  external_authorization_service_timeout: num(0.5),
  external_authorization_service_url: text(null),
  first_day_of_week: oneOf(0, [0, 1, 6]),
  git_push_pipeline_limit: int(4),
  gitaly_timeout_default: int(55),
  gitaly_timeout_fast: int(10),
  gitaly_timeout_medium: int(30),
  gitlab_shell_operation_limit: int(600),
  gitpod_enabled: bool(false),
  gitpod_url: text("https://gitpod.io/"),
  grafana_enabled: bool(false),
  grafana_url: text("/-/grafana"),
  gravatar_enabled: bool(true),
  help_page_documentation_base_url: text(null),
  help_page_hide_commercial_content: bool(false),
  help_page_support_url: text(null),
  help_page_text: text(null),
  hide_third_party_offers: bool(false),
  home_page_url: text(null),
  housekeeping_enabled: bool(true),
  housekeeping_optimize_repository_period: int(10),
  html_emails_enabled: bool(true),
  import_sources: texts(),
  inactive_projects_delete_after_months: int(2),
  inactive_projects_min_size_mb: int(0),
  inactive_projects_send_warning_email_after_months: int(1),
  inactive_resource_access_tokens_delete_after_days: int(30),
  include_optional_metrics_in_service_ping: bool(true),
  invisible_captcha_enabled: bool(false),
  jira_connect_application_key: text(null),
  jira_connect_proxy_url: text(null),
  jira_connect_public_key_storage_enabled: bool(false),
  keep_latest_artifact: bool(true),
  kroki_enabled: bool(false),
  kroki_url: text(null),
  kroki_formats: hash({ blockdiag: false, bpmn: false, excalidraw: false }),
  local_markdown_version: int(0),
  login_recaptcha_protection_enabled: bool(false),
  mailgun_events_enabled: bool(false),
  mailgun_signing_key: secret(),
  max_artifacts_size: int(100),
  max_pages_custom_domains_per_project: int(0),
  max_pages_size: int(100),
  max_terraform_state_size_bytes: int(0),
  max_yaml_depth: int(100),
  max_yaml_size_bytes: int(2097152),
  minimum_password_length: int(8, "premium"),
  mirror_available: bool(true),
  notify_on_unknown_sign_in: bool(true),
  outbound_local_requests_whitelist: texts(),
  package_registry_allow_anyone_to_pull_option: bool(true),
  pages_domain_verification_enabled: bool(true),
  password_authentication_enabled_for_git: bool(true),
  performance_bar_allowed_group_path: text(null),
  personal_access_token_prefix: text("glpat-"),
  pipeline_limit_per_project_user_sha: int(0),
  plantuml_enabled: bool(false),
  plantuml_url: text(null),
  polling_interval_multiplier: decimal(1),
  project_export_enabled: bool(true),
  prometheus_metrics_enabled: bool(true),
  protected_ci_variables: bool(true),
  push_event_activities_limit: int(3),
  push_event_hooks_limit: int(3),
  rate_limiting_response_text: text(null),
  raw_blob_request_limit_unauthenticated: int(800),
  receive_max_input_size: int(null),
  remember_me_enabled: bool(true),
  repository_checks_enabled: bool(true),
  repository_storages_weighted: hash({ default: 100 }),
  require_admin_approval_after_user_signup: bool(true),
  require_admin_two_factor_authentication: bool(false),
  require_email_verification_on_account_locked: bool(false),
  require_personal_access_token_expiry: bool(true),
  runner_token_expiration_interval: int(null),
  group_runner_token_expiration_interval: int(null),
  search_rate_limit: int(30),
  search_rate_limit_unauthenticated: int(10),
  security_txt_content: text(null),
  session_expire_from_init: bool(false),
  shared_runners_enabled: bool(true),
  shared_runners_text: text(null),
  sidekiq_job_limiter_mode: oneOf("compress", ["track", "compress"]),
  sidekiq_job_limiter_compression_threshold_bytes: int(100000),
  sidekiq_job_limiter_limit_bytes: int(0),
  slack_app_enabled: bool(false),
  slack_app_id: text(null),
  slack_app_secret: secret(),
  slack_app_signing_secret: secret(),
  slack_app_verification_token: secret(),
  snowplow_enabled: bool(false),
  snowplow_collector_hostname: text(null),
  snowplow_cookie_domain: text(null),
  snowplow_app_id: text(null),
  sourcegraph_enabled: bool(false),
  sourcegraph_public_only: bool(true),
  sourcegraph_url: text(null),
  spam_check_endpoint_enabled: bool(false),
  spam_check_endpoint_url: text(null),
  spam_check_api_key: secret(),
  static_objects_external_storage_auth_token: secret(),
  static_objects_external_storage_url: text(null),
  update_runner_versions_enabled: bool(true),
  usage_ping_enabled: bool(true),
  user_default_external: bool(false),
  user_default_internal_regex: text(null),
  user_deactivation_emails_enabled: bool(true),
  user_oauth_applications: bool(true),
  user_show_add_ssh_key_message: bool(true),
  users_get_by_id_limit: int(300),
  version_check_enabled: bool(true),
  web_hook_event_resend_limit: int(5),
  web_hook_test_limit: int(5),
  wiki_asciidoc_allow_uri_includes: bool(false),
  // Premium and Ultimate (EE)
  allow_group_owners_to_manage_ldap: bool(true, "premium"),
  check_namespace_plan: bool(false, "premium"),
  email_additional_text: text(null, "premium"),
  geo_node_allowed_ips: text("0.0.0.0/0, ::/0", "premium"),
  geo_status_timeout: int(10, "premium"),
  use_clickhouse_for_analytics: bool(false, "premium"),
} satisfies Record<string, SettingEntry>;

export type SettingName = keyof typeof APPLICATION_SETTINGS;

/** The table as plain entries, for code that walks it. */
export const SETTING_ENTRIES: readonly [SettingName, SettingEntry][] = Object.entries(APPLICATION_SETTINGS) as [SettingName, SettingEntry][];

/**
 * Names real servers accept beside the API documentation's, and the setting each writes
 * (the server's deprecated names, and the `duo_*` names real clients
 * send for the assistant settings). An answer shows the `duo_*` names beside
 * the API documentation's (real servers show only those); the legacy names it does not show.
 */
export const SETTING_ALIASES = {
  signin_enabled: "password_authentication_enabled_for_web",
  admin_notification_email: "abuse_notification_email",
  duo_features_enabled: "assistant_features_enabled",
  lock_duo_features_enabled: "lock_assistant_features_enabled",
  duo_availability: "assistant_availability",
} as const satisfies Record<string, SettingName>;

/** The aliases an answer shows beside the setting they stand for. */
export const ALIASES_SHOWN: readonly (keyof typeof SETTING_ALIASES)[] = ["duo_features_enabled", "lock_duo_features_enabled", "duo_availability"];

/**
 * Settings the server requires in the same request when the first is true
 * (Grape's `given <setting>: ->(val) { val } do requires ... end`).
 */
export const REQUIRED_WHEN_ENABLED: Readonly<Record<string, readonly string[]>> = {
  enforce_terms: ["terms"],
  require_two_factor_authentication: ["two_factor_grace_period"],
  email_restrictions_enabled: ["email_restrictions"],
  unique_ips_limit_enabled: ["unique_ips_limit_per_user", "unique_ips_limit_time_window"],
  akismet_enabled: ["akismet_api_key"],
  recaptcha_enabled: ["recaptcha_site_key", "recaptcha_private_key"],
  login_recaptcha_protection_enabled: ["recaptcha_site_key", "recaptcha_private_key"],
  eks_integration_enabled: ["eks_account_id", "eks_access_key_id", "eks_secret_access_key"],
  gitpod_enabled: ["gitpod_url"],
  kroki_enabled: ["kroki_url"],
  plantuml_enabled: ["plantuml_url"],
  diagramsnet_enabled: ["diagramsnet_url"],
  shared_runners_enabled: ["shared_runners_text"],
  sourcegraph_enabled: ["sourcegraph_url"],
  spam_check_endpoint_enabled: ["spam_check_endpoint_url"],
  mailgun_events_enabled: ["mailgun_signing_key"],
  snowplow_enabled: ["snowplow_collector_hostname"],
  slack_app_enabled: ["slack_app_id", "slack_app_secret", "slack_app_signing_secret", "slack_app_verification_token"],
  ...Object.fromEntries(
    THROTTLE_SCOPES.map((scope) => [`throttle_${scope}_enabled`, [`throttle_${scope}_period_in_seconds`, `throttle_${scope}_requests_per_period`]]),
  ),
};
