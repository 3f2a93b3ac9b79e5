/**
 * Pipeline schedules: the schedules of a
 * project, one schedule with its last pipeline, variables and inputs (and, if
 * asked, the pipelines it ran), and those pipelines with every filter of
 * their endpoint. Every call needs a signed-in caller with at least the
 * Reporter role on the project.
 *
 * Secrets: variable values are secrets (the PipelineSchedule resource keeps
 * them secret too). The layer marks secrets by field name, and inputs carry
 * their data in a field of the same name (`value`): the Output form of a
 * schedule that has variables or inputs is secret. Real servers show
 * variables and inputs only to the schedule's owner and to Maintainers and
 * above (doc/api/pipeline_schedules.md); for others the fields are absent.
 */
import { z } from "zod";
import { ownerReference } from "../api/owner";
import {
  pipelineSchedule as detailShape,
  pipelineSchedulePath,
  pipelineSchedulesPath,
  pipelineScheduleSummary as scheduleShape,
  scheduleId,
  scheduleNotFound,
  schedulePipeline as pipelineShape,
} from "../api/pipeline-schedules";
import { signedInOnly } from "../calls/core";
import { defineComposedFunction, defineListFunction, projectNeeds, type Camelized } from "./core";

export const PIPELINE_STATUSES = [
  "created", "waiting_for_resource", "preparing", "pending", "running", "success", "failed", "canceled", "skipped", "manual", "scheduled",
] as const;

export type PipelineScheduleSummary = Camelized<z.output<typeof scheduleShape>>;
export type SchedulePipeline = Camelized<z.output<typeof pipelineShape>>;
export type PipelineScheduleInfo = Camelized<z.output<typeof detailShape>> & {
  /** With `withPipelines: true`: every pipeline the schedule ran, oldest first. */
  pipelines?: SchedulePipeline[];
};

const project = ownerReference;
const schedulesPath = (args: { project: string | number }) => pipelineSchedulesPath(args.project);
/** One schedule's path: its reads, and the actions on it (`play`). */
export const schedulePath = (args: { project: string | number; scheduleId: number }) => pipelineSchedulePath(args.project, args.scheduleId);
/** Schedules are for Reporters and above; the server hides them from Guests (404). */
export const reporterNeeded = projectNeeds("Reporter");

const schedules = defineListFunction({
  name: "getPipelineSchedules",
  args: z.object({
    /** The project (id or full path). */
    project,
    /** Only active or only inactive schedules (default: both). */
    scope: z.enum(["active", "inactive"]).optional(),
  }),
  path: schedulesPath,
  query: (args) => ({ scope: args.scope }),
  subject: (args) => `the pipeline schedules of project ${args.project}`,
  refusals: { 401: signedInOnly },
  needs: reporterNeeded,
  item: scheduleShape,
});

/**
 * A project's pipeline schedules (without variables, inputs or last pipeline: see `getPipelineSchedule`).
 *
 * ```ts
 * const paused = await getPipelineSchedules({ project: "acme/web", scope: "inactive" });
 * ```
 */
export const getPipelineSchedules = schedules;
/** `getPipelineSchedules` as an Output. */
export const getPipelineSchedulesOutput = schedules.output;

/** An ISO 8601 date and time (`2024-05-01T00:00:00Z`, an offset such as `+02:00` allowed). */
const dateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date and time, such as 2024-05-01T00:00:00Z" });

const pipelineFilters = {
  /** running, pending, finished (success, failed, canceled, skipped), branches or tags. */
  scope: z.enum(["running", "pending", "finished", "branches", "tags"]).optional(),
  status: z.enum(PIPELINE_STATUSES).optional(),
  /** By id: asc (the server's default, oldest first) or desc. */
  sort: z.enum(["asc", "desc"]).optional(),
  updatedAfter: dateTime.optional(),
  updatedBefore: dateTime.optional(),
  createdAfter: dateTime.optional(),
  createdBefore: dateTime.optional(),
};
type PipelineFilters = { [K in keyof typeof pipelineFilters]?: z.output<(typeof pipelineFilters)[K]> };

const pipelineQuery = (args: PipelineFilters) => ({
  scope: args.scope,
  status: args.status,
  sort: args.sort,
  updated_after: args.updatedAfter,
  updated_before: args.updatedBefore,
  created_after: args.createdAfter,
  created_before: args.createdBefore,
});

const schedulePipelines = defineListFunction({
  name: "getPipelineSchedulePipelines",
  args: z.object({ project, scheduleId, ...pipelineFilters }),
  path: (args) => `${schedulePath(args)}/pipelines`,
  query: pipelineQuery,
  subject: (args) => `the pipelines of pipeline schedule ${args.scheduleId} of project ${args.project}`,
  refusals: { 404: scheduleNotFound, 401: signedInOnly },
  item: pipelineShape,
});

/**
 * The pipelines a schedule ran, filtered as the API filters them.
 *
 * ```ts
 * const failures = await getPipelineSchedulePipelines({ project: "acme/web", scheduleId: 3, status: "failed", sort: "desc", limit: 5 });
 * ```
 */
export const getPipelineSchedulePipelines = schedulePipelines;
/** `getPipelineSchedulePipelines` as an Output. */
export const getPipelineSchedulePipelinesOutput = schedulePipelines.output;

const schedule = defineComposedFunction({
  name: "getPipelineSchedule",
  args: z.object({
    project,
    /** The schedule's id (see `getPipelineSchedules`). */
    scheduleId,
    /** Also read every pipeline the schedule ran (one more request per 100 pipelines). */
    withPipelines: z.boolean().optional(),
  }),
  subject: (args) => `pipeline schedule ${args.scheduleId} of project ${args.project}`,
  refusals: { 404: scheduleNotFound, 401: signedInOnly },
  secrets: ["value"],
  async run(read, args): Promise<PipelineScheduleInfo> {
    const found = await read.object(schedulePath(args), undefined, detailShape);
    if (!args.withPipelines) return found;
    return { ...found, pipelines: await read.list(`${schedulePath(args)}/pipelines`, undefined, pipelineShape) };
  },
});

/**
 * One pipeline schedule with its last pipeline, variables and inputs, and with
 * `withPipelines: true` every pipeline it ran. Secret in the Output form when
 * it has variables or inputs.
 *
 * ```ts
 * const nightly = await getPipelineSchedule({ project: "acme/web", scheduleId: 3, withPipelines: true });
 * ```
 */
export const getPipelineSchedule = schedule;
/** `getPipelineSchedule` as an Output. */
export const getPipelineScheduleOutput = schedule.output;
