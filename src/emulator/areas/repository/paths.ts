/**
 * Paths inside a repository, as the API's `path`, `exclude_paths` and `file`
 * parameters give them: read in git's trees, never on disk, but still
 * confined to the repository: a path with a `..` segment (or a NUL, or of
 * more than `MAX_PATH_BYTES`) names nothing in it and is refused.
 */

/** Gitaly's "Path is too long" bound, roughly: git itself stops at the file system's PATH_MAX. */
export const MAX_PATH_BYTES = 4096;

/** Whether a path (leading and trailing slashes aside) stays inside the repository. */
export function staysInRepository(path: string): boolean {
  if (path.includes("\0") || Buffer.byteLength(path) > MAX_PATH_BYTES) return false;
  return !path.split("/").includes("..");
}

/** Paths as Gitaly takes them: `/src/` is `src`. */
export const trimSlashes = (path: string): string => path.replace(/^\/+|\/+$/g, "");

/** Whether a commit may write a file at `path`: every segment a name a tree can hold (not empty, `.` or `..`). */
export function isFilePath(path: string): boolean {
  return staysInRepository(path) && path.split("/").every((segment) => segment !== "" && segment !== ".");
}
