/**
 * CI/CD variables of a project (`/projects/:id/variables`), a group
 * (`/groups/:id/variables`) and the instance (`/admin/ci/variables`). A key
 * may appear once per environment scope, so one variable is read, written
 * and deleted by its key and `filter[environment_scope]`; the instance's
 * variables have no scope. A hidden variable's value is never shown again
 * (`value: null`).
 */
import { z } from "zod";
import { apiPath, pathSegment } from "../client";
import { requestsOf } from "./core";
import { field } from "./fields";
import { idForm } from "./id-form";
import type { Needs, Room, Uniqueness } from "./needs";
import { onGroup, onProject } from "./owner";

/** A variable as the API returns it; `value` is secret, and null for a hidden one. */
export const ciVariable = z.looseObject({
  key: z.string(),
  value: field(z.string().nullable(), { secret: true }),
  /** `env_var` or `file`. */
  variable_type: z.string(),
  protected: z.boolean(),
  masked: z.boolean(),
  /** Masked and hidden: the value is never shown (projects and groups). */
  hidden: z.boolean().optional(),
  /** Not expanded: `$OTHER` in the value stays as it is. */
  raw: z.boolean().optional(),
  /** `*` for every environment (projects and groups). */
  environment_scope: z.string().optional(),
  description: z.string().nullable().optional(),
});
export type CiVariable = z.output<typeof ciVariable>;

export const ciVariableRequests = requestsOf(ciVariable);

/** Where a variable belongs. */
export type VariableLevel = "project" | "group" | "instance";

// ---------------------------------------------------------------------------
// The server's rules (the model's validations), said once for the resources and the functions

/** A key: 1 to 255 letters, digits and `_`. */
export const variableKey = z
  .string()
  .min(1, { message: "must not be empty" })
  .max(255, { message: "must be at most 255 characters" })
  .regex(/^[A-Za-z0-9_]+$/, { message: "may hold only letters, digits and _ (the server's rule for a variable's key)" });

/** A value: at most 10,000 characters. */
export const variableValue = z.string().max(10_000, { message: "must be at most 10,000 characters" });

/** An environment scope: `*`, a name, or a pattern with `*` (`review/*`); the server's characters. */
export const environmentScope = z
  .string()
  .min(1, { message: "must not be empty (`*` is every environment)" })
  .max(255, { message: "must be at most 255 characters" })
  .regex(/^[a-zA-Z0-9_/${}. *-]+$/, { message: "may hold only letters, digits, spaces and - _ / $ { } . *" });

/** A masked value that is expanded: 8 or more of the Base64 alphabet and `@ : . ~` (`Ci::Maskable::REGEX`). */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
/** A masked raw value: 8 or more characters, none of them whitespace. */
const MASKABLE_RAW = /^\S{8,}$/;

/**
 * Why the server would refuse to mask this value, in words that never show
 * it; undefined when it may be masked.
 */
export function unmaskableValue(value: string, raw: boolean): string | undefined {
  if (value.length < 8) return "a masked value must be at least 8 characters long";
  if (raw) return MASKABLE_RAW.test(value) ? undefined : "a masked raw value must be one line with no spaces";
  return MASKABLE.test(value)
    ? undefined
    : "a masked value (not raw) may hold only letters, digits and + = / @ : . ~ - _, with no spaces (set raw: true for any other characters but whitespace)";
}

/** The most variables of each level (the plan limits' defaults). */
export const VARIABLE_LIMITS: Record<VariableLevel, number> = { project: 8000, group: 30000, instance: 25 };

// ---------------------------------------------------------------------------
// Paths and ids

/** The variables of a project or group at `ownerPath` (`/projects/acme%2Fweb` → `/projects/acme%2Fweb/variables`). */
export const variablesOf = (ownerPath: string): string => `${ownerPath}/variables`;
/** The instance's variables. */
export const INSTANCE_VARIABLES_PATH = "/admin/ci/variables";
/** A project's or group's variables, by the owner's id or full path. */
export const projectVariablesPath = (project: string | number): string => apiPath`/projects/${project}/variables`;
export const groupVariablesPath = (group: string | number): string => apiPath`/groups/${group}/variables`;
/** One variable of a collection, by key (its scope goes in `scopeQuery`). */
export const variablePath = (collection: string, key: string): string => `${collection}/${pathSegment(key)}`;
/** The query that picks one scope of a key: `filter[environment_scope]`. */
export const scopeQuery = (scope: string | undefined) => (scope === undefined ? undefined : { "filter[environment_scope]": scope });

/** A recorded variable id's parts. */
export interface VariableId {
  level: VariableLevel;
  /** The owner as the id names it (its numeric id or its path); none for the instance. */
  owner?: string;
  /** The collection's API path (`/projects/acme%2Fweb/variables`). */
  collection: string;
  key: string;
  /** The environment scope; none for the instance. */
  scope?: string;
}

/**
 * A variable's id as resources record it: `projects/<project>/variables/<key>/<scope>`
 * (`groups/...` alike; the scope encoded as a path segment, `*` as it is), or
 * `admin/ci/variables/<key>` for the instance.
 */
export function variableIdOf(level: VariableLevel, owner: string | number | undefined, key: string, scope?: string): string {
  if (level === "instance") return `admin/ci/variables/${key}`;
  return `${level}s/${encodeURIComponent(String(owner))}/variables/${key}/${encodeURIComponent(scope ?? "*")}`;
}

const OWNED_ID = /^(projects|groups)\/([^/]+)\/variables\/([A-Za-z0-9_]+)\/([^/]+)$/;
const INSTANCE_ID = /^admin\/ci\/variables\/([A-Za-z0-9_]+)$/;

export function parseVariableId(id: string): VariableId | undefined {
  const instance = INSTANCE_ID.exec(id);
  if (instance) return { level: "instance", collection: INSTANCE_VARIABLES_PATH, key: instance[1]! };
  const owned = OWNED_ID.exec(id);
  if (!owned) return undefined;
  let owner: string;
  let scope: string;
  try {
    [owner, scope] = [decodeURIComponent(owned[2]!), decodeURIComponent(owned[4]!)];
  } catch {
    return undefined;
  }
  const level = owned[1] === "projects" ? "project" : "group";
  return { level, owner, collection: `/${owned[1]}/${owned[2]}/variables`, key: owned[3]!, scope };
}

/** The id forms of each level. */
export const variableIdForms = {
  project: idForm("of the form projects/<project>/variables/<key>/<environment scope>", (id) => (id.startsWith("projects/") ? parseVariableId(id) : undefined)),
  group: idForm("of the form groups/<group>/variables/<key>/<environment scope>", (id) => (id.startsWith("groups/") ? parseVariableId(id) : undefined)),
  instance: idForm("of the form admin/ci/variables/<key>", (id) => (id.startsWith("admin/") ? parseVariableId(id) : undefined)),
} as const;

// ---------------------------------------------------------------------------
// Needs

/** What managing variables needs at each level: a project's Maintainer, a group's Owner, an administrator (self-managed). */
export function variableNeeds(level: VariableLevel, args: { project?: string | number; group?: string | number }): Needs {
  if (level === "project") return { on: onProject(args.project!), role: "Maintainer" };
  if (level === "group") return { on: onGroup(args.group!), role: "Owner" };
  return { on: { kind: "instance" }, role: "administrator", offering: "self-managed" };
}

/** The owner's variables, read once per run for the preview's checks of uniqueness and room. */
const listedVariables = (level: VariableLevel): Pick<Room, "list" | "read"> => ({
  list: `${level} CI/CD variables`,
  read: (ctx, owner) => ciVariableRequests.list(ctx.client, variablesOf(owner.apiPath)),
});

/** The preview's checks of a new project or group variable: no other of its key and scope, and room in the owner's list. */
export function newVariableChecks(level: "project" | "group", args: { key: string; environmentScope?: string }, idOf: (scope: string) => string): { unique: Uniqueness; room: Room[] } {
  const scope = args.environmentScope ?? "*";
  const listed = listedVariables(level);
  return {
    unique: {
      ...listed,
      find: (variables) => {
        const same = (variables as CiVariable[]).find((variable) => variable.key === args.key && (variable.environment_scope ?? "*") === scope);
        return same && { what: `a variable ${args.key} of environment scope ${scope}`, id: idOf(scope) };
      },
    },
    room: [{ ...listed, property: "key", max: VARIABLE_LIMITS[level], holder: `the ${level}`, items: "CI/CD variables" }],
  };
}
