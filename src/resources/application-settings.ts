/**
 * ApplicationSettings: the instance's settings. A singleton and a settings resource (../engine/settings.ts):
 * only the declared settings are managed, and delete gives back the values
 * they had before the first apply (unless `restoreOnDelete: false`).
 *
 * Administrators only; self-managed and dedicated offerings only (the hosted
 * offering has no such endpoint). The server caches settings for about a
 * minute: the provider trusts the PUT's answer and never polls.
 *
 * Every setting real servers have can be managed: the schema entries are
 * generated from one table (../application-settings-catalogue.ts: each
 * setting's type, enumeration, licence, and whether it is a secret), each with
 * the traits its entry gives (../api/fields.ts: `tier`, `secret`, `writeOnly`);
 * the settings that need more rules than their type (bounds, formats,
 * companions) are declared by hand below, take precedence, and keep those traits. A setting that is not a
 * boolean or a list may be unset with `null`. The names real clients send for
 * the assistant settings (`duoFeaturesEnabled`, `lockDuoFeaturesEnabled`,
 * `duoAvailability`) are aliases of the API documentation's, like the deprecated names.
 *
 * One per program: a dynamic provider's `check` sees one resource at a time
 * and is not told which resource it checks, so it cannot tell a second
 * declaration from a second look at the first. The class constructor runs in
 * the program's process before anything is sent, so it refuses a second
 * declaration there, naming both (see ../engine/declarations.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiError, tierNeeded } from "../client";
import { apiFieldName, camelCase, field, requirementsInWords, traitsOf, traitsOfShape, type FieldTraits } from "../api/fields";
import { aliasOf, countDeclaration, declarationKey, recordAlias } from "../engine/declarations";
import { APPLICATION_SETTINGS_PATH, applicationSettingsRequests, INSTANCE_SETTINGS_NEEDS } from "../api/application-settings";
import { defineSettingsResource, type EngineContext, type Live } from "../engine/definition";
import { ExplainedError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { restoreOnDelete } from "../engine/settings";
import { requestBody } from "../engine/values";
import { branchProtectionDefaults, defaultsFromApi, defaultsToApi, httpUrl, sameDefaults, type BranchProtectionDefaults } from "./common";
import {
  APPLICATION_SETTINGS,
  REQUIRED_WHEN_ENABLED as REQUIRED_SETTINGS,
  SETTING_ALIASES,
  SETTING_ENTRIES,
  decimalValue,
  type SettingEntry,
} from "../application-settings-catalogue";

const SETTINGS_PATH = APPLICATION_SETTINGS_PATH;
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

/** The throttle settings' pattern, `Unauthenticated` being the deprecated scope. */
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

// --- the schema entries generated from the catalogue ----------------------

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

type Catalogue = typeof APPLICATION_SETTINGS;
/** The zod type of one catalogue entry: its kind, its enumeration, and null for the settings that can be unset. */
type ZodOfEntry<E> = E extends { kind: "boolean" }
  ? z.ZodBoolean
  : E extends { kind: "string[]" }
    ? z.ZodArray<z.ZodString>
    : z.ZodNullable<
        E extends { values: readonly (infer V)[] }
          ? z.ZodType<V>
          : E extends { kind: "integer" | "number" | "decimal" }
            ? z.ZodNumber
            : E extends { kind: "string" }
              ? z.ZodString
              : z.ZodRecord<z.ZodString, z.ZodUnknown>
      >;
type GeneratedShape = { [K in keyof Catalogue as CamelCase<K>]: z.ZodOptional<ZodOfEntry<Catalogue[K]>> };
type AliasShape = { [A in keyof typeof SETTING_ALIASES as CamelCase<A>]: z.ZodOptional<ZodOfEntry<Catalogue[(typeof SETTING_ALIASES)[A]]>> };

function zodOfEntry(entry: SettingEntry): z.ZodType {
  if (entry.kind === "boolean") return z.boolean();
  if (entry.kind === "string[]") return z.array(z.string());
  const base = entry.values
    ? z.union(entry.values.map((value) => z.literal(value)) as unknown as [z.ZodLiteral, z.ZodLiteral], { message: `must be one of ${entry.values.join(", ")}` })
    : entry.kind === "integer"
      ? z.number().int()
      : entry.kind === "number" || entry.kind === "decimal"
        ? z.number()
        : entry.kind === "string"
          ? z.string()
          : z.record(z.string(), z.unknown());
  return base.nullable();
}

/** The traits a catalogue entry gives its setting: its licence, a credential's secrecy, its wire name where camelCase does not round-trip. */
function traitsOfEntry(name: string, entry: SettingEntry): FieldTraits {
  return {
    ...(apiFieldName(camelCase(name), undefined) !== name ? { api: name } : {}),
    ...(entry.tier ? { tier: entry.tier } : {}),
    ...(entry.secret ? { secret: true } : {}),
    ...(entry.writeOnly ? { writeOnly: true } : {}),
    ...(entry.kind === "decimal" ? { fromApi: (live: Live) => decimalValue(live[name]) } : {}),
  };
}

/** Older names of settings; the other aliases are the names real clients send. */
const DEPRECATED_NAMES: readonly (keyof typeof SETTING_ALIASES)[] = ["signin_enabled", "admin_notification_email"];

const generatedShape = Object.fromEntries(
  SETTING_ENTRIES.map(([name, entry]) => [camelCase(name), field(zodOfEntry(entry).optional(), traitsOfEntry(name, entry))]),
) as unknown as GeneratedShape;
const aliasShape = Object.fromEntries(
  Object.entries(SETTING_ALIASES).map(([alias, name]) => [
    camelCase(alias),
    field(zodOfEntry(APPLICATION_SETTINGS[name]).optional(), { aliasOf: { property: camelCase(name), ...(DEPRECATED_NAMES.includes(alias as never) ? { deprecated: true } : {}) } }),
  ]),
) as unknown as AliasShape;
const cataloguedShape: Record<string, z.ZodType> = { ...generatedShape, ...aliasShape };

/** Settings declared by hand, with the traits the catalogue gives them beside their own. */
function withCatalogueTraits<T extends Record<string, z.ZodType>>(shape: T): T {
  return Object.fromEntries(
    Object.entries(shape).map(([name, type]) => {
      const catalogued = cataloguedShape[name] && traitsOf(cataloguedShape[name]);
      return [name, catalogued ? field(type, { ...catalogued, ...traitsOf(type) }) : type];
    }),
  ) as T;
}

// --- the settings declared by hand: rules beyond their type ------------------

const schema = z.object({
  ...generatedShape,
  ...aliasShape,
  ...withCatalogueTraits({
    signupEnabled: z.boolean().optional(),
    defaultProjectsLimit: count.optional(),
    defaultBranchProtection: z.number().int().min(0).max(4).optional(),
    defaultBranchProtectionDefaults: field(branchProtectionDefaults.optional(), {
      fromApi: (live) => defaultsFromApi(live.default_branch_protection_defaults),
      toApi: (value, body) => {
        body.default_branch_protection_defaults = defaultsToApi(value as BranchProtectionDefaults);
      },
      sameValue: sameDefaults,
    }),
    defaultPreferredLanguage: z.string().min(2).optional(),
    defaultProjectVisibility: visibility.optional(),
    defaultGroupVisibility: visibility.optional(),
    defaultSnippetVisibility: visibility.optional(),
    restrictedVisibilityLevels: field(z.array(visibility).optional(), { sameValue: sameMembers }),
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
    /** null: no limit. */
    maxLoginAttempts: positive.nullable().optional(),
    failedLoginAttemptsUnlockPeriodInMinutes: positive.nullable().optional(),
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
    deleteUnconfirmedUsers: z.boolean().optional(),
    /** At least 1; acts only with `deleteUnconfirmedUsers`. */
    unconfirmedUsersDeleteAfterDays: z.number().int().min(1).optional(),
    /** Seconds; at least 7200; null: tokens never expire. */
    projectRunnerTokenExpirationInterval: z.number().int().min(7200).nullable().optional(),
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
    terms: field(z.string().nullable().optional(), { sameValue: (declared, live) => typeof live === "string" && String(declared).trim() === live.trim() }),
    /** Needs `twoFactorGracePeriod`. */
    requireTwoFactorAuthentication: z.boolean().optional(),
    /** Hours. */
    twoFactorGracePeriod: count.optional(),
    /** Needs `emailRestrictions`. */
    emailRestrictionsEnabled: z.boolean().optional(),
    emailRestrictions: regularExpression.nullable().optional(),
    /** Needs `uniqueIpsLimitPerUser` and `uniqueIpsLimitTimeWindow`. */
    uniqueIpsLimitEnabled: z.boolean().optional(),
    uniqueIpsLimitPerUser: positive.optional(),
    /** Seconds. */
    uniqueIpsLimitTimeWindow: positive.optional(),
    /** null: no address. */
    abuseNotificationEmail: z.email().nullable().optional(),
    /** Deprecated: use `abuseNotificationEmail`. */
    adminNotificationEmail: z.email().nullable().optional(),
    /** Who may register runners: [], ["group"], ["project"] or both. */
    validRunnerRegistrars: field(
      z
        .array(z.enum(["group", "project"]))
        .refine((list) => new Set(list).size === list.length, { message: "must not list a value twice" })
        .optional(),
      { sameValue: sameMembers },
    ),
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
    /** null: no validation service. */
    externalPipelineValidationServiceUrl: httpUrl("such as https://validate.example.com").nullable().optional(),
    externalPipelineValidationServiceToken: z.string().min(1).nullable().optional(),
    /** Seconds. */
    externalPipelineValidationServiceTimeout: positive.nullable().optional(),
    // The licensed settings (their tier: the catalogue's)
    /** False permits only `allowedIntegrations`. */
    allowAllIntegrations: z.boolean().optional(),
    allowedIntegrations: field(z.array(z.string().min(1)).optional(), { sameValue: sameMembers }),
    defaultProjectDeletionProtection: z.boolean().optional(),
    disablePersonalAccessTokens: z.boolean().optional(),
    groupOwnersCanManageDefaultBranchProtection: z.boolean().optional(),
    lockMembershipsToSaml: z.boolean().optional(),
    /** null: none. */
    fileTemplateProjectId: z.number().int().positive().nullable().optional(),
    securityApprovalPoliciesLimit: count.optional(),
    scanExecutionPoliciesActionLimit: count.optional(),
    scanExecutionPoliciesScheduleLimit: count.optional(),
    virtualRegistriesEndpointsApiLimit: count.optional(),
    secretPushProtectionAvailable: z.boolean().optional(),
    assistantFeaturesEnabled: z.boolean().optional(),
    lockAssistantFeaturesEnabled: z.boolean().optional(),
  }),
  /** Give the prior values back on delete (default true); false leaves the settings as they are. */
  restoreOnDelete,
});

type ApplicationSettingsInputs = z.output<typeof schema>;
type Property = keyof ApplicationSettingsInputs;

/** The traits of each setting (the catalogue's and those declared by hand, aliases resolved). */
const fields: Readonly<Record<string, FieldTraits | undefined>> = traitsOfShape(schema.shape);

/** An enabling setting → the settings the server requires in the same request when it is true. */
const REQUIRED_WHEN_ENABLED: Partial<Record<Property, Property[]>> = Object.fromEntries(
  Object.entries(REQUIRED_SETTINGS).map(([enabling, required]) => [camelCase(enabling), required.map(camelCase)]),
);

function sameMembers(declared: unknown, live: unknown): boolean {
  if (!Array.isArray(declared) || !Array.isArray(live)) return false;
  const sorted = (list: unknown[]) => JSON.stringify([...list].map(String).sort());
  return sorted(declared) === sorted(live);
}

/** The setting a property writes: its own, or for an alias the one it stands for. */
const wireName = (property: string): string => {
  const target = fields[property]?.aliasOf?.property ?? property;
  return apiFieldName(target, fields[target]);
};
/** The settings only a licensed instance has (aliases included). */
const LICENSED = Object.keys(fields).filter((name) => fields[name]!.tier) as Property[];

/** Errors of this endpoint as the user should read them (a 403 is the engine's, from `needs`). */
function explained(error: unknown, declared: Partial<ApplicationSettingsInputs> = {}): unknown {
  if (!(error instanceof ApiError)) return error;
  const answered = `${error.method} ${error.path} failed with ${error.status} (${error.serverMessage})`;
  if (error.status === 400 && error.fieldErrors) {
    const licensed = Object.keys(error.fieldErrors)
      // The server names the setting; the program may have declared it under an alias.
      .map((api) => LICENSED.filter((property) => wireName(property) === api).sort((a, b) => Number(declared[b] !== undefined) - Number(declared[a] !== undefined))[0])
      .filter((property): property is Property => property !== undefined);
    if (licensed.length) {
      return new ExplainedError(
        `ApplicationSettings: ${answered}: ${licensed.map((name) => tierNeeded(fields[name]!.tier!, "the instance", { purpose: name, shortfall: "its licence is below it" })).join("; ")}.`,
      );
    }
  }
  return error;
}

async function getSettings(ctx: EngineContext): Promise<Live> {
  try {
    return await applicationSettingsRequests.get(ctx.client, SETTINGS_PATH);
  } catch (error) {
    throw explained(error);
  }
}

export const applicationSettingsDefinition = defineSettingsResource({
  name: "ApplicationSettings",
  words: { noun: "application settings" },
  imported: {
    word: "application-settings",
    listed: "application settings",
    on: ["instance"],
    isOwner: true,
    async find({ locate }) {
      const located = await locate({});
      return { found: [{ importId: located.id, name: "", live: located.live, address: {} }] };
    },
  },
  terraform: [{ type: "gitlab_application_settings", target: () => ({}) }],
  schema,
  outputs: {
    /** When the settings were last changed (ISO 8601). */
    updatedAt: (live: Live) => live.updated_at as string,
  },

  needs: () => INSTANCE_SETTINGS_NEEDS,

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

  async locate(ctx) {
    return { id: RESOURCE_ID, live: await getSettings(ctx) };
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
      live = await applicationSettingsRequests.put(ctx.client, SETTINGS_PATH, requestBody(this.fields, args, names));
    } catch (error) {
      throw explained(error, args);
    }
    // Real servers drop settings the licence lacks without a word.
    const dropped = [...changed].filter((name) => fields[name]?.tier && live[wireName(name)] === undefined);
    if (dropped.length) {
      const details = dropped.map((name) => `${name} (needs: ${requirementsInWords(fields[name]).join(", ")})`).join("; ");
      throw new ExplainedError(`ApplicationSettings: the server did not apply ${details}. Remove them or upgrade the instance's licence.`);
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
export interface ApplicationSettings extends ResourceOutputs<typeof applicationSettingsDefinition> {}
export class ApplicationSettings extends PlatformResource {
  static {
    ofKind(this, applicationSettingsDefinition);
  }
  constructor(name: string, args: ApplicationSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    claimInstanceSettings(name, args.connection);
    super(name, args, opts);
  }
}

/** Throws when the program already declares ApplicationSettings for the same server (`connection`): an instance has one set of settings. */
export function claimInstanceSettings(name: string, connection?: unknown): void {
  const instance = declarationKey("instance", connection);
  const first = aliasOf("singleton", instance);
  countDeclaration("singleton:ApplicationSettings", instance, 1, () =>
    `ApplicationSettings "${name}": this program already declares ApplicationSettings "${String(first)}", and the instance has only one set of settings. Merge the two declarations into one resource.`,
  );
  recordAlias("singleton", instance, name);
}
