/**
 * ExclusiveGroupMembers and ExclusiveProjectMembers: "these direct members
 * and no others" of a group or a project (see ./exclusive-set.ts for when it
 * records and removes). Inherited members are the groups' above, never
 * removed here. The set never removes the token's user nor a group's last
 * Owner: a program whose set would is refused at preview.
 */
import { allMembersOf, memberNeeds, memberOf, memberRequests, membersOf, parseMemberId, roleName, sourceFacts, sourcePath, type Member } from "../api/members";
import type { Rule } from "../api/needs";
import { ownerReference, type OwnerKind } from "../api/owner";
import { ROLE_LEVELS } from "../client";
import type { EngineContext, StepWords } from "../engine/definition";
import { isUnknown } from "../engine/values";
import { exclusiveSetDefinition, strays, type CommonInputs, type Entry, type KeptValue } from "./exclusive-set";
import { membershipWords } from "./membership";

const entryOf = (member: Member): Entry => ({ userId: member.id, userName: member.username, accessLevel: member.access_level });

/** A member a `keep` value names: a membership's `userId` (7) or its `id` (`groups/acme/members/7`). */
function keptKey(value: KeptValue): string | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value > 0 ? String(value) : undefined;
  return /^\d+$/.test(value) ? value : parseMemberId(value) ? String(parseMemberId(value)!.userId) : undefined;
}

/**
 * What the set would remove must leave the token's user and a group's Owner:
 * judged on the members as the server has them now, when every `keep` value
 * is known (one known only at apply may name any of them).
 */
function keepsWhatMustStay<A extends Record<string, unknown>>(kind: OwnerKind, collection: Parameters<typeof strays<A>>[0], args: A & CommonInputs): Rule["judge"] {
  return async (ctx, { userId: id, username, isAdmin }) => {
      if (args.keep.some(isUnknown)) return undefined;
      const owner = await sourceFacts(ctx.client, kind, args[kind] as string | number);
      if (!owner) return undefined;
      const members = await memberRequests.list(ctx.client, membersOf(owner.apiPath), { per_page: 100 });
      const removed = strays(collection, { keep: args.keep, ignore: args.ignore, unexpected: [] }, members.map(entryOf));
      const own = removed.find((entry) => String(entry.userName).toLowerCase() === username.toLowerCase());
      if (own) return `the set would remove the token's user (${username}, ${roleName(Number(own.accessLevel))} of ${kind} ${owner.fullPath}), which it never does: keep it, or ignore it`;
      // A project's Owner membership is removed only by an Owner.
      const owners = removed.filter((entry) => Number(entry.accessLevel) === ROLE_LEVELS.Owner);
      if (kind === "project" && owners.length > 0 && !isAdmin) {
        const own = await memberRequests.get(ctx.client, `${allMembersOf(owner.apiPath)}/${id}`).catch(() => undefined);
        if (own && own.access_level < ROLE_LEVELS.Owner) {
          return `the set would remove ${owners.map((entry) => entry.userName).join(", ")}, an Owner of project ${owner.fullPath}, which only an Owner may, and the token's user (${username}) is not one: keep them, or ignore them`;
        }
      }
      if (kind !== "group") return undefined;
      const groupOwners = (await memberRequests.list(ctx.client, allMembersOf(owner.apiPath), { per_page: 100 })).filter((member) => member.access_level === ROLE_LEVELS.Owner);
      const gone = new Set(removed.map((entry) => Number(entry.userId)));
      if (groupOwners.length === 0 || groupOwners.some((member) => !gone.has(member.id))) return undefined;
      return `the set would remove the last Owner of group ${owner.fullPath} (${groupOwners.map((member) => member.username).join(", ")}), which the server refuses: keep one`;
  };
}

type Owner<K extends OwnerKind> = Record<K, string | number>;

/** The only-these set of one kind of owner's direct members. */
export function exclusiveMembershipsDefinition<K extends OwnerKind>(kind: K, name: string, membersKind: string) {
  type A = Owner<K>;
  const ownerPath = (args: A) => sourcePath(kind, args[kind]);
  const collection = {
    name,
    noun: `${kind} member`,
    imported: { setOf: membersKind, keeps: "userId" },
    owner: { [kind]: ownerReference },
    collectionPath: (args: A) => membersOf(ownerPath(args)).slice(1),
    ownerOf: (id: string) => ({ [kind]: decodeURIComponent(id.split("/")[1] ?? "") }) as Partial<A>,
    // Listing needs only to see the owner; removing, the role that manages its members.
    needs(args: A, operation: "create" | "read" | "update") {
      const needs = memberNeeds({ kind, ref: args[kind], user: "" }, operation === "update" ? "delete" : "read");
      const inputs = args as A & CommonInputs;
      // Judged on the first preview (`keep` as declared), and on each update that removes (a rule of the set itself).
      const judge = keepsWhatMustStay(kind, collection, inputs);
      const rules: Rule[] =
        operation === "read" || !Array.isArray(inputs.keep)
          ? []
          : [{ property: "keep", judge }, { judge: async (ctx, facts) => ((reason) => reason && `keep: ${reason}`)(await judge(ctx, facts)) }];
      return { on: needs.on, ...(operation === "update" && needs.role ? { role: needs.role } : {}), ...(rules.length ? { rules } : {}) };
    },
    async list(ctx: EngineContext, args: A) {
      return (await memberRequests.list(ctx.client, membersOf(ownerPath(args)))).map(entryOf);
    },
    keyOf: (entry: Entry) => String(entry.userId),
    keptKey,
    keepForm: `a ${membersKind}'s userId or id`,
    matchable: (entry: Entry) => [String(entry.userId), String(entry.userName)],
    describe: (entry: Entry) => `${kind} member ${entry.userId} \`${entry.userName}\` (${roleName(Number(entry.accessLevel))})`,
    members: {
      name: (entry: Record<string, unknown>) => (typeof entry.userName === "string" && entry.userName !== "" ? entry.userName : undefined),
      says: ({ before, owner }: Parameters<StepWords>[0]) => membershipWords({ kind: "delete", before: { user: before?.userName, accessLevel: before?.accessLevel }, owner }),
    },
    async remove(ctx: EngineContext, args: A, entry: Entry) {
      await ctx.client.delete(memberOf(ownerPath(args), Number(entry.userId)));
    },
  };
  return exclusiveSetDefinition<A>(collection);
}
