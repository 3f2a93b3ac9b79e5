/**
 * Epics: one epic, and the children of an epic in their order. The epics API is deprecated (planned for removal in API v5;
 * GitLab's replacement is the work items API) but still served.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { ownerReference } from "../resources/common";
import { defineListFunction, defineObjectFunction, type Camelized } from "./core";

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

/** Epics are a Premium feature; a confidential one is for the Planner role and above. */
const readRequirements = (args: { group: string | number }) => ({
  subject: `group ${args.group}`,
  role: "read access to the epic (the Planner role or higher for a confidential one)",
  tier: "Premium or Ultimate",
});

const inGroup = {
  /** The epic's group (id or full path). */
  group: ownerReference,
};
const epicIid = (whose: string) =>
  z.number().int({ message: `must be ${whose} iid: a positive integer` }).positive({ message: `must be ${whose} iid: a positive integer` });

const epic = defineObjectFunction({
  name: "getEpic",
  args: z.object({
    ...inGroup,
    /** The epic's iid in that group (`&iid`). */
    epicIid: epicIid("the epic's"),
  }),
  path: (args) => apiPath`/groups/${args.group}/epics/${args.epicIid}`,
  subject: (args) => parentEpicSubject(args),
  requirements: readRequirements,
  result: epicShape,
});

/**
 * One epic of a group, by its iid (deprecated API, still served): its
 * parent, dates and labels.
 *
 * ```ts
 * const roadmap = await getEpic({ group: "acme", epicIid: 1 });
 * ```
 */
export const getEpic = epic;
/** `getEpic` as an Output. */
export const getEpicOutput = epic.output;

/** A parent epic, as its children's calls name it. */
export const parentEpic = {
  ...inGroup,
  /** The parent epic's iid in that group. */
  epicIid: epicIid("the parent epic's"),
};

/** The children of an epic: listed here, and created by title by `createChildEpic`. */
export const childEpicsPath = (args: { group: string | number; epicIid: number }) => apiPath`/groups/${args.group}/epics/${args.epicIid}/epics`;

export function parentEpicSubject(args: { group: string | number; epicIid: number }): string {
  return `epic &${args.epicIid} of group ${args.group}`;
}

const epicChildren = defineListFunction({
  name: "getEpicChildren",
  args: z.object(parentEpic),
  path: childEpicsPath,
  subject: (args) => `the child epics of ${parentEpicSubject(args)}`,
  requirements: readRequirements,
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
