/**
 * Pipeline schedules: run one now (`play`). The schedule's next run is not
 * affected; the pipeline runs as the caller, who needs the Developer role.
 * A trigger resource runs it as part of a program: ../resources/pipeline-schedule-run.ts.
 */
import { z } from "zod";
import { ownerReference } from "../api/owner";
import { pipelineSchedulePlayPath, scheduleId, scheduleNotFound, scheduleRunRequests } from "../api/pipeline-schedules";
import { signedInOnly } from "../calls/core";
import { defineAction, projectNeeds } from "./core";

/**
 * Runs a pipeline schedule now: a new scheduled pipeline starts at once, the
 * next scheduled run stays as it was. Answers the server's message (`201 Created`).
 *
 * ```ts
 * await runPipelineSchedule({ project: "acme/web", scheduleId: 3 });
 * ```
 */
export const runPipelineSchedule = defineAction({
  name: "runPipelineSchedule",
  verb: "run",
  args: z.object({
    /** The project (id or full path). */
    project: ownerReference,
    /** The schedule's id (see `getPipelineSchedules`, or a PipelineSchedule's `scheduleId`). */
    scheduleId,
  }),
  subject: (args) => `pipeline schedule ${args.scheduleId} of project ${args.project}`,
  needs: projectNeeds("Developer"),
  refusals: {
    401: signedInOnly,
    404: scheduleNotFound,
  },
  async run(call, args) {
    return scheduleRunRequests.post(call.client, pipelineSchedulePlayPath(args.project, args.scheduleId), {});
  },
});
