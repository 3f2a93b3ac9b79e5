/**
 * Group and project access tokens (`lib/api/resource_access_tokens.rb`):
 * `/groups/:id/access_tokens` and `/projects/:id/access_tokens`, alike for
 * both sources.
 *
 * - Every route needs a signed-in user (401). Listing, reading, creating,
 *   revoking and rotating need the source's `*_resource_access_tokens`
 *   abilities: Maintainer of a project, Owner of a group (administrators
 *   pass). A member below it is answered 401 when listing, reading or
 *   rotating (`unauthorized!`), and 400 when creating
 *   (`User does not have permission to create <source> access token`);
 *   revoking answers 400 `<name> cannot delete <bot name>`.
 * - POST: `name` and `scopes` required, scopes among the bot scopes,
 *   `access_level` among 10, 15, 20, 30, 40, 50 (default 40), not above the
 *   creator's own role on the source (400 `Access level of the token contains
 *   permissions not held by the creating user`). `expires_at` (a date) no later
 *   than the maximum lifetime from today (365 days, `PersonalAccessToken`'s
 *   `MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS`) and not in the past; absent,
 *   365 days from today while `require_personal_access_token_expiry` is on,
 *   no expiry otherwise. Each token gets a bot user, a member of the source
 *   with the token's role. 201 with the token (`ResourceAccessTokenWithToken`):
 *   the only answer besides rotation's that shows it.
 * - `POST .../access_tokens/:token_id/rotate`: the token revoked and a new
 *   one made for the same bot, with its name, description, scopes and role;
 *   `expires_at` absent gives one week from today (expiry enforced) or none.
 *   A revoked token answers 400 `Token already revoked`; a token whose role is
 *   above the caller's 400 `Not eligible to rotate token with access level
 *   higher than the user`; an unknown token 401 (404 to an administrator).
 * - `DELETE .../access_tokens/:token_id`: 204; the token revoked and its bot
 *   no longer a member; again: 400 `Failed to find bot user`.
 * - GET one and DELETE: 404 `404 Could not find <source> access token with
 *   token_id: <id> Not Found` (`not_found!` with that sentence) for a token
 *   that is not the source's. Listed and read tokens never show the token itself.
 */
import { createHash, randomBytes } from "node:crypto";
import { hasGroupAccess, hasProjectAccess, groupAccessLevel, projectAccessLevel } from "../../access";
import { applicationSettingsValues } from "../application-settings";
import { ApiError, badRequest, notFound, paramError, unauthorized, validationError } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Group, type Project, type User } from "../../state";
import { credentialsStore, isTokenActive, PAT_SEQUENCE, revokeCredential, scopesAmong, TOKEN_PREFIX, type CredentialRecord } from "./model";
import { filterTokens, inventoryParams, presentPersonalAccessToken, sortTokens } from "./routes";
import { addBotUser } from "./seed";

/** `Gitlab::Auth.resource_bot_scopes`: the scopes a group or project access token may have. */
export const RESOURCE_BOT_SCOPES = [
  "api",
  "read_api",
  "read_repository",
  "write_repository",
  "read_registry",
  "write_registry",
  "read_virtual_registry",
  "write_virtual_registry",
  "create_runner",
  "manage_runner",
  "ai_features",
  "k8s_proxy",
  "self_rotate",
] as const;

/** `Gitlab::Access.options_with_owner`. */
const TOKEN_ACCESS_LEVELS = [AccessLevel.Guest, AccessLevel.Planner, AccessLevel.Reporter, AccessLevel.Developer, AccessLevel.Maintainer, AccessLevel.Owner];

/** `PersonalAccessToken::MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS`. */
export const MAX_TOKEN_LIFETIME_DAYS = 365;

type SourceType = "group" | "project";
type Source = { type: SourceType; record: Group | Project };

const DAY = 86_400_000;
const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const daysFromToday = (state: EmulatorState, days: number): string => dateOf(Date.parse(state.now().slice(0, 10)) + days * DAY);

function sourceOf(ctx: RequestContext<unknown>, type: SourceType): Source {
  return { type, record: type === "group" ? findGroup(ctx) : findProject(ctx) };
}

/** The caller's role on the source (an administrator's counts as Owner). */
function roleOn(state: EmulatorState, user: User | null, source: Source): number {
  if (user?.isAdmin) return AccessLevel.Owner;
  return source.type === "group" ? groupAccessLevel(state, user, source.record as Group) : projectAccessLevel(state, user, source.record as Project);
}

/** `*_resource_access_tokens`: Maintainer of a project, Owner of a group. */
function mayManage(state: EmulatorState, user: User | null, source: Source): boolean {
  return source.type === "group"
    ? hasGroupAccess(state, user, source.record as Group, AccessLevel.Owner)
    : hasProjectAccess(state, user, source.record as Project, AccessLevel.Maintainer);
}

const kindOf = (type: SourceType): "group_access_token" | "project_access_token" => (type === "group" ? "group_access_token" : "project_access_token");

function ownTokens(state: EmulatorState, source: Source): CredentialRecord[] {
  const kind = kindOf(source.type);
  const owned = (record: CredentialRecord) => (source.type === "group" ? record.groupId : record.projectId) === source.record.id;
  return credentialsStore.of(state).tokens.filter((record) => record.kind === kind && owned(record));
}

function ownToken(state: EmulatorState, source: Source, tokenId: string): CredentialRecord | undefined {
  return /^\d+$/.test(tokenId) ? ownTokens(state, source).find((record) => record.id === Number(tokenId)) : undefined;
}

/** `Entities::ResourceAccessToken`: the personal access token's fields, the bot's role and what it belongs to. */
export function presentResourceAccessToken(state: EmulatorState, record: CredentialRecord): Record<string, unknown> {
  const type = record.kind === "group_access_token" ? "group" : "project";
  return { ...presentPersonalAccessToken(state, record), access_level: record.accessLevel, resource_type: type, resource_id: type === "group" ? record.groupId : record.projectId };
}

const withToken = (state: EmulatorState, record: CredentialRecord) => ({ ...presentResourceAccessToken(state, record), token: record.token });

/** A Grape `Date`; 400 `expires_at is invalid` otherwise. */
function readDate(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  if (!match || Number.isNaN(Date.parse(match[1]!))) throw paramError("expires_at is invalid");
  return match[1];
}

/** The model's validation of `expires_at`: within the maximum lifetime, not in the past. */
function validateExpiry(state: EmulatorState, expiresAt: string | null): void {
  if (expiresAt === null) return;
  const latest = daysFromToday(state, MAX_TOKEN_LIFETIME_DAYS);
  if (expiresAt > latest) throw validationError({ expires_at: [`must be before ${latest}`] });
  if (expiresAt < state.now().slice(0, 10)) throw validationError({ expires_at: ["cannot be in the past"] });
}

const expiryEnforced = (state: EmulatorState): boolean => applicationSettingsValues(state).require_personal_access_token_expiry !== false;

function newPlaintext(state: EmulatorState): string {
  const seed = `${state.now()}#${randomBytes(16).toString("hex")}`;
  return TOKEN_PREFIX.personal + createHash("sha256").update(seed).digest("hex").slice(0, 20);
}

/** The token joins its bot's API tokens, with its scopes: it authenticates from now on. */
function activate(bot: User, record: CredentialRecord): void {
  bot.tokens.push(record.token);
  bot.tokenScopes = { ...bot.tokenScopes, [record.token]: record.scopes };
}

const idParams = { id: { type: "string", required: true }, token_id: { type: "string", required: true } } as const;

function routesOf(type: SourceType): RouteDefinition[] {
  const base = `/${type}s/:id/access_tokens`;
  /** `not_found!`'s subject for a token the source does not have. */
  const missing = (tokenId: string) => notFound(`Could not find ${type} access token with token_id: ${tokenId}`);

  const list = route("GET", base, { paginated: true, params: inventoryParams }, (ctx) => {
    requireUser(ctx);
    const source = sourceOf(ctx, type);
    if (!mayManage(ctx.state, ctx.user, source)) throw unauthorized();
    const listed = sortTokens(filterTokens(ctx.state, ownTokens(ctx.state, source), ctx.params), ctx.params.sort);
    return paginate(ctx, listed, { present: (record) => presentResourceAccessToken(ctx.state, record) });
  });

  const getOne = route("GET", `${base}/:token_id`, { params: idParams }, (ctx) => {
    requireUser(ctx);
    const source = sourceOf(ctx, type);
    if (!mayManage(ctx.state, ctx.user, source)) throw unauthorized();
    const record = ownToken(ctx.state, source, ctx.params.token_id);
    if (!record) throw missing(ctx.params.token_id);
    return ok(presentResourceAccessToken(ctx.state, record));
  });

  const create = route(
    "POST",
    base,
    {
      params: {
        id: { type: "string", required: true },
        name: { type: "string", required: true },
        description: { type: "string" },
        scopes: { type: "string[]", required: true },
        expires_at: { type: "string" },
        access_level: { type: "integer", values: TOKEN_ACCESS_LEVELS },
      },
    },
    (ctx) => {
      const { state, user } = ctx;
      requireUser(ctx);
      scopesAmong(ctx.params.scopes, RESOURCE_BOT_SCOPES);
      const source = sourceOf(ctx, type);
      if (!mayManage(state, user, source)) throw badRequest(`User does not have permission to create ${type} access token`);
      const accessLevel = ctx.params.access_level ?? AccessLevel.Maintainer;
      if (accessLevel > roleOn(state, user, source)) throw badRequest("Access level of the token contains permissions not held by the creating user");
      const declared = readDate(ctx.params.expires_at);
      const expiresAt = declared ?? (expiryEnforced(state) ? daysFromToday(state, MAX_TOKEN_LIFETIME_DAYS) : null);
      validateExpiry(state, expiresAt);
      const token = newPlaintext(state);
      const bot = addBotUser(state, type, source.record.id, ctx.params.name, token, state.now());
      source.record.members[String(bot.id)] = accessLevel;
      const record: CredentialRecord = {
        id: state.nextId(PAT_SEQUENCE),
        kind: kindOf(type),
        token,
        name: ctx.params.name,
        description: ctx.params.description ?? "",
        scopes: [...new Set(ctx.params.scopes)],
        userId: bot.id,
        groupId: type === "group" ? source.record.id : null,
        projectId: type === "project" ? source.record.id : null,
        accessLevel,
        username: null,
        createdAt: state.now(),
        lastUsedAt: null,
        expiresAt,
        revoked: false,
      };
      credentialsStore.of(state).tokens.push(record);
      activate(bot, record);
      return created(withToken(state, record));
    },
  );

  const rotate = route("POST", `${base}/:token_id/rotate`, { params: { ...idParams, expires_at: { type: "string" } } }, (ctx) => {
    const { state, user } = ctx;
    requireUser(ctx);
    const source = sourceOf(ctx, type);
    const record = mayManage(state, user, source) ? ownToken(state, source, ctx.params.token_id) : undefined;
    if (!record) throw user?.isAdmin ? notFound() : unauthorized();
    if (record.revoked) throw badRequest("Token already revoked");
    if ((record.accessLevel ?? 0) > roleOn(state, user, source)) throw badRequest("Not eligible to rotate token with access level higher than the user");
    const declared = readDate(ctx.params.expires_at);
    const expiresAt = declared ?? (expiryEnforced(state) ? daysFromToday(state, 7) : null);
    validateExpiry(state, expiresAt);
    const bot = record.userId === null ? undefined : state.userById(record.userId);
    if (!bot) throw new ApiError(400, { message: "400 Bad request - Failed to find bot user" });
    revokeCredential(state, record);
    const next: CredentialRecord = { ...record, id: state.nextId(PAT_SEQUENCE), token: newPlaintext(state), createdAt: state.now(), lastUsedAt: null, expiresAt, revoked: false };
    credentialsStore.of(state).tokens.push(next);
    activate(bot, next);
    return ok(withToken(state, next));
  });

  const revoke = route("DELETE", `${base}/:token_id`, { params: idParams }, (ctx) => {
    const { state, user } = ctx;
    const caller = requireUser(ctx);
    const source = sourceOf(ctx, type);
    const record = ownToken(state, source, ctx.params.token_id);
    if (!record) throw missing(ctx.params.token_id);
    const bot = record.userId === null ? undefined : state.userById(record.userId);
    if (!mayManage(state, user, source)) throw badRequest(`${caller.name} cannot delete ${bot?.name ?? record.name}`);
    if (!bot || !(String(bot.id) in source.record.members)) throw badRequest("Failed to find bot user");
    if (isTokenActive(state, record) || !record.revoked) revokeCredential(state, record);
    delete source.record.members[String(bot.id)];
    return noContent();
  });

  return [list, getOne, create, rotate, revoke];
}

export const resourceAccessTokenRoutes: readonly RouteDefinition[] = [...routesOf("group"), ...routesOf("project")];
