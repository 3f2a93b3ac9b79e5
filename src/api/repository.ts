/**
 * A project's repository, as the calls on it name it: the arguments that
 * name refs and paths in it, and the changelog's arguments, path, body and
 * needs, shared by `getRepositoryChangelog`, `commitChangelog` and the
 * ChangelogCommit resource.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { notDotSegments } from "../validation";
import { requestsOf } from "./core";
import { projectNeeds } from "./needs";
import { ownerReference } from "./owner";

const project = ownerReference;
/** A branch, a tag or a commit SHA. */
export const ref = z.string().min(1).refine(...notDotSegments);
/** A path inside the repository: relative, `/`-separated. */
export const repositoryPath = z
  .string()
  .min(1)
  .regex(/^(?!\/)(?!.*\/\/)(?!.*\/$)/, { message: "must be a path inside the repository (no leading, trailing or doubled /)" })
  .refine(...notDotSegments);

// GitLab's `unbounded_semver_regex`: MAJOR.MINOR.PATCH, an optional pre-release and build; a leading `v` is tolerated as tags are often named so.
const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** The repository in messages: `the repository of project acme/web`. */
export const repositoryOf = (args: { project: string | number }) => `the repository of project ${args.project}`;

/** A branch or a tag as its get-one answers it (the fields read here; the rest passes through). */
export const namedRefRequests = requestsOf(z.looseObject({ name: z.string() }));
/** `/projects/acme%2Fweb/repository/branches/feature%2Fx`. */
export const branchPath = (project: string | number, name: string) => apiPath`/projects/${project}/repository/branches/${name}`;
/** `/projects/acme%2Fweb/repository/tags/v1.0`. */
export const tagPath = (project: string | number, name: string) => apiPath`/projects/${project}/repository/tags/${name}`;

// ---------------------------------------------------------------------------
// Changelog

/** The arguments of a changelog's generation: read by `getRepositoryChangelog`, committed by `commitChangelog`. */
export const changelogArgs = {
  project,
  /** The version the notes are for: a semantic version (`1.4.0`). */
  version: z.string().regex(SEMVER, { message: "must be a semantic version (1.4.0)" }),
  /** The commit after which the notes start (excluded); default: the previous version's tag. */
  from: ref.optional(),
  /** The last commit of the notes (included); default: the head of the default branch. */
  to: ref.optional(),
  /** The release date shown (ISO 8601; default: now). */
  date: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date and time (2026-11-23T10:00:00Z)" }).optional(),
  /** The git trailer that files commits into sections (default `Changelog`). */
  trailer: z.string().min(1).optional(),
  /** The changelog configuration file (default: the server's, `changelog_config.yml` in its configuration directory). */
  configFile: repositoryPath.optional(),
  /** The ref to read `configFile` from (default: the default branch). */
  configFileRef: ref.optional(),
};

export const changelogPath = (args: { project: string | number }) => apiPath`/projects/${args.project}/repository/changelog`;

/** The generation's parameters in the API's names (a query to read, a body to commit). */
export const changelogParameters = (args: z.output<z.ZodObject<typeof changelogArgs>>) => ({
  version: args.version,
  from: args.from,
  to: args.to,
  date: args.date,
  trailer: args.trailer,
  config_file: args.configFile,
  config_file_ref: args.configFileRef,
});

/** The arguments only a commit of the changelog takes (`commitChangelog`, ChangelogCommit). */
export const changelogCommitArgs = {
  /** The branch to commit to (default: the project's default branch). It must exist. */
  branch: z.string().min(1).regex(/^(?!refs\/)/, { message: "must be a branch name, without refs/heads/" }).optional(),
  /** The changelog file to add the notes to (default `CHANGELOG.md`). */
  file: repositoryPath.optional(),
  /** The commit message (default `Add changelog for version <version>`). */
  message: z.string().min(1).optional(),
};

/** The body of a changelog's commit. */
export const changelogCommitBody = (args: z.output<z.ZodObject<typeof changelogArgs & typeof changelogCommitArgs>>) => ({
  ...changelogParameters(args),
  branch: args.branch,
  file: args.file,
  message: args.message,
});

/** What the server allows, for the message of a 429 of the changelog. */
export const CHANGELOG_RATE_LIMIT =
  "The server allows 5 changelog requests a minute per user and project (generating and committing alike); " +
  "the client waited within platform:retryTimeout. Run it again after a minute, or raise platform:retryTimeout to let it wait longer.";

/** Committing the notes pushes to the branch: ChangelogCommit and `commitChangelog` need push access. */
export const changelogNeeds = projectNeeds("Developer", {
  phrase: "push access (the Developer role; on a protected default branch, the role its protection allows to push, Maintainer by default)",
});

export const changelogSubject = (args: { project: string | number; version: string }) => `the changelog of version ${args.version} of ${repositoryOf(args)}`;
