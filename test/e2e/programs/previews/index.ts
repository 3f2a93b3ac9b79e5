/**
 * The program of the previews test (../../previews.e2e.test.ts): a group
 * integration with a secret webhook and a pipeline schedule with two
 * variables, one from the stack's secret config (secret) and one plain in the
 * program (shown). Config `badInput` adds what a
 * JavaScript program (or one built from data) could declare by mistake:
 * `misspelt` a property nobody declares, `cron` an invalid cron expression.
 */
import * as pulumi from "@pulumi/pulumi";
import { GroupIntegration, PipelineSchedule } from "pulumi-platform";

const config = new pulumi.Config();
const badInput = config.get("badInput");

new GroupIntegration("chat", { group: "acme", slug: "mattermost", webhook: config.requireSecret("webhook"), channel: "ci" });

const schedule: Record<string, unknown> = {
  project: "acme/web",
  description: "Nightly build (previews test)",
  ref: "main",
  cron: badInput === "cron" ? "every monday" : "0 2 * * *",
  variables: [
    { key: "DEPLOY_TOKEN", value: config.requireSecret("deployToken") },
    { key: "TARGET", value: config.get("target") ?? "staging", variableType: "env_var" },
  ],
};
if (badInput === "misspelt") schedule.cronTimeZone = "Europe/Berlin";
new PipelineSchedule("nightly", schedule as unknown as ConstructorParameters<typeof PipelineSchedule>[1]);
