/**
 * A project's repository as the seed describes it (section `repositories`,
 * keyed by project full path), and the build that turns a description into
 * a real git repository. Three forms:
 *
 * - `files`: `{ "README.md": "text", "bin/run": { "content": "...", "executable": true },
 *   "logo.png": { "base64": "..." }, "big.bin": { "lfs": "content" } }`: one commit.
 * - `directory`: a directory on disk whose files (`.git` left out) make one commit.
 * - `clone`: an existing repository on disk (bare, or a work tree's `.git`), copied with every ref.
 * - `commits`: a small history, optionally on top of `files`/`directory`:
 *   `[{ "id": "c1", "branch": "main", "from": "main", "message": "...",
 *      "trailers": { "Changelog": "added" }, "author": { "name", "email" },
 *      "date": "2024-01-02T10:00:00Z", "files": { "a.txt": "new", "old.txt": null },
 *      "rename": { "from.txt": "to.txt" } }, { "branch": "main", "merge": "feature", "message": "..." }]`
 *   `files` values: text or a file object as above, null to delete. A commit
 *   goes on `branch` (default: the default branch); a branch that does not
 *   exist yet starts at `from` (a commit id, branch, tag or sha; default the
 *   default branch's head). `merge` makes a merge commit of that branch into
 *   `branch` (real three-way merge; conflicts refused).
 * - `branches`: `{ "name": "<commit id, branch or tag>" }`, extra branches.
 * - `tags`: `[{ "name": "v1.0.0", "target": "<commit id, branch or sha>",
 *   "message": "annotated when given", "date": "..." }]` (target default: the default branch;
 *   an annotated tag without a date is dated as its commit).
 *
 * Dates default to the project's creation time plus one hour per commit, and
 * the author to "Administrator <admin@example.test>", so the same seed gives
 * the same SHAs on every start. LFS files are stored as pointer blobs, their
 * content under the repository's `lfs/objects/` as git-lfs keeps it.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { join, relative, sep } from "node:path";
import * as git from "isomorphic-git";
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import { resolveCommit } from "./refs";
import { commitTree, DEFAULT_AUTHOR, readFlatTree, signature, type FileAction } from "./trees";

// ---------------------------------------------------------------------------
// The section's schema (the seed is JSON a person wrote: every unknown key is named)

const text = z.string({ error: "must be a non-empty string" }).min(1, "must be a non-empty string");
const isoDate = text.refine((date) => !Number.isNaN(Date.parse(date)), "must be an ISO 8601 date");

/** A path inside the repository: relative, no empty, `.`, `..` or `.git` segment. */
const validPath = (path: string): boolean =>
  path !== "" && !path.startsWith("/") && !path.split("/").some((part) => part === "" || part === "." || part === ".." || part === ".git");
const badPath = (path: string) => ({ code: "custom" as const, message: `"${path}" is not a valid file path` });

const seedFile = z.union([
  z.string(),
  z
    .strictObject({
      content: z.string({ error: "must be a string" }).optional(),
      base64: z.string({ error: "must be a string" }).optional(),
      lfs: z.string({ error: "must be a string" }).optional(),
      executable: z.boolean({ error: "must be a boolean" }).optional(),
    })
    .refine((file) => [file.content, file.base64, file.lfs].filter((kind) => kind !== undefined).length === 1, "must have exactly one of content, base64, lfs"),
]);

/** Files keyed by path; `null` (in a commit) deletes one. */
const seedFiles = <T extends z.ZodType>(file: T) =>
  z.record(z.string(), file, { error: "must be an object" }).superRefine((files, context) => {
    const path = Object.keys(files).find((candidate) => !validPath(candidate));
    if (path !== undefined) context.addIssue(badPath(path));
  });

const seedCommit = z
  .strictObject(
    {
      id: text.optional(),
      branch: text.optional(),
      from: text.optional(),
      message: text,
      trailers: z.record(z.string(), text, { error: "must be an object" }).optional(),
      author: z.strictObject({ name: text, email: text }, { error: "must be an object" }).optional(),
      date: isoDate.optional(),
      files: seedFiles(seedFile.nullable()).optional(),
      rename: z
        .record(z.string(), text, { error: "must be an object" })
        .superRefine((renames, context) => {
          for (const [from, to] of Object.entries(renames)) {
            if (!validPath(from)) context.addIssue(badPath(from));
            else if (!validPath(to)) context.addIssue({ ...badPath(to), path: [from] });
          }
        })
        .optional(),
      merge: text.optional(),
    },
    { error: "must be an object" },
  )
  .refine((commit) => commit.merge === undefined || (commit.files === undefined && commit.rename === undefined), "a merge commit takes no files or rename");

const seedTag = z.strictObject({ name: text, target: text.optional(), message: text.optional(), date: isoDate.optional() }, { error: "must be an object" });

/** One project's description. */
export const repositorySeedSchema = z
  .strictObject(
    {
      files: seedFiles(seedFile).optional(),
      directory: text.optional(),
      clone: text.optional(),
      commits: z.array(seedCommit, { error: "must be an array" }).optional(),
      branches: z.record(z.string(), text, { error: "must be an object" }).optional(),
      tags: z.array(seedTag, { error: "must be an array" }).optional(),
    },
    { error: "must be an object" },
  )
  .superRefine((seed, context) => {
    if (seed.clone !== undefined && Object.keys(seed).length > 1) context.addIssue({ code: "custom", path: ["clone"], message: "takes no other key" });
    if (seed.files !== undefined && seed.directory !== undefined) context.addIssue({ code: "custom", message: "files and directory exclude each other" });
    for (const key of ["directory", "clone"] as const) {
      const path = seed[key];
      if (path !== undefined && !fs.existsSync(path)) context.addIssue({ code: "custom", path: [key], message: `${path} does not exist` });
    }
  });

export type SeedFile = z.infer<typeof seedFile>;
export type SeedCommit = z.infer<typeof seedCommit>;
export type SeedTag = z.infer<typeof seedTag>;
export type RepositorySeed = z.infer<typeof repositorySeedSchema>;

/** The `repositories` section: a description per project full path. */
export const repositoriesSeedSchema = keyedSection("project full path", repositorySeedSchema);

// ---------------------------------------------------------------------------
// Building

const HOUR_MS = 3_600_000;

export interface BuildDefaults {
  defaultBranch: string;
  /** ISO time of the first commit; later ones one hour apart. */
  epoch: string;
}

/** A git-lfs pointer file for `content` (version 1 of the git-lfs pointer format, as `git lfs` writes it). */
export function lfsPointer(content: Buffer): { pointer: string; oid: string } {
  const oid = createHash("sha256").update(content).digest("hex");
  return { pointer: `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${content.length}\n`, oid };
}

/** Where git-lfs keeps an object's content: `lfs/objects/ab/cd/abcd...` inside the git directory. */
export const lfsObjectPath = (gitdir: string, oid: string): string => join(gitdir, "lfs", "objects", oid.slice(0, 2), oid.slice(2, 4), oid);

function fileAction(gitdir: string, filePath: string, file: SeedFile, exists: boolean): FileAction {
  const action = exists ? "update" : "create";
  if (typeof file === "string") return { action, filePath, content: file };
  if (file.lfs !== undefined) {
    const content = Buffer.from(file.lfs);
    const { pointer, oid } = lfsPointer(content);
    const path = lfsObjectPath(gitdir, oid);
    fs.mkdirSync(join(path, ".."), { recursive: true });
    fs.writeFileSync(path, content);
    return { action, filePath, content: pointer, executable: file.executable };
  }
  const content = file.base64 !== undefined ? Buffer.from(file.base64, "base64") : (file.content ?? "");
  return { action, filePath, content, executable: file.executable };
}

/** Files of a directory on disk, `.git` left out, as create actions. */
function directoryActions(root: string): FileAction[] {
  const actions: FileAction[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name === ".git") continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const executable = (fs.statSync(full).mode & 0o111) !== 0;
        actions.push({ action: "create", filePath: relative(root, full).split(sep).join("/"), content: fs.readFileSync(full), executable });
      }
    }
  };
  walk(root);
  return actions;
}

class HistoryBuilder {
  private readonly labels = new Map<string, string>();
  private clock: number;

  constructor(
    private readonly gitdir: string,
    private readonly defaults: BuildDefaults,
  ) {
    this.clock = Date.parse(defaults.epoch);
  }

  private nextDate(given: string | undefined): string {
    if (given !== undefined) return new Date(given).toISOString();
    this.clock += HOUR_MS;
    return new Date(this.clock).toISOString();
  }

  async target(name: string, where: string): Promise<string> {
    const labelled = this.labels.get(name);
    if (labelled) return labelled;
    const sha = await resolveCommit(this.gitdir, name);
    if (!sha) throw new SeedError(`${where}: unknown commit, branch or tag "${name}"`);
    return sha;
  }

  private async branchHead(branch: string): Promise<string | undefined> {
    try {
      return await git.resolveRef({ fs, gitdir: this.gitdir, ref: `refs/heads/${branch}` });
    } catch {
      return undefined;
    }
  }

  async firstCommit(actions: FileAction[]): Promise<void> {
    const author = signature(DEFAULT_AUTHOR, this.nextDate(undefined));
    await commitTree(this.gitdir, { branch: this.defaults.defaultBranch, parent: undefined, message: "Initial commit", author, actions });
  }

  async commit(commit: SeedCommit, where: string): Promise<void> {
    const branch = commit.branch ?? this.defaults.defaultBranch;
    const head = await this.branchHead(branch);
    const parent = head ?? (commit.from !== undefined ? await this.target(commit.from, `${where}.from`) : await this.branchHead(this.defaults.defaultBranch));
    const author = signature(commit.author ?? DEFAULT_AUTHOR, this.nextDate(commit.date));
    const trailers = Object.entries(commit.trailers ?? {}).map(([key, value]) => `${key}: ${value}`);
    const message = trailers.length > 0 ? `${commit.message.trimEnd()}\n\n${trailers.join("\n")}\n` : commit.message;
    let sha: string;
    if (commit.merge !== undefined) {
      if (!head) throw new SeedError(`${where}: branch ${branch} has no commit to merge into`);
      const theirs = await this.target(commit.merge, `${where}.merge`);
      try {
        const result = await git.merge({ fs, gitdir: this.gitdir, ours: branch, theirs, fastForward: false, message, author, committer: author, abortOnConflict: true });
        sha = result.oid ?? head;
      } catch (error) {
        throw new SeedError(`${where}: cannot merge ${commit.merge} into ${branch}: ${(error as Error).message}`);
      }
    } else {
      const files = await this.currentFiles(parent);
      const actions: FileAction[] = Object.entries(commit.rename ?? {}).map(([from, to]) => ({ action: "move", previousPath: from, filePath: to }));
      for (const [path, file] of Object.entries(commit.files ?? {})) {
        actions.push(file === null ? { action: "delete", filePath: path } : fileAction(this.gitdir, path, file, files.has(path) || Object.values(commit.rename ?? {}).includes(path)));
      }
      try {
        sha = await commitTree(this.gitdir, { branch, parent, message, author, actions });
      } catch (error) {
        throw new SeedError(`${where}: ${(error as Error).message}`);
      }
    }
    if (commit.id !== undefined) this.labels.set(commit.id, sha);
  }

  private async currentFiles(parent: string | undefined): Promise<Set<string>> {
    if (!parent) return new Set();
    const { commit } = await git.readCommit({ fs, gitdir: this.gitdir, oid: parent });
    return new Set((await readFlatTree(this.gitdir, commit.tree)).keys());
  }

  async tag(tag: SeedTag, where: string): Promise<void> {
    const object = await this.target(tag.target ?? this.defaults.defaultBranch, `${where}.target`);
    if (tag.message === undefined) {
      await git.tag({ fs, gitdir: this.gitdir, ref: tag.name, object });
      return;
    }
    // Without a date, tagged when its commit was made (so the seed's clock does not move).
    const committed = (await git.readCommit({ fs, gitdir: this.gitdir, oid: object })).commit.committer.timestamp;
    const tagger = signature(DEFAULT_AUTHOR, tag.date ?? new Date(committed * 1000).toISOString());
    await git.annotatedTag({ fs, gitdir: this.gitdir, ref: tag.name, message: tag.message, tagger, object });
  }
}

/** Builds the described repository at `gitdir` (a bare repository; must not exist yet). */
export async function buildRepository(gitdir: string, seed: RepositorySeed, defaults: BuildDefaults): Promise<void> {
  if (seed.clone !== undefined) {
    const source = fs.existsSync(join(seed.clone, ".git")) ? join(seed.clone, ".git") : seed.clone;
    fs.cpSync(source, gitdir, { recursive: true });
    return;
  }
  await git.init({ fs, gitdir, bare: true, defaultBranch: defaults.defaultBranch });
  const builder = new HistoryBuilder(gitdir, defaults);
  if (seed.files !== undefined) {
    await builder.firstCommit(Object.entries(seed.files).map(([path, file]) => fileAction(gitdir, path, file, false)));
  } else if (seed.directory !== undefined) {
    await builder.firstCommit(directoryActions(seed.directory));
  }
  for (const [index, commit] of (seed.commits ?? []).entries()) await builder.commit(commit, `commits[${index}]`);
  for (const [name, target] of Object.entries(seed.branches ?? {})) {
    const sha = await builder.target(target, `branches["${name}"]`);
    await git.writeRef({ fs, gitdir, ref: `refs/heads/${name}`, value: sha, force: true });
  }
  for (const [index, tag] of (seed.tags ?? []).entries()) await builder.tag(tag, `tags[${index}]`);
}
