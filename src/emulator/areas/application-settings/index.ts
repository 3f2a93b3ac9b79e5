/**
 * Application settings: `GET` and `PUT /application/settings`.
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
 * - The settings are those real servers have, each with its type and
 *   default (./settings.ts). A setting that is not a boolean may be unset
 *   with `null`. Hidden credentials (`asset_proxy_secret_key`,
 *   `eks_secret_access_key`) are never shown. Decimals are read from text or a
 *   number; a numeric column (`polling_interval_multiplier`) is shown as text
 *   (`"1.0"`), a float one (`external_authorization_service_timeout`) as a number.
 * - Names real clients send are aliases (`signin_enabled`, `admin_notification_email`,
 *   `duo_features_enabled`, `lock_duo_features_enabled`, `duo_availability`):
 *   a PUT writes the setting they stand for; an answer shows the `duo_*` ones
 *   beside the API documentation's names, as real servers show those.
 * - Premium/Ultimate settings on a lower licence are refused with a 400 naming
 *   the setting (real servers drop them silently: the provider checks both).
 * - The throttles of the scopes this emulator serves (`authenticated_api`,
 *   `unauthenticated_api`) drive its rate limiter, from the next request on.
 *   (Real servers cache settings for a minute; the emulator applies at once.)
 */
import { decimalText, OTHER_NAMES, OTHER_NAMES_SHOWN, REQUIRED_WITH, SERVER_SETTINGS, THROTTLES, type ServerSetting, type ServerValue, type ThrottleScope } from "./settings";
import { paramError, routeNotFound, forbidden, validationError } from "../../errors";
import type { ParamRule, ParamSpec } from "../../params";
import { throttleStore, type ThrottleName } from "../../rate-limit";
import { ok, requireUser, route, type RequestContext } from "../../router";
import { type EmulatorArea } from "../../area";
import { defineStore, type EmulatorState, type Tier } from "../../state";

type Value = ServerValue;

const VISIBILITIES = ["private", "internal", "public"] as const;

interface SettingSpec {
  rule: ParamRule;
  default: Value;
  /** The licence the setting needs. */
  tier?: "premium" | "ultimate";
  /** Never shown in an answer. */
  writeOnly?: true;
  /** A decimal (`BigDecimal`, `Float`): received as text or a number, kept as a number. */
  decimal?: true;
  /** A `BigDecimal` (a numeric column): shown as text, as Rails writes it (`"1.0"`). */
  shownAsText?: true;
}

/** How a PUT parameter of each kind is checked (Grape's `type:`); `null` unsets a setting. */
function ruleOf(setting: ServerSetting): ParamRule {
  const nullable = setting.type !== "boolean";
  switch (setting.type) {
    case "float":
    case "decimal":
      return { type: "string", nullable };
    case "string[]":
      return { type: setting.type };
    default:
      return { type: setting.type, nullable, values: setting.values };
  }
}

/** Every setting the emulator knows (./settings.ts), with its parameter rule and default. */
export const SETTINGS: Record<string, SettingSpec> = Object.fromEntries(
  Object.entries(SERVER_SETTINGS).map(([name, setting]) => [
    name,
    {
      rule: ruleOf(setting),
      default: setting.default,
      tier: setting.licence,
      writeOnly: setting.hidden,
      decimal: setting.type === "float" || setting.type === "decimal" ? true : undefined,
      shownAsText: setting.type === "decimal" ? true : undefined,
    },
  ]),
);

/** The scopes whose throttle this emulator applies (it serves the API only). */
const SERVED_SCOPES: Partial<Record<ThrottleScope, ThrottleName>> = {
  authenticated_api: "throttle_authenticated_api",
  unauthenticated_api: "throttle_unauthenticated_api",
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
    if (spec.writeOnly) continue;
    values[name] = name in stored ? stored[name]! : structuredClone(spec.default);
  }
  for (const name of OTHER_NAMES_SHOWN) if (OTHER_NAMES[name]! in values) values[name] = values[OTHER_NAMES[name]!]!;
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
  const values = applicationSettingsValues(ctx.state);
  for (const [name, value] of Object.entries(values)) if (SETTINGS[name]?.shownAsText && typeof value === "number") values[name] = decimalText(value);
  return { id: 1, ...values, created_at: store.createdAt, updated_at: store.updatedAt ?? store.createdAt };
}

const getSettings = route("GET", "/application/settings", {}, (ctx) => {
  guard(ctx);
  return ok(present(ctx));
});

const putParams: ParamSpec = {
  ...Object.fromEntries(Object.entries(SETTINGS).map(([name, spec]) => [name, spec.rule])),
  ...Object.fromEntries(Object.entries(OTHER_NAMES).map(([alias, name]) => [alias, SETTINGS[name]!.rule])),
};

/** Decimals arrive as text (a form) or a number (JSON): Grape's `BigDecimal` coercion. */
function readDecimals(given: Record<string, Value>): void {
  for (const [name, value] of Object.entries(given)) {
    if (!SETTINGS[name]?.decimal || value === null) continue;
    const number = Number(value);
    if (String(value).trim() === "" || !Number.isFinite(number)) throw paramError(`${name} is invalid`);
    given[name] = number;
  }
}

const putSettings = route("PUT", "/application/settings", { params: putParams }, (ctx) => {
  guard(ctx);
  const given = Object.fromEntries(Object.entries(ctx.params).filter(([, value]) => value !== undefined)) as Record<string, Value>;
  if (Object.keys(given).length === 0) {
    throw paramError(`${Object.keys(putParams).join(", ")} are missing, at least one parameter must be provided`);
  }
  checkParams(given);
  const next = { ...applicationSettingsValues(ctx.state), ...given };
  const errors = validationErrors(ctx.state.instance.tier, given, next);
  if (Object.keys(errors).length) throw validationError(errors);
  saveSettings(ctx, given, next);
  return ok(present(ctx));
});

/** Grape's parameter checks (400): decimals, aliases (renamed in place), settings required together, list values. */
function checkParams(given: Record<string, Value>): void {
  readDecimals(given);
  for (const [alias, replacement] of Object.entries(OTHER_NAMES)) {
    if (alias in given && replacement in given) throw paramError(`${replacement}, ${alias} are mutually exclusive`);
    if (alias in given) {
      given[replacement] = given[alias]!;
      delete given[alias];
    }
  }
  const missing = Object.entries(REQUIRED_WITH)
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
}

/** The model's validations (422), by field: the licence a setting needs, bounds, and values that must go together. */
function validationErrors(tier: keyof typeof TIER_RANK, given: Record<string, Value>, next: Record<string, Value>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const name of Object.keys(given)) {
    const needed = SETTINGS[name]?.tier;
    if (needed && TIER_RANK[tier] < TIER_RANK[needed]) fail(name, `is not available: it needs a ${needed === "premium" ? "Premium or Ultimate" : "Ultimate"} licence`);
  }
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
  for (const scope of Object.keys(THROTTLES)) {
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
  return errors;
}

/** Writes the settings given, and turns the served throttles on or off as the new values say. */
function saveSettings(ctx: RequestContext<unknown>, given: Record<string, Value>, next: Record<string, Value>): void {
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
}

export const applicationSettingsArea: EmulatorArea = { name: "application-settings", routes: [getSettings, putSettings] };
