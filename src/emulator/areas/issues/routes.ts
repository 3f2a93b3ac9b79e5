/**
 * Project issues: `GET/POST /projects/:id/issues`, `GET/PUT
 * /projects/:id/issues/:issue_iid` (with `state_event` close and reopen) and
 * the issues' notes. The rules are in ./model.ts; what each call answers, and
 * what it follows, in the emulator's README ("Project issues").
 */
import { forbidden, paramError, recordNotFound, validationError } from "../../errors";
import { findProject } from "../../lookup";
import { timeParam, type DeclaredParams } from "../../params";
import { created, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import type { EmulatorState, Project, User } from "../../state";
import { findOrCreateLabel, humanDuration, labelsOf, mergeRequestStore, splitLabelNames } from "../merge-requests/model";
import { noteRoutes, type NoteableKind } from "../merge-requests/noteable";
import { presentLabel, presentMilestone, presentUserReference, taskCompletion, userList } from "../merge-requests/present";
import {
  canAdminIssues,
  canReadIssue,
  canReadIssues,
  canUpdateIssue,
  ISSUE_SEQUENCE,
  issueStore,
  type IssueNoteRecord,
  type IssueRecord,
} from "./model";

const idParam = { id: { type: "string", required: true } } as const;
const iidParams = { ...idParam, issue_iid: { type: "integer", required: true } } as const;
const ISSUE_TYPES = ["issue", "incident", "test_case", "task"] as const;

const webBase = (state: EmulatorState): string => `https://${state.instance.host}`;

/** `Entities::Issue`. */
function presentIssue(state: EmulatorState, project: Project, issue: IssueRecord, user: User | null): Record<string, unknown> {
  const fullPath = state.projectFullPath(project);
  const api = `${webBase(state)}/api/v4/projects/${project.id}/issues/${issue.iid}`;
  const assignees = userList(state, issue.assigneeIds);
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: project.id,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    closed_by: presentUserReference(state, issue.closedById),
    labels: labelsOf(state, issue).map((label) => label.name),
    milestone: presentMilestone(state, project, issue.milestoneId),
    assignees,
    author: presentUserReference(state, issue.authorId),
    type: issue.issueType.toUpperCase(),
    assignee: assignees[0] ?? null,
    user_notes_count: issue.userNotesCount,
    merge_requests_count: 0,
    upvotes: issue.upvotes,
    downvotes: issue.downvotes,
    due_date: issue.dueDate,
    confidential: issue.confidential,
    discussion_locked: issue.discussionLocked,
    issue_type: issue.issueType,
    web_url: `${webBase(state)}/${fullPath}/-/${issue.issueType === "issue" ? "issues" : "work_items"}/${issue.iid}`,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: humanDuration(0), human_total_time_spent: humanDuration(0) },
    task_completion_status: taskCompletion(issue.description),
    blocking_issues_count: 0,
    has_tasks: taskCompletion(issue.description)["count"] !== 0,
    task_status: "",
    _links: { self: api, notes: `${api}/notes`, award_emoji: `${api}/award_emoji`, project: `${webBase(state)}/api/v4/projects/${project.id}`, closed_as_duplicate_of: null },
    references: { short: `#${issue.iid}`, relative: `#${issue.iid}`, full: `${fullPath}#${issue.iid}` },
    severity: "UNKNOWN",
    subscribed: user !== null && [issue.authorId, ...issue.assigneeIds].includes(user.id),
    moved_to_id: null,
    imported: false,
    imported_from: "none",
    service_desk_reply_to: null,
  };
}

function findIssue(ctx: RequestContext<{ issue_iid: number }>, project: Project): IssueRecord {
  const issue = issueStore.of(ctx.state).issues.find((candidate) => candidate.projectId === project.id && candidate.iid === ctx.params.issue_iid);
  // IssuesFinder's `find_by!`: a missing issue and one the caller may not read are the same 404.
  if (!issue || !canReadIssue(ctx.state, ctx.user, project, issue)) throw recordNotFound();
  return issue;
}

// ---------------------------------------------------------------------------
// List

const ORDER_BY = ["created_at", "updated_at", "priority", "due_date", "relative_position", "label_priority", "milestone_due", "popularity", "weight", "title"] as const;

const listParams = {
  ...idParam,
  state: { type: "string", values: ["opened", "closed", "all"] },
  scope: { type: "string", values: ["created_by_me", "assigned_to_me", "all", "created-by-me", "assigned-to-me"] },
  milestone: { type: "string" },
  author_id: { type: "integer" },
  author_username: { type: "string" },
  assignee_id: { type: "string" },
  assignee_username: { type: "string[]" },
  search: { type: "string" },
  iids: { type: "integer[]" },
  confidential: { type: "boolean" },
  issue_type: { type: "string", values: ISSUE_TYPES },
  created_after: { type: "string" },
  created_before: { type: "string" },
  updated_after: { type: "string" },
  updated_before: { type: "string" },
  order_by: { type: "string", values: ORDER_BY },
  sort: { type: "string", values: ["asc", "desc"] },
  with_labels_details: { type: "boolean" },
} as const;

type ListParams = DeclaredParams<typeof listParams>;

/** IssuesFinder's filters of the parameter table. */
function issueFilter(ctx: RequestContext<ListParams>): (issue: IssueRecord) => boolean {
  const { params, state, user } = ctx;
  const labels = ctx.rawParams["labels"] === undefined ? undefined : splitLabelNames(ctx.rawParams["labels"] as string | string[]);
  const times = {
    createdAfter: timeParam(params.created_after, "created_after"),
    createdBefore: timeParam(params.created_before, "created_before"),
    updatedAfter: timeParam(params.updated_after, "updated_after"),
    updatedBefore: timeParam(params.updated_before, "updated_before"),
  };
  const scope = (params.scope ?? "all").replace(/-/g, "_");
  const search = params.search?.toLowerCase();
  const milestoneTitle = (issue: IssueRecord) => mergeRequestStore.of(state).milestones.find((m) => m.id === issue.milestoneId)?.title;
  return (issue) => {
    const names = labelsOf(state, issue).map((label) => label.name.toLowerCase());
    const assigneeNames = issue.assigneeIds.map((id) => state.userById(id)?.username.toLowerCase());
    const checks = [
      params.state === undefined || params.state === "all" || issue.state === params.state,
      scope !== "created_by_me" || issue.authorId === user?.id,
      scope !== "assigned_to_me" || (user !== null && issue.assigneeIds.includes(user.id)),
      params.author_id === undefined || issue.authorId === params.author_id,
      params.author_username === undefined || state.userById(issue.authorId)?.username.toLowerCase() === params.author_username.toLowerCase(),
      params.assignee_id === undefined ||
        (params.assignee_id.toLowerCase() === "none" ? issue.assigneeIds.length === 0 : params.assignee_id.toLowerCase() === "any" ? issue.assigneeIds.length > 0 : issue.assigneeIds.includes(Number(params.assignee_id))),
      params.assignee_username === undefined || params.assignee_username.every((name) => assigneeNames.includes(name.toLowerCase())),
      labels === undefined ||
        (labels.length === 1 && labels[0]!.toLowerCase() === "none" ? names.length === 0 : labels.length === 1 && labels[0]!.toLowerCase() === "any" ? names.length > 0 : labels.every((label) => names.includes(label.toLowerCase()))),
      params.milestone === undefined ||
        (params.milestone.toLowerCase() === "none" ? issue.milestoneId === null : params.milestone.toLowerCase() === "any" ? issue.milestoneId !== null : milestoneTitle(issue) === params.milestone),
      !search || issue.title.toLowerCase().includes(search) || issue.description.toLowerCase().includes(search),
      params.iids === undefined || params.iids.includes(issue.iid),
      params.confidential === undefined || issue.confidential === params.confidential,
      params.issue_type === undefined || issue.issueType === params.issue_type,
      times.createdAfter === undefined || Date.parse(issue.createdAt) >= times.createdAfter,
      times.createdBefore === undefined || Date.parse(issue.createdAt) <= times.createdBefore,
      times.updatedAfter === undefined || Date.parse(issue.updatedAt) >= times.updatedAfter,
      times.updatedBefore === undefined || Date.parse(issue.updatedAt) <= times.updatedBefore,
    ];
    return checks.every(Boolean);
  };
}

/** The ordering: `title`, `due_date` (none last), `updated_at`; every other ordering by creation, as the emulator keeps no priorities or weights. */
function orderIssues(issues: IssueRecord[], orderBy: string, sort: string): IssueRecord[] {
  const direction = sort === "asc" ? 1 : -1;
  const key = (issue: IssueRecord): string => (orderBy === "title" ? issue.title.toLowerCase() : orderBy === "updated_at" ? issue.updatedAt : orderBy === "due_date" ? (issue.dueDate ?? "") : issue.createdAt);
  return [...issues].sort((a, b) => {
    if (orderBy === "due_date" && (a.dueDate === null) !== (b.dueDate === null)) return a.dueDate === null ? 1 : -1;
    return direction * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id);
  });
}

const listIssues = route("GET", "/projects/:id/issues", { params: listParams, paginated: true }, (ctx) => {
  const project = findProject(ctx);
  const { state, user, params } = ctx;
  const visible = issueStore.of(state).issues.filter((issue) => issue.projectId === project.id && canReadIssue(state, user, project, issue));
  const matching = orderIssues(visible.filter(issueFilter(ctx)), params.order_by ?? "created_at", params.sort ?? "desc");
  return paginate(ctx, matching, {
    present: (issue) => {
      const body = presentIssue(state, project, issue, user);
      return params.with_labels_details ? { ...body, labels: labelsOf(state, issue).map(presentLabel) } : body;
    },
  });
});

const showIssue = route("GET", "/projects/:id/issues/:issue_iid", { params: iidParams }, (ctx) => {
  const project = findProject(ctx);
  return ok(presentIssue(ctx.state, project, findIssue(ctx, project), ctx.user));
});

// ---------------------------------------------------------------------------
// Create and update

const writableParams = {
  description: { type: "string" },
  confidential: { type: "boolean" },
  assignee_id: { type: "integer" },
  assignee_ids: { type: "integer[]" },
  milestone_id: { type: "integer" },
  due_date: { type: "string" },
  discussion_locked: { type: "boolean" },
  issue_type: { type: "string", values: ISSUE_TYPES },
} as const;

interface Writable {
  description?: string;
  confidential?: boolean;
  assignee_id?: number;
  assignee_ids?: number[];
  milestone_id?: number;
  due_date?: string;
  discussion_locked?: boolean;
  issue_type?: string;
}

const MAX_TITLE = 255;
const MAX_DESCRIPTION = 1_048_576;

/** The Issue model's validations, answered as `render_validation_error!`. */
function validateIssue(issue: IssueRecord): void {
  const errors: Record<string, string[]> = {};
  if (issue.title.trim() === "") errors["title"] = ["can't be blank"];
  else if ([...issue.title].length > MAX_TITLE) errors["title"] = [`is too long (maximum is ${MAX_TITLE} characters)`];
  if ([...issue.description].length > MAX_DESCRIPTION) errors["description"] = [`is too long (maximum is ${MAX_DESCRIPTION} characters)`];
  if (issue.dueDate !== null && !/^\d{4}-\d{2}-\d{2}$/.test(issue.dueDate)) errors["due_date"] = ["is invalid"];
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * The optional fields; those of `admin_issue` only for Planners and above (the
 * service drops them for others). Assignees must be able to read the issues
 * (others are dropped); below Premium only the first is taken. A milestone
 * that is not the project's is dropped.
 */
function applyWritable(ctx: RequestContext<unknown>, project: Project, issue: IssueRecord, params: Writable): void {
  const { state, user } = ctx;
  const admin = canAdminIssues(state, user, project);
  if (params.description !== undefined) issue.description = params.description;
  if (params.due_date !== undefined) issue.dueDate = params.due_date === "" ? null : params.due_date;
  if (params.issue_type !== undefined) issue.issueType = params.issue_type as IssueRecord["issueType"];
  if (!admin) return;
  if (params.confidential !== undefined) issue.confidential = params.confidential;
  if (params.discussion_locked !== undefined) issue.discussionLocked = params.discussion_locked;
  const requested = params.assignee_ids ?? (params.assignee_id === undefined ? undefined : [params.assignee_id]);
  if (requested !== undefined) {
    const considered = state.tierOf(state.namespaceOf(project)) === "free" ? requested.slice(0, 1) : requested;
    issue.assigneeIds = [...new Set(considered)].filter((id) => {
      const assignee = id === 0 ? undefined : state.userById(id);
      return assignee !== undefined && canReadIssues(state, assignee, project);
    });
  }
  if (params.milestone_id !== undefined) {
    issue.milestoneId = mergeRequestStore.of(state).milestones.find((m) => m.id === params.milestone_id && m.projectId === project.id)?.id ?? null;
  }
  const labels = (name: string) => (ctx.rawParams[name] === undefined ? undefined : splitLabelNames(ctx.rawParams[name] as string | string[]));
  const ids = (names: string[]) => names.map((name) => findOrCreateLabel(state, project.id, name).id);
  const set = labels("labels");
  if (set !== undefined) issue.labelIds = ids(set);
  const added = labels("add_labels");
  if (added !== undefined) issue.labelIds = [...new Set([...issue.labelIds, ...ids(added)])];
  const removed = labels("remove_labels");
  if (removed !== undefined) {
    const gone = new Set(removed.map((name) => name.toLowerCase()));
    issue.labelIds = issue.labelIds.filter((id) => !gone.has(mergeRequestStore.of(state).labels.find((label) => label.id === id)?.name.toLowerCase() ?? ""));
  }
}

const createIssue = route(
  "POST",
  "/projects/:id/issues",
  { params: { ...idParam, title: { type: "string", required: true }, iid: { type: "integer" }, created_at: { type: "string" }, ...writableParams } },
  (ctx) => {
    const user = requireUser(ctx);
    const project = findProject(ctx);
    if (!canReadIssues(ctx.state, user, project)) throw forbidden();
    const { issues } = issueStore.of(ctx.state);
    const now = ctx.state.now();
    const issue: IssueRecord = {
      id: 0,
      iid: Math.max(0, ...issues.filter((other) => other.projectId === project.id).map((other) => other.iid)) + 1,
      projectId: project.id,
      title: ctx.params.title.trim(),
      description: "",
      state: "opened",
      authorId: user.id,
      assigneeIds: [],
      labelIds: [],
      milestoneId: null,
      confidential: false,
      discussionLocked: null,
      dueDate: null,
      issueType: "issue",
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      closedById: null,
      userNotesCount: 0,
      upvotes: 0,
      downvotes: 0,
    };
    applyWritable(ctx, project, issue, ctx.params);
    validateIssue(issue);
    issue.id = ctx.state.nextId(ISSUE_SEQUENCE);
    issues.push(issue);
    return created(presentIssue(ctx.state, project, issue, user));
  },
);

const UPDATE_AT_LEAST_ONE_OF = [
  "assignee_id", "assignee_ids", "confidential", "created_at", "description", "discussion_locked", "due_date", "issue_type",
  "labels", "add_labels", "remove_labels", "milestone_id", "state_event", "title", "updated_at", "weight", "epic_id", "epic_iid",
] as const;

const updateIssue = route(
  "PUT",
  "/projects/:id/issues/:issue_iid",
  { params: { ...iidParams, title: { type: "string" }, state_event: { type: "string", values: ["close", "reopen"] }, updated_at: { type: "string" }, ...writableParams } },
  (ctx) => {
    if (!UPDATE_AT_LEAST_ONE_OF.some((name) => ctx.rawParams[name] !== undefined)) {
      throw paramError(`${UPDATE_AT_LEAST_ONE_OF.join(", ")} are missing, at least one parameter must be provided`);
    }
    const user = requireUser(ctx);
    const project = findProject(ctx);
    const issue = findIssue(ctx, project);
    if (!canUpdateIssue(ctx.state, user, project, issue)) throw forbidden();
    const updated = structuredClone(issue);
    if (ctx.params.title !== undefined) updated.title = ctx.params.title.trim();
    applyWritable(ctx, project, updated, ctx.params);
    validateIssue(updated);
    const now = ctx.state.now();
    if (ctx.params.state_event === "close" && updated.state === "opened") Object.assign(updated, { state: "closed", closedAt: now, closedById: user.id });
    if (ctx.params.state_event === "reopen" && updated.state === "closed") Object.assign(updated, { state: "opened", closedAt: null, closedById: null });
    if (JSON.stringify(updated) !== JSON.stringify(issue)) updated.updatedAt = now;
    Object.assign(issue, updated);
    return ok(presentIssue(ctx.state, project, issue, user));
  },
);

// ---------------------------------------------------------------------------
// Notes

const issueNotes: NoteableKind<IssueRecord, IssueNoteRecord> = {
  collection: "issues",
  typeName: "Issue",
  internalNotes: true,
  find: (state, project, iid) => issueStore.of(state).issues.find((issue) => issue.projectId === project.id && issue.iid === iid),
  canRead: (state, user, project, issue) => canReadIssue(state, user, project, issue),
  notesOf: (state, issue) => issueStore.of(state).notes.filter((note) => note.issueId === issue.id),
  add: (state, issue, fields) => {
    const note: IssueNoteRecord = { ...fields, issueId: issue.id };
    issueStore.of(state).notes.push(note);
    return note;
  },
};

export const issueRoutes: readonly RouteDefinition[] = [listIssues, showIssue, createIssue, updateIssue, ...noteRoutes(issueNotes)];

