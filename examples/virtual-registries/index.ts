/**
 * A platform team's container pull-through cache: one virtual registry in the
 * top-level group, with Docker Hub (authenticated, so pulls are not rate
 * limited) first and the team's own mirror second, and a cleanup policy that
 * keeps the cache small.
 *
 * Config (all optional except where noted):
 *   group               top-level group (default acme)
 *   registryName        (default containers)
 *   dockerHubUsername   (default platform-puller)
 *   dockerHubToken      secret: `pulumi config set --secret dockerHubToken ...`; without it Docker Hub is pulled anonymously
 *   mirrorUrl           (default https://mirror.example.com)
 *   cacheValidityHours  Docker Hub's cache validity (default 24)
 *   cleanupCadence      days between cleanups: 1, 7, 14, 30 or 90 (default 7)
 *   keepDays            keep entries downloaded in the last N days (default 30)
 */
import * as pulumi from "@pulumi/pulumi";
import { CleanupPolicy, Upstream, VirtualRegistry } from "pulumi-platform";

const config = new pulumi.Config();
const group = config.get("group") ?? "acme";
const dockerHubToken = config.getSecret("dockerHubToken");

const registry = new VirtualRegistry("containers", {
  group,
  name: config.get("registryName") ?? "containers",
  description: "Pull-through cache for CI images",
});

const dockerHub = new Upstream("docker-hub", {
  registry: registry.registryId,
  name: "Docker Hub",
  url: "https://registry-1.docker.io",
  // Both credentials or neither: the API refuses one without the other.
  ...(dockerHubToken ? { username: config.get("dockerHubUsername") ?? "platform-puller", password: dockerHubToken } : {}),
  cacheValidityHours: config.getNumber("cacheValidityHours") ?? 24,
  position: 1,
});

// Created after Docker Hub so the two land at the declared positions in one `up`.
const mirror = new Upstream(
  "mirror",
  {
    registry: registry.registryId,
    name: "Team mirror",
    url: config.get("mirrorUrl") ?? "https://mirror.example.com",
    description: "Images built by the platform team",
    position: 2,
  },
  { dependsOn: [dockerHub] },
);

// The group may already have a policy set up by hand: take it over rather than fail.
const cleanup = new CleanupPolicy("cache-cleanup", {
  group,
  adoptExisting: true,
  enabled: true,
  cadence: config.getNumber("cleanupCadence") ?? 7,
  keepNDaysAfterDownload: config.getNumber("keepDays") ?? 30,
  notifyOnFailure: true,
});

export const registryId = registry.registryId;
export const upstreamIds = [dockerHub.upstreamId, mirror.upstreamId];
export const nextCleanupAt = cleanup.nextRunAt;
