import { describe, expect, it } from "vitest";
import { defaultSeed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

/** A clock the test moves by hand, starting on an hour boundary. */
const START = Date.UTC(2025, 0, 1, 12, 0, 0);
let now = START;

const server = useEmulator({ seed: { ...defaultSeed, instance: { ...defaultSeed.instance, offering: "self-managed", tier: "free" } }, clock: () => now });
const get = (as: string | null = "root") => call(server.emulator, "/application/settings", { as });
const put = (body: object, as = "root") => call(server.emulator, "/application/settings", { as, method: "PUT", body });

describe("GET and PUT /application/settings", () => {
  it("is for administrators only: 401 anonymous, 403 others", async () => {
    expect(await get(null)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await get("alice")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await put({ signup_enabled: false }, "alice")).status).toBe(403);
    const settings = await get();
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ id: 1, signup_enabled: true, wiki_page_max_content_bytes: 5242880, asciidoc_max_includes: 32, throttle_authenticated_git_http_period_in_seconds: 3600 });
    expect(settings.body).not.toHaveProperty("disable_personal_access_tokens"); // Premium, and this instance is Free
  });

  it("does not exist on the hosted offering", async () => {
    server.emulator.state.instance.offering = "hosted";
    try {
      expect(await get()).toMatchObject({ status: 404, body: { error: "404 Not Found" } });
    } finally {
      server.emulator.state.instance.offering = "self-managed";
    }
  });

  it("updates and answers the settings after the update", async () => {
    const result = await put({ signup_enabled: false, default_project_visibility: "internal", valid_runner_registrars: ["group"] });
    expect(result.body).toMatchObject({ signup_enabled: false, default_project_visibility: "internal", valid_runner_registrars: ["group"] });
    expect((await get()).body.signup_enabled).toBe(false);
    await put({ signup_enabled: true, default_project_visibility: "private", valid_runner_registrars: ["project", "group"] });
  });

  it("rejects an empty PUT, bad values and missing companions with Grape's wording", async () => {
    expect((await put({})).body.error).toMatch(/at least one parameter must be provided$/);
    expect(await put({ whats_new_variant: "everything" })).toMatchObject({ status: 400, body: { error: "whats_new_variant does not have a valid value" } });
    expect(await put({ valid_runner_registrars: ["instance"] })).toMatchObject({ status: 400, body: { error: "valid_runner_registrars does not have a valid value" } });
    expect(await put({ enforce_terms: true })).toMatchObject({ status: 400, body: { error: "terms is missing" } });
    expect(await put({ throttle_authenticated_api_enabled: true, throttle_authenticated_api_period_in_seconds: 60 })).toMatchObject({
      status: 400,
      body: { error: "throttle_authenticated_api_requests_per_period is missing" },
    });
    expect(await put({ signin_enabled: true, password_authentication_enabled_for_web: true })).toMatchObject({
      status: 400,
      body: { error: "password_authentication_enabled_for_web, signin_enabled are mutually exclusive" },
    });
  });

  it("applies the model's bounds", async () => {
    const result = await put({ wiki_page_max_content_bytes: 10, asciidoc_max_includes: 65, project_runner_token_expiration_interval: 60 });
    expect(result).toMatchObject({
      status: 400,
      body: {
        message: {
          wiki_page_max_content_bytes: ["must be greater than or equal to 1024"],
          asciidoc_max_includes: ["must be less than or equal to 64"],
          project_runner_token_expiration_interval: ["must be greater than or equal to 7200"],
        },
      },
    });
  });

  it("accepts the deprecated names as their replacements", async () => {
    const result = await put({ signin_enabled: false, admin_notification_email: "abuse@example.test" });
    expect(result.body).toMatchObject({ password_authentication_enabled_for_web: false, abuse_notification_email: "abuse@example.test" });
    expect(result.body).not.toHaveProperty("signin_enabled");
    await put({ password_authentication_enabled_for_web: true, abuse_notification_email: null });
  });

  it("refuses Premium settings on a Free licence and accepts them on Premium", async () => {
    expect((await put({ disable_personal_access_tokens: true })).body.message.disable_personal_access_tokens[0]).toMatch(/Premium or Ultimate/);
    server.emulator.state.instance.tier = "premium";
    try {
      expect((await put({ disable_personal_access_tokens: true })).body.disable_personal_access_tokens).toBe(true);
      expect((await put({ secret_push_protection_available: true })).status).toBe(400); // Ultimate only
    } finally {
      await put({ disable_personal_access_tokens: false });
      server.emulator.state.instance.tier = "free";
    }
  });
});

describe("the settings real servers have", () => {
  it("serves them with their types and defaults, and a PUT of one outside the spec's list applies it", async () => {
    const settings = (await get()).body;
    expect(settings).toMatchObject({ domain_allowlist: [], gravatar_enabled: true, default_branch_name: null, polling_interval_multiplier: "1.0", diagramsnet_url: "https://embed.diagrams.net" });
    // A numeric column is text in JSON, as Rails writes a BigDecimal; a float column stays a number.
    expect(settings.external_authorization_service_timeout).toBe(0.5);
    const result = await put({ domain_allowlist: ["example.com", "*.example.org"], gravatar_enabled: false, default_branch_name: "trunk" });
    expect(result).toMatchObject({ status: 200, body: { domain_allowlist: ["example.com", "*.example.org"], gravatar_enabled: false, default_branch_name: "trunk" } });
    // Sent beside a listed setting, none is dropped.
    const mixed = await put({ signup_enabled: false, help_page_text: "Ask #platform", polling_interval_multiplier: "1.5" });
    expect(mixed.body).toMatchObject({ signup_enabled: false, help_page_text: "Ask #platform", polling_interval_multiplier: "1.5" });
    // null unsets a setting that is not a boolean.
    expect((await put({ default_branch_name: null, help_page_text: null })).body).toMatchObject({ default_branch_name: null, help_page_text: null });
    expect((await put({ polling_interval_multiplier: 2 })).body.polling_interval_multiplier).toBe("2.0");
    await put({ domain_allowlist: [], gravatar_enabled: true, signup_enabled: true, polling_interval_multiplier: 1 });
  });

  it("checks their types and enumerations, and their companions", async () => {
    expect((await put({ gravatar_enabled: "perhaps" })).body).toEqual({ error: "gravatar_enabled is invalid" });
    expect((await put({ email_confirmation_setting: "sometimes" })).body).toEqual({ error: "email_confirmation_setting does not have a valid value" });
    expect((await put({ polling_interval_multiplier: "fast" })).body).toEqual({ error: "polling_interval_multiplier is invalid" });
    expect((await put({ kroki_enabled: true })).body).toEqual({ error: "kroki_url is missing" });
  });

  it("never shows the secrets the real entity leaves out", async () => {
    const result = await put({ asset_proxy_enabled: true, asset_proxy_url: "https://proxy.example.test", asset_proxy_secret_key: "shared-secret" });
    expect(result.body).toMatchObject({ asset_proxy_enabled: true, asset_proxy_url: "https://proxy.example.test" });
    expect(result.body).not.toHaveProperty("asset_proxy_secret_key");
    await put({ asset_proxy_enabled: false, asset_proxy_url: null });
  });

  it("accepts the names real clients send for the assistant settings, and shows both names", async () => {
    server.emulator.state.instance.tier = "premium";
    try {
      const result = await put({ duo_features_enabled: false, lock_duo_features_enabled: true, duo_availability: "default_off" });
      expect(result.body).toMatchObject({
        assistant_features_enabled: false,
        duo_features_enabled: false,
        lock_assistant_features_enabled: true,
        lock_duo_features_enabled: true,
        assistant_availability: "default_off",
        duo_availability: "default_off",
      });
      expect((await put({ duo_features_enabled: true, assistant_features_enabled: true })).body).toEqual({ error: "assistant_features_enabled, duo_features_enabled are mutually exclusive" });
      await put({ assistant_features_enabled: true, lock_assistant_features_enabled: false, assistant_availability: "default_on" });
    } finally {
      server.emulator.state.instance.tier = "free";
    }
  });
});

describe("throttles drive the emulator's rate limiting", () => {
  it("enabling the authenticated API throttle limits every user from the next request on", async () => {
    const enabled = await put({ throttle_authenticated_api_enabled: true, throttle_authenticated_api_period_in_seconds: 60, throttle_authenticated_api_requests_per_period: 2 });
    expect(enabled.body).toMatchObject({ throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(server.emulator, "/version", { as: "alice" })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await call(server.emulator, "/version", { as: "alice" });
    expect(limited.headers.get("ratelimit-name")).toBe("throttle_authenticated_api");
    expect(limited.headers.get("ratelimit-limit")).toBe("2");

    now = START + 60_000; // the next window; root's own budget is back too
    const disabled = await put({ throttle_authenticated_api_enabled: false });
    expect(disabled.body.throttle_authenticated_api_enabled).toBe(false);
    for (let i = 0; i < 4; i++) expect((await call(server.emulator, "/version", { as: "alice" })).status).toBe(200);
  });

  it("the unauthenticated API throttle counts anonymous callers only", async () => {
    await put({ throttle_unauthenticated_api_enabled: true, throttle_unauthenticated_api_period_in_seconds: 3600, throttle_unauthenticated_api_requests_per_period: 1 });
    expect((await call(server.emulator, "/projects/beta%2Fsite", { as: null })).status).toBe(200);
    expect((await call(server.emulator, "/projects/beta%2Fsite", { as: null })).status).toBe(429);
    expect((await call(server.emulator, "/projects/beta%2Fsite", { as: "alice" })).status).toBe(200);
    await put({ throttle_unauthenticated_api_enabled: false });
    expect((await call(server.emulator, "/projects/beta%2Fsite", { as: null })).status).toBe(200);
  });
});
