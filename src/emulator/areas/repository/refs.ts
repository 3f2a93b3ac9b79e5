/**
 * Resolving the API's `ref` / `sha` parameters to commits in a bare repository.
 *
 * isomorphic-git reads a ref as the file of that name under the git
 * directory, so a name is resolved only when git itself would take it
 * (`isRefName`): nothing else may name a file, inside the repository or out.
 */
import * as fs from "node:fs";
import { sep } from "node:path";
import * as git from "isomorphic-git";

const SHA = /^[0-9a-f]{40}$/;
const SHORT_SHA = /^[0-9a-f]{4,39}$/;

/** The commit an object id leads to: annotated tags are peeled; undefined for a tree or blob. */
export async function peelToCommit(gitdir: string, oid: string): Promise<string | undefined> {
  let current = oid;
  for (let depth = 0; depth < 10; depth++) {
    const { type, object } = await git.readObject({ fs, gitdir, oid: current, format: "parsed" });
    if (type === "commit") return current;
    if (type !== "tag") return undefined;
    current = (object as git.TagObject).object;
  }
  return undefined;
}

/** Longer names are refused: git has no limit of its own, the file system does (and a name is read as a path). */
export const MAX_REF_BYTES = 1024;
/** ASCII controls, space, and `~ ^ : ? * [ \`, which git refuses anywhere in a ref name. */
const REF_FORBIDDEN = /[\x00-\x20\x7f~^:?*[\\]/;

/**
 * git check-ref-format's rules, for a full name (`refs/heads/main`) and for
 * the short names the API takes (`main`, `v1.4.0`, a sha, `HEAD`): no `..`
 * and no `@{`; no control character, space or `~^:?*[\`; not `@`; no
 * leading `-` (read as an option); no component empty or starting with `.`
 * or ending with `.lock`; not ending with `.` or `/`; at most `MAX_REF_BYTES`.
 */
export function isRefName(name: string): boolean {
  if (name === "" || name === "@" || Buffer.byteLength(name) > MAX_REF_BYTES) return false;
  if (name.startsWith("-") || name.endsWith(".") || name.includes("..") || name.includes("@{") || REF_FORBIDDEN.test(name)) return false;
  return name.split("/").every((component) => component !== "" && !component.startsWith(".") && !component.endsWith(".lock"));
}

/** The largest ref file read (`packed-refs` of many tags included). */
const MAX_REF_FILE_BYTES = 64 * 1024 * 1024;

const notARefFile = (path: string): Error => Object.assign(new Error(`${path} is not a ref file of the repository`), { code: "ENOENT" });

/**
 * node's file system as ref resolution reads it: a read reaches only a
 * regular file inside the git directory, symlinks followed, of at most
 * `MAX_REF_FILE_BYTES`; anything else (a device, a file elsewhere) reads as
 * missing. A second fence behind `isRefName`, where the file is opened.
 */
function refFiles(gitdir: string): typeof fs {
  const readFile = async (path: string, options?: Parameters<typeof fs.promises.readFile>[1]) => {
    const [root, real] = await Promise.all([fs.promises.realpath(gitdir), fs.promises.realpath(path)]).catch(() => [undefined, undefined]);
    if (root === undefined || real === undefined || !real.startsWith(root + sep)) throw notARefFile(path);
    const stats = await fs.promises.stat(real);
    if (!stats.isFile() || stats.size > MAX_REF_FILE_BYTES) throw notARefFile(path);
    return fs.promises.readFile(real, options ?? null);
  };
  // isomorphic-git uses only `promises` when it is there (copying the whole module would touch its deprecated members).
  return { promises: { ...fs.promises, readFile } } as unknown as typeof fs;
}

export async function tryResolve(gitdir: string, ref: string): Promise<string | undefined> {
  if (!isRefName(ref)) return undefined;
  try {
    return await git.resolveRef({ fs: refFiles(gitdir), gitdir, ref, depth: 5 });
  } catch {
    return undefined;
  }
}

/**
 * What `git rev-parse <ref>^{commit}` gives, as Gitaly does for the API's
 * `ref`/`sha` parameters: a full `refs/...` name, then a tag, then a branch
 * (git prefers `refs/tags/x` over `refs/heads/x` for an ambiguous name), then
 * a full or unique abbreviated sha.
 */
export async function resolveCommit(gitdir: string, ref: string): Promise<string | undefined> {
  if (!isRefName(ref)) return undefined;
  const candidates = ref === "HEAD" ? ["HEAD"] : ref.startsWith("refs/") ? [ref] : [`refs/tags/${ref}`, `refs/heads/${ref}`];
  for (const name of candidates) {
    const oid = await tryResolve(gitdir, name);
    if (oid) return peelToCommit(gitdir, oid);
  }
  if (SHA.test(ref) || SHORT_SHA.test(ref)) {
    try {
      const oid = SHA.test(ref) ? ref : await git.expandOid({ fs, gitdir, oid: ref });
      return await peelToCommit(gitdir, oid);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

