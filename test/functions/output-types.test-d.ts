/**
 * Type checks of the data functions' Output form: compiled, not run (vitest's
 * "types" project and `npm run typecheck`), so a failed assertion is a type error.
 *
 * Results are loose objects (the API may add fields), so their types carry an
 * index signature; Pulumi's lifting alone would then make every lifted field an
 * `Output<unknown>`. These checks say that the declared fields keep their types.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expectTypeOf, it } from "vitest";
import {
  getApplicationSettings,
  getApplicationSettingsOutput,
  getBadge,
  getBadgeOutput,
  getBadgesOutput,
  getMergeRequestOutput,
  getMergeRequestRawDiffsOutput,
  getPipelineScheduleOutput,
  getProjectOutput,
  getProjectsOutput,
  type ApplicationSettingsInfo,
  type ProjectInfo,
  type BadgeInfo,
  type PipelineScheduleInfo,
} from "../../src/functions";

describe("the data functions' Output form", () => {
  it("lifts the declared fields with their types (objects, lists, composed, nested)", () => {
    // An object function: declared fields are lifted with their types.
    const badge = getBadgeOutput({ project: "acme/web", id: 1 });
    expectTypeOf(badge.renderedLinkUrl).toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf(badge.id).toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf(badge.name).toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf(badge.kind).toEqualTypeOf<pulumi.Output<"project" | "group">>();
    // The whole value, fields the API adds included, through apply; the Output is still a pulumi.Output of it.
    expectTypeOf(badge.apply((b) => b)).toEqualTypeOf<pulumi.Output<BadgeInfo>>();
    expectTypeOf(badge.apply((b) => b["someNewField"])).toEqualTypeOf<pulumi.Output<unknown>>();
    expectTypeOf(badge).toExtend<pulumi.Output<BadgeInfo>>();
    // The Promise form keeps its type.
    expectTypeOf(getBadge({ project: "acme/web", id: 1 })).toEqualTypeOf<Promise<BadgeInfo>>();

    // A list function: the array, its items through apply or lifted.
    const badges = getBadgesOutput({ group: "acme" });
    expectTypeOf(badges).toExtend<pulumi.Output<BadgeInfo[]>>();
    expectTypeOf(badges.apply((list) => list[0])).toEqualTypeOf<pulumi.Output<BadgeInfo | undefined>>();
    expectTypeOf(badges.length).toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf(badges[0]!.renderedImageUrl).toEqualTypeOf<pulumi.Output<string>>();

    // A composed function (an object and a list of its own), with nested objects.
    const schedule = getPipelineScheduleOutput({ project: "acme/web", scheduleId: 3, withPipelines: true });
    expectTypeOf(schedule.cron).toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf(schedule.active).toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf(schedule).toExtend<pulumi.Output<PipelineScheduleInfo>>();
    // A nullable object: its fields are lifted too, undefined when it is null (Pulumi's lifting gives undefined then).
    expectTypeOf(schedule.owner.username).toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf(schedule.lastPipeline.status).toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf(schedule.pipelines[0]!.sha).toEqualTypeOf<pulumi.Output<string | undefined>>();

    // Nested objects of a merge request.
    const mr = getMergeRequestOutput({ project: "acme/web", iid: 1 });
    expectTypeOf(mr.title).toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf(mr.author.username).toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf(mr.references.full).toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf(mr.headPipeline.status).toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf(mr.assignees[0]!.username).toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf(mr.assignees.length).toEqualTypeOf<pulumi.Output<number | undefined>>();

    // A text function: Pulumi's Output of a string.
    expectTypeOf(getMergeRequestRawDiffsOutput({ project: "acme/web", iid: 1 })).toEqualTypeOf<pulumi.Output<string>>();

    // The application settings: many optional fields, nested protection defaults.
    const settings = getApplicationSettingsOutput();
    expectTypeOf(settings.signupEnabled).toEqualTypeOf<pulumi.Output<boolean | null | undefined>>();
    expectTypeOf(settings.id).toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf(settings.defaultBranchProtectionDefaults.allowForcePush).toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf(settings).toExtend<pulumi.Output<ApplicationSettingsInfo>>();
    expectTypeOf(getApplicationSettings()).toEqualTypeOf<Promise<ApplicationSettingsInfo>>();

    // Projects: one and a list.
    const project = getProjectOutput({ project: "acme/web" });
    expectTypeOf(project.pathWithNamespace).toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf(project.markedForDeletionOn).toEqualTypeOf<pulumi.Output<string | null | undefined>>();
    expectTypeOf(project).toExtend<pulumi.Output<ProjectInfo>>();
    expectTypeOf(getProjectsOutput({ group: "acme" })[0]!.id).toEqualTypeOf<pulumi.Output<number>>();
  });
});
