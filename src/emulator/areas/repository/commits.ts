/**
 * Commits of a project's git repository as the history endpoints need them
 * (refs are resolved by the repository model, ./model.ts):
 * walking a range the way `git log from..to` does, the merge base, and the commit entity
 * (API::Entities::Commit) with its trailers.
 *
 * As real servers show a commit: `short_id` is the first 8 characters; the
 * author's and committer's dates keep their own offsets; `title` is the
 * first line, cut at a word to 80 characters and `…` when it is 100
 * characters or more; `created_at` is the committed date; `trailers` keeps
 * the last value of each key, `extended_trailers` every value. A trailer is
 * what git's interpret-trailers takes for one (the message's last
 * paragraph, after the title, made
 * only of `Key: value` lines and their indented continuations).
 */
import * as git from "isomorphic-git";
import type { EmulatorState, Project } from "../../state";
import type { GitLocation } from "./diff";

export interface CommitRecord {
  oid: string;
  commit: git.CommitObject;
}

export async function readCommitRecord(repo: GitLocation, oid: string): Promise<CommitRecord> {
  const { commit } = await git.readCommit({ ...repo, oid });
  return { oid, commit };
}

/** Every commit reachable from `tips`, oids only (the `^from` side of a range). */
async function reachable(repo: GitLocation, tips: readonly string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const queue = [...tips];
  while (queue.length > 0) {
    const oid = queue.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    queue.push(...(await git.readCommit({ ...repo, oid })).commit.parent);
  }
  return seen;
}

/**
 * `git log ^exclude... include`: the commits reachable from `include` and not
 * from any of `exclude`, newest first by committer date (git's default order),
 * at most `limit` of them.
 */
export async function commitsInRange(
  repo: GitLocation,
  include: string,
  exclude: readonly string[] = [],
  limit = Number.POSITIVE_INFINITY,
): Promise<CommitRecord[]> {
  const excluded = await reachable(repo, exclude);
  const result: CommitRecord[] = [];
  const queued = new Set<string>([include]);
  const pending: CommitRecord[] = excluded.has(include) ? [] : [await readCommitRecord(repo, include)];
  while (pending.length > 0 && result.length < limit) {
    // The newest pending commit is the next one git shows.
    pending.sort((a, b) => a.commit.committer.timestamp - b.commit.committer.timestamp);
    const next = pending.pop()!;
    result.push(next);
    for (const parent of next.commit.parent) {
      if (queued.has(parent) || excluded.has(parent)) continue;
      queued.add(parent);
      pending.push(await readCommitRecord(repo, parent));
    }
  }
  return result;
}

/** The best common ancestor of the commits (Gitaly's FindMergeBase), or undefined for unrelated histories. */
export async function mergeBaseOf(repo: GitLocation, oids: readonly string[]): Promise<string | undefined> {
  const bases = (await git.findMergeBase({ ...repo, oids: [...oids] })) as string[];
  return bases[0];
}

// ---------------------------------------------------------------------------
// Presenting

export interface Trailer {
  key: string;
  value: string;
}

const TRAILER_LINE = /^([A-Za-z0-9][A-Za-z0-9-]*)\s*:\s?(.*)$/;

/** The trailers of a commit message (git interpret-trailers --parse, see the header). */
export function parseTrailers(message: string): Trailer[] {
  const paragraphs = message.replace(/\s+$/, "").split(/\n[ \t]*\n/);
  if (paragraphs.length < 2) return [];
  const lines = (paragraphs[paragraphs.length - 1] ?? "").split("\n");
  const trailers: Trailer[] = [];
  for (const line of lines) {
    const match = TRAILER_LINE.exec(line);
    if (match) trailers.push({ key: match[1]!, value: match[2]!.trim() });
    else if (/^[ \t]+\S/.test(line) && trailers.length > 0) trailers[trailers.length - 1]!.value += ` ${line.trim()}`;
    else return [];
  }
  return trailers;
}

/** Commit#title: the first line; from 100 characters on, cut at a word to 81 with `…`. */
export function commitTitle(message: string): string {
  const first = message.split(/[\r\n]/, 1)[0] ?? "";
  if (first.trim() === "") return "--no commit message";
  if (first.length < 100) return first;
  const room = first.slice(0, 80);
  const cut = room.lastIndexOf(" ");
  return `${cut > 0 ? room.slice(0, cut) : room}…`;
}

/** A git timestamp in its own offset, as Rails renders a Time: `2014-02-27T10:27:00.000+02:00`. */
export function gitTime(timestamp: number, timezoneOffset: number): string {
  const offsetMinutes = -timezoneOffset; // isomorphic-git stores it like Date#getTimezoneOffset
  const local = new Date((timestamp + offsetMinutes * 60) * 1000).toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

export const commitWebUrl = (state: EmulatorState, project: Project, oid: string): string =>
  `https://${state.instance.host}/${state.projectFullPath(project)}/-/commit/${oid}`;

/** API::Entities::Commit. */
export function presentCommit(state: EmulatorState, project: Project, record: CommitRecord): Record<string, unknown> {
  const { oid, commit } = record;
  const trailers = parseTrailers(commit.message);
  const extended: Record<string, string[]> = {};
  for (const { key, value } of trailers) (extended[key] ??= []).push(value);
  const committedDate = gitTime(commit.committer.timestamp, commit.committer.timezoneOffset);
  return {
    id: oid,
    short_id: oid.slice(0, 8),
    created_at: committedDate,
    parent_ids: commit.parent,
    title: commitTitle(commit.message),
    message: commit.message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: gitTime(commit.author.timestamp, commit.author.timezoneOffset),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: committedDate,
    trailers: Object.fromEntries(trailers.map(({ key, value }) => [key, value])),
    extended_trailers: extended,
    web_url: commitWebUrl(state, project, oid),
  };
}
