/**
 * A release step, kept beside the platform's other declarations: the release
 * pipeline sets `releaseVersion`, reviews the preview in a merge request, and
 * `pulumi up` after the merge then
 *
 * - commits the version's changelog to the default branch (ChangelogCommit),
 * - runs the nightly schedule once at once, so the release is built and
 *   deployed without waiting for the night (PipelineScheduleRun);
 * - when `purgeHubCache` is set, purges the Docker Hub upstream's cache first,
 *   so the build pulls fresh base images (an action with no trigger
 *   resource: called from an `apply`, never in a preview).
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
 *   purgeHubCache   true to purge the upstream's cache at this `up` (default false)
 */
import * as pulumi from "@pulumi/pulumi";
import { ChangelogCommit, PipelineSchedule, PipelineScheduleRun, purgeUpstreamCache, Upstream, VirtualRegistry } from "pulumi-platform";

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

// The images the build pulls go through the group's virtual registry.
const images = new VirtualRegistry("images", { group: "acme", name: "release-images" });
const hub = new Upstream("docker-hub", { registry: images.registryId, name: "Docker Hub", url: "https://registry-1.docker.io" });
const purgeHub = config.getBoolean("purgeHubCache") ?? false;
// At `up` only (a preview never purges), and exported, so that a refused purge fails the `up`.
export const hubCachePurged = hub.upstreamId.apply(async (upstreamId) =>
  purgeHub && !pulumi.runtime.isDryRun() ? (await purgeUpstreamCache({ upstreamId })).scheduled : false,
);

// After the changelog (its commit is part of what the run builds); again for each new version.
const run = new PipelineScheduleRun("release-build", { project, scheduleId: nightly.scheduleId, triggers: [version] }, { dependsOn: [changelog] });

export const scheduleId = nightly.scheduleId;
export const changelogCommittedAt = changelog.committedAt;
export const releaseBuildRanAt = run.ranAt;
