/**
 * What changed between two commits of a project's git repository, as
 * `git diff` (and so Gitaly's CommitDiff behind repository/compare) reports
 * it: the changed blobs of the two trees, renames found as git finds them,
 * and each file's unified hunks (./hunks.ts).
 * The diff limits of repository/compare are in ./compare.ts.
 *
 * Followed (git and gitlabhq sources):
 * - Renames (diffcore-rename): an exact rename is a deleted and an added path
 *   with the same blob; then, among what is left, an added file at least 50%
 *   similar (git's default `-M50%`) to a deleted one is a rename of it, the
 *   most similar pairs first (similarity as git estimates it: the bytes of the
 *   line chunks both files hold, over the larger file's size). git gives up
 *   inexact detection past its rename limit; here it is done only while
 *   deleted × added pairs stay within INEXACT_RENAME_PAIRS.
 * - Binary files (a NUL in the first 8,000 bytes, git's `buffer_is_binary`)
 *   get the patch `Binary files a/x and b/x differ\n`.
 * - Modes: octal strings; `"0"` for the missing side of an added or deleted
 *   file (Gitlab::Git::Diff reads Gitaly's integer modes with `to_s(8)`).
 */
import * as git from "isomorphic-git";
import type { DiffFileRecord } from "../merge-requests/model";
import { unifiedHunks } from "./hunks";

/** Where a repository lives, as isomorphic-git takes it. */
export interface GitLocation {
  readonly fs: git.CallbackFsClient | git.PromiseFsClient;
  readonly gitdir: string;
  readonly cache?: object;
}

/** Pairs of (deleted, added) files past which only exact renames are looked for. */
export const INEXACT_RENAME_PAIRS = 2_500;
/** git's default rename threshold (`-M`): 50% similar. */
const RENAME_SIMILARITY = 0.5;
/** git's `buffer_is_binary` looks at this many leading bytes for a NUL. */
const BINARY_PROBE_BYTES = 8_000;
/** Files whose blobs are read at once. */
const PATCH_BATCH = 16;

interface BlobSide {
  oid: string;
  mode: string;
}

/** One path whose blob differs between the two trees (`before` absent: added; `after` absent: deleted). */
interface BlobChange {
  path: string;
  before?: BlobSide;
  after?: BlobSide;
}

/** A change after rename detection: a deleted/added pair may have become one rename. */
interface FileChange {
  oldPath: string;
  newPath: string;
  before?: BlobSide;
  after?: BlobSide;
}

const octal = (mode: number): string => mode.toString(8);

/** Every blob (or submodule link) that differs between the trees of two commits, in path order. */
async function changedBlobs(repo: GitLocation, fromCommit: string, toCommit: string): Promise<BlobChange[]> {
  const changes: BlobChange[] = [];
  await git.walk({
    ...repo,
    trees: [git.TREE({ ref: fromCommit }), git.TREE({ ref: toCommit })],
    map: async (path, [a, b]) => {
      if (path === ".") return true;
      const [typeA, typeB] = await Promise.all([a?.type(), b?.type()]);
      const [oidA, oidB] = await Promise.all([a?.oid(), b?.oid()]);
      // Identical subtrees hold no change: do not descend into them.
      if (typeA === "tree" && typeB === "tree" && oidA === oidB) return null;
      const sideOf = async (type: string | undefined, oid: string | undefined, entry: typeof a): Promise<BlobSide | undefined> =>
        type !== undefined && type !== "tree" && oid !== undefined && entry ? { oid, mode: octal(await entry.mode()) } : undefined;
      const before = await sideOf(typeA, oidA, a);
      const after = await sideOf(typeB, oidB, b);
      if ((before || after) && (before?.oid !== after?.oid || before?.mode !== after?.mode)) {
        changes.push({ path, before, after });
      }
      return true;
    },
    reduce: async () => undefined,
  });
  return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

const isBinary = (bytes: Uint8Array): boolean => bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);

async function readBlobBytes(repo: GitLocation, oid: string | undefined): Promise<Uint8Array> {
  if (oid === undefined) return new Uint8Array();
  return (await git.readBlob({ ...repo, oid })).blob;
}

const textOf = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");

/** git's `hash_chars`: bytes per chunk (a line, or 64 bytes of one), a text file's CR before LF left out. */
function chunkBytes(bytes: Uint8Array): Map<string, number> {
  const text = !isBinary(bytes);
  const chunks = new Map<string, number>();
  let start = 0;
  let chunk: number[] = [];
  const flush = (): void => {
    const key = Buffer.from(chunk).toString("latin1");
    chunks.set(key, (chunks.get(key) ?? 0) + chunk.length);
    chunk = [];
  };
  for (; start < bytes.length; start++) {
    const c = bytes[start]!;
    if (text && c === 0x0d && bytes[start + 1] === 0x0a) continue;
    chunk.push(c);
    if (chunk.length >= 64 || c === 0x0a) flush();
  }
  if (chunk.length > 0) flush();
  return chunks;
}

/**
 * git's `estimate_similarity`: the bytes of the chunks both files hold (each
 * chunk counted at most as often as the other file has it), over the larger
 * file's size; 0 when the sizes alone rule the threshold out.
 */
function similarity(source: Uint8Array, destination: Uint8Array, sourceChunks: Map<string, number>, destinationChunks: Map<string, number>): number {
  const larger = Math.max(source.length, destination.length);
  const delta = larger - Math.min(source.length, destination.length);
  if (destination.length === 0 || larger * (1 - RENAME_SIMILARITY) < delta) return 0;
  let copied = 0;
  for (const [key, count] of sourceChunks) copied += Math.min(count, destinationChunks.get(key) ?? 0);
  return copied / larger;
}

/** Pairs deleted and added files into renames: exact ones first, then similar ones (see the header). */
async function detectRenames(repo: GitLocation, changes: BlobChange[]): Promise<FileChange[]> {
  const deleted = changes.filter((c) => c.before && !c.after);
  const added = changes.filter((c) => c.after && !c.before);
  const renamedFrom = new Map<BlobChange, BlobChange>(); // added change → deleted change
  const deletedByOid = new Map<string, BlobChange[]>();
  for (const d of deleted) deletedByOid.set(d.before!.oid, [...(deletedByOid.get(d.before!.oid) ?? []), d]);
  for (const a of added) {
    const source = deletedByOid.get(a.after!.oid)?.shift();
    if (source) renamedFrom.set(a, source);
  }
  const paired = new Set(renamedFrom.values());
  const leftDeleted = deleted.filter((d) => !paired.has(d));
  const leftAdded = added.filter((a) => !renamedFrom.has(a));
  if (leftDeleted.length * leftAdded.length <= INEXACT_RENAME_PAIRS) {
    for (const { source, destination } of await similarPairs(repo, leftDeleted, leftAdded)) {
      if (paired.has(source) || renamedFrom.has(destination)) continue;
      renamedFrom.set(destination, source);
      paired.add(source);
    }
  }
  const result: FileChange[] = [];
  for (const change of changes) {
    if (paired.has(change)) continue; // reported at its new path
    const source = renamedFrom.get(change);
    result.push(
      source
        ? { oldPath: source.path, newPath: change.path, before: source.before, after: change.after }
        : { oldPath: change.path, newPath: change.path, before: change.before, after: change.after },
    );
  }
  return result;
}

/** Every (deleted, added) pair at least 50% similar, best first: git assigns renames in that order. */
async function similarPairs(repo: GitLocation, deleted: BlobChange[], added: BlobChange[]): Promise<{ source: BlobChange; destination: BlobChange }[]> {
  const blobs = new Map<string, { bytes: Uint8Array; chunks: Map<string, number> }>();
  const blob = async (oid: string) => {
    let found = blobs.get(oid);
    if (!found) {
      const bytes = await readBlobBytes(repo, oid);
      blobs.set(oid, (found = { bytes, chunks: chunkBytes(bytes) }));
    }
    return found;
  };
  const candidates: { source: BlobChange; destination: BlobChange; score: number }[] = [];
  for (const destination of added) {
    const after = await blob(destination.after!.oid);
    for (const source of deleted) {
      const before = await blob(source.before!.oid);
      const score = similarity(before.bytes, after.bytes, before.chunks, after.chunks);
      if (score >= RENAME_SIMILARITY) candidates.push({ source, destination, score });
    }
  }
  return candidates.sort((x, y) => y.score - x.score);
}

async function patchOf(repo: GitLocation, change: FileChange): Promise<string> {
  if (change.before?.oid === change.after?.oid) return ""; // a pure rename or mode change
  // Submodule links (mode 160000) have no blob to read: git prints their commit ids.
  if (change.before?.mode === "160000" || change.after?.mode === "160000") {
    const link = (side?: BlobSide): string => (side ? `Subproject commit ${side.oid}\n` : "");
    return unifiedHunks(link(change.before), link(change.after));
  }
  const [oldBytes, newBytes] = await Promise.all([readBlobBytes(repo, change.before?.oid), readBlobBytes(repo, change.after?.oid)]);
  if (isBinary(oldBytes) || isBinary(newBytes)) {
    const from = change.before ? `a/${change.oldPath}` : "/dev/null";
    const to = change.after ? `b/${change.newPath}` : "/dev/null";
    return `Binary files ${from} and ${to} differ\n`;
  }
  return unifiedHunks(textOf(oldBytes), textOf(newBytes));
}

/**
 * Every file that differs from `fromCommit` to `toCommit`, in path order,
 * with its hunks: the diff entries before any limit is applied.
 */
export async function diffCommits(repo: GitLocation, fromCommit: string, toCommit: string): Promise<DiffFileRecord[]> {
  const changes = await detectRenames(repo, await changedBlobs(repo, fromCommit, toCommit));
  // Blobs are read a batch at a time, so the reads of one file overlap the next file's diff.
  const patches: string[] = [];
  for (let start = 0; start < changes.length; start += PATCH_BATCH) {
    patches.push(...(await Promise.all(changes.slice(start, start + PATCH_BATCH).map((change) => patchOf(repo, change)))));
  }
  return changes.map((change, index): DiffFileRecord => ({
    oldPath: change.oldPath,
    newPath: change.newPath,
    aMode: change.before?.mode ?? "0",
    bMode: change.after?.mode ?? "0",
    diff: patches[index]!,
    newFile: change.before === undefined,
    renamedFile: change.oldPath !== change.newPath,
    deletedFile: change.after === undefined,
    // Only known where the caller passes the generated files (merge request diffs).
    generatedFile: false,
  }));
}
