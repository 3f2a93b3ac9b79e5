/**
 * The generic part of GroupMember and ProjectMember: one user's direct
 * membership of a group or a project, its role, expiry and custom role. The
 * role changes in place (`PUT .../members/:user_id`); another user or owner
 * is another membership (a replacement). The server's rules (only an Owner
 * gives the Owner role, no role below an inherited one, a group keeps its last
 * Owner, the user exists and is not blocked) are judged at preview
 * (../api/members.ts).
 */
import { z } from "zod";
import { isNoMembership } from "../api/access-facts";
import { field } from "../api/fields";
import { parsedId, type IdForm } from "../api/id-form";
import {
  findUser,
  groupMemberIdForm,
  isoDate,
  levelOf,
  memberAccessLevel,
  memberId,
  memberNeeds,
  memberOf,
  memberRequests,
  MEMBER_ROLES,
  membersOf,
  projectMemberIdForm,
  roleName,
  sourcePath,
  userIdOf,
  userReference,
  type Member,
  type MemberRoleName,
} from "../api/members";
import type { OwnerKind } from "../api/owner";
import { ownerReference } from "../api/owner";
import { defineObjectResource, named, type EngineContext, type ObjectName, type StepWords } from "../engine/definition";
import { idPair, wholeNumber, type TerraformTarget } from "../engine/estate";
import { requestBody, UNKNOWN } from "../engine/values";
import { adoptExisting, ownerInput } from "./common";

/** The inputs every membership has besides its owner. */
const membershipFields = {
  /** The member: a username (`alice`) or a numeric user id. Another user is another membership. */
  user: field(userReference, { local: true, replaceOnChange: true }),
  /** The role: `guest`, `planner`, `reporter`, `developer`, `maintainer`, `owner`, or its access level (10 to 50). */
  accessLevel: field(memberAccessLevel, {
    toApi: (value, body) => {
      body.access_level = levelOf(value as MemberRoleName | number);
    },
    sameValue: (declared, live) => levelOf(declared as MemberRoleName | number) === live,
  }),
  /** The day the membership ends (`YYYY-MM-DD`), from which the server removes it; none: it never ends. */
  expiresAt: field(isoDate.optional(), { unsetAs: null }),
  /** A custom role of the top-level group (Ultimate), by id; its base role is `accessLevel`. */
  memberRoleId: field(z.number().int().positive().optional(), {
    tier: "ultimate",
    unsetAs: null,
    fromApi: (live) => (live.member_role as { id?: number } | null | undefined)?.id ?? undefined,
  }),
  adoptExisting,
};

type Inputs = { user: string | number; accessLevel: MemberRoleName | number; expiresAt?: string; memberRoleId?: number; adoptExisting?: boolean };

/** A membership's user in a review's words: the username the state records, else as the program names it. */
function userInWords(inputs: Record<string, unknown> | undefined): string {
  const user = inputs?.user;
  if (user === undefined || user === UNKNOWN) return "a user known at apply";
  return typeof user === "number" ? `user ${named(user)}` : named(String(user));
}

/** A role in a review's words (`Developer`), from a role's name or access level; a value of no role named as it is. */
export function roleInWords(value: unknown): string | undefined {
  if (value === undefined || value === UNKNOWN) return undefined;
  if (typeof value === "number" && Number.isInteger(value)) return roleName(value);
  if (typeof value === "string" && Object.hasOwn(MEMBER_ROLES, value)) return roleName(levelOf(value as MemberRoleName));
  return `the role ${named(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)))}`;
}

/** " until `2027-01-31`", where the inputs give the day a membership or share ends. */
export const untilInWords = (inputs: Record<string, unknown>): string =>
  typeof inputs.expiresAt === "string" && inputs.expiresAt !== UNKNOWN ? ` until ${named(inputs.expiresAt)}` : "";

/** "gives alice Maintainer on project acme/web, was Developer"; a removal: "takes Developer on project acme/web away from alice". */
export const membershipWords: StepWords = ({ before, after, owner }) => {
  const was = roleInWords(before?.accessLevel);
  const now = roleInWords(after?.accessLevel);
  const takes = was && `takes ${was} on ${owner} away from ${userInWords(before)}`;
  if (!after) return takes;
  const until = untilInWords(after);
  const who = userInWords(after);
  const gives = now ? `gives ${who} ${now} on ${owner}${until}` : `gives ${who} a role known at apply on ${owner}`;
  // Another user: the one loses what the other gains.
  if (takes && userInWords(before) !== who) return `${takes}; ${gives}`;
  if (!now || was === undefined) return gives;
  if (was === now) return before?.expiresAt === after.expiresAt ? undefined : `keeps ${who} ${now} on ${owner}${until || ", with no end"}`;
  return `gives ${who} ${now} on ${owner}${until}, was ${was}`;
};

/** A membership as the review names it: its user's username, as the server showed it or the program named it. */
const memberName: ObjectName = (values) => [values.username, values.user].find((user): user is string => typeof user === "string" && user !== "" && user !== UNKNOWN);

/** A Terraform state's membership: `<owner id>:<user id>`. */
function terraformMembership(kind: OwnerKind, id: string): TerraformTarget | undefined {
  const parts = idPair(id);
  const user = wholeNumber(parts?.[1]);
  return parts && user !== undefined ? { owner: { kind, ref: parts[0] }, key: user } : undefined;
}

/** Project and group access tokens' bots are members through their tokens, not through a program. */
const isTokenBot = (member: Member) => /^(group|project)_\d+_bot(_[0-9a-f]+)?$/.test(member.username);

/** The declaration of one kind of membership: GroupMember (`group`) or ProjectMember (`project`). */
export function membershipDefinition<K extends OwnerKind>(kind: K, name: string) {
  const idFormOf: IdForm<{ ref: string; path: string; userId: number }> = kind === "group" ? groupMemberIdForm : projectMemberIdForm;
  const ownerShape = {
    [kind]: ownerInput(ownerReference),
  } as { [P in K]: typeof ownerReference };
  const schema = z.object({ ...ownerShape, ...membershipFields });
  type Args = Inputs & Record<K, string | number>;
  const refOf = (args: Args): string | number => args[kind];
  const ownerPathOf = (args: Args) => sourcePath(kind, refOf(args));
  const parse = (id: string) => parsedId(name, idFormOf, id);
  const directMember = async (ctx: EngineContext, ownerPath: string, userId: number): Promise<Member | undefined> => {
    try {
      return await memberRequests.get(ctx.client, memberOf(ownerPath, userId));
    } catch (error) {
      if (isNoMembership(error)) return undefined;
      throw error;
    }
  };
  const needsOf = (args: Args, operation: "create" | "read" | "update" | "delete") =>
    memberNeeds({ kind, ref: refOf(args), user: args.user, level: levelOf(args.accessLevel), ...(args.expiresAt !== undefined ? { expiresAt: args.expiresAt } : {}) }, operation);

  return defineObjectResource({
    name,
    words: { noun: `${kind} member`, says: membershipWords, name: memberName },
    imported: {
      word: `${kind}-member`,
      listed: `${kind} members`,
      on: [kind],
      async find({ ctx, owner }) {
        const address = { [kind]: owner.id };
        const members = await memberRequests.list(ctx.client, membersOf(sourcePath(kind, owner.id)));
        const found = members.filter((member) => !isTokenBot(member)).map((member) => ({ importId: memberId(kind, owner.id, member.id), name: member.username, live: member, address: { ...address, user: member.username } }));
        const bots = members.filter(isTokenBot);
        return {
          found,
          skipped: bots.map((member) => ({ what: `${kind} member ${member.username}`, why: "an access token's bot, a member through its token" })),
          // An only-these set of them leaves the bots to their tokens.
          collections: [{ address: { ...address, ...(bots.length ? { ignore: bots.map((member) => member.username) } : {}) }, members: found.map((one) => one.importId) }],
        };
      },
      async findOne({ owner, read }, key) {
        const address = { [kind]: owner.id };
        const importId = memberId(kind, owner.id, Number(key));
        const live = await read(importId, address);
        if (!live) return { found: [], skipped: [{ what: `${kind} member ${key}`, why: "not a direct member" }] };
        return { found: [{ importId, name: String(live.username), live, address: { ...address, user: live.username } }] };
      },
    },
    terraform: [{ type: `gitlab_${kind}_membership`, target: (id) => terraformMembership(kind, id) }],
    idForm: idFormOf,
    schema,
    outputs: {
      /** The member's numeric user id. */
      userId: { value: (live: Member) => live.id, fromId: (id: string) => parse(id).userId, derivedFrom: [] },
      /** The member's username, as the server has it. */
      username: { value: (live: Member) => live.username, derivedFrom: [] },
      /** The user's state: `active`, or `blocked` for an account an administrator blocked. */
      userState: { value: (live: Member) => live.state, derivedFrom: [] },
      /** `active`, or `awaiting` for a membership waiting for a seat. */
      membershipState: { value: (live: Member) => live.membership_state ?? "active", derivedFrom: [] },
      /** Who made the membership (a username); null where the server does not say. */
      createdBy: { value: (live: Member) => live.created_by?.username ?? null, derivedFrom: [] },
      /** When the membership was made. */
      createdAt: { value: (live: Member) => live.created_at ?? null, derivedFrom: [] },
    },
    needs: (args, operation) => ({
      ...needsOf(args as Args, operation),
      // A direct membership of the same user is one the server refuses to make twice (409).
      unique: {
        list: `${kind} members`,
        read: (ctx, owner) => memberRequests.list(ctx.client, membersOf(owner.apiPath)),
        find: (members, owner) => {
          const user = (args as Args).user;
          const same = (members as Member[]).find((member) => (typeof user === "number" ? member.id === user : member.username.toLowerCase() === user.toLowerCase()));
          return same && { what: `a membership of ${same.username}`, id: memberId(kind, owner.fullPath, same.id) };
        },
      },
    }),

    async create(ctx, args) {
      const inputs = args as Args;
      const userId = await userIdOf(ctx.client, inputs.user);
      const ownerPath = ownerPathOf(inputs);
      const body = { user_id: userId, ...requestBody(this.fields, args) };
      // If the answer is lost, the membership it made is found rather than refused as made twice.
      const live = await memberRequests.post(ctx.client, membersOf(ownerPath), body, () => directMember(ctx, ownerPath, userId));
      return { id: memberId(kind, refOf(inputs), userId), live };
    },

    async read(ctx, id) {
      const { path } = parse(id);
      return memberRequests.get(ctx.client, path);
    },

    async update(ctx, id, args, changed) {
      // The server takes the role with every change.
      const body = { ...requestBody(this.fields, args, changed), access_level: levelOf((args as Args).accessLevel) };
      return memberRequests.put(ctx.client, parse(id).path, body);
    },

    async delete(ctx, id) {
      await ctx.client.delete(parse(id).path);
    },

    async adopt(ctx, args) {
      const inputs = args as Args;
      const user = await findUser(ctx.client, inputs.user);
      const live = user && (await directMember(ctx, ownerPathOf(inputs), user.id));
      return live ? { id: memberId(kind, refOf(inputs), live.id), live } : undefined;
    },
  });
}
