/**
 * PipelineSchedule: a project's recurring pipeline with its variables and
 * inputs.
 *
 * - The create endpoint takes the schedule and its inputs but no variables:
 *   a create is one POST plus one POST per variable. If a variable fails
 *   after the schedule exists, the create fails with the schedule's id
 *   (PartialCreateError): it stays in the state with the variables that were
 *   set, and the next `up` adds the rest.
 * - Updates touch only what changed: one PUT for the schedule's own fields
 *   and changed or removed inputs (`destroy: true` removes one), and one
 *   request per added, changed or removed variable.
 * - The server expands a short ref (`main` → `refs/heads/main`); either form
 *   may be declared and neither shows a diff. `nextRunAt` is the server's and
 *   never a diff.
 * - Only the schedule's owner may change it. With `takeOwnership`, a change
 *   refused with 403 takes ownership (Maintainer+) and is sent again.
 * - Variables are reviewable one by one: a program declares a list
 *   (`[{ key, value, variableType }]`), which the resource class turns into a
 *   map by key (`{ DEPLOY_TOKEN: { value, variableType } }`) whose values are
 *   as secret as the program gave them. The engine keeps secrecy per field of
 *   an object but not per item of a list, so in a list one secret value made
 *   the whole list one secret, and a preview could not say which variable
 *   changed. In the map, keys and types are plain and a preview names
 *   `variables.DEPLOY_TOKEN.value`, masked when secret and shown when plain.
 *   The `variables` output is secret as a whole (a refresh may find values
 *   nobody declared). State written with
 *   the list (earlier releases) is read as the map (`migrate`).
 * - A refresh records the variables the server holds; a value changed out of
 *   band shows on that variable in the next preview, and `up` puts it back.
 *   A variable added out of band is recorded in the refreshed inputs with its
 *   type but not its value: the engine marks a refreshed input secret only
 *   where the recorded inputs had a secret, and that one had none. It still
 *   shows as removed in the preview, and `up` removes it.
 * - Variable values never appear in error messages.
 */
import * as pulumi from "@pulumi/pulumi";
import equal from "fast-deep-equal";
import { z } from "zod";
import { field } from "../api/fields";
import { ApiError } from "../client";
import { cronProblem, timeZoneProblem } from "../cron";
import { defineObjectResource, type EngineContext, type Operation } from "../engine/definition";
import { PartialCreateError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { isUnknown, requestBody } from "../engine/values";
import { onProject, type Needs } from "../api/needs";
import { adoptExisting, BAD_REF, ownerInput } from "./common";
import { ownerReference } from "../api/owner";
import {
  pipelineScheduleRequests,
  pipelineScheduleId,
  pipelineSchedulesPath,
  scheduleVariableRequests,
  scheduleVariablePath as variablePath,
  type PipelineSchedule as PipelineScheduleLive,
  type ScheduleVariable as LiveVariable,
  pipelineScheduleIdForm,
  scheduleSummaryRequests,
} from "../api/pipeline-schedules";
import { type EstateReading, type Found, idPair, wholeNumber } from "../engine/estate";
import { parsedId } from "../api/id-form";

export type VariableType = "env_var" | "file";
export type InputValue = string | number | boolean | (string | number | boolean)[];

const VARIABLE_KEY = /^[A-Za-z0-9_]+$/;

/** Why a variable key is refused, or undefined: at most 255 characters of A-Z, a-z, 0-9 and `_`. */
function keyProblem(key: string): string | undefined {
  if (isUnknown(key)) return undefined;
  if (key.length < 1 || key.length > 255) return "must be 1 to 255 characters long";
  if (!VARIABLE_KEY.test(key)) return "may contain only the characters A-Z, a-z, 0-9 and _";
  return undefined;
}

const variableType = z.enum(["env_var", "file"], { message: 'must be "env_var" or "file"' }).default("env_var");

/** A variable as a program declares it, in a list. */
const listedVariable = z.strictObject({
  /** At most 255 characters of A-Z, a-z, 0-9 and `_`; unique within the schedule. */
  key: z.string(),
  /** Secret when the program gives it as one (`config.requireSecret`, `pulumi.secret`). */
  value: z.string(),
  /** `env_var` (default) or `file`. */
  variableType,
});
export type PipelineScheduleVariable = z.input<typeof listedVariable>;
/** Built once: building a zod schema at every call would slow every update (variables are read at every one). */
const listedVariables = z.array(listedVariable);

/** A variable in the map by key that the engine holds: its value secret, its type plain. */
const variableSettings = z.strictObject({ value: z.string(), variableType });
type VariableSettings = z.output<typeof variableSettings>;
/** The variables by key: what the checked inputs, the state and the previews hold. */
export type VariableMap = Record<string, VariableSettings>;

/**
 * A list of variables as the map by key (a map is kept as it is). The list is
 * what programs declare and what earlier releases recorded; a key listed twice
 * is refused.
 */
function variablesAsMap(value: unknown, ctx?: z.core.$RefinementCtx): unknown {
  if (!Array.isArray(value)) {
    if (value !== undefined && (value === null || typeof value !== "object")) ctx?.addIssue({ code: "custom", message: VARIABLES_SHAPE, input: value });
    return value;
  }
  const listed = listedVariables.safeParse(value);
  if (!listed.success) {
    for (const issue of listed.error.issues) ctx?.addIssue({ code: "custom", path: issue.path, message: issue.message, input: value });
    return {};
  }
  const map: VariableMap = {};
  listed.data.forEach(({ key, value: text, variableType: type }, index) => {
    const problem = keyProblem(key);
    if (problem) ctx?.addIssue({ code: "custom", path: [index, "key"], message: problem, input: key });
    else if (key in map && !isUnknown(key)) ctx?.addIssue({ code: "custom", message: `the key ${key} appears more than once; keys must be unique`, input: value });
    map[key] = { value: text, variableType: type };
  });
  return map;
}

const VARIABLES_SHAPE = "must be a list of { key, value, variableType } (or a map by key of { value, variableType })";

const variables = z.preprocess(
  variablesAsMap,
  z.record(z.string(), variableSettings).superRefine((map, ctx) => {
    for (const key of Object.keys(map)) {
      const problem = keyProblem(key);
      if (problem) ctx.addIssue({ code: "custom", path: [key], message: `the key ${JSON.stringify(key)} ${problem}` });
    }
  }),
);

const inputValue = z.union(
  [z.string(), z.number().finite(), z.boolean(), z.array(z.union([z.string(), z.number().finite(), z.boolean()]))],
  { message: "must be a string, a number, a boolean or an array of those" },
);

const input = z.strictObject({
  name: z.string().min(1, { message: "must not be empty" }),
  value: inputValue,
});
export type PipelineScheduleInput = z.input<typeof input>;

const cron = z.string().superRefine((value, ctx) => {
  const problem = cronProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

const cronTimezone = z
  .string()
  .default("UTC")
  .superRefine((value, ctx) => {
    const problem = timeZoneProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

const schema = z.object({
  /** The project (numeric id or full path). */
  project: ownerInput(ownerReference),
  description: z.string().refine((text) => text.trim() !== "", { message: "must not be blank" }),
  /** A branch or tag name (`main`, expanded by the server) or a full ref (`refs/heads/main`, `refs/tags/v1.0`); recorded as declared. */
  ref: field(
    z.string().min(1, { message: "must not be empty" }).refine((ref) => !BAD_REF.test(ref), {
      message: "must be a branch or tag name such as main, or a full ref such as refs/heads/main (no spaces, '..', '~', '^', ':', '?', '*', '[' or '\\')",
    }),
    { sameValue: sameRef },
  ),
  /** Five fields (minute hour day-of-month month day-of-week), or six with seconds first; names and `@daily`-style nicknames allowed. */
  cron,
  /** An IANA identifier (`Europe/Berlin`) or a Rails zone name (`Pacific Time (US & Canada)`); default UTC. */
  cronTimezone,
  /** Default true. */
  active: z.boolean().default(true),
  /** A list of `{ key, value, variableType }` (or the map by key); a value is secret when given as one. */
  variables: field(variables.optional(), {
    secretParts: { valuesOf: variableValues, mark: markVariableSecrets, refreshedInput: refreshedVariables },
    fromApi: (live) => variablesFromApi((live as PipelineScheduleLive).variables),
    // The same variables, whichever form each side is in (state from earlier releases holds a list).
    sameValue: (declared, live) => equal(asMap(declared), asMap(live)),
    // Not a field of the schedule's own requests: variables have their own endpoints.
    toApi: () => undefined,
  }),
  inputs: field(z.array(input).optional(), {
    fromApi: (live) => inputsFromApi((live as PipelineScheduleLive).inputs),
    sameValue: sameEntries<Input>((i) => i.name),
    toApi: (value, body) => {
      body.inputs = (value as Input[]).map((entry) => ({ name: entry.name, value: entry.value }));
    },
  }),
  /** When the schedule belongs to someone else, take ownership (Maintainer+) instead of failing with 403. */
  takeOwnership: field(z.boolean().optional(), { local: true, ignoreInDiff: true }),
  adoptExisting,
});

type ScheduleInputs = z.output<typeof schema>;
/** One variable with its key, as the requests send it. */
type Variable = VariableSettings & { key: string };
type Input = z.output<typeof input>;

/** The schedule's owner, as the server shows it now. */
const scheduleOwner = async (ctx: EngineContext, id: string): Promise<string | null> => (await pipelineScheduleRequests.get(ctx.client, parseId(id))).owner?.username ?? null;

/**
 * What each operation needs of the token's user (Ci::PipelineSchedulePolicy): only the owner (still a Developer)
 * changes a schedule; a Maintainer takes ownership first (`takeOwnership`), and deletes it without.
 */
function scheduleNeeds(args: ScheduleInputs, operation: Operation): Pick<Needs, "role" | "phrase" | "ownership"> {
  switch (operation) {
    case "create":
      return { role: "Developer" };
    case "read":
      return { role: "Reporter" };
    case "update":
      return {
        role: "Developer",
        phrase: "ownership of the schedule (or the Maintainer role, with takeOwnership: true)",
        ownership: { what: "the schedule", ownerOf: scheduleOwner, ...(args.takeOwnership ? { orRole: "Maintainer" as const } : {}) },
      };
    case "delete":
      return { role: "Developer", phrase: "ownership of the schedule or the Maintainer role", ownership: { what: "the schedule", ownerOf: scheduleOwner, orRole: "Maintainer" } };
  }
}

/** The fields the schedule's own PUT carries (variables have their own endpoints). */
const SCHEDULE_FIELDS = ["description", "ref", "cron", "cronTimezone", "active", "inputs"] as const;

/** `main` and `refs/heads/main` (or `refs/tags/main`) name the same ref. */
export function sameRef(declared: unknown, live: unknown): boolean {
  if (declared === live) return true;
  return typeof declared === "string" && (live === `refs/heads/${declared}` || live === `refs/tags/${declared}`);
}

/** The same entries in any order. */
function sameEntries<T>(identity: (entry: T) => string) {
  return (declared: unknown, live: unknown): boolean => {
    if (!Array.isArray(declared) || !Array.isArray(live) || declared.length !== live.length) return false;
    const byIdentity = new Map((live as T[]).map((entry) => [identity(entry), entry]));
    return (declared as T[]).every((entry) => equal(entry, byIdentity.get(identity(entry))));
  };
}

const variablesFromApi = (list: LiveVariable[] | undefined): VariableMap | undefined =>
  list && Object.fromEntries(list.map((v) => [v.key, { value: v.value, variableType: (v.variable_type ?? "env_var") as VariableType }]));

/** The map by key of a declared or recorded value, list or map (undefined stays undefined). */
function asMap(value: unknown): VariableMap | undefined {
  return value === undefined || value === null ? undefined : (variablesAsMap(value) as VariableMap);
}

const entriesOf = (map: VariableMap | undefined): Variable[] => Object.entries(map ?? {}).map(([key, settings]) => ({ key, ...settings }));

/** The secret values among declared or recorded variables (list or map). */
function variableValues(value: unknown): string[] {
  return Array.isArray(value)
    ? value.flatMap((v) => (typeof v?.value === "string" ? [v.value] : []))
    : Object.values((value ?? {}) as Record<string, { value?: unknown }>).flatMap((v) => (typeof v?.value === "string" ? [v.value] : []));
}

/**
 * Program side: the declared list as the map by key, keys and types plain and
 * each value as secret as the program gave it: a value from
 * `config.requireSecret` or `pulumi.secret` is secret, a plain string is
 * shown. When the keys are not known while the program runs (the list, or a
 * variable, is an Output), the map is built once they are; an Output's
 * secrecy covers all it holds, so its values are made secret and its keys and
 * types stay plain.
 */
function markVariableSecrets(declared: unknown): unknown {
  const asMapOf = (list: unknown[], secret: boolean) => {
    const map: Record<string, unknown> = {};
    for (const entry of list as { key: string; value: unknown; variableType?: unknown }[]) {
      if (entry.key in map) throw new Error(`variables: the key ${entry.key} appears more than once; keys must be unique`);
      map[entry.key] = settingsOf(entry, secret);
    }
    return map;
  };
  const plainKeys = Array.isArray(declared) && declared.every((entry) => isPlainObject(entry) && typeof entry.key === "string");
  if (plainKeys) return asMapOf(declared, false);
  if (isPlainObject(declared)) {
    // Already the map by key.
    return Object.fromEntries(Object.entries(declared).map(([key, settings]) => [key, isPlainObject(settings) ? settingsOf(settings, false) : withSecrecy(settings, (plain, secret) => settingsOf(plain as object, secret))]));
  }
  return withSecrecy(declared, (list, secret) => (Array.isArray(list) ? asMapOf(list, secret) : list));
}

/** A variable's settings with its value secret when it was given so (or when `secret`: it came in a secret whole). */
function settingsOf(entry: { value?: unknown; variableType?: unknown }, secret: boolean): Record<string, unknown> {
  return { value: secret ? pulumi.secret(entry.value) : entry.value, ...(entry.variableType !== undefined ? { variableType: entry.variableType } : {}) };
}

/** A declared value that is an object of the program, not an Output or a promise. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !pulumi.Output.isInstance(value) && !(value instanceof Promise);
}

/** The value resolved without its secrecy, built again knowing whether it was secret. */
function withSecrecy(input: unknown, build: (plain: unknown, secret: boolean) => unknown): pulumi.Output<unknown> {
  const whole = pulumi.output(input) as pulumi.Output<unknown>;
  return pulumi.all([pulumi.unsecret(whole), pulumi.output(pulumi.isSecret(whole))]).apply(([plain, secret]) => build(plain, secret));
}

/**
 * The refreshed input: the variables the program declared at the last apply
 * with their values as found; others (added out of band) with their type only
 * (see the module comment). State without the list of declared keys comes from
 * an earlier release, whose inputs held the variables as one secret: the
 * engine marks them all secret, values included.
 */
function refreshedVariables(output: unknown, recorded: Record<string, unknown>): unknown {
  const map = asMap(output);
  const declaredKeys = recorded.declaredVariableKeys;
  if (!map || !Array.isArray(declaredKeys)) return map;
  return Object.fromEntries(Object.entries(map).map(([key, settings]) => [key, declaredKeys.includes(key) ? settings : { variableType: settings.variableType }]));
}

const inputsFromApi = (list: PipelineScheduleLive["inputs"]): Input[] | undefined => list?.map((i) => ({ name: i.name, value: i.value as InputValue }));

const variableBody = (v: Variable) => ({ key: v.key, value: v.value, variable_type: v.variableType });
const liveVariable = (v: Variable): LiveVariable => ({ key: v.key, value: v.value, variable_type: v.variableType });

/** The resource id is the schedule's API path, e.g. `projects/acme%2Fweb/pipeline_schedules/12`. */
function parseId(id: string): string {
  return parsedId("PipelineSchedule", pipelineScheduleIdForm, id);
}

const collectionOf = (args: ScheduleInputs): string => pipelineSchedulesPath(args.project);
const idOf = (args: ScheduleInputs, live: PipelineScheduleLive): string => pipelineScheduleId(args.project, live.id);

/** The project's schedule matching `matches`, read in full (the list has no variables or inputs). */
async function findSchedule(
  ctx: EngineContext,
  args: ScheduleInputs,
  matches: (schedule: PipelineScheduleLive) => boolean,
): Promise<PipelineScheduleLive | undefined> {
  const found = await pipelineScheduleRequests.find(ctx.client, collectionOf(args), undefined, matches);
  return found ? pipelineScheduleRequests.get(ctx.client, `${collectionOf(args)}/${found.id}`) : undefined;
}

/** The inputs entries of a PUT: new and changed ones with their value, removed ones with `destroy`. */
function inputsDelta(before: Input[], after: Input[]): Record<string, unknown>[] {
  const previous = new Map(before.map((entry) => [entry.name, entry.value]));
  const wanted = new Set(after.map((entry) => entry.name));
  return [
    ...after.filter((entry) => !previous.has(entry.name) || !equal(previous.get(entry.name), entry.value)).map((entry) => ({ name: entry.name, value: entry.value })),
    // `destroy` is what the server's parameters declare (the documentation also names `_destroy`).
    ...before.filter((entry) => !wanted.has(entry.name)).map((entry) => ({ name: entry.name, destroy: true })),
  ];
}

/** The errors of the settled requests, first one first; the fulfilled values. */
function settle<T>(results: PromiseSettledResult<T>[]): { values: T[]; errors: unknown[] } {
  const values: T[] = [];
  const errors: unknown[] = [];
  for (const result of results) {
    if (result.status === "fulfilled") values.push(result.value);
    else errors.push(result.reason);
  }
  return { values, errors };
}

const isStatus = (error: unknown, status: number): error is ApiError => error instanceof ApiError && error.status === status;
const isKeyTaken = (error: unknown): boolean => isStatus(error, 400) && (error.fieldErrors?.key ?? []).some((m) => /taken/.test(m));
const isVariableMissing = (error: unknown): boolean => isStatus(error, 404) && error.notFoundSubject === "Pipeline Schedule Variable";

/**
 * POSTs a variable. If the answer is lost, the variable the POST may have set
 * is looked up by key: found with the wanted value and type, it is the result;
 * otherwise the POST is sent again (and a key taken meanwhile is the caller's
 * "already exists").
 */
function postVariable(ctx: EngineContext, schedulePath: string, wanted: Variable): Promise<LiveVariable> {
  return scheduleVariableRequests.post(ctx.client, `${schedulePath}/variables`, variableBody(wanted), async () => {
    try {
      const live = await scheduleVariableRequests.get(ctx.client, variablePath(schedulePath, wanted.key));
      return live.value === wanted.value && (live.variable_type ?? "env_var") === wanted.variableType ? live : undefined;
    } catch (error) {
      if (isVariableMissing(error)) return undefined;
      throw error;
    }
  });
}

/**
 * Variable writes that converge from any starting point: a create whose key
 * exists updates it, an update of a missing key creates it, a delete of a
 * missing key is done. So an update that starts from a stale state (a
 * failed earlier update) still ends where the program says.
 */
const variableWrites = {
  async create(ctx: EngineContext, schedulePath: string, wanted: Variable): Promise<void> {
    try {
      await postVariable(ctx, schedulePath, wanted);
    } catch (error) {
      if (!isKeyTaken(error)) throw error;
      await ctx.client.put(variablePath(schedulePath, wanted.key), { value: wanted.value, variable_type: wanted.variableType });
    }
  },
  async update(ctx: EngineContext, schedulePath: string, wanted: Variable): Promise<void> {
    try {
      await ctx.client.put(variablePath(schedulePath, wanted.key), { value: wanted.value, variable_type: wanted.variableType });
    } catch (error) {
      if (!isVariableMissing(error)) throw error;
      await postVariable(ctx, schedulePath, wanted);
    }
  },
  async delete(ctx: EngineContext, schedulePath: string, key: string): Promise<void> {
    try {
      await ctx.client.delete(variablePath(schedulePath, key));
    } catch (error) {
      if (!isVariableMissing(error)) throw error;
    }
  },
};

/**
 * The live object as recorded in the state, for an update that sends no
 * request returning the schedule: only what the fields and outputs read (the
 * state keeps no more of the answer).
 */
function liveFromState(olds: Record<string, unknown>): PipelineScheduleLive {
  const variables = asMap(olds.variables);
  return <PipelineScheduleLive>{
    id: olds.scheduleId as number,
    description: olds.description as string,
    ref: olds.ref as string,
    cron: olds.cron as string,
    cron_timezone: olds.cronTimezone as string,
    active: olds.active as boolean,
    next_run_at: (olds.nextRunAt as string | null | undefined) ?? null,
    owner: typeof olds.owner === "string" ? { username: olds.owner } : null,
    last_pipeline: (olds.lastPipeline as PipelineScheduleLive["last_pipeline"]) ?? null,
    variables: variables && entriesOf(variables).map(liveVariable),
    inputs: olds.inputs as Input[] | undefined,
  };
}

/** A project's schedule as platform-import declares it; its variables stay unmanaged, said in a note. */
async function importedSchedule({ owner, read }: EstateReading, scheduleId: number): Promise<Found | undefined> {
  const importId = pipelineScheduleId(owner.id, scheduleId);
  const address = { project: owner.id };
  const live = (await read(importId, address)) as PipelineScheduleLive | undefined;
  if (!live) return undefined;
  const variables = live.variables ?? [];
  const notes =
    variables.length > 0 ? [`variables are left unmanaged (${variables.length} on the server): their values may be secrets, which the import never writes; declare them to manage them.`] : [];
  return { importId, name: String(live.description ?? ""), live, address, notes };
}

export const pipelineScheduleDefinition = defineObjectResource({
  name: "PipelineSchedule",
  words: { noun: "pipeline schedule" },
  ownership: { option: "takeOwnership", output: "owner" },
  imported: {
    word: "schedule",
    listed: "pipeline schedules",
    on: ["project"],
    async find(reading) {
      const summaries = await scheduleSummaryRequests.list(reading.ctx.client, pipelineSchedulesPath(reading.owner.id));
      const found: Found[] = [];
      for (const summary of summaries.sort((a, b) => a.id - b.id)) {
        const schedule = await importedSchedule(reading, summary.id);
        if (schedule) found.push(schedule);
      }
      return { found, collections: [{ address: { project: reading.owner.id }, members: found.map((one) => one.importId) }] };
    },
    async findOne(reading, key) {
      const schedule = await importedSchedule(reading, Number(key));
      return { found: schedule ? [schedule] : [] };
    },
  },
  terraform: [
    {
      // `<project id>:<schedule id>`
      type: "gitlab_pipeline_schedule",
      target(id) {
        const parts = idPair(id);
        const schedule = wholeNumber(parts?.[1]);
        return parts && schedule !== undefined ? { owner: { kind: "project", ref: parts[0] }, key: schedule } : undefined;
      },
    },
    { type: "gitlab_pipeline_schedule_variable", target: () => ({ skipped: "schedule variables are left unmanaged by platform-import (their values may be secrets); the schedule is imported when the state has it" }) },
  ],
  idForm: pipelineScheduleIdForm,
  notFoundSubject: "Pipeline Schedule",
  schema,
  outputs: {
    /** The schedule's numeric id on the server. */
    scheduleId: (live: PipelineScheduleLive) => live.id,
    /** Username of the schedule's owner (pipelines run as this user). */
    owner: (live) => live.owner?.username ?? null,
    /** When the server will run it next (ISO 8601); changes over time, never a diff. */
    nextRunAt: (live) => live.next_run_at ?? null,
    /** The last pipeline the schedule ran: id, sha, ref and status, or null. */
    lastPipeline: (live) => live.last_pipeline ?? null,
    /** The keys of the variables the program declared at the last apply (a refresh records only their values in the inputs). */
    declaredVariableKeys: (_live, args): string[] =>
      // Read gets the recorded state as args, which carries the keys of the last apply.
      (args as { declaredVariableKeys?: string[] }).declaredVariableKeys ?? Object.keys(asMap(args.variables) ?? {}).sort(),
  },
  needs: (args, operation) => ({
    on: onProject(args.project),
    ...scheduleNeeds(args, operation),
    // The server expands a short ref to the one branch or tag of that name, and refuses it as ambiguous otherwise.
    ...((operation === "create" || operation === "update") && typeof args.ref === "string" && !isUnknown(args.ref) ? { refs: [{ property: "ref", name: args.ref, kind: "branch or tag" as const }] } : {}),
  }),
  validate(args) {
    const failures: { property: string; reason: string }[] = [];
    const duplicates = (names: string[]) => [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
    for (const name of duplicates((args.inputs ?? []).map((i) => i.name))) {
      failures.push({ property: "inputs", reason: `inputs: the input ${name} appears more than once; names must be unique` });
    }
    return failures;
  },

  async create(ctx, args) {
    const body = requestBody(this.fields, args);
    // If the response to the POST is lost, the schedule it created is found rather than made twice.
    const live = await pipelineScheduleRequests.post(ctx.client, collectionOf(args), body, () =>
      findSchedule(ctx, args, (s) => s.description === args.description && sameRef(args.ref, s.ref) && s.cron === args.cron),
    );
    const id = idOf(args, live);
    const wanted = entriesOf(args.variables);
    const { values: created, errors } = settle(
      await Promise.allSettled(
        wanted.map(async (v) => {
          await postVariable(ctx, parseId(id), v);
          return liveVariable(v);
        }),
      ),
    );
    const withVariables: PipelineScheduleLive = { ...live, variables: [...(live.variables ?? []), ...created] };
    if (errors.length > 0) {
      const first = errors[0] instanceof Error ? errors[0].message : String(errors[0]);
      throw PartialCreateError.fromLive(
        `The schedule was created (${id}) but ${errors.length} of its ${wanted.length} variables could not be set: ${first} ` +
          "It is recorded with the variables that were set; run `pulumi up` again to add the others.",
        id,
        withVariables,
      );
    }
    return { id, live: withVariables };
  },

  async read(ctx, id) {
    return pipelineScheduleRequests.get(ctx.client, parseId(id));
  },

  async update(ctx, id, args, changed, olds) {
    const path = parseId(id);
    let latest: PipelineScheduleLive | undefined;
    let ownership: Promise<void> | undefined;
    /** A write, sent again after taking ownership when the owner is someone else and `takeOwnership` says so. */
    const asOwner = async <T>(write: () => Promise<T>): Promise<T> => {
      try {
        return await write();
      } catch (error) {
        if (!args.takeOwnership || !isStatus(error, 403)) throw error;
        // Taking ownership again is harmless (the owner gets 200), so a lost answer is sent again:
        // nothing was created that a retry could duplicate.
        ownership ??= pipelineScheduleRequests.post(ctx.client, `${path}/take_ownership`, {}, async () => undefined).then((taken) => {
          latest = taken;
        });
        await ownership;
        return write();
      }
    };

    let variables = asMap(olds.variables);
    if (changed.has("variables") && args.variables) {
      const before = new Map(entriesOf(asMap(olds.variables)).map((v) => [v.key, v]));
      const after = entriesOf(args.variables);
      const wantedKeys = new Set(after.map((v) => v.key));
      const writes = [
        ...after.filter((v) => !before.has(v.key)).map((v) => () => variableWrites.create(ctx, path, v)),
        ...after.filter((v) => before.has(v.key) && !equal(before.get(v.key), v)).map((v) => () => variableWrites.update(ctx, path, v)),
        ...[...before.keys()].filter((key) => !wantedKeys.has(key)).map((key) => () => variableWrites.delete(ctx, path, key)),
      ];
      const { errors } = settle(await Promise.allSettled(writes.map((write) => asOwner(write))));
      if (errors.length > 0) throw errors[0];
      variables = args.variables;
    }

    const scheduleChanges = new Set(SCHEDULE_FIELDS.filter((name) => changed.has(name)));
    if (scheduleChanges.size > 0) {
      scheduleChanges.delete("inputs");
      const body = requestBody(this.fields, args, scheduleChanges);
      if (changed.has("inputs") && args.inputs) body.inputs = inputsDelta(olds.inputs ?? [], args.inputs);
      // The answer is the whole schedule, variables included.
      return asOwner(() => pipelineScheduleRequests.put(ctx.client, path, body));
    }
    // No request returned the schedule: the recorded one (or the one take_ownership returned), with the variables now set.
    return { ...(latest ?? liveFromState(olds)), variables: variables && entriesOf(variables).map(liveVariable) };
  },

  async delete(ctx, id) {
    await ctx.client.delete(parseId(id));
  },

  /** Earlier releases recorded the variables as a list; today's state holds the map by key. */
  migrate(recorded) {
    return Array.isArray(recorded.variables) ? { ...recorded, variables: asMap(recorded.variables) } : recorded;
  },

  async adopt(ctx, args) {
    const found = await findSchedule(ctx, args, (s) => s.description === args.description && sameRef(args.ref, s.ref));
    return found ? { id: idOf(args, found), live: found } : undefined;
  },
});

/** The arguments; a variable's value may be an Output (a secret from config, say). */
export type PipelineScheduleArgs = Omit<ResourceArgs<typeof schema>, "variables" | "inputs"> & {
  variables?: pulumi.Input<pulumi.Input<{ [K in keyof PipelineScheduleVariable]: pulumi.Input<PipelineScheduleVariable[K]> }>[]>;
  inputs?: pulumi.Input<pulumi.Input<{ name: pulumi.Input<string>; value: pulumi.Input<InputValue> }>[]>;
};

/**
 * A project's pipeline schedule, with its variables and inputs.
 *
 * ```ts
 * new PipelineSchedule("nightly", {
 *   project: "acme/web", description: "Nightly build", ref: "main", cron: "0 2 * * *",
 *   cronTimezone: "Europe/Berlin",
 *   variables: [{ key: "DEPLOY_TOKEN", value: config.requireSecret("deployToken") }],
 * });
 * ```
 */
export interface PipelineSchedule extends ResourceOutputs<typeof pipelineScheduleDefinition> {}
export class PipelineSchedule extends PlatformResource {
  static {
    ofKind(this, pipelineScheduleDefinition);
  }
  constructor(name: string, args: PipelineScheduleArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
