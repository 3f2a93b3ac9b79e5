/**
 * Epics: the children of an epic, in
 * their order. The epics API is deprecated (planned for removal in API v5;
 * GitLab's replacement is the work items API) but still served.
 */
import { z } from "zod";
import { epic as epicShape, epicChildrenPath } from "../api/epics";
import { ownerReference } from "../api/owner";
import { defineListFunction, type Camelized } from "./core";

export type Epic = Camelized<z.output<typeof epicShape>>;

const epicChildren = defineListFunction({
  name: "getEpicChildren",
  args: z.object({
    /** The parent epic's group (id or full path). */
    group: ownerReference,
    /** The parent epic's iid in that group. */
    epicIid: z.number().int({ message: "must be the parent epic's iid: a positive integer" }).positive({ message: "must be the parent epic's iid: a positive integer" }),
  }),
  path: (args) => epicChildrenPath(args.group, args.epicIid),
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
