/**
 * Repository content (with the tree's keyset pages and the blob and archive
 * rate limits): the tree, blobs and archives of a
 * project's real git repository (./model.ts), and the area's
 * `repositories` seed section (./seed.ts).
 *
 * Where the specification is silent, as real servers answer:
 * - Access: the project as `find_project!` (404 for those who may not see
 *   it), then `authorize! :download_code`: members below Reporter of a
 *   private or internal project get 403; public repositories need no token.
 * - Tree: `ref` (branch, tag or sha; default the default branch) and `path`
 *   resolved as Gitaly does; an unknown ref or a missing path is 404
 *   `{"message":"404 Tree Not Found"}`. Entries `{id, name, type, path, mode}`
 *   in git's order (`ls-tree [-r -t]`: with `recursive`, every entry below, a
 *   directory before its contents), sorted as Gitaly's `TREES_FIRST` when
 *   paginated (trees, then blobs, then submodules, each in git's order). The
 *   real server sorts only the first offset page and keyset pages (later
 *   offset pages come unsorted from a full listing); the emulator sorts every
 *   page, so pages never overlap. Offset pagination as every list; `pagination=keyset` pages
 *   with `page_token` (the id of the last entry seen) and answers only
 *   `Link: <...page_token=...>; rel="next"`, absent on the last page (a
 *   `page_token` that is no entry's id: 400). `pagination=none` (recursive
 *   only, else 400 `pagination cannot be "none" unless "recursive" is true`)
 *   answers every entry at once, without pagination headers.
 * - Blobs: `sha` is an object id (full or abbreviated); anything but a blob
 *   is 404 `{"message":"404 Blob Not Found"}`. JSON `{size, encoding:
 *   "base64", content, sha}`; raw: the bytes, `Content-Disposition: inline`,
 *   `text/plain; charset=utf-8` for text, an image's own type, else
 *   `application/octet-stream`, as the raw file download sends them.
 * - Blobs over 10 MB: 5 fetches a minute per project and user, then
 *   429 `{"message":{"error":"This endpoint has been requested too many
 *   times. Try again later."}}`.
 * - Archive: `archive` or `archive.<format>` (formats of the table; others
 *   are no route, 404). Top-level directory and file name
 *   `<project path>-<ref>-<sha>[-<path>]` (`append_sha: true`, `/` in ref and
 *   path as `-`), `Content-Disposition: attachment; filename="<name>.<ext>"`
 *   with the extension normalised (bz2, tb2, tbz, tbz2 → tar.bz2),
 *   `Content-Type: application/zip` for zip, else `application/octet-stream`,
 *   streamed. Unknown `sha` or a missing `path`: 404 `{"message":"404 File
 *   Not Found"}`. On the hosted offering, 5 downloads a minute per project
 *   and user, then 429 `{"message":{"error":"This archive has been requested
 *   too many times. Try again later."}}`.
 */
import * as fs from "node:fs";
import * as git from "isomorphic-git";
import { ApiError, forbidden, notFound, paramError, routeNotFound } from "../../errors";
import { findProject } from "../../lookup";
import { isKeysetRequest, pageUrl, readPerPage } from "../../pagination";
import { canReadCode } from "./access";
import { archiveKindOf, archiveStream } from "./archive";
import { staysInRepository, trimSlashes } from "./paths";
import {
  repositoryOf,
  type ProjectRepository,
} from "./model";
import { ok, paginate, route, type ApiResponse, type RequestContext, type RouteDefinition } from "../../router";
import type { EmulatorState, Project } from "../../state";

// ---------------------------------------------------------------------------
// Access and limits

/**
 * `find_project!` then `authorize! :download_code`: public code for anyone,
 * internal for every signed-in user, private for Reporters and above.
 */
export async function readableRepository(ctx: RequestContext<unknown>): Promise<{ project: Project; repo: ProjectRepository }> {
  const project = findProject(ctx);
  if (!canReadCode(ctx.state, ctx.user, project)) throw forbidden();
  return { project, repo: await repositoryOf(ctx.state, project) };
}

const LARGE_BLOB_BYTES = 10 * 1024 * 1024;
const LIMIT_PER_MINUTE = 5;
/** Gitlab::ApplicationRateLimiter's fixed one-minute windows, in memory (they need not survive a restart). */
const limiterWindows = new WeakMap<EmulatorState, Map<string, { window: number; count: number }>>();

export function overRateLimit(state: EmulatorState, key: string): boolean {
  let windows = limiterWindows.get(state);
  if (!windows) limiterWindows.set(state, (windows = new Map()));
  const window = Math.floor(state.clock() / 60_000);
  const seen = windows.get(key);
  const count = seen && seen.window === window ? seen.count + 1 : 1;
  windows.set(key, { window, count });
  return count > LIMIT_PER_MINUTE;
}

export const limiterKey = (ctx: RequestContext<unknown>, name: string, project: Project): string =>
  `${name}:${project.id}:${ctx.user ? `user:${ctx.user.id}` : "anonymous"}`;

// ---------------------------------------------------------------------------
// Tree

/**
 * The tree's `path`: Gitaly refuses one that climbs out of the repository, and
 * the endpoint answers that error as `not_found!(message)`.
 */
function treePathOf(raw: string | undefined): string {
  const path = trimSlashes(raw ?? "");
  if (!staysInRepository(path)) throw notFound("Path cannot include traversal syntax");
  return path;
}

interface TreeEntry {
  id: string;
  name: string;
  type: "tree" | "blob" | "commit";
  path: string;
  mode: string;
}

const TYPE_ORDER: Record<TreeEntry["type"], number> = { tree: 0, blob: 1, commit: 2 };
/** Gitaly's `TREES_FIRST` sort: a stable sort by type, so git's order stays within each type. */
const treesFirst = (entries: readonly TreeEntry[]): TreeEntry[] => [...entries].sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type]);
const treeNotFound = (): ApiError => notFound("Tree");

/** The tree object at `path` in a commit; undefined when the path is missing or is not a directory. */
async function treeAt(repo: ProjectRepository, commitSha: string, path: string): Promise<string | undefined> {
  const { commit } = await repo.readCommit(commitSha);
  try {
    const { oid, tree } = await git.readTree({ fs, gitdir: repo.gitdir, oid: commit.tree, filepath: path === "" ? undefined : path });
    return tree ? oid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Listings by tree object id: a tree never changes, and a client paging
 * through 10,000 entries would otherwise have every tree read again for each
 * page. The few most recent listings are kept.
 */
const listings = new Map<string, TreeEntry[]>();
const LISTINGS_KEPT = 8;

async function cachedListing(repo: ProjectRepository, treeOid: string, basePath: string, recursive: boolean): Promise<TreeEntry[]> {
  const key = `${repo.gitdir}\n${treeOid}\n${basePath}\n${recursive}`;
  const cached = listings.get(key);
  if (cached) {
    listings.delete(key);
    listings.set(key, cached);
    return cached;
  }
  const entries = await listTree(repo, treeOid, basePath, recursive);
  listings.set(key, entries);
  if (listings.size > LISTINGS_KEPT) listings.delete(listings.keys().next().value!);
  return entries;
}

async function listTree(repo: ProjectRepository, treeOid: string, basePath: string, recursive: boolean): Promise<TreeEntry[]> {
  const { tree } = await git.readTree({ fs, gitdir: repo.gitdir, oid: treeOid });
  const here: TreeEntry[] = tree.map((entry) => ({
    id: entry.oid,
    name: entry.path,
    type: entry.type,
    path: basePath === "" ? entry.path : `${basePath}/${entry.path}`,
    mode: entry.mode,
  }));
  if (!recursive) return here;
  const all: TreeEntry[] = [];
  for (const entry of here) {
    all.push(entry);
    if (entry.type === "tree") all.push(...(await listTree(repo, entry.id, entry.path, true)));
  }
  return all;
}

/** GitalyKeysetPager: the page after the entry whose id is `page_token`, and a next link while more remain. */
function keysetTreePage(ctx: RequestContext<unknown>, entries: TreeEntry[]): ApiResponse {
  const perPage = readPerPage(ctx.rawParams);
  const token = ctx.rawParams["page_token"];
  let start = 0;
  if (typeof token === "string" && token !== "") {
    const index = entries.findIndex((entry) => entry.id === token);
    if (index === -1) throw paramError("page_token is invalid");
    start = index + 1;
  }
  const page = entries.slice(start, start + perPage);
  const last = page[page.length - 1];
  const headers: Record<string, string> = {};
  if (last && start + perPage < entries.length) {
    headers["Link"] = `<${pageUrl(ctx.url, { page_token: last.id }, ["page"])}>; rel="next"`;
  }
  return ok(page, headers);
}

const treeParams = {
  id: { type: "string", required: true },
  path: { type: "string" },
  ref: { type: "string" },
  recursive: { type: "boolean" },
  page_token: { type: "string" },
  pagination: { type: "string", values: ["legacy", "keyset", "none"] },
} as const;

const treeRoute = route("GET", "/projects/:id/repository/tree", { params: treeParams, paginated: true }, async (ctx) => {
  const recursive = ctx.params.recursive ?? false;
  if (ctx.params.pagination === "none" && !recursive) throw paramError('pagination cannot be "none" unless "recursive" is true');
  const { project, repo } = await readableRepository(ctx);
  // An empty ref is no ref (`params[:ref].presence`): the default branch.
  const sha = await repo.resolveRef(ctx.params.ref || project.defaultBranch);
  if (!sha) throw treeNotFound();
  const path = treePathOf(ctx.params.path);
  const treeOid = await treeAt(repo, sha, path);
  if (!treeOid) throw treeNotFound();
  const entries = await cachedListing(repo, treeOid, path, recursive);
  // Unpaginated, Gitaly lists in git's order; paginated (keyset, and the first offset page) it sorts trees first.
  if (ctx.params.pagination === "none") return ok(entries);
  const sorted = treesFirst(entries);
  return isKeysetRequest(ctx.rawParams) ? keysetTreePage(ctx, sorted) : paginate(ctx, sorted);
});

// ---------------------------------------------------------------------------
// Blobs

const blobNotFound = (): ApiError => notFound("Blob");
const SHA_PREFIX = /^[0-9a-f]{4,40}$/i;

async function readBlobBySha(ctx: RequestContext<unknown>, sha: string): Promise<{ oid: string; blob: Buffer; project: Project }> {
  const { project, repo } = await readableRepository(ctx);
  if (!SHA_PREFIX.test(sha)) throw blobNotFound();
  let oid: string;
  let blob: Uint8Array;
  try {
    oid = sha.length === 40 ? sha.toLowerCase() : await git.expandOid({ fs, gitdir: repo.gitdir, oid: sha.toLowerCase() });
    ({ blob } = await git.readBlob({ fs, gitdir: repo.gitdir, oid }));
  } catch {
    throw blobNotFound();
  }
  if (blob.length > LARGE_BLOB_BYTES && overRateLimit(ctx.state, limiterKey(ctx, "large_blob_download", project))) {
    throw new ApiError(429, { message: { error: "This endpoint has been requested too many times. Try again later." } });
  }
  return { oid, blob: Buffer.from(blob), project };
}

const blobParams = { id: { type: "string", required: true }, sha: { type: "string", required: true } } as const;

const blobRoute = route("GET", "/projects/:id/repository/blobs/:sha", { params: blobParams }, async (ctx) => {
  const { oid, blob } = await readBlobBySha(ctx, ctx.params.sha);
  return ok({ size: blob.length, encoding: "base64", content: blob.toString("base64"), sha: oid });
});

/**
 * Images (and PDF) keep their own type, other binary content is
 * `application/octet-stream`, text is `text/plain; charset=utf-8`, as the raw
 * controller's `get_blob_type` and workhorse's detection answer.
 */
const SNIFFED: [RegExp, string][] = [
  [/^\x89PNG\r\n\x1a\n/, "image/png"],
  [/^\xff\xd8\xff/, "image/jpeg"],
  [/^GIF8[79]a/, "image/gif"],
  [/^%PDF-/, "application/pdf"],
];

/** Text unless it has a NUL byte or is not UTF-8 (git's and linguist's binary test, roughly). */
function rawContentType(blob: Buffer): string {
  const head = blob.subarray(0, 8000).toString("latin1");
  for (const [magic, type] of SNIFFED) if (magic.test(head)) return type;
  const binary = blob.subarray(0, 8000).includes(0) || !isUtf8(blob);
  return binary ? "application/octet-stream" : "text/plain; charset=utf-8";
}

function isUtf8(blob: Buffer): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(blob);
    return true;
  } catch {
    return false;
  }
}

const rawBlobRoute = route("GET", "/projects/:id/repository/blobs/:sha/raw", { params: blobParams }, async (ctx) => {
  const { blob } = await readBlobBySha(ctx, ctx.params.sha);
  return { status: 200, body: blob, headers: { "Content-Type": rawContentType(blob), "Content-Disposition": "inline", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache" } };
});

// ---------------------------------------------------------------------------
// Archive

const fileNotFound = (): ApiError => notFound("File");
const EXTENSIONS = { tar: "tar", "tar.gz": "tar.gz", "tar.bz2": "tar.bz2", zip: "zip" } as const;

const archiveParams = {
  id: { type: "string", required: true },
  archive_file: { type: "string", required: true },
  sha: { type: "string" },
  path: { type: "string" },
  exclude_paths: { type: "string" },
  include_lfs_blobs: { type: "boolean" },
} as const;

/** Whether a file or directory is at `path` in a tree ("" is the root). */
async function pathExists(repo: ProjectRepository, treeOid: string, path: string): Promise<boolean> {
  if (path === "") return true;
  const slash = path.lastIndexOf("/");
  try {
    const { tree } = await git.readTree({ fs, gitdir: repo.gitdir, oid: treeOid, filepath: slash === -1 ? undefined : path.slice(0, slash) });
    return tree.some((entry) => entry.path === path.slice(slash + 1));
  } catch {
    return false;
  }
}

/** `archive_prefix(ref, sha, project_path, append_sha: true, path:)`. */
function archivePrefix(project: Project, ref: string, sha: string, path: string): string {
  const segments = [project.path, ref.replaceAll("/", "-"), sha];
  if (path !== "") segments.push(path.replaceAll("/", "-"));
  return segments.join("-");
}

const archiveRoute = route("GET", "/projects/:id/repository/:archive_file", { params: archiveParams }, async (ctx) => {
  const format = /^archive(?:\.(.+))?$/.exec(ctx.params.archive_file);
  const kind = format ? archiveKindOf(format[1] ?? "tar.gz") : undefined;
  if (!kind) throw routeNotFound();
  const { project, repo } = await readableRepository(ctx);
  if (ctx.state.instance.offering === "hosted" && overRateLimit(ctx.state, limiterKey(ctx, "project_repositories_archive", project))) {
    throw new ApiError(429, { message: { error: "This archive has been requested too many times. Try again later." } });
  }
  const ref = ctx.params.sha || project.defaultBranch;
  const sha = await repo.resolveRef(ref);
  if (!sha) throw fileNotFound();
  const path = trimSlashes(ctx.params.path ?? "");
  const excludePaths = (ctx.params.exclude_paths ?? "").split(",").map((p) => trimSlashes(p.trim())).filter((p) => p !== "");
  // Any failure of the archive is `not_found!('File')`: a path out of the repository too.
  if (![path, ...excludePaths].every(staysInRepository)) throw fileNotFound();
  const { commit } = await repo.readCommit(sha);
  if (!(await pathExists(repo, commit.tree, path))) throw fileNotFound();
  const prefix = archivePrefix(project, ref, sha, path);
  const body = await archiveStream({
    gitdir: repo.gitdir,
    treeOid: commit.tree,
    path,
    kind,
    prefix,
    excludePaths,
    includeLfsBlobs: ctx.params.include_lfs_blobs ?? true,
    time: commit.committer.timestamp,
  });
  return {
    status: 200,
    body,
    headers: {
      "Content-Type": kind === "zip" ? "application/zip" : "application/octet-stream",
      "Content-Disposition": `attachment; filename="${prefix}.${EXTENSIONS[kind]}"`,
      "Content-Transfer-Encoding": "binary",
    },
  };
});

// ---------------------------------------------------------------------------
// The module

export const repositoryContentRoutes: readonly RouteDefinition[] = [treeRoute, blobRoute, rawBlobRoute, archiveRoute];
