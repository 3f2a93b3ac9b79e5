/**
 * Everything one platform team declares for its group, in one program: the
 * group's rules, who gets which role through SAML, the chat, tracker and
 * monitoring integrations, badges, the nightly deployment, the container
 * pull-through cache, and the instance-wide policy. All nine resources of
 * pulumi-platform, as a team would combine them.
 *
 * NEEDS an administrator's token on a self-managed (or dedicated) instance
 * with a Premium or Ultimate licence: ApplicationSettings exists only there,
 * SAML group links and virtual registries need the licence, and the
 * container virtual registries feature flag must be on. `npm run demo` runs
 * it against the emulator's default seed made self-managed and Ultimate.
 *
 * Every setting has a default, so the program runs as it is. A real stack sets
 * the secrets with `pulumi config set --secret <key> <value>`; the defaults
 * below are placeholders (still kept secret in the state).
 *
 * Config:
 *   group, project        the team's top-level group (default acme) and main project (default acme/web)
 *   chatWebhook           secret: the Mattermost incoming webhook
 *   chatChannel           where pipeline notifications go (default ci)
 *   trackerHost           the company issue tracker (default tracker.example.com)
 *   datadogApiKey         secret: sends pipeline and job events to Datadog
 *   developerRole         the role of the SAML group platform-developers (default developer;
 *                         change it to see a link replaced: the API has no update)
 *   ciHost, docsHost      hosts the badges point to (default ci.example.com, docs.example.com)
 *   nightlyCron           when the nightly deployment runs (default "0 2 * * *")
 *   deployToken           secret: passed to the nightly pipeline as DEPLOY_TOKEN
 *   dockerHubToken        secret: Docker Hub credentials of the pull-through cache
 *   cleanupCadence        days between cache cleanups: 1, 7, 14, 30 or 90 (default 7)
 *   gracePeriodHours      two-factor grace period of the group (default 48)
 *   termsText             the instance's terms of service
 */
import * as pulumi from "@pulumi/pulumi";
import {
  ApplicationSettings,
  Badge,
  CleanupPolicy,
  GroupIntegration,
  GroupSettings,
  PipelineSchedule,
  SamlGroupLink,
  Upstream,
  VirtualRegistry,
  type AccessLevelName,
} from "pulumi-platform";

const config = new pulumi.Config();
const group = config.get("group") ?? "acme";
const project = config.get("project") ?? "acme/web";
/** A secret from the stack config, or a placeholder (kept secret too) so the example runs with no set-up. */
const secret = (key: string, placeholder: string) => config.getSecret(key) ?? pulumi.secret(placeholder);

// ---------------------------------------------------------------------------
// The group's rules (a settings resource: the group exists already; destroy gives the prior values back)

new GroupSettings("group-settings", {
  group,
  requireTwoFactorAuthentication: true,
  twoFactorGracePeriod: config.getNumber("gracePeriodHours") ?? 48,
  projectCreationLevel: "maintainer",
  subgroupCreationLevel: "owner",
  requestAccessEnabled: false,
});

// ---------------------------------------------------------------------------
// Who gets which role: the identity provider's groups

const developers = new SamlGroupLink("developers", {
  group,
  samlGroupName: "platform-developers",
  accessLevel: (config.get("developerRole") as AccessLevelName | undefined) ?? "developer",
});
const leads = new SamlGroupLink("leads", { group, samlGroupName: "platform-leads", accessLevel: "maintainer" });

// ---------------------------------------------------------------------------
// Integrations for every project of the group; secrets come from the stack config

const chat = new GroupIntegration("chat", {
  group,
  slug: "mattermost",
  webhook: secret("chatWebhook", "https://chat.example.com/hooks/platform-team-placeholder"),
  channel: config.get("chatChannel") ?? "ci",
  branchesToBeNotified: "protected",
  notifyOnlyBrokenPipelines: true,
  pipelineEvents: true,
  pushEvents: false,
});

const trackerHost = config.get("trackerHost") ?? "tracker.example.com";
new GroupIntegration("tracker", {
  group,
  slug: "custom-issue-tracker",
  projectUrl: `https://${trackerHost}/projects/platform`,
  issuesUrl: `https://${trackerHost}/issues/:id`,
  newIssueUrl: `https://${trackerHost}/issues/new`,
});

new GroupIntegration("datadog", {
  group,
  slug: "datadog",
  apiKey: secret("datadogApiKey", "datadog-api-key-placeholder"),
  datadogSite: "datadoghq.eu",
  datadogEnv: "ci",
  datadogTags: "team:platform",
  pipelineEvents: true,
  jobEvents: true,
});

// ---------------------------------------------------------------------------
// Badges: one on the main project, one on the group (shown on all its projects)

const ciHost = config.get("ciHost") ?? "ci.example.com";
const pipelineBadge = new Badge("pipeline-badge", {
  project,
  name: "pipeline",
  linkUrl: `https://${ciHost}/%{project_path}/-/pipelines?ref=%{default_branch}`,
  imageUrl: `https://${ciHost}/%{project_path}/badges/%{default_branch}/pipeline.svg`,
});
new Badge("docs-badge", {
  group,
  name: "docs",
  linkUrl: `https://${config.get("docsHost") ?? "docs.example.com"}/%{project_path}`,
  imageUrl: "https://img.shields.io/badge/docs-online-blue",
});

// ---------------------------------------------------------------------------
// The nightly deployment of the main project

const nightly = new PipelineSchedule("nightly", {
  project,
  description: "Nightly build and deploy",
  ref: "main",
  cron: config.get("nightlyCron") ?? "0 2 * * *",
  cronTimezone: "Europe/Berlin",
  variables: [
    { key: "DEPLOY_TOKEN", value: secret("deployToken", "deploy-token-placeholder") },
    { key: "DEPLOY_ENVIRONMENT", value: "staging" },
  ],
  inputs: [{ name: "run_e2e", value: true }],
});

// ---------------------------------------------------------------------------
// The container pull-through cache: Docker Hub (authenticated) first, the team's mirror second

const registry = new VirtualRegistry("containers", { group, name: "containers", description: "Pull-through cache for CI images" });
const dockerHub = new Upstream("docker-hub", {
  registry: registry.registryId,
  name: "Docker Hub",
  url: "https://registry-1.docker.io",
  username: "platform-puller",
  password: secret("dockerHubToken", "dckr_pat_placeholder"),
  position: 1,
});
// Created after Docker Hub so both land at their declared positions in one `up`.
const mirror = new Upstream(
  "mirror",
  { registry: registry.registryId, name: "Team mirror", url: "https://mirror.example.com", position: 2 },
  { dependsOn: [dockerHub] },
);
// The group may already have a cleanup policy set up by hand: take it over rather than fail.
new CleanupPolicy("cache-cleanup", {
  group,
  adoptExisting: true,
  enabled: true,
  cadence: config.getNumber("cleanupCadence") ?? 7,
  keepNDaysAfterDownload: 30,
  notifyOnFailure: true,
});

// ---------------------------------------------------------------------------
// The instance-wide policy (administrators only; one per program)

new ApplicationSettings("instance", {
  signupEnabled: false,
  defaultProjectVisibility: "private",
  defaultGroupVisibility: "private",
  enforceTerms: true,
  terms: config.get("termsText") ?? "Use this instance for company work only.",
});

export const chatIntegration = chat.title;
export const samlLinks = [developers.samlGroupName, leads.samlGroupName];
export const pipelineBadgeUrl = pipelineBadge.renderedImageUrl;
export const nightlyNextRunAt = nightly.nextRunAt;
export const upstreamIds = [dockerHub.upstreamId, mirror.upstreamId];
