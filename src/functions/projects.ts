/**
 * Projects: one project, and the projects of a group or every project the
 * token's user may see, with the filters the API has.
 *
 * - `getProject`: `GET /projects/:id` (with its statistics on request: shown
 *   to Reporters and above), `marked_for_deletion_on` while it is marked.
 * - `getProjects`: `GET /groups/:id/projects` when a group is named (its
 *   subgroups' with `includeSubgroups`, projects shared with it unless
 *   `withShared: false`), else `GET /projects`; every page, 100 a page.
 */
import { z } from "zod";
import { ownerReference } from "../api/owner";
import { groupProjectsPath, project as projectShape, PROJECTS_PATH, projectPath, projectReadNeeds } from "../api/projects";
import { onGroup } from "../api/needs";
import { defineListFunction, defineObjectFunction, type Camelized } from "./core";

export type ProjectInfo = Camelized<z.output<typeof projectShape>>;

const project = defineObjectFunction({
  name: "getProject",
  args: z.object({
    /** The project: its numeric id or full path. */
    project: ownerReference,
    /** Also its `statistics` (commits and sizes), shown to Reporters and above. */
    statistics: z.boolean().optional(),
  }),
  path: (args) => projectPath(args.project),
  query: (args) => ({ statistics: args.statistics }),
  subject: (args) => `project ${args.project}`,
  needs: (args) => projectReadNeeds(args.project),
  result: projectShape,
});

/**
 * One project, as the server shows it to the token's user.
 *
 * ```ts
 * const web = await getProject({ project: "acme/web" });
 * ```
 */
export const getProject = project;
/** `getProject` as an Output. */
export const getProjectOutput = project.output;

const visibility = z.enum(["private", "internal", "public"]);

const projects = defineListFunction({
  name: "getProjects",
  args: z.object({
    /** The group whose projects to list (id or full path); none: every project the token's user may see. */
    group: ownerReference.optional(),
    /** With a group: also the projects of its subgroups. */
    includeSubgroups: z.boolean().optional(),
    /** With a group: also the projects shared with it (the server's default); `false` for its own only. */
    withShared: z.boolean().optional(),
    /** Only archived projects (`true`), or only those not archived (`false`). */
    archived: z.boolean().optional(),
    /** Only projects whose name, path or description holds this text. */
    search: z.string().min(1).optional(),
    /** Only projects with every one of these topics. */
    topic: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    visibility: visibility.optional(),
    /** Without a group: only projects the token's user is a member of. */
    membership: z.boolean().optional(),
  }),
  validate: (args) =>
    args.group === undefined
      ? (["includeSubgroups", "withShared"] as const).filter((name) => args[name] !== undefined).map((name) => ({ argument: name, reason: `${name}: applies only with group` }))
      : args.membership !== undefined
        ? [{ argument: "membership", reason: "membership: applies only without group (every project the token's user may see)" }]
        : [],
  path: (args) => (args.group === undefined ? PROJECTS_PATH : groupProjectsPath(args.group)),
  query: (args) => ({
    include_subgroups: args.includeSubgroups,
    with_shared: args.withShared,
    archived: args.archived,
    search: args.search,
    topic: Array.isArray(args.topic) ? args.topic.join(",") : args.topic,
    visibility: args.visibility,
    membership: args.membership,
  }),
  subject: (args) => (args.group === undefined ? "the projects the token's user may see" : `the projects of group ${args.group}`),
  needs: (args) => (args.group === undefined ? { on: { kind: "described", what: "the projects the token's user may see" } } : { on: onGroup(args.group), phrase: "access to the group" }),
  item: projectShape,
});

/**
 * The projects of a group, or every project the token's user may see, filtered.
 *
 * ```ts
 * const services = await getProjects({ group: "acme", includeSubgroups: true, topic: "service", archived: false });
 * ```
 */
export const getProjects = projects;
/** `getProjects` as an Output. */
export const getProjectsOutput = projects.output;
