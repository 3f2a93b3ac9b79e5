/**
 * The program of the review's retry fixtures (scripts/make-retry-fixtures.mts):
 * `phase` unset is the state before the merge request; `phase=change` the
 * merge request, which creates a schedule with two variables (a create of
 * several requests, which can fail after the schedule exists) and renames a
 * SAML group link (a replacement that creates the new link before it deletes
 * the old one). With `replacement=delete-first`, the merge request instead
 * changes a link's role (a replacement that deletes the old link first, as
 * two links of one name cannot coexist), and declares nothing else.
 */
import * as pulumi from "@pulumi/pulumi";
import { PipelineSchedule, SamlGroupLink } from "pulumi-platform";

const config = new pulumi.Config();
const change = config.get("phase") === "change";

if (config.get("replacement") === "delete-first") {
  new SamlGroupLink("devs", { group: "acme", samlGroupName: "platform-devs", accessLevel: change ? "maintainer" : "developer" });
} else {
  const ops = new SamlGroupLink("ops", { group: "acme", samlGroupName: change ? "platform-operations" : "platform-ops", accessLevel: "developer", provider: "okta" });
  if (change) {
    // After the link's new object: the schedule's failure then stops the engine between the replacement's halves.
    new PipelineSchedule(
      "nightly",
      {
        project: "acme/web",
        description: "Nightly deploy (retry test)",
        ref: "main",
        cron: "0 2 * * *",
        variables: [
          { key: "DEPLOY_ENVIRONMENT", value: "production" },
          { key: "DEPLOY_TOKEN", value: config.requireSecret("deployToken") },
        ],
      },
      { dependsOn: [ops] },
    );
  }
}
