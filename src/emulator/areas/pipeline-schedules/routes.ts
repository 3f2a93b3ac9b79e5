/**
 * Pipeline schedules, their variables and inputs, and the pipelines they run.
 *
 * Behaviour taken from the real server's source (lib/api/ci/pipeline_schedules.rb,
 * Ci::PipelineSchedules::BaseSaveService, the cron validators):
 * - Every route needs a user (401). The project is found first (404 Project
 *   Not Found); a schedule that is missing or that the caller may not read is
 *   404 `Pipeline Schedule Not Found`, then each action checks its permission
 *   (403).
 * - Permissions: Reporter+ reads; Developer+ creates and plays; only the
 *   schedule's owner updates it and writes its variables (a Maintainer takes
 *   ownership first); Maintainer+ or the owner takes ownership, deletes the
 *   schedule and deletes a variable. Variables and inputs are shown to the
 *   owner and to Maintainer+ only.
 * - A short ref is expanded to `refs/heads/<name>` or `refs/tags/<name>`; a
 *   name that is both a branch and a tag, or neither, is 400
 *   `{"message":{"ref":["is ambiguous"]}}`. Full refs are kept as given.
 * - Cron and zone are validated with the same reading the provider's check
 *   uses (src/cron.ts): 400 `{"message":{"cron":["syntax is invalid"]}}` and
 *   `{"message":{"cron_timezone":["syntax is invalid"]}}`. `next_run_at` is
 *   recomputed from cron and zone on every save, and after each scheduled run
 *   (`emulator.runDueWork()` runs the schedules that are due).
 * - take_ownership: 201, or 200 when the caller already owns it. play: 201
 *   `{"message":"201 Created"}`, records a pipeline of source `schedule`
 *   (Ci::Pipeline's `sources` enum, the value `GET /pipelines?source=` takes;
 *   the specification's "scheduled" names the kind, not the value).
 * - Variables: POST 201, PUT 200, GET 200, DELETE **202 with the deleted
 *   variable as the body**; a missing key is 404 `Pipeline Schedule Variable
 *   Not Found`; a taken key is 400 `{"message":{"key":["has already been taken"]}}`.
 * - DELETE of a schedule answers the deleted schedule, as the specification
 *   says (the real code's `destroy_conditionally!` answers 204 with no body).
 * - The `pipelineSchedules` seed section (below) gives projects schedules,
 *   with their variables, inputs and past pipelines, from the start.
 */
import { presentPipelineBasic } from "./pipelines-present";
import { createHash } from "node:crypto";
import { cronProblem, nextRunAfter, timeZoneProblem } from "../../../cron";
import { canReadProject, projectAccessLevel } from "../../access";
import { forbidden, notFound, paramError, validationError } from "../../errors";
import { findProject } from "../../lookup";
import { created, ok, paginate, requireUser, route, type ApiResponse, type RequestContext, type RouteModule } from "../../router";
import { SeedError } from "../../seed-error";
import { AccessLevel, defineStore, type EmulatorState, type Project, type User } from "../../state";
import { presentUser } from "../users";

export type VariableType = "env_var" | "file";
export type InputValue = string | number | boolean | unknown[];

export interface ScheduleVariableRecord {
  key: string;
  value: string;
  variableType: VariableType;
}

export interface ScheduleInputRecord {
  name: string;
  value: InputValue;
}

export interface ScheduleRecord {
  id: number;
  projectId: number;
  description: string;
  /** Always a full ref (`refs/heads/main`). */
  ref: string;
  cron: string;
  cronTimezone: string;
  active: boolean;
  ownerId: number;
  nextRunAt: string | null;
  createdAt: string;
  updatedAt: string;
  variables: ScheduleVariableRecord[];
  inputs: ScheduleInputRecord[];
}

export type PipelineStatus =
  | "created"
  | "waiting_for_resource"
  | "preparing"
  | "pending"
  | "running"
  | "success"
  | "failed"
  | "canceled"
  | "skipped"
  | "manual"
  | "scheduled";

export interface PipelineRecord {
  id: number;
  iid: number;
  projectId: number;
  scheduleId: number;
  status: PipelineStatus;
  source: "schedule";
  ref: string;
  sha: string;
  userId: number;
  createdAt: string;
  updatedAt: string;
}

export const pipelineScheduleStore = defineStore(
  "pipelineSchedules",
  (): { schedules: ScheduleRecord[]; pipelines: PipelineRecord[] } => ({ schedules: [], pipelines: [] }),
);
const SCHEDULE_SEQUENCE = "ci_pipeline_schedules";
const PIPELINE_SEQUENCE = "ci_pipelines";

const PIPELINE_STATUSES: readonly PipelineStatus[] = [
  "created",
  "waiting_for_resource",
  "preparing",
  "pending",
  "running",
  "success",
  "failed",
  "canceled",
  "skipped",
  "manual",
  "scheduled",
];
const RUNNING_SCOPE: readonly PipelineStatus[] = ["running"];
const PENDING_SCOPE: readonly PipelineStatus[] = ["pending"];
const FINISHED_SCOPE: readonly PipelineStatus[] = ["success", "failed", "canceled", "skipped"];

const KEY_FORMAT = /^[A-Za-z0-9_]+$/;
const MAX_KEY_LENGTH = 255;
const FULL_REF = /^(refs\/tags\/|refs\/heads\/)\S+$/;

// ---------------------------------------------------------------------------
// Permissions (ProjectPolicy / Ci::PipelineSchedulePolicy)

function levelOf(state: EmulatorState, user: User | null, project: Project): number {
  if (!user) return AccessLevel.NoAccess;
  return user.isAdmin ? AccessLevel.Owner : projectAccessLevel(state, user, project);
}

const canReadSchedules = (ctx: RequestContext<unknown>, project: Project): boolean =>
  levelOf(ctx.state, ctx.user, project) >= AccessLevel.Reporter;

const isOwner = (ctx: RequestContext<unknown>, schedule: ScheduleRecord): boolean => ctx.user?.id === schedule.ownerId;

/** `update_pipeline_schedule`: the owner, while still allowed to run pipelines. */
const canUpdate = (ctx: RequestContext<unknown>, project: Project, schedule: ScheduleRecord): boolean =>
  isOwner(ctx, schedule) && levelOf(ctx.state, ctx.user, project) >= AccessLevel.Developer;

/** `admin_pipeline_schedule`: Maintainer+, or the owner. */
const canAdmin = (ctx: RequestContext<unknown>, project: Project, schedule: ScheduleRecord): boolean =>
  levelOf(ctx.state, ctx.user, project) >= AccessLevel.Maintainer || canUpdate(ctx, project, schedule);

/** `set_pipeline_variables` on the project: Developer+. */
const canSetVariables = (ctx: RequestContext<unknown>, project: Project): boolean =>
  levelOf(ctx.state, ctx.user, project) >= AccessLevel.Developer;

/** Variables and inputs are shown to the owner and to Maintainer+. */
const canSeeVariables = (ctx: RequestContext<unknown>, project: Project, schedule: ScheduleRecord): boolean =>
  isOwner(ctx, schedule) || levelOf(ctx.state, ctx.user, project) >= AccessLevel.Maintainer;

// ---------------------------------------------------------------------------
// Lookups

function findReadableProject(ctx: RequestContext<unknown>): Project {
  requireUser(ctx);
  return findProject(ctx);
}

/** `pipeline_schedule`: 404 when missing or not readable. */
function findSchedule(ctx: RequestContext<unknown>, project: Project, scheduleId: number): ScheduleRecord {
  const schedule = pipelineScheduleStore.of(ctx.state).schedules.find((s) => s.id === scheduleId && s.projectId === project.id);
  if (!schedule || !canReadProject(ctx.state, ctx.user, project) || !canReadSchedules(ctx, project)) {
    throw notFound("Pipeline Schedule");
  }
  return schedule;
}

function findVariable(schedule: ScheduleRecord, key: string): ScheduleVariableRecord {
  const variable = schedule.variables.find((v) => v.key === key);
  if (!variable) throw notFound("Pipeline Schedule Variable");
  return variable;
}

// ---------------------------------------------------------------------------
// Presentation

function presentOwner(state: EmulatorState, ownerId: number): Record<string, unknown> | null {
  const owner = state.userById(ownerId);
  if (!owner) return null;
  const { id, username, name, state: userState, locked, avatar_url, web_url } = presentUser(owner, state.instance);
  return { id, username, name, state: userState, locked, avatar_url, web_url };
}

function presentSchedule(state: EmulatorState, schedule: ScheduleRecord): Record<string, unknown> {
  return {
    id: schedule.id,
    description: schedule.description,
    ref: schedule.ref,
    cron: schedule.cron,
    cron_timezone: schedule.cronTimezone,
    next_run_at: schedule.nextRunAt,
    active: schedule.active,
    created_at: schedule.createdAt,
    updated_at: schedule.updatedAt,
    owner: presentOwner(state, schedule.ownerId),
  };
}


function lastPipelineOf(state: EmulatorState, schedule: ScheduleRecord): PipelineRecord | undefined {
  const pipelines = pipelineScheduleStore.of(state).pipelines.filter((p) => p.scheduleId === schedule.id);
  return pipelines[pipelines.length - 1];
}

/** `PipelineScheduleDetails`: with the last pipeline, and variables and inputs for those who may see them. */
function presentDetails(ctx: RequestContext<unknown>, project: Project, schedule: ScheduleRecord): Record<string, unknown> {
  const last = lastPipelineOf(ctx.state, schedule);
  const details: Record<string, unknown> = {
    ...presentSchedule(ctx.state, schedule),
    last_pipeline: last ? { id: last.id, sha: last.sha, ref: last.ref, status: last.status } : null,
  };
  if (canSeeVariables(ctx, project, schedule)) {
    details.variables = schedule.variables.map((v) => ({ key: v.key, variable_type: v.variableType, value: v.value, raw: false }));
    details.inputs = schedule.inputs.map((i) => ({ name: i.name, value: i.value }));
  }
  return details;
}

const presentVariable = (variable: ScheduleVariableRecord): Record<string, unknown> => ({
  key: variable.key,
  variable_type: variable.variableType,
  value: variable.value,
});

// ---------------------------------------------------------------------------
// Validation and saving (BaseSaveService)

/** `expand_short_ref`: a short ref becomes the one branch or tag of that name; otherwise it stays short. */
export function expandRef(project: Project, ref: string): string {
  if (FULL_REF.test(ref)) return ref;
  const isBranch = (project.branches ?? [project.defaultBranch]).includes(ref);
  const isTag = (project.tags ?? (project.latestTag ? [project.latestTag] : [])).includes(ref);
  if (isBranch && !isTag) return `refs/heads/${ref}`;
  if (isTag && !isBranch) return `refs/tags/${ref}`;
  return ref;
}

/** Model validations, all reported together as `render_validation_error!` does. */
function validateSchedule(schedule: Pick<ScheduleRecord, "description" | "ref" | "cron" | "cronTimezone">): void {
  const errors: Record<string, string[]> = {};
  if (schedule.description.trim() === "") errors.description = ["can't be blank"];
  if (!FULL_REF.test(schedule.ref)) errors.ref = ["is ambiguous"];
  if (cronProblem(schedule.cron) !== undefined) errors.cron = ["syntax is invalid"];
  if (timeZoneProblem(schedule.cronTimezone) !== undefined) errors.cron_timezone = ["syntax is invalid"];
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

function computeNextRun(state: EmulatorState, schedule: Pick<ScheduleRecord, "cron" | "cronTimezone">): string | null {
  return nextRunAfter(schedule.cron, schedule.cronTimezone, new Date(state.clock()))?.toISOString() ?? null;
}

interface InputEntry {
  name: string;
  value?: InputValue;
  destroy: boolean;
}

const isInputValue = (value: unknown): value is InputValue =>
  typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)) || Array.isArray(value);

/** Grape's nested `inputs` params: `name` required, `value` required unless the entry destroys the input. */
function readInputs(raw: Record<string, unknown>[] | undefined, allowDestroy: boolean): InputEntry[] {
  if (raw === undefined) return [];
  const problems: string[] = [];
  const entries: InputEntry[] = [];
  raw.forEach((entry, index) => {
    const name = entry.name;
    const destroyFlag = allowDestroy ? (entry.destroy ?? entry._destroy) : undefined;
    const destroy = destroyFlag === true || destroyFlag === "true";
    if (typeof name !== "string" && typeof name !== "number") problems.push(`inputs[${index}][name] is missing`);
    if (!destroy) {
      if (entry.value === undefined || entry.value === null) problems.push(`inputs[${index}][value] is missing`);
      else if (!isInputValue(entry.value)) problems.push(`inputs[${index}][value] is invalid`);
    }
    entries.push({ name: String(name), value: destroy ? undefined : (entry.value as InputValue), destroy });
  });
  if (problems.length > 0) throw paramError(problems.join(", "));
  return entries;
}

function applyInputs(inputs: ScheduleInputRecord[], entries: InputEntry[]): ScheduleInputRecord[] {
  const result = inputs.map((input) => ({ ...input }));
  for (const entry of entries) {
    const index = result.findIndex((input) => input.name === entry.name);
    if (entry.destroy) {
      if (index !== -1) result.splice(index, 1);
    } else if (index === -1) {
      result.push({ name: entry.name, value: entry.value as InputValue });
    } else {
      result[index] = { name: entry.name, value: entry.value as InputValue };
    }
  }
  return result;
}

function validateVariable(schedule: ScheduleRecord, key: string, isNew: boolean): void {
  const problems: string[] = [];
  if (key === "") problems.push("can't be blank");
  else if (!KEY_FORMAT.test(key)) problems.push("can contain only letters, digits and '_'.");
  if (key.length > MAX_KEY_LENGTH) problems.push(`is too long (maximum is ${MAX_KEY_LENGTH} characters)`);
  if (isNew && schedule.variables.some((v) => v.key === key)) problems.push("has already been taken");
  if (problems.length > 0) throw validationError({ key: problems });
}

function shaFor(state: EmulatorState, project: Project, ref: string): string {
  if (ref === `refs/heads/${project.defaultBranch}` && project.lastCommitSha) return project.lastCommitSha;
  return createHash("sha1").update(`${state.projectFullPath(project)}:${ref}`).digest("hex");
}

/** A scheduled pipeline of `schedule`, run by its owner (or by `user` for play). */
function runPipeline(state: EmulatorState, project: Project, schedule: ScheduleRecord, userId: number): PipelineRecord {
  const store = pipelineScheduleStore.of(state);
  const now = state.now();
  const pipeline: PipelineRecord = {
    id: state.nextId(PIPELINE_SEQUENCE),
    iid: store.pipelines.filter((p) => p.projectId === project.id).length + 1,
    projectId: project.id,
    scheduleId: schedule.id,
    status: "pending",
    source: "schedule",
    ref: schedule.ref,
    sha: shaFor(state, project, schedule.ref),
    userId,
    createdAt: now,
    updatedAt: now,
  };
  store.pipelines.push(pipeline);
  return pipeline;
}

// ---------------------------------------------------------------------------
// Seed: "pipelineSchedules": { "acme/web": [{ "description": "Nightly", "ref": "main", "cron": "0 2 * * *",
//   "cronTimezone": "UTC", "active": true, "owner": "alice",
//   "variables": [{ "key": "TARGET", "value": "staging", "variableType": "env_var" }],
//   "inputs": [{ "name": "mode", "value": "full" }],
//   "pipelines": [{ "status": "success", "createdAt": "2024-05-01T02:00:00Z" }] }] }
// Schedules as a POST would make them (ref expanded, cron and zone checked,
// next run computed), with the pipelines they already ran, oldest first.

interface SeedSchedule {
  description: string;
  ref: string;
  cron: string;
  cronTimezone?: string;
  active?: boolean;
  owner: string;
  variables?: { key: string; value: string; variableType?: VariableType }[];
  inputs?: { name: string; value: InputValue }[];
  pipelines?: { status?: PipelineStatus; createdAt?: string }[];
}

function checkSeedSchedule(seed: SeedSchedule, where: string): void {
  const text = (name: keyof SeedSchedule) => {
    if (typeof seed[name] !== "string") throw new SeedError(`${where}.${name} must be a string`);
  };
  (["description", "ref", "cron", "owner"] as const).forEach(text);
  if (seed.cronTimezone !== undefined) text("cronTimezone");
  if (seed.active !== undefined && typeof seed.active !== "boolean") throw new SeedError(`${where}.active must be a boolean`);
  (seed.variables ?? []).forEach((variable, index) => {
    const at = `${where}.variables[${index}]`;
    if (typeof variable?.key !== "string" || !KEY_FORMAT.test(variable.key) || variable.key.length > MAX_KEY_LENGTH) throw new SeedError(`${at}.key must be 1 to 255 of A-Z a-z 0-9 _`);
    if (typeof variable.value !== "string") throw new SeedError(`${at}.value must be a string`);
    if (variable.variableType !== undefined && !VARIABLE_TYPES.includes(variable.variableType)) throw new SeedError(`${at}.variableType must be env_var or file`);
  });
  (seed.inputs ?? []).forEach((input, index) => {
    if (typeof input?.name !== "string" || !isInputValue(input.value)) throw new SeedError(`${where}.inputs[${index}] must have a name and a string, number, boolean or array value`);
  });
  (seed.pipelines ?? []).forEach((pipeline, index) => {
    if (pipeline?.status !== undefined && !PIPELINE_STATUSES.includes(pipeline.status)) throw new SeedError(`${where}.pipelines[${index}].status must be one of ${PIPELINE_STATUSES.join(", ")}`);
    if (pipeline?.createdAt !== undefined && Number.isNaN(Date.parse(pipeline.createdAt))) throw new SeedError(`${where}.pipelines[${index}].createdAt must be a date and time`);
  });
}

function seedSchedule(state: EmulatorState, project: Project, seed: SeedSchedule, where: string): ScheduleRecord {
  checkSeedSchedule(seed, where);
  const owner = state.userByUsername(seed.owner);
  if (!owner) throw new SeedError(`${where}.owner: unknown user ${seed.owner}`);
  const fields = { description: seed.description, ref: expandRef(project, seed.ref), cron: seed.cron, cronTimezone: seed.cronTimezone ?? "UTC" };
  try {
    validateSchedule(fields);
  } catch {
    throw new SeedError(`${where}: the description must not be blank, the ref must name one branch or tag of ${state.projectFullPath(project)}, and cron and cronTimezone must be valid`);
  }
  const id = state.nextId(SCHEDULE_SEQUENCE);
  // Seeded state is the same on every start: times follow the project's creation, not the clock.
  const createdAt = new Date(Date.parse(project.createdAt) + id * 60_000).toISOString();
  return {
    id,
    projectId: project.id,
    ...fields,
    active: seed.active ?? true,
    ownerId: owner.id,
    nextRunAt: computeNextRun(state, fields),
    createdAt,
    updatedAt: createdAt,
    variables: (seed.variables ?? []).map((v) => ({ key: v.key, value: v.value, variableType: v.variableType ?? "env_var" })),
    inputs: (seed.inputs ?? []).map((i) => ({ name: i.name, value: i.value })),
  };
}

function seedPipelines(state: EmulatorState, project: Project, schedule: ScheduleRecord, seeds: SeedSchedule["pipelines"]): void {
  for (const [index, seed] of (seeds ?? []).entries()) {
    const pipeline = runPipeline(state, project, schedule, schedule.ownerId);
    const createdAt = seed.createdAt === undefined ? new Date(Date.parse(schedule.createdAt) + (index + 1) * 3_600_000).toISOString() : new Date(seed.createdAt).toISOString();
    Object.assign(pipeline, { status: seed.status ?? "success", createdAt, updatedAt: createdAt });
  }
}

function applyPipelineSchedulesSeed(state: EmulatorState, section: unknown): void {
  if (section === undefined) return;
  if (typeof section !== "object" || section === null || Array.isArray(section)) throw new SeedError("pipelineSchedules must be an object keyed by project full path");
  const store = pipelineScheduleStore.of(state);
  for (const [fullPath, list] of Object.entries(section)) {
    const where = `pipelineSchedules["${fullPath}"]`;
    const project = state.projectByFullPath(fullPath);
    if (!project) throw new SeedError(`${where}: unknown project ${fullPath}`);
    if (!Array.isArray(list)) throw new SeedError(`${where} must be an array of schedules`);
    list.forEach((value, index) => {
      const at = `${where}[${index}]`;
      if (typeof value !== "object" || value === null) throw new SeedError(`${at} must be an object`);
      const schedule = seedSchedule(state, project, value as SeedSchedule, at);
      store.schedules.push(schedule);
      seedPipelines(state, project, schedule, (value as SeedSchedule).pipelines);
    });
  }
}

// ---------------------------------------------------------------------------
// Routes

const BASE = "/projects/:id/pipeline_schedules";
const idParam = { id: { type: "string", required: true } } as const;
const scheduleIdParam = { ...idParam, pipeline_schedule_id: { type: "integer", required: true } } as const;
const variableKeyParam = { ...scheduleIdParam, key: { type: "string", required: true } } as const;
const VARIABLE_TYPES = ["env_var", "file"] as const;

function parseTime(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw paramError(`${name} is invalid`);
  return time;
}

const listSchedules = route(
  "GET",
  BASE,
  { params: { ...idParam, scope: { type: "string", values: ["active", "inactive"] } }, paginated: true },
  (ctx) => {
    const project = findReadableProject(ctx);
    if (!canReadSchedules(ctx, project)) throw forbidden();
    const { scope } = ctx.params;
    const schedules = pipelineScheduleStore
      .of(ctx.state)
      .schedules.filter((s) => s.projectId === project.id && (scope === undefined || s.active === (scope === "active")));
    return paginate(ctx, schedules, { present: (s) => presentSchedule(ctx.state, s) });
  },
);

const getSchedule = route("GET", `${BASE}/:pipeline_schedule_id`, { params: scheduleIdParam }, (ctx) => {
  const project = findReadableProject(ctx);
  const schedule = findSchedule(ctx, project, ctx.params.pipeline_schedule_id);
  return ok(presentDetails(ctx, project, schedule));
});

/**
 * `Ci::PipelinesFinder#by_scope`: running, pending and finished by status;
 * branches and tags give the latest pipeline of each branch or tag that still
 * exists (`pipelines_for_refs`, one per ref), not every pipeline on them.
 */
function pipelinesInScope(project: Project, pipelines: PipelineRecord[], scope: string | undefined): PipelineRecord[] {
  const latestPerRef = (prefix: string, names: readonly string[]) => {
    const refs = new Set(names.map((name) => `${prefix}${name}`));
    const latest = new Map<string, PipelineRecord>();
    for (const p of pipelines) if (refs.has(p.ref) && (latest.get(p.ref)?.id ?? 0) < p.id) latest.set(p.ref, p);
    return [...latest.values()];
  };
  switch (scope) {
    case "running":
      return pipelines.filter((p) => RUNNING_SCOPE.includes(p.status));
    case "pending":
      return pipelines.filter((p) => PENDING_SCOPE.includes(p.status));
    case "finished":
      return pipelines.filter((p) => FINISHED_SCOPE.includes(p.status));
    case "branches":
      return latestPerRef("refs/heads/", project.branches ?? [project.defaultBranch]);
    case "tags":
      return latestPerRef("refs/tags/", project.tags ?? (project.latestTag ? [project.latestTag] : []));
    default:
      return pipelines;
  }
}

const listPipelines = route(
  "GET",
  `${BASE}/:pipeline_schedule_id/pipelines`,
  {
    params: {
      ...scheduleIdParam,
      scope: { type: "string", values: ["running", "pending", "finished", "branches", "tags"] },
      status: { type: "string", values: PIPELINE_STATUSES },
      sort: { type: "string", values: ["asc", "desc"] },
      updated_after: { type: "string" },
      updated_before: { type: "string" },
      created_after: { type: "string" },
      created_before: { type: "string" },
    },
    paginated: true,
  },
  (ctx) => {
    const project = findReadableProject(ctx);
    const schedule = findSchedule(ctx, project, ctx.params.pipeline_schedule_id);
    const { scope, status, sort = "asc" } = ctx.params;
    const updatedAfter = parseTime("updated_after", ctx.params.updated_after);
    const updatedBefore = parseTime("updated_before", ctx.params.updated_before);
    const createdAfter = parseTime("created_after", ctx.params.created_after);
    const createdBefore = parseTime("created_before", ctx.params.created_before);
    const pipelines = pipelinesInScope(
      project,
      pipelineScheduleStore.of(ctx.state).pipelines.filter((p) => p.scheduleId === schedule.id),
      scope,
    )
      .filter((p) => status === undefined || p.status === status)
      .filter((p) => updatedAfter === undefined || Date.parse(p.updatedAt) >= updatedAfter)
      .filter((p) => updatedBefore === undefined || Date.parse(p.updatedAt) <= updatedBefore)
      .filter((p) => createdAfter === undefined || Date.parse(p.createdAt) > createdAfter)
      .filter((p) => createdBefore === undefined || Date.parse(p.createdAt) < createdBefore)
      .sort((a, b) => (sort === "desc" ? b.id - a.id : a.id - b.id));
    return paginate(ctx, pipelines, { present: (p) => presentPipelineBasic(ctx.state, p) });
  },
);

const createSchedule = route(
  "POST",
  BASE,
  {
    params: {
      ...idParam,
      description: { type: "string", required: true },
      ref: { type: "string", required: true },
      cron: { type: "string", required: true },
      cron_timezone: { type: "string" },
      active: { type: "boolean" },
      inputs: { type: "hash[]" },
    },
  },
  (ctx) => {
    const user = requireUser(ctx);
    const project = findReadableProject(ctx);
    if (ctx.params.ref.trim() === "") throw paramError("ref is empty");
    const inputs = readInputs(ctx.params.inputs, false);
    if (levelOf(ctx.state, user, project) < AccessLevel.Developer) throw forbidden();
    const now = ctx.state.now();
    const fields = {
      description: ctx.params.description,
      ref: expandRef(project, ctx.params.ref),
      cron: ctx.params.cron,
      cronTimezone: ctx.params.cron_timezone ?? "UTC",
    };
    validateSchedule(fields);
    const schedule: ScheduleRecord = {
      id: ctx.state.nextId(SCHEDULE_SEQUENCE),
      projectId: project.id,
      ...fields,
      active: ctx.params.active ?? true,
      ownerId: user.id,
      nextRunAt: computeNextRun(ctx.state, fields),
      createdAt: now,
      updatedAt: now,
      variables: [],
      inputs: applyInputs([], inputs),
    };
    pipelineScheduleStore.of(ctx.state).schedules.push(schedule);
    return created(presentDetails(ctx, project, schedule));
  },
);

const updateSchedule = route(
  "PUT",
  `${BASE}/:pipeline_schedule_id`,
  {
    params: {
      ...scheduleIdParam,
      description: { type: "string" },
      ref: { type: "string" },
      cron: { type: "string" },
      cron_timezone: { type: "string" },
      active: { type: "boolean" },
      inputs: { type: "hash[]" },
    },
  },
  (ctx) => {
    const project = findReadableProject(ctx);
    const schedule = findSchedule(ctx, project, ctx.params.pipeline_schedule_id);
    const inputs = readInputs(ctx.params.inputs, true);
    if (!canUpdate(ctx, project, schedule)) throw forbidden();
    const fields = {
      description: ctx.params.description ?? schedule.description,
      ref: ctx.params.ref === undefined ? schedule.ref : expandRef(project, ctx.params.ref),
      cron: ctx.params.cron ?? schedule.cron,
      cronTimezone: ctx.params.cron_timezone ?? schedule.cronTimezone,
    };
    validateSchedule(fields);
    Object.assign(schedule, fields, {
      active: ctx.params.active ?? schedule.active,
      inputs: applyInputs(schedule.inputs, inputs),
      // Every save reschedules: the next run is recomputed from cron and zone.
      nextRunAt: computeNextRun(ctx.state, fields),
      updatedAt: ctx.state.now(),
    });
    return ok(presentDetails(ctx, project, schedule));
  },
);

const takeOwnership = route("POST", `${BASE}/:pipeline_schedule_id/take_ownership`, { params: scheduleIdParam }, (ctx) => {
  const user = requireUser(ctx);
  const project = findReadableProject(ctx);
  const schedule = findSchedule(ctx, project, ctx.params.pipeline_schedule_id);
  if (!canAdmin(ctx, project, schedule)) throw forbidden();
  if (schedule.ownerId === user.id) return ok(presentDetails(ctx, project, schedule));
  schedule.ownerId = user.id;
  schedule.updatedAt = ctx.state.now();
  return created(presentDetails(ctx, project, schedule));
});

const deleteSchedule = route("DELETE", `${BASE}/:pipeline_schedule_id`, { params: scheduleIdParam }, (ctx) => {
  const project = findReadableProject(ctx);
  const schedule = findSchedule(ctx, project, ctx.params.pipeline_schedule_id);
  if (!canAdmin(ctx, project, schedule)) throw forbidden();
  const body = presentDetails(ctx, project, schedule);
  const store = pipelineScheduleStore.of(ctx.state);
  store.schedules.splice(store.schedules.indexOf(schedule), 1);
  return ok(body);
});

const playSchedule = route("POST", `${BASE}/:pipeline_schedule_id/play`, { params: scheduleIdParam }, (ctx) => {
  const user = requireUser(ctx);
  const project = findReadableProject(ctx);
  const schedule = findSchedule(ctx, project, ctx.params.pipeline_schedule_id);
  if (levelOf(ctx.state, user, project) < AccessLevel.Developer) throw forbidden();
  // The next scheduled run is not affected.
  runPipeline(ctx.state, project, schedule, user.id);
  return created({ message: "201 Created" });
});

/** The checks of the variable writes: `set_pipeline_variables` on the project and `update_pipeline_schedule`. */
function variableWriter(ctx: RequestContext<{ id: string; pipeline_schedule_id: number }>): { project: Project; schedule: ScheduleRecord } {
  const project = findReadableProject(ctx);
  const schedule = findSchedule(ctx, project, ctx.params.pipeline_schedule_id);
  if (!canSetVariables(ctx, project) || !canUpdate(ctx, project, schedule)) throw forbidden();
  return { project, schedule };
}

const createVariable = route(
  "POST",
  `${BASE}/:pipeline_schedule_id/variables`,
  {
    params: {
      ...scheduleIdParam,
      key: { type: "string", required: true },
      value: { type: "string", required: true },
      variable_type: { type: "string", values: VARIABLE_TYPES },
    },
  },
  (ctx) => {
    const { schedule } = variableWriter(ctx);
    validateVariable(schedule, ctx.params.key, true);
    const variable: ScheduleVariableRecord = {
      key: ctx.params.key,
      value: ctx.params.value,
      variableType: (ctx.params.variable_type as VariableType | undefined) ?? "env_var",
    };
    schedule.variables.push(variable);
    return created(presentVariable(variable));
  },
);

const getVariable = route("GET", `${BASE}/:pipeline_schedule_id/variables/:key`, { params: variableKeyParam }, (ctx) => {
  const project = findReadableProject(ctx);
  const schedule = findSchedule(ctx, project, ctx.params.pipeline_schedule_id);
  if (!canSeeVariables(ctx, project, schedule)) throw forbidden();
  return ok(presentVariable(findVariable(schedule, ctx.params.key)));
});

const updateVariable = route(
  "PUT",
  `${BASE}/:pipeline_schedule_id/variables/:key`,
  { params: { ...variableKeyParam, value: { type: "string" }, variable_type: { type: "string", values: VARIABLE_TYPES } } },
  (ctx) => {
    const { schedule } = variableWriter(ctx);
    const variable = findVariable(schedule, ctx.params.key);
    if (ctx.params.value !== undefined) variable.value = ctx.params.value;
    if (ctx.params.variable_type !== undefined) variable.variableType = ctx.params.variable_type as VariableType;
    return ok(presentVariable(variable));
  },
);

const deleteVariable = route("DELETE", `${BASE}/:pipeline_schedule_id/variables/:key`, { params: variableKeyParam }, (ctx): ApiResponse => {
  const project = findReadableProject(ctx);
  const schedule = findSchedule(ctx, project, ctx.params.pipeline_schedule_id);
  if (!canSetVariables(ctx, project) || !canAdmin(ctx, project, schedule)) throw forbidden();
  const variable = findVariable(schedule, ctx.params.key);
  schedule.variables.splice(schedule.variables.indexOf(variable), 1);
  // `status :accepted` with the destroyed variable as the body.
  return { status: 202, body: presentVariable(variable) };
});

/**
 * The schedule worker: every active schedule whose next run has come runs a
 * pipeline as its owner and is rescheduled from now.
 */
function runDueSchedules(state: EmulatorState): void {
  const now = state.clock();
  for (const schedule of pipelineScheduleStore.of(state).schedules) {
    if (schedule.nextRunAt === null || Date.parse(schedule.nextRunAt) > now) continue;
    const project = state.projectById(schedule.projectId);
    if (!project) continue;
    if (schedule.active) runPipeline(state, project, schedule, schedule.ownerId);
    schedule.nextRunAt = computeNextRun(state, schedule);
  }
}

export const pipelineScheduleRoutes: RouteModule = {
  name: "pipeline-schedules",
  routes: [
    listSchedules,
    getSchedule,
    listPipelines,
    createSchedule,
    updateSchedule,
    takeOwnership,
    deleteSchedule,
    playSchedule,
    createVariable,
    getVariable,
    updateVariable,
    deleteVariable,
  ],
  runDue: runDueSchedules,
  seed: { key: "pipelineSchedules", apply: applyPipelineSchedulesSeed },
};
