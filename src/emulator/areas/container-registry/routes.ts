/**
 * The container registry REST API: registry repositories and their tags.
 * Model, seed and permissions: ./model.ts; background
 * work: ./jobs.ts.
 *
 * As real servers answer:
 * - Project routes first find the project (404 `Project Not Found`), then
 *   need `read_container_image` (403); a repository of another project is
 *   `404 Not found` (RecordNotFound); an unknown tag `404 Tag Not Found`.
 * - `GET /registry/repositories/:id` needs a signed-in user (401), finds the
 *   repository anywhere (`404 Not found`), then needs read access (403, even
 *   when the project is invisible). Only this route shows `delete_api_path`,
 *   to users who may administer the images. A non-numeric id matches no
 *   route (`requirements: { id: /[0-9]*\/ }`).
 * - The group list needs `read_container_image` on the group (Reporter+),
 *   covers the group's and its subgroups' projects, leaves out projects whose
 *   registry is disabled, and never shows tags.
 * - DELETE answers are the value of Grape's `status` call rendered as JSON:
 *   a repository deletion and a bulk deletion answer 202 with body `202`, a
 *   tag deletion 200 with body `200`.
 * - Keyset pagination of tags (`pagination=keyset`, `order_by=name`,
 *   `sort=asc|desc`) pages with the registry's `last` marker (the name of the
 *   last tag of the page): `Link: <...&last=<name>...>; rel="next"` while more
 *   tags exist, no other pagination header. It needs a signed-in user (keyset
 *   pages of tags are for authenticated callers only); another ordering is 405 as on other lists.
 */
import {
  BULK_DELETE_AGAIN_MESSAGE,
  BULK_DELETE_LEASE_MS,
  removeTags,
} from "./jobs";
import {
  canAdminContainerImages,
  canDestroyContainerImages,
  canReadContainerImages,
  containerRegistryStore,
  isProtectedName,
  protectedPatternsFor,
  re2Error,
  registryAccessLevelOf,
  registryHost,
  repositoriesOf,
  repositoryById,
  repositoryLocation,
  repositoryPath,
  sortedTags,
  type RegistryRepositoryRecord,
  type RegistryTagRecord,
} from "./model";
import { durationSeconds } from "./duration";
import { canReadGroup, groupAccessLevel } from "../../access";
import { checkJobTokenProject } from "../job-tokens";
import { ApiError, forbidden, notFound, paramError, recordNotFound, routeNotFound, unauthorized } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import { keysetUnavailable, pageUrl, readPerPage } from "../../pagination";
import { ok, paginate, requireUser, route, type ApiResponse, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Project } from "../../state";

// ---------------------------------------------------------------------------
// Presentation (API::Entities::ContainerRegistry)

function presentTag(state: EmulatorState, repository: RegistryRepositoryRecord, tag: RegistryTagRecord): Record<string, unknown> {
  const path = `${repositoryPath(state, repository)}:${tag.name}`;
  return { name: tag.name, path, location: `${registryHost(state)}/${path}` };
}

function presentTagDetails(state: EmulatorState, repository: RegistryRepositoryRecord, tag: RegistryTagRecord): Record<string, unknown> {
  return {
    ...presentTag(state, repository, tag),
    revision: tag.revision,
    short_revision: tag.revision.slice(0, 9),
    digest: tag.digest,
    created_at: tag.createdAt,
    total_size: tag.totalSize,
  };
}

/** The registry reports sizes only on the hosted offering, for repositories created after 2021-11-04. */
const SIZE_KNOWN_AFTER = Date.parse("2021-11-04T00:00:00Z");

/** Deduplicated size: each manifest counted once. */
function repositorySize(state: EmulatorState, repository: RegistryRepositoryRecord): number | null {
  if (state.instance.offering !== "hosted" || Date.parse(repository.createdAt) <= SIZE_KNOWN_AFTER) return null;
  const byDigest = new Map(repository.tags.map((tag) => [tag.digest, tag.totalSize]));
  return [...byDigest.values()].reduce((sum, size) => sum + size, 0);
}

interface RepositoryExtras {
  tags?: boolean;
  tagsCount?: boolean;
  size?: boolean;
  /** `delete_api_path` (only GET /registry/repositories/:id passes the user to the entity). */
  deleteApiPath?: boolean;
}

function presentRepository(state: EmulatorState, repository: RegistryRepositoryRecord, extras: RepositoryExtras = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: repository.id,
    name: repository.name,
    path: repositoryPath(state, repository),
    project_id: repository.projectId,
    location: repositoryLocation(state, repository),
    created_at: repository.createdAt,
    cleanup_policy_started_at: repository.cleanupPolicyStartedAt,
  };
  if (extras.tagsCount) body["tags_count"] = repository.tags.length;
  if (extras.tags) body["tags"] = sortedTags(repository).map((tag) => presentTag(state, repository, tag));
  if (extras.deleteApiPath) {
    body["delete_api_path"] = `https://${state.instance.host}/api/v4/projects/${repository.projectId}/registry/repositories/${repository.id}`;
  }
  if (extras.size) body["size"] = repositorySize(state, repository);
  body["status"] = repository.status;
  return body;
}

// ---------------------------------------------------------------------------
// Lookups

/** `user_project` then `authorize_read_container_images!`. */
function readableProject(ctx: RequestContext<unknown>): Project {
  const project = findProject(ctx);
  checkJobTokenProject(ctx, project);
  if (!canReadContainerImages(ctx.state, ctx.user, project)) throw forbidden();
  return project;
}

/** `user_project.container_repositories.find(params[:repository_id])`. */
function projectRepository(ctx: RequestContext<unknown>, project: Project, repositoryId: number): RegistryRepositoryRecord {
  const repository = repositoriesOf(ctx.state, project).find((r) => r.id === repositoryId);
  if (!repository) throw recordNotFound();
  return repository;
}

function findTag(repository: RegistryRepositoryRecord, name: string): RegistryTagRecord {
  const tag = repository.tags.find((t) => t.name === name);
  if (!tag) throw notFound("Tag");
  return tag;
}

/** Body and status of a Grape endpoint whose last expression is `status :accepted` / `status :ok`. */
const statusAnswer = (status: number): ApiResponse => ({ status, body: status });

// ---------------------------------------------------------------------------
// Tags list: offset or keyset (`last` marker)

function keysetTags(ctx: RequestContext<unknown>, state: EmulatorState, repository: RegistryRepositoryRecord): ApiResponse {
  if (!ctx.user) throw unauthorized();
  const raw = ctx.rawParams;
  const orderBy = raw["order_by"] === undefined ? "name" : String(raw["order_by"]);
  const sort = raw["sort"] === undefined ? "asc" : String(raw["sort"]);
  if (orderBy !== "name" || (sort !== "asc" && sort !== "desc")) throw keysetUnavailable();
  const perPage = readPerPage(raw);
  const ordered = sortedTags(repository);
  if (sort === "desc") ordered.reverse();
  const last = typeof raw["last"] === "string" && raw["last"] !== "" ? raw["last"] : undefined;
  const remaining = last === undefined ? ordered : ordered.filter((tag) => (sort === "asc" ? tag.name > last : tag.name < last));
  const page = remaining.slice(0, perPage);
  const headers: Record<string, string> = {};
  const lastOfPage = page[page.length - 1];
  if (remaining.length > perPage && lastOfPage) {
    headers["Link"] = `<${pageUrl(ctx.url, { last: lastOfPage.name, per_page: perPage }, ["page"])}>; rel="next"`;
  }
  return ok(page.map((tag) => presentTag(state, repository, tag)), headers);
}

// ---------------------------------------------------------------------------
// Bulk deletion parameters

const bulkParams = {
  id: { type: "string", required: true },
  repository_id: { type: "integer", required: true },
  name_regex_delete: { type: "string" },
  name_regex: { type: "string" },
  name_regex_keep: { type: "string" },
  keep_n: { type: "integer" },
  older_than: { type: "string" },
} as const;

/** The validations Grape runs after the types: `untrusted_regexp`, `at_least_one_of`, and a readable `older_than`. */
function checkBulkParams(params: { name_regex_delete?: string; name_regex?: string; name_regex_keep?: string; older_than?: string }): void {
  const problems: string[] = [];
  const regexProblem = (name: "name_regex_delete" | "name_regex" | "name_regex_keep"): void => {
    const value = params[name];
    const error = value === undefined ? undefined : re2Error(value);
    if (error !== undefined) problems.push(`${name} is an invalid regexp: ${error}`);
  };
  regexProblem("name_regex_delete");
  regexProblem("name_regex");
  if (params.name_regex === undefined && params.name_regex_delete === undefined) {
    problems.push("name_regex, name_regex_delete are missing, at least one parameter must be provided");
  }
  regexProblem("name_regex_keep");
  if (params.older_than !== undefined && durationSeconds(params.older_than) === undefined) problems.push("older_than is invalid");
  if (problems.length > 0) throw paramError(problems.join(", "));
}

// ---------------------------------------------------------------------------
// Routes

const idParam = { id: { type: "string", required: true } } as const;
const repositoryParams = { ...idParam, repository_id: { type: "integer", required: true } } as const;
const tagParams = { ...repositoryParams, tag_name: { type: "string", required: true } } as const;
const BASE = "/projects/:id/registry/repositories";
/** A CI job token reaches these routes, for its own project (../job-tokens/index.ts). */
const jobTokenAllowed = true;

const listProjectRepositories = route(
  "GET", BASE,
  { params: { ...idParam, tags: { type: "boolean" }, tags_count: { type: "boolean" } }, paginated: true, jobTokenAllowed },
  (ctx) => {
    const project = readableProject(ctx);
    const extras = { tags: ctx.params.tags ?? false, tagsCount: ctx.params.tags_count ?? false };
    return paginate(ctx, repositoriesOf(ctx.state, project), { present: (r) => presentRepository(ctx.state, r, extras) });
  },
);

const listGroupRepositories = route("GET", "/groups/:id/registry/repositories", { params: idParam, paginated: true }, (ctx) => {
  const group = findGroup(ctx);
  const { state, user } = ctx;
  const isReporter = user !== null && (user.isAdmin || groupAccessLevel(state, user, group) >= AccessLevel.Reporter);
  if (!isReporter || !canReadGroup(state, user, group)) throw forbidden();
  const projects = state.projectsIn(group, { includeSubgroups: true }).filter((p) => registryAccessLevelOf(p) !== "disabled");
  const projectIds = new Set(projects.map((p) => p.id));
  const repositories = containerRegistryStore
    .of(state)
    .repositories.filter((r) => projectIds.has(r.projectId))
    .sort((a, b) => a.id - b.id);
  return paginate(ctx, repositories, { present: (r) => presentRepository(state, r) });
});

const showRepository = route(
  "GET", "/registry/repositories/:id",
  { params: { id: { type: "string", required: true }, tags: { type: "boolean" }, tags_count: { type: "boolean" }, size: { type: "boolean" } } },
  (ctx) => {
    const user = requireUser(ctx);
    if (!/^\d+$/.test(ctx.params.id)) throw routeNotFound();
    const repository = repositoryById(ctx.state, Number(ctx.params.id));
    const project = repository ? ctx.state.projectById(repository.projectId) : undefined;
    if (!repository || !project) throw recordNotFound();
    if (!canReadContainerImages(ctx.state, user, project)) throw forbidden();
    const { tags = false, tags_count = false, size = false } = ctx.params;
    const deleteApiPath = canAdminContainerImages(ctx.state, user, project);
    return ok(presentRepository(ctx.state, repository, { tags, tagsCount: tags_count, size, deleteApiPath }));
  },
);

const deleteRepository = route("DELETE", `${BASE}/:repository_id`, { params: repositoryParams, jobTokenAllowed }, (ctx) => {
  const project = readableProject(ctx);
  const repository = projectRepository(ctx, project, ctx.params.repository_id);
  if (!canAdminContainerImages(ctx.state, ctx.user, project)) throw forbidden();
  if (repository.status === null) repository.status = "delete_scheduled";
  return statusAnswer(202);
});

const listTags = route("GET", `${BASE}/:repository_id/tags`, { params: repositoryParams, paginated: true, jobTokenAllowed }, (ctx) => {
  const project = readableProject(ctx);
  const repository = projectRepository(ctx, project, ctx.params.repository_id);
  if (ctx.rawParams["pagination"] === "keyset") return keysetTags(ctx, ctx.state, repository);
  return paginate(ctx, sortedTags(repository), { present: (tag) => presentTag(ctx.state, repository, tag) });
});

const bulkDeleteTags = route("DELETE", `${BASE}/:repository_id/tags`, { params: bulkParams, jobTokenAllowed }, (ctx) => {
  const user = requireUser(ctx);
  // Grape runs the `before` authorization, then the validators, then the endpoint.
  const project = readableProject(ctx);
  checkBulkParams(ctx.params);
  const repository = projectRepository(ctx, project, ctx.params.repository_id);
  if (!canAdminContainerImages(ctx.state, user, project)) throw forbidden();
  const now = ctx.state.clock();
  if (repository.lastBulkDeleteAt !== null && now - Date.parse(repository.lastBulkDeleteAt) < BULK_DELETE_LEASE_MS) {
    throw new ApiError(400, { message: BULK_DELETE_AGAIN_MESSAGE });
  }
  repository.lastBulkDeleteAt = ctx.state.now();
  const { name_regex_delete, name_regex, name_regex_keep, keep_n, older_than } = ctx.params;
  containerRegistryStore.of(ctx.state).pendingBulkDeletes.push({
    repositoryId: repository.id,
    userId: user.id,
    acceptedAt: ctx.state.now(),
    params: {
      nameRegexDelete: name_regex_delete ?? null,
      nameRegex: name_regex ?? null,
      nameRegexKeep: name_regex_keep ?? null,
      keepN: keep_n ?? null,
      olderThan: older_than ?? null,
    },
  });
  return statusAnswer(202);
});

const showTag = route("GET", `${BASE}/:repository_id/tags/:tag_name`, { params: tagParams, jobTokenAllowed }, (ctx) => {
  const project = readableProject(ctx);
  const repository = projectRepository(ctx, project, ctx.params.repository_id);
  return ok(presentTagDetails(ctx.state, repository, findTag(repository, ctx.params.tag_name)));
});

const deleteTag = route("DELETE", `${BASE}/:repository_id/tags/:tag_name`, { params: tagParams, jobTokenAllowed }, (ctx) => {
  const project = readableProject(ctx);
  const repository = projectRepository(ctx, project, ctx.params.repository_id);
  if (!canDestroyContainerImages(ctx.state, ctx.user, project)) throw forbidden();
  const tag = findTag(repository, ctx.params.tag_name);
  if (isProtectedName(protectedPatternsFor(ctx.state, ctx.user, project), tag.name)) {
    throw new ApiError(403, { message: "403 Forbidden - cannot delete protected tag(s)" });
  }
  // Only the tag goes; its manifest and blobs stay until garbage collection.
  removeTags(repository, new Set([tag.name]));
  return statusAnswer(200);
});

export const containerRegistryRoutes: readonly RouteDefinition[] = [listProjectRepositories, listGroupRepositories, showRepository, deleteRepository, listTags, bulkDeleteTags, showTag, deleteTag];
