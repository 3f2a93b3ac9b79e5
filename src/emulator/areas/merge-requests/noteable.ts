/**
 * Comments on a project's noteables (merge requests, issues):
 * `GET/POST /projects/:id/<noteables>/:noteable_id/notes` and
 * `GET/PUT .../notes/:note_id`, one set of routes per kind of noteable. Each
 * kind says where its records and notes are kept and who may read it; the
 * rules common to every kind are these (the emulator's README says what they
 * follow):
 * - Every call authenticates first (`before { authenticate! }`): 401 even on
 *   a public project, before any parameter is checked.
 * - The noteable is found through its finder (`find_by!`), so a missing one
 *   and one the caller may not read are the same 404 `{"message":"404 Not found"}`;
 *   a note not on this noteable too.
 * - Create (`create_note`): anyone who may read the noteable, except a
 *   non-member while its discussion is locked (IssuablePolicy) → 403. The
 *   model's errors are 400 `Note {...}` in Ruby's Hash notation: a blank body,
 *   a body over 1,000,000 characters (`MAX_TEXT_SIZE_LIMIT`), the 5,000th
 *   comment of one noteable (`Noteable::MAX_NOTES_LIMIT`), `internal` where
 *   the kind takes no internal notes.
 * - Edit (`admin_note`): the author, Maintainer+ of the project (the project's
 *   `admin_note`) or an administrator, never a system note; otherwise 403.
 *   A blank `body` is Grape's `allow_blank: false` (`{"error":"body is empty"}`).
 * - List: `order_by` created_at (default) or updated_at, `sort` desc (default)
 *   or asc, ties by id; `activity_filter` all_notes, only_comments,
 *   only_activity; offset pagination.
 */
import { hasProjectAccess, projectAccessLevel } from "../../access";
import { ApiError, badRequest, forbidden, paramError, recordNotFound } from "../../errors";
import { findProject } from "../../lookup";
import { created, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Project, type User } from "../../state";
import { NOTE_SEQUENCE, type NoteFields } from "./model";
import { presentUserReference } from "./present";

/** `Gitlab::Database::MAX_TEXT_SIZE_LIMIT`, counted in characters. */
export const MAX_NOTE_LENGTH = 1_000_000;
/** `Noteable::MAX_NOTES_LIMIT`: comments one noteable may hold. */
export const MAX_NOTES_PER_NOTEABLE = 5_000;

/** What every kind of noteable record has. */
export interface NoteableRecord {
  id: number;
  iid: number;
  discussionLocked: boolean | null;
  userNotesCount: number;
  updatedAt: string;
}


export interface NoteableKind<N extends NoteableRecord, R extends NoteFields> {
  /** The path's collection: `merge_requests`, `issues`. */
  readonly collection: string;
  /** `noteable_type` of the answer: `MergeRequest`, `Issue`. */
  readonly typeName: string;
  /** Whether `internal` notes may be made (issues); elsewhere it is the model's 400. */
  readonly internalNotes: boolean;
  find(state: EmulatorState, project: Project, iid: number): N | undefined;
  canRead(state: EmulatorState, user: User, project: Project, noteable: N): boolean;
  /** The noteable's notes, in any order. */
  notesOf(state: EmulatorState, noteable: N): R[];
  /** Keeps a new note of the noteable and returns it. */
  add(state: EmulatorState, noteable: N, fields: NoteFields): R;
}

/** API::Entities::Note for a plain comment. */
function presentNote(state: EmulatorState, kind: NoteableKind<NoteableRecord, NoteFields>, noteable: NoteableRecord, note: NoteFields): Record<string, unknown> {
  const internal = note.internal === true;
  return {
    id: note.id,
    type: null,
    body: note.body,
    attachment: null,
    author: presentUserReference(state, note.authorId),
    created_at: note.createdAt,
    updated_at: note.updatedAt,
    system: note.system,
    noteable_id: noteable.id,
    noteable_type: kind.typeName,
    project_id: note.projectId,
    resolvable: false,
    confidential: internal,
    internal,
    imported: false,
    imported_from: "none",
    noteable_iid: noteable.iid,
    commands_changes: {},
  };
}

/** Rails' `errors.messages` as Ruby prints a Hash, the way `bad_request!("Note #{...}")` shows it. */
const noteError = (attribute: string, message: string): ApiError => badRequest(`Note {:${attribute}=>[${JSON.stringify(message)}]}`);

/** The Note model's validations of a body. */
function checkBody(body: string): void {
  if (body.trim() === "") throw noteError("note", "can't be blank");
  if ([...body].length > MAX_NOTE_LENGTH) throw noteError("note", `is too long (maximum is ${MAX_NOTE_LENGTH} characters)`);
}

/** IssuablePolicy: a locked discussion takes `create_note` and `admin_note` from everyone who is not a member. */
const lockedOut = (state: EmulatorState, user: User, project: Project, noteable: NoteableRecord): boolean =>
  noteable.discussionLocked === true && projectAccessLevel(state, user, project) === AccessLevel.NoAccess;

/** `read_internal_note`: Reporters and above, administrators. */
const mayReadInternal = (state: EmulatorState, user: User, project: Project): boolean => hasProjectAccess(state, user, project, AccessLevel.Reporter);

const ACTIVITY_FILTERS = ["all_notes", "only_comments", "only_activity"] as const;

function ordered<R extends NoteFields>(notes: R[], orderBy: string, sort: string): R[] {
  const direction = sort === "asc" ? 1 : -1;
  const key = (note: R) => (orderBy === "updated_at" ? note.updatedAt : note.createdAt);
  return [...notes].sort((a, b) => direction * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
}

/** The four note routes of one kind of noteable. */
export function noteRoutes<N extends NoteableRecord, R extends NoteFields>(kind: NoteableKind<N, R>): RouteDefinition[] {
  const base = `/projects/:id/${kind.collection}/:noteable_id/notes`;
  const noteableParams = { id: { type: "string", required: true }, noteable_id: { type: "integer", required: true } } as const;
  const noteParams = { ...noteableParams, note_id: { type: "integer", required: true } } as const;
  const present = (state: EmulatorState, noteable: N, note: R) => presentNote(state, kind as unknown as NoteableKind<NoteableRecord, NoteFields>, noteable, note);

  /** `authenticate!`, then the project, then the noteable the caller may read (404 `Not found` otherwise). */
  const findNoteable = (ctx: RequestContext<{ noteable_id: number }>): { user: User; project: Project; noteable: N } => {
    const user = requireUser(ctx);
    const project = findProject(ctx);
    const noteable = kind.find(ctx.state, project, ctx.params.noteable_id);
    if (!noteable || !kind.canRead(ctx.state, user, project, noteable)) throw recordNotFound();
    return { user, project, noteable };
  };
  /** The notes the caller may see: internal ones only to Reporters and above. */
  const visibleNotes = (state: EmulatorState, user: User, project: Project, noteable: N): R[] =>
    kind.notesOf(state, noteable).filter((note) => !note.internal || mayReadInternal(state, user, project));
  const findNote = (ctx: RequestContext<{ noteable_id: number; note_id: number }>) => {
    const found = findNoteable(ctx);
    const note = visibleNotes(ctx.state, found.user, found.project, found.noteable).find((n) => n.id === ctx.params.note_id);
    if (!note) throw recordNotFound();
    return { ...found, note };
  };

  const listNotes = route(
    "GET",
    base,
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
      const { user, project, noteable } = findNoteable(ctx);
      const filter = ctx.params.activity_filter ?? "all_notes";
      const notes = visibleNotes(ctx.state, user, project, noteable).filter((note) => filter === "all_notes" || note.system === (filter === "only_activity"));
      const list = ordered(notes, ctx.params.order_by ?? "created_at", ctx.params.sort ?? "desc");
      return paginate(ctx, list, { present: (note) => present(ctx.state, noteable, note) });
    },
  );

  const showNote = route("GET", `${base}/:note_id`, { params: noteParams }, (ctx) => {
    const { noteable, note } = findNote(ctx);
    return ok(present(ctx.state, noteable, note));
  });

  const createNote = route(
    "POST",
    base,
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
      const { user, project, noteable } = findNoteable(ctx);
      if (lockedOut(ctx.state, user, project, noteable)) throw forbidden();
      checkBody(ctx.params.body);
      const internal = ctx.params.internal === true || ctx.params.confidential === true;
      if (internal && !kind.internalNotes) throw noteError("confidential", "can not be set for this resource");
      if (internal && !mayReadInternal(ctx.state, user, project)) throw noteError("confidential", "can not be set by this user");
      if (kind.notesOf(ctx.state, noteable).filter((note) => !note.system).length >= MAX_NOTES_PER_NOTEABLE) {
        throw noteError("base", "Maximum number of comments exceeded");
      }
      const now = ctx.state.now();
      const note = kind.add(ctx.state, noteable, {
        id: ctx.state.nextId(NOTE_SEQUENCE),
        projectId: project.id,
        authorId: user.id,
        body: ctx.params.body,
        system: false,
        createdAt: now,
        updatedAt: now,
        ...(internal ? { internal } : {}),
      });
      // A comment counts in user_notes_count and touches its noteable (Note's `touch_noteable`).
      noteable.userNotesCount += 1;
      noteable.updatedAt = now;
      return created(present(ctx.state, noteable, note));
    },
  );

  const updateNote = route(
    "PUT",
    `${base}/:note_id`,
    { params: { ...noteParams, body: { type: "string" }, confidential: { type: "boolean" } } },
    (ctx) => {
      if (ctx.params.body !== undefined && ctx.params.body.trim() === "") throw paramError("body is empty");
      const { user, project, noteable, note } = findNote(ctx);
      const mayEdit = !note.system && !lockedOut(ctx.state, user, project, noteable) && (note.authorId === user.id || hasProjectAccess(ctx.state, user, project, AccessLevel.Maintainer));
      if (!mayEdit) throw forbidden();
      if (ctx.params.body !== undefined && ctx.params.body !== note.body) {
        checkBody(ctx.params.body);
        note.body = ctx.params.body;
        note.updatedAt = ctx.state.now();
      }
      return ok(present(ctx.state, noteable, note));
    },
  );

  return [listNotes, showNote, createNote, updateNote];
}
