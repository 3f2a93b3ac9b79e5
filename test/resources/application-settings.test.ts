import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { defaultSeed } from "pulumi-platform/emulator";
import { configOf, useEmulator } from "../support";
import { HIDDEN_CREDENTIALS, SHOWN_CREDENTIALS } from "../application-settings-credentials";

// Instance settings exist on self-managed instances only; the default seed is hosted.
const server = useEmulator({ seed: { ...defaultSeed, instance: { ...defaultSeed.instance, offering: "self-managed", tier: "free" } } });
const settings = providers.ApplicationSettings;
type Props = Record<string, unknown>;

const live = () => server.as().get<Props>("/application/settings");

async function create(inputs: Props) {
  const checked = await settings.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await settings.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Props, outs: created.outs as Props };
}

beforeAll(async () => {
  await server.configureProviders();
});

describe("lifecycle", () => {
  it("create reads once and writes what differs; delete gives the prior values back", async () => {
    let created: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await create({ signupEnabled: false, defaultProjectVisibility: "internal", enforceTerms: true, terms: "Be nice.", asciidocMaxIncludes: 32 });
    });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v4/application/settings", "PUT /api/v4/application/settings"]);
    const { id, inputs, outs } = created!;
    expect(id).toBe("application/settings");
    expect(outs.restoreValues).toEqual({ signupEnabled: true, defaultProjectVisibility: "private", enforceTerms: false, terms: null, asciidocMaxIncludes: 32 });
    expect(await live()).toMatchObject({ signup_enabled: false, default_project_visibility: "internal", enforce_terms: true, terms: "Be nice." });
    expect(await server.requestsDuring(async () => expect(await settings.diff(id, outs, inputs)).toMatchObject({ changes: false }))).toEqual([]);

    const deleted = await server.requestsDuring(() => settings.delete(id, outs));
    expect(deleted.map((r) => r.method)).toEqual(["PUT"]);
    expect(await live()).toMatchObject({ signup_enabled: true, default_project_visibility: "private", enforce_terms: false, terms: null });
  });

  it("updates in place with one PUT; enabling a setting sends what it requires beside it", async () => {
    const { id, inputs, outs } = await create({ enforceTerms: false, terms: "Rules." });
    const changed = { ...inputs, enforceTerms: true };
    expect(await settings.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(async () => {
      const updated = await settings.update(id, outs, changed);
      expect(updated.outs).toMatchObject({ enforceTerms: true, terms: "Rules." });
    });
    expect(requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(await live()).toMatchObject({ enforce_terms: true });
    await settings.delete(id, { ...outs, enforceTerms: true });
    expect(await live()).toMatchObject({ enforce_terms: false, terms: null });
  });

  it("refresh reads the live values, so an out-of-band change shows in the next diff", async () => {
    const { id, inputs, outs } = await create({ maxAttachmentSize: 20 });
    await server.as().put("/application/settings", { max_attachment_size: 30 });
    const requests = await server.requestsDuring(async () => {
      const refreshed = await settings.read(id, outs);
      expect(refreshed.inputs).toEqual({ maxAttachmentSize: 30 });
      expect(await settings.diff(id, refreshed.props!, inputs)).toMatchObject({ changes: true });
    });
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
    await settings.delete(id, outs);
    expect((await live()).max_attachment_size).toBe(100);
  });

  it("adopts by nature: settings that already hold the declared values send no PUT", async () => {
    const requests = await server.requestsDuring(async () => {
      const { id, inputs, outs } = await create({ signupEnabled: true, whatsNewVariant: "all_tiers", validRunnerRegistrars: ["group", "project"] });
      expect(await settings.diff(id, outs, inputs)).toMatchObject({ changes: false });
    });
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
  });

  it("deprecated aliases read and write their replacements without a diff", async () => {
    const { id, inputs, outs } = await create({ signinEnabled: false, adminNotificationEmail: "abuse@example.test" });
    expect(await live()).toMatchObject({ password_authentication_enabled_for_web: false, abuse_notification_email: "abuse@example.test" });
    const refreshed = await settings.read(id, outs);
    expect(await settings.diff(id, refreshed.props!, inputs)).toMatchObject({ changes: false });
    await settings.delete(id, outs);
    expect(await live()).toMatchObject({ password_authentication_enabled_for_web: true, abuse_notification_email: null });
  });

  it("secret settings and their prior values are secret outputs, and never in messages", async () => {
    const { outs } = await create({ akismetEnabled: true, akismetApiKey: "akismet-key-1", externalPipelineValidationServiceToken: "pipeline-token-1" });
    // The declaration the resource class reads its additionalSecretOutputs from.
    const { definitions } = await import("../../dist/resources/index.js");
    const definition = (definitions as Record<string, { outputs: Record<string, { secret?: boolean }>; fields: Record<string, { secret?: boolean }> }>).ApplicationSettings!;
    expect(definition.outputs.restoreSecrets?.secret).toBe(true);
    expect(definition.fields.akismetApiKey?.secret).toBe(true);
    // Every credential, and no other setting, is secret (its alias included, were it to have one).
    const secret = Object.keys(definition.fields).filter((name) => definition.fields[name]!.secret).sort();
    expect(secret).toEqual([...SHOWN_CREDENTIALS, ...HIDDEN_CREDENTIALS].map((name) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())).sort());
    expect(outs.restoreSecrets).toEqual({ akismetApiKey: null, externalPipelineValidationServiceToken: null });
    expect(JSON.stringify(outs.restoreValues)).not.toContain("akismet-key-1");
    const second = await create({ akismetEnabled: true, akismetApiKey: "akismet-key-2" });
    expect(second.outs.restoreSecrets).toEqual({ akismetApiKey: "akismet-key-1" });
    expect(JSON.stringify(second.outs.restoreValues)).not.toContain("akismet-key-1");
    await settings.delete("application/settings", second.outs);
    await settings.delete("application/settings", outs);
    expect(await live()).toMatchObject({ akismet_enabled: false, akismet_api_key: null });
  });
});

describe("who and where", () => {
  it("a Premium setting applies on a Premium licence", async () => {
    server.emulator.state.instance.tier = "premium";
    try {
      const { id, outs } = await create({ disablePersonalAccessTokens: true });
      expect((await live()).disable_personal_access_tokens).toBe(true);
      await settings.delete(id, outs);
      expect((await live()).disable_personal_access_tokens).toBe(false);
    } finally {
      server.emulator.state.instance.tier = "free";
    }
  });

  it("a throttle declared here is applied by the server's rate limiting", async () => {
    const { id, outs } = await create({ throttleUnauthenticatedApiEnabled: true, throttleUnauthenticatedApiPeriodInSeconds: 3600, throttleUnauthenticatedApiRequestsPerPeriod: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${server.emulator.apiUrl}/projects/beta%2Fsite`)).status);
    expect(statuses).toEqual([200, 200, 429]);
    await settings.delete(id, outs);
    expect((await fetch(`${server.emulator.apiUrl}/projects/beta%2Fsite`)).status).toBe(200);
  });
});

describe("configuration", () => {
  it("configured without a token, preview says what is missing", async () => {
    const saved = process.env.PLATFORM_TOKEN;
    delete process.env.PLATFORM_TOKEN;
    try {
      await settings.configure({ config: configOf({ "platform:url": server.emulator.url }) });
      const result = await settings.check({}, { signupEnabled: true });
      expect(result.failures?.[0]?.reason).toMatch(/platform:token/);
    } finally {
      if (saved) process.env.PLATFORM_TOKEN = saved;
      await server.configureProviders();
    }
  });
});

describe("the settings real servers have, beyond the spec's list", () => {
  beforeAll(async () => {
    await server.configureProviders();
  });

  it("manages domainAllowlist, gravatarEnabled and defaultBranchName, typed, and gives their prior values back", async () => {
    const { id, inputs, outs } = await create({ domainAllowlist: ["example.com"], gravatarEnabled: false, defaultBranchName: "trunk", pollingIntervalMultiplier: 1.5, emailConfirmationSetting: "soft" });
    expect(await live()).toMatchObject({ domain_allowlist: ["example.com"], gravatar_enabled: false, default_branch_name: "trunk", polling_interval_multiplier: "1.5", email_confirmation_setting: "soft" });
    expect(outs.restoreValues).toEqual({ domainAllowlist: [], gravatarEnabled: true, defaultBranchName: null, pollingIntervalMultiplier: 1, emailConfirmationSetting: "off" });
    expect(await settings.diff(id, outs, inputs)).toMatchObject({ changes: false });
    const refreshed = await settings.read(id, outs);
    expect(await settings.diff(id, refreshed.props!, inputs)).toMatchObject({ changes: false });
    await settings.delete(id, outs);
    expect(await live()).toMatchObject({ domain_allowlist: [], gravatar_enabled: true, default_branch_name: null, polling_interval_multiplier: "1.0", email_confirmation_setting: "off" });
  });

  it("checks each generated setting's type and enumeration at preview", async () => {
    const checked = await settings.check({}, { gravatarEnabled: "yes", emailConfirmationSetting: "sometimes", domainAllowlist: "example.com" });
    expect(checked.failures?.map((failure) => failure.reason).sort()).toEqual([
      'domainAllowlist: expected array, got the string "example.com"',
      "emailConfirmationSetting: must be one of off, soft, hard",
      'gravatarEnabled: expected boolean, got the string "yes"',
    ]);
  });

  it("a generated setting's companions travel with it, as the server requires", async () => {
    const checked = await settings.check({}, { krokiEnabled: true });
    expect(checked.failures?.map((failure) => failure.reason)).toEqual(["krokiUrl: required when krokiEnabled is true (the server wants both in the same request)"]);
    const { id, outs } = await create({ krokiEnabled: true, krokiUrl: "https://kroki.example.test" });
    expect(await live()).toMatchObject({ kroki_enabled: true, kroki_url: "https://kroki.example.test" });
    await settings.delete(id, outs);
  });

  it("secret settings are secret outputs; the ones the server never shows are kept as written, without a diff", async () => {
    const { id, inputs, outs } = await create({ assetProxySecretKey: "s3cr3t-proxy-key", slackAppSecret: "slack-secret" });
    expect(await live()).not.toHaveProperty("asset_proxy_secret_key");
    expect(outs.assetProxySecretKey).toBe("s3cr3t-proxy-key");
    expect(outs.restoreSecrets).toEqual({ slackAppSecret: null });
    expect(await settings.diff(id, outs, inputs)).toMatchObject({ changes: false });
    const refreshed = await settings.read(id, outs);
    expect(await settings.diff(id, refreshed.props!, inputs)).toMatchObject({ changes: false });
    await settings.delete(id, outs);
  });

  it("null unsets a setting the spec lets be unset, and a prior null comes back as null", async () => {
    const first = await create({ maxLoginAttempts: 5, abuseNotificationEmail: "abuse@example.test" });
    expect(first.outs.restoreValues).toEqual({ maxLoginAttempts: null, abuseNotificationEmail: null });
    const unset = (await settings.check(first.outs, { maxLoginAttempts: null, abuseNotificationEmail: null })).inputs as Props;
    const outs = (await settings.update(first.id, first.outs, unset)).outs as Props;
    expect(await live()).toMatchObject({ max_login_attempts: null, abuse_notification_email: null });
    expect(await settings.diff(first.id, outs, unset)).toMatchObject({ changes: false });
    await settings.delete(first.id, outs);
  });
});

describe("the names real clients send for the assistant settings", () => {
  beforeAll(async () => {
    await server.configureProviders();
  });

  it("duoFeaturesEnabled, lockDuoFeaturesEnabled and duoAvailability write the assistant settings, without a diff", async () => {
    server.emulator.state.instance.tier = "premium";
    try {
      const { id, inputs, outs } = await create({ duoFeaturesEnabled: false, lockDuoFeaturesEnabled: true, duoAvailability: "never_on" });
      expect(await live()).toMatchObject({ assistant_features_enabled: false, lock_assistant_features_enabled: true, assistant_availability: "never_on" });
      expect(await settings.diff(id, outs, inputs)).toMatchObject({ changes: false });
      const refreshed = await settings.read(id, outs);
      expect(await settings.diff(id, refreshed.props!, inputs)).toMatchObject({ changes: false });
      await settings.delete(id, outs);
      expect(await live()).toMatchObject({ assistant_features_enabled: true, lock_assistant_features_enabled: false, assistant_availability: "default_on" });
      const both = await settings.check({}, { duoAvailability: "default_on", assistantAvailability: "default_on" });
      expect(both.failures?.map((failure) => failure.reason)).toEqual(["duoAvailability: the name real clients use for assistantAvailability; set only one of them"]);
    } finally {
      server.emulator.state.instance.tier = "free";
    }
  });

  it("on a Free licence the alias names its licence", async () => {
    await expect(create({ duoFeaturesEnabled: false })).rejects.toThrow(/the instance needs the Premium or Ultimate tier for duoFeaturesEnabled, and its licence is below it/);
  });
});

describe("every value the API allows", () => {
  beforeAll(async () => {
    await server.configureProviders();
  });

  it("access level 0 (no one) in the default branch protection; project creation by owners and administrators", async () => {
    const declared = { allowedToPush: [{ accessLevel: 0 }], allowForcePush: false, allowedToMerge: [{ accessLevel: 0 }] };
    const { id, inputs, outs } = await create({ defaultBranchProtectionDefaults: declared, defaultProjectCreation: 4 });
    expect(await live()).toMatchObject({ default_branch_protection_defaults: { allowed_to_push: [{ access_level: 0 }], allowed_to_merge: [{ access_level: 0 }] }, default_project_creation: 4 });
    expect(await settings.diff(id, outs, inputs)).toMatchObject({ changes: false });
    await settings.delete(id, outs);
  });
});

describe("the licence a setting needs, verified at preview", () => {
  it("an administrator's preview refuses a licensed setting (or its alias) on a Free licence, and passes it on Premium", async () => {
    await server.configureProviders("root", { "platform:verifyAtPreview": "true" });
    try {
      const refused = await settings.check({}, { disablePersonalAccessTokens: true, duoFeaturesEnabled: false, signupEnabled: true });
      expect(refused.failures?.map((failure) => failure.reason)).toEqual([
        "disablePersonalAccessTokens: the instance needs the Premium or Ultimate tier for this setting, and the instance is licensed for Free",
        "duoFeaturesEnabled: the instance needs the Premium or Ultimate tier for this setting, and the instance is licensed for Free",
      ]);
      server.emulator.state.instance.tier = "premium";
      // A new run: the licence is read once per run.
      await server.configureProviders("root", { "platform:verifyAtPreview": "true" });
      expect((await settings.check({}, { disablePersonalAccessTokens: true, duoFeaturesEnabled: false })).failures ?? []).toEqual([]);
      expect((await settings.check({}, { secretPushProtectionAvailable: true })).failures?.map((failure) => failure.reason)).toEqual([
        "secretPushProtectionAvailable: the instance needs the Ultimate tier for this setting, and the instance is licensed for Premium",
      ]);
    } finally {
      server.emulator.state.instance.tier = "free";
      await server.configureProviders();
    }
  });
});
