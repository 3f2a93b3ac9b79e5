/**
 * GroupSettings: the settings of a group that already exists. It never
 * creates or deletes the group:
 * it is a settings resource (see ../engine/settings.ts), so only the declared
 * fields are managed, and delete gives back the values they had before the
 * first apply, unless `restoreOnDelete: false`.
 *
 * The server drops fields that the group's tier or the offering lacks without
 * saying so (real EE helpers delete unlicensed params): after each PUT the
 * provider compares the answer with what it sent and names the requirement
 * that failed. Administrator-only fields answer 403, which is explained too.
 *
 * Some fields are applied on every tier but shown only to some: the server
 * shows `experiment_features_enabled` and `assistant_availability` on Premium
 * and Ultimate groups only (though writing them needs no tier), and real servers show
 * `enabled_git_access_protocol` only on top-level groups, to those who can
 * administer them. Absence is never read as a change: the applied value stays
 * in state (the `shownToSome` trait). Fields the server will not apply are errors
 * at apply that name the requirement (their `tier`, `administrator`,
 * `topLevelOnly` and `offering` traits, which the preview verifies where it can).
 *
 * Clearing and inheriting are values of their own: `null` (or `""` for the
 * text settings) clears `ipRestrictionRanges`, `allowedEmailDomainsList`,
 * `stepUpAuthRequiredOauthProvider`, `defaultBranch` and
 * `fileTemplateProjectId`; `null` makes `sharedRunnersMinutesLimit`,
 * `extraSharedRunnersMinutesLimit`, `maxArtifactsSize` and `autoDevopsEnabled`
 * inherit the instance's value.
 *
 * The avatar is a file: the server shows only its URL. The one the group had
 * before `avatar` was first managed is downloaded once then (only if there is
 * one) and kept in `restoreValues` as bytes, so delete can upload it back.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { ReadLimitExceeded, readFileWithin } from "../bounded-read";
import { isIP } from "node:net";
import { basename } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiError, roleNeeded, type DownloadedFile, type FilePart } from "../client";
import { defineSettingsResource, type EngineContext, type FieldTraits, recordedOutput } from "../engine/definition";
import { bothNames, field, propertiesWith, requirementsInWords, snakeCase, traitsOfShape } from "../api/fields";
import { ExplainedError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { restoreOnDelete } from "../engine/settings";
import { requestBody } from "../engine/values";
import { onGroup } from "../api/needs";
import { branchProtectionDefaults, defaultsFromApi, defaultsToApi, presetDefaults, sameDefaults, type BranchProtectionDefaults } from "./common";
import { groupAvatarPath, groupRequests, groupPath as pathOfGroup, type Group as GroupLive } from "../api/groups";
import { ownerReference } from "../api/owner";
import { IMAGE_EXTENSIONS, imageContentType, isImageFile, MAX_AVATAR_BYTES } from "../image-types";
import { notDotSegments } from "../validation";

/** One IPv4 or IPv6 address, or a subnet: an address with a prefix length that fits it (`10.0.0.0/8`). */
function isAddressOrSubnet(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/** A comma-separated list of IPv4/IPv6 addresses or subnets; empty clears the list. */
const ipRanges = z.string().refine((value) => value === "" || value.split(",").every((entry) => isAddressOrSubnet(entry.trim())), {
  message: "must be a comma-separated list of IP addresses or subnets such as 10.0.0.0/8, or empty to clear it",
});

/** A setting `null` unsets: cleared, or inherited from the instance (the server shows null then). */
const unsettable = <T extends z.ZodType>(type: T) => type.nullable().optional();

const assistantAvailability = z.enum(["default_on", "default_off", "never_on"]);

const schema = z.object({
  /** The group whose settings these are: its numeric id or full path. Never created or deleted here. */
  group: field(ownerReference, { local: true, replaceOnChange: true }),
  name: z.string().min(1).max(255).optional(),
  path: z
    .string()
    .max(255)
    .regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/, { message: "may contain only letters, digits, '_', '-' and '.', and not start with '-'" })
    .refine((value) => !value.endsWith(".git") && !value.endsWith(".atom"), { message: "must not end in .git or .atom" })
    .refine(...notDotSegments)
    .optional(),
  description: z.string().max(500).optional(),
  visibility: z.enum(["private", "internal", "public"]).optional(),
  /** A local image file (png, jpg, jpeg, gif, bmp, tiff, ico or webp, at most 200 KiB); re-uploaded when its content changes. */
  avatar: field(z.string().min(1).optional(), {
    // The server keeps no fingerprint of the file: the content hash in state decides re-uploads.
    writeOnly: true,
    fingerprint: (path) => sha256(avatarContent(String(path))),
    toApi: () => undefined, // sent apart, as a multipart file (see update)
  }),
  shareWithGroupLock: z.boolean().optional(),
  requireTwoFactorAuthentication: z.boolean().optional(),
  /** Hours. */
  twoFactorGracePeriod: z.number().int().min(0).optional(),
  /** `owner` and `administrator` as real servers accept them (`Gitlab::Access.project_creation_string_options`). */
  projectCreationLevel: z.enum(["noone", "owner", "maintainer", "developer", "administrator"]).optional(),
  subgroupCreationLevel: z.enum(["owner", "maintainer"]).optional(),
  /** null: the instance's default. */
  autoDevopsEnabled: unsettable(z.boolean()),
  /** Deprecated: use `emailsEnabled`. */
  emailsDisabled: field(z.boolean().optional(), {
    fromApi: (live) => (typeof live.emails_enabled === "boolean" ? !live.emails_enabled : live.emails_disabled),
    toApi: (value, body) => {
      body.emails_enabled = !value;
    },
  }),
  emailsEnabled: z.boolean().optional(),
  mentionsDisabled: z.boolean().optional(),
  lfsEnabled: z.boolean().optional(),
  requestAccessEnabled: z.boolean().optional(),
  /** The initial branch of new projects; "" or null: the instance's. */
  defaultBranch: field(unsettable(z.string()), { sameValue: sameOrCleared }),
  /** Deprecated: use `defaultBranchProtectionDefaults`. 0 none, 1 partial, 2 full, 3 against pushes, 4 full after the initial push. */
  defaultBranchProtection: field(z.number().int().min(0).max(4).optional(), {
    fromApi: (live) => presetOf(defaultsFromApi(live.default_branch_protection_defaults)) ?? live.default_branch_protection,
    toApi: (value, body) => {
      body.default_branch_protection_defaults = defaultsToApi(presetDefaults(Number(value)));
    },
  }),
  defaultBranchProtectionDefaults: field(branchProtectionDefaults.optional(), {
    fromApi: (live) => defaultsFromApi(live.default_branch_protection_defaults),
    toApi: (value, body) => {
      body.default_branch_protection_defaults = defaultsToApi(value as BranchProtectionDefaults);
    },
    sameValue: sameDefaults,
  }),
  /** Shown only on top-level groups, to those who can administer them. */
  enabledGitAccessProtocol: field(z.enum(["ssh", "http", "all"]).optional(), { shownToSome: true }),
  preventSharingGroupsOutsideHierarchy: field(z.boolean().optional(), { topLevelOnly: true }),
  /** `disabled_with_override` is the deprecated name of `disabled_and_overridable`. */
  sharedRunnersSetting: field(z.enum(["enabled", "disabled_and_overridable", "disabled_and_unoverridable", "disabled_with_override"]).optional(), {
    // The deprecated value is stored as its replacement: no permanent diff.
    sameValue: (declared, live) => declared === "disabled_with_override" && live === "disabled_and_overridable",
    toApi: (value, body) => {
      body.shared_runners_setting = value === "disabled_with_override" ? "disabled_and_overridable" : value;
    },
  }),
  /** "" or null disables; behind a feature flag on the server. */
  stepUpAuthRequiredOauthProvider: field(unsettable(z.string()), { sameValue: sameOrCleared }),
  /** Megabytes per job artifact; null: the instance's. */
  maxArtifactsSize: unsettable(z.number().int().min(0)),
  /** Shown only on Premium and Ultimate groups (applied on every tier). */
  experimentFeaturesEnabled: field(z.boolean().optional(), { shownToSome: true }),
  mathRenderingLimitsEnabled: z.boolean().optional(),
  lockMathRenderingLimitsEnabled: z.boolean().optional(),
  /** Shown only on Premium and Ultimate groups (applied on every tier). */
  assistantAvailability: field(assistantAvailability.optional(), { shownToSome: true }),
  /** The name real clients send for `assistantAvailability`. */
  duoAvailability: field(assistantAvailability.optional(), { aliasOf: { property: "assistantAvailability" } }),
  webBasedCommitSigningEnabled: field(z.boolean().optional(), { topLevelOnly: true, offering: "hosted" }),
  /** null: none. */
  extraSharedRunnersMinutesLimit: field(unsettable(z.number().int().min(0)), { administrator: true, tier: "premium", offering: "self-managed" }),
  /** 0 unlimited, null inherits the instance's limit. */
  sharedRunnersMinutesLimit: field(unsettable(z.number().int().min(0)), { administrator: true, tier: "premium", offering: "self-managed" }),
  /** null: none. */
  fileTemplateProjectId: field(unsettable(z.number().int().positive()), { tier: "premium" }),
  membershipLock: field(z.boolean().optional(), { tier: "premium" }),
  preventForkingOutsideGroup: field(z.boolean().optional(), { tier: "premium" }),
  /** 0 to 10,000. */
  uniqueProjectDownloadLimit: field(z.number().int().min(0).max(10_000).optional(), { tier: "ultimate", topLevelOnly: true }),
  /** 0 to 864,000 seconds (10 days). */
  uniqueProjectDownloadLimitIntervalInSeconds: field(z.number().int().min(0).max(864_000).optional(), { tier: "ultimate", topLevelOnly: true }),
  /** At most 100 usernames. */
  uniqueProjectDownloadLimitAllowlist: field(z.array(z.string().min(1)).max(100).optional(), { tier: "ultimate", topLevelOnly: true, sameValue: sameMembers }),
  /** At most 100 user ids. */
  uniqueProjectDownloadLimitAlertlist: field(z.array(z.number().int().positive()).max(100).optional(), { tier: "ultimate", topLevelOnly: true, sameValue: sameMembers }),
  autoBanUserOnExcessiveProjectsDownload: field(z.boolean().optional(), { tier: "ultimate" }),
  /** "" or null clears the list. */
  ipRestrictionRanges: field(unsettable(ipRanges), { tier: "premium", sameValue: sameOrCleared }),
  /** Comma-separated domains; "" or null clears the list. */
  allowedEmailDomainsList: field(unsettable(z.string()), { tier: "premium", sameValue: sameOrCleared }),
  wikiAccessLevel: field(z.enum(["disabled", "private", "enabled"]).optional(), { tier: "premium" }),
  assistantFeaturesEnabled: field(z.boolean().optional(), { tier: "premium", offering: "self-managed" }),
  /** The name real clients send for `assistantFeaturesEnabled`. */
  duoFeaturesEnabled: field(z.boolean().optional(), { aliasOf: { property: "assistantFeaturesEnabled" } }),
  lockAssistantFeaturesEnabled: field(z.boolean().optional(), { tier: "premium", offering: "self-managed" }),
  /** The name real clients send for `lockAssistantFeaturesEnabled`. */
  lockDuoFeaturesEnabled: field(z.boolean().optional(), { aliasOf: { property: "lockAssistantFeaturesEnabled" } }),
  onlyAllowMergeIfPipelineSucceeds: field(z.boolean().optional(), { tier: "premium" }),
  /** Only effective with `onlyAllowMergeIfPipelineSucceeds`. */
  allowMergeOnSkippedPipeline: field(z.boolean().optional(), { tier: "premium" }),
  onlyAllowMergeIfAllDiscussionsAreResolved: field(z.boolean().optional(), { tier: "premium" }),
  /** Give the prior values back on delete (default true); false leaves the settings as they are. */
  restoreOnDelete,
});

type GroupSettingsInputs = z.output<typeof schema>;
type Property = keyof GroupSettingsInputs;

/** The traits of each setting (those declared on the schema's fields, aliases resolved). */
const fields: Readonly<Record<string, FieldTraits | undefined>> = traitsOfShape(schema.shape);

/** What a setting needs beyond the group's Owner role (none: empty), in words, as errors name it. */
export const settingRequirements = (property: string): readonly string[] => requirementsInWords(fields[property]);

const SHOWN_TO_SOME = propertiesWith(fields, (traits) => traits.shownToSome) as Property[];
const ADMIN_ONLY = propertiesWith(fields, (traits) => traits.administrator);

// --- deprecated fields and their replacements -------------------------------

const presetOf = (defaults: BranchProtectionDefaults | undefined): number | undefined =>
  defaults === undefined ? undefined : [0, 1, 2, 3, 4].find((level) => sameDefaults(presetDefaults(level), defaults));

// --- the avatar --------------------------------------------------------------

function avatarProblem(path: string): string | undefined {
  if (/^[a-z]+:\/\//i.test(path)) return "must be the path of a local image file, not a URL";
  if (!isImageFile(path)) return `must be an image file of type ${IMAGE_EXTENSIONS.join(", ")}`;
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return `no readable file at ${path} (paths are relative to the Pulumi program's directory)`;
  }
  if (size > MAX_AVATAR_BYTES) return `the file is ${size} bytes; the server accepts at most 200 KiB`;
  return undefined;
}

const sha256 = (content: Uint8Array): string => createHash("sha256").update(content).digest("hex");

/**
 * A declared avatar's bytes, read up to the server's limit: `stat` bounds nothing (a link to /dev/zero
 * named `logo.png` states 0 bytes and never ends), so the check's size test is not what keeps this read small.
 */
function avatarContent(path: string): Buffer {
  try {
    return readFileWithin(path, MAX_AVATAR_BYTES, `the file ${path}`);
  } catch (error) {
    if (error instanceof ReadLimitExceeded) throw new Error(`${error.message} The server accepts at most 200 KiB.`);
    throw error;
  }
}

/** The avatar a group had before `avatar` was managed, as kept in state: enough to upload it back, no more. */
interface PriorAvatar {
  filename: string;
  contentType: string;
  contentBase64: string;
}

function isPriorAvatar(value: unknown): value is PriorAvatar {
  const avatar = value as Partial<PriorAvatar> | null;
  return typeof avatar === "object" && avatar !== null && typeof avatar.filename === "string" && typeof avatar.contentBase64 === "string";
}

/**
 * Downloads the group's current avatar to keep as the prior value: one GET,
 * only when the group has one (`avatar_url` is set). None is `null`: giving
 * that back removes ours.
 */
async function fetchPriorAvatar(ctx: EngineContext, live: GroupLive): Promise<PriorAvatar | null> {
  if (!live.avatar_url) return null;
  let file: DownloadedFile;
  try {
    file = await ctx.client.download(groupAvatarPath(live.id));
  } catch (error) {
    // Removed between the two reads: there is none to give back.
    if (error instanceof ApiError && error.notFoundSubject === "Avatar") return null;
    throw error;
  }
  if (file.content.length > MAX_AVATAR_BYTES) {
    throw new ExplainedError(
      `GroupSettings: avatar: group ${live.full_path} has an avatar of ${file.content.length} bytes, more than the 200 KiB this provider keeps in state to give it back on delete. ` +
        "Replace the group's avatar with a smaller image (or remove it) before managing `avatar`.",
    );
  }
  const filename = file.filename ?? decodeURIComponent(basename(new URL(live.avatar_url, "https://server.invalid").pathname));
  const contentType = file.contentType?.startsWith("image/") ? file.contentType : imageContentType(filename);
  return { filename, contentType, contentBase64: file.content.toString("base64") };
}

/** The file to upload for a declared avatar (a local path) or a prior one (from state); null removes the avatar. */
function avatarUpload(value: unknown): FilePart | null {
  if (typeof value === "string") return { filename: basename(value), content: avatarContent(value), contentType: imageContentType(value) };
  if (isPriorAvatar(value)) return { filename: value.filename, content: Buffer.from(value.contentBase64, "base64"), contentType: value.contentType };
  return null;
}

/** "" and null both mean "none" for the list-like text settings. */
function sameOrCleared(declared: unknown, live: unknown): boolean {
  const cleared = (value: unknown) => value === null || value === "";
  return cleared(declared) && cleared(live);
}

function sameMembers(declared: unknown, live: unknown): boolean {
  if (!Array.isArray(declared) || !Array.isArray(live)) return false;
  const sorted = (list: unknown[]) => JSON.stringify([...list].map(String).sort());
  return sorted(declared) === sorted(live);
}

const groupPath = (id: string) => "/" + id;

/** Reads the group with the fewest bytes: without the deprecated project lists. */
const readGroup = (ctx: EngineContext, path: string) => groupRequests.get(ctx.client, path, { with_projects: false });

/**
 * The settings platform-import leaves to the program's author: deprecated
 * names and other names, and settings that need more than the Owner role
 * where `unmetNeeds` says the group does not meet it (or it cannot be told).
 * Shared with the `Group` resource, which declares the same settings.
 */
export async function settingsLeftOut(unmetNeeds: (traits: FieldTraits) => Promise<string | undefined>): Promise<Map<string, string>> {
  const leftOut = new Map<string, string>([
    ["emailsDisabled", "the deprecated name of emailsEnabled"],
    ["defaultBranchProtection", "the deprecated name of defaultBranchProtectionDefaults"],
    ["duoFeaturesEnabled", "another name of assistantFeaturesEnabled"],
    ["lockDuoFeaturesEnabled", "another name of lockAssistantFeaturesEnabled"],
    ["duoAvailability", "another name of assistantAvailability"],
  ]);
  for (const name of Object.keys(schema.shape)) {
    if (settingRequirements(name).length === 0 || leftOut.has(name)) continue;
    const why = await unmetNeeds(fields[name]!);
    if (why !== undefined) leftOut.set(name, why);
  }
  return leftOut;
}

/** What platform-import leaves out of a group's settings: its identity too, which `GroupSettings` never changes unasked. */
async function leftOutOfImports(unmetNeeds: (traits: FieldTraits) => Promise<string | undefined>): Promise<Map<string, string>> {
  return new Map([
    ["name", "the group's identity; rename it in the program if you mean to"],
    ["path", "the group's identity; a new path moves the group"],
    ...(await settingsLeftOut(unmetNeeds)),
  ]);
}

/**
 * The rules across a group's settings that the schema cannot say: deprecated
 * names beside their replacements, a local avatar file, a merge setting that
 * needs another. Shared with the `Group` resource, which declares the same settings.
 */
export function settingsRules(args: Partial<GroupSettingsInputs>): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  // Deprecated forms of a setting, not aliases (another value): the aliases' own rule is the engine's.
  const both = (deprecated: Property, replacement: Property) => {
    if (args[deprecated] !== undefined && args[replacement] !== undefined) failures.push({ property: deprecated, reason: bothNames(deprecated, replacement, true) });
  };
  both("emailsDisabled", "emailsEnabled");
  both("defaultBranchProtection", "defaultBranchProtectionDefaults");
  if (args.avatar !== undefined) {
    const problem = avatarProblem(args.avatar);
    if (problem) failures.push({ property: "avatar", reason: `avatar: ${problem}` });
  }
  if (args.allowMergeOnSkippedPipeline === true && args.onlyAllowMergeIfPipelineSucceeds === false) {
    failures.push({ property: "allowMergeOnSkippedPipeline", reason: "allowMergeOnSkippedPipeline: only effective when onlyAllowMergeIfPipelineSucceeds is true" });
  }
  return failures;
}

/**
 * The group's settings as this resource declares them, each with its traits:
 * the `Group` resource declares the same (but the group itself, its avatar and
 * the option to give values back), so a setting and its gates are said once.
 */
export const groupSettingsShape = schema.shape;

export const groupSettingsDefinition = defineSettingsResource({
  name: "GroupSettings",
  words: { noun: "group settings" },
  imported: {
    word: "settings",
    listed: "group settings",
    // A subgroup is imported as a `Group`, which manages the same settings.
    on: ["top-level group"],
    isOwner: true,
    async find({ owner, locate, unmetNeeds }) {
      const address = { group: owner.id };
      const located = await locate(address);
      return { found: [{ importId: located.id, name: "", live: located.live, address, leaveOut: await leftOutOfImports(unmetNeeds) }] };
    },
  },
  notFoundSubject: "Group",
  schema,
  outputs: {
    /** The content fingerprint of each declared file (`avatar`), as last applied. */
    fingerprints: recordedOutput<Record<string, string>>(),
    /** The group's numeric id. */
    groupId: (live: GroupLive) => live.id,
    fullPath: (live) => live.full_path,
    avatarUrl: (live) => live.avatar_url,
  },

  // Reading the group needs only to see it.
  // The settings' own needs (their traits) are added to those that write.
  needs: (args, operation) => (operation === "read" ? { on: onGroup(args.group) } : { on: onGroup(args.group), role: "Owner" }),

  validate: (args) => settingsRules(args),

  async locate(ctx, args) {
    const live = await readGroup(ctx, pathOfGroup(args.group));
    // The numeric id: a rename of the group's path never loses the resource.
    return { id: `groups/${live.id}`, live };
  },
  // The server shows only a URL: the prior avatar's bytes are downloaded apart, once.
  fetchPrior: { avatar: (ctx, located) => fetchPriorAvatar(ctx, located.live) },

  async read(ctx, id, recorded) {
    // Refresh: a field the server applied but does not show keeps the value recorded.
    return withValuesNotShown(await readGroup(ctx, groupPath(id)), recorded);
  },

  async update(ctx, id, args, requested) {
    const changed = withoutUnknownPriors(args, requested);
    if (changed.size === 0) return withValuesNotShown(await readGroup(ctx, groupPath(id)), args); // nothing that can be given back
    const body = requestBody(this.fields, args, changed);
    const admin = ADMIN_ONLY.filter((name) => changed.has(name));
    let live: GroupLive;
    try {
      // The declared file, or the prior avatar given back (on delete, or when `avatar` leaves the program).
      const upload = changed.has("avatar") ? avatarUpload(args.avatar as unknown) : null;
      if (upload) {
        live = await groupRequests.putForm(ctx.client, groupPath(id), { ...(body as Record<string, never>), avatar: upload });
      } else {
        // A prior value of null (the group had no avatar) removes ours: `params[:avatar].nil?`.
        if (changed.has("avatar")) body.avatar = null;
        live = await groupRequests.put(ctx.client, groupPath(id), body);
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 403 && admin.length) {
        throw new ExplainedError(
          `GroupSettings: ${admin.join(" and ")} can be set by an administrator only: ${roleNeeded("administrator", "the instance")} (the server answered 403). Use an administrator's token or remove ${admin.length > 1 ? "them" : "it"}.`,
        );
      }
      throw error;
    }
    const ignored = [...changed].filter((name) => settingRequirements(name).length > 0 && !appliedIn(name as Property, args, live));
    if (ignored.length) {
      const details = ignored.map((name) => `${name} (needs: ${settingRequirements(name).join(", ")})`).join("; ");
      throw new ExplainedError(
        `GroupSettings: the server did not apply ${details} to group ${live.full_path}; the group's tier, the offering or the token's role does not allow it. Remove these settings or change the group's plan.`,
      );
    }
    return withValuesNotShown(live, args);
  },
});

/**
 * The group as the server answered, with the values of the SHOWN_TO_SOME
 * fields it left out taken from `values` (the declared ones just written, or
 * those recorded at the last apply): the server applied them, it only does not
 * show them to this token's user, on this tier or at this level.
 */
export function withValuesNotShown(live: GroupLive, values: Partial<GroupSettingsInputs>): GroupLive {
  const result: GroupLive = { ...live };
  for (const name of SHOWN_TO_SOME) {
    const value = values[name];
    if (value === undefined || value === null) continue;
    for (const [key, sent] of Object.entries(requestBody(fields, { [name]: value }))) if (!(key in result)) result[key] = sent;
  }
  return result;
}

/**
 * The fields to write, without prior values that could not be read: a field
 * the server did not show when it was first managed has the prior value null,
 * which a setting that cannot be unset (a boolean, an enumeration) has no
 * meaning for; giving it back would be refused, so it is left as it is.
 */
function withoutUnknownPriors(args: GroupSettingsInputs, changed: ReadonlySet<string>): Set<string> {
  const shape = schema.shape as Record<string, z.ZodType>;
  const unreadable = (name: string) => SHOWN_TO_SOME.includes(name as Property) && args[name as Property] === null && !shape[name]!.safeParse(null).success;
  return new Set([...changed].filter((name) => !unreadable(name)));
}

/** Whether the answer holds the value sent (tier-gated fields are dropped silently by real servers). */
function appliedIn(name: Property, args: GroupSettingsInputs, live: GroupLive): boolean {
  const traits = fields[name] ?? {};
  const value = traits.fromApi ? traits.fromApi(live) : live[snakeCase(name)];
  const declared = args[name];
  return JSON.stringify(value) === JSON.stringify(declared) || (value !== undefined && traits.sameValue?.(declared, value) === true);
}

export type GroupSettingsArgs = ResourceArgs<typeof schema>;

/**
 * The settings of an existing group. Only the declared settings are managed;
 * delete gives back the values they had before (unless `restoreOnDelete: false`).
 *
 * ```ts
 * new GroupSettings("acme", { group: "acme", visibility: "private", requireTwoFactorAuthentication: true, twoFactorGracePeriod: 24 });
 * ```
 */
export interface GroupSettings extends ResourceOutputs<typeof groupSettingsDefinition> {}
export class GroupSettings extends PlatformResource {
  static {
    ofKind(this, groupSettingsDefinition);
  }
  constructor(name: string, args: GroupSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
