/**
 * Comments on merge requests: `GET/POST /projects/:id/merge_requests/:noteable_id/notes`
 * and `GET/PUT .../notes/:note_id`. Real endpoints outside the specification
 * (the review command posts its report through them), answered as GitLab's
 * lib/api/notes.rb, lib/api/helpers/notes_helpers.rb, lib/api/entities/note.rb,
 * app/models/note.rb and app/policies/note_policy.rb answer:
 * - Every call authenticates first (`before { authenticate! }`): 401 even on
 *   a public project, before any parameter is checked.
 * - The merge request is found through MergeRequestsFinder (`find_by!`), so a
 *   missing one and one the caller may not read are the same 404
 *   `{"message":"404 Not found"}`; a note not on this merge request too.
 * - Create (`create_note`): anyone who may read the merge request, except a
 *   non-member while its discussion is locked (IssuablePolicy) → 403. The
 *   model's errors are 400 `Note {...}` in Ruby's Hash notation: a blank body,
 *   a body over 1,000,000 characters (`MAX_TEXT_SIZE_LIMIT`), the 5,000th
 *   comment of one merge request (`Noteable::MAX_NOTES_LIMIT`), `internal`
 *   on a merge request (internal notes are for issues and epics).
 * - Edit (`admin_note`): the author, Maintainer+ of the project (the project's
 *   `admin_note`) or an administrator, never a system note; otherwise 403.
 *   A blank `body` is Grape's `allow_blank: false` (`{"error":"body is empty"}`).
 * - List: `order_by` created_at (default) or updated_at, `sort` desc (default)
 *   or asc, ties by id; `activity_filter` all_notes, only_comments,
 *   only_activity; offset pagination.
 */
import { AccessLevel, type EmulatorState, type Project, type User } from "../../state";
import { ApiError, badRequest, forbidden, paramError, recordNotFound } from "../../errors";
import { hasProjectAccess, projectAccessLevel } from "../../access";
import { findProject } from "../../lookup";
import { created, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import {
  NOTE_SEQUENCE,
  canReadMergeRequests,
  mergeRequestStore,
  notesOf,
  type MergeRequestNoteRecord,
  type MergeRequestRecord,
} from "./model";
import { presentUserReference } from "./present";

/** `Gitlab::Database::MAX_TEXT_SIZE_LIMIT`, counted in characters. */
export const MAX_NOTE_LENGTH = 1_000_000;
/** `Noteable::MAX_NOTES_LIMIT`: comments one merge request may hold. */
export const MAX_NOTES_PER_MERGE_REQUEST = 5_000;

const BASE = "/projects/:id/merge_requests/:noteable_id/notes";
const noteableParams = { id: { type: "string", required: true }, noteable_id: { type: "integer", required: true } } as const;
const noteParams = { ...noteableParams, note_id: { type: "integer", required: true } } as const;

/** API::Entities::Note for a plain comment on a merge request. */
export function presentNote(state: EmulatorState, mr: MergeRequestRecord, note: MergeRequestNoteRecord): Record<string, unknown> {
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: presentUserReference(state, note.authorId),
    created_at: note.createdAt,
    updated_at: note.updatedAt,
    system: note.system,
    noteable_id: mr.id,
    noteable_type: "MergeRequest",
    project_id: note.projectId,
    resolvable: false,
    confidential: false,
    internal: false,
    imported: false,
    imported_from: "none",
    noteable_iid: mr.iid,
    commands_changes: {},
  };
}

/** `authenticate!`, then the project, then the merge request the caller may read (404 `Not found` otherwise). */
function findNoteable(ctx: RequestContext<{ noteable_id: number }>): { user: User; project: Project; mr: MergeRequestRecord } {
  const user = requireUser(ctx);
  const project = findProject(ctx);
  const mr = mergeRequestStore.of(ctx.state).mergeRequests.find((m) => m.projectId === project.id && m.iid === ctx.params.noteable_id);
  if (!mr || !canReadMergeRequests(ctx.state, user, project)) throw recordNotFound();
  return { user, project, mr };
}

function findNote(ctx: RequestContext<{ noteable_id: number; note_id: number }>) {
  const found = findNoteable(ctx);
  const note = notesOf(ctx.state).find((n) => n.id === ctx.params.note_id && n.mergeRequestId === found.mr.id);
  if (!note) throw recordNotFound();
  return { ...found, note };
}

/** Rails' `errors.messages` as Ruby prints a Hash, the way `bad_request!("Note #{...}")` shows it. */
const noteError = (attribute: string, message: string): ApiError =>
  badRequest(`Note {:${attribute}=>[${JSON.stringify(message)}]}`);

/** The Note model's validations of a body. */
function checkBody(body: string): void {
  if (body.trim() === "") throw noteError("note", "can't be blank");
  if ([...body].length > MAX_NOTE_LENGTH) throw noteError("note", `is too long (maximum is ${MAX_NOTE_LENGTH} characters)`);
}

/** IssuablePolicy: a locked discussion takes `create_note` and `admin_note` from everyone who is not a member. */
const lockedOut = (state: EmulatorState, user: User, project: Project, mr: MergeRequestRecord): boolean =>
  mr.discussionLocked === true && projectAccessLevel(state, user, project) === AccessLevel.NoAccess;

const canAdminNote = (state: EmulatorState, user: User, project: Project, mr: MergeRequestRecord, note: MergeRequestNoteRecord): boolean =>
  !note.system &&
  !lockedOut(state, user, project, mr) &&
  (note.authorId === user.id || hasProjectAccess(state, user, project, AccessLevel.Maintainer));

const ACTIVITY_FILTERS = ["all_notes", "only_comments", "only_activity"] as const;

function ordered(notes: MergeRequestNoteRecord[], orderBy: "created_at" | "updated_at", sort: "asc" | "desc"): MergeRequestNoteRecord[] {
  const direction = sort === "asc" ? 1 : -1;
  const key = (note: MergeRequestNoteRecord) => (orderBy === "updated_at" ? note.updatedAt : note.createdAt);
  return [...notes].sort((a, b) => direction * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
}

const listNotes = route(
  "GET",
  BASE,
  {
    params: {
      ...noteableParams,
      order_by: { type: "string", values: ["created_at", "updated_at"] },
      sort: { type: "string", values: ["asc", "desc"] },
      activity_filter: { type: "string", values: ACTIVITY_FILTERS },
    },
    paginated: true,
  },
  (ctx) => {
    const { mr } = findNoteable(ctx);
    const filter = ctx.params.activity_filter ?? "all_notes";
    const notes = notesOf(ctx.state).filter(
      (note) => note.mergeRequestId === mr.id && (filter === "all_notes" || note.system === (filter === "only_activity")),
    );
    const list = ordered(notes, (ctx.params.order_by ?? "created_at") as "created_at" | "updated_at", (ctx.params.sort ?? "desc") as "asc" | "desc");
    return paginate(ctx, list, { present: (note) => presentNote(ctx.state, mr, note) });
  },
);

const showNote = route("GET", `${BASE}/:note_id`, { params: noteParams }, (ctx) => {
  const { mr, note } = findNote(ctx);
  return ok(presentNote(ctx.state, mr, note));
});

const createNote = route(
  "POST",
  BASE,
  {
    params: {
      ...noteableParams,
      body: { type: "string", required: true },
      internal: { type: "boolean" },
      confidential: { type: "boolean" },
      created_at: { type: "string" },
      merge_request_diff_head_sha: { type: "string" },
    },
  },
  (ctx) => {
    const { user, project, mr } = findNoteable(ctx);
    if (lockedOut(ctx.state, user, project, mr)) throw forbidden();
    checkBody(ctx.params.body);
    if (ctx.params.internal === true || ctx.params.confidential === true) throw noteError("confidential", "can not be set for this resource");
    const notes = notesOf(ctx.state);
    if (notes.filter((note) => note.mergeRequestId === mr.id && !note.system).length >= MAX_NOTES_PER_MERGE_REQUEST) {
      throw noteError("base", "Maximum number of comments exceeded");
    }
    const now = ctx.state.now();
    const note: MergeRequestNoteRecord = { id: ctx.state.nextId(NOTE_SEQUENCE), mergeRequestId: mr.id, projectId: project.id, authorId: user.id, body: ctx.params.body, system: false, createdAt: now, updatedAt: now };
    notes.push(note);
    // A comment counts in user_notes_count and touches its merge request (Note's `touch_noteable`).
    mr.userNotesCount += 1;
    mr.updatedAt = now;
    return created(presentNote(ctx.state, mr, note));
  },
);

const updateNote = route(
  "PUT",
  `${BASE}/:note_id`,
  { params: { ...noteParams, body: { type: "string" }, confidential: { type: "boolean" } } },
  (ctx) => {
    if (ctx.params.body !== undefined && ctx.params.body.trim() === "") throw paramError("body is empty");
    const { user, project, mr, note } = findNote(ctx);
    if (!canAdminNote(ctx.state, user, project, mr, note)) throw forbidden();
    if (ctx.params.body !== undefined && ctx.params.body !== note.body) {
      checkBody(ctx.params.body);
      note.body = ctx.params.body;
      note.updatedAt = ctx.state.now();
    }
    return ok(presentNote(ctx.state, mr, note));
  },
);

export const mergeRequestNoteRoutes: readonly RouteDefinition[] = [listNotes, showNote, createNote, updateNote];
