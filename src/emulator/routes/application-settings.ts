/**
 * Application settings (spec document 3, parts 2.5, 4.3 and 4.4;
 * real-api-behaviour.md part 6): `GET` and `PUT /application/settings`.
 *
 * Behaviour taken from the real server's source:
 * - `authenticated_as_admin!`: 401 without a user, 403 for a non-administrator.
 * - The hosted offering has no such endpoint: 404 `{"error":"404 Not Found"}`.
 * - PUT: every parameter optional, at least one required (Grape's
 *   `at_least_one_of`); typed and enumerated parameters give Grape's 400
 *   `{"error": ...}`; a setting required by an enabled one (`given enforce_terms`
 *   → `terms`, each `throttle_<scope>_enabled` → its period and requests, ...)
 *   must come in the same request: 400 `{"error":"terms is missing"}`.
 *   `signin_enabled` and `admin_notification_email` are the deprecated names of
 *   `password_authentication_enabled_for_web` and `abuse_notification_email`,
 *   mutually exclusive with them. Model validations give 400
 *   `{"message":{"<setting>":["..."]}}`.
 * - Premium/Ultimate settings on a lower licence are refused with a 400 naming
 *   the setting (real servers drop them silently: the provider checks both).
 * - The throttles of the scopes this emulator serves (`authenticated_api`,
 *   `unauthenticated_api`) drive its rate limiter, from the next request on.
 *   (Real servers cache settings for a minute; the emulator applies at once.)
 */
import { paramError, routeNotFound, forbidden, validationError } from "../errors";
import type { ParamRule, ParamSpec } from "../params";
import { throttleStore, type ThrottleName } from "../rate-limit";
import { ok, requireUser, route, type RequestContext, type RouteModule } from "../router";
import { defineStore, type EmulatorState, type Tier } from "../state";

type Value = string | number | boolean | null | unknown[] | Record<string, unknown>;

interface SettingSpec {
  rule: ParamRule;
  default: Value;
  /** The licence the setting needs. */
  tier?: "premium" | "ultimate";
}

const bool = (value: boolean, tier?: SettingSpec["tier"]): SettingSpec => ({ rule: { type: "boolean" }, default: value, tier });
const int = (value: number | null, tier?: SettingSpec["tier"]): SettingSpec => ({ rule: { type: "integer", nullable: true }, default: value, tier });
const text = (value: string | null, values?: readonly string[]): SettingSpec => ({ rule: { type: "string", nullable: true, values }, default: value });
const VISIBILITIES = ["private", "internal", "public"] as const;

/** The scopes of the throttle pattern (part 4.4), `unauthenticated` being the deprecated one. */
export const THROTTLE_SCOPES = [
  "authenticated_api",
  "authenticated_web",
  "authenticated_packages_api",
  "authenticated_git_http",
  "unauthenticated_api",
  "unauthenticated_web",
  "unauthenticated_packages_api",
  "unauthenticated_git_http",
  "unauthenticated",
] as const;

/** The scopes whose throttle this emulator applies (it serves the API only). */
const SERVED_SCOPES: Partial<Record<(typeof THROTTLE_SCOPES)[number], ThrottleName>> = {
  authenticated_api: "throttle_authenticated_api",
  unauthenticated_api: "throttle_unauthenticated_api",
};

const THROTTLE_DEFAULTS: Record<(typeof THROTTLE_SCOPES)[number], [period: number, requests: number]> = {
  authenticated_api: [3600, 7200],
  authenticated_web: [3600, 7200],
  authenticated_packages_api: [15, 1000],
  authenticated_git_http: [3600, 3600],
  unauthenticated_api: [3600, 3600],
  unauthenticated_web: [3600, 3600],
  unauthenticated_packages_api: [15, 800],
  unauthenticated_git_http: [3600, 3600],
  unauthenticated: [3600, 3600],
};

const protectionDefaults = {
  allowed_to_push: [{ access_level: 40 }],
  allow_force_push: false,
  allowed_to_merge: [{ access_level: 40 }],
};

/** Every setting the emulator knows, with its parameter rule and default. */
export const SETTINGS: Record<string, SettingSpec> = {
  signup_enabled: bool(true),
  default_projects_limit: int(100000),
  default_branch_protection: { rule: { type: "integer", values: [0, 1, 2, 3, 4] }, default: 2 },
  default_branch_protection_defaults: { rule: { type: "hash" }, default: protectionDefaults },
  default_preferred_language: text("en"),
  default_project_visibility: text("private", VISIBILITIES),
  default_group_visibility: text("private", VISIBILITIES),
  default_snippet_visibility: text("private", VISIBILITIES),
  restricted_visibility_levels: { rule: { type: "string[]" }, default: [] },
  sign_in_restrictions: { rule: { type: "hash" }, default: {} },
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
  valid_runner_registrars: { rule: { type: "string[]" }, default: ["project", "group"] },
  whats_new_variant: text("all_tiers", ["all_tiers", "current_tier", "disabled"]),
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
  // Secrets: returned to administrators, as the real entity does.
  akismet_enabled: bool(false),
  akismet_api_key: text(null),
  recaptcha_enabled: bool(false),
  recaptcha_site_key: text(null),
  recaptcha_private_key: text(null),
  external_pipeline_validation_service_url: text(null),
  external_pipeline_validation_service_token: text(null),
  external_pipeline_validation_service_timeout: int(null),
  // Premium and Ultimate
  allow_all_integrations: bool(true, "ultimate"),
  allowed_integrations: { rule: { type: "string[]" }, default: [], tier: "ultimate" },
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
};
for (const scope of THROTTLE_SCOPES) {
  const [period, requests] = THROTTLE_DEFAULTS[scope];
  SETTINGS[`throttle_${scope}_enabled`] = bool(false);
  SETTINGS[`throttle_${scope}_period_in_seconds`] = int(period);
  SETTINGS[`throttle_${scope}_requests_per_period`] = int(requests);
}

/** Deprecated names accepted in a PUT, and the settings they write. */
const ALIASES: Record<string, string> = {
  signin_enabled: "password_authentication_enabled_for_web",
  admin_notification_email: "abuse_notification_email",
};

/** `given <enabling>: true` → these must be in the same request. */
const REQUIRED_WHEN_ENABLED: Record<string, string[]> = {
  enforce_terms: ["terms"],
  require_two_factor_authentication: ["two_factor_grace_period"],
  email_restrictions_enabled: ["email_restrictions"],
  unique_ips_limit_enabled: ["unique_ips_limit_per_user", "unique_ips_limit_time_window"],
  akismet_enabled: ["akismet_api_key"],
  recaptcha_enabled: ["recaptcha_site_key", "recaptcha_private_key"],
  ...Object.fromEntries(
    THROTTLE_SCOPES.map((scope) => [`throttle_${scope}_enabled`, [`throttle_${scope}_period_in_seconds`, `throttle_${scope}_requests_per_period`]]),
  ),
};

const TIER_RANK: Record<Tier, number> = { free: 0, premium: 1, ultimate: 2 };

export const applicationSettingsStore = defineStore(
  "applicationSettings",
  (): { values: Record<string, Value>; createdAt: string | null; updatedAt: string | null } => ({ values: {}, createdAt: null, updatedAt: null }),
);

/** `authenticated_as_admin!` on an offering that has the endpoint. */
function guard(ctx: RequestContext<unknown>): void {
  if (ctx.state.instance.offering === "hosted") throw routeNotFound();
  const user = requireUser(ctx);
  if (!user.isAdmin) throw forbidden();
}

/**
 * The settings as `GET /application/settings` shows them (without id and
 * times): as stored, the served throttles as the rate limiter holds them.
 * Exported so tests can read the instance's settings while faults are injected.
 */
export function applicationSettingsValues(state: EmulatorState): Record<string, Value> {
  const values: Record<string, Value> = {};
  const tier = state.instance.tier;
  const stored = applicationSettingsStore.of(state).values;
  for (const [name, spec] of Object.entries(SETTINGS)) {
    if (spec.tier && TIER_RANK[tier] < TIER_RANK[spec.tier]) continue; // the entity shows licensed settings only
    values[name] = name in stored ? stored[name]! : structuredClone(spec.default);
  }
  const throttles = throttleStore.of(state);
  for (const [scope, throttle] of Object.entries(SERVED_SCOPES)) {
    const limits = throttles[throttle!];
    values[`throttle_${scope}_enabled`] = Boolean(limits);
    if (limits) {
      values[`throttle_${scope}_period_in_seconds`] = limits.periodSeconds;
      values[`throttle_${scope}_requests_per_period`] = limits.requests;
    }
  }
  return values;
}

function present(ctx: RequestContext<unknown>): Record<string, unknown> {
  const store = applicationSettingsStore.of(ctx.state);
  store.createdAt ??= ctx.state.now();
  return { id: 1, ...applicationSettingsValues(ctx.state), created_at: store.createdAt, updated_at: store.updatedAt ?? store.createdAt };
}

const getSettings = route("GET", "/application/settings", {}, (ctx) => {
  guard(ctx);
  return ok(present(ctx));
});

const putParams: ParamSpec = {
  ...Object.fromEntries(Object.entries(SETTINGS).map(([name, spec]) => [name, spec.rule])),
  signin_enabled: { type: "boolean" },
  admin_notification_email: { type: "string", nullable: true },
};

const putSettings = route("PUT", "/application/settings", { params: putParams }, (ctx) => {
  guard(ctx);
  const given = Object.fromEntries(Object.entries(ctx.params).filter(([, value]) => value !== undefined)) as Record<string, Value>;
  if (Object.keys(given).length === 0) {
    throw paramError(`${Object.keys(putParams).join(", ")} are missing, at least one parameter must be provided`);
  }
  for (const [alias, replacement] of Object.entries(ALIASES)) {
    if (alias in given && replacement in given) throw paramError(`${replacement}, ${alias} are mutually exclusive`);
    if (alias in given) {
      given[replacement] = given[alias]!;
      delete given[alias];
    }
  }
  const missing = Object.entries(REQUIRED_WHEN_ENABLED)
    .filter(([enabling]) => given[enabling] === true)
    .flatMap(([, required]) => required.filter((name) => given[name] === undefined || given[name] === null));
  if (missing.length) throw paramError(missing.map((name) => `${name} is missing`).join(", "));
  for (const name of ["valid_runner_registrars"] as const) {
    const list = given[name];
    if (Array.isArray(list) && list.some((item) => item !== "group" && item !== "project")) throw paramError(`${name} does not have a valid value`);
  }
  if (Array.isArray(given.restricted_visibility_levels) && given.restricted_visibility_levels.some((level) => !(VISIBILITIES as readonly unknown[]).includes(level))) {
    throw paramError("restricted_visibility_levels does not have a valid value");
  }

  const tier = ctx.state.instance.tier;
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const name of Object.keys(given)) {
    const needed = SETTINGS[name]?.tier;
    if (needed && TIER_RANK[tier] < TIER_RANK[needed]) fail(name, `is not available: it needs a ${needed === "premium" ? "Premium or Ultimate" : "Ultimate"} licence`);
  }
  const next = { ...applicationSettingsValues(ctx.state), ...given };
  const atLeast = (name: string, minimum: number) => {
    const value = next[name];
    if (name in given && typeof value === "number" && value < minimum) fail(name, `must be greater than or equal to ${minimum}`);
  };
  const atMost = (name: string, maximum: number) => {
    const value = next[name];
    if (name in given && typeof value === "number" && value > maximum) fail(name, `must be less than or equal to ${maximum}`);
  };
  atLeast("wiki_page_max_content_bytes", 1024);
  atLeast("asciidoc_max_includes", 0);
  atMost("asciidoc_max_includes", 64);
  atLeast("project_runner_token_expiration_interval", 7200);
  atLeast("unconfirmed_users_delete_after_days", 1);
  atLeast("two_factor_grace_period", 0);
  atLeast("terminal_max_session_time", 0);
  atLeast("snippet_size_limit", 1);
  atLeast("default_projects_limit", 0);
  for (const scope of THROTTLE_SCOPES) {
    atLeast(`throttle_${scope}_period_in_seconds`, 1);
    atLeast(`throttle_${scope}_requests_per_period`, 1);
  }
  if (next.enforce_terms === true && (next.terms === null || next.terms === "")) fail("terms", "can't be blank");
  if (next.email_restrictions_enabled === true && typeof next.email_restrictions === "string") {
    try {
      new RegExp(next.email_restrictions);
    } catch {
      fail("email_restrictions", "is not a valid regular expression");
    }
  }
  if (Object.keys(errors).length) throw validationError(errors);

  const store = applicationSettingsStore.of(ctx.state);
  store.createdAt ??= ctx.state.now();
  store.updatedAt = ctx.state.now();
  const throttles = throttleStore.of(ctx.state);
  for (const [name, value] of Object.entries(given)) store.values[name] = value;
  for (const [scope, throttle] of Object.entries(SERVED_SCOPES)) {
    const enabled = next[`throttle_${scope}_enabled`] === true;
    throttles[throttle!] = enabled
      ? { periodSeconds: Number(next[`throttle_${scope}_period_in_seconds`]), requests: Number(next[`throttle_${scope}_requests_per_period`]) }
      : null;
    // The stored numbers are kept for when the throttle is off, so a GET shows what was set.
    for (const suffix of ["period_in_seconds", "requests_per_period"]) {
      const field = `throttle_${scope}_${suffix}`;
      if (field in given) store.values[field] = given[field]!;
    }
  }
  return ok(present(ctx));
});

export const applicationSettingsRoutes: RouteModule = { name: "application settings", routes: [getSettings, putSettings] };
