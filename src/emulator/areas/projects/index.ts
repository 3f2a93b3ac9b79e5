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
import { ApiError, forbidden, paramError, validationError } from "../../errors";
import { findProject } from "../../lookup";
import { route, ok, type RequestContext } from "../../router";
import { type EmulatorArea } from "../../area";
import { AccessLevel, type Project, type Visibility } from "../../state";
import { projectListRoutes } from "./list";
import { archivedRefusal, createProjectRoute, lifecycleRoutes, nameAndPathErrors, rememberFormerPath, removeDueProjects, takenErrors, VISIBILITIES, visibilityError } from "./lifecycle";
import {
  FEATURE_ACCESS_LEVELS,
  MERGE_METHODS,
  presentProject,
  PROJECT_FEATURES,
  projectDetails,
  repositoryChildrenErrors,
  SQUASH_OPTIONS,
  type FeatureAccessLevel,
  type MergeMethod,
  type SquashOption,
} from "./present";

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

/** What `PUT /projects/:id` and `POST /projects` both set. */
const SETTINGS_PARAMS = {
  container_registry_access_level: { type: "string", values: REGISTRY_ACCESS_LEVELS },
  container_registry_enabled: { type: "boolean" },
  topics: { type: "string[]" },
  issues_enabled: { type: "boolean" },
  merge_requests_enabled: { type: "boolean" },
  merge_method: { type: "string", values: MERGE_METHODS },
  squash_option: { type: "string", values: SQUASH_OPTIONS },
  only_allow_merge_if_pipeline_succeeds: { type: "boolean" },
  only_allow_merge_if_all_discussions_are_resolved: { type: "boolean" },
  remove_source_branch_after_merge: { type: "boolean" },
  ci_config_path: { type: "string" },
  ...Object.fromEntries(PROJECT_FEATURES.map((feature) => [`${feature}_access_level`, { type: "string", values: feature === "pages" ? [...FEATURE_ACCESS_LEVELS, "public"] : FEATURE_ACCESS_LEVELS }])),
} as const satisfies Record<string, { type: "string" | "boolean" | "string[]"; values?: readonly string[] }>;

const UPDATE_PARAMS = {
  ...SETTINGS_PARAMS,
  name: { type: "string" },
  path: { type: "string" },
  description: { type: "string" },
  visibility: { type: "string", values: VISIBILITIES },
  default_branch: { type: "string" },
} as const;

const UPDATABLE = Object.keys(UPDATE_PARAMS);

/** `topics` as the real server takes them: an array, or one comma-separated string; blanks dropped, duplicates once. */
function topicList(topics: string[]): string[] {
  const names = topics.flatMap((topic) => topic.split(",")).map((topic) => topic.trim()).filter((topic) => topic !== "");
  return [...new Set(names)];
}

/** The settings a create or an update sends (the name, path, visibility and default branch are each route's own). */
function applySettings(ctx: RequestContext<Record<string, unknown>>, project: Project): void {
  const params = ctx.params;
  const levels = Object.fromEntries(PROJECT_FEATURES.flatMap((feature) => (params[`${feature}_access_level`] === undefined ? [] : [[feature, params[`${feature}_access_level`]]])));
  const childErrors = repositoryChildrenErrors(projectDetails(ctx.state, project), levels);
  if (Object.keys(childErrors).length > 0) throw validationError(childErrors);
  const given = (name: string) => params[name] !== undefined;
  if (given("container_registry_enabled")) project.containerRegistryAccessLevel = params.container_registry_enabled ? "enabled" : "disabled";
  if (given("container_registry_access_level")) project.containerRegistryAccessLevel = params.container_registry_access_level as Project["containerRegistryAccessLevel"];
  if (given("description")) project.description = params.description as string;
  const details = projectDetails(ctx.state, project);
  if (given("topics")) details.topics = topicList(params.topics as string[]);
  if (given("issues_enabled")) details.issuesEnabled = params.issues_enabled as boolean;
  if (given("merge_requests_enabled")) details.mergeRequestsEnabled = params.merge_requests_enabled as boolean;
  if (given("merge_method")) details.mergeMethod = params.merge_method as MergeMethod;
  if (given("squash_option")) details.squashOption = params.squash_option as SquashOption;
  if (given("only_allow_merge_if_pipeline_succeeds")) details.onlyAllowMergeIfPipelineSucceeds = params.only_allow_merge_if_pipeline_succeeds as boolean;
  if (given("only_allow_merge_if_all_discussions_are_resolved")) details.onlyAllowMergeIfAllDiscussionsAreResolved = params.only_allow_merge_if_all_discussions_are_resolved as boolean;
  if (given("remove_source_branch_after_merge")) details.removeSourceBranchAfterMerge = params.remove_source_branch_after_merge as boolean;
  if (given("ci_config_path")) details.ciConfigPath = params.ci_config_path as string;
  for (const feature of PROJECT_FEATURES) {
    const level = params[`${feature}_access_level`] as FeatureAccessLevel | undefined;
    if (level === undefined) continue;
    details.accessLevels = { ...details.accessLevels, [feature]: level };
    // The deprecated flags follow their features.
    if (feature === "issues") details.issuesEnabled = level !== "disabled";
    if (feature === "merge_requests") details.mergeRequestsEnabled = level !== "disabled";
  }
  if (given("issues_enabled") && !given("issues_access_level") && details.accessLevels) delete details.accessLevels.issues;
  if (given("merge_requests_enabled") && !given("merge_requests_access_level") && details.accessLevels) delete details.accessLevels.merge_requests;
}

const updateProject = route("PUT", "/projects/:id", { params: { id: { type: "string", required: true }, ...UPDATE_PARAMS } }, (ctx) => {
  const { params, state } = ctx;
  if (UPDATABLE.every((name) => (params as Record<string, unknown>)[name] === undefined)) {
    throw paramError(`${UPDATABLE.join(", ")} are missing, at least one parameter must be provided`);
  }
  const project = findProject(ctx);
  if (!hasProjectAccess(state, ctx.user, project, AccessLevel.Maintainer)) throw forbidden();
  const namespace = state.namespaceOf(project);
  const renamed = params.path !== undefined && params.path !== project.path;
  // Renaming the path, like changing the visibility, is the project's owners' (`change_path`, `change_visibility_level`).
  if ((renamed || (params.visibility !== undefined && params.visibility !== project.visibility)) && !hasProjectAccess(state, ctx.user, project, AccessLevel.Owner)) throw forbidden();
  const errors = {
    ...nameAndPathErrors(params.name, params.path),
    ...takenErrors(state, namespace, params.name, params.path, project),
    ...(params.visibility === undefined ? {} : visibilityError(namespace, params.visibility as Visibility)),
  };
  if (Object.keys(errors).length > 0) throw validationError(errors);
  if (params.default_branch !== undefined && params.default_branch !== project.defaultBranch && project.lastCommitSha !== null && !(project.branches ?? []).includes(params.default_branch)) {
    throw new ApiError(400, { message: `Could not set the default branch. Do you have a branch named ${params.default_branch}?` });
  }
  const oldFullPath = state.projectFullPath(project);
  if (params.name !== undefined) project.name = params.name;
  if (params.path !== undefined) project.path = params.path;
  rememberFormerPath(state, project, oldFullPath);
  if (params.visibility !== undefined) project.visibility = params.visibility as Visibility;
  if (params.default_branch !== undefined) project.defaultBranch = params.default_branch;
  applySettings(ctx as unknown as RequestContext<Record<string, unknown>>, project);
  projectDetails(state, project).updatedAt = state.now();
  return ok(presentProject(state, project, { user: ctx.user }));
});

const createProject = createProjectRoute(SETTINGS_PARAMS, applySettings);

export const projectsArea: EmulatorArea = {
  name: "projects",
  routes: [getProject, updateProject, createProject, ...lifecycleRoutes, ...projectListRoutes],
  refuses: archivedRefusal,
  runDue: removeDueProjects,
};
