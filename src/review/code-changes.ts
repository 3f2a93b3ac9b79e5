/**
 * The files a merge request changes, read by git in the report job from the
 * merge request's own commits (its diff base and its head, as the CI names
 * them), never from a file the branch's jobs wrote: the merged program, its
 * dependencies and its pipeline run with the write token at the apply, so
 * the report names them, and their diff is part of the review.
 */
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** The files, or why they could not be read (the report says so: then the diff is for the reviewer to read whole). */
export type CodeChanges = { files: string[] } | { unread: string };

const COMMIT = /^[0-9a-f]{7,64}$/;
const GIT_TIMEOUT_MS = 30_000;
/** Far more than the paths of any merge request a review can show. */
const GIT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * git from the directories of PATH that are absolute and outside the
 * checkout: an empty or relative entry would run a `git` the branch committed.
 */
function gitOnPath(env: NodeJS.ProcessEnv, checkout: string): string | undefined {
  for (const directory of (env.PATH ?? "").split(path.delimiter)) {
    if (!path.isAbsolute(directory) || !path.relative(checkout, directory).startsWith("..")) continue;
    const candidate = path.join(directory, "git");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  return undefined;
}

/**
 * The files that differ between `range`'s two commits (`<base>..<head>`), in
 * the repository `checkout` is in: names only, with no rename detection, external diff or text
 * conversion (a branch's `.gitattributes` names those; none runs here).
 */
export function codeChanges(range: string, env: NodeJS.ProcessEnv, checkout: string): Promise<CodeChanges> {
  const [base, head, ...rest] = range.split("..");
  if (rest.length > 0 || !base || !head || !COMMIT.test(base) || !COMMIT.test(head)) {
    return Promise.resolve({ unread: "the merge request's commits are not known (CI_MERGE_REQUEST_DIFF_BASE_SHA and its head)" });
  }
  const git = gitOnPath(env, checkout);
  if (!git) return Promise.resolve({ unread: "git is not on PATH" });
  const environment = { PATH: env.PATH, HOME: env.HOME, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" };
  return new Promise((resolve) => {
    execFile(
      git,
      // diff-tree, never diff: outside a repository `git diff` compares files of those names instead.
      ["-c", "core.quotePath=false", "diff-tree", "-r", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", base, head, "--"],
      { cwd: checkout, env: environment, encoding: "buffer", timeout: GIT_TIMEOUT_MS, killSignal: "SIGKILL", maxBuffer: GIT_MAX_BYTES, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve({ files: [...new Set(stdout.toString("utf8").split("\0").filter((file) => file !== ""))] });
        const failure = error as NodeJS.ErrnoException & { killed?: boolean };
        if (failure.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return resolve({ unread: `git wrote more than ${GIT_MAX_BYTES / 1024 / 1024} MiB of file names` });
        if (failure.killed) return resolve({ unread: `git did not finish within ${GIT_TIMEOUT_MS / 1000} s` });
        const line = stderr.toString("utf8").split("\n").find((text) => text.trim() !== "") ?? `it exited with ${String(failure.code)}`;
        resolve({ unread: `git diff-tree ${base} ${head}: ${line.replace(/[\u0000-\u001f\u007f]/g, " ").trim().slice(0, 300)}` });
      },
    );
  });
}
