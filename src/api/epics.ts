/**
 * Epics of a group and their hierarchy: an epic's children
 * (`/groups/:id/epics/:iid/epics`), assigned (POST), moved among their
 * siblings (PUT, which answers every child in order) and unassigned (DELETE)
 * by the child's global id. The epics API is deprecated (planned for removal
 * in API v5) but still served.
 */
import { z } from "zod";
import { apiPath, type PlatformClient } from "../client";
import { requestsOf, checked } from "./core";
import { ownerReference } from "./owner";
import { idForm } from "./id-form";

const date = z.string().nullable();

const author = z.looseObject({
  id: z.number(),
  name: z.string(),
  username: z.string(),
  state: z.string(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});

export const epic = z.looseObject({
  /** Global id: what `EpicLink.childEpicId` and the move anchors take. */
  id: z.number(),
  /** Internal id in the epic's group. */
  iid: z.number(),
  group_id: z.number(),
  /** null when unassigned. */
  parent_id: z.number().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  author: author.nullable(),
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

export type Epic = z.output<typeof epic>;
export const epicRequests = requestsOf(epic);

/** Moves a child among its siblings; the answer is every child, in order. */
export async function moveEpicChild(client: PlatformClient, childPath: string, position: Record<string, number>): Promise<Epic[]> {
  return checked(epicRequests.listSchema, await client.put<unknown>(childPath, position), `PUT ${childPath}`);
}

/** `/groups/acme/epics`: the group's epics (with its subgroups' unless `include_descendant_groups=false`). */
export const groupEpicsPath = (group: string | number): string => apiPath`/groups/${group}/epics`;
/** `/groups/acme/epics/1`: epic &1 of the group. */
export const epicPath = (group: string | number, epicIid: number): string => apiPath`/groups/${group}/epics/${epicIid}`;
/** `/groups/acme/epics/1/epics`: the children of epic &1, in their order. */
export const epicChildrenPath = (group: string | number, epicIid: number): string => `${epicPath(group, epicIid)}/epics`;

const LINK_ID = /^(groups\/[^/]+\/epics\/\d+\/epics)\/(\d+)$/;

/** A link's recorded id, the API path of the child under its parent: `groups/<group>/epics/<parent iid>/epics/<child global id>`. */
export const epicLinkId = (group: string | number, epicIid: number, childId: number): string => `${epicChildrenPath(group, epicIid).slice(1)}/${childId}`;

/** A recorded link id read back; undefined when it is not one. */
export function parseEpicLinkId(id: string): { childrenPath: string; childPath: string; childId: number } | undefined {
  const match = LINK_ID.exec(id);
  return match ? { childrenPath: "/" + match[1], childPath: `/${match[1]}/${match[2]}`, childId: Number(match[2]) } : undefined;
}

/** An epic link id as resources record it. */
export const epicLinkIdForm = idForm("of the form groups/<group>/epics/<parent iid>/epics/<child epic id>", parseEpicLinkId);

/** The argument naming an epic's group, as the calls on epics take it. */
export const inGroup = {
  /** The epic's group (id or full path). */
  group: ownerReference,
};
/** An epic's iid argument; `whose` names it in the message (`the parent epic's`). */
export const epicIid = (whose: string) =>
  z.number().int({ message: `must be ${whose} iid: a positive integer` }).positive({ message: `must be ${whose} iid: a positive integer` });

/** A parent epic, as its children's calls name it. */
export const parentEpic = {
  ...inGroup,
  /** The parent epic's iid in that group. */
  epicIid: epicIid("the parent epic's"),
};

export function parentEpicSubject(args: { group: string | number; epicIid: number }): string {
  return `epic &${args.epicIid} of group ${args.group}`;
}
