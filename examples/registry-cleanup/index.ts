/**
 * A platform team's container registry tag rules, stated once and kept: each
 * `pulumi up` runs them through the server's bulk tag deletion, and each
 * preview (the merge request's review) lists the tags a run would delete now
 * in `wouldDelete`. A preview with nothing to delete shows no change.
 *
 * - Release images of the API server: keep the `keepReleases` newest `v*`
 *   tags, delete the rest once older than 30 days. `latest` is never deleted.
 * - The project's own image: branch builds go after 7 days; `main` and
 *   `stable` stay.
 *
 * Run it with the token of a Maintainer of the project. The server runs a
 * repository's bulk deletion at most once an hour: an `up` inside that hour
 * leaves the repository for the next one, with a warning. Destroying the
 * stack deletes no image: the rules stop being applied.
 *
 * Config (all optional): `project` (default acme/web), `keepReleases` (default 10).
 */
import * as pulumi from "@pulumi/pulumi";
import { ContainerRegistryCleanup } from "pulumi-platform";

const config = new pulumi.Config();
const project = config.get("project") ?? "acme/web";

const releases = new ContainerRegistryCleanup("api-releases", {
  project,
  repository: "api-server",
  nameRegexDelete: "v.+",
  keepN: config.getNumber("keepReleases") ?? 10,
  olderThan: "30d",
});

const branchBuilds = new ContainerRegistryCleanup("branch-builds", {
  project,
  repository: "",
  nameRegexDelete: ".*",
  nameRegexKeep: "(?:main|stable)",
  olderThan: "7d",
});

/** What each rule had the server delete at its last accepted run, per repository. */
export const deleted = { releases: releases.deleted, branchBuilds: branchBuilds.deleted };
/** Repositories the server refused to clean at the last up (its once-an-hour limit), with its answer. */
export const refused = { releases: releases.refused, branchBuilds: branchBuilds.refused };
