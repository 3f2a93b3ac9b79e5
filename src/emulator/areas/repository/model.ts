/**
 * Projects' repositories: each one a real bare git repository on disk, read
 * and written with isomorphic-git (pure JS). Other areas reach a project's
 * repository only through `repositoryOf(state, project)`:
 *
 *     const repo = await repositoryOf(ctx.state, project);
 *     const sha = await repo.resolveRef("v1.4.0");            // branch, tag, full or short sha
 *     const commit = await repo.readCommit(sha);
 *     await repo.commit({ branch: "main", message: "Add changelog", actions: [
 *       { action: "update", filePath: "CHANGELOG.md", content: "..." },
 *     ] });                                                      // a real commit; project refs follow
 *
 * Where they live: `<state file>.repositories/<project id>.git` when the
 * emulator saves its state (so they survive restarts), else a temporary
 * directory removed when the emulator stops (`attachRepositories` /
 * `detachRepositories`, run by the server through the area's `start`/`stop`).
 *
 * A seeded project's repository is built once from its description
 * (./seed.ts) into a build cache (shared by the user's processes
 * and pruned after a day unused; per process for seeds read from disk), and
 * copied into the emulator's directory on first use, so starting many
 * emulators on one seed costs one build. After every write, the project's `lastCommitSha`,
 * `latestTag`, `branches` and `tags` (state.ts) are read back from the
 * repository, since badges and pipeline schedules read those, and so are
 * its statistics (`repositoryStatistics`: the default branch's commits, the
 * size on disk), as real servers count them again after a push.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as git from "isomorphic-git";
import { defineStore, type EmulatorState, type Project } from "../../state";
import { SeedError } from "../../seed-error";
import type { z } from "zod";
import { buildRepository, type RepositorySeed, type repositoriesSeedSchema } from "./seed";
import { resolveCommit, tryResolve } from "./refs";
import { commitTree, DEFAULT_AUTHOR, signature, type FileAction } from "./trees";

export type { FileAction } from "./trees";
export { peelToCommit, resolveCommit } from "./refs";
export { signature } from "./trees";

/** Descriptions of seeded repositories by project id, kept in the state so a saved state can rebuild them. */
export const repositoryStore = defineStore("repositories", (): { seeds: Record<string, RepositorySeed> } => ({ seeds: {} }));

export interface GitIdentity {
  name: string;
  email: string;
}

export interface CommitRequest {
  /** The branch the commit goes on; created from `startRef` (default: the default branch) when missing. */
  branch: string;
  startRef?: string;
  message: string;
  author?: GitIdentity;
  /** Who commits, when not the author (the API's caller, when an author is named). */
  committer?: GitIdentity;
  /** ISO 8601; default: the state's clock. */
  date?: string;
  actions: readonly FileAction[];
  /** Start the branch afresh at `startRef` even when it exists (the commits API's `force`). */
  replaceBranch?: boolean;
}

export interface ProjectRepository {
  readonly fs: typeof fs;
  /** The bare repository (isomorphic-git's `gitdir`); also `dir`, as there is no work tree. */
  readonly gitdir: string;
  readonly dir: string;
  readonly defaultBranch: string;
  /** The commit a ref names (branch, tag, `refs/...`, full or abbreviated sha, `HEAD`); undefined when none. */
  resolveRef(ref: string): Promise<string | undefined>;
  readCommit(sha: string): Promise<git.ReadCommitResult>;
  /** Writes a commit on a branch and brings the project's refs in step; returns its sha. */
  commit(request: CommitRequest): Promise<string>;
  /** Reads the project's refs back from the repository (after a write made with isomorphic-git directly). */
  syncProject(): Promise<void>;
}

// ---------------------------------------------------------------------------
// Where repositories live

interface RepositoryHome {
  /** Beside the state file; a temporary directory is made on first use (most emulators never read a repository). */
  root: string | undefined;
  temporary: boolean;
}

const homes = new WeakMap<EmulatorState, RepositoryHome>();

/** Called when the emulator starts: chooses the directory and brings every seeded project's refs in step. */
export async function attachRepositories(state: EmulatorState, stateFile: string | undefined): Promise<void> {
  if (!homes.has(state)) homes.set(state, { root: stateFile ? `${stateFile}.repositories` : undefined, temporary: stateFile === undefined });
  const { seeds } = repositoryStore.of(state);
  for (const project of state.projects) {
    // A state file saved before projects had repositories: each gets the generated one, as a seed without a description does.
    const missing = !seeds[String(project.id)] && !existingGitdir(state, project);
    if (missing && project.lastCommitSha !== null) seeds[String(project.id)] = generatedSeed(project);
    await refreshProjectRefs(state, project);
  }
}

/** Called when the emulator stops: a temporary directory is removed. */
export function detachRepositories(state: EmulatorState): void {
  const home = homes.get(state);
  homes.delete(state);
  if (home?.temporary && home.root) fs.rmSync(home.root, { recursive: true, force: true });
}

/** Directories removed when the process exits (the build cache, homes of states used without a server). */
const removedAtExit: string[] = [];

function temporaryUntilExit(prefix: string): string {
  const root = fs.mkdtempSync(join(tmpdir(), prefix));
  if (removedAtExit.length === 0) {
    process.once("exit", () => {
      for (const dir of removedAtExit) fs.rmSync(dir, { recursive: true, force: true });
    });
  }
  removedAtExit.push(root);
  return root;
}

/**
 * The directory of a state's repositories. A temporary one is also removed
 * at exit, for an emulator that is never stopped and for a state used
 * without a server (a test building one from a seed).
 */
function rootOf(state: EmulatorState): string {
  let home = homes.get(state);
  if (!home) homes.set(state, (home = { root: undefined, temporary: true }));
  home.root ??= temporaryUntilExit("emulator-repositories-");
  fs.mkdirSync(home.root, { recursive: true });
  return home.root;
}

const gitdirOf = (state: EmulatorState, project: Project): string => join(rootOf(state), `${project.id}.git`);

/** The project's repository if it is on disk already (makes no directory). */
function existingGitdir(state: EmulatorState, project: Project): string | undefined {
  const root = homes.get(state)?.root;
  const gitdir = root === undefined ? undefined : join(root, `${project.id}.git`);
  return gitdir !== undefined && fs.existsSync(join(gitdir, "HEAD")) ? gitdir : undefined;
}

// ---------------------------------------------------------------------------
// The build cache: one build per seed description (per machine for seeds
// written out in full, per process for seeds read from disk)

const builds = new Map<string, Promise<string>>();
let processCache: string | undefined;
let sharedCacheChecked = false;
/** Builds of seeds written in the seed itself are shared by every process of the machine's user, and pruned after a day unused. */
const SHARED_CACHE = join(tmpdir(), `pulumi-platform-emulator-builds-${process.getuid?.() ?? "user"}`);
const SHARED_CACHE_MAX_AGE_MS = 24 * 3_600_000;

/**
 * Where a build goes: a seed read from disk (`directory`, `clone`: possibly
 * large, and changing) in this process's own cache, removed at exit; any
 * other in the shared cache, so the many emulators of a test run (one
 * process per test file) build each seed once.
 */
function cacheDirectory(shared: boolean): string {
  if (!shared) return (processCache ??= temporaryUntilExit("emulator-repository-builds-"));
  if (!sharedCacheChecked) {
    sharedCacheChecked = true;
    fs.mkdirSync(SHARED_CACHE, { recursive: true });
    for (const name of fs.readdirSync(SHARED_CACHE)) {
      const path = join(SHARED_CACHE, name);
      // Other processes build here at the same time: an entry listed may be renamed into place or removed before it is read.
      const stat = fs.statSync(path, { throwIfNoEntry: false });
      if (stat && Date.now() - stat.mtimeMs > SHARED_CACHE_MAX_AGE_MS) fs.rmSync(path, { recursive: true, force: true });
    }
  }
  return SHARED_CACHE;
}

/** Builds into a private directory and renames it into place, so concurrent processes never see half a build. */
async function buildInto(gitdir: string, seed: RepositorySeed, project: Project): Promise<void> {
  if (fs.existsSync(join(gitdir, "HEAD"))) {
    const now = new Date();
    fs.utimesSync(gitdir, now, now);
    return;
  }
  const temporary = `${gitdir}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await buildRepository(temporary, seed, buildDefaults(project));
    fs.renameSync(temporary, gitdir);
  } catch (error) {
    fs.rmSync(temporary, { recursive: true, force: true });
    // Another process finished the same build first: its result is the same repository.
    if (!fs.existsSync(join(gitdir, "HEAD"))) throw error;
  }
}

/** What a build depends on besides the description: the project's defaults. */
function buildDefaults(project: Project): { defaultBranch: string; epoch: string } {
  return { defaultBranch: project.defaultBranch, epoch: project.createdAt };
}

/** Sizes and times of every file below a path: a build from disk is redone when the disk changed. */
function diskSignature(path: string): string {
  const hash = createHash("sha256");
  const walk = (current: string): void => {
    const stat = fs.statSync(current);
    hash.update(`${current}:${stat.size}:${stat.mtimeMs};`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(current).sort()) walk(join(current, name));
  };
  walk(path);
  return hash.digest("hex");
}

/**
 * The code that builds (seed.ts, trees.ts) is part of a shared build's key:
 * a changed builder never meets a build of the old one.
 */
const builderVersion = ((): string => {
  const hash = createHash("sha256");
  try {
    for (const name of fs.readdirSync(__dirname).sort()) {
      if (/^(seed|trees)\.(ts|js)$/.test(name)) hash.update(fs.readFileSync(join(__dirname, name)));
    }
  } catch {
    hash.update(String(process.pid));
  }
  return hash.digest("hex");
})();

function buildKey(seed: RepositorySeed, project: Project): string {
  const source = seed.directory ?? seed.clone;
  const disk = source === undefined ? "" : diskSignature(source);
  return createHash("sha256").update(JSON.stringify({ seed, defaults: buildDefaults(project), disk, builderVersion })).digest("hex");
}

/** Refs of each finished build, so that a seed applied after a build gets real SHAs at once (synchronously). */
const snapshots = new Map<string, RefSnapshot>();

/** The built repository of a description (building it on first call). */
function cachedBuild(seed: RepositorySeed, project: Project): Promise<string> {
  const key = buildKey(seed, project);
  let build = builds.get(key);
  if (!build) {
    const fromDisk = seed.directory !== undefined || seed.clone !== undefined;
    const gitdir = join(cacheDirectory(!fromDisk), `${key}.git`);
    build = buildInto(gitdir, seed, project).then(async () => {
      snapshots.set(key, await readRefSnapshot(gitdir, project.defaultBranch));
      return gitdir;
    });
    builds.set(key, build);
    build.catch(() => builds.delete(key));
  }
  return build;
}

/** Builds (or finds built) the repositories a state's seed describes; see `prepareRepositories`. */
export async function buildSeededRepositories(state: EmulatorState): Promise<void> {
  const { seeds } = repositoryStore.of(state);
  for (const project of state.projects) {
    const seed = seeds[String(project.id)];
    if (seed) await cachedBuild(seed, project);
  }
}

// ---------------------------------------------------------------------------
// Opening a project's repository

const opening = new Map<string, Promise<void>>();

/** Creates the project's repository on disk if it is not there: a copy of its seeded build, or an empty one. */
async function ensureOnDisk(state: EmulatorState, project: Project): Promise<string> {
  const gitdir = gitdirOf(state, project);
  if (fs.existsSync(join(gitdir, "HEAD"))) return gitdir;
  let pending = opening.get(gitdir);
  if (!pending) {
    pending = (async () => {
      const seed = repositoryStore.of(state).seeds[String(project.id)];
      const temporary = `${gitdir}.${process.pid}.tmp`;
      fs.rmSync(temporary, { recursive: true, force: true });
      if (seed) fs.cpSync(await cachedBuild(seed, project), temporary, { recursive: true });
      else await git.init({ fs, gitdir: temporary, bare: true, defaultBranch: project.defaultBranch });
      fs.renameSync(temporary, gitdir);
    })().finally(() => opening.delete(gitdir));
    opening.set(gitdir, pending);
  }
  await pending;
  return gitdir;
}

/** The project's repository, created on first use. */
export async function repositoryOf(state: EmulatorState, project: Project): Promise<ProjectRepository> {
  const gitdir = await ensureOnDisk(state, project);
  return {
    fs,
    gitdir,
    dir: gitdir,
    defaultBranch: project.defaultBranch,
    resolveRef: (ref) => resolveCommit(gitdir, ref),
    readCommit: (sha) => git.readCommit({ fs, gitdir, oid: sha }),
    commit: async (request) => {
      const sha = await writeCommit(state, project, gitdir, request);
      await syncProjectRefs(project, gitdir);
      return sha;
    },
    syncProject: () => syncProjectRefs(project, gitdir),
  };
}

/** Brings a project's refs in step with its repository as it is on disk, or as its seed builds it. */
async function refreshProjectRefs(state: EmulatorState, project: Project): Promise<void> {
  const gitdir = existingGitdir(state, project);
  if (gitdir) return syncProjectRefs(project, gitdir);
  const seed = repositoryStore.of(state).seeds[String(project.id)];
  if (seed) await syncProjectRefs(project, await cachedBuild(seed, project));
}

// ---------------------------------------------------------------------------
// Refs

/**
 * A repository's refs as the project mirrors them: branch heads, and tags
 * with their commit's time; and what its statistics count: the commits of
 * the default branch and the repository's size on disk.
 */
export interface RefSnapshot {
  heads: Record<string, string>;
  tags: { name: string; sha: string; time: number }[];
  commitCount: number;
  repositorySize: number;
}

export async function readRefSnapshot(gitdir: string, defaultBranch: string): Promise<RefSnapshot> {
  const heads: Record<string, string> = {};
  for (const branch of await git.listBranches({ fs, gitdir })) {
    const sha = await tryResolve(gitdir, `refs/heads/${branch}`);
    if (sha) heads[branch] = sha;
  }
  const tags: RefSnapshot["tags"] = [];
  for (const name of await git.listTags({ fs, gitdir })) {
    const sha = await resolveCommit(gitdir, `refs/tags/${name}`);
    if (sha) tags.push({ name, sha, time: (await git.readCommit({ fs, gitdir, oid: sha })).commit.committer.timestamp });
  }
  const head = heads[defaultBranch];
  return { heads, tags, commitCount: head === undefined ? 0 : await commitCountOf(gitdir, head), repositorySize: sizeOnDisk(gitdir) };
}

/**
 * The commits reachable from one, counted once per process: a commit's sha
 * names its whole history, so the count is the same in every repository.
 */
const reachable = new Map<string, number>();

async function commitCountOf(gitdir: string, head: string): Promise<number> {
  const known = reachable.get(head);
  if (known !== undefined) return known;
  const parents = await parentsOf(gitdir, head);
  const afterParent = parents.length === 0 ? 0 : parents.length === 1 ? reachable.get(parents[0]!) : undefined;
  let count = afterParent === undefined ? 0 : afterParent + 1;
  if (afterParent === undefined) {
    const seen = new Set<string>([head]);
    const pending = [...parents];
    while (pending.length > 0) {
      const oid = pending.pop()!;
      if (seen.has(oid)) continue;
      seen.add(oid);
      pending.push(...(await parentsOf(gitdir, oid)));
    }
    count = seen.size;
  }
  reachable.set(head, count);
  return count;
}

/** A commit's parents; none where the history stops (a shallow clone's boundary). */
async function parentsOf(gitdir: string, oid: string): Promise<string[]> {
  try {
    return (await git.readCommit({ fs, gitdir, oid })).commit.parent;
  } catch {
    return [];
  }
}

/** The bytes of every file of a repository's directory. */
function sizeOnDisk(path: string): number {
  const stat = fs.statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(path).reduce((total, name) => total + sizeOnDisk(join(path, name)), 0);
}

/**
 * Mirrors a repository's refs into the project: branches, tags, the default
 * branch's head and the latest tag, the one whose commit is newest
 * (`tags_sorted_by('updated_desc').first`, as the badge placeholder reads
 * it); among tags on equally new commits the project's current one is kept.
 */
export function applyRefSnapshot(project: Project, snapshot: RefSnapshot): void {
  project.lastCommitSha = snapshot.heads[project.defaultBranch] ?? null;
  project.branches = Object.keys(snapshot.heads).sort();
  project.branchHeads = { ...snapshot.heads };
  project.tags = snapshot.tags.map((tag) => tag.name).sort();
  let latest: { name: string; time: number } | undefined;
  for (const { name, time } of snapshot.tags) {
    if (!latest || time > latest.time || (time === latest.time && name === project.latestTag)) latest = { name, time };
  }
  project.latestTag = latest?.name ?? null;
  project.repositoryStatistics = { commitCount: snapshot.commitCount, repositorySize: snapshot.repositorySize };
}

async function syncProjectRefs(project: Project, gitdir: string): Promise<void> {
  applyRefSnapshot(project, await readRefSnapshot(gitdir, project.defaultBranch));
}

// ---------------------------------------------------------------------------
// Writing

async function writeCommit(state: EmulatorState, project: Project, gitdir: string, request: CommitRequest): Promise<string> {
  const branchHead = request.replaceBranch ? undefined : await tryResolve(gitdir, `refs/heads/${request.branch}`);
  const parent = branchHead ?? (await resolveCommit(gitdir, request.startRef ?? project.defaultBranch));
  if (!branchHead && request.startRef !== undefined && !parent) throw new Error(`unknown start ref ${request.startRef}`);
  const time = request.date ?? state.now();
  const author = signature(request.author ?? DEFAULT_AUTHOR, time);
  const committer = signature(request.committer ?? request.author ?? DEFAULT_AUTHOR, time);
  return commitTree(gitdir, { branch: request.branch, parent, message: request.message, author, committer, actions: request.actions });
}

// ---------------------------------------------------------------------------
// The seed section and the area's lifecycle (the area declares them in index.ts)

/**
 * `repositories: { "<project full path>": <description> }` (its schema in seed.ts).
 * A project the section does not describe gets a generated repository: one
 * commit adding `README.md` on the default branch, its other branches and
 * its tags pointing there; a project seeded with `commitSha: null` stays
 * empty. The SHAs are known once the emulator starts (`attachRepositories`).
 */
export function applyRepositoriesSeed(state: EmulatorState, section: z.infer<typeof repositoriesSeedSchema> | undefined): void {
  const { seeds } = repositoryStore.of(state);
  const described = section ?? {};
  for (const [fullPath, value] of Object.entries(described)) {
    const project = state.projectByFullPath(fullPath);
    if (!project) throw new SeedError(`repositories["${fullPath}"]: unknown project ${fullPath}`);
    seeds[String(project.id)] = value;
  }
  for (const project of state.projects) {
    if (!seeds[String(project.id)] && project.lastCommitSha !== null) seeds[String(project.id)] = generatedSeed(project);
    const seed = seeds[String(project.id)];
    // Built already (the server builds before seeding): the real refs now, before other areas' seeds read them.
    const snapshot = seed ? snapshots.get(buildKey(seed, project)) : undefined;
    if (snapshot) applyRefSnapshot(project, snapshot);
  }
}

function generatedSeed(project: Project): RepositorySeed {
  const otherBranches = (project.branches ?? []).filter((branch) => branch !== project.defaultBranch);
  const tags = project.tags ?? (project.latestTag ? [project.latestTag] : []);
  return {
    files: { "README.md": `# ${project.name}\n\n${project.description}\n` },
    branches: Object.fromEntries(otherBranches.map((branch) => [branch, project.defaultBranch])),
    tags: tags.map((name) => ({ name })),
  };
}
