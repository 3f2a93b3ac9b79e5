/**
 * EpicLink: one epic assigned as the child of another. The epics API is
 * deprecated (planned
 * for removal in API v5; GitLab points to the work items API) but still
 * served; this resource says so wherever it is documented.
 *
 * - Create assigns the child (POST); when a position is declared, a PUT then
 *   moves it there. The API MOVES a child that already has a parent: the
 *   previous parent link is removed. The API does not say which
 *   parent that was, and has no way to read an epic's parent by its global id
 *   beforehand, so the previous parent cannot be recorded or given back: the
 *   `previousParentLink` output states it, and so do the docs.
 * - Delete unassigns: the child is left WITHOUT a parent (a top-level epic),
 *   whatever parent it had before this resource took it (stated by the same
 *   output). A child already gone from the parent is not an error.
 * - Read finds the child among the parent's children: a child unassigned or
 *   moved elsewhere out of band is gone (drift), and the next `up` assigns
 *   it again.
 * - Position: `moveBeforeId` is the sibling placed right BEFORE the child,
 *   `moveAfterId` the one right AFTER it (the API's names). At most one: the
 *   API puts a child between two siblings only when they are neighbours, so
 *   two anchors could never both hold and every preview would show a change.
 *   The declared anchor is compared with the child's live neighbour, so a
 *   reordering out of band shows after a refresh and is put back by an update.
 * - A change of group, parent or child replaces the link.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { ownerInput } from "./common";
import { ApiError } from "../client";
import { aliasOf, declarationKey, recordAlias } from "../engine/declarations";
import { defineObjectResource, type EngineContext, type Operation } from "../engine/definition";
import { ExplainedError, PartialCreateError } from "../engine/errors";
import { onGroup, type Needs } from "../api/needs";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { epicRequests, epicChildrenPath, epicLinkId, groupEpicsPath, moveEpicChild, type Epic as EpicJson, epicLinkIdForm } from "../api/epics";
import type { Found } from "../engine/estate";
import { ownerReference } from "../api/owner";
import { parsedId } from "../api/id-form";

/** The child as read: the epic, and its neighbours among the parent's children. */
export type EpicLinkLive = EpicJson & {
  /** The sibling right before the child, or null when it is first (what `moveBeforeId` declares). */
  previous_sibling_id: number | null;
  /** The sibling right after the child, or null when it is last (what `moveAfterId` declares). */
  next_sibling_id: number | null;
};

const epicId = (what: string) => z.number({ message: `must be the ${what}: a positive integer` }).int({ message: `must be the ${what}: a positive integer` }).positive({ message: `must be the ${what}: a positive integer` });

const schema = z.object({
  /** The group of the parent epic (id or full path). */
  group: ownerInput(ownerReference),
  /** The parent epic's iid in `group` (the number after `&`). */
  epicIid: ownerInput(epicId("parent epic's iid in the group")),
  /** The child's GLOBAL id (`id`, not `iid`: iids repeat across groups). The child may live in another group. */
  childEpicId: ownerInput(epicId("child epic's global id (not its iid)")),
  /** Global id of the sibling placed right before the child. Set this or `moveAfterId`, not both. */
  moveBeforeId: field(epicId("global id of a sibling epic").optional(), { fromApi: (live) => live.previous_sibling_id }),
  /** Global id of the sibling placed right after the child. Set this or `moveBeforeId`, not both. */
  moveAfterId: field(epicId("global id of a sibling epic").optional(), { fromApi: (live) => live.next_sibling_id }),
});

type EpicLinkInputs = z.output<typeof schema>;

/** What the state says about a moved child: the API gives no way to know or restore its previous parent. */
export const PREVIOUS_PARENT_LINK =
  "removed by the assignment if the child had one (the API moves a child and does not say from where); not restored on delete, which leaves the child without a parent";

/** The resource id: `groups/<group>/epics/<parent iid>/epics/<child global id>`, the API path of the link. */
function parseId(id: string): { childrenPath: string; childPath: string; childId: number } {
  return parsedId("EpicLink", epicLinkIdForm, id);
}

const idOf = (args: EpicLinkInputs): string => epicLinkId(args.group, args.epicIid, args.childEpicId);

/** The child among `children` (in the parent's order), with its neighbours; undefined when it is not there. */
function childAmong(children: EpicJson[], childId: number): EpicLinkLive | undefined {
  const index = children.findIndex((epic) => epic.id === childId);
  if (index < 0) return undefined;
  return { ...children[index]!, previous_sibling_id: children[index - 1]?.id ?? null, next_sibling_id: children[index + 1]?.id ?? null };
}

/** The declared position, as the PUT's body; undefined when none is declared. */
function positionBody(args: EpicLinkInputs): Record<string, number> | undefined {
  if (args.moveBeforeId !== undefined) return { move_before_id: args.moveBeforeId };
  if (args.moveAfterId !== undefined) return { move_after_id: args.moveAfterId };
  return undefined;
}

/** The PUT, which answers every child in order. */
async function moveTo(ctx: EngineContext, id: string, position: Record<string, number>): Promise<EpicLinkLive | undefined> {
  const { childPath, childId } = parseId(id);
  const children = await moveEpicChild(ctx.client, childPath, position);
  return childAmong(children, childId);
}

async function readLink(ctx: EngineContext, id: string): Promise<EpicLinkLive | undefined> {
  const { childrenPath: path, childId } = parseId(id);
  return childAmong(await epicRequests.list(ctx.client, path), childId);
}

/** A 409 is the hierarchy's rule (already this parent's child, a cycle, too deep, ...): running again changes nothing. */
function refusedLink(error: unknown, args: EpicLinkInputs): unknown {
  if (!(error instanceof ApiError) || error.status !== 409) return error;
  return new ExplainedError(
    `EpicLink: epic ${args.childEpicId} cannot become a child of epic &${args.epicIid} of group ${args.group}: ${error.serverMessage} ` +
      "(the server's hierarchy rules refuse it; change the program, or the epics, rather than running again).",
  );
}

const MEMBERSHIP = "membership (the Guest role; the Planner role while the epic_relations_for_non_members flag is off, or for a confidential epic)";

/**
 * Who may do what, as real servers decide it.
 * The membership depends on a flag and the epic, which the preview cannot judge: only the tier is verified there.
 */
function needs(args: EpicLinkInputs, operation: Operation): Needs {
  const [on, subject] = [onGroup(args.group), `epic &${args.epicIid} of group ${args.group}`];
  if (operation === "read" || operation === "delete") {
    return { on, subject, phrase: `${MEMBERSHIP} of the group, with the group on the Premium or Ultimate tier (epics)`, tier: "premium" };
  }
  return { on, subject, phrase: `${MEMBERSHIP} of the group and of the child epic's group, with both groups on the Ultimate tier (multi-level epics)`, tier: "ultimate" };
}

export const epicLinkDefinition = defineObjectResource({
  name: "EpicLink",
  words: { noun: "epic link" },
  imported: {
    word: "epic-link",
    listed: "epics",
    on: ["group"],
    /**
     * The links of the group's own epics to their children (Premium): one per
     * child, declared under the parent's group, whichever group the child is in.
     * The position anchors are left out: undeclared, they are not compared.
     */
    async find({ ctx, owner, tolerant }) {
      const epics = await epicRequests.list(ctx.client, groupEpicsPath(owner.id), { include_descendant_groups: false });
      const found: Found[] = [];
      for (const parent of epics.sort((a, b) => a.iid - b.iid)) {
        const children = await tolerant(`children of epic &${parent.iid}`, () => epicRequests.list(ctx.client, epicChildrenPath(owner.id, parent.iid)));
        for (const child of (children ?? []).sort((a, b) => a.id - b.id)) {
          found.push({ importId: epicLinkId(owner.id, parent.iid, child.id), name: child.title, live: child, address: { group: owner.id, epicIid: parent.iid, childEpicId: child.id } });
        }
      }
      return { found };
    },
  },
  idForm: epicLinkIdForm,
  // `404 Epic Not Found`: the parent epic is gone, and with it the link.
  notFoundSubject: "Epic",
  schema,
  outputs: {
    /** The parent epic's global id. */
    parentEpicId: (live: EpicLinkLive) => live.parent_id,
    /** The child's iid in its own group. */
    childEpicIid: (live: EpicLinkLive) => live.iid,
    /** The id of the child's group (it may differ from the parent's). */
    childGroupId: (live: EpicLinkLive) => live.group_id,
    /** The child's title. */
    title: (live: EpicLinkLive) => live.title,
    /** What became of a parent the child had before, and what delete leaves: see the class comment. */
    previousParentLink: () => PREVIOUS_PARENT_LINK,
  },
  validate(args) {
    const problems: { property: string; reason: string }[] = [];
    if (args.moveBeforeId !== undefined && args.moveAfterId !== undefined) {
      problems.push({ property: "moveAfterId", reason: "moveAfterId: set at most one of moveBeforeId and moveAfterId (the API places a child between two siblings only when they are neighbours)" });
    }
    for (const name of ["moveBeforeId", "moveAfterId"] as const) {
      if (args[name] === args.childEpicId) problems.push({ property: name, reason: `${name}: must be another child of the parent, not the child itself (${args.childEpicId})` });
    }
    return problems;
  },
  needs,

  async create(ctx, args) {
    const id = idOf(args);
    const { childPath, childId } = parseId(id);
    // If the answer to the POST is lost, the child is found among the parent's children rather than assigned twice (a 409).
    const assigned = await epicRequests.post(ctx.client, childPath, {}, () => readLink(ctx, id)).catch((error: unknown) => {
      throw refusedLink(error, args);
    });
    const position = positionBody(args);
    if (!position) return { id, live: { ...assigned, previous_sibling_id: null, next_sibling_id: null } };
    try {
      const moved = await moveTo(ctx, id, position);
      if (moved) return { id, live: moved };
      throw new Error(`epic ${childId} is no longer a child of epic &${args.epicIid} after the move`);
    } catch (error) {
      // Assigned but not placed: recorded as created, so the next `up` only moves it.
      const reason = error instanceof Error ? error.message : String(error);
      throw PartialCreateError.fromLive(`EpicLink: epic ${childId} was assigned to epic &${args.epicIid} of group ${args.group} but not moved into place (${reason}). Run \`pulumi up\` again.`, id, {
        ...assigned,
        previous_sibling_id: null,
        next_sibling_id: null,
      });
    }
  },

  read: readLink,

  async update(ctx, id, args) {
    // Only the position changes in place (the rest replaces); without one declared, nothing moves.
    const position = positionBody(args);
    const live = position ? await moveTo(ctx, id, position) : await readLink(ctx, id);
    if (!live) throw new Error(`EpicLink: epic ${args.childEpicId} is no longer a child of epic &${args.epicIid} of group ${args.group}; run \`pulumi refresh\`, then \`pulumi up\` assigns it again.`);
    return live;
  },

  async delete(ctx, id) {
    await ctx.client.delete(parseId(id).childPath);
  },
});

export type EpicLinkArgs = ResourceArgs<typeof schema>;

/**
 * An epic assigned as the child of another epic, in a given place among its
 * siblings.
 *
 * **Deprecated API.** The epics REST API (epic links included) is deprecated
 * and planned for removal in API v5; GitLab's replacement is the work items
 * API. It is still served, and this resource uses it as it is.
 *
 * **Assigning moves.** A child that already has a parent is MOVED: the server
 * removes the previous parent link, and no request can say beforehand which
 * parent that was, so it is not restored on delete. Deleting the resource
 * unassigns the child, which is then left without a parent. The
 * `previousParentLink` output says so in the state. Use `getEpicChildren`
 * to see where an epic is before you assign it.
 *
 * ```ts
 * const api = new EpicLink("api-v2", { group: "acme", epicIid: 1, childEpicId: 4 });
 * new EpicLink("billing", { group: "acme", epicIid: 1, childEpicId: 3, moveBeforeId: api.childEpicId });
 * ```
 */
export interface EpicLink extends ResourceOutputs<typeof epicLinkDefinition> {}
export class EpicLink extends PlatformResource {
  static {
    ofKind(this, epicLinkDefinition);
  }
  constructor(name: string, args: EpicLinkArgs, opts?: pulumi.CustomResourceOptions) {
    // An epic has one parent: a second link of the same child would move it away from the first on every up.
    // This is the one move the preview can tell in advance (the API cannot be asked for a parent first).
    const child = declarationKey(args.childEpicId, args.connection);
    const first = aliasOf("epic-link-children", child);
    if (first !== undefined) {
      throw new Error(
        `EpicLink ${name}: childEpicId: the program also declares epic ${String(args.childEpicId)} as the child in EpicLink ${String(first)}; ` +
          "an epic has one parent, so each link would move it away from the other. Declare it once.",
      );
    }
    recordAlias("epic-link-children", child, name);
    super(name, args, opts);
  }
}
