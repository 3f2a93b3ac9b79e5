/** How a pipeline schedule, its owner and its variables are answered. */
import { type RequestContext } from "../../router";
import { type EmulatorState, type Project } from "../../state";
import { presentUser } from "../users";
import { canSeeVariables, pipelineScheduleStore, type PipelineRecord, type ScheduleRecord, type ScheduleVariableRecord } from "./model";

// ---------------------------------------------------------------------------
// Presentation

export function presentOwner(state: EmulatorState, ownerId: number): Record<string, unknown> | null {
  const owner = state.userById(ownerId);
  if (!owner) return null;
  const { id, username, name, state: userState, locked, avatar_url, web_url } = presentUser(owner, state.instance);
  return { id, username, name, state: userState, locked, avatar_url, web_url };
}

export function presentSchedule(state: EmulatorState, schedule: ScheduleRecord): Record<string, unknown> {
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


export function lastPipelineOf(state: EmulatorState, schedule: ScheduleRecord): PipelineRecord | undefined {
  const pipelines = pipelineScheduleStore.of(state).pipelines.filter((p) => p.scheduleId === schedule.id);
  return pipelines[pipelines.length - 1];
}

/** `PipelineScheduleDetails`: with the last pipeline, and variables and inputs for those who may see them. */
export function presentDetails(ctx: RequestContext<unknown>, project: Project, schedule: ScheduleRecord): Record<string, unknown> {
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

export const presentVariable = (variable: ScheduleVariableRecord): Record<string, unknown> => ({
  key: variable.key,
  variable_type: variable.variableType,
  value: variable.value,
});

