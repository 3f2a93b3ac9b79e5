/**
 * ApplicationSettings: the instance's settings (spec document 3, parts 2.5,
 * 4.3 and 4.4). A singleton and a settings resource (../engine/settings.ts):
 * only the declared settings are managed, and delete gives back the values
 * they had before the first apply (unless `restoreOnDelete: false`).
 *
 * Administrators only; self-managed and dedicated offerings only (the hosted
 * offering has no such endpoint). The server caches settings for about a
 * minute: the provider trusts the PUT's answer and never polls.
 *
 * One per program: a dynamic provider's `check` sees one resource at a time
 * and is not told which resource it checks, so it cannot tell a second
 * declaration from a second look at the first. The class constructor runs in
 * the program's process before anything is sent, so it refuses a second
 * declaration there, naming both (see ../engine/declarations.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiError } from "../client";
import { aliasOf, countDeclaration, recordAlias } from "../engine/declarations";
import { defineResource, type EngineContext, type FieldTraits, type Live } from "../engine/definition";
import { ExplainedError } from "../engine/errors";
import { PlatformResource, type ResourceArgs } from "../engine/resource";
import { restoreOnDelete, settingsOutputs } from "../engine/settings";
import { requestBody, snakeCase } from "../engine/values";
import { branchProtectionDefaults, defaultsFromApi, defaultsToApi, httpUrl, sameDefaults, type BranchProtectionDefaults } from "./common";

const SETTINGS_PATH = "/application/settings";
const RESOURCE_ID = "application/settings";

const visibility = z.enum(["private", "internal", "public"]);
const count = z.number().int().min(0);
const positive = z.number().int().min(1);
const regularExpression = z.string().refine(
  (value) => {
    try {
      new RegExp(value);
      return true;
    } catch {
      return false;
    }
  },
  { message: "must be a valid regular expression" },
);

/** The throttle pattern of part 4.4, `Unauthenticated` being the deprecated scope. */
const THROTTLE_SCOPES = [
  "AuthenticatedApi",
  "AuthenticatedWeb",
  "AuthenticatedPackagesApi",
  "AuthenticatedGitHttp",
  "UnauthenticatedApi",
  "UnauthenticatedWeb",
  "UnauthenticatedPackagesApi",
  "UnauthenticatedGitHttp",
  "Unauthenticated",
] as const;
type ThrottleScope = (typeof THROTTLE_SCOPES)[number];
type ThrottleShape = { [S in ThrottleScope as `throttle${S}Enabled`]: z.ZodOptional<z.ZodBoolean> } & {
  [S in ThrottleScope as `throttle${S}PeriodInSeconds`]: z.ZodOptional<z.ZodNumber>;
} & { [S in ThrottleScope as `throttle${S}RequestsPerPeriod`]: z.ZodOptional<z.ZodNumber> };
const throttleShape = Object.fromEntries(
  THROTTLE_SCOPES.flatMap((scope) => [
    [`throttle${scope}Enabled`, z.boolean().optional()],
    [`throttle${scope}PeriodInSeconds`, positive.optional()],
    [`throttle${scope}RequestsPerPeriod`, positive.optional()],
  ]),
) as ThrottleShape;

const schema = z.object({
  signupEnabled: z.boolean().optional(),
  defaultProjectsLimit: count.optional(),
  defaultBranchProtection: z.number().int().min(0).max(4).optional(),
  defaultBranchProtectionDefaults: branchProtectionDefaults.optional(),
  defaultPreferredLanguage: z.string().min(2).optional(),
  defaultProjectVisibility: visibility.optional(),
  defaultGroupVisibility: visibility.optional(),
  defaultSnippetVisibility: visibility.optional(),
  restrictedVisibilityLevels: z.array(visibility).optional(),
  signInRestrictions: z.record(z.string(), z.unknown()).optional(),
  passwordAuthenticationEnabledForWeb: z.boolean().optional(),
  /** Deprecated: use `passwordAuthenticationEnabledForWeb`. */
  signinEnabled: z.boolean().optional(),
  /** Megabytes. */
  maxAttachmentSize: positive.optional(),
  maxExportSize: count.optional(),
  maxImportSize: count.optional(),
  maxDecompressedArchiveSize: count.optional(),
  maxImportRemoteFileSize: count.optional(),
  bulkImportMaxDownloadFileSize: count.optional(),
  maxLoginAttempts: positive.optional(),
  failedLoginAttemptsUnlockPeriodInMinutes: positive.optional(),
  /** Minutes. */
  sessionExpireDelay: count.optional(),
  /** Seconds; 0 unlimited. */
  terminalMaxSessionTime: count.optional(),
  /** Bytes. */
  snippetSizeLimit: positive.optional(),
  /** Bytes; at least 1024. */
  wikiPageMaxContentBytes: z.number().int().min(1024).optional(),
  /** At most 64. */
  asciidocMaxIncludes: z.number().int().min(0).max(64).optional(),
  /** Premium and Ultimate; self-managed. */
  deleteUnconfirmedUsers: z.boolean().optional(),
  /** At least 1; acts only with `deleteUnconfirmedUsers`; Premium and Ultimate; self-managed. */
  unconfirmedUsersDeleteAfterDays: z.number().int().min(1).optional(),
  /** Seconds; at least 7200. */
  projectRunnerTokenExpirationInterval: z.number().int().min(7200).optional(),
  deleteInactiveProjects: z.boolean().optional(),
  timeTrackingLimitToHours: z.boolean().optional(),
  topLevelGroupCreationEnabled: z.boolean().optional(),
  silentModeEnabled: z.boolean().optional(),
  silentAdminExportsEnabled: z.boolean().optional(),
  userDefaultsToPrivateProfile: z.boolean().optional(),
  adminMode: z.boolean().optional(),
  /** Needs `terms`. */
  enforceTerms: z.boolean().optional(),
  /** Markdown. */
  terms: z.string().optional(),
  /** Needs `twoFactorGracePeriod`. */
  requireTwoFactorAuthentication: z.boolean().optional(),
  /** Hours. */
  twoFactorGracePeriod: count.optional(),
  /** Needs `emailRestrictions`. */
  emailRestrictionsEnabled: z.boolean().optional(),
  emailRestrictions: regularExpression.optional(),
  /** Needs `uniqueIpsLimitPerUser` and `uniqueIpsLimitTimeWindow`. */
  uniqueIpsLimitEnabled: z.boolean().optional(),
  uniqueIpsLimitPerUser: positive.optional(),
  /** Seconds. */
  uniqueIpsLimitTimeWindow: positive.optional(),
  abuseNotificationEmail: z.email().optional(),
  /** Deprecated: use `abuseNotificationEmail`. */
  adminNotificationEmail: z.email().optional(),
  /** Who may register runners: [], ["group"], ["project"] or both. */
  validRunnerRegistrars: z
    .array(z.enum(["group", "project"]))
    .refine((list) => new Set(list).size === list.length, { message: "must not list a value twice" })
    .optional(),
  whatsNewVariant: z.enum(["all_tiers", "current_tier", "disabled"]).optional(),
  containerExpirationPoliciesEnableHistoricEntries: z.boolean().optional(),
  containerRegistryCleanupTagsServiceMaxListSize: positive.optional(),
  containerRegistryDeleteTagsServiceTimeout: positive.optional(),
  containerRegistryExpirationPoliciesCaching: z.boolean().optional(),
  containerRegistryExpirationPoliciesWorkerCapacity: count.optional(),
  containerRegistryTokenExpireDelay: positive.optional(),
  decompressArchiveFileTimeout: positive.optional(),
  issuesCreateLimit: count.optional(),
  rawBlobRequestLimit: count.optional(),
  projectJobsApiRateLimit: count.optional(),
  projectsApiRateLimitUnauthenticated: count.optional(),
  runnerJobsRequestApiLimit: count.optional(),
  runnerJobsPatchTraceApiLimit: count.optional(),
  runnerJobsEndpointsApiLimit: count.optional(),
  usersApiLimitFollowers: count.optional(),
  usersApiLimitFollowing: count.optional(),
  usersApiLimitStatus: count.optional(),
  usersApiLimitSshKeys: count.optional(),
  usersApiLimitSshKey: count.optional(),
  usersApiLimitGpgKeys: count.optional(),
  usersApiLimitGpgKey: count.optional(),
  ...throttleShape,
  /** Needs `akismetApiKey`. */
  akismetEnabled: z.boolean().optional(),
  akismetApiKey: z.string().min(1).optional(),
  /** Needs `recaptchaSiteKey` and `recaptchaPrivateKey`. */
  recaptchaEnabled: z.boolean().optional(),
  recaptchaSiteKey: z.string().min(1).optional(),
  recaptchaPrivateKey: z.string().min(1).optional(),
  externalPipelineValidationServiceUrl: httpUrl("such as https://validate.example.com").optional(),
  externalPipelineValidationServiceToken: z.string().min(1).optional(),
  /** Seconds. */
  externalPipelineValidationServiceTimeout: positive.optional(),
  // Premium and Ultimate
  /** Ultimate; false permits only `allowedIntegrations`. */
  allowAllIntegrations: z.boolean().optional(),
  allowedIntegrations: z.array(z.string().min(1)).optional(),
  defaultProjectDeletionProtection: z.boolean().optional(),
  disablePersonalAccessTokens: z.boolean().optional(),
  groupOwnersCanManageDefaultBranchProtection: z.boolean().optional(),
  lockMembershipsToSaml: z.boolean().optional(),
  fileTemplateProjectId: z.number().int().positive().optional(),
  securityApprovalPoliciesLimit: count.optional(),
  scanExecutionPoliciesActionLimit: count.optional(),
  scanExecutionPoliciesScheduleLimit: count.optional(),
  virtualRegistriesEndpointsApiLimit: count.optional(),
  /** Ultimate. */
  secretPushProtectionAvailable: z.boolean().optional(),
  assistantFeaturesEnabled: z.boolean().optional(),
  lockAssistantFeaturesEnabled: z.boolean().optional(),
  /** Give the prior values back on delete (default true); false leaves the settings as they are. */
  restoreOnDelete,
});

type ApplicationSettingsInputs = z.output<typeof schema>;
type Property = keyof ApplicationSettingsInputs;

/** Settings only a licensed instance has. */
const LICENCE: Partial<Record<Property, "Premium or Ultimate" | "Ultimate">> = {
  deleteUnconfirmedUsers: "Premium or Ultimate",
  unconfirmedUsersDeleteAfterDays: "Premium or Ultimate",
  allowAllIntegrations: "Ultimate",
  allowedIntegrations: "Ultimate",
  defaultProjectDeletionProtection: "Premium or Ultimate",
  disablePersonalAccessTokens: "Premium or Ultimate",
  groupOwnersCanManageDefaultBranchProtection: "Premium or Ultimate",
  lockMembershipsToSaml: "Premium or Ultimate",
  fileTemplateProjectId: "Premium or Ultimate",
  securityApprovalPoliciesLimit: "Premium or Ultimate",
  scanExecutionPoliciesActionLimit: "Premium or Ultimate",
  scanExecutionPoliciesScheduleLimit: "Premium or Ultimate",
  virtualRegistriesEndpointsApiLimit: "Premium or Ultimate",
  secretPushProtectionAvailable: "Ultimate",
  assistantFeaturesEnabled: "Premium or Ultimate",
  lockAssistantFeaturesEnabled: "Premium or Ultimate",
};

/** An enabling setting → the settings the server requires in the same request when it is true. */
const REQUIRED_WHEN_ENABLED: Partial<Record<Property, Property[]>> = {
  enforceTerms: ["terms"],
  requireTwoFactorAuthentication: ["twoFactorGracePeriod"],
  emailRestrictionsEnabled: ["emailRestrictions"],
  uniqueIpsLimitEnabled: ["uniqueIpsLimitPerUser", "uniqueIpsLimitTimeWindow"],
  akismetEnabled: ["akismetApiKey"],
  recaptchaEnabled: ["recaptchaSiteKey", "recaptchaPrivateKey"],
  ...(Object.fromEntries(
    THROTTLE_SCOPES.map((scope) => [`throttle${scope}Enabled`, [`throttle${scope}PeriodInSeconds`, `throttle${scope}RequestsPerPeriod`]]),
  ) as Partial<Record<Property, Property[]>>),
};

/** Deprecated names: read from and written to their replacements, so they never show a diff. */
const alias = (replacement: string): FieldTraits => ({
  fromApi: (live) => live[replacement],
  toApi: (value, body) => {
    body[replacement] = value;
  },
});
const ALIASES: [deprecated: Property, replacement: Property][] = [
  ["signinEnabled", "passwordAuthenticationEnabledForWeb"],
  ["adminNotificationEmail", "abuseNotificationEmail"],
];

const fields: { [K in Property]?: FieldTraits } = {
  restoreOnDelete: { local: true },
  signinEnabled: alias("password_authentication_enabled_for_web"),
  adminNotificationEmail: alias("abuse_notification_email"),
  defaultBranchProtectionDefaults: {
    fromApi: (live) => defaultsFromApi(live.default_branch_protection_defaults),
    toApi: (value, body) => {
      body.default_branch_protection_defaults = defaultsToApi(value as BranchProtectionDefaults);
    },
    sameValue: sameDefaults,
  },
  restrictedVisibilityLevels: { sameValue: sameMembers },
  validRunnerRegistrars: { sameValue: sameMembers },
  allowedIntegrations: { sameValue: sameMembers },
  terms: { sameValue: (declared, live) => typeof live === "string" && String(declared).trim() === live.trim() },
  akismetApiKey: { secret: true },
  recaptchaSiteKey: { secret: true },
  recaptchaPrivateKey: { secret: true },
  externalPipelineValidationServiceToken: { secret: true },
};

function sameMembers(declared: unknown, live: unknown): boolean {
  if (!Array.isArray(declared) || !Array.isArray(live)) return false;
  const sorted = (list: unknown[]) => JSON.stringify([...list].map(String).sort());
  return sorted(declared) === sorted(live);
}

const apiName = (property: string): string => fields[property as Property]?.api ?? snakeCase(property);

/** Errors of this endpoint as the user should read them (a 403 is the engine's, from `requirements`). */
function explained(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const answered = `${error.method} ${error.path} failed with ${error.status} (${error.serverMessage})`;
  if (error.status === 404 && error.notFoundSubject === undefined) {
    return new ExplainedError(
      `ApplicationSettings: the server has no ${SETTINGS_PATH} endpoint (${answered}). Instance settings exist on self-managed and dedicated offerings only; the hosted offering does not offer them.`,
    );
  }
  if (error.status === 400 && error.fieldErrors) {
    const licensed = Object.keys(error.fieldErrors)
      .map((api) => (Object.keys(LICENCE) as Property[]).find((property) => apiName(property) === api))
      .filter((property): property is Property => property !== undefined);
    if (licensed.length) {
      return new ExplainedError(
        `ApplicationSettings: ${licensed.map((name) => `${name} needs a ${LICENCE[name]} licence`).join("; ")}, which this instance does not have (${answered}).`,
      );
    }
  }
  return error;
}

async function getSettings(ctx: EngineContext): Promise<Live> {
  try {
    return await ctx.client.get<Live>(SETTINGS_PATH);
  } catch (error) {
    throw explained(error);
  }
}

export const applicationSettingsDefinition = defineResource({
  name: "ApplicationSettings",
  schema,
  fields,
  outputs: { ...settingsOutputs, updatedAt: {} },
  outputsOf: (live: Live) => ({ updatedAt: live.updated_at }),

  requirements: () => ({ subject: "the instance", role: "administrator rights (instance settings are for administrators only)" }),

  validate(args) {
    const failures: { property: string; reason: string }[] = [];
    for (const [enabling, required] of Object.entries(REQUIRED_WHEN_ENABLED) as [Property, Property[]][]) {
      if (args[enabling] !== true) continue;
      for (const name of required) {
        if (args[name] === undefined || args[name] === "") {
          failures.push({ property: name, reason: `${name}: required when ${enabling} is true (the server wants both in the same request)` });
        }
      }
    }
    for (const [deprecated, replacement] of ALIASES) {
      if (args[deprecated] !== undefined && args[replacement] !== undefined) {
        failures.push({ property: deprecated, reason: `${deprecated}: deprecated alias of ${replacement}; set only one of them` });
      }
    }
    if (args.defaultBranchProtection !== undefined && args.defaultBranchProtectionDefaults !== undefined) {
      failures.push({ property: "defaultBranchProtection", reason: "defaultBranchProtection: set it or defaultBranchProtectionDefaults, not both (the integer is the older form of the hash)" });
    }
    if (args.unconfirmedUsersDeleteAfterDays !== undefined && args.deleteUnconfirmedUsers === false) {
      failures.push({ property: "unconfirmedUsersDeleteAfterDays", reason: "unconfirmedUsersDeleteAfterDays: acts only when deleteUnconfirmedUsers is true" });
    }
    if (args.allowAllIntegrations === true && args.allowedIntegrations !== undefined && args.allowedIntegrations.length > 0) {
      failures.push({ property: "allowedIntegrations", reason: "allowedIntegrations: only applies when allowAllIntegrations is false" });
    }
    return failures;
  },

  settings: {
    async locate(ctx) {
      return { id: RESOURCE_ID, live: await getSettings(ctx) };
    },
  },

  async read(ctx) {
    return getSettings(ctx);
  },

  async update(ctx, _id, args, changed) {
    // An enabling setting travels with the settings the server requires beside it.
    const names = new Set(changed);
    for (const name of changed) {
      if (args[name as Property] === true) for (const required of REQUIRED_WHEN_ENABLED[name as Property] ?? []) if (args[required] !== undefined) names.add(required);
    }
    let live: Live;
    try {
      // The answer is the settings after the update; the server's cache (about a minute) is never polled.
      live = await ctx.client.put<Live>(SETTINGS_PATH, requestBody(this.fields, args, names));
    } catch (error) {
      throw explained(error);
    }
    // Real servers drop settings the licence lacks without a word.
    const dropped = [...changed].filter((name) => LICENCE[name as Property] && live[apiName(name)] === undefined) as Property[];
    if (dropped.length) {
      throw new ExplainedError(`ApplicationSettings: the server did not apply ${dropped.map((name) => `${name} (needs a ${LICENCE[name]} licence)`).join(", ")}. Remove them or upgrade the instance's licence.`);
    }
    return live;
  },
});

export type ApplicationSettingsArgs = ResourceArgs<typeof schema>;

/**
 * The instance's application settings (administrators only; not on the hosted
 * offering). Declare at most one per program; only the declared settings are
 * managed, and delete gives back their prior values unless `restoreOnDelete: false`.
 *
 * ```ts
 * new ApplicationSettings("instance", { signupEnabled: false, defaultProjectVisibility: "private" });
 * ```
 */
export class ApplicationSettings extends PlatformResource {
  /** The values the managed settings had before the first apply, given back on delete. */
  declare readonly restoreValues: pulumi.Output<Record<string, unknown>>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: ApplicationSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    claimInstanceSettings(name);
    super(applicationSettingsDefinition, name, args, opts);
  }
}

/** Throws when the program already declares ApplicationSettings: the instance has one set of settings. */
export function claimInstanceSettings(name: string): void {
  const first = aliasOf("singleton", "ApplicationSettings");
  countDeclaration("singleton:ApplicationSettings", "instance", 1, () =>
    `ApplicationSettings "${name}": this program already declares ApplicationSettings "${String(first)}", and the instance has only one set of settings. Merge the two declarations into one resource.`,
  );
  recordAlias("singleton", "ApplicationSettings", name);
}
