/**
 * A platform team's standard badges on every project it looks after: a
 * pipeline badge, a coverage badge and a link to the project's runbook, three
 * per project. With a hundred projects that is three hundred resources in one
 * program: the provider paces itself by the server's rate-limit headers, so
 * the run takes about as long as the server's limit allows and nothing fails.
 *
 * Config: `projects` (required), the projects' full paths as a JSON list;
 * `ciHost` and `runbookHost` (optional).
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge } from "pulumi-platform";

const config = new pulumi.Config();
const projects = config.requireObject<string[]>("projects");
const ciHost = config.get("ciHost") ?? "ci.example.com";
const runbookHost = config.get("runbookHost") ?? "runbooks.example.com";

export const badgeIds = Object.fromEntries(
  projects.map((project) => {
    const prefix = project.replaceAll("/", "-");
    const pipeline = new Badge(`${prefix}-pipeline`, {
      project,
      name: "pipeline",
      linkUrl: `https://${ciHost}/%{project_path}/-/pipelines?ref=%{default_branch}`,
      imageUrl: `https://${ciHost}/%{project_path}/badges/%{default_branch}/pipeline.svg`,
    });
    const coverage = new Badge(`${prefix}-coverage`, {
      project,
      name: "coverage",
      linkUrl: `https://${ciHost}/%{project_path}/-/graphs/%{default_branch}/charts`,
      imageUrl: `https://${ciHost}/%{project_path}/badges/%{default_branch}/coverage.svg`,
    });
    const runbook = new Badge(`${prefix}-runbook`, {
      project,
      name: "runbook",
      linkUrl: `https://${runbookHost}/%{project_path}`,
      imageUrl: "https://img.shields.io/badge/runbook-open-green",
    });
    return [project, [pipeline.badgeId, coverage.badgeId, runbook.badgeId]];
  }),
);
