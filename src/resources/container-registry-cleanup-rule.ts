/**
 * A bulk tag deletion's rule, evaluated as the server's background worker
 * evaluates it, from what the API shows: the tags list (names) and, when
 * `keep_n` or `older_than` needs times, each remaining candidate's detail
 * (its manifest's creation time). The server's own order of steps:
 * `latest` is never deleted; a name must match the delete expression and not
 * the keep expression, each pasted between `\A` and `\z` (RE2); `keep_n`
 * keeps the newest candidates (an unknown time counts as now; among equal
 * times the later name first); `older_than` leaves only candidates created
 * before now minus the duration (an unknown time is kept). "Now" is the
 * server's clock, read from the `Date` header of its answers.
 *
 * What the API does not show is not evaluated: tags protected from the
 * token's user are left out by the server, and the hosted offering may delete
 * only part of a very large set per call.
 */
import { RE2JS } from "re2js";
import {
  registryTagsPath,
  registryTagSummaryRequests,
  registryTagWithClock,
  type RegistryRepository,
  type RegistryTag as TagDetail,
  type RegistryTagSummary as TagSummary,
} from "../api/container-registry";
import { ApiError, type PlatformClient } from "../client";
import { parseDuration } from "../chronic-duration";

export interface CleanupRule {
  nameRegexDelete: string;
  nameRegexKeep?: string;
  keepN?: number;
  olderThan?: string;
}

/** A registry repository as `GET /projects/:id/registry/repositories` lists it. */
export type RegistryRepositoryLive = RegistryRepository;

/** The RE2 error of an expression, or undefined when RE2 accepts it. */
export function re2Problem(expression: string): string | undefined {
  try {
    RE2JS.compile(expression);
    return undefined;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).replace(/^error parsing regexp: /, "");
  }
}

const wholeName = (expression: string) => RE2JS.compile(`\\A${expression}\\z`);

/** The tags the two expressions select, `latest` never. */
export function byName<T extends { name: string }>(rule: CleanupRule, tags: readonly T[]): T[] {
  const deletes = wholeName(rule.nameRegexDelete);
  const keeps = wholeName(rule.nameRegexKeep ?? "");
  return tags.filter((tag) => tag.name !== "latest" && deletes.matcher(tag.name).find() && !keeps.matcher(tag.name).find());
}

/** keep_n, then older_than, over candidates with their times; `now` is the server's clock. */
export function byTime<T extends { name: string; created_at: string | null }>(rule: CleanupRule, candidates: readonly T[], now: number): T[] {
  const timeOf = (tag: T) => (tag.created_at === null ? now : Date.parse(tag.created_at));
  let left = [...candidates];
  if (rule.keepN !== undefined) left = left.sort((a, b) => timeOf(b) - timeOf(a) || (a.name < b.name ? 1 : -1)).slice(rule.keepN);
  if (rule.olderThan !== undefined) {
    const cutoff = now - (parseDuration(rule.olderThan) ?? 0) * 1000;
    left = left.filter((tag) => tag.created_at !== null && Date.parse(tag.created_at) < cutoff);
  }
  return left;
}

const tagsPath = (project: string | number, repository: RegistryRepositoryLive) => registryTagsPath(project, repository.id);

/** A candidate's detail and the server's clock when it answered; undefined when the tag went meanwhile. */
async function detailOf(client: PlatformClient, path: string, tag: TagSummary): Promise<{ tag: TagDetail; now: number } | undefined> {
  try {
    return await registryTagWithClock(client, `${path}/${encodeURIComponent(tag.name)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * The tags (`<repository path>:<tag>`) a run of `rule` would delete from one
 * repository now: one keyset page per 100 tags, and one detail per candidate
 * when the rule needs times.
 */
export async function tagsToDelete(client: PlatformClient, project: string | number, repository: RegistryRepositoryLive, rule: CleanupRule): Promise<string[]> {
  const path = tagsPath(project, repository);
  const candidates = byName(rule, await registryTagSummaryRequests.list(client, path, { pagination: "keyset", order_by: "name", sort: "asc" }));
  if (candidates.length === 0 || (rule.keepN === undefined && rule.olderThan === undefined)) return candidates.map((tag) => tag.path);
  const details = (await Promise.all(candidates.map((tag) => detailOf(client, path, tag)))).filter((detail) => detail !== undefined);
  const now = Math.max(...details.map((detail) => detail.now));
  return byTime(rule, details.map((detail) => detail.tag), now).map((tag) => tag.path);
}
