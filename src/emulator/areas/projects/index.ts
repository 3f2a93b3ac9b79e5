/**
 * Projects: `GET /projects/:id` (with `statistics` and `with_custom_attributes`),
 * the project presenters every area uses (`presentProject`, and
 * `presentBasicProject` for anonymous and `simple` lists), and
 * `PUT /projects/:id` for the settings the emulator models.
 *
 * The fields follow the API documentation and the real server's project
 * entities; `star_count` comes from the starring area.
 * What the core model lacks (topics, issues and merge-request features,
 * archiving, update and activity times) is kept in `projectDetailsStore`;
 * sizes and commit counts the emulator does not model are derived from the
 * project's path, the same on every start.
 *
 * `PUT`, as real servers answer it:
 * declared params only (unknown ones are ignored, as Grape does), at least
 * one of them (400 `... are missing, at least one parameter must be
 * provided`, listing the params this emulator accepts), `container_registry_access_level`
 * one of disabled, private, enabled (else Grape's `does not have a valid
 * value`), the deprecated boolean `container_registry_enabled` (true →
 * enabled, false → disabled; the access level wins when both are sent),
 * `topics` (an array or a comma-separated string), the deprecated booleans
 * `issues_enabled` and `merge_requests_enabled`, `merge_method` (merge,
 * rebase_merge, ff), and `admin_project`
 * (Maintainer+, else 403). A change sets `updated_at`. The answer is the project.
 */

import { hasProjectAccess } from "../../access";
import { REGISTRY_ACCESS_LEVELS } from "../container-registry/model";
import { forbidden, paramError } from "../../errors";
import { findProject } from "../../lookup";
import { route, ok } from "../../router";
import { type EmulatorArea } from "../../area";
import { AccessLevel, type Project } from "../../state";
import { projectListRoutes } from "./list";
import { MERGE_METHODS, presentProject, projectDetails, type MergeMethod } from "./present";

export * from "./present";

const getProject = route(
  "GET",
  "/projects/:id",
  { params: { id: { type: "string", required: true }, statistics: { type: "boolean" }, with_custom_attributes: { type: "boolean" } } },
  (ctx) => {
    const viewer = { user: ctx.user, statistics: ctx.params.statistics, customAttributes: ctx.params.with_custom_attributes, withAccess: true };
    return ok(presentProject(ctx.state, findProject(ctx), viewer));
  },
);

const UPDATABLE = ["container_registry_access_level", "container_registry_enabled", "description", "topics", "issues_enabled", "merge_requests_enabled", "merge_method"] as const;

/** `topics` as the real server takes them: an array, or one comma-separated string; blanks dropped, duplicates once. */
function topicList(topics: string[]): string[] {
  const names = topics.flatMap((topic) => topic.split(",")).map((topic) => topic.trim()).filter((topic) => topic !== "");
  return [...new Set(names)];
}

const updateProject = route(
  "PUT",
  "/projects/:id",
  {
    params: {
      id: { type: "string", required: true },
      container_registry_access_level: { type: "string", values: REGISTRY_ACCESS_LEVELS },
      container_registry_enabled: { type: "boolean" },
      description: { type: "string" },
      topics: { type: "string[]" },
      issues_enabled: { type: "boolean" },
      merge_requests_enabled: { type: "boolean" },
      merge_method: { type: "string", values: MERGE_METHODS },
    },
  },
  (ctx) => {
    const { params } = ctx;
    if (UPDATABLE.every((name) => params[name] === undefined)) {
      throw paramError(`${UPDATABLE.join(", ")} are missing, at least one parameter must be provided`);
    }
    const project = findProject(ctx);
    if (!hasProjectAccess(ctx.state, ctx.user, project, AccessLevel.Maintainer)) throw forbidden();
    if (params.container_registry_enabled !== undefined) {
      project.containerRegistryAccessLevel = params.container_registry_enabled ? "enabled" : "disabled";
    }
    if (params.container_registry_access_level !== undefined) {
      project.containerRegistryAccessLevel = params.container_registry_access_level as Project["containerRegistryAccessLevel"];
    }
    if (params.description !== undefined) project.description = params.description;
    const details = projectDetails(ctx.state, project);
    if (params.topics !== undefined) details.topics = topicList(params.topics);
    if (params.issues_enabled !== undefined) details.issuesEnabled = params.issues_enabled;
    if (params.merge_requests_enabled !== undefined) details.mergeRequestsEnabled = params.merge_requests_enabled;
    if (params.merge_method !== undefined) details.mergeMethod = params.merge_method as MergeMethod;
    details.updatedAt = ctx.state.now();
    return ok(presentProject(ctx.state, project, { user: ctx.user }));
  },
);

export const projectsArea: EmulatorArea = { name: "projects", routes: [getProject, updateProject, ...projectListRoutes] };
