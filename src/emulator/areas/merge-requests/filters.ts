/**
 * The filters of `GET /merge_requests`, checked
 * and applied as the real server does:
 *
 * - Exclusive pairs are Grape's `mutually_exclusive`: 400
 *   `{"error":"author_id, author_username are mutually exclusive"}`; inside
 *   `not` the names are scoped: `not[author_id], not[author_username] ...`.
 * - `assignee_id` and `reviewer_id` take an integer, `None` or `Any`
 *   (IntegerNoneAny: `assignee_id should be an integer, none, or any, however
 *   got x`); `approved_by_ids` and `approver_ids` an array, `None` or `Any`
 *   (ArrayNoneAny: `approved_by_ids should be an array, 'None' or 'Any'`).
 *   `approved_by_ids` takes at most 5 users; more is 400 with
 *   the emulator's wording `approved_by_ids allows at most 5 users`.
 * - The approval filters are Premium+ (EE parameters): on a Free project's
 *   merge requests they filter nothing, as a server without the feature
 *   ignores the undeclared parameter.
 * - Times are inclusive (`created_after` is "on or after"); a value that is
 *   not a time is 400 `{"error":"created_after is invalid"}`.
 * - `labels` and `milestone`: `None` (none set) and `Any` (some set),
 *   case-insensitive; several labels must all be present. `my_reaction_emoji`
 *   needs a signed-in caller and is ignored otherwise.
 * - `search` matches title and/or description (`in`: `title`, `description`
 *   or both, comma-joined; default both), case-insensitive.
 * - Order: `order_by` (created_at, title, merged_at, updated_at) and `sort`,
 *   ties broken by id in the same direction; merge requests never merged
 *   come last when ordering by merged_at.
 */
import { paramError } from "../../errors";
import type { RawParams } from "../../params";
import type { EmulatorState, Project, User } from "../../state";
import { isDraft, labelsOf, mergeRequestStore, splitLabelNames, type MergeRequestRecord } from "./model";

const NONE = "none";
const ANY = "any";
type IdFilter = number | typeof NONE | typeof ANY;
type IdsFilter = number[] | typeof NONE | typeof ANY;

export interface NegatedFilters {
  labels?: string[];
  milestone?: string;
  authorId?: number;
  authorUsername?: string;
  assigneeId?: IdFilter;
  assigneeUsername?: string[];
  reviewerId?: IdFilter;
  reviewerUsername?: string;
  myReactionEmoji?: string;
}

export interface ListFilters extends NegatedFilters {
  scope: "created_by_me" | "assigned_to_me" | "reviews_for_me" | "all";
  state: string;
  orderBy: "created_at" | "title" | "merged_at" | "updated_at";
  sort: "asc" | "desc";
  mergeUserId?: number;
  mergeUserUsername?: string;
  approvedByIds?: IdsFilter;
  approverIds?: IdsFilter;
  createdAfter?: number;
  createdBefore?: number;
  updatedAfter?: number;
  updatedBefore?: number;
  deployedAfter?: number;
  deployedBefore?: number;
  environment?: string;
  search?: string;
  in: ("title" | "description")[];
  sourceBranch?: string;
  targetBranch?: string;
  wip?: "yes" | "no";
  not: NegatedFilters;
}

/** The declared parameters of the list (Grape's simple types; the rest are read by `readListFilters`). */
export const listParamSpec = {
  scope: { type: "string", values: ["created_by_me", "assigned_to_me", "reviews_for_me", "all", "created-by-me", "assigned-to-me"] },
  state: { type: "string", values: ["opened", "closed", "locked", "merged", "all"] },
  order_by: { type: "string", values: ["created_at", "title", "merged_at", "updated_at"] },
  sort: { type: "string", values: ["asc", "desc"] },
  author_id: { type: "integer" },
  author_username: { type: "string" },
  merge_user_id: { type: "integer" },
  merge_user_username: { type: "string" },
  milestone: { type: "string" },
  labels: { type: "string" },
  my_reaction_emoji: { type: "string" },
  environment: { type: "string" },
  in: { type: "string" },
  search: { type: "string" },
  source_branch: { type: "string" },
  target_branch: { type: "string" },
  view: { type: "string", values: ["simple"] },
  with_labels_details: { type: "boolean" },
  with_merge_status_recheck: { type: "boolean" },
  render_html: { type: "boolean" },
  wip: { type: "string", values: ["yes", "no"] },
  not: { type: "hash" },
} as const;

const DATETIME_PARAMS = ["created_after", "created_before", "updated_after", "updated_before", "deployed_after", "deployed_before"] as const;

class Problems {
  readonly list: string[] = [];
  add(problem: string): void {
    this.list.push(problem);
  }
  throwAny(): void {
    if (this.list.length > 0) throw paramError(this.list.join(", "));
  }
}

const present = (raw: RawParams, name: string): boolean => raw[name] !== undefined && raw[name] !== null && raw[name] !== "";

function exclusive(raw: RawParams, problems: Problems, a: string, b: string, prefix = ""): void {
  if (present(raw, a) && present(raw, b)) {
    const scoped = (name: string) => (prefix ? `${prefix}[${name}]` : name);
    problems.add(`${scoped(a)}, ${scoped(b)} are mutually exclusive`);
  }
}

function integerNoneAny(raw: RawParams, name: string, problems: Problems, label = name): IdFilter | undefined {
  const value = raw[name];
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  if (/^[-+]?\d+$/.test(text)) return Number.parseInt(text, 10);
  const lower = text.toLowerCase();
  if (lower === NONE || lower === ANY) return lower;
  problems.add(`${label} should be an integer, none, or any, however got ${text}`);
  return undefined;
}

function plainInteger(raw: RawParams, name: string, problems: Problems, label: string): number | undefined {
  const value = raw[name];
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  if (/^[-+]?\d+$/.test(text)) return Number.parseInt(text, 10);
  problems.add(`${label} is invalid`);
  return undefined;
}

function arrayNoneAny(raw: RawParams, name: string, problems: Problems): IdsFilter | undefined {
  const value = raw[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" && [NONE, ANY].includes(value.toLowerCase())) return value.toLowerCase() as IdsFilter;
  const list = Array.isArray(value) ? value : typeof value === "object" ? Object.values(value) : undefined;
  if (!list) {
    problems.add(`${name} should be an array, 'None' or 'Any'`);
    return undefined;
  }
  const ids = list.flatMap((item) => String(item).split(",")).map((item) => item.trim()).filter((item) => item !== "");
  if (!ids.every((id) => /^\d+$/.test(id))) {
    problems.add(`${name} is invalid`);
    return undefined;
  }
  return ids.map(Number);
}

function datetime(raw: RawParams, name: string, problems: Problems): number | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  const parsed = Date.parse(String(value));
  if (Number.isNaN(parsed)) {
    problems.add(`${name} is invalid`);
    return undefined;
  }
  return parsed;
}

const stringOf = (raw: RawParams, name: string): string | undefined => (typeof raw[name] === "string" && raw[name] !== "" ? (raw[name] as string) : undefined);

function usernames(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** The negatable filters, at the top level or inside `not` (`prefix` "not"). */
function readNegatable(raw: RawParams, problems: Problems, prefix: string): NegatedFilters {
  const label = (name: string) => (prefix ? `${prefix}[${name}]` : name);
  exclusive(raw, problems, "author_id", "author_username", prefix);
  exclusive(raw, problems, "assignee_id", "assignee_username", prefix);
  exclusive(raw, problems, "reviewer_id", "reviewer_username", prefix);
  const labels = raw["labels"];
  return {
    labels: labels === undefined || labels === null || labels === "" ? undefined : splitLabelNames(labels as string | string[]),
    milestone: stringOf(raw, "milestone"),
    authorId: plainInteger(raw, "author_id", problems, label("author_id")),
    authorUsername: stringOf(raw, "author_username"),
    assigneeId: integerNoneAny(raw, "assignee_id", problems, label("assignee_id")),
    assigneeUsername: usernames(raw["assignee_username"]),
    reviewerUsername: stringOf(raw, "reviewer_username"),
    myReactionEmoji: stringOf(raw, "my_reaction_emoji"),
  };
}

/** Every parameter of the list, checked; all problems together in one 400, as Grape reports them. */
export function readListFilters(raw: RawParams, defaultScope: ListFilters["scope"] = "created_by_me"): ListFilters {
  const problems = new Problems();
  const negatable = readNegatable(raw, problems, "");
  const reviewerId = integerNoneAny(raw, "reviewer_id", problems);
  exclusive(raw, problems, "merge_user_id", "merge_user_username");
  const approvedByIds = arrayNoneAny(raw, "approved_by_ids", problems);
  if (Array.isArray(approvedByIds) && approvedByIds.length > 5) problems.add("approved_by_ids allows at most 5 users");
  const approverIds = arrayNoneAny(raw, "approver_ids", problems);
  const times = Object.fromEntries(DATETIME_PARAMS.map((name) => [name, datetime(raw, name, problems)]));
  const notRaw = (raw["not"] ?? {}) as RawParams;
  const not = readNegatable(notRaw, problems, "not");
  const notReviewerId = plainInteger(notRaw, "reviewer_id", problems, "not[reviewer_id]");
  problems.throwAny();
  const scope = String(raw["scope"] ?? defaultScope).replace(/-/g, "_") as ListFilters["scope"];
  const inFields = String(raw["in"] ?? "title,description")
    .split(",")
    .map((part) => part.trim())
    .filter((part): part is "title" | "description" => part === "title" || part === "description");
  return {
    ...negatable,
    scope,
    state: String(raw["state"] ?? "all"),
    orderBy: (raw["order_by"] ?? "created_at") as ListFilters["orderBy"],
    sort: (raw["sort"] ?? "desc") as ListFilters["sort"],
    reviewerId,
    mergeUserId: raw["merge_user_id"] === undefined ? undefined : Number(raw["merge_user_id"]),
    mergeUserUsername: stringOf(raw, "merge_user_username"),
    approvedByIds,
    approverIds,
    createdAfter: times["created_after"],
    createdBefore: times["created_before"],
    updatedAfter: times["updated_after"],
    updatedBefore: times["updated_before"],
    deployedAfter: times["deployed_after"],
    deployedBefore: times["deployed_before"],
    environment: stringOf(raw, "environment"),
    search: stringOf(raw, "search"),
    in: inFields.length > 0 ? inFields : ["title", "description"],
    sourceBranch: stringOf(raw, "source_branch"),
    targetBranch: stringOf(raw, "target_branch"),
    wip: raw["wip"] as ListFilters["wip"],
    not: { ...not, reviewerId: notReviewerId },
  };
}

// ---------------------------------------------------------------------------
// Matching

const userIdOf = (state: EmulatorState, username: string | undefined): number | undefined =>
  username === undefined ? undefined : (state.userByUsername(username)?.id ?? -1);

function matchesIds(ids: readonly number[], filter: IdFilter | undefined): boolean {
  if (filter === undefined) return true;
  if (filter === NONE) return ids.length === 0;
  if (filter === ANY) return ids.length > 0;
  return ids.includes(filter);
}

function matchesIdList(ids: readonly number[], filter: IdsFilter | undefined): boolean {
  if (filter === undefined) return true;
  if (filter === NONE) return ids.length === 0;
  if (filter === ANY) return ids.length > 0;
  return filter.every((id) => ids.includes(id));
}

/** A username filter where `None` and `Any` are words too (reviewer_username). */
function matchesUsername(state: EmulatorState, ids: readonly number[], username: string | undefined): boolean {
  if (username === undefined) return true;
  const lower = username.toLowerCase();
  if (lower === NONE || lower === ANY) return matchesIds(ids, lower);
  return ids.includes(userIdOf(state, username)!);
}

function matchesLabels(state: EmulatorState, mr: MergeRequestRecord, names: string[] | undefined): boolean {
  if (names === undefined) return true;
  const own = labelsOf(state, mr).map((label) => label.name.toLowerCase());
  const [first] = names;
  if (names.length === 1 && first!.toLowerCase() === NONE) return own.length === 0;
  if (names.length === 1 && first!.toLowerCase() === ANY) return own.length > 0;
  return names.every((name) => own.includes(name.toLowerCase()));
}

function milestoneTitle(state: EmulatorState, mr: MergeRequestRecord): string | null {
  return mergeRequestStore.of(state).milestones.find((m) => m.id === mr.milestoneId)?.title ?? null;
}

function matchesMilestone(state: EmulatorState, mr: MergeRequestRecord, filter: string | undefined): boolean {
  if (filter === undefined) return true;
  const title = milestoneTitle(state, mr);
  if (filter.toLowerCase() === NONE) return title === null;
  if (filter.toLowerCase() === ANY) return title !== null;
  return title === filter;
}

function matchesReaction(mr: MergeRequestRecord, user: User | null, filter: string | undefined): boolean {
  if (filter === undefined || user === null) return true;
  const mine = mr.awardEmoji[String(user.id)] ?? [];
  if (filter.toLowerCase() === NONE) return mine.length === 0;
  if (filter.toLowerCase() === ANY) return mine.length > 0;
  return mine.includes(filter);
}

/** The filters that `not[...]` may negate, all of them satisfied. */
function matchesNegatable(state: EmulatorState, user: User | null, mr: MergeRequestRecord, f: NegatedFilters): boolean {
  return (
    matchesLabels(state, mr, f.labels) &&
    matchesMilestone(state, mr, f.milestone) &&
    (f.authorId === undefined || mr.authorId === f.authorId) &&
    (f.authorUsername === undefined || mr.authorId === userIdOf(state, f.authorUsername)) &&
    matchesIds(mr.assigneeIds, f.assigneeId) &&
    (f.assigneeUsername === undefined || f.assigneeUsername.every((name) => mr.assigneeIds.includes(userIdOf(state, name)!))) &&
    matchesUsername(state, mr.reviewerIds, f.reviewerUsername) &&
    matchesReaction(mr, user, f.myReactionEmoji)
  );
}

/** `not[x]`: each negated filter given must fail on its own (IssuableFinder's `by_negated_*`). */
function matchesNot(state: EmulatorState, user: User | null, mr: MergeRequestRecord, not: NegatedFilters): boolean {
  const entries = Object.entries(not).filter(([, value]) => value !== undefined);
  return entries.every(([key, value]) => {
    if (key === "labels") {
      // not[labels]=a,b excludes merge requests with any of them.
      return (value as string[]).every((name) => !matchesLabels(state, mr, [name]));
    }
    if (key === "reviewerId") return !mr.reviewerIds.includes(value as number);
    return !matchesNegatable(state, user, mr, { [key]: value });
  });
}

function inRange(time: string | null, after: number | undefined, before: number | undefined): boolean {
  if (after === undefined && before === undefined) return true;
  if (time === null) return false;
  const at = Date.parse(time);
  return (after === undefined || at >= after) && (before === undefined || at <= before);
}

function matchesDeployment(mr: MergeRequestRecord, f: ListFilters): boolean {
  if (f.deployedAfter === undefined && f.deployedBefore === undefined && f.environment === undefined) return true;
  return mr.deployments.some((d) => (f.environment === undefined || d.environment === f.environment) && inRange(d.deployedAt, f.deployedAfter, f.deployedBefore));
}

function matchesSearch(mr: MergeRequestRecord, f: ListFilters): boolean {
  if (f.search === undefined) return true;
  const needle = f.search.toLowerCase();
  return f.in.some((field) => (field === "title" ? mr.title : mr.description).toLowerCase().includes(needle));
}

function matchesScope(mr: MergeRequestRecord, user: User | null, scope: ListFilters["scope"]): boolean {
  if (scope === "all") return true;
  if (user === null) return false;
  if (scope === "created_by_me") return mr.authorId === user.id;
  if (scope === "assigned_to_me") return mr.assigneeIds.includes(user.id);
  return mr.reviewerIds.includes(user.id);
}

export interface MatchContext {
  state: EmulatorState;
  user: User | null;
  project: Project;
  /** Whether the project's tier has the approval filters (Premium+). */
  approvalsLicensed: boolean;
}

export function matchesFilters(ctx: MatchContext, mr: MergeRequestRecord, f: ListFilters): boolean {
  const { state, user } = ctx;
  return (
    matchesScope(mr, user, f.scope) &&
    (f.state === "all" || mr.state === f.state) &&
    matchesNegatable(state, user, mr, f) &&
    matchesIds(mr.reviewerIds, f.reviewerId) &&
    (f.mergeUserId === undefined || mr.mergeUserId === f.mergeUserId) &&
    (f.mergeUserUsername === undefined || mr.mergeUserId === userIdOf(state, f.mergeUserUsername)) &&
    (!ctx.approvalsLicensed || (matchesIdList(mr.approvedByIds, f.approvedByIds) && matchesIdList(mr.approverIds, f.approverIds))) &&
    inRange(mr.createdAt, f.createdAfter, f.createdBefore) &&
    inRange(mr.updatedAt, f.updatedAfter, f.updatedBefore) &&
    matchesDeployment(mr, f) &&
    matchesSearch(mr, f) &&
    (f.sourceBranch === undefined || mr.sourceBranch === f.sourceBranch) &&
    (f.targetBranch === undefined || mr.targetBranch === f.targetBranch) &&
    (f.wip === undefined || isDraft(mr.title) === (f.wip === "yes")) &&
    matchesNot(state, user, mr, f.not)
  );
}

export function orderMergeRequests(list: MergeRequestRecord[], orderBy: ListFilters["orderBy"], sort: ListFilters["sort"]): MergeRequestRecord[] {
  const direction = sort === "asc" ? 1 : -1;
  const key = (mr: MergeRequestRecord): string | null =>
    orderBy === "title" ? mr.title.toLowerCase() : orderBy === "merged_at" ? mr.mergedAt : orderBy === "updated_at" ? mr.updatedAt : mr.createdAt;
  return [...list].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    if (ka === null || kb === null) return ka === kb ? direction * (a.id - b.id) : ka === null ? 1 : -1;
    return direction * (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id);
  });
}
