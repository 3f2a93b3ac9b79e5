/**
 * ProjectVariable, GroupVariable, InstanceVariable: a CI/CD variable of a
 * project, a group or the instance.
 *
 * - The identity is the key and the environment scope together (a key may
 *   appear once per scope): a change of either replaces the variable, and so
 *   does `hidden`, which only a new variable takes (`masked_and_hidden`).
 * - The value is secret everywhere (state, outputs, messages, the review).
 *   A refresh reads it back and records it as it is, so a value changed by
 *   hand is drift of that variable's value, named and never shown.
 * - A hidden variable's value is never shown again: a refresh keeps the value
 *   last applied and cannot compare it (the output `valueReadable` is false,
 *   and the review says so); a takeover writes the declared value.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  ciVariableRequests,
  environmentScope,
  groupVariablesPath,
  INSTANCE_VARIABLES_PATH,
  newVariableChecks,
  projectVariablesPath,
  scopeQuery,
  unmaskableValue,
  variableIdForms,
  variableIdOf,
  variableKey,
  variableNeeds,
  variablePath,
  variablesOf,
  variableValue,
  type CiVariable,
  type VariableId,
  type VariableLevel,
} from "../api/ci-variables";
import { field } from "../api/fields";
import { parsedId } from "../api/id-form";
import { ownerOf, ownerReference } from "../api/owner";
import { defineObjectResource, type EngineContext, type FieldTraits } from "../engine/definition";
import { idPair, ownerAddress, type EstateOwner, type Found, type ImportedKind, type TerraformTarget } from "../engine/estate";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { isUnknown, requestBody } from "../engine/values";
import { ownerInput } from "./common";

/** The fields every level has. */
const common = {
  /** The variable's name: letters, digits and `_`, at most 255. A change replaces the variable. */
  key: field(variableKey, { replaceOnChange: true }),
  /** The value: always secret. Masked, it must be one the server can mask (see `masked`). */
  value: field(variableValue, { secret: true }),
  /** `env_var` (default) or `file` (the runner writes the value to a file and sets the variable to its path). */
  variableType: z.enum(["env_var", "file"]).default("env_var"),
  /** Only pipelines of protected branches and tags get it. */
  protected: z.boolean().default(false),
  /**
   * Masked in job logs. The value must then be at least 8 characters, one
   * line with no spaces, and (unless `raw`) only letters, digits and `+ = / @ : . ~ - _`.
   */
  masked: z.boolean().default(false),
  /** Not expanded: `$OTHER` in the value stays as written. */
  raw: z.boolean().default(false),
  /** What it is for (at most 255 characters). */
  description: z.string().max(255).optional(),
};

/** Masked and hidden: the value is never shown again, in the UI or the API. Only a new variable takes it (a change replaces it), and only with `masked: true`. */
const hidden = field(z.boolean().default(false), {
  replaceOnChange: true,
  fromApi: (live) => live.hidden ?? false,
  toApi: (value, body) => {
    if (value === true) body.masked_and_hidden = true;
  },
});

/** The environments that get it: `*` (default) for all, a name, or a pattern (`review/*`). A change replaces the variable. */
const scope = field(environmentScope.default("*"), { replaceOnChange: true });

const projectSchema = z.object({
  /** The project (numeric id or full path). */
  project: ownerInput(ownerReference),
  ...common,
  hidden,
  environmentScope: scope,
});
const groupSchema = z.object({
  /** The group (numeric id or full path). */
  group: ownerInput(ownerReference),
  ...common,
  hidden,
  /** The environments that get it: `*` (default) for all; another scope needs the group's Premium tier. A change replaces the variable. */
  environmentScope: scope,
});
const instanceSchema = z.object(common);

type Inputs = { project?: string | number; group?: string | number; key: string; value: string; masked: boolean; raw: boolean; hidden?: boolean; environmentScope?: string };
type Fields = Partial<Record<string, FieldTraits>>;

/** The rules of the server the schema cannot say: a masked value it can mask, hidden only with masked. The value is never shown. */
function validate(args: Inputs): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  if (args.masked && typeof args.value === "string" && !isUnknown(args.value)) {
    const why = unmaskableValue(args.value, args.raw);
    if (why) failures.push({ property: "value", reason: `${why} (the value is not shown)` });
  }
  if (args.hidden === true && !args.masked) failures.push({ property: "hidden", reason: "a hidden variable must be masked: set masked: true" });
  return failures;
}

/** The collection of the level and owner the inputs name. */
function collectionOf(level: VariableLevel, args: Inputs): string {
  if (level === "instance") return INSTANCE_VARIABLES_PATH;
  return level === "project" ? projectVariablesPath(args.project!) : groupVariablesPath(args.group!);
}

/** The id of the variable the inputs name. */
const idOf = (level: VariableLevel, args: Inputs) => variableIdOf(level, level === "project" ? args.project : args.group, args.key, args.environmentScope);

/**
 * The variable as recorded: a hidden one's value is the one last applied
 * (`applied`), as the server never shows it again.
 */
function withAppliedValue(live: CiVariable, applied: unknown): CiVariable {
  return live.hidden === true && live.value === null && typeof applied === "string" ? { ...live, value: applied } : live;
}

/** The requests of one level, shared by its kind's declaration. */
function lifecycleOf(level: VariableLevel, kind: string) {
  const parse = (id: string): VariableId => parsedId(kind, variableIdForms[level], id);
  const one = (id: VariableId) => variablePath(id.collection, id.key);
  return {
    async create(ctx: EngineContext, fields: Fields, args: Inputs) {
      const collection = collectionOf(level, args);
      const body = requestBody(fields, args as unknown as Record<string, unknown>);
      // If the answer is lost, the variable it made is found by its key and scope rather than made twice.
      const live = await ciVariableRequests.post(ctx.client, collection, body, () =>
        ciVariableRequests.find(ctx.client, collection, undefined, (found) => found.key === args.key && (level === "instance" || (found.environment_scope ?? "*") === (args.environmentScope ?? "*"))),
      );
      return { id: idOf(level, args), live: withAppliedValue(live, args.value) };
    },
    /**
     * The variable by its key and scope. At a refresh (the recorded state,
     * which holds `valueReadable`) a hidden variable's value is the one last
     * applied; read for a takeover, it is unknown, so the takeover writes it.
     */
    async read(ctx: EngineContext, id: string, args: Record<string, unknown>) {
      const parsed = parse(id);
      const live = await ciVariableRequests.get(ctx.client, one(parsed), scopeQuery(parsed.scope));
      return typeof args.valueReadable === "boolean" ? withAppliedValue(live, args.value) : live;
    },
    async update(ctx: EngineContext, fields: Fields, id: string, args: Inputs, changed: ReadonlySet<string>) {
      const parsed = parse(id);
      const body = { ...requestBody(fields, args as unknown as Record<string, unknown>, changed), ...(parsed.scope === undefined ? {} : { filter: { environment_scope: parsed.scope } }) };
      return withAppliedValue(await ciVariableRequests.put(ctx.client, one(parsed), body), args.value);
    },
    async delete(ctx: EngineContext, id: string) {
      const parsed = parse(id);
      await ctx.client.delete(one(parsed), scopeQuery(parsed.scope));
    },
  };
}

/** A found variable, as platform-import declares it: its value a secret config entry, never the program's text. */
function foundVariable(level: VariableLevel, owner: EstateOwner, variable: CiVariable): Found {
  const address = ownerAddress(owner);
  const scoped = level !== "instance" ? (variable.environment_scope ?? "*") : undefined;
  const name = scoped === undefined || scoped === "*" ? variable.key : `${variable.key}-${scoped}`;
  return {
    importId: variableIdOf(level, owner.id, variable.key, scoped),
    name,
    live: variable,
    address: { ...address, key: variable.key, ...(scoped === undefined ? {} : { environmentScope: scoped }) },
    secrets: ["value"],
    // A hidden variable's value is never shown: nobody but its keeper can set it.
    ...(typeof variable.value === "string" ? { secretValues: { value: variable.value } } : {}),
    notes: variable.hidden === true ? ["hidden: the server never shows the value; set the config entry to the value the variable holds (the first up writes it)."] : [],
  };
}

function importedOf(level: VariableLevel): ImportedKind {
  return {
    word: `${level}-variable`,
    listed: "CI/CD variables",
    on: [level],
    async find({ ctx, owner }) {
      const collection = level === "instance" ? INSTANCE_VARIABLES_PATH : variablesOf(ownerOf(ownerAddress(owner)).path);
      const variables = await ciVariableRequests.list(ctx.client, collection);
      return { found: variables.map((variable) => foundVariable(level, owner, variable)) };
    },
    async findOne({ owner, read }, key) {
      const [name, scoped] = level === "instance" ? [String(key), undefined] : (idPair(String(key)) ?? [String(key), "*"]);
      const importId = variableIdOf(level, owner.id, name, scoped);
      const live = (await read(importId, { ...ownerAddress(owner), key: name })) as CiVariable | undefined;
      return live ? { found: [foundVariable(level, owner, live)] } : { found: [], skipped: [{ what: `variable ${name}`, why: "not found" }] };
    },
  };
}

/** A Terraform state's project or group variable: `<owner>:<key>:<environment scope>`. */
function terraformVariable(kind: "project" | "group", id: string): TerraformTarget | undefined {
  const parts = idPair(id);
  const rest = parts && idPair(parts[1]);
  if (!parts || !rest || !/^[A-Za-z0-9_]+$/.test(rest[0])) return undefined;
  return { owner: { kind, ref: parts[0] }, key: `${rest[0]}:${rest[1]}` };
}

/** The outputs every level has. */
/** A hidden variable's value: the server never shows it again. */
const unreadSecrets = (live: CiVariable) => (live.hidden === true ? ["value"] : []);

const outputs = {
  /** False for a hidden variable: the server never shows its value, so a refresh cannot compare it and keeps the value last applied. */
  valueReadable: { value: (live: CiVariable) => live.hidden !== true, derivedFrom: [] },
};

/**
 * What the three kinds share, for one level: the requests, the id form, the
 * import, the outputs and the rules. The kinds' declarations add their names,
 * schemas, needs and Terraform types.
 */
/** The subject of each level's `404 ... Not Found` (`not_found!`'s word in its API). */
const NOT_FOUND_SUBJECTS: Record<VariableLevel, string> = { project: "Variable", group: "GroupVariable", instance: "InstanceVariable" };

function levelParts(level: VariableLevel, kind: string) {
  const lifecycle = lifecycleOf(level, kind);
  return {
    imported: importedOf(level),
    idForm: variableIdForms[level],
    notFoundSubject: NOT_FOUND_SUBJECTS[level],
    outputs,
    unreadSecrets,
    validate,
    create(this: { fields?: Fields }, ctx: EngineContext, args: Inputs) {
      return lifecycle.create(ctx, this.fields!, args);
    },
    read: (ctx: EngineContext, id: string, args: Inputs) => lifecycle.read(ctx, id, args as unknown as Record<string, unknown>),
    update(this: { fields?: Fields }, ctx: EngineContext, id: string, args: Inputs, changed: ReadonlySet<string>) {
      return lifecycle.update(ctx, this.fields!, id, args, changed);
    },
    delete: (ctx: EngineContext, id: string) => lifecycle.delete(ctx, id),
    // A new variable of the same key and scope cannot exist beside the old one: it goes first.
    deleteBeforeReplace: (olds: Record<string, unknown>, news: Inputs) => idOf(level, olds as unknown as Inputs) === idOf(level, news),
  };
}

export const projectVariableDefinition = defineObjectResource({
  name: "ProjectVariable",
  words: { noun: "project variable" },
  terraform: [{ type: "gitlab_project_variable", target: (id) => terraformVariable("project", id) }],
  schema: projectSchema,
  needs: (args, operation) => ({ ...variableNeeds("project", args), ...(operation === "create" ? newVariableChecks("project", args, (scoped) => variableIdOf("project", args.project, args.key, scoped)) : {}) }),
  ...levelParts("project", "ProjectVariable"),
});

export const groupVariableDefinition = defineObjectResource({
  name: "GroupVariable",
  words: { noun: "group variable" },
  terraform: [{ type: "gitlab_group_variable", target: (id) => terraformVariable("group", id) }],
  schema: groupSchema,
  needs: (args, operation) => ({
    ...variableNeeds("group", args),
    // Environment scopes of group variables are a Premium feature: below it the server makes every scope `*`.
    ...(args.environmentScope !== "*" ? { tier: "premium" as const, tierFor: { properties: ["environmentScope"], what: "an environment scope on a group variable" } } : {}),
    ...(operation === "create" ? newVariableChecks("group", args, (scoped) => variableIdOf("group", args.group, args.key, scoped)) : {}),
  }),
  ...levelParts("group", "GroupVariable"),
});

export const instanceVariableDefinition = defineObjectResource({
  name: "InstanceVariable",
  words: { noun: "instance variable" },
  terraform: [{ type: "gitlab_instance_variable", target: (id) => (/^[A-Za-z0-9_]+$/.test(id) ? { key: id } : undefined) }],
  schema: instanceSchema,
  needs: () => variableNeeds("instance", {}),
  ...levelParts("instance", "InstanceVariable"),
});

export type ProjectVariableArgs = ResourceArgs<typeof projectSchema>;
export type GroupVariableArgs = ResourceArgs<typeof groupSchema>;
export type InstanceVariableArgs = ResourceArgs<typeof instanceSchema>;

/**
 * A CI/CD variable of a project. The value is secret; a change of `key` or
 * `environmentScope` replaces the variable.
 *
 * ```ts
 * new ProjectVariable("deploy-token", { project: "acme/web", key: "DEPLOY_TOKEN", value: config.requireSecret("deployToken"), masked: true, environmentScope: "production" });
 * ```
 */
export interface ProjectVariable extends ResourceOutputs<typeof projectVariableDefinition> {}
export class ProjectVariable extends PlatformResource {
  static {
    ofKind(this, projectVariableDefinition);
  }
  constructor(name: string, args: ProjectVariableArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}

/**
 * A CI/CD variable of a group, which its projects and subgroups inherit.
 * Scopes other than `*` need the group's Premium tier.
 *
 * ```ts
 * new GroupVariable("registry-mirror", { group: "acme", key: "REGISTRY_MIRROR", value: "https://mirror.example.com" });
 * ```
 */
export interface GroupVariable extends ResourceOutputs<typeof groupVariableDefinition> {}
export class GroupVariable extends PlatformResource {
  static {
    ofKind(this, groupVariableDefinition);
  }
  constructor(name: string, args: GroupVariableArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}

/**
 * A CI/CD variable of the whole instance (self-managed; an administrator's
 * token). Instance variables have no environment scope and cannot be hidden.
 *
 * ```ts
 * new InstanceVariable("proxy", { key: "HTTPS_PROXY", value: "http://proxy.internal:3128" });
 * ```
 */
export interface InstanceVariable extends ResourceOutputs<typeof instanceVariableDefinition> {}
export class InstanceVariable extends PlatformResource {
  static {
    ofKind(this, instanceVariableDefinition);
  }
  constructor(name: string, args: InstanceVariableArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
