/**
 * The members API (`lib/api/members.rb`, `Entities::Member`) for groups and
 * projects alike: `GET /:source/:id/members` (direct), `/members/all` (with
 * the memberships inherited from the groups above and those shares give),
 * `/members/:user_id`, `/members/all/:user_id`, and `POST`, `PUT`, `DELETE`. What it follows is in the emulator's README.
 */
import { groupAccessLevel, projectAccessLevel } from "../../access";
import { ApiError, forbidden, notFound, recordNotFound, validationError } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Group, type User } from "../../state";
import { presentUser } from "../users";
import { detailsOf, highestInherited, inheritedFrom, isLastOwner, membersOfSource, removeMembership, setMembership, type Source, type SourceKind } from "./model";

/** `Gitlab::Access.all_values`: the roles a membership may have. */
const ROLES: Record<number, string> = { 10: "Guest", 15: "Planner", 20: "Reporter", 30: "Developer", 40: "Maintainer", 50: "Owner" };

function sourceOf(ctx: RequestContext<unknown>, kind: SourceKind): Source {
  return kind === "group" ? { kind, group: findGroup(ctx) } : { kind, project: findProject(ctx) };
}

/** The user's role on the source, inherited included (administrators: Owner). */
function roleOn(state: EmulatorState, user: User, source: Source): number {
  if (user.isAdmin) return AccessLevel.Owner;
  return source.kind === "group" ? groupAccessLevel(state, user, source.group) : projectAccessLevel(state, user, source.project);
}

/** `admin_group_member` (Owner) or `admin_project_member` (Maintainer). */
function authorizeAdmin(ctx: RequestContext<unknown>, source: Source): User {
  const user = requireUser(ctx);
  const needed = source.kind === "group" ? AccessLevel.Owner : AccessLevel.Maintainer;
  if (roleOn(ctx.state, user, source) < needed) throw forbidden();
  return user;
}

function basicUser(state: EmulatorState, user: User): Record<string, unknown> {
  const { id, username, name, state: userState, locked, avatar_url, web_url } = presentUser(user, state.instance);
  return { id, username, name, state: userState, locked, avatar_url, web_url };
}

function presentMember(state: EmulatorState, source: Source, user: User, level: number): Record<string, unknown> {
  const details = detailsOf(state, source, user.id);
  const creator = details.createdById === null ? undefined : state.userById(details.createdById);
  return {
    ...basicUser(state, user),
    access_level: level,
    created_at: details.createdAt,
    ...(creator ? { created_by: basicUser(state, creator) } : {}),
    expires_at: details.expiresAt,
    membership_state: "active",
    ...(details.memberRoleId !== null ? { member_role: { id: details.memberRoleId, base_access_level: level } } : {}),
  };
}

type Listed = { user: User; level: number; source: Source };

function direct(state: EmulatorState, source: Source): Listed[] {
  return Object.entries(membersOfSource(source)).flatMap(([id, level]) => {
    const user = state.userById(Number(id));
    return user && level > AccessLevel.NoAccess ? [{ user, level, source }] : [];
  });
}

/**
 * The groups whose members a source's shares reach: those invited into the
 * source or a group above it, with the groups above them (the role model's
 * reach, ../../access.ts).
 */
function invitedInto(state: EmulatorState, source: Source): Group[] {
  const sharers = source.kind === "group" ? state.selfAndAncestors(source.group) : [source.project, ...inheritedFrom(state, source)];
  return sharers.flatMap((sharer) => (sharer.sharedWith ?? []).flatMap((link) => {
    const invited = state.groupById(link.groupId);
    return invited ? state.selfAndAncestors(invited) : [];
  }));
}

/**
 * Direct, inherited and invited (`find_all_members`): each user once, at the
 * role they hold on the source (a project's `project_authorizations`; a
 * group's highest membership, an invited group's at most the share's). The
 * membership shown is the direct one, else the first that gives that role.
 */
function withInherited(state: EmulatorState, source: Source): Listed[] {
  const groups = [...inheritedFrom(state, source), ...invitedInto(state, source)];
  const all = [...direct(state, source), ...groups.flatMap((group) => direct(state, { kind: "group", group }))];
  const chosen = new Map<number, Listed>();
  for (const entry of all) {
    if (chosen.has(entry.user.id)) continue;
    const level = source.kind === "group" ? groupAccessLevel(state, entry.user, source.group) : projectAccessLevel(state, entry.user, source.project);
    if (level === AccessLevel.NoAccess) continue;
    const isDirect = entry.source === source;
    const giving = isDirect ? entry : (all.find((candidate) => candidate.user.id === entry.user.id && candidate.level === level) ?? entry);
    chosen.set(entry.user.id, { ...giving, level });
  }
  return [...chosen.values()];
}

const listParams = { id: { type: "string", required: true }, query: { type: "string" } } as const;

/** `user_ids`, coerced as `CommaSeparatedToIntegerArray` does: `1,2` or a list; undefined when absent. */
function userIdsOf(raw: unknown): number[] | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  const parts = (Array.isArray(raw) ? raw : String(raw).split(",")).map((part) => String(part).trim());
  if (!parts.every((part) => /^\d+$/.test(part))) throw new ApiError(400, { error: "user_ids is invalid" });
  return parts.map(Number);
}

function listRoute(kind: SourceKind, deep: boolean): RouteDefinition {
  return route("GET", `/${kind}s/:id/members${deep ? "/all" : ""}`, { params: listParams, paginated: true }, (ctx) => {
    requireUser(ctx);
    const source = sourceOf(ctx, kind);
    const { query } = ctx.params;
    const userIds = userIdsOf(ctx.rawParams.user_ids);
    const needle = query?.toLowerCase();
    const members = (deep ? withInherited(ctx.state, source) : direct(ctx.state, source))
      .filter(({ user }) => !needle || user.username.toLowerCase().includes(needle) || user.name.toLowerCase().includes(needle))
      .filter(({ user }) => !userIds || userIds.includes(user.id))
      .sort((a, b) => a.user.id - b.user.id);
    return paginate(ctx, members, { present: (entry) => presentMember(ctx.state, entry.source, entry.user, entry.level) });
  });
}

const oneParams = { id: { type: "string", required: true }, user_id: { type: "integer", required: true } } as const;

function directMember(ctx: RequestContext<{ user_id: number }>, source: Source): { user: User; level: number } {
  const level = membersOfSource(source)[String(ctx.params.user_id)];
  const user = ctx.state.userById(ctx.params.user_id);
  if (level === undefined || !user) throw recordNotFound();
  return { user, level };
}

function getRoute(kind: SourceKind): RouteDefinition {
  return route("GET", `/${kind}s/:id/members/:user_id`, { params: oneParams }, (ctx) => {
    requireUser(ctx);
    const source = sourceOf(ctx, kind);
    const { user, level } = directMember(ctx, source);
    return ok(presentMember(ctx.state, source, user, level));
  });
}

/** One member of `members/all`: the same entry the list shows (`find_all_members(source).find_by!(user_id:)`). */
function getInheritedRoute(kind: SourceKind): RouteDefinition {
  return route("GET", `/${kind}s/:id/members/all/:user_id`, { params: oneParams }, (ctx) => {
    requireUser(ctx);
    const source = sourceOf(ctx, kind);
    const entry = withInherited(ctx.state, source).find(({ user }) => user.id === ctx.params.user_id);
    if (!entry) throw recordNotFound();
    return ok(presentMember(ctx.state, entry.source, entry.user, entry.level));
  });
}

/** `expires_at` as a date (`YYYY-MM-DD`, or a time whose date is taken); undefined when absent, null when cleared. */
function expiryOf(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null || value === "") return value === "" ? null : value;
  const date = /^(\d{4}-\d{2}-\d{2})/.exec(value)?.[1];
  if (!date || Number.isNaN(Date.parse(date))) throw new ApiError(400, { error: "expires_at is invalid" });
  return date;
}

/**
 * The model's checks of a membership's role and expiry (`Member` validations):
 * a known role; an expiry not in the past; no lower role than one inherited
 * from a group above (`higher_access_level_than_group`).
 */
function validateMembership(state: EmulatorState, source: Source, userId: number, level: number, expiresAt: string | null): void {
  if (!(level in ROLES)) throw validationError({ access_level: ["is not included in the list"] });
  if (expiresAt !== null && expiresAt < state.now().slice(0, 10)) throw validationError({ expires_at: ["cannot be a date in the past"] });
  const inherited = highestInherited(state, source, userId);
  if (inherited && inherited.level > level) {
    throw validationError({ access_level: [`should be greater than or equal to ${ROLES[inherited.level]} inherited membership from group ${inherited.group.name}`] });
  }
}

/** Only an Owner (or an administrator) gives the Owner role or changes an Owner's membership. */
function ownerRule(state: EmulatorState, actor: User, source: Source, levels: number[]): void {
  if (levels.includes(AccessLevel.Owner) && roleOn(state, actor, source) < AccessLevel.Owner) throw forbidden();
}

/** `member_role_id`: custom roles exist on Ultimate only; elsewhere the parameter is ignored. */
function memberRoleOf(state: EmulatorState, source: Source, value: number | null | undefined): number | null | undefined {
  const group = source.kind === "group" ? source.group : state.namespaceOf(source.project);
  return state.tierOf(group) === "ultimate" ? value : undefined;
}

const writeParams = {
  id: { type: "string", required: true },
  access_level: { type: "integer", required: true },
  expires_at: { type: "string", nullable: true },
  member_role_id: { type: "integer", nullable: true },
} as const;

function createRoute(kind: SourceKind): RouteDefinition {
  const params = { ...writeParams, user_id: { type: "string" }, username: { type: "string" } } as const;
  return route("POST", `/${kind}s/:id/members`, { params }, (ctx) => {
    const source = sourceOf(ctx, kind);
    const actor = authorizeAdmin(ctx, source);
    const { state } = ctx;
    const { user_id: userId, username } = ctx.params;
    if (userId === undefined && username === undefined) throw new ApiError(400, { error: "user_id, username are missing, exactly one parameter must be provided" });
    const user = userId !== undefined ? (/^\d+$/.test(userId) ? state.userById(Number(userId)) : undefined) : state.userByUsername(username!);
    if (user && membersOfSource(source)[String(user.id)] !== undefined) throw new ApiError(409, { message: "Member already exists" });
    if (!user) throw notFound("User");
    const level = ctx.params.access_level;
    ownerRule(state, actor, source, [level]);
    const expiresAt = expiryOf(ctx.params.expires_at) ?? null;
    validateMembership(state, source, user.id, level, expiresAt);
    const memberRoleId = memberRoleOf(state, source, ctx.params.member_role_id) ?? null;
    setMembership(state, source, user.id, level, { createdAt: state.now(), createdById: actor.id, expiresAt, memberRoleId });
    return created(presentMember(state, source, user, level));
  });
}

function updateRoute(kind: SourceKind): RouteDefinition {
  return route("PUT", `/${kind}s/:id/members/:user_id`, { params: { ...writeParams, user_id: { type: "integer", required: true } } }, (ctx) => {
    const source = sourceOf(ctx, kind);
    const actor = authorizeAdmin(ctx, source);
    const { state } = ctx;
    const { user, level: was } = directMember(ctx, source);
    const level = ctx.params.access_level;
    ownerRule(state, actor, source, [level, was]);
    // `update_group_member` is prevented for the group's last Owner.
    if (source.kind === "group" && level !== was && isLastOwner(state, source.group, user.id)) throw forbidden();
    const details = detailsOf(state, source, user.id);
    const expiry = expiryOf(ctx.params.expires_at);
    const expiresAt = expiry === undefined ? details.expiresAt : expiry;
    validateMembership(state, source, user.id, level, expiry === undefined ? null : expiresAt);
    const role = memberRoleOf(state, source, ctx.params.member_role_id);
    setMembership(state, source, user.id, level, { ...details, expiresAt, memberRoleId: role === undefined ? details.memberRoleId : role });
    return ok(presentMember(state, source, user, level));
  });
}

function deleteRoute(kind: SourceKind): RouteDefinition {
  return route("DELETE", `/${kind}s/:id/members/:user_id`, { params: oneParams }, (ctx) => {
    const actor = requireUser(ctx);
    const source = sourceOf(ctx, kind);
    const { state } = ctx;
    const { user, level } = directMember(ctx, source);
    // A member may leave; removing another needs the admin role, and an Owner's membership the Owner role.
    if (actor.id !== user.id) {
      authorizeAdmin(ctx, source);
      ownerRule(state, actor, source, [level]);
    }
    if (source.kind === "group" && isLastOwner(state, source.group, user.id)) throw forbidden();
    removeMembership(state, source, user.id);
    return noContent();
  });
}

/** A source the caller may not see is 404 before any rule (`find_source`). */
export const memberRoutes: RouteDefinition[] = (["group", "project"] as const).flatMap((kind) => [
  listRoute(kind, false),
  listRoute(kind, true),
  getInheritedRoute(kind),
  getRoute(kind),
  createRoute(kind),
  updateRoute(kind),
  deleteRoute(kind),
]);

