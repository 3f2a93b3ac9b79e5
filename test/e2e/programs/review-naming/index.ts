/**
 * The program of the review's naming fixtures (scripts/make-review-fixtures.mts):
 * what a report must name right. `phase` unset is the first apply;
 * `phase=change` moves a badge to another project (a replacement whose owner
 * changes), takes over a badge made by hand that an only-these set keeps, and
 * changes a schedule that someone else took ownership of, with
 * `takeOwnership`; `REVIEW_NAMING_STRAYED=true` in the environment then
 * drops a badge the saved plan creates.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge, ExclusiveBadges, PipelineSchedule } from "pulumi-platform";

const config = new pulumi.Config();
const change = config.get("phase") === "change";
// Set in the environment, not in config: a config change alone makes every resource stray from a saved plan.
const strayed = process.env.REVIEW_NAMING_STRAYED === "true";

new Badge("moved", {
  project: change ? "acme/api" : "acme/web",
  name: "moved",
  linkUrl: "https://moved.example.com",
  imageUrl: "https://moved.example.com/b.svg",
});

const kept: pulumi.Input<number>[] = [];
if (change) {
  // Made by hand in the project before this program knew it: taken over, and kept by the set below.
  kept.push(new Badge("handmade", { project: "acme/platform/infra", name: "handmade", linkUrl: "https://hand.example.com/new", imageUrl: "https://hand.example.com/b.svg", adoptExisting: true }).badgeId);
}
if (change && !strayed) {
  new Badge("extra", { project: "acme/web", name: "extra", linkUrl: "https://extra.example.com", imageUrl: "https://extra.example.com/b.svg" });
}
new ExclusiveBadges("infra-badges", { project: "acme/platform/infra", keep: kept });

new PipelineSchedule("nightly", {
  project: "acme/web",
  description: "Nightly deploy (naming test)",
  ref: "main",
  cron: change ? "0 3 * * *" : "0 2 * * *",
  takeOwnership: change ? true : undefined,
});
