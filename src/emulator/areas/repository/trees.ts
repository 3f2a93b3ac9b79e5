/**
 * Writing commits with isomorphic-git's object plumbing (the repositories are
 * bare: there is no work tree or index to commit from). A commit's tree is
 * its parent's, read flat (`path → mode, oid`), with the file actions applied
 * (the actions of the commits API: create, update, delete, move, chmod), and
 * written back directory by directory.
 */
import * as fs from "node:fs";
import { deflateSync } from "node:zlib";
import * as git from "isomorphic-git";
import { isFilePath } from "./paths";

export interface FileAction {
  action: "create" | "update" | "delete" | "move" | "chmod";
  filePath: string;
  /** For `move`: the file's path before. */
  previousPath?: string;
  /** For `create` / `update` (and `move` with new content). */
  content?: string | Buffer;
  /** Mode 100755 when true, 100644 when false; unchanged when absent. */
  executable?: boolean;
}

/**
 * Writes a blob as a loose object: isomorphic-git wraps, hashes and stores
 * it; node's zlib compresses it, which is much faster than the library's
 * own deflate on large seeds.
 */
export async function writeBlob(gitdir: string, content: Uint8Array): Promise<string> {
  const { oid, object } = await git.hashBlob({ object: content });
  await git.writeObject({ fs, gitdir, type: "blob", object: deflateSync(object), format: "deflated", oid });
  return oid;
}

export interface FlatEntry {
  mode: string;
  oid: string;
}

/** Every file of a tree, by full path (sub-trees flattened). */
export async function readFlatTree(gitdir: string, treeOid: string, prefix = ""): Promise<Map<string, FlatEntry>> {
  const files = new Map<string, FlatEntry>();
  const { tree } = await git.readTree({ fs, gitdir, oid: treeOid });
  for (const entry of tree) {
    const path = prefix + entry.path;
    if (entry.type === "tree") {
      for (const [sub, file] of await readFlatTree(gitdir, entry.oid, `${path}/`)) files.set(sub, file);
    } else {
      files.set(path, { mode: entry.mode, oid: entry.oid });
    }
  }
  return files;
}

/** Writes nested trees for a flat file map; returns the root tree's oid. */
export async function writeFlatTree(gitdir: string, files: ReadonlyMap<string, FlatEntry>): Promise<string> {
  const here: git.TreeEntry[] = [];
  const below = new Map<string, Map<string, FlatEntry>>();
  for (const [path, file] of files) {
    const slash = path.indexOf("/");
    if (slash === -1) {
      here.push({ mode: file.mode, path, oid: file.oid, type: file.mode === "160000" ? "commit" : "blob" });
      continue;
    }
    const directory = path.slice(0, slash);
    let sub = below.get(directory);
    if (!sub) below.set(directory, (sub = new Map()));
    sub.set(path.slice(slash + 1), file);
  }
  for (const [directory, sub] of below) {
    here.push({ mode: "040000", path: directory, oid: await writeFlatTree(gitdir, sub), type: "tree" });
  }
  return git.writeTree({ fs, gitdir, tree: here });
}

const modeFor = (executable: boolean | undefined, previous: string | undefined): string =>
  executable === undefined ? (previous ?? "100644") : executable ? "100755" : "100644";

/** Applies the commits API's actions to a flat tree; throws with the API's reason for an impossible one. */
export async function applyActions(gitdir: string, files: Map<string, FlatEntry>, actions: readonly FileAction[]): Promise<void> {
  for (const action of actions) {
    // What Gitaly's UserCommitFiles refuses; the API's callers answer its failure as they answer any failed commit.
    for (const path of [action.filePath, action.previousPath ?? action.filePath]) {
      if (!isFilePath(path)) throw new Error(`Path cannot include traversal syntax: ${JSON.stringify(path)}`);
    }
    const existing = files.get(action.filePath);
    const blob = (): Promise<string> => writeBlob(gitdir, Buffer.from(action.content ?? ""));
    switch (action.action) {
      case "create":
        if (existing) throw new Error(`A file with this name already exists: ${action.filePath}`);
        files.set(action.filePath, { mode: modeFor(action.executable, undefined), oid: await blob() });
        break;
      case "update":
        if (!existing) throw new Error(`A file with this name doesn't exist: ${action.filePath}`);
        files.set(action.filePath, { mode: modeFor(action.executable, existing.mode), oid: await blob() });
        break;
      case "delete":
        if (!existing) throw new Error(`A file with this name doesn't exist: ${action.filePath}`);
        files.delete(action.filePath);
        break;
      case "chmod":
        if (!existing) throw new Error(`A file with this name doesn't exist: ${action.filePath}`);
        files.set(action.filePath, { ...existing, mode: modeFor(action.executable, existing.mode) });
        break;
      case "move": {
        const from = action.previousPath === undefined ? undefined : files.get(action.previousPath);
        if (!from || action.previousPath === undefined) throw new Error(`A file with this name doesn't exist: ${action.previousPath ?? ""}`);
        if (existing) throw new Error(`A file with this name already exists: ${action.filePath}`);
        files.delete(action.previousPath);
        const oid = action.content === undefined ? from.oid : await blob();
        files.set(action.filePath, { mode: modeFor(action.executable, from.mode), oid });
        break;
      }
    }
  }
}

/** Who commits when nobody is named (seeds, writes without an author). */
export const DEFAULT_AUTHOR = { name: "Administrator", email: "admin@example.test" };

/** A name, an email and an ISO time as isomorphic-git's author or committer (UTC). */
export function signature(identity: { name: string; email: string }, isoTime: string): git.CommitObject["author"] {
  return { name: identity.name, email: identity.email, timestamp: Math.floor(Date.parse(isoTime) / 1000), timezoneOffset: 0 };
}

export interface TreeCommit {
  branch: string;
  /** The parent commit; undefined for a branch's first commit in an empty repository. */
  parent: string | undefined;
  message: string;
  author: git.CommitObject["author"];
  /** Default: the author. */
  committer?: git.CommitObject["committer"];
  actions: readonly FileAction[];
}

/** Writes one commit (parent's tree plus the actions) and moves the branch to it. */
export async function commitTree(gitdir: string, request: TreeCommit): Promise<string> {
  const files = request.parent
    ? await readFlatTree(gitdir, (await git.readCommit({ fs, gitdir, oid: request.parent })).commit.tree)
    : new Map<string, FlatEntry>();
  await applyActions(gitdir, files, request.actions);
  const tree = await writeFlatTree(gitdir, files);
  const message = request.message.endsWith("\n") ? request.message : `${request.message}\n`;
  const sha = await git.writeCommit({
    fs,
    gitdir,
    commit: { message, tree, parent: request.parent ? [request.parent] : [], author: request.author, committer: request.committer ?? request.author },
  });
  await git.writeRef({ fs, gitdir, ref: `refs/heads/${request.branch}`, value: sha, force: true });
  return sha;
}
