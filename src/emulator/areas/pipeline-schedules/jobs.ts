/** The scheduler: schedules whose next run has come. */
import type { EmulatorState } from "../../state";
import { computeNextRun, pipelineScheduleStore, runPipeline } from "./model";

/**
 * The schedule worker: every active schedule whose next run has come runs a
 * pipeline as its owner and is rescheduled from now.
 */
export function runDueSchedules(state: EmulatorState): void {
  const now = state.clock();
  for (const schedule of pipelineScheduleStore.of(state).schedules) {
    if (schedule.nextRunAt === null || Date.parse(schedule.nextRunAt) > now) continue;
    const project = state.projectById(schedule.projectId);
    if (!project) continue;
    if (schedule.active) runPipeline(state, project, schedule, schedule.ownerId);
    schedule.nextRunAt = computeNextRun(state, schedule);
  }
}

