/**
 * The program of the upgrade-path test (../../upgrade.e2e.test.ts). Its state
 * as release 0.1.0 (commit 65b9cf0, the SDK's closure-serialized provider in
 * every resource) wrote it after a first `up` on the emulator's default seed
 * is the fixture ../../fixtures/state-65b9cf0.json; the test imports that state
 * and runs today's package on it. One resource of each life cycle: plain
 * objects (a project and a group badge), a schedule with a secret variable, an
 * integration with a secret setting, and a settings resource with prior values.
 *
 * Config: `ciHost` (default ci.example.com) changes the project badge's link,
 * for an update after the upgrade; secrets `deployToken` and `webhook`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge, GroupIntegration, GroupSettings, PipelineSchedule } from "pulumi-platform";

const config = new pulumi.Config();
const ciHost = config.get("ciHost") ?? "ci.example.com";

new Badge("pipeline", {
  project: "acme/web",
  name: "pipeline",
  linkUrl: `https://${ciHost}/%{project_path}/-/pipelines`,
  imageUrl: "https://ci.example.com/%{project_path}/badges/%{default_branch}/pipeline.svg",
});

new Badge("docs", { group: "acme", name: "docs", linkUrl: "https://docs.example.com/%{project_path}", imageUrl: "https://img.shields.io/badge/docs-online-blue" });

new PipelineSchedule("nightly", {
  project: "acme/web",
  description: "Nightly build (upgrade test)",
  ref: "main",
  cron: "0 2 * * *",
  variables: [{ key: "DEPLOY_TOKEN", value: config.requireSecret("deployToken") }, { key: "TARGET", value: "staging" }],
});

new GroupIntegration("chat", { group: "acme", slug: "mattermost", webhook: config.requireSecret("webhook"), channel: "ci" });

new GroupSettings("acme", { group: "acme", requestAccessEnabled: false, twoFactorGracePeriod: 24 });
