/**
 * `GET /projects/:id/repository/compare` (the comparison and its diff entries):
 * what CompareService, Gitlab::Git::Compare, Gitlab::Git::Diff.between and
 * API::Entities::Compare answer, with the diff limits of a compare.
 *
 * What it answers:
 * - `commits`: `git log from..to` oldest first (in both modes); `commit`: the
 *   last of them, null when there are none; none when `from` and `to` are the
 *   same commit (`compare_same_ref: true`).
 * - `diffs`: straight, `from`→`to`; otherwise from their merge base to `to`
 *   (`git diff from...to`); unrelated histories diff from the empty tree.
 * - Limits (DiffCollection.limits with the default application settings, as
 *   a compare asks for them: `Commit.max_diff_options`, `expanded: false`):
 *   - max_files 1,000 (`diff_max_files`), max_lines 50,000 (`diff_max_lines`),
 *     max_bytes = max_files × 5 KiB = 5,120,000: the file that reaches one
 *     of them and every file after it are left out, and `compare_timeout`
 *     (`overflow?`) is true;
 *   - safe_max_files 100, safe_max_lines 5,000 (`diff_safe_max_*`),
 *     safe_max_bytes = 100 × 5 KiB = 512,000: once past one of them, every
 *     further file with changed lines is `collapsed` (diff "");
 *   - max_patch_bytes 204,800 (`diff_max_patch_bytes`): a file's patch that
 *     size or larger is `too_large` (diff "", not fetchable);
 *   - a file's patch of a tenth of that (20,480 bytes) or more is `collapsed`
 *     (`patch_safe_limit_bytes`); its diff is left out, as the API's documentation says
 *     ("diff excluded but fetchable").
 *   A compare of one file is always expanded (`expand_diff?`).
 * - `unidiff=true` prefixes each non-empty, non-binary diff with its
 *   `--- a/…`/`+++ b/…` header (`Gitlab::Git::Diff#unidiff`).
 * - `web_url`: `<project>/-/compare/<base sha>...<to sha>` (UrlBuilder's
 *   compare_url; the base is the merge base unless straight).
 */
import * as git from "isomorphic-git";
import { notFound } from "../../errors";
import type { EmulatorState, Project } from "../../state";
import type { ProjectRepository } from "./model";
import { DIFF_COLLAPSE_BYTES, DIFF_MAX_FILES, DIFF_MAX_LINES, DIFF_TOO_LARGE_BYTES, type DiffFileRecord } from "../merge-requests/model";
import { unidiffHeader } from "../merge-requests/present";
import { commitsInRange, mergeBaseOf, presentCommit } from "./commits";
import { diffCommits } from "./diff";

/** DiffCollection's limits for a compare (see the header). */
export const COMPARE_LIMITS = {
  maxFiles: DIFF_MAX_FILES,
  maxLines: DIFF_MAX_LINES,
  maxBytes: DIFF_MAX_FILES * 5 * 1024,
  safeMaxFiles: 100,
  safeMaxLines: 5_000,
  safeMaxBytes: 100 * 5 * 1024,
  maxPatchBytes: DIFF_TOO_LARGE_BYTES,
  collapsePatchBytes: DIFF_COLLAPSE_BYTES,
} as const;

export interface LimitedDiff extends DiffFileRecord {
  collapsed: boolean;
  tooLarge: boolean;
}

const lineCount = (patch: string): number => (patch === "" ? 0 : patch.replace(/\n$/, "").split("\n").length);

/** DiffCollection#each_serialized_patch with Gitaly's pruning (see the header). */
export function limitDiffs(records: readonly DiffFileRecord[]): { diffs: LimitedDiff[]; overflow: boolean } {
  const limits = COMPARE_LIMITS;
  const expanded = records.length === 1;
  const diffs: LimitedDiff[] = [];
  let lines = 0;
  let bytes = 0;
  for (const [index, record] of records.entries()) {
    if (index >= limits.maxFiles) return { diffs, overflow: true };
    const patchBytes = Buffer.byteLength(record.diff, "utf8");
    const tooLarge = patchBytes >= limits.maxPatchBytes;
    let diff = tooLarge ? "" : record.diff;
    const overSafeLimits = index >= limits.safeMaxFiles || lines > limits.safeMaxLines || bytes >= limits.safeMaxBytes;
    let collapsed = false;
    if (!expanded && lineCount(diff) > 0 && (overSafeLimits || patchBytes >= limits.collapsePatchBytes)) {
      collapsed = true;
      diff = "";
    }
    lines += lineCount(diff);
    bytes += Buffer.byteLength(diff, "utf8");
    if (lines >= limits.maxLines || bytes >= limits.maxBytes) return { diffs, overflow: true };
    diffs.push({ ...record, diff, collapsed, tooLarge });
  }
  return { diffs, overflow: false };
}

/** API::Entities::Diff. */
export function presentDiff(entry: LimitedDiff, unidiff: boolean): Record<string, unknown> {
  const withHeader = unidiff && entry.diff !== "" && !entry.diff.startsWith("Binary files ");
  return {
    diff: withHeader ? unidiffHeader(entry) + entry.diff : entry.diff,
    collapsed: entry.collapsed,
    too_large: entry.tooLarge,
    new_path: entry.newPath,
    old_path: entry.oldPath,
    a_mode: entry.aMode,
    b_mode: entry.bMode,
    new_file: entry.newFile,
    renamed_file: entry.renamedFile,
    deleted_file: entry.deletedFile,
    // Gitlab::Git::Diff#generated? is nil unless the caller passes the generated
    // files (merge request diffs do; a compare does not): JSON null.
    generated_file: null,
  };
}

export interface CompareRequest {
  state: EmulatorState;
  project: Project;
  repo: ProjectRepository;
  from: string;
  to: string;
  straight: boolean;
  unidiff: boolean;
}

/** The empty tree's object, written if the repository lacks it (a diff against nothing). */
const emptyTree = (repo: ProjectRepository): Promise<string> => git.writeTree({ fs: repo.fs, gitdir: repo.gitdir, tree: [] });

/** The whole comparison (API::Entities::Compare); 404 `Ref Not Found` when `from` or `to` names no commit. */
export async function compare(request: CompareRequest): Promise<Record<string, unknown>> {
  const { state, project } = request;
  // One isomorphic-git cache for the request: pack indexes are read once, not per object.
  const repo = { ...request.repo, cache: {} };
  // Gitlab::Git::Compare strips both refs.
  const fromOid = await repo.resolveRef(request.from.trim());
  const toOid = await repo.resolveRef(request.to.trim());
  if (!fromOid || !toOid) throw notFound("Ref");
  const same = fromOid === toOid;
  const commits = same ? [] : (await commitsInRange(repo, toOid, [fromOid])).reverse();
  const base = request.straight ? fromOid : await mergeBaseOf(repo, [fromOid, toOid]);
  const limited = same ? { diffs: [], overflow: false } : limitDiffs(await diffCommits(repo, base ?? (await emptyTree(repo)), toOid));
  const presented = commits.map((record) => presentCommit(state, project, record));
  return {
    commit: presented[presented.length - 1] ?? null,
    commits: presented,
    diffs: limited.diffs.map((entry) => presentDiff(entry, request.unidiff)),
    compare_timeout: limited.overflow,
    compare_same_ref: same,
    web_url: base ? `https://${state.instance.host}/${state.projectFullPath(project)}/-/compare/${base}...${toOid}` : null,
  };
}
