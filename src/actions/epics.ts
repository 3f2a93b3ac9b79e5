/**
 * Epics: create a child epic by title under a parent epic (deprecated API,
 * still served; Premium or Ultimate).
 *
 * This API has no way to delete an epic: a child epic created by title
 * stays. Unassigning it (an EpicLink's destroy, or `DELETE
 * .../epics/:child_epic_id`) leaves it without a parent; deleting it is done
 * in the platform's interface or its work items API. A failure whose outcome
 * is unknown is not retried, so a lost answer never makes a second epic.
 */
import { z } from "zod";
import { epicChildrenPath, parentEpic, parentEpicSubject } from "../api/epics";
import { defineAction, groupNeeds } from "./core";

const linkedEpicShape = z.looseObject({
  /** Global id: what `EpicLink.childEpicId` takes. */
  id: z.number(),
  iid: z.number(),
  title: z.string(),
  group_id: z.number(),
  parent_id: z.number().nullable(),
  has_children: z.boolean(),
  has_issues: z.boolean(),
  /** `&7`. */
  reference: z.string(),
  url: z.string(),
  relation_url: z.string(),
});

/**
 * Creates an epic with this title in the parent's group and makes it the
 * parent's child. Answers the new epic (global id, iid, reference, URL).
 *
 * ```ts
 * const child = await createChildEpic({ group: "acme", epicIid: 1, title: "Q3: migrate runners" });
 * ```
 */
export const createChildEpic = defineAction({
  name: "createChildEpic",
  verb: "create a child epic under",
  args: z.object({
    ...parentEpic,
    /** The new epic's title. */
    title: z.string().trim().min(1, { message: "must be the new epic's title: not empty" }).max(255),
    /** Whether the new epic is confidential (default: as the parent). */
    confidential: z.boolean().optional(),
  }),
  subject: parentEpicSubject,
  needs: groupNeeds("Planner", { phrase: "at least the Planner role (Reporter on servers without Planner)", tier: "premium" }),
  async run(call, args) {
    return call.checked(linkedEpicShape, await call.client.post<unknown>(epicChildrenPath(args.group, args.epicIid), { title: args.title, confidential: args.confidential }));
  },
});
