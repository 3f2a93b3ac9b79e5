/**
 * What changed between two commits of a project's git repository, as
 * `git diff` (and so Gitaly's CommitDiff behind repository/compare) reports
 * it: the changed blobs of the two trees, renames found as git finds them,
 * and each file's unified hunks (./repository-hunks.ts).
 * The diff limits of repository/compare are in ./repository-compare.ts.
 *
 * Followed (git and gitlabhq sources):
 * - Renames (diffcore-rename): an exact rename is a deleted and an added path
 *   with the same blob; then, among what is left, an added file at least 50%
 *   similar (git's default `-M50%`) to a deleted one is a rename of it
 *   (similarity: the bytes of the lines both keep, over the larger file's size,
 *   as git's estimate does). git gives up inexact detection past its rename
 *   limit; here it is done only while deleted × added pairs stay within
 *   INEXACT_RENAME_PAIRS, so a compare of thousands of files stays quick.
 * - Binary files (a NUL in the first 8,000 bytes, git's `buffer_is_binary`)
 *   get the patch `Binary files a/x and b/x differ\n`.
 * - Modes: octal strings; `"0"` for the missing side of an added or deleted
 *   file (Gitlab::Git::Diff reads Gitaly's integer modes with `to_s(8)`).
 */
import * as git from "isomorphic-git";
import { diffLines } from "diff";
import type { DiffFileRecord } from "./merge-requests-model";
import { unifiedHunks } from "./repository-hunks";

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

/** Share of the larger file's bytes that sit in lines both files keep (git's similarity estimate). */
function similarity(oldText: string, newText: string): number {
  const larger = Math.max(Buffer.byteLength(oldText), Buffer.byteLength(newText));
  if (larger === 0) return 1;
  const kept = diffLines(oldText, newText)
    .filter((part) => !part.added && !part.removed)
    .reduce((sum, part) => sum + Buffer.byteLength(part.value), 0);
  return kept / larger;
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
    const texts = new Map<string, string | null>();
    const text = async (oid: string): Promise<string | null> => {
      if (!texts.has(oid)) {
        const bytes = await readBlobBytes(repo, oid);
        texts.set(oid, isBinary(bytes) ? null : textOf(bytes));
      }
      return texts.get(oid)!;
    };
    for (const a of leftAdded) {
      let best: { source: BlobChange; score: number } | undefined;
      for (const d of leftDeleted) {
        if (paired.has(d)) continue;
        const [oldText, newText] = await Promise.all([text(d.before!.oid), text(a.after!.oid)]);
        if (oldText === null || newText === null) continue;
        const score = similarity(oldText, newText);
        if (score >= RENAME_SIMILARITY && (!best || score > best.score)) best = { source: d, score };
      }
      if (best) {
        renamedFrom.set(a, best.source);
        paired.add(best.source);
      }
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
