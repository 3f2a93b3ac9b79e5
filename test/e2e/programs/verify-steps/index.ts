/**
 * The program of the verify-steps test (../../verify-steps.e2e.test.ts): each
 * resource is declared by a config key, so the test changes one step at a
 * time on one stack, with the tokens of several users of the default seed.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge, PipelineSchedule, SamlGroupLink, VirtualRegistry } from "pulumi-platform";

const config = new pulumi.Config();
const declared = (config.get("declare") ?? "").split(",");

if (declared.includes("schedule")) {
  new PipelineSchedule("nightly", {
    project: "acme/web",
    description: "Nightly",
    ref: "main",
    cron: "0 2 * * *",
    variables: [{ key: "MODE", value: config.get("mode") ?? "a" }],
    takeOwnership: config.getBoolean("takeOwnership"),
  });
}
if (declared.includes("groupBadge")) {
  new Badge("group-badge", { group: "acme", linkUrl: "https://ci.example.com/acme", imageUrl: "https://ci.example.com/acme.svg" });
}
if (declared.includes("registry")) new VirtualRegistry("registry", { group: "acme", name: "steps" });
if (declared.includes("tiered")) new SamlGroupLink("tiered", { group: "beta", samlGroupName: "beta-devs", accessLevel: "developer" });
