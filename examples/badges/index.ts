/**
 * Badges a platform team puts on every project of a group: a pipeline badge
 * on the main project, and a documentation badge on the group itself (the
 * group's badges show on all its projects).
 *
 * Config (all optional): project, group, ciHost, docsHost.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge } from "pulumi-platform";

const config = new pulumi.Config();
const project = config.get("project") ?? "acme/web";
const group = config.get("group") ?? "acme";
const ciHost = config.get("ciHost") ?? "ci.example.com";
const docsHost = config.get("docsHost") ?? "docs.example.com";

const pipeline = new Badge("pipeline", {
  project,
  name: "pipeline",
  linkUrl: `https://${ciHost}/%{project_path}/-/pipelines?ref=%{default_branch}`,
  imageUrl: `https://${ciHost}/%{project_path}/badges/%{default_branch}/pipeline.svg`,
});

const docs = new Badge("docs", {
  group,
  name: "docs",
  linkUrl: `https://${docsHost}/%{project_path}`,
  imageUrl: "https://img.shields.io/badge/docs-online-blue",
});

// A badge someone made by hand before this program existed: taken over, not duplicated.
const coverage = new Badge("coverage", {
  project,
  name: "coverage",
  adoptExisting: true,
  linkUrl: `https://${ciHost}/%{project_path}/-/graphs/%{default_branch}/charts`,
  imageUrl: `https://${ciHost}/%{project_path}/badges/%{default_branch}/coverage.svg`,
});

export const pipelineBadge = pipeline.renderedImageUrl;
export const docsBadgeId = docs.badgeId;
export const coverageBadgeId = coverage.badgeId;
