/**
 * What every area shows of a project: `presentProject` (`Entities::Project`,
 * with `permissions` for `Entities::ProjectWithAccess`), `presentBasicProject`
 * (`Entities::BasicProjectDetails`, for anonymous and `simple` lists), and
 * `projectDetailsStore`, what the core model of a project lacks.
 */
import { createHash } from "node:crypto";
import { groupAccessLevel, hasProjectAccess } from "../../access";
import { containerRegistryStore, registryAccessLevelOf, registryHost } from "../container-registry/model";
import { AccessLevel, defineStore, type EmulatorState, type Project, type User } from "../../state";
import { starCountOf } from "../starring/model";
import { presentSharedWithGroups } from "../sharing/model";

// ---------------------------------------------------------------------------
// What the core model of a project lacks: topics, features, archiving, times

/** Per project (by id); a project without a record has the defaults of `projectDetails`. */
export interface ProjectDetailsRecord {
  topics: string[];
  archived: boolean;
  issuesEnabled: boolean;
  mergeRequestsEnabled: boolean;
  /** Last change of the project's settings; default its creation. */
  updatedAt: string;
  /** Last activity (pushes, issues, ...); default its creation. */
  lastActivityAt: string;
  /** How merge requests are merged (`merge_method`); absent: `merge`. */
  mergeMethod?: MergeMethod;
}

export const MERGE_METHODS = ["merge", "rebase_merge", "ff"] as const;
export type MergeMethod = (typeof MERGE_METHODS)[number];

export const projectDetailsStore = defineStore("projectDetails", (): { byProject: Record<string, ProjectDetailsRecord> } => ({ byProject: {} }));

/** The project's details, created with the defaults on first use (so a change can be written into it). */
export function projectDetails(state: EmulatorState, project: Project): ProjectDetailsRecord {
  const { byProject } = projectDetailsStore.of(state);
  byProject[String(project.id)] ??= {
    topics: [],
    archived: false,
    issuesEnabled: true,
    mergeRequestsEnabled: true,
    updatedAt: project.createdAt,
    lastActivityAt: project.createdAt,
  };
  return byProject[String(project.id)]!;
}

/** A number derived from the project's path, the same on every start (sizes and counts the emulator does not model). */
function derived(project: Project, salt: string, modulo: number): number {
  return Number.parseInt(createHash("sha1").update(`${salt}:${project.id}:${project.path}`).digest("hex").slice(0, 8), 16) % modulo;
}

/** `Entities::ProjectStatistics`: commits and sizes in bytes; an empty repository has none. */
export function projectStatistics(project: Project): Record<string, number> {
  const empty = project.lastCommitSha === null;
  const repositorySize = empty ? 0 : 1_000_000 + derived(project, "repository", 50_000_000);
  return {
    commit_count: empty ? 0 : 1 + derived(project, "commits", 2_000),
    storage_size: repositorySize,
    repository_size: repositorySize,
    wiki_size: 0,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    pipeline_artifacts_size: 0,
    packages_size: 0,
    snippets_size: 0,
    uploads_size: 0,
    container_registry_size: 0,
  };
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The description rendered as the real Markdown renderer does a one-line paragraph. */
function descriptionHtml(description: string): string {
  if (description === "") return "";
  return `<p data-sourcepos="1:1-1:${[...description].length}" dir="auto">${escapeHtml(description)}</p>`;
}

/** Who sees a project, and what they asked to see of it. */
export interface ProjectViewer {
  user: User | null;
  /** `statistics=true`: shown to Reporter+ (`read_statistics`) and administrators. */
  statistics?: boolean;
  /** `with_custom_attributes=true`: shown to administrators. */
  customAttributes?: boolean;
  /** `Entities::ProjectWithAccess` (get one, lists): the caller's `permissions` too; writes answer `Entities::Project` without them. */
  withAccess?: boolean;
}

/**
 * The basic project details: what anonymous callers and `simple=true` get.
 */
export function presentBasicProject(state: EmulatorState, project: Project, viewer: ProjectViewer = { user: null }): Record<string, unknown> {
  const namespace = state.namespaceOf(project);
  const namespacePath = state.groupFullPath(namespace);
  const fullPath = state.projectFullPath(project);
  const webBase = `https://${state.instance.host}`;
  const details = projectDetails(state, project);
  const body: Record<string, unknown> = {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${state.groupFullName(namespace)} / ${project.name}`,
    path: project.path,
    path_with_namespace: fullPath,
    created_at: project.createdAt,
    default_branch: project.defaultBranch,
    // tag_list is the deprecated name of topics (removal planned in v5); both are sent, sorted as the real entity sorts them.
    tag_list: [...details.topics].sort(),
    topics: [...details.topics].sort(),
    ssh_url_to_repo: `git@${state.instance.host}:${fullPath}.git`,
    http_url_to_repo: `${webBase}/${fullPath}.git`,
    web_url: `${webBase}/${fullPath}`,
    readme_url: project.lastCommitSha === null ? null : `${webBase}/${fullPath}/-/blob/${project.defaultBranch}/README.md`,
    forks_count: 0,
    avatar_url: null,
    star_count: starCountOf(state, project),
    last_activity_at: details.lastActivityAt,
    visibility: project.visibility,
    namespace: {
      id: namespace.id,
      name: namespace.name,
      path: namespace.path,
      kind: "group",
      full_path: namespacePath,
      parent_id: namespace.parentId,
      avatar_url: null,
      web_url: `${webBase}/groups/${namespacePath}`,
    },
  };
  if (viewer.customAttributes && viewer.user?.isAdmin) body.custom_attributes = [];
  return body;
}

/** `_links` of `Entities::Project`: issues and merge requests only while those features are on. */
function projectLinks(state: EmulatorState, project: Project): Record<string, string> {
  const api = `https://${state.instance.host}/api/v4/projects/${project.id}`;
  const details = projectDetails(state, project);
  return {
    self: api,
    ...(details.issuesEnabled ? { issues: `${api}/issues` } : {}),
    ...(details.mergeRequestsEnabled ? { merge_requests: `${api}/merge_requests` } : {}),
    repo_branches: `${api}/repository/branches`,
    labels: `${api}/labels`,
    events: `${api}/events`,
    members: `${api}/members`,
    cluster_agents: `${api}/cluster_agents`,
  };
}

/** The first Owner of the project's group chain stands for the creator, which the emulator does not record. */
function creatorId(state: EmulatorState, project: Project): number | null {
  const owner = state.users.find((user) => groupAccessLevel(state, user, state.namespaceOf(project)) >= AccessLevel.Owner);
  return owner?.id ?? null;
}

/**
 * A project with the fields of the API documentation, and `permissions` when a signed-in caller views it
 * (`Entities::ProjectWithAccess`, `withAccess`). Every area that shows a project uses this.
 */
export function presentProject(state: EmulatorState, project: Project, viewer: ProjectViewer = { user: null }): Record<string, unknown> {
  const fullPath = state.projectFullPath(project);
  const details = projectDetails(state, project);
  const registryLevel = registryAccessLevelOf(project);
  const feature = (enabled: boolean) => (enabled ? "enabled" : "disabled");
  const body: Record<string, unknown> = {
    ...presentBasicProject(state, project, viewer),
    description_html: descriptionHtml(project.description),
    // Named only while the instance has a registry (API::Entities::ProjectDetails: `if registry enabled`).
    container_registry_image_prefix: containerRegistryStore.of(state).enabled ? `${registryHost(state)}/${fullPath.toLowerCase()}` : undefined,
    _links: projectLinks(state, project),
    packages_enabled: true,
    empty_repo: project.lastCommitSha === null,
    archived: details.archived,
    resolve_outdated_diff_discussions: false,
    repository_object_format: "sha1",
    issues_enabled: details.issuesEnabled,
    merge_requests_enabled: details.mergeRequestsEnabled,
    wiki_enabled: true,
    jobs_enabled: true,
    snippets_enabled: true,
    container_registry_enabled: registryLevel !== "disabled",
    service_desk_enabled: false,
    issues_access_level: feature(details.issuesEnabled),
    repository_access_level: "enabled",
    merge_requests_access_level: feature(details.mergeRequestsEnabled),
    wiki_access_level: "enabled",
    builds_access_level: "enabled",
    snippets_access_level: "enabled",
    container_registry_access_level: registryLevel,
    emails_enabled: true,
    shared_runners_enabled: true,
    group_runners_enabled: true,
    lfs_enabled: true,
    creator_id: creatorId(state, project),
    import_status: "none",
    ...(details.issuesEnabled ? { open_issues_count: 0 } : {}),
    updated_at: details.updatedAt,
    public_jobs: true,
    shared_with_groups: presentSharedWithGroups(state, project.sharedWith),
    only_allow_merge_if_pipeline_succeeds: false,
    allow_merge_on_skipped_pipeline: false,
    request_access_enabled: true,
    only_allow_merge_if_all_discussions_are_resolved: false,
    remove_source_branch_after_merge: true,
    merge_method: details.mergeMethod ?? "merge",
    squash_option: "default_off",
    autoclose_referenced_issues: true,
  };
  if (viewer.statistics && hasProjectAccess(state, viewer.user, project, AccessLevel.Reporter)) body.statistics = projectStatistics(project);
  if (viewer.user && viewer.withAccess) {
    const direct = project.members[String(viewer.user.id)];
    const inherited = groupAccessLevel(state, viewer.user, state.namespaceOf(project));
    body.permissions = {
      project_access: direct ? { access_level: direct, notification_level: 3 } : null,
      group_access: inherited ? { access_level: inherited, notification_level: 3 } : null,
    };
  }
  return body;
}

