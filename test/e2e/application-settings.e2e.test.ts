/**
 * The application-settings example through the end-to-end steps (see scenario.ts).
 *
 * ApplicationSettings needs a self-managed instance and an administrator (the
 * stack's user is root). It is a settings resource: the instance's settings
 * exist before and after the program, and `destroy` gives the managed ones back
 * the values they had before the first `up`, so step 7 compares the whole
 * settings object (all but its update time). The Akismet key is secret stack
 * config: step 4 shows that a tampered secret setting is found and restored
 * (that no secret setting reaches state or logs in plain text,
 * secrets.e2e.test.ts shows for every one of them).
 */
import { expect } from "vitest";
import type { PlatformClient } from "pulumi-platform";
import { defaultSeed } from "pulumi-platform/emulator";
// From the build, like the emulator the scenario starts (a store is found by name in that emulator's state).
import { applicationSettingsStore } from "../../dist/emulator/areas/application-settings";
import { describeExample } from "./scenario";

const SETTINGS = "/application/settings";
const AKISMET_KEY = "akismet-e2e-secret-4c7d";
const settings = (api: PlatformClient) => api.get<Record<string, unknown>>(SETTINGS);

describeExample({
  example: "application-settings",
  seed: { ...defaultSeed, instance: { ...defaultSeed.instance, offering: "self-managed" } },
  secrets: { akismetApiKey: AKISMET_KEY },

  async snapshot({ api }) {
    const { updated_at: _updatedAt, ...values } = await settings(api);
    return values;
  },

  async verifyCreated({ api }) {
    expect(await settings(api)).toMatchObject({
      signup_enabled: false,
      default_project_visibility: "private",
      default_group_visibility: "private",
      enforce_terms: true,
      terms: "Use this instance for company work only.",
      require_two_factor_authentication: true,
      two_factor_grace_period: 48,
      whats_new_variant: "current_tier",
      gravatar_enabled: false,
      default_branch_name: "main",
      polling_interval_multiplier: "1.5",
      throttle_authenticated_api_enabled: true,
      throttle_authenticated_api_period_in_seconds: 60,
      throttle_authenticated_api_requests_per_period: 600,
      akismet_enabled: true,
      akismet_api_key: AKISMET_KEY,
    });
  },

  async verifyAdopted({ api, emulator }) {
    // The default visibilities already held the declared value: kept as they were, never sent.
    expect(await settings(api)).toMatchObject({ default_project_visibility: "private", default_group_visibility: "private" });
    const written = Object.keys(applicationSettingsStore.of(emulator.state).values);
    expect(written).toEqual(expect.arrayContaining(["signup_enabled", "enforce_terms", "terms", "throttle_authenticated_api_enabled"]));
    expect(written).not.toContain("default_project_visibility");
    expect(written).not.toContain("default_group_visibility");
  },

  change: {
    config: { apiRequestsPerMinute: "1200", termsText: "Company work only. Read the handbook first." },
    expect: { instance: { op: "update", changed: ["terms", "throttleAuthenticatedApiRequestsPerPeriod"] } },
    async verify({ api }) {
      expect(await settings(api)).toMatchObject({
        terms: "Company work only. Read the handbook first.",
        throttle_authenticated_api_enabled: true,
        throttle_authenticated_api_period_in_seconds: 60,
        throttle_authenticated_api_requests_per_period: 1200,
      });
    },
  },

  drift: {
    async apply({ api }) {
      await api.put(SETTINGS, { signup_enabled: true, whats_new_variant: "all_tiers", akismet_api_key: "tampered-key" });
    },
    // `akismetApiKey` changed too, but a secret shows as [secret] on both sides of the preview's JSON; verify proves it was restored.
    expect: { instance: { op: "update", changed: ["signupEnabled", "whatsNewVariant"] } },
    async verify({ api }) {
      expect(await settings(api)).toMatchObject({
        signup_enabled: false,
        whats_new_variant: "current_tier",
        akismet_api_key: AKISMET_KEY,
        throttle_authenticated_api_requests_per_period: 1200,
      });
    },
  },
});
