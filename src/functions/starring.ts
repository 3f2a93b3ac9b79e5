/**
 * Project starring: the projects a user starred, and who starred a project.
 *
 * A user with a private profile shows no starred projects and is left out of
 * starrer lists, except to themselves and administrators; a caller sees only
 * the starred projects it may read (anonymous callers: public ones, with the
 * basic fields).
 */
import { z } from "zod";
import type { Query } from "../client";
import { ownerReference } from "../api/owner";
import { starredProject, starredProjectsPath, starrer, starrersPath, userReference } from "../api/starring";
import { defineListFunction, type Camelized } from "./core";

export type StarredProject = Camelized<z.output<typeof starredProject>>;
export type Starrer = Camelized<z.output<typeof starrer>>;

const flag = z.boolean().optional();
const isoTime = z.string().refine((text) => /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(Date.parse(text)), { message: "must be an ISO 8601 time (2024-05-01T10:00:00Z)" });
const ROLE_LEVELS = [5, 10, 15, 20, 30, 40, 50] as const;
const ORDERINGS = { id: "id", name: "name", path: "path", createdAt: "created_at", updatedAt: "updated_at", lastActivityAt: "last_activity_at", starCount: "star_count" } as const;

const starredProjectsArgs = z.object({
  /** The user: numeric id or username. */
  user: userReference,
  /** Part of a project's name, path or description. */
  search: z.string().min(1).optional(),
  visibility: z.enum(["private", "internal", "public"]).optional(),
  /** `createdAt` (default), `id`, `name`, `path`, `updatedAt`, `lastActivityAt` or `starCount`. */
  orderBy: z.enum(Object.keys(ORDERINGS) as [keyof typeof ORDERINGS, ...(keyof typeof ORDERINGS)[]]).optional(),
  /** `desc` (default) or `asc`. */
  sort: z.enum(["asc", "desc"]).optional(),
  /** Storage statistics (shown to Reporter+ of each project). */
  statistics: flag,
  /** Custom attributes (administrators only). */
  withCustomAttributes: flag,
  /** The basic fields only. */
  simple: flag,
  /** Only projects the caller owns. */
  owned: flag,
  /** Only projects the caller is a member of. */
  membership: flag,
  /** Only projects the caller starred too. */
  starred: flag,
  /** Only projects where the caller has at least this role. */
  minAccessLevel: z.union(ROLE_LEVELS.map((level) => z.literal(level)) as [z.ZodLiteral<5>, ...z.ZodLiteral<number>[]], {
    error: () => `must be one of ${ROLE_LEVELS.join(", ")}`,
  }).optional(),
  withIssuesEnabled: flag,
  withMergeRequestsEnabled: flag,
  /** Only archived projects, or only projects not archived. */
  archived: flag,
  /** Only projects updated after this time. */
  updatedAfter: isoTime.optional(),
  /** Only projects updated before this time. */
  updatedBefore: isoTime.optional(),
});
type StarredProjectsArgs = z.output<typeof starredProjectsArgs>;

function starredProjectsQuery(args: StarredProjectsArgs): Query {
  return {
    search: args.search,
    visibility: args.visibility,
    order_by: args.orderBy === undefined ? undefined : ORDERINGS[args.orderBy],
    sort: args.sort,
    statistics: args.statistics,
    with_custom_attributes: args.withCustomAttributes,
    simple: args.simple,
    owned: args.owned,
    membership: args.membership,
    starred: args.starred,
    min_access_level: args.minAccessLevel,
    with_issues_enabled: args.withIssuesEnabled,
    with_merge_requests_enabled: args.withMergeRequestsEnabled,
    archived: args.archived,
    updated_after: args.updatedAfter,
    updated_before: args.updatedBefore,
  };
}

function validateTimes(args: StarredProjectsArgs): { argument: string; reason: string }[] {
  const { updatedAfter, updatedBefore } = args;
  if (updatedAfter === undefined || updatedBefore === undefined || Date.parse(updatedBefore) > Date.parse(updatedAfter)) return [];
  return [{ argument: "updatedBefore", reason: "updatedBefore: must be later than updatedAfter" }];
}

const starredProjects = defineListFunction({
  name: "getStarredProjects",
  args: starredProjectsArgs,
  validate: validateTimes,
  path: (args) => starredProjectsPath(args.user),
  query: starredProjectsQuery,
  subject: (args) => `the projects starred by user ${args.user}`,
  refusals: { 404: (args) => `Check that user ${args.user} exists.` },
  item: starredProject,
});

/**
 * The projects a user starred that the caller may read, newest first by default.
 *
 * ```ts
 * const starred = await getStarredProjects({ user: "alice", visibility: "public" });
 * ```
 */
export const getStarredProjects = starredProjects;
/** `getStarredProjects` as an Output. */
export const getStarredProjectsOutput = starredProjects.output;

const starrers = defineListFunction({
  name: "getStarrers",
  args: z.object({
    /** The project (numeric id or full path). */
    project: ownerReference,
    /** Part of a username or name, or a whole email. */
    search: z.string().min(1).optional(),
  }),
  path: (args) => starrersPath(args.project),
  query: (args) => ({ search: args.search }),
  subject: (args) => `the starrers of project ${args.project}`,
  item: starrer,
});

/**
 * Who starred a project, and when, in the order the stars were made.
 *
 * ```ts
 * const fans = await getStarrers({ project: "acme/web" });
 * ```
 */
export const getStarrers = starrers;
/** `getStarrers` as an Output. */
export const getStarrersOutput = starrers.output;
