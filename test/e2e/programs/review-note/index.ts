/**
 * The program of test/e2e/review-note.e2e.test.ts: what a review note shows
 * of a first apply that overwrites settings (a group's two-factor grace
 * period), of an owner the program names by numeric id (as platform-import
 * writes it), and of a schedule's variables, one of them secret.
 * `phase=drop` drops the badge, which the next preview deletes.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge, GroupSettings, PipelineSchedule } from "pulumi-platform";

const config = new pulumi.Config();
const acme = config.requireNumber("acmeId");
const drop = config.get("phase") === "drop";

new GroupSettings("acme-settings", { group: acme, twoFactorGracePeriod: 72 });

if (!drop) {
  new Badge("by-id", { group: acme, name: "by-id", linkUrl: "https://ci.example.com/by-id", imageUrl: "https://ci.example.com/by-id.svg" });
}

new PipelineSchedule("nightly", {
  project: "acme/web",
  description: "Nightly deploy (note test)",
  ref: "main",
  cron: "0 2 * * *",
  variables: [
    { key: "DEPLOY_ENVIRONMENT", value: "staging" },
    { key: "DEPLOY_TOKEN", value: pulumi.secret("planted-token-value") },
  ],
});
