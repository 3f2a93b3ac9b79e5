/**
 * The second program of the upgrade-path test (../../upgrade.e2e.test.ts):
 * its state as commit b2bd4a8 wrote it, after a first `up` on the emulator's
 * default seed with the group badge `coverage` made beforehand (see
 * scripts/make-upgrade-fixture.mts), is the fixture
 * ../../fixtures/state-b2bd4a8.json. It holds the life cycles of ../upgrade
 * (plain objects, secrets in a schedule and an integration, a settings
 * resource) and those added since release 0.1.0: an object taken over
 * (`adoptExisting`), an exclusive set, a SAML group link, a trigger resource
 * and a registry cleanup rule with its observed `wouldDelete`.
 *
 * Config: `ciHost` (default ci.example.com) changes the project badge's link,
 * for an update after the upgrade; secrets `deployToken` and `webhook`.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  Badge,
  ContainerRegistryCleanup,
  ExclusiveBadges,
  GroupIntegration,
  GroupSettings,
  PipelineSchedule,
  PipelineScheduleRun,
  SamlGroupLink,
} from "pulumi-platform";

const config = new pulumi.Config();
const ciHost = config.get("ciHost") ?? "ci.example.com";

new Badge("pipeline", {
  project: "acme/web",
  name: "pipeline",
  linkUrl: `https://${ciHost}/%{project_path}/-/pipelines`,
  imageUrl: "https://ci.example.com/%{project_path}/badges/%{default_branch}/pipeline.svg",
});

const docs = new Badge("docs", { group: "acme", name: "docs", linkUrl: "https://docs.example.com/%{project_path}", imageUrl: "https://img.shields.io/badge/docs-online-blue" });

// Made by hand before the first `up`, with another link: taken over and brought to this one.
const coverage = new Badge("coverage", {
  group: "acme",
  name: "coverage",
  linkUrl: "https://coverage.example.com/%{project_path}",
  imageUrl: "https://img.shields.io/badge/coverage-report-green",
  adoptExisting: true,
});

new ExclusiveBadges("only-these-badges", { group: "acme", keep: [docs.badgeId, coverage.badgeId] });

const nightly = new PipelineSchedule("nightly", {
  project: "acme/web",
  description: "Nightly build (upgrade test)",
  ref: "main",
  cron: "0 2 * * *",
  variables: [{ key: "DEPLOY_TOKEN", value: config.requireSecret("deployToken") }, { key: "TARGET", value: "staging" }],
});

new PipelineScheduleRun("first-build", { project: "acme/web", scheduleId: nightly.scheduleId, triggers: ["upgrade-test"] });

new GroupIntegration("chat", { group: "acme", slug: "mattermost", webhook: config.requireSecret("webhook"), channel: "ci" });

new GroupSettings("acme", { group: "acme", requestAccessEnabled: false, twoFactorGracePeriod: 24 });

new SamlGroupLink("developers", { group: "acme", samlGroupName: "platform-developers", accessLevel: "developer" });

// Keeps the two newest branch builds of api-server; by name and count only, so the server's clock plays no part.
new ContainerRegistryCleanup("branch-builds", { project: "acme/web", repository: "api-server", nameRegexDelete: "main-.*", keepN: 2 });
