/** Pipeline schedules' records, and the rules of saving one and running its pipeline (BaseSaveService). */
import { createHash } from "node:crypto";
import { nextRun, parseCron, zoneIdentifier } from "./cron";
import { projectAccessLevel } from "../../access";
import { paramError, validationError } from "../../errors";
import type { RequestContext } from "../../router";
import { AccessLevel, defineStore, type EmulatorState, type Project, type User } from "../../state";

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
export const SCHEDULE_SEQUENCE = "ci_pipeline_schedules";
export const PIPELINE_SEQUENCE = "ci_pipelines";

export const PIPELINE_STATUSES: readonly PipelineStatus[] = [
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
export const RUNNING_SCOPE: readonly PipelineStatus[] = ["running"];
export const PENDING_SCOPE: readonly PipelineStatus[] = ["pending"];
export const FINISHED_SCOPE: readonly PipelineStatus[] = ["success", "failed", "canceled", "skipped"];

export const KEY_FORMAT = /^[A-Za-z0-9_]+$/;
export const MAX_KEY_LENGTH = 255;
export const FULL_REF = /^(refs\/tags\/|refs\/heads\/)\S+$/;

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
export function validateSchedule(schedule: Pick<ScheduleRecord, "description" | "ref" | "cron" | "cronTimezone">): void {
  const errors: Record<string, string[]> = {};
  if (schedule.description.trim() === "") errors.description = ["can't be blank"];
  if (!FULL_REF.test(schedule.ref)) errors.ref = ["is ambiguous"];
  if (parseCron(schedule.cron) === undefined) errors.cron = ["syntax is invalid"];
  if (zoneIdentifier(schedule.cronTimezone) === undefined) errors.cron_timezone = ["syntax is invalid"];
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

export function computeNextRun(state: EmulatorState, schedule: Pick<ScheduleRecord, "cron" | "cronTimezone">): string | null {
  return nextRun(schedule.cron, schedule.cronTimezone, new Date(state.clock()))?.toISOString() ?? null;
}

export interface InputEntry {
  name: string;
  value?: InputValue;
  destroy: boolean;
}

export const isInputValue = (value: unknown): value is InputValue =>
  typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)) || Array.isArray(value);

/** Grape's nested `inputs` params: `name` required, `value` required unless the entry destroys the input. */
export function readInputs(raw: Record<string, unknown>[] | undefined, allowDestroy: boolean): InputEntry[] {
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

export function applyInputs(inputs: ScheduleInputRecord[], entries: InputEntry[]): ScheduleInputRecord[] {
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

export function validateVariable(schedule: ScheduleRecord, key: string, isNew: boolean): void {
  const problems: string[] = [];
  if (key === "") problems.push("can't be blank");
  else if (!KEY_FORMAT.test(key)) problems.push("can contain only letters, digits and '_'.");
  if (key.length > MAX_KEY_LENGTH) problems.push(`is too long (maximum is ${MAX_KEY_LENGTH} characters)`);
  if (isNew && schedule.variables.some((v) => v.key === key)) problems.push("has already been taken");
  if (problems.length > 0) throw validationError({ key: problems });
}

export function shaFor(state: EmulatorState, project: Project, ref: string): string {
  if (ref === `refs/heads/${project.defaultBranch}` && project.lastCommitSha) return project.lastCommitSha;
  return createHash("sha1").update(`${state.projectFullPath(project)}:${ref}`).digest("hex");
}

/** A scheduled pipeline of `schedule`, run by its owner (or by `user` for play). */
export function runPipeline(state: EmulatorState, project: Project, schedule: ScheduleRecord, userId: number): PipelineRecord {
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
// Permissions (ProjectPolicy / Ci::PipelineSchedulePolicy)

export function levelOf(state: EmulatorState, user: User | null, project: Project): number {
  if (!user) return AccessLevel.NoAccess;
  return user.isAdmin ? AccessLevel.Owner : projectAccessLevel(state, user, project);
}

export const canReadSchedules = (ctx: RequestContext<unknown>, project: Project): boolean =>
  levelOf(ctx.state, ctx.user, project) >= AccessLevel.Reporter;

export const isOwner = (ctx: RequestContext<unknown>, schedule: ScheduleRecord): boolean => ctx.user?.id === schedule.ownerId;

/** `update_pipeline_schedule`: the owner, while still allowed to run pipelines. */
export const canUpdate = (ctx: RequestContext<unknown>, project: Project, schedule: ScheduleRecord): boolean =>
  isOwner(ctx, schedule) && levelOf(ctx.state, ctx.user, project) >= AccessLevel.Developer;

/** `admin_pipeline_schedule`: Maintainer+, or the owner. */
export const canAdmin = (ctx: RequestContext<unknown>, project: Project, schedule: ScheduleRecord): boolean =>
  levelOf(ctx.state, ctx.user, project) >= AccessLevel.Maintainer || canUpdate(ctx, project, schedule);

/** `set_pipeline_variables` on the project: Developer+. */
export const canSetVariables = (ctx: RequestContext<unknown>, project: Project): boolean =>
  levelOf(ctx.state, ctx.user, project) >= AccessLevel.Developer;

/** Variables and inputs are shown to the owner and to Maintainer+. */
export const canSeeVariables = (ctx: RequestContext<unknown>, project: Project, schedule: ScheduleRecord): boolean =>
  isOwner(ctx, schedule) || levelOf(ctx.state, ctx.user, project) >= AccessLevel.Maintainer;

export const VARIABLE_TYPES = ["env_var", "file"] as const;
