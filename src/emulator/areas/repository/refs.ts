/**
 * Resolving the API's `ref` / `sha` parameters to commits in a bare repository.
 */
import * as fs from "node:fs";
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

export async function tryResolve(gitdir: string, ref: string): Promise<string | undefined> {
  try {
    return await git.resolveRef({ fs, gitdir, ref, depth: 5 });
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
  if (ref === "") return undefined;
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

