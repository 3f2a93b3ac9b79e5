/**
 * What every area shows of a project: `presentProject` (`Entities::Project`,
 * with `permissions` for `Entities::ProjectWithAccess`), `presentBasicProject`
 * (`Entities::BasicProjectDetails`, for anonymous and `simple` lists), and
 * `projectDetailsStore`, what the core model of a project lacks.
 */
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
  /** `squash_option`; absent: `default_off`. */
  squashOption?: SquashOption;
  /** The merge checks and the source branch's removal; absent: the defaults `presentProject` shows. */
  onlyAllowMergeIfPipelineSucceeds?: boolean;
  onlyAllowMergeIfAllDiscussionsAreResolved?: boolean;
  removeSourceBranchAfterMerge?: boolean;
  /** `ci_config_path`; absent: none (the default `.gitlab-ci.yml`). */
  ciConfigPath?: string;
  /** The features' access levels set (`<feature>_access_level`); a feature not listed is `enabled` (issues and merge requests: their flags). */
  accessLevels?: Partial<Record<ProjectFeature, FeatureAccessLevel>>;
  /** When the project was marked for deletion (delayed deletion); absent or null: not marked. */
  markedForDeletionAt?: string | null;
}

export const SQUASH_OPTIONS = ["never", "always", "default_on", "default_off"] as const;
export type SquashOption = (typeof SQUASH_OPTIONS)[number];

/** The features whose access level `PUT /projects/:id` sets (`container_registry` is the registry area's). */
export const PROJECT_FEATURES = [
  "issues",
  "repository",
  "merge_requests",
  "forking",
  "wiki",
  "builds",
  "snippets",
  "pages",
  "analytics",
  "releases",
  "environments",
  "feature_flags",
  "infrastructure",
  "monitor",
  "security_and_compliance",
] as const;
export type ProjectFeature = (typeof PROJECT_FEATURES)[number];
export const FEATURE_ACCESS_LEVELS = ["disabled", "private", "enabled"] as const;
/** Pages alone may also be `public`. */
export type FeatureAccessLevel = (typeof FEATURE_ACCESS_LEVELS)[number] | "public";

/** A feature's access level as the project shows it. */
export function featureAccessLevel(details: ProjectDetailsRecord, feature: ProjectFeature): FeatureAccessLevel {
  const set = details.accessLevels?.[feature];
  if (set !== undefined) return set;
  if (feature === "issues") return details.issuesEnabled ? "enabled" : "disabled";
  if (feature === "merge_requests") return details.mergeRequestsEnabled ? "enabled" : "disabled";
  return "enabled";
}

/** The features that live in the repository: never more open than it (ProjectFeature's `repository_children_level`). */
export const REPOSITORY_CHILDREN: readonly ProjectFeature[] = ["merge_requests", "builds"];
const LEVEL_RANK: Record<FeatureAccessLevel, number> = { disabled: 0, private: 1, enabled: 2, public: 3 };

/** The features a change would leave more open than the repository, each with the server's error. */
export function repositoryChildrenErrors(details: ProjectDetailsRecord, change: Partial<Record<ProjectFeature, FeatureAccessLevel>>): Record<string, string[]> {
  const level = (feature: ProjectFeature) => change[feature] ?? featureAccessLevel(details, feature);
  const repository = LEVEL_RANK[level("repository")];
  const errors: Record<string, string[]> = {};
  for (const feature of REPOSITORY_CHILDREN) {
    if (LEVEL_RANK[level(feature)] > repository) errors[`${feature}_access_level`] = ["cannot have higher visibility level than repository access level"];
  }
  return errors;
}

/** `marked_for_deletion_on`: the day the project was marked, or null. */
export const markedForDeletionOn = (details: ProjectDetailsRecord): string | null => details.markedForDeletionAt?.slice(0, 10) ?? null;

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

/**
 * `Entities::ProjectStatistics`, counted from the project's repository: the
 * commits of its default branch and its size on disk in bytes (an empty
 * repository has none); undefined while the repository has not been read
 * (the emulator does not claim what it has not counted). The rest of what
 * the emulator holds no files for (wiki, LFS, artifacts, packages, uploads,
 * registry images) is 0.
 */
export function projectStatistics(project: Project): Record<string, number> | undefined {
  const counted = project.lastCommitSha === null ? { commitCount: 0, repositorySize: 0 } : project.repositoryStatistics;
  if (!counted) return undefined;
  const repositorySize = counted.repositorySize;
  return {
    commit_count: counted.commitCount,
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
      kind: namespace.personalOf === undefined ? "group" : "user",
      full_path: namespacePath,
      parent_id: namespace.parentId,
      avatar_url: null,
      web_url: namespace.personalOf === undefined ? `${webBase}/groups/${namespacePath}` : `${webBase}/${namespacePath}`,
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
    wiki_enabled: featureAccessLevel(details, "wiki") !== "disabled",
    jobs_enabled: featureAccessLevel(details, "builds") !== "disabled",
    snippets_enabled: featureAccessLevel(details, "snippets") !== "disabled",
    container_registry_enabled: registryLevel !== "disabled",
    service_desk_enabled: false,
    ...Object.fromEntries(PROJECT_FEATURES.map((name) => [`${name}_access_level`, featureAccessLevel(details, name)])),
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
    only_allow_merge_if_pipeline_succeeds: details.onlyAllowMergeIfPipelineSucceeds ?? false,
    allow_merge_on_skipped_pipeline: false,
    request_access_enabled: true,
    only_allow_merge_if_all_discussions_are_resolved: details.onlyAllowMergeIfAllDiscussionsAreResolved ?? false,
    remove_source_branch_after_merge: details.removeSourceBranchAfterMerge ?? true,
    merge_method: details.mergeMethod ?? "merge",
    squash_option: details.squashOption ?? "default_off",
    ci_config_path: details.ciConfigPath ?? null,
    // The Enterprise Edition's fields (EE::API::Entities::Project).
    ...(state.instance.enterprise ? { marked_for_deletion_at: markedForDeletionOn(details), marked_for_deletion_on: markedForDeletionOn(details) } : {}),
    autoclose_referenced_issues: true,
  };
  const statistics = viewer.statistics && hasProjectAccess(state, viewer.user, project, AccessLevel.Reporter) ? projectStatistics(project) : undefined;
  if (statistics) body.statistics = statistics;
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

