/**
 * Repository content: a project's tree,
 * blobs, archives, comparisons, contributors, merge bases and changelog notes,
 * read from its git repository. Every endpoint here also answers anonymous
 * callers on public projects; a private project is "not found" to a non-member.
 *
 * Where the specification is silent, as real servers answer: the tree's keyset pages (`pagination=keyset`, the
 * next page's `page_token` in the `Link` header), the archive formats, `refs[]`
 * for the merge base, and the changelog's `{ notes }`.
 */
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { z } from "zod";
import { apiPath } from "../client";
import { ExplainedError } from "../engine/errors";
import { ownerReference } from "../api/owner";
import {
  changelogArgs,
  changelogParameters,
  changelogPath,
  changelogSubject,
  ref,
  repositoryOf,
  repositoryPath,
} from "../api/repository";
import { defineComposedFunction, defineListFunction, defineObjectFunction, projectNeeds, type Camelized, type SavedFile } from "./core";

// ---------------------------------------------------------------------------
// Shapes (snake_case, as the API sends them)

const treeEntryShape = z.looseObject({
  /** The object's hash (a blob's is what `getRepositoryBlob` takes as `sha`). */
  id: z.string(),
  name: z.string(),
  /** `blob` (a file), `tree` (a directory) or `commit` (a submodule). */
  type: z.string(),
  path: z.string(),
  /** Git's file mode: `100644`, `100755`, `040000`, `120000`. */
  mode: z.string(),
});

const blobShape = z.looseObject({
  /** The bytes, Base64-encoded. */
  content: z.string(),
  /** `base64`. */
  encoding: z.string(),
  sha: z.string(),
  /** Bytes. */
  size: z.number(),
});

const commitSummaryShape = z.looseObject({
  id: z.string(),
  short_id: z.string(),
  title: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  created_at: z.string(),
});

const commitShape = commitSummaryShape.extend({
  message: z.string(),
  authored_date: z.string().nullish(),
  committed_date: z.string().nullish(),
  parent_ids: z.array(z.string()),
  committer_name: z.string().nullish(),
  committer_email: z.string().nullish(),
  /** The commit's git trailers (`Changelog: added`), keys as written. */
  trailers: z.record(z.string(), z.string()).nullish(),
  /** Every value of every trailer. */
  extended_trailers: z.record(z.string(), z.array(z.string())).nullish(),
  web_url: z.string().nullish(),
});

const diffShape = z.looseObject({
  old_path: z.string(),
  new_path: z.string(),
  a_mode: z.string().nullable(),
  b_mode: z.string().nullable(),
  /** Empty when a diff limit was reached (`collapsed` or `tooLarge`). */
  diff: z.string(),
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
  /** Left out by the limits but fetchable one by one. */
  collapsed: z.boolean().nullish(),
  /** Left out and not fetchable. */
  too_large: z.boolean().nullish(),
});

const comparisonShape = z.looseObject({
  /** The newest commit of the range; null when there is none. */
  commit: commitSummaryShape.nullable(),
  commits: z.array(commitSummaryShape),
  diffs: z.array(diffShape),
  compare_timeout: z.boolean().nullish(),
  /** `from` and `to` named the same commit. */
  compare_same_ref: z.boolean().nullish(),
  web_url: z.string().nullish(),
});

const contributorShape = z.looseObject({
  name: z.string(),
  email: z.string(),
  /** Merge commits are not counted. */
  commits: z.number(),
  additions: z.number(),
  deletions: z.number(),
});

const changelogShape = z.looseObject({
  /** Markdown: a heading for the version, then sections by trailer value. */
  notes: z.string(),
});

export type RepositoryTreeEntry = Camelized<z.output<typeof treeEntryShape>>;
export type RepositoryCommit = Camelized<z.output<typeof commitShape>>;
export type RepositoryComparison = Camelized<z.output<typeof comparisonShape>>;
export type RepositoryContributor = Camelized<z.output<typeof contributorShape>>;
export type RepositoryChangelog = Camelized<z.output<typeof changelogShape>>;

/**
 * A blob as `getRepositoryBlob` gives it: the API's fields (`content` stays
 * Base64, the one form of bytes that a Pulumi Output, a resource input and the
 * state all carry unchanged; `Buffer.from(content, "base64")` gives a Buffer),
 * plus `text`, the bytes read as UTF-8 (null when they are not valid UTF-8).
 */
export type RepositoryBlob = Camelized<z.output<typeof blobShape>> & { text: string | null; path?: string };

/** An archive saved by `getRepositoryArchive`. */
export interface RepositoryArchive extends SavedFile {
  /** The format asked for (`tar.gz` by default). */
  format: ArchiveFormat;
}

// ---------------------------------------------------------------------------
// Arguments

const project = ownerReference;
const flag = z.boolean().optional();

const ARCHIVE_FORMATS = ["tar.gz", "tar.bz2", "tar", "zip", "bz2", "tb2", "tbz", "tbz2"] as const;
export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number];

/** `authorize! :download_code`: a private or internal project's repository is for its Reporters and above. */
const repositoryRefusals = {
  403: () => "That is for a private or internal project: its Guests cannot read its code.",
};
const repositoryNeeds = projectNeeds("Reporter");
const atRef = (reference: string | undefined) => (reference === undefined ? "" : ` at ${reference}`);

// ---------------------------------------------------------------------------
// Tree

const repositoryTree = defineListFunction({
  name: "getRepositoryTree",
  args: z.object({
    /** The project (id or full path). */
    project,
    /** A directory inside the repository (default: its root). */
    path: repositoryPath.optional(),
    /** A branch, tag or commit (default: the default branch). */
    ref: ref.optional(),
    /** Every entry below `path`, not only its direct children. */
    recursive: flag,
  }),
  path: (args) => apiPath`/projects/${args.project}/repository/tree`,
  // Keyset pages (the next page's token in the Link header): offset pages of a large tree are slow and deprecated.
  query: (args) => ({ path: args.path, ref: args.ref, recursive: args.recursive, pagination: "keyset" }),
  subject: (args) => `${args.path === undefined ? "the tree" : `directory ${args.path}`} of ${repositoryOf(args)}${atRef(args.ref)}`,
  refusals: repositoryRefusals,
  needs: repositoryNeeds,
  item: treeEntryShape,
});

/**
 * The entries of a repository directory (files, directories, submodules), every page.
 *
 * ```ts
 * const manifests = await getRepositoryTree({ project: "acme/web", path: "deploy", ref: "main", recursive: true });
 * ```
 */
export const getRepositoryTree = repositoryTree;
/** `getRepositoryTree` as an Output. */
export const getRepositoryTreeOutput = repositoryTree.output;

// ---------------------------------------------------------------------------
// Blob

const repositoryBlob = defineComposedFunction({
  name: "getRepositoryBlob",
  args: z.object({
    project,
    /** The blob's SHA (a tree entry's `id`); set this or `path`. */
    sha: z.string().regex(/^[0-9a-f]{4,64}$/i, { message: "must be a blob SHA (hexadecimal)" }).optional(),
    /** A file's path: its blob is found in its directory's tree at `ref`; set this or `sha`. */
    path: repositoryPath.optional(),
    /** With `path`: a branch, tag or commit (default: the default branch). */
    ref: ref.optional(),
  }),
  validate(args) {
    if ((args.sha === undefined) === (args.path === undefined)) return [{ argument: "sha", reason: "sha: set exactly one of sha and path" }];
    if (args.ref !== undefined && args.path === undefined) return [{ argument: "ref", reason: "ref: only with path (a SHA names one blob whatever the ref)" }];
    return [];
  },
  subject: (args) => (args.sha !== undefined ? `blob ${args.sha} of ${repositoryOf(args)}` : `file ${args.path} of ${repositoryOf(args)}${atRef(args.ref)}`),
  refusals: repositoryRefusals,
  needs: repositoryNeeds,
  async run(read, args): Promise<RepositoryBlob> {
    let sha = args.sha;
    if (sha === undefined) {
      // No files endpoint is used, only the tree and blobs: the file's entry in its directory's tree gives its blob.
      const directory = posix.dirname(args.path!);
      const entries = await read.list(apiPath`/projects/${args.project}/repository/tree`, { path: directory === "." ? undefined : directory, ref: args.ref, pagination: "keyset" }, treeEntryShape);
      const entry = entries.find((candidate) => candidate.path === args.path);
      if (!entry || entry.type !== "blob") {
        throw new ExplainedError(
          `getRepositoryBlob: could not read file ${args.path} of ${repositoryOf(args)}${atRef(args.ref)}: ` +
            (entry ? `it is a ${entry.type === "tree" ? "directory" : entry.type}, not a file.` : `it does not exist: its directory holds no such entry. Check the path and the ref.`),
        );
      }
      sha = entry.id;
    }
    const blob = await read.object(apiPath`/projects/${args.project}/repository/blobs/${sha}`, undefined, blobShape);
    return { ...blob, text: utf8Text(blob.content, blob.encoding), ...(args.path !== undefined ? { path: args.path } : {}) };
  },
});

/** The bytes as UTF-8 text, or null when they are not valid UTF-8 (a binary file). */
function utf8Text(content: string, encoding: string): string | null {
  const bytes = encoding === "base64" ? Buffer.from(content, "base64") : Buffer.from(content, "utf8");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * One file's content, by blob SHA or by path (and ref): `text` decoded as
 * UTF-8, `content` the bytes in Base64, `size` and `sha`.
 *
 * ```ts
 * const config = await getRepositoryBlob({ project: "acme/web", path: "deploy/schedule.json", ref: "main" });
 * const schedule = JSON.parse(config.text!);
 * ```
 */
export const getRepositoryBlob = repositoryBlob;
/** `getRepositoryBlob` as an Output. */
export const getRepositoryBlobOutput = repositoryBlob.output;

// ---------------------------------------------------------------------------
// Archive

/** The most bytes of an archive read when the call does not say: beyond a repository's usual size, short of a full disk. */
const DEFAULT_ARCHIVE_MAX_BYTES = 4 * 1024 ** 3;

const repositoryArchive = defineComposedFunction({
  name: "getRepositoryArchive",
  args: z.object({
    project,
    /** `tar.gz` (default), `tar.bz2`, `tar`, `zip`, `bz2`, `tb2`, `tbz`, `tbz2`. */
    format: z.enum(ARCHIVE_FORMATS).default("tar.gz"),
    /** A commit SHA, tag or branch (default: the tip of the default branch). */
    sha: ref.optional(),
    /** Only this subdirectory. */
    path: repositoryPath.optional(),
    /** Paths left out of the archive. */
    excludePaths: z.array(repositoryPath).min(1).optional(),
    /** Include Git LFS objects' content (the API's default: true). */
    includeLfsBlobs: flag,
    /** The file to write (its directories are made); default: a name under the system's temporary directory derived from the arguments. */
    destination: z.string().min(1).optional(),
    /** The most bytes read of the archive (default 4 GiB): past it the download stops, no file is left, and the call fails naming the limit. */
    maxBytes: z.number().int().positive().default(DEFAULT_ARCHIVE_MAX_BYTES),
  }),
  subject: (args) => `the ${args.format} archive of ${repositoryOf(args)}${atRef(args.sha)}${args.path === undefined ? "" : ` (${args.path})`}`,
  refusals: repositoryRefusals,
  needs: repositoryNeeds,
  async run(read, args): Promise<RepositoryArchive> {
    const destination = args.destination ?? defaultArchivePath(args);
    const saved = await read.file(apiPath`/projects/${args.project}/repository/archive.` + args.format, {
      sha: args.sha,
      path: args.path,
      exclude_paths: args.excludePaths?.join(","),
      include_lfs_blobs: args.includeLfsBlobs,
    }, destination, { maxBytes: args.maxBytes, what: `the ${args.format} archive of ${repositoryOf(args)}` });
    return { ...saved, format: args.format };
  },
});

/**
 * The same arguments give the same file name (a program's preview and update
 * agree on it), e.g. `<tmp>/pulumi-platform/archives/acme-web-main-deploy.tar.gz`.
 */
function defaultArchivePath(args: { project: string | number; format: ArchiveFormat; sha?: string; path?: string; excludePaths?: string[] }): string {
  const parts = [String(args.project), args.sha ?? "HEAD", args.path, args.excludePaths?.length ? `without-${args.excludePaths.join("+")}` : undefined];
  const name = parts
    .filter((part): part is string => part !== undefined)
    .join("-")
    .replace(/[^A-Za-z0-9._+-]+/g, "-");
  return join(tmpdir(), "pulumi-platform", "archives", `${name}.${args.format}`);
}

/**
 * Downloads an archive of the repository to a local file, streamed to disk
 * and hashed on the way: its path, size, SHA-256 and format.
 *
 * ```ts
 * const archive = await getRepositoryArchive({ project: "acme/web", sha: "v1.4.0", format: "zip", destination: "build/web.zip" });
 * ```
 */
export const getRepositoryArchive = repositoryArchive;
/** `getRepositoryArchive` as an Output. */
export const getRepositoryArchiveOutput = repositoryArchive.output;

// ---------------------------------------------------------------------------
// Compare

const repositoryCompare = defineObjectFunction({
  name: "getRepositoryCompare",
  args: z.object({
    project,
    /** A commit SHA, branch or tag. */
    from: ref,
    /** A commit SHA, branch or tag. */
    to: ref,
    /** Compare with `from` taken from this project (a fork's upstream): its id. */
    fromProjectId: z.number().int().positive().optional(),
    /** true: `from..to` directly; false (default): from the merge base of the two. */
    straight: flag,
    /** Diffs in unified format. */
    unidiff: flag,
  }),
  path: (args) => apiPath`/projects/${args.project}/repository/compare`,
  query: (args) => ({ from: args.from, to: args.to, from_project_id: args.fromProjectId, straight: args.straight, unidiff: args.unidiff }),
  subject: (args) => `the comparison ${args.from}...${args.to} of ${repositoryOf(args)}`,
  refusals: repositoryRefusals,
  needs: repositoryNeeds,
  result: comparisonShape,
});

/**
 * The commits and diffs between two refs.
 *
 * ```ts
 * const { commits, diffs } = await getRepositoryCompare({ project: "acme/web", from: "v1.3.0", to: "v1.4.0" });
 * ```
 */
export const getRepositoryCompare = repositoryCompare;
/** `getRepositoryCompare` as an Output. */
export const getRepositoryCompareOutput = repositoryCompare.output;

// ---------------------------------------------------------------------------
// Contributors

const repositoryContributors = defineListFunction({
  name: "getRepositoryContributors",
  args: z.object({
    project,
    /** `name`, `email` or `commits` (default: commit date). */
    orderBy: z.enum(["name", "email", "commits"]).optional(),
    sort: z.enum(["asc", "desc"]).optional(),
    /** A branch, tag or commit (default: the default branch). */
    ref: ref.optional(),
  }),
  path: (args) => apiPath`/projects/${args.project}/repository/contributors`,
  query: (args) => ({ order_by: args.orderBy, sort: args.sort, ref: args.ref }),
  subject: (args) => `the contributors of ${repositoryOf(args)}${atRef(args.ref)}`,
  refusals: repositoryRefusals,
  needs: repositoryNeeds,
  item: contributorShape,
});

/**
 * Who committed, with commit (merge commits excluded), addition and deletion counts.
 *
 * ```ts
 * const top = await getRepositoryContributors({ project: "acme/web", orderBy: "commits", sort: "desc", limit: 3 });
 * ```
 */
export const getRepositoryContributors = repositoryContributors;
/** `getRepositoryContributors` as an Output. */
export const getRepositoryContributorsOutput = repositoryContributors.output;

// ---------------------------------------------------------------------------
// Merge base

const repositoryMergeBase = defineObjectFunction({
  name: "getRepositoryMergeBase",
  args: z.object({
    project,
    /** Two or more commit SHAs, branches or tags. */
    refs: z.array(ref).min(2, { message: "needs two or more refs" }),
  }),
  path: (args) => apiPath`/projects/${args.project}/repository/merge_base`,
  query: (args) => ({ refs: args.refs }),
  subject: (args) => `the merge base of ${args.refs.join(", ")} in ${repositoryOf(args)}`,
  refusals: repositoryRefusals,
  needs: repositoryNeeds,
  opaque: ["trailers", "extended_trailers"],
  result: commitShape,
});

/**
 * The common ancestor of two or more refs, as a commit.
 *
 * ```ts
 * const base = await getRepositoryMergeBase({ project: "acme/web", refs: ["main", "feature/login"] });
 * ```
 */
export const getRepositoryMergeBase = repositoryMergeBase;
/** `getRepositoryMergeBase` as an Output. */
export const getRepositoryMergeBaseOutput = repositoryMergeBase.output;

// ---------------------------------------------------------------------------
// Changelog


const repositoryChangelog = defineObjectFunction({
  name: "getRepositoryChangelog",
  args: z.object(changelogArgs),
  path: changelogPath,
  query: changelogParameters,
  subject: changelogSubject,
  refusals: repositoryRefusals,
  needs: repositoryNeeds,
  result: changelogShape,
});

/**
 * The release notes (Markdown) that the changelog endpoint generates from the
 * commits' trailers; nothing is committed.
 *
 * ```ts
 * const { notes } = await getRepositoryChangelog({ project: "acme/web", version: "1.5.0", from: "v1.4.0" });
 * ```
 */
export const getRepositoryChangelog = repositoryChangelog;
/** `getRepositoryChangelog` as an Output. */
export const getRepositoryChangelogOutput = repositoryChangelog.output;
