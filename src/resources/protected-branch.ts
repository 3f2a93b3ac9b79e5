/**
 * ProtectedBranch: a project's protected branch rule (a name or a wildcard).
 *
 * - create: `POST /projects/:id/protected_branches` with the levels and the
 *   users and groups declared; a lost answer is found by the rule's name.
 * - update: one `GET` of the rule (the ids of its access levels), then one
 *   `PATCH` that changes each level in place by its id, adds what is new and
 *   destroys what left the program: the branch is never unprotected in
 *   between, as an unprotect-then-protect would leave it.
 * - delete: `DELETE`: the branch is unprotected.
 *
 * A project's default branch is protected when the project is made: a rule of
 * that name already exists, and a declaration of it takes it over (the
 * `import` option or `adoptExisting`) rather than making a second one, which
 * the server refuses. The resource id is
 * `projects/<project>/protected_branches/<name>`, both parts URL-encoded.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { parsedId } from "../api/id-form";
import { ownerReference } from "../api/owner";
import {
  LEVELS_IN_PLACE,
  protectedBranchId,
  protectedBranchIdForm,
  protectedBranchReadNeeds,
  protectedBranchRequests,
  protectedBranchesOf,
  protectedRefNeeds,
  refAccessLevel,
  refLevelInWords,
  refLevelNumber,
  roleEntries,
  roleLevelOf,
  ruleName,
  type ProtectedBranch as ProtectedBranchLive,
  type RefAccess,
} from "../api/protected-refs";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { ownerAddress } from "../engine/estate";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { adoptExisting, ownerInput, projectKeyTarget } from "./common";

type AccessKind = "push" | "merge" | "unprotect";
const LISTS = { push: "push_access_levels", merge: "merge_access_levels", unprotect: "unprotect_access_levels" } as const;

/** A role level of one list: read as the list's most permissive role entry; `developer` and 30 are the same. */
const levelField = <T extends z.ZodType>(kind: AccessKind, type: T): T =>
  field(type, {
    fromApi: (live) => (live[LISTS[kind]] === undefined ? undefined : roleLevelOf(live[LISTS[kind]] as RefAccess[])),
    sameValue: (declared, live) => refLevelNumber(declared) === refLevelNumber(live),
  });

const ids = z.array(z.number().int().positive({ message: "must be a numeric id" })).max(100);
const sameIds = (declared: unknown, live: unknown) =>
  Array.isArray(declared) && Array.isArray(live) && declared.length === live.length && [...declared].sort().join() === [...live].sort().join();

/** The users (or groups) one list names, by id: Premium and Ultimate. */
const peopleField = (kind: AccessKind, who: "user_id" | "group_id") =>
  field(ids.optional(), {
    tier: "premium",
    fromApi: (live) => ((live[LISTS[kind]] as RefAccess[] | undefined) ?? []).flatMap((entry) => (entry[who] == null ? [] : [entry[who] as number])),
    sameValue: sameIds,
  });

const schema = z.object({
  /** The project (numeric id or full path). */
  project: ownerInput(ownerReference),
  /** The branch, or a wildcard naming several (`release/*`): `*` stands for any run of characters. */
  name: field(ruleName, { replaceOnChange: true }),
  /** Who may push, by role: `no_one`, `developer`, `maintainer` (the default) or `admin`, or its number (0, 30, 40, 60). */
  pushAccessLevel: levelField("push", refAccessLevel().default("maintainer")),
  /** Who may merge into it, by role, as `pushAccessLevel`. */
  mergeAccessLevel: levelField("merge", refAccessLevel().default("maintainer")),
  /** Who may unprotect it, by role (`developer`, `maintainer`, the default, or `admin`; not `no_one`). */
  unprotectAccessLevel: levelField("unprotect", refAccessLevel(["no_one"]).default("maintainer")),
  /** Whoever may push may also force push. */
  allowForcePush: z.boolean().default(false),
  /** Pushes that change files with code owners need their approval (Premium and Ultimate). */
  codeOwnerApprovalRequired: field(z.boolean().optional(), { tier: "premium" }),
  /** Users (ids) who may push besides the role, each a member of the project (Premium and Ultimate). */
  usersAllowedToPush: peopleField("push", "user_id"),
  /** Groups (ids) whose members may push besides the role (Premium and Ultimate). */
  groupsAllowedToPush: peopleField("push", "group_id"),
  /** Users (ids) who may merge besides the role (Premium and Ultimate). */
  usersAllowedToMerge: peopleField("merge", "user_id"),
  /** Groups (ids) whose members may merge besides the role (Premium and Ultimate). */
  groupsAllowedToMerge: peopleField("merge", "group_id"),
  /** Users (ids) who may unprotect besides the role (Premium and Ultimate). */
  usersAllowedToUnprotect: peopleField("unprotect", "user_id"),
  /** Groups (ids) whose members may unprotect besides the role (Premium and Ultimate). */
  groupsAllowedToUnprotect: peopleField("unprotect", "group_id"),
  adoptExisting,
});

type Inputs = z.output<typeof schema>;

const PEOPLE: Record<AccessKind, { users: keyof Inputs; groups: keyof Inputs; level: keyof Inputs }> = {
  push: { users: "usersAllowedToPush", groups: "groupsAllowedToPush", level: "pushAccessLevel" },
  merge: { users: "usersAllowedToMerge", groups: "groupsAllowedToMerge", level: "mergeAccessLevel" },
  unprotect: { users: "usersAllowedToUnprotect", groups: "groupsAllowedToUnprotect", level: "unprotectAccessLevel" },
};

const parseId = (id: string) => parsedId("ProtectedBranch", protectedBranchIdForm, id);

/** The POST's body: the role levels, and the users and groups as `allowed_to_*` entries. */
function createBody(args: Inputs): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: args.name,
    push_access_level: refLevelNumber(args.pushAccessLevel),
    merge_access_level: refLevelNumber(args.mergeAccessLevel),
    unprotect_access_level: refLevelNumber(args.unprotectAccessLevel),
    allow_force_push: args.allowForcePush,
  };
  if (args.codeOwnerApprovalRequired !== undefined) body.code_owner_approval_required = args.codeOwnerApprovalRequired;
  for (const kind of ["push", "merge", "unprotect"] as const) {
    const users = (args[PEOPLE[kind].users] as number[] | undefined) ?? [];
    const groups = (args[PEOPLE[kind].groups] as number[] | undefined) ?? [];
    if (users.length + groups.length > 0) body[`allowed_to_${kind}`] = [...users.map((user_id) => ({ user_id })), ...groups.map((group_id) => ({ group_id }))];
  }
  return body;
}

/**
 * The PATCH entries that bring one list to the declared role level, users
 * and groups: the list's role entry changed in place by its id (any further
 * role entries destroyed), users and groups no longer declared destroyed, new
 * ones added. Users and groups not declared are left as they are.
 */
function listChanges(live: readonly RefAccess[], level: number, users: readonly number[] | undefined, groups: readonly number[] | undefined): Record<string, unknown>[] {
  const changes: Record<string, unknown>[] = [];
  const [role, ...otherRoles] = roleEntries(live);
  if (!role) changes.push({ access_level: level });
  else if (role.access_level !== level) changes.push({ id: role.id, access_level: level });
  for (const extra of otherRoles) changes.push({ id: extra.id, _destroy: true });
  for (const [wanted, key] of [[users, "user_id"], [groups, "group_id"]] as const) {
    if (wanted === undefined) continue;
    const present = live.filter((entry) => entry[key] != null);
    for (const entry of present) if (!wanted.includes(entry[key] as number)) changes.push({ id: entry.id, _destroy: true });
    for (const id of wanted) if (!present.some((entry) => entry[key] === id)) changes.push({ [key]: id });
  }
  return changes;
}

/** The one PATCH body that brings the rule to the inputs; empty when it is there already. */
function patchBody(args: Inputs, live: ProtectedBranchLive): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const kind of ["push", "merge", "unprotect"] as const) {
    const list = live[LISTS[kind]] as RefAccess[] | undefined;
    if (list === undefined) continue;
    const people = PEOPLE[kind];
    const changes = listChanges(list, refLevelNumber(args[people.level]) as number, args[people.users] as number[] | undefined, args[people.groups] as number[] | undefined);
    if (changes.length > 0) body[`allowed_to_${kind}`] = changes;
  }
  if (args.allowForcePush !== live.allow_force_push) body.allow_force_push = args.allowForcePush;
  if (args.codeOwnerApprovalRequired !== undefined && args.codeOwnerApprovalRequired !== live.code_owner_approval_required) body.code_owner_approval_required = args.codeOwnerApprovalRequired;
  return body;
}

/**
 * The role levels a PATCH asked for that its answer does not show: a server
 * that does not change levels in place (below Premium, as the API's
 * documentation says) answers 200 and leaves them; the update fails, naming
 * each, rather than recording a change the server did not make.
 */
function levelsLeft(args: Inputs, asked: Record<string, unknown>, answer: ProtectedBranchLive): string[] {
  return (["push", "merge", "unprotect"] as const).flatMap((kind) => {
    const list = answer[LISTS[kind]] as RefAccess[] | undefined;
    if (asked[`allowed_to_${kind}`] === undefined || list === undefined) return [];
    const property = PEOPLE[kind].level;
    const wanted = refLevelNumber(args[property]);
    const shown = roleLevelOf(list);
    return shown === wanted ? [] : [`${property}: the server kept ${refLevelInWords(shown)} where ${refLevelInWords(wanted)} was asked: ${LEVELS_IN_PLACE}; on this server, replace the rule to change it (\`pulumi up --replace\`), which unprotects the branch between its removal and its new protection`];
  });
}

const findRule = (ctx: EngineContext, args: Inputs) =>
  protectedBranchRequests.find(ctx.client, protectedBranchesOf(args.project), { search: args.name }, (rule) => rule.name === args.name);

export const protectedBranchDefinition = defineObjectResource({
  name: "ProtectedBranch",
  words: {
    noun: "protected branch",
    says: ({ kind, before, after }) =>
      after === undefined || (kind === "replace" && before?.name !== after.name)
        ? "unprotects it: the branches it matched can then be pushed to, force pushed and merged into by anyone with the Developer role, unless another rule protects them"
        : undefined,
  },
  imported: {
    word: "protected-branch",
    listed: "protected branches",
    on: ["project"],
    async find({ ctx, owner }) {
      const address = ownerAddress(owner);
      const rules = await protectedBranchRequests.list(ctx.client, protectedBranchesOf(owner.id));
      // A group's rule shown in the project's list is the group's, not the project's to declare.
      const own = rules.filter((rule) => rule.inherited !== true);
      return {
        found: own.map((rule) => ({ importId: protectedBranchId(owner.id, rule.name), name: rule.name, live: rule, address })),
        skipped: rules.filter((rule) => rule.inherited === true).map((rule) => ({ what: `protected branch ${rule.name}`, why: "inherited from the project's group" })),
      };
    },
    async findOne({ owner, read }, key) {
      const address = ownerAddress(owner);
      const importId = protectedBranchId(owner.id, String(key));
      const live = await read(importId, address);
      return live ? { found: [{ importId, name: String(key), live, address }] } : { found: [], skipped: [{ what: `protected branch ${key}`, why: "not protected on the project" }] };
    },
  },
  terraform: [{ type: "gitlab_branch_protection", target: projectKeyTarget }],
  idForm: protectedBranchIdForm,
  schema,
  outputs: {
    /** The rule's numeric id on the server. */
    protectedBranchId: { value: (live: ProtectedBranchLive) => live.id, derivedFrom: [] },
    /** The push levels as the server holds them: each entry's id, level, user or group, and description. */
    pushAccessLevels: { value: (live: ProtectedBranchLive) => live.push_access_levels, derivedFrom: [] },
    /** The merge levels as the server holds them. */
    mergeAccessLevels: { value: (live: ProtectedBranchLive) => live.merge_access_levels, derivedFrom: [] },
    /** The unprotect levels as the server holds them (empty where the server has none). */
    unprotectAccessLevels: { value: (live: ProtectedBranchLive) => live.unprotect_access_levels ?? [], derivedFrom: [] },
  },
  // The rule exists when its name is protected already: the default branch is, from the project's creation.
  needs: (args, operation) => operation === "read" ? protectedBranchReadNeeds(args) : ({
    ...protectedRefNeeds(args),
    ...(operation === "update" ? { tier: "premium" as const, tierFor: { properties: ["pushAccessLevel", "mergeAccessLevel", "unprotectAccessLevel"], what: LEVELS_IN_PLACE } } : {}),
    // On Premium and Ultimate, unprotecting also needs what the rule's unprotect level names (`unprotection_restrictions`).
    ...(operation === "delete" ? { phrase: "at least the Maintainer role (on Premium and Ultimate, also the role the rule's unprotectAccessLevel names)" } : {}),
    unique: {
      list: "protected branches",
      read: (ctx, owner) => protectedBranchRequests.list(ctx.client, `${owner.apiPath}/protected_branches`),
      find: (rules, owner) => {
        const same = (rules as ProtectedBranchLive[]).find((rule) => rule.name === args.name);
        return same && { what: `protected branch ${args.name}${same.name === owner.defaultBranch ? " (the default branch, protected when the project was made)" : ""}`, id: protectedBranchId(args.project, args.name) };
      },
    },
  }),

  async create(ctx, args) {
    // A lost answer is settled by the list: the rule of this name is there or it is not.
    const live = await protectedBranchRequests.post(ctx.client, protectedBranchesOf(args.project), createBody(args), () => findRule(ctx, args));
    return { id: protectedBranchId(args.project, args.name), live };
  },

  read(ctx, id) {
    return protectedBranchRequests.get(ctx.client, parseId(id).path);
  },

  async update(ctx, id, args) {
    const path = parseId(id).path;
    const live = await protectedBranchRequests.get(ctx.client, path);
    const body = patchBody(args, live);
    if (Object.keys(body).length === 0) return live;
    const answer = await protectedBranchRequests.patch(ctx.client, path, body);
    const left = levelsLeft(args, body, answer);
    if (left.length > 0) throw new Error(left.join("; "));
    return answer;
  },

  async delete(ctx, id) {
    await ctx.client.delete(parseId(id).path);
  },

  async adopt(ctx, args) {
    const live = await findRule(ctx, args);
    return live ? { id: protectedBranchId(args.project, args.name), live } : undefined;
  },
});

export type ProtectedBranchArgs = ResourceArgs<typeof schema>;

/**
 * A protected branch rule of a project: who may push, merge, force push and
 * unprotect. A change of levels is made in place, one PATCH; the default
 * branch's rule, made with the project, is taken over with `adoptExisting`.
 *
 * ```ts
 * new ProtectedBranch("main", { project: "acme/web", name: "main", pushAccessLevel: "no_one", mergeAccessLevel: "maintainer", adoptExisting: true });
 * new ProtectedBranch("releases", { project: "acme/web", name: "release/*", pushAccessLevel: "maintainer", mergeAccessLevel: "developer" });
 * ```
 */
export interface ProtectedBranch extends ResourceOutputs<typeof protectedBranchDefinition> {}
export class ProtectedBranch extends PlatformResource {
  static {
    ofKind(this, protectedBranchDefinition);
  }
  constructor(name: string, args: ProtectedBranchArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
