/**
 * A release step, kept beside the platform's other declarations: the release
 * pipeline sets `releaseVersion`, reviews the preview in a merge request, and
 * `pulumi up` after the merge then
 *
 * - commits the version's changelog to the default branch (ChangelogCommit),
 * - runs the nightly schedule once at once, so the release is built and
 *   deployed without waiting for the night (PipelineScheduleRun).
 *
 * Both are trigger resources: they act at `up` only, never in a preview, and
 * again only when the version (or the schedule) changes; the preview shows
 * each as a create or a replace before it happens. Destroy leaves the commit
 * and the pipeline as they are.
 *
 * Config:
 *   releaseVersion  the version being released, a semantic version (default 1.5.0)
 *   project         the project (default acme/web)
 *   releaseBranch   the branch the changelog is committed to (default: the project's default branch)
 */
import * as pulumi from "@pulumi/pulumi";
import { ChangelogCommit, PipelineSchedule, PipelineScheduleRun } from "pulumi-platform";

const config = new pulumi.Config();
const project = config.get("project") ?? "acme/web";
const version = config.get("releaseVersion") ?? "1.5.0";

const nightly = new PipelineSchedule("nightly", {
  project,
  description: "Nightly build and deploy",
  ref: "main",
  cron: "0 2 * * *",
});

const changelog = new ChangelogCommit("changelog", {
  project,
  version,
  branch: config.get("releaseBranch"),
  message: `Changelog for ${version}`,
});

// After the changelog (its commit is part of what the run builds); again for each new version.
const run = new PipelineScheduleRun("release-build", { project, scheduleId: nightly.scheduleId, triggers: [version] }, { dependsOn: [changelog] });

export const scheduleId = nightly.scheduleId;
export const changelogCommittedAt = changelog.committedAt;
export const releaseBuildRanAt = run.ranAt;
