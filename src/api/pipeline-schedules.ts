/**
 * Pipeline schedules of a project: `/projects/:id/pipeline_schedules`, one
 * schedule with its variables and inputs, its variables' own endpoints, and
 * the pipelines it ran. Real servers show variables and inputs only to the
 * schedule's owner and to Maintainers and above; for others the fields are absent.
 */
import { z } from "zod";
import { apiPath, pathSegment, roleNeeded } from "../client";
import { requestsOf } from "./core";
import { idForm } from "./id-form";

const user = z.looseObject({
  id: z.number(),
  name: z.string(),
  username: z.string(),
  state: z.string().optional(),
  avatar_url: z.string().nullable().optional(),
  web_url: z.string().optional(),
});

/** A schedule as the list shows it (no variables, inputs or last pipeline). */
export const pipelineScheduleSummary = z.looseObject({
  id: z.number(),
  description: z.string(),
  /** Always the full form: `refs/heads/main`, `refs/tags/v1.0`. */
  ref: z.string(),
  cron: z.string(),
  cron_timezone: z.string(),
  next_run_at: z.string().nullable(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The user the scheduled pipelines run as. */
  owner: user.nullable(),
});

/** A variable of a schedule; `value` is secret. */
export const scheduleVariable = z.looseObject({ key: z.string(), variable_type: z.string(), value: z.string(), raw: z.boolean().nullable().optional() });
export type ScheduleVariable = z.output<typeof scheduleVariable>;

/** One schedule as get-one, create, update and take_ownership answer it. */
export const pipelineSchedule = pipelineScheduleSummary.extend({
  last_pipeline: z.looseObject({ id: z.number(), sha: z.string(), ref: z.string(), status: z.string() }).nullable().optional(),
  /** Only for the owner and Maintainers and above. `value` is secret. */
  variables: z.array(scheduleVariable).optional(),
  /** Only for the owner and Maintainers and above. A value is a string, a number, a boolean or an array. */
  inputs: z.array(z.looseObject({ name: z.string(), value: z.unknown() })).optional(),
});
export type PipelineSchedule = z.output<typeof pipelineSchedule>;

/** A pipeline a schedule ran. */
export const schedulePipeline = z.looseObject({
  id: z.number(),
  iid: z.number(),
  project_id: z.number(),
  status: z.string(),
  /** `schedule` for the pipelines of a schedule. */
  source: z.string(),
  ref: z.string(),
  sha: z.string(),
  web_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const scheduleSummaryRequests = requestsOf(pipelineScheduleSummary);
export const pipelineScheduleRequests = requestsOf(pipelineSchedule);
export const scheduleVariableRequests = requestsOf(scheduleVariable);
/** The answer to running a schedule now (`201 Created` as a message). */
export const scheduleRunRequests = requestsOf(z.looseObject({ message: z.string() }));

/** `/projects/acme%2Fweb/pipeline_schedules`. */
export const pipelineSchedulesPath = (project: string | number): string => apiPath`/projects/${project}/pipeline_schedules`;
/** `/projects/acme%2Fweb/pipeline_schedules/12`. */
export const pipelineSchedulePath = (project: string | number, scheduleId: number): string => `${pipelineSchedulesPath(project)}/${scheduleId}`;
/** A variable of the schedule at `schedulePath`, by key. */
/** Runs the schedule now: `/projects/acme%2Fweb/pipeline_schedules/3/play`. */
export const pipelineSchedulePlayPath = (project: string | number, scheduleId: number): string => `${pipelineSchedulePath(project, scheduleId)}/play`;
export const scheduleVariablePath = (schedulePath: string, key: string): string => `${schedulePath}/variables/${pathSegment(key)}`;

/** A schedule's recorded id: its API path without the leading slash (`projects/acme%2Fweb/pipeline_schedules/12`). */
export const pipelineScheduleId = (project: string | number, scheduleId: number): string => pipelineSchedulePath(project, scheduleId).slice(1);

/** A recorded schedule id, or its number alone. */
const SCHEDULE_ID = /^(projects\/[^/]+\/pipeline_schedules\/)?(\d+)$/;

/** A recorded schedule id read back as its API path; undefined when it is not one. */
export function parsePipelineScheduleId(id: string): string | undefined {
  const match = SCHEDULE_ID.exec(id);
  return match?.[1] ? "/" + id : undefined;
}

/** A schedule id as resources record it. */
export const pipelineScheduleIdForm = idForm("of the form projects/<project>/pipeline_schedules/<id>", parsePipelineScheduleId);

/** A schedule's number from its `scheduleId` (12) or its recorded id (`projects/acme%2Fweb/pipeline_schedules/12`). */
export const pipelineScheduleNumberOf = (value: string | number): string | undefined => (typeof value === "number" ? String(value) : SCHEDULE_ID.exec(value)?.[2]);

/** A schedule's numeric id, as the calls on one schedule take it. */
export const scheduleId = z.number().int().positive();

/** What a 404 of one schedule means. */
export const scheduleNotFound = (args: { project: string | number }) =>
  `When the server names the Pipeline Schedule, no schedule of that id belongs to the project, or ${roleNeeded("Reporter", `project ${args.project}`)} (the server hides schedules from Guests). Otherwise check the project.`;
