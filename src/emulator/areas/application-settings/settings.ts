/**
 * The instance's application settings as the server holds them: each
 * setting's parameter type, its default, the values an enumerated one takes,
 * the licence it needs, whether it is a credential (stored encrypted), and
 * whether the answer leaves it out. The emulator states these itself; the
 * provider states them in its own catalogue, and test/emulator/restated-facts.test.ts
 * compares the two through the emulator's answers, so a wrong entry on either
 * side fails there.
 *
 * From the API documentation (the settings it lists, with their defaults);
 * for the others, the server's parameters (names, types, enumerations,
 * settings required together) and the defaults their descriptions or the
 * documented example answer state. Where neither states a default, the
 * column's empty value (false, null, []).
 */

export type ServerValue = string | number | boolean | null | unknown[] | Record<string, unknown>;

/**
 * How the parameter is typed, as its column makes it: `float` a double
 * precision column (a JSON number in answers), `decimal` a numeric column,
 * which answers write as text (`"1.0"`).
 */
export type ParameterType = "boolean" | "integer" | "float" | "decimal" | "string" | "string[]" | "hash";

export type Licence = "premium" | "ultimate";

export interface ServerSetting {
  type: ParameterType;
  default: ServerValue;
  /** The values an enumerated setting takes. */
  values?: readonly (string | number)[];
  /** The licence the setting needs: below it the answer leaves it out and a PUT is refused. */
  licence?: Licence;
  /** A credential, stored encrypted. */
  credential?: true;
  /** Left out of every answer: only ever written. */
  hidden?: true;
}

const boolean = (value: boolean, licence?: Licence): ServerSetting => ({ type: "boolean", default: value, licence });
const integer = (value: number | null, licence?: Licence): ServerSetting => ({ type: "integer", default: value, licence });
const float = (value: number | null): ServerSetting => ({ type: "float", default: value });
const decimal = (value: number | null): ServerSetting => ({ type: "decimal", default: value });
const string = (value: string | null, licence?: Licence): ServerSetting => ({ type: "string", default: value, licence });
const strings = (value: string[], licence?: Licence): ServerSetting => ({ type: "string[]", default: value, licence });
const hash = (value: Record<string, unknown>): ServerSetting => ({ type: "hash", default: value });
const choice = (value: string | number | null, values: readonly (string | number)[], licence?: Licence): ServerSetting => ({
  type: typeof values[0] === "number" ? "integer" : "string",
  default: value,
  values,
  licence,
});
/** A credential the answer shows (to administrators, the only callers). */
const credential = (): ServerSetting => ({ type: "string", default: null, credential: true });
/** A credential no answer shows. */
const hiddenCredential = (): ServerSetting => ({ type: "string", default: null, credential: true, hidden: true });

const VISIBILITY_LEVELS = ["private", "internal", "public"] as const;
/** Access levels 0-4 (branch protection's, and who may create projects: no one, maintainers, developers, administrators, owners). */
const LEVELS_0_TO_4 = [0, 1, 2, 3, 4] as const;
/** SSH key restrictions in bits: -1 forbids the key type, 0 sets no minimum. */
const RSA_DSA_BITS = [-1, 0, 1024, 2048, 3072, 4096] as const;
const ECDSA_BITS = [-1, 0, 256, 384, 521] as const;
const ED25519_BITS = [-1, 0, 256] as const;

/** The throttles' scopes, each with its default period (seconds) and requests per period; `unauthenticated` is the deprecated name of the web one. */
export const THROTTLES = {
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
} as const satisfies Record<string, readonly [period: number, requests: number]>;

export type ThrottleScope = keyof typeof THROTTLES;

/** Three settings per throttle: whether it is on, its period and its requests per period. */
function throttleSettings(): Record<string, ServerSetting> {
  return Object.fromEntries(
    Object.entries(THROTTLES).flatMap(([scope, [period, requests]]) => [
      [`throttle_${scope}_enabled`, boolean(false)],
      [`throttle_${scope}_period_in_seconds`, integer(period)],
      [`throttle_${scope}_requests_per_period`, integer(requests)],
    ]),
  );
}

/** Every setting the server has, by its parameter name. */
export const SERVER_SETTINGS: Readonly<Record<string, ServerSetting>> = {
  signup_enabled: boolean(true),
  default_projects_limit: integer(100000),
  default_branch_protection: choice(2, LEVELS_0_TO_4),
  default_branch_protection_defaults: hash({ allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }] }),
  default_preferred_language: string("en"),
  default_project_visibility: choice("private", VISIBILITY_LEVELS),
  default_group_visibility: choice("private", VISIBILITY_LEVELS),
  default_snippet_visibility: choice("private", VISIBILITY_LEVELS),
  restricted_visibility_levels: strings([]),
  sign_in_restrictions: hash({}),
  password_authentication_enabled_for_web: boolean(true),
  max_attachment_size: integer(100),
  max_export_size: integer(0),
  max_import_size: integer(0),
  max_decompressed_archive_size: integer(25600),
  max_import_remote_file_size: integer(10240),
  bulk_import_max_download_file_size: integer(5120),
  max_login_attempts: integer(null),
  failed_login_attempts_unlock_period_in_minutes: integer(null),
  session_expire_delay: integer(10080),
  terminal_max_session_time: integer(0),
  snippet_size_limit: integer(52428800),
  wiki_page_max_content_bytes: integer(5242880),
  asciidoc_max_includes: integer(32),
  delete_unconfirmed_users: boolean(false, "premium"),
  unconfirmed_users_delete_after_days: integer(7, "premium"),
  project_runner_token_expiration_interval: integer(null),
  delete_inactive_projects: boolean(false),
  time_tracking_limit_to_hours: boolean(false),
  top_level_group_creation_enabled: boolean(true),
  silent_mode_enabled: boolean(false),
  silent_admin_exports_enabled: boolean(false),
  user_defaults_to_private_profile: boolean(false),
  admin_mode: boolean(false),
  enforce_terms: boolean(false),
  terms: string(null),
  require_two_factor_authentication: boolean(false),
  two_factor_grace_period: integer(48),
  email_restrictions_enabled: boolean(false),
  email_restrictions: string(null),
  unique_ips_limit_enabled: boolean(false),
  unique_ips_limit_per_user: integer(10),
  unique_ips_limit_time_window: integer(3600),
  abuse_notification_email: string(null),
  valid_runner_registrars: strings(["project", "group"]),
  whats_new_variant: choice("all_tiers", ["all_tiers", "current_tier", "disabled"]),
  container_expiration_policies_enable_historic_entries: boolean(false),
  container_registry_cleanup_tags_service_max_list_size: integer(200),
  container_registry_delete_tags_service_timeout: integer(250),
  container_registry_expiration_policies_caching: boolean(true),
  container_registry_expiration_policies_worker_capacity: integer(4),
  container_registry_token_expire_delay: integer(5),
  decompress_archive_file_timeout: integer(210),
  issues_create_limit: integer(300),
  raw_blob_request_limit: integer(300),
  project_jobs_api_rate_limit: integer(600),
  projects_api_rate_limit_unauthenticated: integer(400),
  runner_jobs_request_api_limit: integer(2000),
  runner_jobs_patch_trace_api_limit: integer(200),
  runner_jobs_endpoints_api_limit: integer(200),
  users_api_limit_followers: integer(100),
  users_api_limit_following: integer(100),
  users_api_limit_status: integer(240),
  users_api_limit_ssh_keys: integer(120),
  users_api_limit_ssh_key: integer(120),
  users_api_limit_gpg_keys: integer(120),
  users_api_limit_gpg_key: integer(120),
  akismet_enabled: boolean(false),
  akismet_api_key: credential(),
  recaptcha_enabled: boolean(false),
  recaptcha_site_key: credential(),
  recaptcha_private_key: credential(),
  external_pipeline_validation_service_url: string(null),
  external_pipeline_validation_service_token: credential(),
  external_pipeline_validation_service_timeout: integer(null),
  ...throttleSettings(),
  // Licensed: Premium and Ultimate.
  allow_all_integrations: boolean(true, "ultimate"),
  allowed_integrations: strings([], "ultimate"),
  default_project_deletion_protection: boolean(false, "premium"),
  disable_personal_access_tokens: boolean(false, "premium"),
  group_owners_can_manage_default_branch_protection: boolean(true, "premium"),
  lock_memberships_to_saml: boolean(false, "premium"),
  file_template_project_id: integer(null, "premium"),
  security_approval_policies_limit: integer(5, "premium"),
  scan_execution_policies_action_limit: integer(0, "premium"),
  scan_execution_policies_schedule_limit: integer(0, "premium"),
  virtual_registries_endpoints_api_limit: integer(1000, "premium"),
  secret_push_protection_available: boolean(false, "ultimate"),
  assistant_features_enabled: boolean(true, "premium"),
  lock_assistant_features_enabled: boolean(false, "premium"),
  assistant_availability: choice("default_on", ["default_on", "default_off", "never_on"], "premium"),

  // Settings beyond the API documentation's list.
  after_sign_up_text: string(null),
  after_sign_out_path: string(null),
  allow_account_deletion: boolean(true, "premium"),
  allow_bypass_placeholder_confirmation: boolean(false),
  allow_local_requests_from_system_hooks: boolean(true),
  allow_local_requests_from_web_hooks_and_services: boolean(false),
  allow_project_creation_for_guest_and_below: boolean(true),
  allow_runner_registration_token: boolean(true),
  archive_builds_in_human_readable: string(null),
  asset_proxy_enabled: boolean(false),
  asset_proxy_url: string(null),
  asset_proxy_secret_key: hiddenCredential(),
  asset_proxy_allowlist: strings([]),
  authn_data_retention_cleanup_enabled: boolean(false),
  authorized_keys_enabled: boolean(true),
  auto_devops_domain: string(null),
  auto_devops_enabled: boolean(true),
  autocomplete_users_limit: integer(300),
  autocomplete_users_unauthenticated_limit: integer(100),
  bulk_import_concurrent_pipeline_batch_limit: integer(25),
  bulk_import_enabled: boolean(false),
  can_create_group: boolean(true),
  ci_delete_pipelines_in_seconds_limit_human_readable: string("1 year"),
  ci_job_live_trace_enabled: boolean(false),
  ci_lint_limit_per_user: integer(0),
  ci_max_includes: integer(150),
  ci_max_total_yaml_size_bytes: integer(314572800),
  commit_email_hostname: string(null),
  concurrent_bitbucket_import_jobs_limit: integer(100),
  concurrent_bitbucket_server_import_jobs_limit: integer(100),
  concurrent_github_import_jobs_limit: integer(1000),
  concurrent_relation_batch_export_limit: integer(25),
  custom_http_clone_url_root: string(null),
  default_artifacts_expire_in: string("30 days"),
  default_branch_name: string(null),
  default_ci_config_path: string(null),
  default_project_creation: choice(2, LEVELS_0_TO_4),
  deletion_adjourned_period: integer(30),
  diagramsnet_enabled: boolean(true),
  diagramsnet_url: string("https://embed.diagrams.net"),
  diff_max_files: integer(1000),
  diff_max_lines: integer(50000),
  diff_max_patch_bytes: integer(204800),
  disable_admin_oauth_scopes: boolean(false),
  disable_feed_token: boolean(false),
  disable_password_authentication_for_users_with_sso_identities: boolean(false),
  disabled_oauth_sign_in_sources: strings([]),
  dns_rebinding_protection_enabled: boolean(true),
  domain_allowlist: strings([]),
  domain_denylist_enabled: boolean(false),
  domain_denylist: strings([]),
  downstream_pipeline_trigger_limit_per_project_user_sha: integer(0),
  dsa_key_restriction: choice(-1, RSA_DSA_BITS),
  ecdsa_key_restriction: choice(0, ECDSA_BITS),
  ecdsa_sk_key_restriction: choice(0, ECDSA_BITS),
  ed25519_key_restriction: choice(0, ED25519_BITS),
  ed25519_sk_key_restriction: choice(0, ED25519_BITS),
  rsa_key_restriction: choice(0, RSA_DSA_BITS),
  eks_integration_enabled: boolean(false),
  eks_account_id: string(null),
  eks_access_key_id: string(null),
  eks_secret_access_key: hiddenCredential(),
  email_author_in_body: boolean(false),
  email_confirmation_setting: choice("off", ["off", "soft", "hard"]),
  enable_artifact_external_redirect_warning_page: boolean(true),
  enabled_git_access_protocol: choice("all", ["ssh", "http", "all"]),
  external_auth_client_cert: string(null),
  external_auth_client_key: credential(),
  external_auth_client_key_pass: credential(),
  external_authorization_service_default_label: string(null),
  external_authorization_service_enabled: boolean(false),
  external_authorization_service_timeout: float(0.5),
  external_authorization_service_url: string(null),
  first_day_of_week: choice(0, [0, 1, 6]),
  git_push_pipeline_limit: integer(4),
  gitaly_timeout_default: integer(55),
  gitaly_timeout_fast: integer(10),
  gitaly_timeout_medium: integer(30),
  gitlab_shell_operation_limit: integer(600),
  gitpod_enabled: boolean(false),
  gitpod_url: string("https://gitpod.io/"),
  grafana_enabled: boolean(false),
  grafana_url: string("/-/grafana"),
  gravatar_enabled: boolean(true),
  help_page_documentation_base_url: string(null),
  help_page_hide_commercial_content: boolean(false),
  help_page_support_url: string(null),
  help_page_text: string(null),
  hide_third_party_offers: boolean(false),
  home_page_url: string(null),
  housekeeping_enabled: boolean(true),
  housekeeping_optimize_repository_period: integer(10),
  html_emails_enabled: boolean(true),
  import_sources: strings([]),
  inactive_projects_delete_after_months: integer(2),
  inactive_projects_min_size_mb: integer(0),
  inactive_projects_send_warning_email_after_months: integer(1),
  inactive_resource_access_tokens_delete_after_days: integer(30),
  include_optional_metrics_in_service_ping: boolean(true),
  invisible_captcha_enabled: boolean(false),
  jira_connect_application_key: string(null),
  jira_connect_proxy_url: string(null),
  jira_connect_public_key_storage_enabled: boolean(false),
  keep_latest_artifact: boolean(true),
  kroki_enabled: boolean(false),
  kroki_url: string(null),
  kroki_formats: hash({ blockdiag: false, bpmn: false, excalidraw: false }),
  local_markdown_version: integer(0),
  login_recaptcha_protection_enabled: boolean(false),
  mailgun_events_enabled: boolean(false),
  mailgun_signing_key: credential(),
  max_artifacts_size: integer(100),
  max_pages_custom_domains_per_project: integer(0),
  max_pages_size: integer(100),
  max_terraform_state_size_bytes: integer(0),
  max_yaml_depth: integer(100),
  max_yaml_size_bytes: integer(2097152),
  minimum_password_length: integer(8, "premium"),
  mirror_available: boolean(true),
  notify_on_unknown_sign_in: boolean(true),
  outbound_local_requests_whitelist: strings([]),
  package_registry_allow_anyone_to_pull_option: boolean(true),
  pages_domain_verification_enabled: boolean(true),
  password_authentication_enabled_for_git: boolean(true),
  performance_bar_allowed_group_path: string(null),
  personal_access_token_prefix: string("glpat-"),
  pipeline_limit_per_project_user_sha: integer(0),
  plantuml_enabled: boolean(false),
  plantuml_url: string(null),
  polling_interval_multiplier: decimal(1),
  project_export_enabled: boolean(true),
  prometheus_metrics_enabled: boolean(true),
  protected_ci_variables: boolean(true),
  push_event_activities_limit: integer(3),
  push_event_hooks_limit: integer(3),
  rate_limiting_response_text: string(null),
  raw_blob_request_limit_unauthenticated: integer(800),
  receive_max_input_size: integer(null),
  remember_me_enabled: boolean(true),
  repository_checks_enabled: boolean(true),
  repository_storages_weighted: hash({ default: 100 }),
  require_admin_approval_after_user_signup: boolean(true),
  require_admin_two_factor_authentication: boolean(false),
  require_email_verification_on_account_locked: boolean(false),
  require_personal_access_token_expiry: boolean(true),
  runner_token_expiration_interval: integer(null),
  group_runner_token_expiration_interval: integer(null),
  search_rate_limit: integer(30),
  search_rate_limit_unauthenticated: integer(10),
  security_txt_content: string(null),
  session_expire_from_init: boolean(false),
  shared_runners_enabled: boolean(true),
  shared_runners_text: string(null),
  sidekiq_job_limiter_mode: choice("compress", ["track", "compress"]),
  sidekiq_job_limiter_compression_threshold_bytes: integer(100000),
  sidekiq_job_limiter_limit_bytes: integer(0),
  slack_app_enabled: boolean(false),
  slack_app_id: string(null),
  slack_app_secret: credential(),
  slack_app_signing_secret: credential(),
  slack_app_verification_token: credential(),
  snowplow_enabled: boolean(false),
  snowplow_collector_hostname: string(null),
  snowplow_cookie_domain: string(null),
  snowplow_app_id: string(null),
  sourcegraph_enabled: boolean(false),
  sourcegraph_public_only: boolean(true),
  sourcegraph_url: string(null),
  spam_check_endpoint_enabled: boolean(false),
  spam_check_endpoint_url: string(null),
  spam_check_api_key: credential(),
  static_objects_external_storage_auth_token: credential(),
  static_objects_external_storage_url: string(null),
  update_runner_versions_enabled: boolean(true),
  usage_ping_enabled: boolean(true),
  user_default_external: boolean(false),
  user_default_internal_regex: string(null),
  user_deactivation_emails_enabled: boolean(true),
  user_oauth_applications: boolean(true),
  user_show_add_ssh_key_message: boolean(true),
  users_get_by_id_limit: integer(300),
  version_check_enabled: boolean(true),
  web_hook_event_resend_limit: integer(5),
  web_hook_test_limit: integer(5),
  wiki_asciidoc_allow_uri_includes: boolean(false),
  // Licensed: Premium and Ultimate.
  allow_group_owners_to_manage_ldap: boolean(true, "premium"),
  check_namespace_plan: boolean(false, "premium"),
  email_additional_text: string(null, "premium"),
  geo_node_allowed_ips: string("0.0.0.0/0, ::/0", "premium"),
  geo_status_timeout: integer(10, "premium"),
  use_clickhouse_for_analytics: boolean(false, "premium"),
};

/**
 * Other names the server takes for a setting: the deprecated names, and the
 * names clients send for the assistant settings. A PUT of both names is
 * refused; the answer shows the assistant names beside their settings.
 */
export const OTHER_NAMES: Readonly<Record<string, string>> = {
  signin_enabled: "password_authentication_enabled_for_web",
  admin_notification_email: "abuse_notification_email",
  duo_features_enabled: "assistant_features_enabled",
  lock_duo_features_enabled: "lock_assistant_features_enabled",
  duo_availability: "assistant_availability",
};

/** The other names an answer shows. */
export const OTHER_NAMES_SHOWN: readonly string[] = ["duo_features_enabled", "lock_duo_features_enabled", "duo_availability"];

/** Settings a PUT must carry when it turns the first one on (a parameter group given `setting: true`). */
export const REQUIRED_WITH: Readonly<Record<string, readonly string[]>> = {
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
  ...Object.fromEntries(Object.keys(THROTTLES).map((scope) => [`throttle_${scope}_enabled`, [`throttle_${scope}_period_in_seconds`, `throttle_${scope}_requests_per_period`]])),
};

/** A numeric column's value as answers write it: always with a fraction (`1` as "1.0"). */
export function decimalText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}
