/**
 * PipelineScheduleRun: runs a pipeline schedule now (`play`), at `up`, when
 * the resource is created and whenever its inputs change: give the schedule's
 * inputs that matter as `triggers` to run it again after they change. The
 * function form is `runPipelineSchedule` (../actions/pipeline-schedules.ts).
 * Destroy does nothing on the server: the pipeline that ran stays.
 *
 * The resource id is `projects/<project>/pipeline_schedules/<id>/runs/<time>`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { pipelineSchedulePath, pipelineSchedulePlayPath, scheduleId, scheduleRunRequests, scheduleSummaryRequests } from "../api/pipeline-schedules";
import { isUnknown } from "../engine/values";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { recordedOutput, type EngineContext } from "../engine/definition";
import { defineActionTrigger, triggers } from "./action-trigger";
import { ownerReference } from "../api/owner";
import { onProject } from "../api/needs";

const schema = z.object({
  /** The project (id or full path). */
  project: ownerReference,
  /** The schedule to run (a PipelineSchedule's `scheduleId`). */
  scheduleId,
  /** Values whose change runs the schedule again (`[schedule.ref, schedule.cron]`). */
  triggers,
});

export const pipelineScheduleRunDefinition = defineActionTrigger({
  name: "PipelineScheduleRun",
  words: { noun: "pipeline schedule run" },
  schema,
  outputs: {
    /** The server's answer (`201 Created`). */
    message: recordedOutput<string | null>(),
    /** When it ran (ISO 8601). */
    ranAt: recordedOutput<string>(),
  },
  // The schedule it plays must be there (known only once its id is: not for a schedule the same run creates).
  needs: (args) => ({
    on: onProject(args.project),
    subject: `pipeline schedule ${args.scheduleId} of project ${args.project}`,
    role: "Developer",
    ...(isUnknown(args.scheduleId)
      ? {}
      : {
          target: {
            property: "scheduleId",
            what: `pipeline schedule ${args.scheduleId} of project ${args.project}`,
            read: (ctx: EngineContext) => scheduleSummaryRequests.get(ctx.client, pipelineSchedulePath(args.project, args.scheduleId)),
          },
        }),
  }),
  async run(ctx, args) {
    const answer = await scheduleRunRequests.post(ctx.client, pipelineSchedulePlayPath(args.project, args.scheduleId), {});
    const ranAt = new Date().toISOString();
    return { id: `projects/${args.project}/pipeline_schedules/${args.scheduleId}/runs/${ranAt}`, outputs: { message: answer.message, ranAt } };
  },
});

export type PipelineScheduleRunArgs = ResourceArgs<typeof schema>;

/**
 * Runs a pipeline schedule at `up`: once when created, again when `triggers`
 * (or the schedule) change; never during a preview.
 *
 * ```ts
 * const nightly = new PipelineSchedule("nightly", { project: "acme/web", description: "Nightly", ref: "main", cron: "0 2 * * *" });
 * new PipelineScheduleRun("nightly-now", { project: "acme/web", scheduleId: nightly.scheduleId, triggers: [nightly.ref, nightly.cron] });
 * ```
 */
export interface PipelineScheduleRun extends ResourceOutputs<typeof pipelineScheduleRunDefinition> {}
export class PipelineScheduleRun extends PlatformResource {
  static {
    ofKind(this, pipelineScheduleRunDefinition);
  }
  constructor(name: string, args: PipelineScheduleRunArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
