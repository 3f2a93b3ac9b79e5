/**
 * Group and project members: `GET /groups/:id/members` (direct members), or
 * with `all` `GET .../members/all` (the members inherited from the groups
 * above too, each once with the highest of their roles). Reading them needs
 * only to see the group or project.
 */
import { z } from "zod";
import { member as memberShape, membersListPath } from "../api/members";
import { ownerReference } from "../api/owner";
import { defineListFunction, type Camelized } from "./core";

export type MemberInfo = Camelized<z.output<typeof memberShape>>;

const filters = {
  /** The members inherited from the groups above too (`/members/all`), each once, with the highest of their roles. */
  all: z.boolean().optional(),
  /** Only members whose username or name contains this text. */
  query: z.string().min(1).optional(),
  /** Only these users, by id. */
  userIds: z.array(z.number().int().positive()).optional(),
};

const query = (args: { query?: string; userIds?: number[] }) => ({ query: args.query, user_ids: args.userIds?.join(",") });

const groupMembers = defineListFunction({
  name: "getGroupMembers",
  args: z.object({
    /** The group (id or full path). */
    group: ownerReference,
    ...filters,
  }),
  path: (args) => membersListPath("group", args.group, args.all),
  query,
  subject: (args) => `the ${args.all ? "" : "direct "}members of group ${args.group}`,
  item: memberShape,
});

/**
 * A group's direct members, or with `all` its inherited ones too, each with its role.
 *
 * ```ts
 * const owners = (await getGroupMembers({ group: "acme", all: true })).filter((member) => member.accessLevel === 50);
 * ```
 */
export const getGroupMembers = groupMembers;
/** `getGroupMembers` as an Output. */
export const getGroupMembersOutput = groupMembers.output;

const projectMembers = defineListFunction({
  name: "getProjectMembers",
  args: z.object({
    /** The project (id or full path). */
    project: ownerReference,
    ...filters,
  }),
  path: (args) => membersListPath("project", args.project, args.all),
  query,
  subject: (args) => `the ${args.all ? "" : "direct "}members of project ${args.project}`,
  item: memberShape,
});

/**
 * A project's direct members, or with `all` the members of its groups too, each with its role.
 *
 * ```ts
 * const developers = getProjectMembersOutput({ project: "acme/web", all: true }).apply((members) => members.filter((m) => m.accessLevel >= 30).map((m) => m.username));
 * ```
 */
export const getProjectMembers = projectMembers;
/** `getProjectMembers` as an Output. */
export const getProjectMembersOutput = projectMembers.output;
