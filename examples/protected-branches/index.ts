/**
 * Who may change what reaches a project's releases: the default branch takes
 * merges only, release branches are pushed by Maintainers and merged by
 * Developers, and only Maintainers tag releases.
 *
 * The default branch was protected when the project was made: `adoptExisting`
 * takes that rule over (the review shows each level before and after) rather
 * than making a second one, which the server refuses. A later change of a
 * level is one PATCH of the rule in place: the branch is never unprotected in
 * between.
 *
 * Run it with the token of a Maintainer of the project, on the Premium or
 * Ultimate tier (the approval rule). Config (all
 * optional): `project` (default acme/web), `defaultBranch` (default main),
 * `releaseMergers` (developer, the default, or maintainer), who may merge into release branches.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApprovalRule, getProtectedBranchesOutput, ProtectedBranch, ProtectedTag } from "pulumi-platform";

const config = new pulumi.Config();
const project = config.get("project") ?? "acme/web";
const defaultBranch = config.get("defaultBranch") ?? "main";

const main = new ProtectedBranch("default-branch", { project, name: defaultBranch, pushAccessLevel: "no_one", mergeAccessLevel: "maintainer", adoptExisting: true });
const releases = new ProtectedBranch("release-branches", { project, name: "release/*", pushAccessLevel: "maintainer", mergeAccessLevel: config.get("releaseMergers") === "maintainer" ? "maintainer" : "developer" });
const tags = new ProtectedTag("release-tags", { project, name: "v*", createAccessLevel: "maintainer" });

// Every rule of the project as the server holds it, the program's and any other.
export const rules = getProtectedBranchesOutput({ project }, { dependsOn: [main, releases] }).apply((list) =>
  list.map((rule) => `${rule.name}: push ${rule.pushAccessLevels.map((level) => level.accessLevelDescription).join(", ")}; merge ${rule.mergeAccessLevels.map((level) => level.accessLevelDescription).join(", ")}`),
);
export const releaseTagCreators = tags.createAccessLevels.apply((levels) => levels.map((level) => level.access_level_description));

// Two approvals for what merges into a release branch (Premium and Ultimate). The release rule is named by its
// name, which a preview knows while that rule changes (its id it does not): a new merge level leaves this rule alone.
export const releaseReview = new ApprovalRule("release-review", { project, name: "release review", approvalsRequired: 2, protectedBranches: releases.name.apply((name) => [name]) }).eligibleApprovers;
