/**
 * A project's life: creation (`POST /projects`), the rules a name, a path and
 * a visibility keep, renames and transfers (each leaves the old full path
 * redirecting), archiving, and deletion, delayed where the instance has it
 * (marked, restorable, removed for good when the period ends or when asked).
 * What each answers, and what it follows, is in the emulator's README
 * ("Projects: creation, transfer, archive, deletion").
 */
import { groupAccessLevel, hasGroupAccess, hasProjectAccess } from "../../access";
import { ApiError, forbidden, notFound, validationError } from "../../errors";
import { findProject } from "../../lookup";
import { canReadGroup } from "../../access";
import { created, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, Sequence, type EmulatorState, type Group, type Project, type User, type Visibility } from "../../state";
import { deletionIsDelayed as groupDeletionIsDelayed, settingsOf } from "../groups/model";
import { repositoryOf } from "../repository/model";
import { markedForDeletionOn, presentProject, projectDetails, projectDetailsStore } from "./present";

// ---------------------------------------------------------------------------
// Names, paths and visibility

const PATH_FORMAT = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;
const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
const NAME_FORMAT = /^[\p{L}\p{N}_\p{Extended_Pictographic}][\p{L}\p{N}\p{Extended_Pictographic}_.+\- ]*$/u;
const NAME_MESSAGE = "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.";

/** Paths a project may not take: they are routes of the project's own pages (`Gitlab::PathRegex::PROJECT_WILDCARD_ROUTES`). */
export const RESERVED_PROJECT_PATHS: readonly string[] = [
  "-",
  "badges",
  "blame",
  "blob",
  "builds",
  "commits",
  "create",
  "create_dir",
  "edit",
  "environments",
  "files",
  "find_file",
  "new",
  "preview",
  "raw",
  "refs",
  "tree",
  "update",
  "wikis",
];

const VISIBILITY_RANK: Record<Visibility, number> = { private: 0, internal: 1, public: 2 };

/** The errors of a name and a path (`render_validation_error!` keys), empty when both are good. */
export function nameAndPathErrors(name: string | undefined, path: string | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (name !== undefined && (name.length > 255 || !NAME_FORMAT.test(name))) errors.name = [NAME_MESSAGE];
  if (path !== undefined) {
    const problems: string[] = [];
    if (!PATH_FORMAT.test(path) || path.endsWith(".git") || path.endsWith(".atom") || path.length > 255) problems.push(PATH_MESSAGE);
    if (RESERVED_PROJECT_PATHS.includes(path.toLowerCase())) problems.push(`${path} is a reserved name`);
    if (problems.length > 0) errors.path = problems;
  }
  return errors;
}

/** `visibility_level_allowed_by_group`: a project is never more visible than its group. */
export function visibilityError(namespace: Group, visibility: Visibility): Record<string, string[]> {
  if (namespace.personalOf !== undefined || VISIBILITY_RANK[visibility] <= VISIBILITY_RANK[namespace.visibility]) return {};
  return { visibility_level: [`${visibility} is not allowed in a ${namespace.visibility} group.`] };
}

/** Another project of the namespace already has the name or the path (case-insensitively). */
export function takenErrors(state: EmulatorState, namespace: Group, name: string | undefined, path: string | undefined, except?: Project): Record<string, string[]> {
  const others = state.projects.filter((project) => project.namespaceId === namespace.id && project !== except);
  const errors: Record<string, string[]> = {};
  // Names are unique as written; paths whatever their case (routes are matched so).
  if (name !== undefined && others.some((project) => project.name === name)) errors.name = ["has already been taken"];
  if (path !== undefined && others.some((project) => project.path.toLowerCase() === path.toLowerCase())) errors.path = ["has already been taken"];
  return errors;
}

/** The role `project_creation_level` asks of a creator (none: nobody but an administrator). */
const CREATION_LEVEL: Record<string, number | undefined> = {
  developer: AccessLevel.Developer,
  maintainer: AccessLevel.Maintainer,
  owner: AccessLevel.Owner,
  noone: undefined,
  administrator: undefined,
};

/** `create_projects` on a namespace: its user; in a group, the role its `project_creation_level` names; administrators always. */
export function mayCreateProjectsIn(state: EmulatorState, user: User, namespace: Group): boolean {
  if (user.isAdmin) return true;
  if (namespace.personalOf !== undefined) return namespace.personalOf === user.id;
  const needed = CREATION_LEVEL[settingsOf(state, namespace).project_creation_level];
  return needed !== undefined && groupAccessLevel(state, user, namespace) >= needed;
}

/** The namespace a request names by id or full path: a group the caller sees, or the caller's own personal namespace. */
function namespaceNamed(ctx: RequestContext<unknown>, user: User, reference: string): Group {
  const { state } = ctx;
  const found = /^\d+$/.test(reference)
    ? state.groupById(Number(reference))
    : state.groups.find((group) => state.groupFullPath(group).toLowerCase() === reference.toLowerCase());
  if (!found) throw notFound("Namespace");
  if (found.personalOf !== undefined ? found.personalOf !== user.id && !user.isAdmin : !canReadGroup(state, user, found)) throw notFound("Namespace");
  return found;
}

/** `path` from a name alone, as `parameterize` makes it. */
const pathFromName = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/[^\x00-\x7F]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/^-+|-+$/g, "");

const fail = (errors: Record<string, string[]>): void => {
  if (Object.keys(errors).length > 0) throw validationError(errors);
};

// ---------------------------------------------------------------------------
// POST /projects

export const VISIBILITIES = ["private", "internal", "public"] as const;

export function createProjectRoute(settingsParams: Record<string, { type: "string" | "boolean" | "string[]"; values?: readonly string[] }>, applySettings: (ctx: RequestContext<Record<string, unknown>>, project: Project) => void): RouteDefinition {
  return route(
    "POST",
    "/projects",
    {
      params: {
        ...settingsParams,
        name: { type: "string" },
        path: { type: "string" },
        namespace_id: { type: "integer" },
        description: { type: "string" },
        visibility: { type: "string", values: VISIBILITIES },
        default_branch: { type: "string" },
        initialize_with_readme: { type: "boolean" },
      },
    },
    async (ctx) => {
      const user = requireUser(ctx);
      const { state } = ctx;
      const params = ctx.params as Record<string, unknown> & { name?: string; path?: string; namespace_id?: number; description?: string; visibility?: Visibility; default_branch?: string; initialize_with_readme?: boolean };
      if (params.name === undefined && params.path === undefined) throw new ApiError(400, { error: "name, path are missing, at least one parameter must be provided" });
      const namespace = params.namespace_id === undefined ? state.personalNamespaceOf(user) : namespaceNamed(ctx, user, String(params.namespace_id));
      if (!mayCreateProjectsIn(state, user, namespace)) throw validationError({ namespace: ["is not valid"] });
      const name = params.name ?? params.path!;
      const path = params.path ?? pathFromName(name);
      const visibility = params.visibility ?? "private";
      fail({ ...nameAndPathErrors(name, path), ...takenErrors(state, namespace, name, path), ...visibilityError(namespace, visibility) });
      const groupDefault = namespace.personalOf === undefined ? settingsOf(state, namespace).default_branch : null;
      const now = state.now();
      const project: Project = {
        id: state.nextId(Sequence.projects),
        name,
        path,
        namespaceId: namespace.id,
        visibility,
        description: params.description ?? "",
        createdAt: now,
        defaultBranch: params.default_branch ?? groupDefault ?? "main",
        lastCommitSha: null,
        latestTag: null,
        branches: [],
        branchHeads: {},
        tags: [],
        // A creator below Maintainer of the group maintains the project it made.
        members: namespace.personalOf === undefined && !user.isAdmin && groupAccessLevel(state, user, namespace) < AccessLevel.Maintainer ? { [String(user.id)]: AccessLevel.Maintainer } : {},
        formerPaths: [],
      };
      // The settings first: one the server refuses leaves no project behind.
      try {
        applySettings(ctx as RequestContext<Record<string, unknown>>, project);
      } catch (error) {
        delete projectDetailsStore.of(state).byProject[String(project.id)];
        throw error;
      }
      state.projects.push(project);
      if (params.initialize_with_readme) {
        const repository = await repositoryOf(state, project);
        await repository.commit({
          branch: project.defaultBranch,
          message: "Initial commit",
          author: { name: user.name, email: user.email },
          actions: [{ action: "create", filePath: "README.md", content: `# ${name}\n\n${project.description}\n` }],
        });
      }
      return created(presentProject(state, project, { user }));
    },
  );
}

// ---------------------------------------------------------------------------
// Renames and transfers

/** A rename or a transfer: the old full path answers with a redirect from now on. */
export function rememberFormerPath(state: EmulatorState, project: Project, oldFullPath: string): void {
  if (state.projectFullPath(project).toLowerCase() !== oldFullPath.toLowerCase() && !project.formerPaths.includes(oldFullPath)) project.formerPaths.push(oldFullPath);
}

/** Ruby's inspect of the errors hash, as `Failed to transfer project <errors>` writes it. */
const transferFailed = (message: string): ApiError => new ApiError(400, { message: `Failed to transfer project {:new_namespace=>[${JSON.stringify(message)}]}` });

const transferProject = route("PUT", "/projects/:id/transfer", { params: { id: { type: "string", required: true }, namespace: { type: "string", required: true } } }, (ctx) => {
  const user = requireUser(ctx);
  const { state } = ctx;
  const project = findProject(ctx);
  if (!hasProjectAccess(state, user, project, AccessLevel.Owner)) throw forbidden();
  const target = namespaceNamed(ctx, user, ctx.params.namespace);
  if (target.id === project.namespaceId) throw transferFailed("Project is already in this namespace.");
  const transfers = target.personalOf !== undefined ? target.personalOf === user.id || user.isAdmin : mayCreateProjectsIn(state, user, target) && hasGroupAccess(state, user, target, AccessLevel.Maintainer);
  if (!transfers) throw transferFailed("You don't have permission to transfer projects into that namespace.");
  if (Object.keys(takenErrors(state, target, project.name, project.path)).length > 0) throw transferFailed("Project with same name or path in target namespace already exists");
  const oldFullPath = state.projectFullPath(project);
  project.namespaceId = target.id;
  // A project more visible than its new group takes the group's visibility.
  if (Object.keys(visibilityError(target, project.visibility)).length > 0) project.visibility = target.visibility;
  rememberFormerPath(state, project, oldFullPath);
  projectDetails(state, project).updatedAt = state.now();
  return { status: 200, body: presentProject(state, project, { user }) };
});

// ---------------------------------------------------------------------------
// Archive

const archiving = (method: "archive" | "unarchive") =>
  route("POST", `/projects/:id/${method}`, { params: { id: { type: "string", required: true } } }, (ctx) => {
    const user = requireUser(ctx);
    const project = findProject(ctx);
    if (!hasProjectAccess(ctx.state, user, project, AccessLevel.Owner)) throw forbidden();
    const details = projectDetails(ctx.state, project);
    // Idempotent: archiving an archived project changes nothing.
    if (details.archived !== (method === "archive")) {
      details.archived = method === "archive";
      details.updatedAt = ctx.state.now();
    }
    return created(presentProject(ctx.state, project, { user }));
  });

/** The project routes an archived project still takes: its own settings, its life, stars. */
const OPEN_WHEN_ARCHIVED = new Set(["/projects/:id", "/projects/:id/archive", "/projects/:id/unarchive", "/projects/:id/transfer", "/projects/:id/restore", "/projects/:id/star", "/projects/:id/unstar"]);
const READS = new Set(["GET", "HEAD"]);

/** An archived project is read-only: a write to anything it holds is refused (403), as the archived project's policy prevents it. */
export function archivedRefusal(ctx: RequestContext, definition: RouteDefinition): ApiError | undefined {
  if (READS.has(ctx.method) || !definition.path.startsWith("/projects/:id/") || OPEN_WHEN_ARCHIVED.has(definition.path)) return undefined;
  const reference = ctx.pathParams["id"] ?? "";
  const project = /^\d+$/.test(reference) ? ctx.state.projectById(Number(reference)) : ctx.state.projectByFullPath(reference);
  // A project not found here is the handler's to answer (404, a redirect).
  if (!project || !projectDetailsStore.of(ctx.state).byProject[String(project.id)]?.archived) return undefined;
  return forbidden();
}

// ---------------------------------------------------------------------------
// Deletion

/** Days a project marked for deletion waits before it is removed (the instance's `deletion_adjourned_period` default). */
export const DELETION_ADJOURNED_DAYS = 30;

/**
 * Whether a deletion is delayed: as for groups, on the Enterprise Edition
 * (every tier since 18.0); never for a project of a personal namespace.
 */
export function deletionIsDelayed(state: EmulatorState, project: Project): boolean {
  return state.namespaceOf(project).personalOf === undefined && groupDeletionIsDelayed(state);
}

/** Removes a project and what the projects area keeps of it. */
export function removeProject(state: EmulatorState, project: Project): void {
  state.projects = state.projects.filter((one) => one !== project);
  delete projectDetailsStore.of(state).byProject[String(project.id)];
}

const accepted = () => ({ status: 202, body: { message: "202 Accepted" } });

const deleteProject = route(
  "DELETE",
  "/projects/:id",
  { params: { id: { type: "string", required: true }, permanently_remove: { type: "boolean" }, full_path: { type: "string" } } },
  (ctx) => {
    const user = requireUser(ctx);
    const { state, params } = ctx;
    const project = findProject(ctx);
    if (!hasProjectAccess(state, user, project, AccessLevel.Owner)) throw forbidden();
    const details = projectDetails(state, project);
    const marked = markedForDeletionOn(details) !== null;
    if (params.permanently_remove) {
      if (!marked) throw new ApiError(400, { message: "Project must be marked for deletion first." });
      if ((params.full_path ?? "") !== state.projectFullPath(project)) throw new ApiError(400, { message: "`full_path` is incorrect. You must enter the complete path for the project." });
      removeProject(state, project);
      return accepted();
    }
    if (marked) throw new ApiError(400, { message: "Project has been already marked for deletion" });
    if (!deletionIsDelayed(state, project)) {
      removeProject(state, project);
      return accepted();
    }
    details.markedForDeletionAt = state.now();
    details.updatedAt = state.now();
    return accepted();
  },
);

const restoreProject = route("POST", "/projects/:id/restore", { params: { id: { type: "string", required: true } } }, (ctx) => {
  const user = requireUser(ctx);
  const project = findProject(ctx);
  if (!hasProjectAccess(ctx.state, user, project, AccessLevel.Owner)) throw forbidden();
  const details = projectDetails(ctx.state, project);
  if (markedForDeletionOn(details) === null) throw new ApiError(400, { message: "Project not marked for deletion" });
  details.markedForDeletionAt = null;
  details.updatedAt = ctx.state.now();
  return created(presentProject(ctx.state, project, { user }));
});

/** Removes the projects whose deletion period has ended. */
export function removeDueProjects(state: EmulatorState): void {
  const now = state.clock();
  for (const project of [...state.projects]) {
    const at = projectDetailsStore.of(state).byProject[String(project.id)]?.markedForDeletionAt;
    if (at && Date.parse(at) + DELETION_ADJOURNED_DAYS * 86_400_000 <= now) removeProject(state, project);
  }
}

export const lifecycleRoutes: readonly RouteDefinition[] = [transferProject, archiving("archive"), archiving("unarchive"), deleteProject, restoreProject];
