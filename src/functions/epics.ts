/**
 * Epics: one epic, and the children of an epic in their order. The epics API is deprecated (planned for removal in API v5;
 * GitLab's replacement is the work items API) but still served.
 */
import { z } from "zod";
import { epic as epicShape, epicChildrenPath, epicIid, epicPath, inGroup, parentEpic, parentEpicSubject } from "../api/epics";
import { defineListFunction, defineObjectFunction, groupNeeds, type Camelized } from "./core";

export type Epic = Camelized<z.output<typeof epicShape>>;

/** Epics are a Premium feature; a confidential one is for the Planner role and above. */
const readNeeds = groupNeeds(undefined, { phrase: "read access to the epic (the Planner role or higher for a confidential one)", tier: "premium" });


const epic = defineObjectFunction({
  name: "getEpic",
  args: z.object({
    ...inGroup,
    /** The epic's iid in that group (`&iid`). */
    epicIid: epicIid("the epic's"),
  }),
  path: (args) => epicPath(args.group, args.epicIid),
  subject: (args) => parentEpicSubject(args),
  needs: readNeeds,
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


const epicChildren = defineListFunction({
  name: "getEpicChildren",
  args: z.object(parentEpic),
  path: (args) => epicChildrenPath(args.group, args.epicIid),
  subject: (args) => `the child epics of ${parentEpicSubject(args)}`,
  needs: readNeeds,
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
