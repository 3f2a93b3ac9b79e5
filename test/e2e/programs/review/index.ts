/**
 * The program of the review test (../../review.e2e.test.ts): the objects a
 * platform team reviews most, in two versions. `phase` unset is the first
 * merge request; `phase=change` the second, which deletes a badge, replaces a
 * SAML link (its provider changes), updates a badge and a plain schedule
 * variable, rotates a secret one, creates a badge and takes one over;
 * `phase=broken` adds a badge of a group that does not exist, which the
 * preview refuses.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge, ExclusiveBadges, PipelineSchedule, SamlGroupLink } from "pulumi-platform";

const config = new pulumi.Config();
const phase = config.get("phase");
const change = phase === "change" || phase === "broken";

const kept: pulumi.Input<number>[] = [];
if (!change) {
  const legacy = new Badge("legacy", { group: "acme", name: "legacy", linkUrl: "https://legacy.example.com", imageUrl: "https://legacy.example.com/b.svg" });
  kept.push(legacy.badgeId);
}
const docs = new Badge("docs", {
  group: "acme",
  name: change ? "documentation" : "docs",
  linkUrl: "https://docs.example.com",
  imageUrl: "https://docs.example.com/badge.svg",
});
kept.push(docs.badgeId);
if (change) {
  kept.push(new Badge("status", { group: "acme", name: "status", linkUrl: "https://status.example.com", imageUrl: "https://status.example.com/b.svg" }).badgeId);
  // Made by hand before this program knew it: taken over, not duplicated.
  kept.push(new Badge("handmade", { group: "acme", name: "handmade", linkUrl: "https://hand.example.com/new", imageUrl: "https://hand.example.com/b.svg", adoptExisting: true }).badgeId);
}
new ExclusiveBadges("acme-badges", { group: "acme", keep: kept });

new SamlGroupLink("admins", { group: "acme", samlGroupName: "platform-admins", accessLevel: "maintainer", provider: change ? "okta" : undefined });

new PipelineSchedule("nightly", {
  project: "acme/web",
  description: "Nightly deploy (review test)",
  ref: "main",
  cron: "0 2 * * *",
  variables: [
    { key: "DEPLOY_ENVIRONMENT", value: change ? "production" : "staging" },
    { key: "DEPLOY_TOKEN", value: config.requireSecret("deployToken") },
  ],
});

if (phase === "broken") {
  new Badge("orphan", { group: "no-such-group", linkUrl: "https://orphan.example.com", imageUrl: "https://orphan.example.com/b.svg" });
}
