/** Schema pieces and helpers that several resources share. */
import { z } from "zod";
import { field } from "../api/fields";
import { ROLE_LEVELS } from "../client";
import { isHttpUrl } from "../validation";
import { named, type StepWords } from "../engine/definition";
import { idPair, type TerraformTarget } from "../engine/estate";
import { UNKNOWN } from "../engine/values";

/** What `git check-ref-format` refuses and a branch, tag or ref name can never contain. */
export const BAD_REF = /\s|\.\.|[~^:?*[\\]|@\{|\/\/|^\/|\/$|\.lock$|^-/;

/** Take over an existing matching object instead of creating a new one (Pulumi cannot import dynamic resources). An option of the provider: never sent, never a change. */
export const adoptExisting = field(z.boolean().optional(), { local: true, ignoreInDiff: true });

/** The input naming the object's owner (or the object itself): part of its address, never sent as a field, and a change replaces the object. */
export const ownerInput = <T extends z.ZodType>(type: T): T => field(type, { local: true, replaceOnChange: true });

/** A Terraform id of an object a project holds by its key: `<project>:<key>` (a branch protection's `42:release/*`). */
export function projectKeyTarget(id: string): TerraformTarget | undefined {
  const parts = idPair(id);
  return parts ? { owner: { kind: "project", ref: parts[0] }, key: parts[1] } : undefined;
}

/**
 * A group's or a project's full path, as the review names it: as the server
 * showed it (`fullPath`), else its owner's path and its own `path` (a path
 * only, where the owner is named by an id the preview did not read).
 */
export function fullPathName(values: Record<string, unknown>, ownerPath: string | undefined): string | undefined {
  const known = (value: unknown): value is string => typeof value === "string" && value !== "" && value !== UNKNOWN;
  if (known(values.fullPath)) return values.fullPath;
  if (!known(values.path)) return undefined;
  return ownerPath === undefined || /^\d+$/.test(ownerPath) ? values.path : `${ownerPath}/${values.path}`;
}

/**
 * A group's or a project's update in the review's words, where it does more
 * than set fields: a new path renames it in place (the old path keeps
 * redirecting), a new owner (`ownerInput`: `parent`, `group`) moves it there,
 * with all it holds; a project archived takes no more writes.
 */
export const pathWords =
  (ownerInput: "parent" | "group"): StepWords =>
  ({ kind, before, after, owner }) => {
    if (kind !== "update" || !before || !after) return undefined;
    const said: string[] = [];
    const moved = String(before[ownerInput]) !== String(after[ownerInput]);
    if (moved) said.push(after[ownerInput] === undefined ? (ownerInput === "parent" ? "moves it to the top level, with all it holds" : `moves it to ${owner}`) : `moves it to ${owner}, with all it holds`);
    if (before.path !== after.path && typeof after.path === "string" && after.path !== UNKNOWN) said.push(`renames its path to ${named(after.path)}: the old path keeps redirecting`);
    if (after.archived === true && before.archived !== true) said.push("archives it: the server then refuses every change to what it holds");
    if (before.archived === true && after.archived !== true) said.push("unarchives it");
    return said.length > 0 ? said.join("; ") : undefined;
  };

/** What replacing or rotating a token does: the current one stops working, and the program's readers of it are given the new one. */
export const TOKEN_REPLACED = "revokes the current token; what reads the token gets the new one in this run";

/** A token's delete and replacement in the review's words (an access token, a deploy token). */
export const tokenWords: StepWords = ({ kind }) =>
  kind === "delete" ? "revokes the token: whatever still uses it can no longer authenticate with it" : kind === "replace" ? TOKEN_REPLACED : undefined;

/** An http(s) URL; `example` completes the failure message (`must be an http(s) URL such as ...`). */
export const httpUrl = (example: string) => z.string().refine(isHttpUrl, { message: `must be an http(s) URL ${example}` });

// ---------------------------------------------------------------------------
// Default branch protection (groups and the instance share the hash and the deprecated integer)

/** Who may push or merge: no one, developers, maintainers (their roles' levels), administrators. */
const ACCESS_LEVELS = [0, ROLE_LEVELS.Developer, ROLE_LEVELS.Maintainer, 60] as const;

const accessLevels = z.array(
  z
    .object({
      accessLevel: z.union(
        ACCESS_LEVELS.map((level) => z.literal(level)),
        { message: "must be 0 (no one), 30 (developers), 40 (maintainers) or 60 (administrators)" },
      ),
    })
    .strict(),
);

/** `default_branch_protection_defaults`, in the camelCase form of its keys. */
export const branchProtectionDefaults = z
  .object({
    allowedToPush: accessLevels.optional(),
    allowForcePush: z.boolean().optional(),
    allowedToMerge: accessLevels.optional(),
    developerCanInitialPush: z.boolean().optional(),
  })
  .strict();
export type BranchProtectionDefaults = z.output<typeof branchProtectionDefaults>;

type ApiProtectionDefaults = { allowed_to_push?: { access_level: number }[]; allow_force_push?: boolean; allowed_to_merge?: { access_level: number }[]; developer_can_initial_push?: boolean };

/** The presets the deprecated integer stands for (`Gitlab::Access::BranchProtection`). */
export function presetDefaults(level: number): Required<BranchProtectionDefaults> {
  const developer = [{ accessLevel: ROLE_LEVELS.Developer }];
  const maintainer = [{ accessLevel: ROLE_LEVELS.Maintainer }];
  const presets: Record<number, [typeof developer | typeof maintainer, boolean, typeof developer | typeof maintainer, boolean]> = {
    0: [developer, true, developer, false],
    1: [developer, false, maintainer, false],
    2: [maintainer, false, maintainer, false],
    3: [maintainer, false, developer, false],
    4: [maintainer, false, maintainer, true],
  };
  const [push, force, merge, initial] = presets[level] ?? presets[2]!;
  return { allowedToPush: push, allowForcePush: force, allowedToMerge: merge, developerCanInitialPush: initial };
}

/** What an absent key of the hash means to the server (compare with `sameDefaults`). */
const ABSENT_DEFAULTS: Required<BranchProtectionDefaults> = { allowedToPush: [], allowForcePush: false, allowedToMerge: [], developerCanInitialPush: false };

/**
 * The server's hash in camelCase, with exactly the keys the server has: a
 * settings resource records it as the prior value and writes it back on delete,
 * so a key added here (`developer_can_initial_push: false` where the server had
 * none) would change the hash that destroy gives back.
 */
export function defaultsFromApi(value: unknown): BranchProtectionDefaults | undefined {
  if (!value || typeof value !== "object") return undefined;
  const api = value as ApiProtectionDefaults;
  const levels = (list: { access_level: number }[]) => list.map((entry) => ({ accessLevel: entry.access_level as (typeof ACCESS_LEVELS)[number] }));
  const defaults: BranchProtectionDefaults = {};
  if (api.allowed_to_push !== undefined) defaults.allowedToPush = levels(api.allowed_to_push);
  if (api.allow_force_push !== undefined) defaults.allowForcePush = api.allow_force_push;
  if (api.allowed_to_merge !== undefined) defaults.allowedToMerge = levels(api.allowed_to_merge);
  if (api.developer_can_initial_push !== undefined) defaults.developerCanInitialPush = api.developer_can_initial_push;
  return defaults;
}

export function defaultsToApi(value: BranchProtectionDefaults): ApiProtectionDefaults {
  const levels = (list: { accessLevel: number }[] | undefined) => list?.map((entry) => ({ access_level: entry.accessLevel }));
  const api: ApiProtectionDefaults = {};
  if (value.allowedToPush) api.allowed_to_push = levels(value.allowedToPush);
  if (value.allowForcePush !== undefined) api.allow_force_push = value.allowForcePush;
  if (value.allowedToMerge) api.allowed_to_merge = levels(value.allowedToMerge);
  if (value.developerCanInitialPush !== undefined) api.developer_can_initial_push = value.developerCanInitialPush;
  return api;
}

/** Declared keys match the live ones (a key the server lacks has its meaning: none, false); undeclared keys are the server's business. */
export function sameDefaults(declared: unknown, live: unknown): boolean {
  const wanted = declared as BranchProtectionDefaults;
  const actual = live as BranchProtectionDefaults;
  return (Object.keys(wanted) as (keyof BranchProtectionDefaults)[]).every((key) => JSON.stringify(wanted[key]) === JSON.stringify(actual[key] ?? ABSENT_DEFAULTS[key]));
}

