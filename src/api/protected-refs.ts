/**
 * Protected branches and tags: `/projects/:id/protected_branches` and
 * `/projects/:id/protected_tags`. A rule is named by its branch or tag name,
 * wildcards included (`release/*`), which travels as one encoded path
 * segment. Every call needs the Maintainer role on the project.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { notDotSegments } from "../validation";
import { requestsOf } from "./core";
import { idForm } from "./id-form";
import { onProject, type Needs } from "./needs";

/** One entry of a rule's access levels: a role (`access_level`), a user, a group or a deploy key. */
export const refAccess = z.looseObject({
  id: z.number(),
  /** 0 no one, 30 Developers and up, 40 Maintainers and up, 60 administrators; for a user or group entry the server's own number. */
  access_level: z.number().nullable(),
  access_level_description: z.string(),
  /** Premium and Ultimate. */
  user_id: z.number().nullable().optional(),
  /** Premium and Ultimate. */
  group_id: z.number().nullable().optional(),
  deploy_key_id: z.number().nullable().optional(),
});
export type RefAccess = z.output<typeof refAccess>;

/** A protected branch rule as the API answers it. */
export const protectedBranch = z.looseObject({
  id: z.number(),
  name: z.string(),
  push_access_levels: z.array(refAccess),
  merge_access_levels: z.array(refAccess),
  /** Absent on servers without unprotect restrictions. */
  unprotect_access_levels: z.array(refAccess).optional(),
  allow_force_push: z.boolean(),
  code_owner_approval_required: z.boolean().optional(),
  /** Premium and Ultimate: the rule is its group's. */
  inherited: z.boolean().optional(),
});
export type ProtectedBranch = z.output<typeof protectedBranch>;

/** A protected tag rule as the API answers it (no id of its own). */
export const protectedTag = z.looseObject({
  name: z.string(),
  create_access_levels: z.array(refAccess),
});
export type ProtectedTag = z.output<typeof protectedTag>;

export const protectedBranchRequests = requestsOf(protectedBranch);
export const protectedTagRequests = requestsOf(protectedTag);

/** The access levels a rule's entry may name, by the names programs use, and the numbers the API takes. */
export const REF_ACCESS_LEVELS = { no_one: 0, developer: 30, maintainer: 40, admin: 60 } as const;
export type RefAccessLevelName = keyof typeof REF_ACCESS_LEVELS;
const LEVEL_NUMBERS: readonly number[] = Object.values(REF_ACCESS_LEVELS);

/** A name or number of `REF_ACCESS_LEVELS`: the number the API takes. */
export const refLevelNumber = (value: unknown): unknown => (typeof value === "string" && value in REF_ACCESS_LEVELS ? REF_ACCESS_LEVELS[value as RefAccessLevelName] : value);

/** Who a level lets in, in a reviewer's words. */
export function refLevelInWords(value: unknown): string {
  switch (refLevelNumber(value)) {
    case 0:
      return "no one";
    case 30:
      return "Developers and above";
    case 40:
      return "Maintainers and above";
    case 60:
      return "administrators";
    default:
      return String(value);
  }
}

/** An access level as a program declares it: `developer` or 30. `without` leaves out a level the field does not take. */
export function refAccessLevel(without: readonly RefAccessLevelName[] = []) {
  const names = Object.keys(REF_ACCESS_LEVELS).filter((name) => !without.includes(name as RefAccessLevelName));
  const numbers = LEVEL_NUMBERS.filter((number) => !without.some((name) => REF_ACCESS_LEVELS[name] === number));
  return z.custom<RefAccessLevelName | number>((value) => (typeof value === "string" && names.includes(value)) || (typeof value === "number" && numbers.includes(value)), {
    error: `must be one of ${names.join(", ")} or the access levels ${numbers.join(", ")}`,
  });
}

/** A rule's name as a program declares it: a branch or tag, or a wildcard (`release/*`); it travels as a path segment. */
export const ruleName = z
  .string()
  .min(1, { message: "must not be empty" })
  .max(255, { message: "must be at most 255 characters" })
  .refine((name) => name.trim() === name, { message: "must not start or end with spaces" })
  .refine(...notDotSegments);

/** The role entry of a list (no user, group or deploy key), the one a program's level is. */
export const roleEntries = (entries: readonly RefAccess[] | undefined): RefAccess[] =>
  (entries ?? []).filter((entry) => entry.user_id == null && entry.group_id == null && entry.deploy_key_id == null && entry.access_level !== null);

/**
 * The level a list lets in by role: the lowest of its role entries (the most
 * permissive), no one (0) when it has none.
 */
export function roleLevelOf(entries: readonly RefAccess[] | undefined): number {
  const levels = roleEntries(entries).map((entry) => entry.access_level as number);
  return levels.length === 0 ? 0 : Math.min(...levels);
}

export const protectedBranchesOf = (project: string | number): string => apiPath`/projects/${project}/protected_branches`;
export const protectedBranchPath = (project: string | number, name: string): string => apiPath`/projects/${project}/protected_branches/${name}`;
export const protectedTagsOf = (project: string | number): string => apiPath`/projects/${project}/protected_tags`;
export const protectedTagPath = (project: string | number, name: string): string => apiPath`/projects/${project}/protected_tags/${name}`;

/** Managing protected branches and tags needs admin_project (Maintainer); reading protected tags too (`read_protected_tags`). */
export const protectedRefNeeds = (args: { project: string | number }): Needs => ({ on: onProject(args.project), role: "Maintainer" });

/**
 * Reading a project's protected branches needs to read its code
 * (`authorize_read_code!`): the Reporter role on a private project, any
 * signed-in user on an internal or public one. Said in words, as no one
 * role is the need everywhere.
 */
export const protectedBranchReadNeeds = (args: { project: string | number }): Needs => ({
  on: onProject(args.project),
  phrase: "access to the project's code (the Reporter role on a private project)",
});

/**
 * The API changes a rule's access levels in place (`PATCH` with
 * `allowed_to_push`, `allowed_to_merge`, `allowed_to_unprotect`) on
 * Premium and Ultimate only, as doc/api/protected_branches.md says; below,
 * the server takes the PATCH's `allow_force_push` and leaves the levels.
 */
export const LEVELS_IN_PLACE = "changing a protected branch's access levels in place (the API's PATCH takes them on Premium and Ultimate only)";

/** A rule's recorded id: `projects/<project, encoded>/protected_branches/<name, encoded>`. */
const RULE_ID = /^projects\/([^/]+)\/(protected_branches|protected_tags)\/([^/]+)$/;

export interface ProtectedRefId {
  project: string;
  name: string;
  /** The rule's API path. */
  path: string;
}

function parseRuleId(id: string, collection: "protected_branches" | "protected_tags"): ProtectedRefId | undefined {
  const match = RULE_ID.exec(id);
  if (!match || match[2] !== collection) return undefined;
  try {
    const project = decodeURIComponent(match[1]!);
    const name = decodeURIComponent(match[3]!);
    return { project, name, path: "/" + id };
  } catch {
    return undefined;
  }
}

export const protectedBranchId = (project: string | number, name: string): string => protectedBranchPath(project, name).slice(1);
export const protectedTagId = (project: string | number, name: string): string => protectedTagPath(project, name).slice(1);
export const parseProtectedBranchId = (id: string) => parseRuleId(id, "protected_branches");
export const parseProtectedTagId = (id: string) => parseRuleId(id, "protected_tags");

export const protectedBranchIdForm = idForm("of the form projects/<project>/protected_branches/<name>, the project and the name URL-encoded", parseProtectedBranchId);
export const protectedTagIdForm = idForm("of the form projects/<project>/protected_tags/<name>, the project and the name URL-encoded", parseProtectedTagId);
