/**
 * The schedules a platform team runs on its main project: a nightly build
 * that deploys to staging with a token kept in the stack's secrets, and a
 * weekly dependency scan that someone once set up by hand in the UI (taken
 * over, not duplicated).
 *
 * Config (all optional):
 *   project        the project (default acme/web)
 *   nightlyCron    when the nightly build runs (default "0 2 * * *"); change it to see an in-place update
 *   timezone       IANA identifier or Rails zone name (default "Europe/Berlin")
 *   deployToken    secret: `pulumi config set --secret deployToken <token>`
 *   environment    the deployment target passed as a variable (default staging)
 */
import * as pulumi from "@pulumi/pulumi";
import { PipelineSchedule } from "pulumi-platform";

const config = new pulumi.Config();
const project = config.get("project") ?? "acme/web";
const timezone = config.get("timezone") ?? "Europe/Berlin";
// A real stack sets this with --secret; the placeholder keeps the example runnable as is.
const deployToken = config.getSecret("deployToken") ?? pulumi.secret("example-deploy-token");

const nightly = new PipelineSchedule("nightly", {
  project,
  description: "Nightly build and deploy",
  ref: "main", // the server stores refs/heads/main; either form shows no diff
  cron: config.get("nightlyCron") ?? "0 2 * * *",
  cronTimezone: timezone,
  variables: [
    { key: "DEPLOY_TOKEN", value: deployToken },
    { key: "DEPLOY_ENVIRONMENT", value: config.get("environment") ?? "staging" },
  ],
  inputs: [
    { name: "deploy_strategy", value: "rolling" },
    { name: "run_e2e", value: true },
  ],
});

// Made by hand before this program existed: adopted by description and ref.
const weeklyScan = new PipelineSchedule("weekly-dependency-scan", {
  project,
  description: "Weekly dependency scan",
  ref: "main",
  cron: "0 6 * * MON",
  cronTimezone: timezone,
  adoptExisting: true,
  // Whoever set it up by hand still owns it; the stack's user (a Maintainer) takes it over to change it.
  takeOwnership: true,
  variables: [{ key: "SCAN_PROFILE", value: "full" }],
});

export const nightlyScheduleId = nightly.scheduleId;
export const nightlyNextRunAt = nightly.nextRunAt;
export const nightlyOwner = nightly.owner;
export const weeklyScanScheduleId = weeklyScan.scheduleId;
