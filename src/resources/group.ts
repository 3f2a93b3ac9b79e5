/**
 * Group: a group or a subgroup, with its settings.
 *
 * - create: `POST /groups` with the name, path, parent (`parent_id`), and
 *   the declared settings (the same as `GroupSettings` manages, with the same
 *   names and gates); the token's user becomes its Owner.
 * - update: a new `path` renames it in place (the projects below it are still
 *   found by their old paths; the groups API no longer finds the group by its own);
 *   a new `parent` transfers it (`POST /groups/:id/transfer`, none: to the top
 *   level); the rest is `PUT /groups/:id`. Never a replacement: the id it
 *   records is the numeric one, which neither changes.
 * - delete: `DELETE /groups/:id`. Where the server delays deletion (the
 *   Enterprise Edition), the group and what it holds are only marked for
 *   deletion, restorable for the instance's deletion period; elsewhere they go
 *   at once. The outputs say which (`deletionMode`) and what goes with the
 *   group (`subgroupCount`, `projectCount`), and the review says it first.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiError, type PlatformClient } from "../client";
import { defineObjectResource, type EngineContext, type Located } from "../engine/definition";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { referenceTo, wholeNumber, type Found } from "../engine/estate";
import { field, propertiesWith, traitsOfShape } from "../api/fields";
import { APPLICATION_SETTINGS_PATH } from "../api/application-settings";
import {
  descendantGroupsPath,
  groupIdForm,
  groupIdOf,
  groupPath,
  groupProjectsPath,
  groupRequests,
  groupTransferPath,
  parseGroupId,
  RESERVED_SUBGROUP_PATHS,
  RESERVED_TOP_LEVEL_PATHS,
  type Group as GroupLive,
} from "../api/groups";
import { topLevelNeeded, type Needs, type Operation, type Rule } from "../api/needs";
import { ownerReference, type NamedOwner } from "../api/owner";
import { CURRENT_USER_PATH } from "../api/users";
import { parsedId } from "../api/id-form";
import { adoptExisting, fullPathName, pathWords } from "./common";
import { groupSettingsShape, settingsLeftOut, settingsRules, withValuesNotShown } from "./group-settings";

// The settings GroupSettings manages, with their traits: all but the group itself, its avatar and the option to give values back.
const { group: _group, avatar: _avatar, restoreOnDelete: _restore, name, path, ...settings } = groupSettingsShape;

const schema = z.object({
  /** The group's name (shown in the interface; `Acme Platform`). */
  name: name.unwrap().regex(/^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Pd}\p{Extended_Pictographic}+_(). ]*$/u, {
    message: "may contain only letters, digits, emoji, '_', '.', dash, space and parentheses, and must start with a letter, digit, emoji or '_'",
  }),
  /** The group's own path segment (`platform`); a new one renames the group in place (the groups API then no longer finds it by the old path). */
  path: path.unwrap(),
  /** The group it is a subgroup of (numeric id or full path); none: a top-level group. A new one transfers the group. */
  parent: field(ownerReference.optional(), { local: true }),
  ...settings,
  adoptExisting,
});

type GroupInputs = z.output<typeof schema>;

const fields = traitsOfShape(schema.shape);
const TOP_LEVEL_ONLY = propertiesWith(fields, (traits) => traits.topLevelOnly);

/** The group's full path as the inputs name it, where they can (a parent given by id cannot). */
function fullPathOf(args: Pick<GroupInputs, "parent" | "path">): string | undefined {
  if (args.parent === undefined) return args.path;
  return typeof args.parent === "string" ? `${args.parent}/${args.path}` : undefined;
}

const groupInWords = (args: Pick<GroupInputs, "parent" | "path">) => `group ${fullPathOf(args) ?? `${args.path} of group ${String(args.parent)}`}`;

const parentOwner = (ref: string | number): NamedOwner => ({ kind: "group", property: "parent", ref });

// ---------------------------------------------------------------------------
// What the server demands: the rules the preview judges by reading

/**
 * Who may create a top-level group: administrators; on a self-managed instance,
 * users while the instance lets them (`can_create_group` of the current user);
 * never a user through the hosted offering's API, which creates subgroups only
 * (it has no `/application/settings`: 404).
 */
async function topLevelRefusal(ctx: EngineContext, username: string): Promise<string | undefined> {
  const hosted = await ctx.client.get(APPLICATION_SETTINGS_PATH).then(
    () => false,
    (error: unknown) => (error instanceof ApiError && error.status === 404 && error.notFoundSubject === undefined ? true : error instanceof ApiError ? false : Promise.reject(error)),
  );
  if (hosted) return "the hosted offering's API creates subgroups only (top-level groups are made in its web interface): give parent, a group to create it in";
  const user = await ctx.client.get<{ can_create_group?: unknown }>(CURRENT_USER_PATH);
  if (user.can_create_group !== false) return undefined;
  return `only administrators may create top-level groups on this instance (an administrator turned off top-level group creation for users), and the token's user (${username}) is not one: give parent, a group to create it in, or use an administrator's token`;
}

/** Creating a subgroup needs the role the parent's `subgroup_creation_level` names (Maintainer or Owner). */
async function subgroupRefusal(ctx: EngineContext, parent: string | number, roleShortfall: (group: string | number, role: "Owner" | "Maintainer", purpose: string) => Promise<string | undefined>): Promise<string | undefined> {
  const live = await readParent(ctx.client, parent);
  if (!live) return undefined;
  const role = live.subgroup_creation_level === "owner" ? "Owner" : "Maintainer";
  return roleShortfall(parent, role, `a subgroup (its subgroup_creation_level is ${live.subgroup_creation_level})`);
}

const readParent = (client: PlatformClient, parent: string | number) =>
  groupRequests.get(client, groupPath(parent), { with_projects: false }).catch((error: unknown) => (error instanceof ApiError && error.status < 500 ? undefined : Promise.reject(error)));

const VISIBILITY_RANK = { private: 0, internal: 1, public: 2 } as const;

/** Why `visibility` is wider than the parent's, in words; undefined when it is not (or the parent cannot be read). */
async function widerThanParent(ctx: EngineContext, parent: string | number, visibility: keyof typeof VISIBILITY_RANK): Promise<string | undefined> {
  const live = await readParent(ctx.client, parent);
  if (!live || VISIBILITY_RANK[visibility] <= VISIBILITY_RANK[live.visibility]) return undefined;
  return `${visibility} is more visible than group ${live.full_path}, which is ${live.visibility}: the server refuses a subgroup more visible than its parent`;
}

/**
 * The rules of where the group goes: who may create it there (or move it
 * there), and a visibility no wider than the parent's. A transfer under a
 * less visible parent makes the group as visible as the parent, so a
 * declared visibility wider than that is refused with the new parent.
 */
function placementRules(args: GroupInputs, operation: "create" | "update"): Rule[] {
  const parent = args.parent;
  const where: Rule = {
    property: "parent",
    judge: (ctx, facts) => (facts.isAdmin ? Promise.resolve(undefined) : parent === undefined ? topLevelRefusal(ctx, facts.username) : subgroupRefusal(ctx, parent, facts.roleShortfall)),
  };
  if (parent === undefined || args.visibility === undefined) return [where];
  const visibility = args.visibility;
  const within: Rule = { property: "visibility", judge: (ctx) => widerThanParent(ctx, parent, visibility) };
  if (operation === "create") return [where, within];
  const movedUnder: Rule = {
    property: "parent",
    judge: async (ctx) => {
      const wider = await widerThanParent(ctx, parent, visibility);
      return wider && `the transfer makes the group no more visible than its new parent, and the declared visibility ${wider}`;
    },
  };
  return [where, within, movedUnder];
}

/** The group itself, by the id the resource recorded: changing, transferring or deleting it needs its Owner role. */
const ownerOfGroup: Rule = {
  judge: async (_ctx, facts) => {
    const parsed = facts.id === undefined ? undefined : parseGroupId(facts.id);
    return parsed ? facts.roleShortfall(parsed.groupId, "Owner", "Group") : undefined;
  },
};

function groupNeeds(args: GroupInputs, operation: Operation): Needs {
  if (operation === "read") return { on: args.parent === undefined ? { kind: "instance" } : parentOwner(args.parent) };
  if (operation === "create") {
    if (args.parent === undefined) return { on: { kind: "instance" }, phrase: "permission to create top-level groups", rules: placementRules(args, "create") };
    return {
      on: parentOwner(args.parent),
      role: "Maintainer",
      phrase: `the role group ${String(args.parent)}'s subgroup_creation_level names (Maintainer, or Owner)`,
      rules: placementRules(args, "create"),
    };
  }
  const on = { kind: "described" as const, what: groupInWords(args) };
  // A transfer also needs the right to create a subgroup in the new parent (or a top-level group).
  return { on, role: "Owner", rules: operation === "update" ? [ownerOfGroup, ...placementRules(args, "update")] : [ownerOfGroup] };
}

// ---------------------------------------------------------------------------
// Reading: the group, and what goes with it when it is deleted

/** How the server deletes the group: at once, or marked for deletion and restorable for `periodDays` (null: the instance's period, not readable by this token). */
export type DeletionMode = { delayed: false } | { delayed: true; periodDays: number | null };

/** The instance's deletion period, readable by administrators only: once per client. */
const periods = new WeakMap<PlatformClient, Promise<number | null>>();
function deletionPeriod(client: PlatformClient): Promise<number | null> {
  let period = periods.get(client);
  if (!period) {
    period = client.get<{ deletion_adjourned_period?: unknown }>(APPLICATION_SETTINGS_PATH).then(
      (answer) => (typeof answer.deletion_adjourned_period === "number" ? answer.deletion_adjourned_period : null),
      () => null,
    );
    periods.set(client, period);
  }
  return period;
}

/** How many objects a list holds, from its `X-Total` (one item read); null where the server does not count (above 10,000). */
async function counted(client: PlatformClient, path: string, query: Record<string, string | number | boolean>): Promise<number | null> {
  const answer = await client.request<unknown[]>("GET", path, { query: { ...query, per_page: 1 } });
  const total = answer.headers["x-total"];
  return typeof total === "string" && /^\d+$/.test(total) ? Number(total) : null;
}

/** The group as the resource keeps it: the answer, with the facts of its deletion. */
type GroupRecord = GroupLive & { deletion_mode: DeletionMode; subgroup_count: number | null; project_count: number | null };

async function withDeletionFacts(ctx: EngineContext, live: GroupLive, values: Partial<GroupInputs>, made = false): Promise<GroupRecord> {
  // Servers that delay deletion show the date a group is marked (null when it is not).
  const delayed = "marked_for_deletion_on" in live;
  // A group just made holds nothing yet: nothing to count.
  const [subgroups, projects, period] = await Promise.all([
    made ? 0 : counted(ctx.client, descendantGroupsPath(live.id), { all_available: true }),
    made ? 0 : counted(ctx.client, groupProjectsPath(live.id), { include_subgroups: true, simple: true }),
    delayed ? deletionPeriod(ctx.client) : Promise.resolve(null),
  ]);
  return {
    ...withValuesNotShown(live, values),
    deletion_mode: delayed ? { delayed: true, periodDays: period } : { delayed: false },
    subgroup_count: subgroups,
    project_count: projects,
  };
}

const readGroup = (ctx: EngineContext, ref: string | number) => groupRequests.get(ctx.client, groupPath(ref), { with_projects: false });

/** The parent's numeric id, as `parent_id` and `group_id` take it. */
async function parentId(ctx: EngineContext, parent: string | number): Promise<number> {
  return typeof parent === "number" ? parent : (await readGroup(ctx, parent)).id;
}

/** The group these inputs name, if there is one now (the server answers a path as written, whatever its case). */
async function existing(ctx: EngineContext, args: GroupInputs): Promise<GroupLive | undefined> {
  const parentPath = args.parent === undefined ? undefined : typeof args.parent === "string" ? args.parent : (await readGroup(ctx, args.parent)).full_path;
  const fullPath = parentPath === undefined ? args.path : `${parentPath}/${args.path}`;
  try {
    const live = await readGroup(ctx, fullPath);
    return live.full_path.toLowerCase() === fullPath.toLowerCase() ? live : undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

// ---------------------------------------------------------------------------
// platform-import

/** A subgroup as platform-import declares it: under its parent, which names the parent's own declaration where there is one. */
function foundGroup(live: GroupLive, leaveOut: ReadonlyMap<string, string>): Found {
  const importId = groupIdOf(live.id);
  const parent = live.parent_id;
  return {
    importId,
    name: live.path,
    live,
    address: parent === null ? {} : { parent },
    leaveOut,
    referring: (args) => (parent === null ? args : { ...args, parent: referenceTo("Group", groupIdOf(parent), "groupId", parent) }),
  };
}

export const groupDefinition = defineObjectResource({
  name: "Group",
  words: { noun: "group", name: fullPathName, says: pathWords("parent") },
  imported: {
    word: "group",
    listed: "subgroups",
    // Each subgroup under the scope is one owner the importer reads; a top-level group's settings are GroupSettings'.
    on: ["group"],
    isOwner: true,
    async find({ ctx, owner, unmetNeeds }) {
      if (owner.topLevel) return { found: [] };
      return { found: [foundGroup(await readGroup(ctx, owner.id), await settingsLeftOut(unmetNeeds))] };
    },
    async findOne({ ctx, unmetNeeds }, key) {
      return { found: [foundGroup(await readGroup(ctx, key), await settingsLeftOut(unmetNeeds))] };
    },
  },
  // The provider's group, by its numeric id: the group itself.
  terraform: [
    {
      type: "gitlab_group",
      target: (id) => {
        const group = wholeNumber(id);
        return group === undefined ? undefined : { owner: { kind: "group", ref: id }, key: group };
      },
    },
  ],
  idForm: groupIdForm,
  notFoundSubject: "Group",
  deletion: { takes: { subgroupCount: "subgroups", projectCount: "projects" }, mode: "deletionMode", marked: "markedForDeletionOn" },
  schema,
  outputs: {
    /** The group's numeric id. */
    groupId: { value: (live: GroupRecord) => live.id, fromId: (id) => parsedId("Group", groupIdForm, id).groupId },
    /** Its full path (`acme/platform`). */
    fullPath: (live: GroupRecord) => live.full_path,
    /** Its name with its parents' (`Acme / Platform`). */
    fullName: (live: GroupRecord) => live.full_name,
    webUrl: { value: (live: GroupRecord) => live.web_url, derivedFrom: ["path", "parent"] },
    /** The parent's numeric id; null for a top-level group. */
    parentId: { value: (live: GroupRecord) => live.parent_id, derivedFrom: [] },
    /** `YYYY-MM-DD` when the group was marked for deletion; null when it is not (absent where the server deletes at once). */
    markedForDeletionOn: { value: (live: GroupRecord) => live.marked_for_deletion_on ?? null, derivedFrom: [] },
    /** How the server deletes it: `{ delayed: false }` at once, or `{ delayed: true, periodDays }` marked for deletion, restorable for that many days (null: the instance's period, which only administrators read). */
    deletionMode: { value: (live: GroupRecord) => live.deletion_mode, derivedFrom: [] },
    /** The groups below it, at any depth, that its deletion takes with it (null: more than the server counts). */
    subgroupCount: { value: (live: GroupRecord) => live.subgroup_count, derivedFrom: [] },
    /** The projects in it and below it that its deletion takes with it (null: more than the server counts). */
    projectCount: { value: (live: GroupRecord) => live.project_count, derivedFrom: [] },
  },
  needs: groupNeeds,
  validate(args) {
    const failures = settingsRules(args);
    const reserved = args.parent === undefined ? RESERVED_TOP_LEVEL_PATHS : RESERVED_SUBGROUP_PATHS;
    if (reserved.includes(args.path.toLowerCase())) {
      failures.push({ property: "path", reason: `path: ${args.path} is reserved for the server's own pages${args.parent === undefined ? " at the top level" : ""}; choose another` });
    }
    if (args.parent !== undefined) {
      for (const property of TOP_LEVEL_ONLY.filter((name) => args[name as keyof GroupInputs] !== undefined)) {
        failures.push({ property, reason: `${property}: ${topLevelNeeded(groupInWords(args))}` });
      }
    }
    return failures;
  },

  async create(ctx, args) {
    const body = requestBody(this.fields, args);
    if (args.parent !== undefined) body.parent_id = await parentId(ctx, args.parent);
    // A lost answer: the group these inputs name, made by the lost attempt, is found rather than made twice.
    const live = await groupRequests.post(ctx.client, "/groups", body, () => existing(ctx, args));
    return { id: groupIdOf(live.id), live: await withDeletionFacts(ctx, live, args, true) };
  },

  async read(ctx, id, recorded) {
    return withDeletionFacts(ctx, await groupRequests.get(ctx.client, parsedId("Group", groupIdForm, id).path, { with_projects: false }), recorded);
  },

  async update(ctx, id, args, changed) {
    const { groupId } = parsedId("Group", groupIdForm, id);
    if (changed.has("parent")) {
      const target = args.parent === undefined ? {} : { group_id: await parentId(ctx, args.parent) };
      await ctx.client.post(groupTransferPath(groupId), target);
    }
    const rest = new Set([...changed].filter((name) => name !== "parent" && name !== "adoptExisting"));
    const live = rest.size > 0 ? await groupRequests.put(ctx.client, groupPath(groupId), requestBody(this.fields, args, rest)) : await readGroup(ctx, groupId);
    return withDeletionFacts(ctx, live, args);
  },

  async delete(ctx, id) {
    const { path: apiPathOfGroup } = parsedId("Group", groupIdForm, id);
    try {
      await ctx.client.delete(apiPathOfGroup);
    } catch (error) {
      // Marked for deletion already (by hand, or an earlier run whose answer was lost): what this delete does is done.
      if (error instanceof ApiError && error.status === 400 && /already marked for deletion/i.test(error.message)) return;
      throw error;
    }
  },

  async adopt(ctx, args): Promise<Located<GroupRecord> | undefined> {
    const live = await existing(ctx, args);
    return live ? { id: groupIdOf(live.id), live: await withDeletionFacts(ctx, live, args) } : undefined;
  },
});

export type GroupArgs = ResourceArgs<typeof schema>;

/**
 * A group or subgroup, with its settings (those `GroupSettings` manages).
 * A new `path` renames it in place, a new `parent` transfers it; delete marks
 * it for deletion where the server delays deletion, else deletes it at once.
 *
 * ```ts
 * new Group("platform", { parent: "acme", path: "platform", name: "Platform", visibility: "private" });
 * ```
 */
export interface Group extends ResourceOutputs<typeof groupDefinition> {}
export class Group extends PlatformResource {
  static {
    ofKind(this, groupDefinition);
  }
  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
