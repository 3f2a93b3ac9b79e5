/**
 * Puts a report on its merge request: one note per stack, found again by the
 * marker the report starts with and rewritten in place on every push, so a
 * merge request never gathers a pile of them. Through the package's client
 * (retries, rate limits, CA settings, proxy).
 */
import { commitMergeRequestsPath, mergeRequestNotesPath } from "../api/merge-requests";
import { CURRENT_USER_PATH, userCalls } from "../api/users";
import { client, type Connection, withConnection } from "../connection";

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
}

interface MergeRequestOfCommit {
  iid: number;
  state: string;
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
    const me = await userCalls.get(api, CURRENT_USER_PATH);
    const existing = await findNote(target, marker, me.id);
    if (existing) {
      await api.put<Note>(`${notes}/${existing.id}`, { body });
      return { action: "updated", noteId: existing.id };
    }
    const created = await api.post<Note>(notes, { body }, () => findNote(target, marker, me.id, "desc"));
    return { action: "created", noteId: created.id };
  });
}

function withTarget<T>(target: Pick<NoteTarget, "url" | "token" | "connection">, operation: () => Promise<T>): Promise<T> {
  return withConnection({ ...target.connection, url: target.url, token: target.token }, operation);
}

const notesPath = (target: NoteTarget) => mergeRequestNotesPath(target.project, target.mergeRequestIid!);

/** The first note that starts with `marker` (by `author` when given): the one this command wrote for the stack. */
function findNote(target: NoteTarget, marker: string, author?: number, sort: "asc" | "desc" = "asc"): Promise<Note | undefined> {
  const mine = (note: Note) => note.body.startsWith(marker) && (author === undefined || note.author.id === author);
  return client().find<Note>(notesPath(target), { sort, order_by: "created_at" }, mine);
}

/**
 * The merge request a commit of the default branch came from, and the note its
 * review left for the stack: the merged one first, else the newest that holds
 * the commit (a fast-forward merge).
 */
export async function reviewedNote(target: NoteTarget, commit: string, marker: string): Promise<{ mergeRequestIid: number; body: string } | string> {
  return withTarget(target, async () => {
    const requests = await client().list<MergeRequestOfCommit>(commitMergeRequestsPath(target.project, commit));
    if (requests.length === 0) return `commit ${commit} belongs to no merge request of project ${target.project}: it was not reviewed here`;
    // The server lists them newest first.
    const ordered = [...requests.filter((request) => request.state === "merged"), ...requests.filter((request) => request.state !== "merged")];
    for (const request of ordered) {
      const note = await findNote({ ...target, mergeRequestIid: request.iid }, marker);
      if (note) return { mergeRequestIid: request.iid, body: note.body };
    }
    return `no review of this stack on merge request${ordered.length === 1 ? "" : "s"} ${ordered.map((request) => `!${request.iid}`).join(", ")} of commit ${commit}`;
  });
}
