/**
 * ExclusivePipelineSchedules: "these schedules and no others" on a project
 * (see ./exclusive-set.ts for when it records and removes).
 */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceOutputs } from "../engine/resource";
import { ownerReference } from "../api/owner";
import { pipelineScheduleNumberOf, pipelineSchedulePath, pipelineSchedulesPath, scheduleSummaryRequests } from "../api/pipeline-schedules";
import { type Entry, type ExclusiveSetArgs, exclusiveSetDefinition } from "./exclusive-set";
import { onProject } from "../api/needs";

type Owner = { project: string | number };

export const exclusivePipelineSchedulesDefinition = exclusiveSetDefinition<Owner>({
  name: "ExclusivePipelineSchedules",
  noun: "pipeline schedule",
  imported: { setOf: "PipelineSchedule", keeps: "scheduleId" },
  owner: { project: ownerReference },
  collectionPath: (args) => pipelineSchedulesPath(args.project).slice(1),
  // Listing needs the Reporter role; deleting someone else's schedule needs Maintainer.
  needs: (args, operation) => ({ on: onProject(args.project), role: operation === "update" ? "Maintainer" : "Reporter" }),

  async list(ctx, args) {
    const schedules = await scheduleSummaryRequests.list(ctx.client, pipelineSchedulesPath(args.project));
    return schedules.map((s) => ({ scheduleId: s.id, description: s.description, ref: s.ref, cron: s.cron }));
  },
  keyOf: (entry) => String(entry.scheduleId),
  // A PipelineSchedule's `scheduleId` (12) or its `id` (`projects/acme%2Fweb/pipeline_schedules/12`).
  keptKey: pipelineScheduleNumberOf,
  keepForm: "a PipelineSchedule's scheduleId or id",
  matchable: (entry: Entry) => [String(entry.scheduleId), String(entry.description)],
  async remove(ctx, args, entry) {
    await ctx.client.delete(pipelineSchedulePath(args.project, entry.scheduleId as number));
  },
});

export type ExclusivePipelineSchedulesArgs = ExclusiveSetArgs<Owner>;

/**
 * The schedules the program declares are the only pipeline schedules of a
 * project. `ignore` patterns match a schedule's description.
 *
 * ```ts
 * new ExclusivePipelineSchedules("only-ours", { project: "acme/web", keep: [nightly.scheduleId] });
 * ```
 */
export interface ExclusivePipelineSchedules extends ResourceOutputs<typeof exclusivePipelineSchedulesDefinition> {}
export class ExclusivePipelineSchedules extends PlatformResource {
  static {
    ofKind(this, exclusivePipelineSchedulesDefinition);
  }
  constructor(name: string, args: ExclusivePipelineSchedulesArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
