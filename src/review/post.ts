/**
 * Puts a report on its merge request: one note per stack, found again by the
 * marker the report starts with and rewritten in place on every push, so a
 * merge request never gathers a pile of them. Through the package's client
 * (retries, rate limits, CA settings, proxy).
 */
import { commitMergeRequestsPath, type ListedMergeRequest, listedMergeRequestRequests, mergeRequestNotesPath } from "../api/merge-requests";
import { CURRENT_USER_PATH, userRequests } from "../api/users";
import type { Connection } from "../connection";
import { client, withConnection } from "../engine/process-connections";

/** Where the note goes, from the CI's own variables or the command's options. */
export interface NoteTarget {
  /** The server's base URL (the client adds `/api/v4`). */
  url: string;
  token: string;
  /** The project's id or full path. */
  project: string;
  /** Unset on the default branch: the merge request is then the one the commit came from. */
  mergeRequestIid?: number;
  /** TLS settings of the package's connection (`PLATFORM_CA_CERTIFICATE`, ...), passed through. */
  connection?: Partial<Connection>;
}

interface Note {
  id: number;
  body: string;
  author: { id: number };
  updated_at?: string | null;
}

/** The variables a merge request pipeline has on the platform, and the package's own as the fallback. */
export function targetFromEnvironment(env: NodeJS.ProcessEnv, overrides: Partial<NoteTarget> = {}): NoteTarget | string {
  const url = overrides.url ?? env.CI_API_V4_URL?.replace(/\/api\/v4\/?$/, "") ?? env.PLATFORM_URL;
  const token = overrides.token ?? env.PLATFORM_REVIEW_TOKEN ?? env.PLATFORM_TOKEN;
  const project = overrides.project ?? env.CI_PROJECT_ID;
  const iid = overrides.mergeRequestIid ?? (env.CI_MERGE_REQUEST_IID ? Number(env.CI_MERGE_REQUEST_IID) : undefined);
  const missing = [
    !url && "the server (CI_API_V4_URL, or PLATFORM_URL, or --url)",
    !token && "a token that may comment on the merge request (PLATFORM_REVIEW_TOKEN, or PLATFORM_TOKEN)",
    !project && "the project (CI_PROJECT_ID, or --project)",
    iid !== undefined && (!Number.isInteger(iid) || iid <= 0) && "a merge request's iid, a whole number (CI_MERGE_REQUEST_IID, or --merge-request)",
  ].filter(Boolean);
  if (missing.length > 0) return `platform-review needs ${missing.join(", ")}. In a pipeline the CI sets all but the token.`;
  const connection: Partial<Connection> = {
    caCertificate: env.PLATFORM_CA_CERTIFICATE || undefined,
    clientCertificate: env.PLATFORM_CLIENT_CERTIFICATE || undefined,
    clientKey: env.PLATFORM_CLIENT_KEY || undefined,
    insecure: env.PLATFORM_INSECURE === "true" ? true : undefined,
  };
  return { url: url!, token: token!, project: project!, ...(iid !== undefined ? { mergeRequestIid: iid } : {}), connection };
}

/**
 * Creates the stack's note, or rewrites the one a previous run made: the first
 * note holding `marker` that the token's user wrote. Someone else's copy of
 * the marker is left alone (a Maintainer's token may edit others' notes).
 */
export async function postNote(target: NoteTarget, marker: string, body: string): Promise<{ action: "created" | "updated"; noteId: number }> {
  return withTarget(target, async () => {
    const api = client();
    const notes = notesPath(target);
    const me = await userRequests.get(api, CURRENT_USER_PATH);
    const existing = await findNote(target, marker, me.id);
    if (existing) {
      await api.put<Note>(`${notes}/${existing.id}`, { body });
      return { action: "updated", noteId: existing.id };
    }
    const created = await api.post<Note>(notes, { body }, () => findNote(target, marker, me.id, "desc"));
    return { action: "created", noteId: created.id };
  });
}

export function withTarget<T>(target: Pick<NoteTarget, "url" | "token" | "connection">, operation: () => Promise<T>): Promise<T> {
  return withConnection({ ...target.connection, url: target.url, token: target.token }, operation);
}

const notesPath = (target: NoteTarget) => mergeRequestNotesPath(target.project, target.mergeRequestIid!);

/** The first note that starts with `marker` and that `author` wrote: the one this command wrote for the stack. */
function findNote(target: NoteTarget, marker: string, author: number, sort: "asc" | "desc" = "asc"): Promise<Note | undefined> {
  const mine = (note: Note) => note.body.startsWith(marker) && note.author.id === author;
  return client().find<Note>(notesPath(target), { sort, order_by: "created_at" }, mine);
}

/** Why the guard cannot show that a commit was reviewed: the apply must not go on (exit 3), whatever the server's health. */
export class NotReviewed extends Error {
  /** What to do next, for the stop's note and log. */
  readonly next: string;
  constructor(message: string, next: string) {
    super(message);
    this.next = next;
  }
}

/** The next step when the review note cannot be read or trusted: the merge request is merged, so the change is reviewed again in another. */
export const REVIEW_IN_FOLLOW_UP =
  "open a follow-up merge request from the default branch (a commit that restates the change, or an empty one: `git commit --allow-empty`): its report job writes a review note of what the apply would do now, " +
  "and the apply of its merge is held against it once approved. A merged merge request cannot be approved again, so retrying its pipeline proves nothing";

/**
 * The merge request that brought `commit` into the branch: a merged one whose
 * merge or squash commit is the commit, or whose head is (a fast-forward
 * merge); the one merged last when several did. Open and closed merge
 * requests that merely hold the commit bring nothing: a commit pushed
 * straight to the branch is in them too once someone opens one.
 */
export function mergeRequestThatBrought(requests: ListedMergeRequest[], commit: string, branch?: string): ListedMergeRequest | undefined {
  const brought = requests.filter(
    (request) =>
      request.state === "merged" &&
      (request.merge_commit_sha === commit || request.squash_commit_sha === commit || request.sha === commit) &&
      (branch === undefined || request.target_branch === undefined || request.target_branch === branch),
  );
  const mergedAt = (request: ListedMergeRequest) => Date.parse(request.merged_at ?? "") || 0;
  return brought.sort((a, b) => mergedAt(b) - mergedAt(a) || b.iid - a.iid)[0];
}

/**
 * The merge request a commit of `branch` came from (see mergeRequestThatBrought);
 * a NotReviewed error when no merged merge request brought it.
 */
export async function mergeRequestOfCommit(target: NoteTarget, commit: string, branch?: string): Promise<ListedMergeRequest> {
  return withTarget(target, async () => {
    const requests = await listedMergeRequestRequests.list(client(), commitMergeRequestsPath(target.project, commit));
    const found = mergeRequestThatBrought(requests, commit, branch);
    if (!found) {
      const others = requests.map((request) => `!${request.iid} (${request.state})`);
      throw new NotReviewed(
        `no merged merge request of project ${target.project} brought commit ${commit}${branch ? ` into ${branch}` : ""} (its merge, squash or head commit): ` +
          `it was pushed without a merge request, so it was never reviewed${others.length > 0 ? `; merge requests that merely hold it do not count: ${others.join(", ")}` : ""}`,
        "have the change reviewed: open a merge request that brings it (a branch from the default branch with the change to make), and apply from that merge request's merge",
      );
    }
    return found;
  });
}

/**
 * Adds a note that nothing rewrites (an apply's result, a stopped apply): the
 * merge request keeps every one, the history of what was applied when. A
 * lost answer is checked against the notes before a retry: this very body by
 * the token's user.
 */
export async function addNote(target: NoteTarget, body: string): Promise<number> {
  return withTarget(target, async () => {
    const api = client();
    const me = await userRequests.get(api, CURRENT_USER_PATH);
    const same = (note: Note) => note.body === body && note.author.id === me.id;
    const created = await api.post<Note>(notesPath(target), { body }, () => client().find<Note>(notesPath(target), { sort: "desc", order_by: "created_at" }, same));
    return created.id;
  });
}

/** The id of the stack's review note on the target's merge request (the one `postNote` rewrites), if the token's user wrote one. */
export async function reviewNoteId(target: NoteTarget, marker: string): Promise<number | undefined> {
  return withTarget(target, async () => {
    const me = await userRequests.get(client(), CURRENT_USER_PATH);
    return (await findNote(target, marker, me.id))?.id;
  });
}

/**
 * The review of `marker`'s stack on the merge request that brought `commit`:
 * the first note with the marker that the token's own user wrote (the one
 * `postNote` rewrites). Anyone else's note, whatever it holds, is not read;
 * nor is any result note, the bot's included: what an earlier apply did is
 * the stack's state's to say (./guard.ts).
 */
export async function reviewedNote(target: NoteTarget, commit: string, marker: string, branch?: string): Promise<{ mergeRequestIid: number; webUrl: string; noteId: number; body: string }> {
  const request = await mergeRequestOfCommit(target, commit, branch);
  const mergeRequestIid = request.iid;
  return withTarget(target, async () => {
    const me = await userRequests.get(client(), CURRENT_USER_PATH);
    const note = await findNote({ ...target, mergeRequestIid }, marker, me.id);
    if (!note) throw new NotReviewed(`merge request !${mergeRequestIid}, which brought commit ${commit}, has no review of this stack by ${me.username} (the review token's user)`, REVIEW_IN_FOLLOW_UP);
    // A report job run again after the merge (its pipeline retried) rewrites the note with what nobody approved.
    const rewritten = Date.parse(note.updated_at ?? "");
    const merged = Date.parse(request.merged_at ?? "");
    if (rewritten > merged) {
      throw new NotReviewed(
        `the review note ${note.id} on merge request !${mergeRequestIid} was rewritten at ${note.updated_at}, after the merge at ${request.merged_at}: ` +
          "what it says now was never approved (a report job run again after the merge writes it)",
        REVIEW_IN_FOLLOW_UP,
      );
    }
    return { mergeRequestIid, webUrl: request.web_url, noteId: note.id, body: note.body };
  });
}
