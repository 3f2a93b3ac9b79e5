/** getApplicationSettings against a self-managed emulator, and the hosted offering's refusal. */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { getApplicationSettings, getApplicationSettingsOutput } from "pulumi-platform";
import { defaultSeed, selfManagedSeed } from "pulumi-platform/emulator";
import { HIDDEN_CREDENTIALS, SHOWN_CREDENTIALS } from "../application-settings-credentials";
import { useEmulator } from "../support";

const selfManaged = useEmulator({ seed: selfManagedSeed });
const hosted = useEmulator({ seed: defaultSeed });

async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await new Promise<T>((resolve) => output.apply((inner) => resolve(inner)));
  return { value, secret: await pulumi.isSecret(output) };
}

describe("getApplicationSettings", () => {
  it("an administrator reads every setting in one request, camelCased, licensed ones included", async () => {
    await selfManaged.configureProviders("root");
    let settings: Awaited<ReturnType<typeof getApplicationSettings>> | undefined;
    const requests = await selfManaged.requestsDuring(async () => {
      settings = await getApplicationSettings();
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/application/settings", status: 200 }]);
    expect(settings).toMatchObject({
      id: 1,
      signupEnabled: true,
      defaultProjectVisibility: "private",
      defaultBranchProtectionDefaults: { allowedToPush: [{ accessLevel: 40 }], allowForcePush: false, allowedToMerge: [{ accessLevel: 40 }] },
      snippetSizeLimit: 52428800,
      throttleAuthenticatedGitHttpPeriodInSeconds: 3600,
      throttleUnauthenticatedApiEnabled: false,
      validRunnerRegistrars: ["project", "group"],
      // Ultimate licence: the Premium and Ultimate settings are there.
      secretPushProtectionAvailable: false,
      virtualRegistriesEndpointsApiLimit: 1000,
    });
    // Settings the spec does not list are kept too.
    expect(settings).toHaveProperty("akismetEnabled", false);
    // The server sends the numeric column as text ("1.0"); the program gets a number.
    expect(settings?.pollingIntervalMultiplier).toBe(1);
    expect(settings?.externalAuthorizationServiceTimeout).toBe(0.5);
    expect(settings).toHaveProperty("createdAt");
  });

  it("the Output form is secret once a credential setting holds a value", async () => {
    await selfManaged.configureProviders("root");
    expect((await settle(getApplicationSettingsOutput())).secret).toBe(false);
    await selfManaged.as("root").put("/application/settings", { akismet_enabled: true, akismet_api_key: "planted-akismet-key" });
    const { value, secret } = await settle(getApplicationSettingsOutput());
    expect(value.akismetApiKey).toBe("planted-akismet-key");
    expect(secret).toBe(true);
  });

  it("each of the 14 credentials makes the Output secret on its own, or is never shown", async () => {
    await selfManaged.configureProviders("root");
    await selfManaged.as("root").put("/application/settings", { akismet_enabled: false, akismet_api_key: null });
    expect((await settle(getApplicationSettingsOutput())).secret).toBe(false);
    for (const setting of [...SHOWN_CREDENTIALS, ...HIDDEN_CREDENTIALS]) {
      await selfManaged.as("root").put("/application/settings", { [setting]: `planted-${setting}` });
      const settled = await settle(getApplicationSettingsOutput());
      if (HIDDEN_CREDENTIALS.includes(setting)) {
        expect(JSON.stringify(settled.value), setting).not.toContain(`planted-${setting}`);
      } else {
        expect(JSON.stringify(settled.value)).toContain(`planted-${setting}`);
        expect(settled.secret, setting).toBe(true);
      }
      await selfManaged.as("root").put("/application/settings", { [setting]: null });
    }
  });

  it("a user who is not an administrator is refused, and told why", async () => {
    await selfManaged.configureProviders("alice");
    await expect(getApplicationSettings()).rejects.toThrow(/getApplicationSettings: could not read the instance's application settings: GET \/application\/settings answered 403 .*: the token's user needs administrator rights on the instance\./);
  });

  it("arguments are refused before any request: it takes none", async () => {
    await selfManaged.configureProviders("root");
    const mark = selfManaged.emulator.mark();
    await expect(getApplicationSettings({ offering: "self-managed" } as never)).rejects.toThrow(/getApplicationSettings: invalid arguments: offering: unknown property/);
    expect(selfManaged.emulator.requestsSince(mark)).toEqual([]);
  });

  it("the hosted offering has no instance settings, and the 404 says so", async () => {
    await hosted.configureProviders("root");
    await expect(getApplicationSettings()).rejects.toThrow(/getApplicationSettings: could not read the instance's application settings: .*404.*This API exists only on self-managed and Dedicated instances, not on the hosted offering; check that platform:url is one of them\./);
  });
});
