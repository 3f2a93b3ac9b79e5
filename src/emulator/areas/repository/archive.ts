/**
 * Repository archives, streamed: the commit's files are read one blob at a
 * time from the git objects and fed through the archiver (tar-stream, then
 * zlib or bzip2; yazl for zip) to the response, waiting for the consumer, so
 * memory holds one blob and the archiver's buffers, never the archive.
 *
 * As real servers build an archive: the archive formats a client may ask for map to four kinds (bz2, tb2,
 * tbz, tbz2 and tar.bz2 are tar.bz2); every entry sits under the top-level
 * directory `<prefix>/` (`git archive --prefix`), with `path` (a directory
 * or a file) kept as the entries' own path and the directories above it; `exclude_paths` leaves out a path and everything below
 * it; LFS pointers become their object's content when it is stored and
 * `include_lfs_blobs` is true. Entries carry the commit's time, files mode
 * 0664 (0775 when executable) and directories 0775, as `git archive` writes
 * them. bzip2 is the system's `bzip2`, which gitaly also runs.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { Duplex, PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import * as git from "isomorphic-git";
import * as tar from "tar-stream";
import * as yazl from "yazl";
import { lfsObjectPath } from "./seed";

export type ArchiveKind = "tar" | "tar.gz" | "tar.bz2" | "zip";

const KINDS: Record<string, ArchiveKind> = {
  "tar.gz": "tar.gz",
  tgz: "tar.gz",
  gz: "tar.gz",
  tar: "tar",
  zip: "zip",
  "tar.bz2": "tar.bz2",
  bz2: "tar.bz2",
  tb2: "tar.bz2",
  tbz: "tar.bz2",
  tbz2: "tar.bz2",
};

/** The kind of archive a format suffix asks for; undefined for none of the table's. */
export const archiveKindOf = (format: string): ArchiveKind | undefined => KINDS[format];

export interface ArchiveEntry {
  /** Path inside the repository. */
  path: string;
  type: "file" | "directory" | "symlink";
  mode: string;
  oid: string;
}

export interface ArchiveRequest {
  gitdir: string;
  /** The commit's tree. */
  treeOid: string;
  /** Only this file or directory, with the directories above it (`git archive <commit> -- <path>`); "" for everything. */
  path: string;
  kind: ArchiveKind;
  prefix: string;
  excludePaths: readonly string[];
  includeLfsBlobs: boolean;
  /** Commit time (seconds). */
  time: number;
}

const within = (path: string, top: string): boolean => top === "" || path === top || path.startsWith(`${top}/`);
const excluded = (path: string, excludes: readonly string[]): boolean => excludes.some((ex) => within(path, ex));

/**
 * Every entry below a tree, directories before their contents (git's
 * order): with `only`, the entries at or below that path and the directories
 * above it; excluded paths left out.
 */
export async function* walkTree(gitdir: string, treeOid: string, basePath: string, excludes: readonly string[], only = ""): AsyncGenerator<ArchiveEntry> {
  const { tree } = await git.readTree({ fs, gitdir, oid: treeOid });
  for (const entry of tree) {
    const path = basePath === "" ? entry.path : `${basePath}/${entry.path}`;
    const above = only.startsWith(`${path}/`);
    if (excluded(path, excludes) || !(within(path, only) || (above && entry.type === "tree"))) continue;
    if (entry.type === "tree") {
      yield { path, type: "directory", mode: entry.mode, oid: entry.oid };
      yield* walkTree(gitdir, entry.oid, path, excludes, only);
    } else if (entry.type === "blob") {
      yield { path, type: entry.mode === "120000" ? "symlink" : "file", mode: entry.mode, oid: entry.oid };
    }
    // Submodules (type "commit") have no content in an archive, as with `git archive`.
  }
}

const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:([0-9a-f]{64})\nsize (\d+)\n$/;

/** The LFS object a pointer blob stands for, when its content is stored. */
export function lfsObjectOf(gitdir: string, content: Uint8Array): string | undefined {
  if (content.length > 200) return undefined;
  const match = LFS_POINTER.exec(Buffer.from(content).toString("utf8"));
  const path = match ? lfsObjectPath(gitdir, match[1]!) : undefined;
  return path !== undefined && fs.existsSync(path) ? path : undefined;
}

async function fileContent(request: ArchiveRequest, oid: string): Promise<Buffer> {
  const { blob } = await git.readBlob({ fs, gitdir: request.gitdir, oid });
  const lfs = request.includeLfsBlobs ? lfsObjectOf(request.gitdir, blob) : undefined;
  return lfs ? fs.readFileSync(lfs) : Buffer.from(blob);
}

const fileMode = (mode: string): number => (mode === "100755" ? 0o775 : 0o664);

/** Writes the tar entries, waiting for each to be taken before reading the next blob. */
async function fillTar(pack: tar.Pack, request: ArchiveRequest): Promise<void> {
  const mtime = new Date(request.time * 1000);
  const add = (header: Parameters<tar.Pack["entry"]>[0], content?: Buffer): Promise<void> =>
    new Promise((resolve, reject) => pack.entry(header, content ?? Buffer.alloc(0), (error) => (error ? reject(error) : resolve())));
  await add({ name: `${request.prefix}/`, type: "directory", mode: 0o775, mtime });
  for await (const entry of walkTree(request.gitdir, request.treeOid, "", request.excludePaths, request.path)) {
    const name = `${request.prefix}/${entry.path}`;
    if (entry.type === "directory") await add({ name: `${name}/`, type: "directory", mode: 0o775, mtime });
    else if (entry.type === "symlink") {
      const { blob } = await git.readBlob({ fs, gitdir: request.gitdir, oid: entry.oid });
      await add({ name, type: "symlink", linkname: Buffer.from(blob).toString("utf8"), mode: 0o777, mtime });
    } else await add({ name, type: "file", mode: fileMode(entry.mode), mtime }, await fileContent(request, entry.oid));
  }
  pack.finalize();
}

/** The system's bzip2 as a transform stream. */
function bzip2(): Duplex {
  const child = spawn("bzip2", ["-c"], { stdio: ["pipe", "pipe", "ignore"] });
  const duplex = Duplex.from({ writable: child.stdin, readable: child.stdout });
  // No bzip2 on the machine (ENOENT) fails this download, not the emulator.
  child.on("error", (error) => duplex.destroy(error));
  duplex.on("close", () => child.kill());
  return duplex;
}

function tarArchive(request: ArchiveRequest): Readable {
  const pack = tar.pack();
  const out = new PassThrough();
  fillTar(pack, request).catch((error: unknown) => pack.destroy(error as Error));
  const stages: NodeJS.ReadWriteStream[] = request.kind === "tar.gz" ? [createGzip()] : request.kind === "tar.bz2" ? [bzip2()] : [];
  const streams: NodeJS.ReadWriteStream[] = [...stages, out];
  pipeline(pack as unknown as NodeJS.ReadableStream, ...(streams as [NodeJS.ReadWriteStream])).catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** yazl reads each file only when it reaches it (`addReadStreamLazy`), so blobs are loaded one at a time. */
async function zipArchive(request: ArchiveRequest): Promise<Readable> {
  const zip = new yazl.ZipFile();
  const mtime = new Date(request.time * 1000);
  zip.addEmptyDirectory(`${request.prefix}/`, { mtime, mode: 0o40775 });
  for await (const entry of walkTree(request.gitdir, request.treeOid, "", request.excludePaths, request.path)) {
    const name = `${request.prefix}/${entry.path}`;
    if (entry.type === "directory") {
      zip.addEmptyDirectory(`${name}/`, { mtime, mode: 0o40775 });
      continue;
    }
    const mode = entry.type === "symlink" ? 0o120777 : 0o100000 | fileMode(entry.mode);
    zip.addReadStreamLazy(name, { mtime, mode }, (callback) => {
      fileContent(request, entry.oid).then(
        (content) => callback(null, Readable.from([content])),
        (error: unknown) => callback(error as Error, undefined as unknown as Readable),
      );
    });
  }
  zip.end();
  return zip.outputStream as Readable;
}

/** The archive as a stream of bytes. */
export async function archiveStream(request: ArchiveRequest): Promise<Readable> {
  return request.kind === "zip" ? zipArchive(request) : tarArchive(request);
}
