/**
 * The instance-wide policy of a self-managed platform instance: no open
 * sign-up, private by default, terms of service, two-factor sign-in, and an
 * API rate limit.
 *
 * NEEDS a self-managed (or dedicated) instance and an administrator's token:
 * the hosted offering has no application settings endpoint. Against the
 * emulator, start it with a self-managed seed (`"instance": {"offering":
 * "self-managed"}`); the default seed is hosted.
 *
 * Only the settings declared here are managed; `pulumi destroy` gives them
 * back the values they had before the first `pulumi up`. There is one set of
 * settings per instance, so a program may declare ApplicationSettings once.
 * Settings that already hold the declared values get no write (settings
 * resources adopt by nature: there is no `adoptExisting` option).
 *
 * Every setting real servers have can be declared (typed, in camelCase: see
 * docs/resources.md); a setting that is not a boolean or a list takes `null`
 * to unset it.
 *
 * Config (all optional): apiRequestsPerMinute (default 600), termsText,
 * gracePeriodHours (default 48), akismetApiKey (secret: `pulumi config set
 * --secret akismetApiKey ...`; turns on Akismet spam checks).
 */
import * as pulumi from "@pulumi/pulumi";
import { ApplicationSettings } from "pulumi-platform";

const config = new pulumi.Config();
const akismetApiKey = config.getSecret("akismetApiKey");

const instance = new ApplicationSettings("instance", {
  signupEnabled: false,
  defaultProjectVisibility: "private",
  defaultGroupVisibility: "private",
  enforceTerms: true,
  terms: config.get("termsText") ?? "Use this instance for company work only.",
  requireTwoFactorAuthentication: true,
  twoFactorGracePeriod: config.getNumber("gracePeriodHours") ?? 48,
  whatsNewVariant: "current_tier",
  // Settings real servers have beyond the spec's list are typed too.
  gravatarEnabled: false,
  defaultBranchName: "main",
  // A decimal: a number here, though the server answers it as text ("1.5").
  pollingIntervalMultiplier: 1.5,
  // The throttle pattern: enabling it needs its period and request count.
  throttleAuthenticatedApiEnabled: true,
  throttleAuthenticatedApiPeriodInSeconds: 60,
  throttleAuthenticatedApiRequestsPerPeriod: config.getNumber("apiRequestsPerMinute") ?? 600, // change it: an in-place update
  // A secret setting: kept encrypted in state, like the prior value destroy gives back.
  ...(akismetApiKey ? { akismetEnabled: true, akismetApiKey } : {}),
});

export const settingsUpdatedAt = instance.updatedAt;
export const priorValues = instance.restoreValues;
