/**
 * Where a platform team starts: a subgroup of the company's group for one
 * team, its two projects with the merge rules the team works by, and the
 * labels its issues and merge requests share. A project's path is its
 * address: a new one renames it in place (the old address keeps
 * redirecting), and `archived` makes it read-only without deleting it. The
 * projects and labels name their owner by id, which a rename leaves as it is.
 *
 * Config (all optional): parent, apiPath, archiveWeb, bugColor.
 */
import * as pulumi from "@pulumi/pulumi";
import { Group, Label, Project } from "pulumi-platform";

const config = new pulumi.Config();

const parent = config.get("parent") ?? "acme";

const team = new Group("payments", {
  parent,
  name: "Payments",
  path: "payments",
  description: "The payments team's projects",
  visibility: "private",
});

const api = new Project("api", {
  group: team.groupId,
  name: "Payments API",
  path: config.get("apiPath") ?? "payments-api",
  description: "Charges, refunds and payouts",
  initializeWithReadme: true,
  mergeMethod: "ff",
  onlyAllowMergeIfPipelineSucceeds: true,
  removeSourceBranchAfterMerge: true,
  topics: ["payments", "api"],
});

const web = new Project("web", {
  group: team.groupId,
  name: "Payments Web",
  path: "payments-web",
  description: "The checkout pages",
  archived: config.getBoolean("archiveWeb") ?? false,
});

// On the group: every project of the team sees it.
new Label("bug", { group: team.groupId, name: "bug", color: config.get("bugColor") ?? "red", description: "Something is broken" });

// On the API project, first in its issue lists.
new Label("incident", { project: api.projectId, name: "incident", color: "#D9534F", description: "Customer-facing outage", priority: 1 });

// A label someone made by hand on the company's group before this program existed: taken over, not duplicated.
new Label("security", { group: parent, name: "security", color: "#AD4363", description: "Needs the security team", adoptExisting: true });

export const teamPath = team.fullPath;
export const apiPath = api.fullPath;
export const webPath = web.fullPath;
