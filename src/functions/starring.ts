/**
 * Project starring: the projects a user
 * starred, with every filter and ordering of the API documentation's table, and the users
 * who starred a project.
 *
 * What the caller sees follows the server: only projects the token's user may
 * read (anonymous callers, public ones only); none of a user whose profile is
 * private, unless the token is that user's or an administrator's; starrers
 * with a private profile are left out the same way.
 */
import { z } from "zod";
import { MINIMAL_ACCESS_LEVEL, ROLE_LEVELS } from "../client";
import { queryOf, snakeCase } from "../api/fields";
import { ownerReference } from "../api/owner";
import { starredProject as starredProjectShape, starredProjectsPath, starrer as starrerShape, starrersPath } from "../api/starring";
import { defineListFunction, type Camelized } from "./core";
import { notDotSegments } from "../validation";

export type StarredProject = Camelized<z.output<typeof starredProjectShape>>;
export type Starrer = Camelized<z.output<typeof starrerShape>>;

const USER_RULE = "must be a user id or a username such as alice";
/** A user: numeric id or username. */
const userReference = z.union(
  [
    z.number().int({ message: USER_RULE }).positive({ message: USER_RULE }),
    z.string().regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/, { message: USER_RULE }),
  ],
  { error: (issue) => (issue.input === undefined ? `is required: a user id or a username such as alice` : USER_RULE) },
).refine(...notDotSegments);

const ORDER_BY = ["id", "name", "path", "createdAt", "updatedAt", "starCount", "lastActivityAt"] as const;
/** Minimal access, then every role's level. */
const ACCESS_LEVELS = [MINIMAL_ACCESS_LEVEL, ...Object.values(ROLE_LEVELS)];
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const isoTime = z.string().regex(ISO_TIME, { message: "must be an ISO 8601 time such as 2025-01-31T12:00:00Z" });
const flag = z.boolean().optional();

const starredProjects = defineListFunction({
  name: "getStarredProjects",
  args: z.object({
    /** Whose stars: a user id or a username. */
    user: userReference,
    /** Only archived (true) or only active (false) projects. */
    archived: flag,
    /** Only projects the token's user is a member of. */
    membership: flag,
    /** Only projects the token's user owns. */
    owned: flag,
    /** Only projects the token's user starred too. */
    starred: flag,
    /** Include each project's statistics (shown where the token's user has at least the Reporter role). */
    statistics: flag,
    /** Only the basic fields of each project. */
    simple: flag,
    /** Only projects with issues enabled. */
    withIssuesEnabled: flag,
    /** Only projects with merge requests enabled. */
    withMergeRequestsEnabled: flag,
    /** Include custom attributes (administrators only). */
    withCustomAttributes: flag,
    /** Only projects where the token's user has at least this role (5 minimal ... 50 owner). */
    minAccessLevel: z.union(ACCESS_LEVELS.map((level) => z.literal(level)), { message: `must be one of ${ACCESS_LEVELS.join(", ")} (minimal access ... owner)` }).optional(),
    /** Order by this field (default createdAt). */
    orderBy: z.enum(ORDER_BY).optional(),
    /** asc or desc (default desc). */
    sort: z.enum(["asc", "desc"]).optional(),
    /** Part of a project's name, path or description. */
    search: z.string().min(1).optional(),
    /** Only projects updated after this time (ISO 8601). */
    updatedAfter: isoTime.optional(),
    /** Only projects updated before this time (ISO 8601). */
    updatedBefore: isoTime.optional(),
    visibility: z.enum(["public", "internal", "private"]).optional(),
  }),
  validate(args) {
    if (args.updatedAfter !== undefined && args.updatedBefore !== undefined && Date.parse(args.updatedAfter) >= Date.parse(args.updatedBefore)) {
      return [{ argument: "updatedBefore", reason: "updatedBefore: must be later than updatedAfter, or no project can match" }];
    }
    return [];
  },
  path: (args) => starredProjectsPath(args.user),
  query: (args) => ({
    ...queryOf(args, ["archived", "membership", "owned", "starred", "statistics", "simple", "withIssuesEnabled", "withMergeRequestsEnabled", "withCustomAttributes", "minAccessLevel", "sort", "search", "updatedAfter", "updatedBefore", "visibility"]),
    order_by: args.orderBy === undefined ? undefined : snakeCase(args.orderBy),
  }),
  subject: (args) => `the projects starred by user ${args.user}`,
  refusals: {
    404: (args) => `Check that user ${args.user} exists (a user id, or a username).`,
  },
  item: starredProjectShape,
});

/**
 * The projects a user starred that the token's user may see, with the
 * filters and ordering of the API. A private profile shows none, except to
 * its user and administrators.
 *
 * ```ts
 * const watched = await getStarredProjects({ user: "platform-bot", visibility: "private", orderBy: "starCount" });
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
    /** Part of a starrer's username or name, or a whole email. */
    search: z.string().min(1).optional(),
  }),
  path: (args) => starrersPath(args.project),
  query: (args) => ({ search: args.search }),
  subject: (args) => `the starrers of project ${args.project}`,
  item: starrerShape,
});

/**
 * The users who starred a project, in the order they starred it. Users with a
 * private profile are listed only to themselves and administrators.
 *
 * ```ts
 * const fans = await getStarrers({ project: "acme/web" });
 * ```
 */
export const getStarrers = starrers;
/** `getStarrers` as an Output. */
export const getStarrersOutput = starrers.output;
