/**
 * Comments on merge requests: `GET/POST /projects/:id/merge_requests/:noteable_id/notes`
 * and `GET/PUT .../notes/:note_id` (./noteable.ts has the routes and their
 * rules). Real endpoints outside the specification: the review command posts
 * its report through them. A merge request's notes are read by whoever may
 * read it; internal notes are for issues and epics, so `internal` is the
 * model's 400 here.
 */
import { canReadMergeRequests, mergeRequestStore, notesOf, type MergeRequestNoteRecord, type MergeRequestRecord } from "./model";
import { noteRoutes, type NoteableKind } from "./noteable";

const mergeRequestNotes: NoteableKind<MergeRequestRecord, MergeRequestNoteRecord> = {
  collection: "merge_requests",
  typeName: "MergeRequest",
  internalNotes: false,
  find: (state, project, iid) => mergeRequestStore.of(state).mergeRequests.find((m) => m.projectId === project.id && m.iid === iid),
  canRead: (state, user, project) => canReadMergeRequests(state, user, project),
  notesOf: (state, mr) => notesOf(state).filter((note) => note.mergeRequestId === mr.id),
  add: (state, mr, fields) => {
    const note: MergeRequestNoteRecord = { ...fields, mergeRequestId: mr.id };
    notesOf(state).push(note);
    return note;
  },
};

export const mergeRequestNoteRoutes = noteRoutes(mergeRequestNotes);
