/**
 * Merge requests: the
 * instance-wide list with every filter of the table, one merge request with
 * its extras, its diffs, its raw diff and its pipelines.
 *
 * Exclusive pairs (author, reviewer, merge user, and their `not` forms) are
 * refused before any request, naming both arguments, as the server would
 * refuse them (Grape's `mutually_exclusive`). `None` and `Any` are accepted
 * where the table says (assignee, reviewer, approvals, labels, milestone,
 * reaction).
 */
import { z } from "zod";
import { type Query, tokenRefused } from "../client";
import { queryOf } from "../api/fields";
import { ownerReference } from "../api/owner";
import {
  ALL_MERGE_REQUESTS,
  inMergeRequest,
  listedMergeRequest as mergeRequestShape,
  mergeRequest as singleShape,
  mergeRequestDiff as diffShape,
  mergeRequestPath,
  mergeRequestPipelinesPath,
  mergeRequestsPath,
  mergeRequestSubject,
  pipelineBasic as pipelineBasicShape,
} from "../api/merge-requests";
import { defineListFunction, defineObjectFunction, defineTextFunction, projectNeeds, type Camelized } from "./core";

export type MergeRequestSummary = Camelized<z.output<typeof mergeRequestShape>>;
export type MergeRequestInfo = Camelized<z.output<typeof singleShape>>;
export type MergeRequestDiff = Camelized<z.output<typeof diffShape>>;
export type MergeRequestPipeline = Camelized<z.output<typeof pipelineBasicShape>>;

// ---------------------------------------------------------------------------
// Arguments

const noneOrAny = z.enum(["None", "Any"]);
const userId = z.number().int().positive();
const userIdOrNoneAny = z.union([userId, noneOrAny], { message: "must be a user id, None or Any" });
const userIdsOrNoneAny = (max?: number) =>
  z.union([max === undefined ? z.array(userId).min(1) : z.array(userId).min(1).max(max, { message: `at most ${max} users` }), noneOrAny], {
    message: `must be a list of user ids${max === undefined ? "" : ` (at most ${max})`}, None or Any`,
  });
const isoTime = z.string().refine((text) => /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(Date.parse(text)), { message: "must be an ISO 8601 time (2024-05-01T10:00:00Z)" });
const labelsFilter = z.union([z.array(z.string().min(1).regex(/^[^,]+$/, { message: "a label name has no comma" })).min(1), noneOrAny], {
  message: "must be a list of label names, None or Any",
});

/** The filters `not` may negate. */
const negatable = {
  labels: labelsFilter.optional(),
  milestone: z.string().min(1).optional(),
  authorId: userId.optional(),
  authorUsername: z.string().min(1).optional(),
  assigneeId: userIdOrNoneAny.optional(),
  reviewerUsername: z.string().min(1).optional(),
  myReactionEmoji: z.string().min(1).optional(),
};

const notFilters = z
  .object({
    ...negatable,
    assigneeUsername: z.string().min(1).optional(),
    reviewerId: userId.optional(),
  })
  .strict();

const listArgs = z.object({
  ...negatable,
  /** created_by_me (the server's default), assigned_to_me, reviews_for_me or all. */
  scope: z.enum(["created_by_me", "assigned_to_me", "reviews_for_me", "all"]).optional(),
  state: z.enum(["opened", "closed", "locked", "merged", "all"]).optional(),
  orderBy: z.enum(["created_at", "title", "merged_at", "updated_at"]).optional(),
  sort: z.enum(["asc", "desc"]).optional(),
  reviewerId: userIdOrNoneAny.optional(),
  mergeUserId: userId.optional(),
  mergeUserUsername: z.string().min(1).optional(),
  /** Premium+: approved by all of these (up to 5), or None / Any. */
  approvedByIds: userIdsOrNoneAny(5).optional(),
  /** Premium+: with all of these as approvers, or None / Any. */
  approverIds: userIdsOrNoneAny().optional(),
  createdAfter: isoTime.optional(),
  createdBefore: isoTime.optional(),
  updatedAfter: isoTime.optional(),
  updatedBefore: isoTime.optional(),
  deployedAfter: isoTime.optional(),
  deployedBefore: isoTime.optional(),
  environment: z.string().min(1).optional(),
  /** Rate-limited by the server (429 past its search limit). */
  search: z.string().min(1).optional(),
  /** Where `search` looks; default both. */
  in: z.array(z.enum(["title", "description"])).min(1).optional(),
  sourceBranch: z.string().min(1).optional(),
  targetBranch: z.string().min(1).optional(),
  /** `simple`: only id, iid, project_id, title, description, state, created_at, updated_at, web_url. */
  view: z.literal("simple").optional(),
  withLabelsDetails: z.boolean().optional(),
  withMergeStatusRecheck: z.boolean().optional(),
  renderHtml: z.boolean().optional(),
  /** yes: drafts only; no: no drafts. */
  wip: z.enum(["yes", "no"]).optional(),
  /** Merge requests that match none of these. */
  not: notFilters.optional(),
});

type ListArgs = z.output<typeof listArgs>;

const EXCLUSIVE_PAIRS: [string, string][] = [
  ["authorId", "authorUsername"],
  ["reviewerId", "reviewerUsername"],
  ["mergeUserId", "mergeUserUsername"],
];
const NOT_EXCLUSIVE_PAIRS: [string, string][] = [
  ["authorId", "authorUsername"],
  ["assigneeId", "assigneeUsername"],
  ["reviewerId", "reviewerUsername"],
];

function exclusivePairs(args: ListArgs): { argument: string; reason: string }[] {
  const failures = (values: Record<string, unknown>, pairs: [string, string][], prefix: string) =>
    pairs
      .filter(([a, b]) => values[a] !== undefined && values[b] !== undefined)
      .map(([a, b]) => ({ argument: `${prefix}${a}`, reason: `${prefix}${a} and ${prefix}${b} are mutually exclusive: set one of them` }));
  return [...failures(args, EXCLUSIVE_PAIRS, ""), ...failures(args.not ?? {}, NOT_EXCLUSIVE_PAIRS, "not.")];
}

const commaJoined = (values: readonly string[] | "None" | "Any" | undefined) => (values === undefined || typeof values === "string" ? values : values.join(","));

/** The negatable filters in the API's names, under `prefix` (`not[...]`) or at the top level. */
function negatableQuery(f: z.output<typeof notFilters> | ListArgs, key: (name: string) => string): Query {
  const query: Query = {
    [key("labels")]: commaJoined(f.labels),
    [key("milestone")]: f.milestone,
    [key("author_id")]: f.authorId,
    [key("author_username")]: f.authorUsername,
    [key("assignee_id")]: f.assigneeId,
    [key("reviewer_id")]: f.reviewerId,
    [key("reviewer_username")]: f.reviewerUsername,
    [key("my_reaction_emoji")]: f.myReactionEmoji,
    // Only `not` has it: the table's top level has no assignee_username.
    [key("assignee_username")]: (f as { assigneeUsername?: string }).assigneeUsername,
  };
  return query;
}

function listQuery(args: ListArgs): Query {
  return {
    ...negatableQuery(args, (name) => name),
    ...(args.not ? negatableQuery(args.not, (name) => `not[${name}]`) : {}),
    scope: args.scope,
    state: args.state,
    order_by: args.orderBy,
    sort: args.sort,
    merge_user_id: args.mergeUserId,
    merge_user_username: args.mergeUserUsername,
    approved_by_ids: args.approvedByIds,
    approver_ids: args.approverIds,
    created_after: args.createdAfter,
    created_before: args.createdBefore,
    updated_after: args.updatedAfter,
    updated_before: args.updatedBefore,
    deployed_after: args.deployedAfter,
    deployed_before: args.deployedBefore,
    environment: args.environment,
    search: args.search,
    in: args.in?.join(","),
    source_branch: args.sourceBranch,
    target_branch: args.targetBranch,
    view: args.view,
    with_labels_details: args.withLabelsDetails,
    with_merge_status_recheck: args.withMergeStatusRecheck,
    render_html: args.renderHtml,
    wip: args.wip,
  };
}

const reporterNeeded = projectNeeds("Reporter");
const readRefusal = () => "That is for a private project; a public or internal project's own visibility decides for the others.";
const pipelineRefusal = () => "On a public or internal project whose pipelines are public, any access to it is enough.";

// ---------------------------------------------------------------------------
// Functions

const mergeRequests = defineListFunction({
  name: "getMergeRequests",
  args: listArgs,
  validate: exclusivePairs,
  path: () => ALL_MERGE_REQUESTS,
  query: listQuery,
  subject: (args) => (args.scope === "all" ? "the merge requests visible to the token's user" : `the merge requests ${(args.scope ?? "created_by_me").replace(/_/g, " ")}`),
  refusals: { 401: () => `listing merge requests other than with scope all needs a signed-in caller, and ${tokenRefused()}.` },
  item: mergeRequestShape,
});

/**
 * Merge requests across every project the token's user may read, filtered as
 * the API's table allows (the default scope is the caller's own).
 *
 * ```ts
 * const reviews = await getMergeRequests({ scope: "reviews_for_me", state: "opened", labels: ["security"] });
 * ```
 */
export const getMergeRequests = mergeRequests;
/** `getMergeRequests` as an Output. */
export const getMergeRequestsOutput = mergeRequests.output;

const projectMergeRequests = defineListFunction({
  name: "getProjectMergeRequests",
  args: listArgs.extend({
    /** The project (id or full path). */
    project: ownerReference,
    /** Only these merge requests (`!iid`s of the project). */
    iids: z.array(z.number().int().positive()).min(1).optional(),
  }),
  validate: exclusivePairs,
  path: (args) => mergeRequestsPath(args.project),
  query: (args) => ({ ...listQuery(args), iids: args.iids }),
  subject: (args) => `the merge requests of project ${args.project}`,
  refusals: { 403: readRefusal },
  needs: reporterNeeded,
  item: mergeRequestShape,
});

/**
 * The merge requests of one project, with the same filters as
 * `getMergeRequests`; the scope defaults to all of them (the server's
 * default for a project), and `iids` picks some by their `!iid`.
 *
 * ```ts
 * const open = await getProjectMergeRequests({ project: "acme/web", state: "opened", targetBranch: "main" });
 * ```
 */
export const getProjectMergeRequests = projectMergeRequests;
/** `getProjectMergeRequests` as an Output. */
export const getProjectMergeRequestsOutput = projectMergeRequests.output;


const mergeRequest = defineObjectFunction({
  name: "getMergeRequest",
  args: z.object({
    ...inMergeRequest,
    /** Adds `divergedCommitsCount`: commits the target branch has that the source lacks. */
    includeDivergedCommitsCount: z.boolean().optional(),
    /** Adds `rebaseInProgress`. */
    includeRebaseInProgress: z.boolean().optional(),
    /** Adds `titleHtml` and `descriptionHtml`. */
    renderHtml: z.boolean().optional(),
  }),
  path: (args) => mergeRequestPath(args.project, args.iid),
  query: (args) => queryOf(args, ["includeDivergedCommitsCount", "includeRebaseInProgress", "renderHtml"]),
  subject: mergeRequestSubject,
  refusals: { 403: readRefusal },
  needs: reporterNeeded,
  result: singleShape,
});

/**
 * One merge request with its extras (diff refs, changes count, head pipeline when the caller may see pipelines).
 *
 * ```ts
 * const mr = await getMergeRequest({ project: "acme/web", iid: 1, includeDivergedCommitsCount: true });
 * ```
 */
export const getMergeRequest = mergeRequest;
/** `getMergeRequest` as an Output. */
export const getMergeRequestOutput = mergeRequest.output;

const mergeRequestDiffs = defineListFunction({
  name: "getMergeRequestDiffs",
  args: z.object({ ...inMergeRequest, /** Each diff with its `---`/`+++` header. */ unidiff: z.boolean().optional() }),
  path: (args) => `${mergeRequestPath(args.project, args.iid)}/diffs`,
  query: (args) => ({ unidiff: args.unidiff }),
  subject: (args) => `the diffs of ${mergeRequestSubject(args)}`,
  refusals: { 403: readRefusal },
  needs: reporterNeeded,
  item: diffShape,
});

/**
 * The files a merge request changes, each with its diff (subject to the server's diff limits: `collapsed`, `tooLarge`).
 *
 * ```ts
 * const files = await getMergeRequestDiffs({ project: "acme/web", iid: 1 });
 * ```
 */
export const getMergeRequestDiffs = mergeRequestDiffs;
/** `getMergeRequestDiffs` as an Output. */
export const getMergeRequestDiffsOutput = mergeRequestDiffs.output;

const mergeRequestRawDiffs = defineTextFunction({
  name: "getMergeRequestRawDiffs",
  args: z.object(inMergeRequest),
  path: (args) => `${mergeRequestPath(args.project, args.iid)}/raw_diffs`,
  subject: (args) => `the raw diff of ${mergeRequestSubject(args)}`,
  refusals: { 403: readRefusal },
  needs: reporterNeeded,
});

/**
 * A merge request's whole change as `git diff` text (no diff limits).
 *
 * ```ts
 * const patch = await getMergeRequestRawDiffs({ project: "acme/web", iid: 1 });
 * ```
 */
export const getMergeRequestRawDiffs = mergeRequestRawDiffs;
/** `getMergeRequestRawDiffs` as an Output. */
export const getMergeRequestRawDiffsOutput = mergeRequestRawDiffs.output;


const mergeRequestPipelines = defineListFunction({
  name: "getMergeRequestPipelines",
  args: z.object(inMergeRequest),
  path: (args) => mergeRequestPipelinesPath(args.project, args.iid),
  subject: (args) => `the pipelines of ${mergeRequestSubject(args)}`,
  refusals: { 403: pipelineRefusal },
  needs: reporterNeeded,
  item: pipelineBasicShape,
});

/**
 * A merge request's pipelines, newest first.
 *
 * ```ts
 * const [latest] = await getMergeRequestPipelines({ project: "acme/web", iid: 1, limit: 1 });
 * ```
 */
export const getMergeRequestPipelines = mergeRequestPipelines;
/** `getMergeRequestPipelines` as an Output. */
export const getMergeRequestPipelinesOutput = mergeRequestPipelines.output;
