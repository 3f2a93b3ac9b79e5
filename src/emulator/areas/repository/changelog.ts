/**
 * Changelog generation (`GET`/`POST /projects/:id/repository/changelog`),
 * as Repositories::ChangelogService does it.
 *
 * As real servers generate a changelog (and as the changelogs user
 * documentation describes it):
 * - Range: `from..to`; `to` defaults to the branch (the default branch);
 *   `from` defaults to the tag of the last stable version before `version`
 *   (tags read with the config's `tag_regex`, re2, named groups major, minor,
 *   patch, optional pre and meta; tags with `pre` are skipped), else the error
 *   "The commit start range is unspecified, and no previous tag could be
 *   found to use instead".
 * - Entries: commits of the range (newest first) that carry the trailer;
 *   a commit reverted later in the range (`This reverts commit <sha>`) is left
 *   out, the revert itself counts if it has the trailer. Categories are the
 *   trailer's values, renamed by the config's `categories` (whose order comes
 *   first), then in order of appearance.
 * - An entry's author is the user whose email is the commit's; `contributor`
 *   when that user is not a member of the project and has a merged merge
 *   request in it (`team.contributor?`); credited when a contributor or a
 *   member of a group in the config's `include_groups`. Its merge request is
 *   the oldest merged one whose merge, squash or head commit is the commit.
 * - Config: YAML at `config_file` (default `.gitlab/changelog_config.yml`; the
 *   API documentation's "changelog_config.yml under a `.service` directory" is that file)
 *   on `config_file_ref` (default: the default branch): `date_format`
 *   (strftime, default `%Y-%m-%d`), `template`, `categories`, `tag_regex`,
 *   `include_groups`. A missing file means the defaults.
 * - Notes: `## <version> (<date>)`, a blank line, the rendered template
 *   stripped, and one newline (Generator#add on an empty changelog).
 * - Commit (POST): the section is inserted into `file` (default
 *   `CHANGELOG.md`, created when missing) before the first older version's
 *   heading (sections sorted by version), not at all when a heading for the
 *   version is already there; the commit goes on `branch` with `message`
 *   (default `Add changelog for version <version>`), authored by the caller.
 */
import { parse as parseYaml } from "yaml";
import { RE2JS } from "re2js";
import { groupAccessLevel, projectAccessLevel } from "../../access";
import { ApiError } from "../../errors";
import { AccessLevel, type EmulatorState, type Project, type User } from "../../state";
import type { ProjectRepository } from "./model";
import { mergeRequestStore, type MergeRequestRecord } from "../merge-requests/model";
import { commitsInRange, commitTitle, commitWebUrl, parseTrailers, type CommitRecord } from "./commits";
import { DEFAULT_CHANGELOG_TEMPLATE, parseTemplate, renderTemplate, TemplateError } from "./changelog-template";
import * as git from "isomorphic-git";

export const DEFAULT_TRAILER = "Changelog";
export const DEFAULT_CHANGELOG_FILE = "CHANGELOG.md";
export const DEFAULT_CONFIG_FILE = ".gitlab/changelog_config.yml";

/** Gitlab::Changelog::Config::DEFAULT_TAG_REGEX (semver, with an optional leading `v`). */
export const DEFAULT_TAG_REGEX =
  "^v?(?P<major>0|[1-9]\\d*)\\.(?P<minor>0|[1-9]\\d*)\\.(?P<patch>0|[1-9]\\d*)" +
  "(?:-(?P<pre>(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))" +
  "?(?:\\+(?P<meta>[0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$";

/** Gitlab::Regex.unbounded_semver_regex: a semantic version anywhere in the string (the `version` parameter's check). */
export const UNBOUNDED_SEMVER = /(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?/;

/** Gitlab::Changelog::Error, answered 422 `Failed to generate the changelog: <reason>`. */
export const changelogError = (reason: string): ApiError =>
  new ApiError(422, { message: `Failed to generate the changelog: ${reason}` });

interface ChangelogConfig {
  dateFormat: string;
  template: ReturnType<typeof parseTemplate>;
  categories: Record<string, string>;
  tagRegex: string;
  includeGroups: string[];
}

async function readText(repo: ProjectRepository, ref: string, path: string): Promise<string | undefined> {
  const commit = await repo.resolveRef(ref);
  if (!commit) return undefined;
  try {
    const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid: commit, filepath: path });
    return Buffer.from(blob).toString("utf8");
  } catch {
    return undefined;
  }
}

/** Config.from_git: the YAML file at `path` on `ref`, or the defaults. */
async function loadConfig(repo: ProjectRepository, path: string, ref: string): Promise<ChangelogConfig> {
  const config: ChangelogConfig = {
    dateFormat: "%Y-%m-%d",
    template: parseTemplate(DEFAULT_CHANGELOG_TEMPLATE),
    categories: {},
    tagRegex: DEFAULT_TAG_REGEX,
    includeGroups: [],
  };
  const yaml = await readText(repo, ref, path);
  if (yaml === undefined || yaml.trim() === "") return config;
  let hash: unknown;
  try {
    hash = parseYaml(yaml);
  } catch (error) {
    throw changelogError(`The changelog configuration is not valid YAML: ${(error as Error).message}`);
  }
  if (typeof hash !== "object" || hash === null || Array.isArray(hash)) return config;
  const settings = hash as Record<string, unknown>;
  if (typeof settings["date_format"] === "string") config.dateFormat = settings["date_format"];
  if (typeof settings["template"] === "string") {
    try {
      config.template = parseTemplate(settings["template"]);
    } catch (error) {
      throw changelogError((error as TemplateError).message);
    }
  }
  if (settings["categories"] !== undefined && settings["categories"] !== null) {
    const categories = settings["categories"];
    if (typeof categories !== "object" || Array.isArray(categories)) throw changelogError('The "categories" configuration key must be a Hash');
    config.categories = Object.fromEntries(Object.entries(categories as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  }
  if (typeof settings["tag_regex"] === "string") config.tagRegex = settings["tag_regex"];
  if (Array.isArray(settings["include_groups"])) config.includeGroups = settings["include_groups"].map(String);
  return config;
}

// ---------------------------------------------------------------------------
// The previous release's tag (ChangelogTagFinder)

function compileTagRegex(source: string): RE2JS {
  try {
    return RE2JS.compile(source);
  } catch (error) {
    throw changelogError(`The regular expression to use for finding the previous tag for a version is invalid: ${(error as Error).message}`);
  }
}

/** `major.minor.patch[+meta]` from a match; null for no match, a missing part or (with `skipPre`) a pre-release. */
function versionOf(regex: RE2JS, text: string, skipPre: boolean): string | null {
  const matcher = regex.matcher(text);
  if (!matcher.find()) return null;
  const group = (name: string): string | null => {
    try {
      return matcher.group(name) ?? null;
    } catch {
      return null; // the regex has no such group
    }
  };
  const [major, minor, patch] = [group("major"), group("minor"), group("patch")];
  if (major === null || minor === null || patch === null) return null;
  if (skipPre && group("pre") !== null) return null;
  const meta = group("meta");
  return `${major}.${minor}.${patch}${meta !== null ? `+${meta}` : ""}`;
}

/** VersionSorter's order: numeric parts as numbers, the rest as text. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string): (string | number)[] => v.split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const [p, q] = [x[i], y[i]];
    if (p === q) continue;
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (typeof p === "number" && typeof q === "number") return p - q;
    return String(p) < String(q) ? -1 : 1;
  }
  return 0;
}

/** ChangelogTagFinder#execute: the commit of the tag of the last stable version before `version`. */
async function previousReleaseCommit(repo: ProjectRepository, version: string, tagRegex: string): Promise<string | undefined> {
  const requested = versionOf(compileTagRegex(DEFAULT_TAG_REGEX), version, false);
  if (requested === null) {
    throw changelogError("The requested `version` attribute format is not correct. Use formats such as `1.0.0` or `v1.0.0`.");
  }
  const custom = compileTagRegex(tagRegex);
  const tags = new Map<string, string>();
  const versions = [requested];
  for (const tag of await git.listTags({ fs: repo.fs, gitdir: repo.gitdir })) {
    const tagVersion = versionOf(custom, tag, true);
    if (tagVersion === null) continue;
    tags.set(tagVersion, tag);
    versions.push(tagVersion);
  }
  versions.sort(compareVersions);
  const index = versions.indexOf(requested);
  const tag = index > 0 ? tags.get(versions[index - 1]!) : undefined;
  return tag === undefined ? undefined : repo.resolveRef(`refs/tags/${tag}`);
}

// ---------------------------------------------------------------------------
// Entries

const REVERT = /^This reverts commit (?<sha>[0-9a-f]{40})/im;

/** ChangelogCommitsFinder#each_page: the range's commits with the trailer, less those reverted later in it. */
function commitsWithTrailer(range: readonly CommitRecord[], trailer: string): CommitRecord[] {
  const reverted = new Set<string>();
  const kept: CommitRecord[] = [];
  for (const record of range) {
    if (reverted.has(record.oid)) continue;
    const revertOf = REVERT.exec(record.commit.message)?.groups?.["sha"];
    if (revertOf) reverted.add(revertOf.toLowerCase());
    if (parseTrailers(record.commit.message).some((t) => t.key === trailer)) kept.push(record);
  }
  return kept;
}

const trailerValue = (record: CommitRecord, trailer: string): string =>
  parseTrailers(record.commit.message).filter((t) => t.key === trailer).pop()?.value ?? "";

/** MergeRequests::OldestPerCommitFinder, for what the emulator knows of merge requests. */
function mergeRequestOf(state: EmulatorState, project: Project, oid: string): MergeRequestRecord | undefined {
  return mergeRequestStore
    .of(state)
    .mergeRequests.filter((mr) => mr.projectId === project.id && mr.state === "merged")
    .filter((mr) => mr.mergeCommitSha === oid || mr.squashCommitSha === oid || mr.sha === oid)
    .sort((a, b) => a.id - b.id)[0];
}

function authorOf(state: EmulatorState, project: Project, config: ChangelogConfig, email: string): Record<string, unknown> | undefined {
  const user = state.users.find((u) => u.email.toLowerCase() === email.toLowerCase());
  if (!user) return undefined;
  const contributor =
    projectAccessLevel(state, user, project) < AccessLevel.Guest &&
    mergeRequestStore.of(state).mergeRequests.some((mr) => mr.projectId === project.id && mr.state === "merged" && mr.authorId === user.id);
  const inIncludedGroup = config.includeGroups.some((path) => {
    const group = state.groupByFullPath(path);
    return group !== undefined && groupAccessLevel(state, user, group) > AccessLevel.NoAccess;
  });
  return { reference: `@${user.username}`, contributor, credit: contributor || inIncludedGroup };
}

function entryOf(state: EmulatorState, project: Project, config: ChangelogConfig, record: CommitRecord): Record<string, unknown> {
  const fullPath = state.projectFullPath(project);
  const entry: Record<string, unknown> = {
    title: commitTitle(record.commit.message),
    commit: {
      reference: `${fullPath}@${record.oid}`,
      trailers: Object.fromEntries(parseTrailers(record.commit.message).map((t) => [t.key, t.value])),
      web_url: commitWebUrl(state, project, record.oid),
    },
  };
  const author = authorOf(state, project, config, record.commit.author.email);
  if (author) entry["author"] = author;
  const mr = mergeRequestOf(state, project, record.oid);
  if (mr) {
    entry["merge_request"] = {
      reference: `${fullPath}!${mr.iid}`,
      web_url: `https://${state.instance.host}/${fullPath}/-/merge_requests/${mr.iid}`,
    };
  }
  return entry;
}

// ---------------------------------------------------------------------------
// The release section

/** The strftime directives date formats use, on the date in its own offset. */
export function strftime(format: string, date: Date, offsetMinutes: number): string {
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const pad = (n: number, width = 2): string => String(n).padStart(width, "0");
  const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  const days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const fields: Record<string, () => string> = {
    Y: () => String(local.getUTCFullYear()),
    y: () => pad(local.getUTCFullYear() % 100),
    m: () => pad(local.getUTCMonth() + 1),
    d: () => pad(local.getUTCDate()),
    e: () => String(local.getUTCDate()).padStart(2, " "),
    H: () => pad(local.getUTCHours()),
    M: () => pad(local.getUTCMinutes()),
    S: () => pad(local.getUTCSeconds()),
    B: () => months[local.getUTCMonth()]!,
    b: () => months[local.getUTCMonth()]!.slice(0, 3),
    A: () => days[local.getUTCDay()]!,
    a: () => days[local.getUTCDay()]!.slice(0, 3),
    j: () => pad(Math.floor((local.getTime() - Date.UTC(local.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3),
    "%": () => "%",
  };
  // `%-d`: the `-` flag drops the padding, as Ruby's strftime does.
  return format.replace(/%(-?)([A-Za-z%])/g, (whole, flag: string, key: string) => {
    const value = fields[key]?.();
    if (value === undefined) return whole;
    return flag === "-" ? value.replace(/^[0 ]+(?=.)/, "") : value;
  });
}

/** The offset a date-time string was written in (minutes east of UTC); 0 for `Z` or none. */
export function offsetOf(dateTime: string): number {
  const match = /([+-])(\d{2}):?(\d{2})$/.exec(dateTime.trim());
  if (!match || !/T|\s/.test(dateTime)) return 0;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

export interface ChangelogRequest {
  state: EmulatorState;
  project: Project;
  repo: ProjectRepository;
  version: string;
  from?: string;
  to?: string;
  /** As sent (ISO 8601); default: now. */
  date?: string;
  trailer: string;
  configFile: string;
  configFileRef?: string;
  branch: string;
}

export interface Release {
  version: string;
  markdown: string;
}

/** Release#to_markdown for the request's range (see the header). */
export async function generateRelease(request: ChangelogRequest): Promise<Release> {
  const { state, project, repo } = request;
  const config = await loadConfig(repo, request.configFile, request.configFileRef ?? project.defaultBranch);
  const from = request.from ?? (await previousReleaseCommit(repo, request.version, config.tagRegex));
  if (from === undefined) {
    throw changelogError("The commit start range is unspecified, and no previous tag could be found to use instead");
  }
  const fromOid = await repo.resolveRef(from);
  const toRef = request.to ?? request.branch;
  const toOid = await repo.resolveRef(toRef);
  // A range naming no commit fails inside Gitaly on real servers; the emulator says so as a 422 [inferred].
  if (!fromOid || !toOid) throw changelogError(`The commit range ${from}..${toRef} names no commit`);
  const entries = new Map<string, Record<string, unknown>[]>();
  for (const category of Object.values(config.categories)) entries.set(category, []);
  for (const record of commitsWithTrailer(await commitsInRange(repo, toOid, [fromOid]), request.trailer)) {
    const raw = trailerValue(record, request.trailer);
    const category = config.categories[raw] ?? raw;
    entries.set(category, [...(entries.get(category) ?? []), entryOf(state, project, config, record)]);
  }
  const categories = [...entries]
    .filter(([, list]) => list.length > 0)
    .map(([title, list]) => ({ title, count: list.length, single_change: list.length === 1, entries: list }));
  const date = request.date ?? state.now();
  const heading = `## ${request.version} (${strftime(config.dateFormat, new Date(date), offsetOf(date))})`;
  return { version: request.version, markdown: `${heading}\n\n${renderTemplate(config.template, { categories }).trim()}\n\n` };
}

/** Generator#add: the changelog with the release inserted before the first older version's section. */
export function insertRelease(existing: string, release: Release): string {
  const lines = existing.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const heading = new RegExp(`^##\\s+(${UNBOUNDED_SEMVER.source})`);
  const locations = new Map<string, number>();
  lines.forEach((line, index) => {
    const version = heading.exec(line)?.[1];
    if (version !== undefined && !locations.has(version)) locations.set(version, index);
  });
  const versions = [release.version, ...locations.keys()].sort((a, b) => compareVersions(b, a));
  const insertAfter = versions[versions.indexOf(release.version) + 1];
  const result = [...lines];
  if (insertAfter !== undefined && locations.has(insertAfter)) {
    result.splice(locations.get(insertAfter)!, 0, release.markdown);
  } else {
    if (versions.length > 1) result.push("\n");
    result.push(release.markdown.trimEnd(), "\n");
  }
  return result.join("");
}

/** Committer#commit: adds the release to `file` on `branch` unless its heading is there; returns the new commit, if any. */
export async function commitRelease(
  repo: ProjectRepository,
  release: Release,
  target: { branch: string; file: string; message: string; author: User },
): Promise<string | undefined> {
  const existing = await readText(repo, `refs/heads/${target.branch}`, target.file);
  const escaped = release.version.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (existing !== undefined && new RegExp(`^##\\s*${escaped}`, "m").test(existing)) return undefined;
  return repo.commit({
    branch: target.branch,
    message: target.message,
    author: { name: target.author.name, email: target.author.email },
    actions: [{ action: existing === undefined ? "create" : "update", filePath: target.file, content: insertRelease(existing ?? "", release) }],
  });
}
