import { apiPath } from "pulumi-platform";
import type { KindTests } from "./index.mts";

export default {
  kind: "PipelineScheduleRun",
  matrix: (server) => [
    {
      setup: async (n) => ({ scheduleId: (await server.as("alice").post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: `run ${n}`, ref: "main", cron: "0 2 * * *" })).id }),
      create: (_n, setup) => ({ project: "acme/web", scheduleId: setup.scheduleId, triggers: ["a"] }),
      replace: { triggers: ["b"] },
      without: { update: "every input replaces: a run again" },
    },
    // The object gone: the schedule a run plays was deleted.
    {
      setup: async (n) => {
        const alice = server.as("alice");
        const { id } = await alice.post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: `gone ${n}`, ref: "main", cron: "0 2 * * *" });
        await alice.delete(apiPath`/projects/${"acme/web"}/pipeline_schedules/${id}`);
        return { scheduleId: id };
      },
      create: (_n, setup) => ({ project: "acme/web", scheduleId: setup.scheduleId, triggers: ["a"] }),
      without: { update: "every input replaces", delete: "it sends nothing", replace: "no run can exist of a schedule gone" },
    },
  ],
  secrets: { without: "no secret input or output: a trigger that runs a schedule at up" },
} satisfies KindTests;
