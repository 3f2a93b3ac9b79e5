/**
 * Epics: the children of an epic, in
 * their order. The epics API is deprecated (planned for removal in API v5;
 * GitLab's replacement is the work items API) but still served.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { ownerReference } from "../api/owner";
import { defineListFunction, type Camelized } from "./core";

const date = z.string().nullable();

const authorShape = z.looseObject({
  id: z.number(),
  name: z.string(),
  username: z.string(),
  state: z.string(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});

export const epicShape = z.looseObject({
  /** Global id: what `EpicLink.childEpicId` and the move anchors take. */
  id: z.number(),
  /** Internal id in the epic's group. */
  iid: z.number(),
  group_id: z.number(),
  /** null when unassigned. */
  parent_id: z.number().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  author: authorShape.nullable(),
  start_date: date,
  start_date_is_fixed: z.boolean().nullable(),
  start_date_fixed: date,
  /** Deprecated: `start_date_from_inherited_source`. */
  start_date_from_milestones: date,
  start_date_from_inherited_source: date,
  /** Deprecated: `due_date`. */
  end_date: date,
  due_date: date,
  due_date_is_fixed: z.boolean().nullable(),
  due_date_fixed: date,
  /** Deprecated: `due_date_from_inherited_source`. */
  due_date_from_milestones: date,
  due_date_from_inherited_source: date,
  created_at: z.string(),
  updated_at: z.string(),
  labels: z.array(z.unknown()),
});

export type Epic = Camelized<z.output<typeof epicShape>>;

const epicChildren = defineListFunction({
  name: "getEpicChildren",
  args: z.object({
    /** The parent epic's group (id or full path). */
    group: ownerReference,
    /** The parent epic's iid in that group. */
    epicIid: z.number().int({ message: "must be the parent epic's iid: a positive integer" }).positive({ message: "must be the parent epic's iid: a positive integer" }),
  }),
  path: (args) => apiPath`/groups/${args.group}/epics/${args.epicIid}/epics`,
  subject: (args) => `the child epics of epic &${args.epicIid} of group ${args.group}`,
  refusals: {
    403: () => "Epics need the group on the Premium or Ultimate tier, and read access to the parent epic (a confidential one: the Planner role or higher).",
  },
  item: epicShape,
});

/**
 * The children of an epic, in their order among siblings (deprecated API,
 * still served). Children the token's user cannot see are left out.
 *
 * ```ts
 * const children = await getEpicChildren({ group: "acme", epicIid: 1 });
 * ```
 */
export const getEpicChildren = epicChildren;
/** `getEpicChildren` as an Output. */
export const getEpicChildrenOutput = epicChildren.output;
