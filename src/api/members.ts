/**
 * Group and project members (`/groups/:id/members`, `/projects/:id/members`):
 * the answers, paths and ids, the roles by name, the needs of each step and
 * the server's rules a membership must meet, which the preview judges.
 */
import { z } from "zod";
import { apiPath, ApiError, pathSegment, ROLE_LEVELS, type PlatformClient, type Role } from "../client";
import { notDotSegments } from "../validation";
import { isNoMembership } from "./access-facts";
import { requestsOf } from "./core";
import { idForm } from "./id-form";
import type { EngineContext, Needs, Operation, Rule, RuleFacts } from "./needs";
import { groupPath, groupRequests } from "./groups";
import { projectPath, projectRequests } from "./projects";
import { onGroup, onProject, type OwnerKind } from "./owner";
import { USERS_PATH } from "./users";

const basicUser = z.looseObject({ id: z.number(), username: z.string() });

/** A member as the members API shows it (`Entities::Member`). */
export const member = z.looseObject({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  /** The user's state: `active`, `blocked`, ... */
  state: z.string(),
  access_level: z.number(),
  /** `YYYY-MM-DD`, or null: no expiry. */
  expires_at: z.string().nullable(),
  created_at: z.string().nullish(),
  /** Who made the membership; absent where the server does not know. */
  created_by: basicUser.nullish(),
  /** `active`, or `awaiting` for a membership waiting for a seat. */
  membership_state: z.string().optional(),
  /** The custom role (Ultimate). */
  member_role: z.looseObject({ id: z.number() }).nullish(),
});
export type Member = z.output<typeof member>;
export const memberRequests = requestsOf(member);

/** A user as `/users` and `/users/:id` show one (`UserBasic`). */
export const userBasic = basicUser.extend({ state: z.string().optional() });
const userBasicRequests = requestsOf(userBasic);

/** The roles a membership may have, by the names the other kinds use (`developer`), lowest first. */
export const MEMBER_ROLES = Object.fromEntries(Object.entries(ROLE_LEVELS).map(([role, level]) => [role.toLowerCase(), level])) as {
  [R in Role as Lowercase<R>]: (typeof ROLE_LEVELS)[R];
};
export type MemberRoleName = keyof typeof MEMBER_ROLES;
const LEVELS: readonly number[] = Object.values(MEMBER_ROLES);

/** A role by name (`maintainer`) or access level (40). */
export const memberAccessLevel = z.custom<MemberRoleName | number>(
  (value) => (typeof value === "string" && value in MEMBER_ROLES) || (typeof value === "number" && LEVELS.includes(value)),
  { error: `must be a role (${Object.keys(MEMBER_ROLES).join(", ")}) or one of the access levels ${LEVELS.join(", ")}` },
);

/** The access level of a role given by name or number. */
export const levelOf = (value: MemberRoleName | number): number => (typeof value === "number" ? value : MEMBER_ROLES[value]);

/** A role in words: `Developer` (an unknown level as its number). */
export function roleName(level: number): string {
  const role = (Object.keys(ROLE_LEVELS) as Role[]).find((name) => ROLE_LEVELS[name] === level);
  return role ?? `access level ${level}`;
}

const USERNAME = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;
const USER_FORM = "a user id or a username such as alice";

/** A user: a username (`alice`) or a numeric id. */
export const userReference = z
  .union([z.number().int({ message: `must be ${USER_FORM}` }).positive({ message: `must be ${USER_FORM}` }), z.string().max(255, { message: "must be a username of at most 255 characters" }).regex(USERNAME, { message: `must be ${USER_FORM}` })], {
    error: (issue) => (issue.input === undefined ? `is required: ${USER_FORM}` : `must be ${USER_FORM}`),
  })
  .refine(...notDotSegments);

/** A date as `YYYY-MM-DD`. */
export const isoDate = z.string().refine((text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)), { message: "must be a date as YYYY-MM-DD" });

/** The members of the group or project at `ownerPath` (`/groups/12/members`). */
export const membersOf = (ownerPath: string): string => `${ownerPath}/members`;
/** Direct and inherited (`/groups/12/members/all`). */
export const allMembersOf = (ownerPath: string): string => `${ownerPath}/members/all`;
/** One direct member. */
export const memberOf = (ownerPath: string, userId: number): string => `${ownerPath}/members/${pathSegment(userId)}`;
/** The API path of a group or project. */
export const sourcePath = (kind: OwnerKind, ref: string | number): string => (kind === "group" ? apiPath`/groups/${ref}` : apiPath`/projects/${ref}`);

/** A membership's id as resources record it: `groups/acme/members/7`, `projects/acme%2Fweb/members/7`. */
export const memberId = (kind: OwnerKind, ref: string | number, userId: number): string => `${kind}s/${encodeURIComponent(String(ref))}/members/${userId}`;

const MEMBER_ID = /^(groups|projects)\/([^/]+)\/members\/(\d+)$/;

/** A recorded membership id read back; undefined when it is not one. */
export function parseMemberId(id: string): { kind: OwnerKind; ref: string; path: string; userId: number } | undefined {
  const match = MEMBER_ID.exec(id);
  if (!match) return undefined;
  const ref = decodeURIComponent(match[2]!);
  return { kind: match[1] === "groups" ? "group" : "project", ref, path: `/${id}`, userId: Number(match[3]) };
}

export const groupMemberIdForm = idForm("of the form groups/<group>/members/<user id>", (id) => {
  const parsed = parseMemberId(id);
  return parsed?.kind === "group" ? parsed : undefined;
});
export const projectMemberIdForm = idForm("of the form projects/<project>/members/<user id>", (id) => {
  const parsed = parseMemberId(id);
  return parsed?.kind === "project" ? parsed : undefined;
});

/** The user a reference names (`GET /users?username=` or `GET /users/:id`); undefined when the server shows none. */
export async function findUser(client: PlatformClient, user: string | number): Promise<z.output<typeof userBasic> | undefined> {
  if (typeof user === "number") {
    try {
      return await userBasicRequests.get(client, apiPath`/users/${user}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }
  return (await userBasicRequests.getAll(client, USERS_PATH, { username: user })).find((found) => found.username.toLowerCase() === user.toLowerCase());
}

/** The user's numeric id, read once for a username. */
export async function userIdOf(client: PlatformClient, user: string | number): Promise<number> {
  if (typeof user === "number") return user;
  const found = await findUser(client, user);
  if (!found) throw new Error(`user: no user ${user} exists, or the token's user cannot see it`);
  return found.id;
}

/** What a membership's steps name: its owner and user. */
export interface MembershipArgs {
  kind: OwnerKind;
  ref: string | number;
  user: string | number;
  /** The role the step gives (none for a read or a delete). */
  level?: number;
  /** The day the membership ends, as declared. */
  expiresAt?: string;
}

/**
 * Managing a group's members needs `admin_group_member` (Owner); a project's,
 * `admin_project_member` (Maintainer), and the Owner role to give the Owner
 * role. Reading them needs only to see the owner.
 */
export function memberNeeds(args: MembershipArgs, operation: Operation): Needs {
  const on = args.kind === "group" ? onGroup(args.ref) : onProject(args.ref);
  if (operation === "read") return { on };
  const role: Role = args.kind === "group" || args.level === ROLE_LEVELS.Owner ? "Owner" : "Maintainer";
  return { on, role, rules: membershipRules(args, operation) };
}

/** The user's word in a message: its username as the program gives it, or `user 7`. */
const userWords = (user: string | number) => (typeof user === "number" ? `user ${user}` : user);

/** The full paths of the groups above an owner, nearest first (`acme/platform/infra` → `acme/platform`, `acme`). */
function groupsAbove(owner: SourceFacts): string[] {
  const parts = owner.fullPath.split("/");
  const above: string[] = [];
  for (let end = parts.length - 1; end >= 1; end--) above.push(parts.slice(0, end).join("/"));
  return above;
}

/** The user's highest role inherited from the groups above the owner, and the group it is a member of; undefined for none. */
async function inheritedRole(client: PlatformClient, owner: SourceFacts, userId: number): Promise<{ level: number; group: string } | undefined> {
  const above = groupsAbove(owner);
  if (above.length === 0) return undefined;
  const effective = await memberOr404(client, `${sourcePath("group", above[0]!)}/members/all/${userId}`);
  if (!effective) return undefined;
  for (const group of above) {
    const direct = await memberOr404(client, memberOf(sourcePath("group", group), userId));
    if (direct?.access_level === effective.access_level) return { level: effective.access_level, group };
  }
  // Through a share, or a group the reads cannot see: the role, without the group.
  return { level: effective.access_level, group: above[0]! };
}

async function memberOr404(client: PlatformClient, path: string): Promise<Member | undefined> {
  try {
    return await memberRequests.get(client, path);
  } catch (error) {
    if (isNoMembership(error)) return undefined;
    throw error;
  }
}

/** The one wording of the last Owner rule. */
const lastOwner = (user: string | number, group: string, what: string) =>
  `${userWords(user)} is the last Owner of group ${group}, and the server refuses to ${what} the last Owner; make another member an Owner first`;

/** A group or project as the rules read it: its id, full path and API path. */
export interface SourceFacts {
  kind: OwnerKind;
  id: number;
  fullPath: string;
  apiPath: string;
}

/** The group or project the arguments name, read as the preview reads its owner (one read per run); undefined when hidden or missing. */
export async function sourceFacts(client: PlatformClient, kind: OwnerKind, ref: string | number): Promise<SourceFacts | undefined> {
  try {
    if (kind === "group") {
      const group = await groupRequests.get(client, groupPath(ref), { with_projects: false });
      return { kind, id: group.id, fullPath: group.full_path, apiPath: groupPath(group.id) };
    }
    const project = await projectRequests.get(client, projectPath(ref));
    return { kind, id: project.id, fullPath: project.path_with_namespace, apiPath: projectPath(project.id) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/** A rule judged on the membership's owner, once it is found. */
const onOwner =
  (args: MembershipArgs, judge: (ctx: EngineContext, owner: SourceFacts, facts: RuleFacts) => Promise<string | undefined>) =>
  async (ctx: EngineContext, facts: RuleFacts): Promise<string | undefined> => {
    const owner = await sourceFacts(ctx.client, args.kind, args.ref);
    return owner && judge(ctx, owner, facts);
  };

/**
 * The server's rules for a membership's step: the user exists and is not
 * blocked; a role is no lower than one inherited from a group above; no
 * expiry in the past; a project's Owner membership is changed or removed by
 * an Owner only; a group keeps an Owner (its last one is neither removed nor
 * lowered). The last two are rules of the existing membership, judged on each
 * step on it; their words name the input.
 */
function membershipRules(args: MembershipArgs, operation: Operation): Rule[] {
  const rules: Rule[] = [];
  const { user, level } = args;
  if (operation === "create") {
    rules.push({
      property: "user",
      async judge(ctx) {
        const found = await findUser(ctx.client, user);
        if (!found) return `no user ${userWords(user)} exists, or the token's user cannot see it`;
        if (found.state === "blocked") return `user ${found.username} is blocked: an administrator must unblock the account before it is given a membership`;
        return undefined;
      },
    });
  }
  if (level !== undefined && (operation === "create" || operation === "update")) {
    rules.push({
      property: "accessLevel",
      judge: onOwner(args, async (ctx, owner) => {
        const found = await findUser(ctx.client, user);
        const inherited = found && (await inheritedRole(ctx.client, owner, found.id));
        if (!inherited || inherited.level <= level) return undefined;
        return `must be at least the inherited ${roleName(inherited.level)} from group ${inherited.group} (${userWords(user)} is ${roleName(inherited.level)} there); the server refuses a direct role below it`;
      }),
    });
    rules.push({
      property: "expiresAt",
      async judge() {
        return args.expiresAt !== undefined && args.expiresAt < new Date().toISOString().slice(0, 10)
          ? `${args.expiresAt} is in the past: the server refuses a membership that has already ended`
          : undefined;
      },
    });
  }
  // A project's Owner membership is changed or removed only by an Owner, whatever role manages the project's members.
  if (args.kind === "project" && (operation === "update" || operation === "delete")) {
    rules.push({
      judge: onOwner(args, async (ctx, owner, token) => {
        if (token.isAdmin) return undefined;
        const found = await findUser(ctx.client, user);
        const current = found && (await memberOr404(ctx.client, memberOf(owner.apiPath, found.id)));
        if (current?.access_level !== ROLE_LEVELS.Owner) return undefined;
        const own = await memberOr404(ctx.client, `${owner.apiPath}/members/all/${token.userId}`);
        if ((own?.access_level ?? 0) >= ROLE_LEVELS.Owner) return undefined;
        const property = operation === "delete" ? "user" : "accessLevel";
        return `${property}: ${userWords(user)} is an Owner of project ${owner.fullPath}, whose membership only an Owner changes or removes, and the token's user (${token.username}) is not one`;
      }),
    });
  }
  if (args.kind === "group" && (operation === "delete" || (operation === "update" && level !== undefined && level < ROLE_LEVELS.Owner))) {
    rules.push({
      judge: onOwner(args, async (ctx, owner) => {
        const found = await findUser(ctx.client, user);
        if (!found) return undefined;
        const members = await memberRequests.list(ctx.client, allMembersOf(owner.apiPath), { per_page: 100 });
        const owners = members.filter((one) => one.access_level === ROLE_LEVELS.Owner);
        if (owners.length !== 1 || owners[0]!.id !== found.id) return undefined;
        const property = operation === "delete" ? "user" : "accessLevel";
        return `${property}: ${lastOwner(user, owner.fullPath, operation === "delete" ? "remove" : "lower the role of")}`;
      }),
    });
  }
  return rules;
}

/** The arguments of the members data functions: the owner, and `all` for the inherited members too. */
export const membersListPath = (kind: OwnerKind, ref: string | number, all: boolean | undefined): string =>
  (all ? allMembersOf : membersOf)(sourcePath(kind, ref));

