/** Pipeline schedules: schedules, their variables, their pipelines, and the scheduler. */
import { areaSeed, type EmulatorArea } from "../../area";
import { runDueSchedules } from "./jobs";
import { pipelineScheduleRoutes } from "./routes";
import { applyPipelineSchedulesSeed, pipelineSchedulesSeedSchema } from "./seed";

export const pipelineSchedulesArea: EmulatorArea = {
  name: "pipeline-schedules",
  routes: pipelineScheduleRoutes,
  // A schedule's ref must name a branch or tag of the project's seeded repository.
  after: ["repository"],
  runDue: runDueSchedules,
  seed: areaSeed({ key: "pipelineSchedules", schema: pipelineSchedulesSeedSchema, apply: applyPipelineSchedulesSeed }),
};
