/**
 * Merge requests: the
 * instance-wide list, one merge request, create and update, its diffs and raw
 * diff, its pipelines. Model, permissions and seed: merge-requests-model.ts;
 * answers: merge-requests-present.ts; list filters: merge-requests-filters.ts.
 *
 * Where the specification is silent, as real servers answer:
 * - `GET /merge_requests` authenticates unless `scope=all` (401); it lists
 *   the merge requests of every project the caller may read them in.
 *   `search` goes through the application rate limiter (`search_rate_limit`:
 *   30 a minute for a user, 10 for an anonymous caller, counted per fixed
 *   minute): 429 `{"message":{"error":"This endpoint has been requested too
 *   many times. Try again later."}}` with no rate-limit headers.
 * - One merge request: the project (404 `Project Not Found`), then the merge
 *   request by iid (ActiveRecord's 404 `{"message":"404 Not found"}`), then
 *   `read_merge_request` (403). Viewing it asks for a mergeability check.
 * - Create (`create_merge_request_from`: Developer+): errors are answered by
 *   `handle_merge_request_errors!`: the same branch as source and target
 *   (`:branch_conflict`, `You can't use same project/branch for source and
 *   target`), base errors (a branch that does not exist: `Source branch "x"
 *   does not exist`) and fork errors are 422 with the messages as a list;
 *   another open merge request (`:validate_branches`, `Another open merge
 *   request already exists for this source branch: !N`) is 409
 *   `{"message":[...]}`; model errors are
 *   400 `{"message":{"title":["can't be blank"]}}`. Unknown milestones and
 *   assignees or reviewers who may not read the merge request are dropped,
 *   and below Premium all but the first assignee and reviewer (chosenUsers).
 * - The title is stored stripped of surrounding whitespace (Issuable's
 *   `strip_attributes! :title`).
 * - Update: Grape's `at_least_one_of` (400 `{"error":"<names> are missing,
 *   at least one parameter must be provided"}`), `allow_blank: false` for
 *   title and target_branch (`title is empty`); `state_event` close/reopen
 *   (closing a merged one, or reopening an open one, changes nothing); a
 *   stale write is 409 `{"message":"409 Conflict: Resource lock"}`.
 * - Pipelines: `read_pipeline` on the project first (403), then the merge
 *   request. POST needs `create_pipeline` (Developer+) and makes a
 *   `merge_request_event` pipeline on `refs/merge-requests/<iid>/head`,
 *   answered 200 (`status :ok`); for a merge request that is not open the
 *   service makes none: 405 `405 Method Not Allowed` (`not_allowed!`);
 *   without a merge-request rule in the CI configuration the pipeline is not
 *   saved: 400 `{"message":{"base":["No stages / jobs for this pipeline."]}}`.
 */
import { presentPipelineBasic } from "../pipeline-schedules/pipelines-present";
import { ApiError, forbidden, paramError, recordNotFound, validationError } from "../../errors";
import { findProject } from "../../lookup";
import { mergeRequestData, queueProjectEvent } from "../hooks/model";
import { created, ok, paginate, requireUser, route, type ApiResponse, type RequestContext, type RouteDefinition } from "../../router";
import type { EmulatorState, Project, User } from "../../state";
import { listParamSpec, matchesFilters, orderMergeRequests, readListFilters, type ListFilters } from "./filters";
import { readFromRepository } from "./jobs";
import { mergeRequestNoteRoutes } from "./notes";
import type { DeclaredParams } from "../../params";
import {
  MAX_DESCRIPTION,
  MR_SEQUENCE,
  PIPELINE_SEQUENCE,
  branchExists,
  branchSha,
  canAdminMergeRequests,
  canCreateMergeRequests,
  canCreatePipelines,
  canReadMergeRequests,
  canReadPipelines,
  canUpdateMergeRequest,
  findOrCreateLabel,
  mergeRequestStore,
  requestMergeabilityCheck,
  settingsOf,
  splitLabelNames,
  type MergeRequestPipelineRecord,
  type MergeRequestRecord,
} from "./model";
import { isOpen, pipelinesOf, presentBasic, presentDiffs, presentPipeline, presentSimple, presentSingle, rawDiff } from "./present";

const idParams = { id: { type: "string", required: true } } as const;
const iidParams = { ...idParams, merge_request_iid: { type: "integer", required: true } } as const;
const BASE = "/projects/:id/merge_requests";
const ONE = `${BASE}/:merge_request_iid`;

// ---------------------------------------------------------------------------
// Search rate limit (Gitlab::ApplicationRateLimiter, fixed one-minute windows)

export const searchRateLimited = (): ApiError =>
  new ApiError(429, { message: { error: "This endpoint has been requested too many times. Try again later." } });

function checkSearchRateLimit(ctx: RequestContext<unknown>): void {
  const store = mergeRequestStore.of(ctx.state);
  const key = ctx.user ? `user:${ctx.user.id}` : "anonymous";
  const window = Math.floor(ctx.state.clock() / 60_000);
  const [seenWindow, count] = store.searches[key] ?? [window, 0];
  const current = seenWindow === window ? count! : 0;
  const limit = ctx.user ? store.searchRateLimit.authenticated : store.searchRateLimit.unauthenticated;
  store.searches[key] = [window, current + 1];
  if (current + 1 > limit) throw searchRateLimited();
}

// ---------------------------------------------------------------------------
// Lookups

export function findMergeRequest(ctx: RequestContext<unknown>, project: Project, iid: number): MergeRequestRecord {
  const mr = mergeRequestStore.of(ctx.state).mergeRequests.find((m) => m.projectId === project.id && m.iid === iid);
  if (!mr) throw recordNotFound();
  if (!canReadMergeRequests(ctx.state, ctx.user, project)) throw forbidden();
  return mr;
}

const approvalsLicensed = (state: EmulatorState, project: Project): boolean => state.tierOf(state.namespaceOf(project)) !== "free";

/** The single entity; presenting it asks for a mergeability check, as the real entity's `merge_status` does. */
export function singleAnswer(ctx: RequestContext<unknown>, project: Project, mr: MergeRequestRecord, extras: { renderHtml?: boolean; includeDivergedCommitsCount?: boolean; includeRebaseInProgress?: boolean } = {}) {
  requestMergeabilityCheck(mr);
  return presentSingle(ctx.state, project, mr, {
    user: ctx.user,
    canReadPipelines: canReadPipelines(ctx.state, ctx.user, project),
    canMerge: canCreateMergeRequests(ctx.state, ctx.user, project),
    ...extras,
  });
}

// ---------------------------------------------------------------------------
// The list

type ListParams = DeclaredParams<typeof listParamSpec>;

/** One page of merge requests of the readable projects, filtered, ordered and presented as lists answer them. */
function listAnswer(ctx: RequestContext<ListParams>, readable: ReadonlyMap<number, Project>, filters: ListFilters, iids?: readonly number[]): ApiResponse {
  const { state, user } = ctx;
  const found = mergeRequestStore.of(state).mergeRequests.filter((mr) => {
    const project = readable.get(mr.projectId);
    if (project === undefined || (iids !== undefined && !iids.includes(mr.iid))) return false;
    return matchesFilters({ state, user, project, approvalsLicensed: approvalsLicensed(state, project) }, mr, filters);
  });
  const options = { user, renderHtml: ctx.params.render_html, withLabelsDetails: ctx.params.with_labels_details };
  return paginate(ctx, orderMergeRequests(found, filters.orderBy, filters.sort), {
    present: (mr) => {
      const project = readable.get(mr.projectId)!;
      if (ctx.params.view === "simple") return presentSimple(state, project, mr, options);
      if (ctx.params.with_merge_status_recheck) requestMergeabilityCheck(mr);
      return presentBasic(state, project, mr, options);
    },
  });
}

const listMergeRequests = route("GET", "/merge_requests", { params: listParamSpec, paginated: true }, (ctx) => {
  const filters = readListFilters(ctx.rawParams);
  if (filters.scope !== "all") requireUser(ctx);
  if (filters.search !== undefined) checkSearchRateLimit(ctx);
  const { state, user } = ctx;
  const readable = new Map(state.projects.filter((p) => canReadMergeRequests(state, user, p)).map((p) => [p.id, p]));
  return listAnswer(ctx, readable, filters);
});

/**
 * One project's merge requests: the same filters, `scope` all by default,
 * `iids[]`; the project (404), then `read_merge_request` (403).
 */
const listProjectMergeRequests = route(
  "GET",
  BASE,
  { params: { ...idParams, ...listParamSpec, iids: { type: "integer[]" } }, paginated: true },
  (ctx) => {
    const filters = readListFilters(ctx.rawParams, "all");
    if (filters.search !== undefined) checkSearchRateLimit(ctx);
    const project = findProject(ctx);
    if (!canReadMergeRequests(ctx.state, ctx.user, project)) throw forbidden();
    return listAnswer(ctx, new Map([[project.id, project]]), filters, ctx.params.iids);
  },
);

// ---------------------------------------------------------------------------
// One merge request

const showMergeRequest = route(
  "GET",
  ONE,
  { params: { ...iidParams, include_diverged_commits_count: { type: "boolean" }, include_rebase_in_progress: { type: "boolean" }, render_html: { type: "boolean" } } },
  (ctx) => {
    const project = findProject(ctx);
    const mr = findMergeRequest(ctx, project, ctx.params.merge_request_iid);
    const { render_html, include_diverged_commits_count, include_rebase_in_progress } = ctx.params;
    return ok(singleAnswer(ctx, project, mr, { renderHtml: render_html, includeDivergedCommitsCount: include_diverged_commits_count, includeRebaseInProgress: include_rebase_in_progress }));
  },
);

// ---------------------------------------------------------------------------
// Create and update: the shared body fields

const writableParams = {
  description: { type: "string" },
  assignee_id: { type: "integer" },
  assignee_ids: { type: "integer[]" },
  reviewer_ids: { type: "integer[]" },
  milestone_id: { type: "integer" },
  remove_source_branch: { type: "boolean" },
  allow_collaboration: { type: "boolean" },
  allow_maintainer_to_push: { type: "boolean" },
  squash: { type: "boolean" },
  approvals_before_merge: { type: "integer" },
  merge_after: { type: "string" },
} as const;

/** Labels arrive comma-separated or as an array (`labels[]=a`); null when absent. */
function labelParam(ctx: RequestContext<unknown>, name: string): string[] | null {
  const value = ctx.rawParams[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" && !Array.isArray(value)) throw paramError(`${name} is invalid`);
  return splitLabelNames(value as string | string[]);
}

/** Users who exist and may read the project's merge requests. */
function eligibleUsers(state: EmulatorState, project: Project, ids: readonly number[]): number[] {
  return [...new Set(ids)].filter((id) => {
    const user = state.userById(id);
    return user !== undefined && canReadMergeRequests(state, user, project);
  });
}

/**
 * The assignees or reviewers a write sets, as IssuableBaseService#filter_assignee
 * and MergeRequests::BaseService#filter_reviewer choose them: below Premium
 * (`multiple_merge_request_assignees`, `..._reviewers`) only the first given is
 * taken; `[]` or `[0]` means none; then those who cannot read the merge request
 * are dropped, and when none is left the parameter is dropped too: undefined,
 * the merge request keeps the users it had.
 */
function chosenUsers(state: EmulatorState, project: Project, ids: readonly number[]): number[] | undefined {
  if (ids.length === 0) return [];
  const considered = state.tierOf(state.namespaceOf(project)) === "free" ? ids.slice(0, 1) : ids;
  if (considered.every((id) => id === 0)) return [];
  const eligible = eligibleUsers(state, project, considered.filter((id) => id !== 0));
  return eligible.length > 0 ? eligible : undefined;
}

function milestoneFor(state: EmulatorState, project: Project, milestoneId: number): number | null {
  return mergeRequestStore.of(state).milestones.find((m) => m.id === milestoneId && m.projectId === project.id)?.id ?? null;
}

interface Writable {
  description?: string;
  assignee_id?: number;
  assignee_ids?: number[];
  reviewer_ids?: number[];
  milestone_id?: number;
  remove_source_branch?: boolean;
  allow_collaboration?: boolean;
  allow_maintainer_to_push?: boolean;
  squash?: boolean;
  approvals_before_merge?: number;
  merge_after?: string;
}

function readMergeAfter(text: string | undefined): string | null | undefined {
  if (text === undefined) return undefined;
  if (text === "") return null;
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) throw validationError({ merge_after: ["is invalid"] });
  return new Date(parsed).toISOString();
}

/** Applies the optional fields; `admin` false drops the ones the update service filters out for non-Developers. */
function applyWritable(ctx: RequestContext<unknown>, project: Project, mr: MergeRequestRecord, params: Writable, admin: boolean): void {
  const { state } = ctx;
  if (params.description !== undefined) mr.description = params.description;
  if (params.remove_source_branch !== undefined) mr.forceRemoveSourceBranch = params.remove_source_branch;
  const collaboration = params.allow_collaboration ?? params.allow_maintainer_to_push;
  if (collaboration !== undefined) mr.allowCollaboration = collaboration;
  if (params.squash !== undefined) mr.squash = params.squash;
  // Below Premium the approvers' settings are not the user's to change: the value is dropped unsaid.
  if (params.approvals_before_merge !== undefined && approvalsLicensed(state, project)) mr.approvalsBeforeMerge = params.approvals_before_merge;
  const mergeAfter = readMergeAfter(params.merge_after);
  if (mergeAfter !== undefined) mr.mergeAfter = mergeAfter;
  if (!admin) return;
  const assignees = params.assignee_ids ?? (params.assignee_id === undefined ? undefined : [params.assignee_id]);
  mr.assigneeIds = (assignees && chosenUsers(state, project, assignees)) ?? mr.assigneeIds;
  mr.reviewerIds = (params.reviewer_ids && chosenUsers(state, project, params.reviewer_ids)) ?? mr.reviewerIds;
  if (params.milestone_id !== undefined) mr.milestoneId = params.milestone_id === 0 ? null : milestoneFor(state, project, params.milestone_id);
  const labels = labelParam(ctx, "labels");
  if (labels !== null) mr.labelIds = labels.map((name) => findOrCreateLabel(state, project.id, name).id);
  const added = labelParam(ctx, "add_labels") ?? [];
  const removed = (labelParam(ctx, "remove_labels") ?? []).map((name) => name.toLowerCase());
  for (const name of added) {
    const label = findOrCreateLabel(state, project.id, name);
    if (!mr.labelIds.includes(label.id)) mr.labelIds.push(label.id);
  }
  const { labels: all } = mergeRequestStore.of(state);
  mr.labelIds = mr.labelIds.filter((id) => !removed.includes(all.find((l) => l.id === id)?.name.toLowerCase() ?? ""));
}

/** `handle_merge_request_errors!`: 422 for the same branch, base and fork errors, then 409 for another open merge request, then 400 for the model's. */
class MergeRequestErrors {
  readonly unprocessable: string[] = [];
  /** `:branch_conflict`, the first of the keys answered 422. */
  readonly branchConflict: string[] = [];
  readonly branches: string[] = [];
  readonly fields: Record<string, string[]> = {};

  field(name: string, message: string): void {
    (this.fields[name] ??= []).push(message);
  }

  throwAny(): void {
    if (this.branchConflict.length > 0) throw new ApiError(422, { message: this.branchConflict });
    if (this.unprocessable.length > 0) throw new ApiError(422, { message: this.unprocessable });
    if (this.branches.length > 0) throw new ApiError(409, { message: this.branches });
    if (Object.keys(this.fields).length > 0) throw validationError(this.fields);
  }
}

/** MergeRequest#validate_branches and the model's own validations. */
function validate(state: EmulatorState, project: Project, mr: MergeRequestRecord, errors: MergeRequestErrors, checkBranches: { source: boolean; target: boolean }): void {
  if (mr.title.trim() === "") errors.field("title", "can't be blank");
  if (mr.description.length > MAX_DESCRIPTION) errors.field("description", `is too long (maximum is ${MAX_DESCRIPTION} characters)`);
  if (checkBranches.source && !branchExists(state, project, mr.sourceBranch)) errors.unprocessable.push(`Source branch "${mr.sourceBranch}" does not exist`);
  if (checkBranches.target && !branchExists(state, project, mr.targetBranch)) errors.unprocessable.push(`Target branch "${mr.targetBranch}" does not exist`);
  if (mr.sourceBranch === mr.targetBranch) {
    errors.branchConflict.push("You can't use same project/branch for source and target");
    return;
  }
  if (mr.state !== "opened") return;
  const similar = mergeRequestStore
    .of(state)
    .mergeRequests.find((other) => other.id !== mr.id && other.projectId === project.id && other.state === "opened" && other.sourceBranch === mr.sourceBranch && other.targetBranch === mr.targetBranch);
  if (similar) errors.branches.push(`Another open merge request already exists for this source branch: !${similar.iid}`);
}

// ---------------------------------------------------------------------------
// Create

function newRecord(state: EmulatorState, project: Project, user: User, params: { title: string; source_branch: string; target_branch: string }): MergeRequestRecord {
  const { mergeRequests } = mergeRequestStore.of(state);
  const now = state.now();
  return {
    id: 0,
    iid: Math.max(0, ...mergeRequests.filter((m) => m.projectId === project.id).map((m) => m.iid)) + 1,
    projectId: project.id,
    // Issuable's `strip_attributes! :title`: stored without surrounding whitespace.
    title: params.title.trim(),
    description: "",
    sourceBranch: params.source_branch,
    targetBranch: params.target_branch,
    state: "opened",
    authorId: user.id,
    assigneeIds: [],
    reviewerIds: [],
    labelIds: [],
    milestoneId: null,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    closedById: null,
    mergedAt: null,
    mergeUserId: null,
    mergeAfter: null,
    preparedAt: null,
    sha: null,
    baseSha: null,
    changesCount: null,
    mergeStatus: "preparing",
    conflicts: false,
    mergeCommitSha: null,
    squashCommitSha: null,
    discussionLocked: null,
    forceRemoveSourceBranch: false,
    squash: false,
    allowCollaboration: false,
    mergeWhenPipelineSucceeds: false,
    upvotes: 0,
    downvotes: 0,
    userNotesCount: 0,
    blockingDiscussionsResolved: true,
    timeEstimate: 0,
    totalTimeSpent: 0,
    imported: false,
    importedFrom: "none",
    approvalsBeforeMerge: null,
    approverIds: [],
    approvedByIds: [],
    awardEmoji: {},
    deployments: [],
    files: structuredClone(settingsOf(state, project).branches[params.source_branch] ?? []),
    divergedCommitsCount: 0,
    rebaseInProgress: false,
    firstContribution: false,
    lockConflicts: 0,
  };
}

/** A merge request event for the hooks that take them, with the attributes a receiver reads most. */
function queueMergeRequestEvent(state: EmulatorState, project: Project, user: User, mr: MergeRequestRecord, action: "open" | "update" | "close" | "reopen"): void {
  const attributes = {
    id: mr.id,
    iid: mr.iid,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    source_branch: mr.sourceBranch,
    target_branch: mr.targetBranch,
    source_project_id: project.id,
    target_project_id: project.id,
    author_id: mr.authorId,
    created_at: mr.createdAt,
    updated_at: mr.updatedAt,
    url: `https://${state.instance.host}/${state.projectFullPath(project)}/-/merge_requests/${mr.iid}`,
  };
  queueProjectEvent(state, project, "merge_requests_events", mergeRequestData(state, project, user, attributes, action));
}

const createMergeRequest = route(
  "POST",
  BASE,
  {
    params: {
      ...idParams,
      title: { type: "string", required: true },
      source_branch: { type: "string", required: true },
      target_branch: { type: "string", required: true },
      target_project_id: { type: "integer" },
      ...writableParams,
    },
  },
  async (ctx) => {
    const project = findProject(ctx);
    const user = requireUser(ctx);
    if (!canCreateMergeRequests(ctx.state, user, project)) throw forbidden();
    // Branches of the repository: the preparation shows their diff as it is now, and the background work follows them.
    const reading = await (await readFromRepository(ctx.state, project))({ sourceBranch: ctx.params.source_branch, targetBranch: ctx.params.target_branch });
    const mr = newRecord(ctx.state, project, user, ctx.params);
    if (reading) Object.assign(mr, { fromRepository: true, pendingReading: reading });
    applyWritable(ctx, project, mr, ctx.params, true);
    const errors = new MergeRequestErrors();
    if (ctx.params.target_project_id !== undefined && ctx.params.target_project_id !== project.id) {
      errors.unprocessable.push("Source project is not a fork of the target project");
    }
    validate(ctx.state, project, mr, errors, { source: true, target: true });
    errors.throwAny();
    mr.id = ctx.state.nextId(MR_SEQUENCE);
    // Branches of the repository: the background work reads head, base and files from it.
    mergeRequestStore.of(ctx.state).mergeRequests.push(mr);
    queueMergeRequestEvent(ctx.state, project, user, mr, "open");
    return created(singleAnswer(ctx, project, mr));
  },
);

// ---------------------------------------------------------------------------
// Update

const UPDATE_AT_LEAST_ONE_OF = [
  "assignee_id", "assignee_ids", "reviewer_ids", "description", "labels", "add_labels", "remove_labels", "milestone_id",
  "remove_source_branch", "allow_collaboration", "allow_maintainer_to_push", "squash", "state_event", "target_branch",
  "title", "discussion_locked", "merge_after",
] as const;

function checkUpdateParams(ctx: RequestContext<{ title?: string; target_branch?: string }>): void {
  const problems: string[] = [];
  if (ctx.params.title !== undefined && ctx.params.title.trim() === "") problems.push("title is empty");
  if (ctx.params.target_branch !== undefined && ctx.params.target_branch.trim() === "") problems.push("target_branch is empty");
  if (!UPDATE_AT_LEAST_ONE_OF.some((name) => ctx.rawParams[name] !== undefined)) {
    problems.push(`${UPDATE_AT_LEAST_ONE_OF.join(", ")} are missing, at least one parameter must be provided`);
  }
  if (problems.length > 0) throw paramError(problems.join(", "));
}

/** `state_event`: the merge request's state machine; transitions it does not allow change nothing. */
function applyStateEvent(state: EmulatorState, mr: MergeRequestRecord, event: "close" | "reopen" | undefined, user: User): void {
  if (event === "close" && isOpen(mr)) {
    Object.assign(mr, { state: "closed", closedAt: state.now(), closedById: user.id });
  } else if (event === "reopen" && mr.state === "closed") {
    Object.assign(mr, { state: "opened", closedAt: null, closedById: null, mergeStatus: "unchecked" });
  }
}

const updateMergeRequest = route(
  "PUT",
  ONE,
  {
    params: {
      ...iidParams,
      title: { type: "string" },
      target_branch: { type: "string" },
      state_event: { type: "string", values: ["close", "reopen"] },
      discussion_locked: { type: "boolean" },
      ...writableParams,
    },
  },
  (ctx) => {
    checkUpdateParams(ctx);
    const project = findProject(ctx);
    const user = requireUser(ctx);
    const mr = findMergeRequest(ctx, project, ctx.params.merge_request_iid);
    if (!canUpdateMergeRequest(ctx.state, user, project, mr)) throw forbidden();
    const admin = canAdminMergeRequests(ctx.state, user, project);
    const updated = structuredClone(mr);
    if (ctx.params.title !== undefined) updated.title = ctx.params.title.trim();
    const retargeted = ctx.params.target_branch !== undefined && ctx.params.target_branch !== mr.targetBranch;
    if (retargeted) Object.assign(updated, { targetBranch: ctx.params.target_branch, mergeStatus: "unchecked" });
    if (admin && ctx.params.discussion_locked !== undefined) updated.discussionLocked = ctx.params.discussion_locked;
    applyWritable(ctx, project, updated, ctx.params, admin);
    applyStateEvent(ctx.state, updated, ctx.params.state_event as "close" | "reopen" | undefined, user);
    const errors = new MergeRequestErrors();
    validate(ctx.state, project, updated, errors, { source: false, target: retargeted });
    errors.throwAny();
    if (mr.lockConflicts > 0) {
      // Another write saved the row first: ActiveRecord::StaleObjectError, rescued as 409.
      mr.lockConflicts -= 1;
      throw new ApiError(409, { message: "409 Conflict: Resource lock" });
    }
    if (retargeted && updated.preparedAt !== null) updated.baseSha = branchSha(ctx.state, project, updated.targetBranch);
    const changed = JSON.stringify(updated) !== JSON.stringify(mr);
    if (changed) updated.updatedAt = ctx.state.now();
    const action = updated.state !== mr.state ? (updated.state === "closed" ? "close" : "reopen") : "update";
    Object.assign(mr, updated);
    if (changed) queueMergeRequestEvent(ctx.state, project, user, mr, action);
    return ok(singleAnswer(ctx, project, mr));
  },
);

// ---------------------------------------------------------------------------
// Diffs

const diffFiles = (mr: MergeRequestRecord) => (mr.preparedAt === null ? [] : mr.files);

const listDiffs = route("GET", `${ONE}/diffs`, { params: { ...iidParams, unidiff: { type: "boolean" } }, paginated: true }, (ctx) => {
  const project = findProject(ctx);
  const mr = findMergeRequest(ctx, project, ctx.params.merge_request_iid);
  return paginate(ctx, presentDiffs(diffFiles(mr), ctx.params.unidiff ?? false));
});

const rawDiffs = route("GET", `${ONE}/raw_diffs`, { params: iidParams }, (ctx): ApiResponse => {
  const project = findProject(ctx);
  const mr = findMergeRequest(ctx, project, ctx.params.merge_request_iid);
  return { status: 200, body: rawDiff(diffFiles(mr)), headers: { "Content-Type": "text/plain; charset=utf-8" } };
});

/** The deprecated `changes` endpoint (gitbeaker's showChanges): the merge request with every diff. */
const showChanges = route("GET", `${ONE}/changes`, { params: { ...iidParams, unidiff: { type: "boolean" } } }, (ctx) => {
  const project = findProject(ctx);
  const mr = findMergeRequest(ctx, project, ctx.params.merge_request_iid);
  const changes = presentDiffs(diffFiles(mr), ctx.params.unidiff ?? false);
  return ok({ ...singleAnswer(ctx, project, mr), changes, overflow: changes.some((change) => change["collapsed"] === true) });
});

// ---------------------------------------------------------------------------
// Pipelines

const listPipelines = route("GET", `${ONE}/pipelines`, { params: iidParams, paginated: true }, (ctx) => {
  const project = findProject(ctx);
  if (!canReadPipelines(ctx.state, ctx.user, project)) throw forbidden();
  const mr = findMergeRequest(ctx, project, ctx.params.merge_request_iid);
  return paginate(ctx, pipelinesOf(ctx.state, mr), { present: (pipeline) => presentPipelineBasic(ctx.state, pipeline) });
});

const createPipeline = route("POST", `${ONE}/pipelines`, { params: iidParams }, (ctx) => {
  const project = findProject(ctx);
  const user = requireUser(ctx);
  if (!canCreatePipelines(ctx.state, user, project)) throw forbidden();
  const mr = findMergeRequest(ctx, project, ctx.params.merge_request_iid);
  // The service gives no pipeline ("Cannot create a pipeline for this merge request."): `not_allowed!`.
  if (!isOpen(mr)) throw new ApiError(405, { message: "405 Method Not Allowed" });
  if (!settingsOf(ctx.state, project).mergeRequestPipelines) throw validationError({ base: ["No stages / jobs for this pipeline."] });
  const store = mergeRequestStore.of(ctx.state);
  const now = ctx.state.now();
  const pipeline: MergeRequestPipelineRecord = {
    id: ctx.state.nextId(PIPELINE_SEQUENCE),
    iid: store.pipelines.filter((p) => p.projectId === project.id).length + 1,
    projectId: project.id,
    mergeRequestId: mr.id,
    sha: mr.sha ?? branchSha(ctx.state, project, mr.sourceBranch),
    beforeSha: "0000000000000000000000000000000000000000",
    ref: `refs/merge-requests/${mr.iid}/head`,
    status: "created",
    source: "merge_request_event",
    userId: user.id,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
    duration: null,
    queuedDuration: null,
    coverage: null,
  };
  store.pipelines.push(pipeline);
  // The real endpoint sets `status :ok` for the pipeline it made.
  return ok(presentPipeline(ctx.state, project, pipeline));
});

export const mergeRequestRoutes: readonly RouteDefinition[] = [listMergeRequests, listProjectMergeRequests, showMergeRequest, createMergeRequest, updateMergeRequest, listDiffs, rawDiffs, showChanges, listPipelines, createPipeline, ...mergeRequestNoteRoutes];
