/**
 * Pipeline schedules, their variables and inputs, and the pipelines they run.
 *
 * As real servers answer:
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
 * - Cron and zone are validated with the emulator's own reading of the
 *   server's cron dialect (./cron.ts): 400 `{"message":{"cron":["syntax is invalid"]}}` and
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
import { canReadProject } from "../../access";
import { forbidden, notFound, paramError } from "../../errors";
import { findProject } from "../../lookup";
import { created, ok, paginate, requireUser, route, type ApiResponse, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type Project } from "../../state";
import {
  FINISHED_SCOPE,
  PENDING_SCOPE,
  PIPELINE_STATUSES,
  RUNNING_SCOPE,
  SCHEDULE_SEQUENCE,
  VARIABLE_TYPES,
  applyInputs,
  canAdmin,
  canReadSchedules,
  canSeeVariables,
  canSetVariables,
  canUpdate,
  computeNextRun,
  expandRef,
  levelOf,
  pipelineScheduleStore,
  readInputs,
  runPipeline,
  validateSchedule,
  validateVariable,
  type PipelineRecord,
  type ScheduleRecord,
  type ScheduleVariableRecord,
  type VariableType,
} from "./model";
import { presentPipelineBasic } from "./pipelines-present";
import { presentDetails, presentSchedule, presentVariable } from "./present";

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
// Routes

const BASE = "/projects/:id/pipeline_schedules";
const idParam = { id: { type: "string", required: true } } as const;
const scheduleIdParam = { ...idParam, pipeline_schedule_id: { type: "integer", required: true } } as const;
const variableKeyParam = { ...scheduleIdParam, key: { type: "string", required: true } } as const;

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
export const pipelineScheduleRoutes: readonly RouteDefinition[] = [
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
];
