/**
 * A group's tokens: revoking any
 * token that reaches the group, synchronising the group with its directory
 * (LDAP), and the credentials inventory of a top-level group's enterprise
 * users. The model and the seed section `credentials` are in credentials-model.ts.
 *
 * `POST /groups/:id/tokens/revoke`:
 * - order of refusals: 401 anonymous → 400 `token is missing` → 404 group →
 *   404 `404 Not Found` without the feature flag `group_agnostic_token_revocation`
 *   (per top-level group) → 400 `400 Bad request - Must be a top-level group`
 *   → 403 below Owner (`admin_group`; administrators pass);
 * - the token is told apart by prefix: `glpat-` a personal, group or project
 *   access token, revoked when its user (the bot, for group and project access
 *   tokens) has a direct membership in the group, a subgroup, or a project of
 *   either; `gldt-` a deploy token of the group or a subgroup (a project's is
 *   refused); `glft-` a user's feed token, rotated (the user has no other way
 *   to lose it) when the user has such a membership;
 * - an active token is revoked; one already revoked is answered as well (the
 *   service checks `revoked?` after it), an expired one is refused;
 * - every refusal of the service is the same 422 `{"message":"422 Unprocessable
 *   Entity"}`, so a caller learns nothing about tokens of other groups;
 * - success is 200 with `Entities::PersonalAccessToken` (id, name, revoked,
 *   created_at, description, scopes, user_id, last_used_at, active,
 *   expires_at), `Entities::DeployToken` (id, name, username, expires_at,
 *   scopes, revoked, expired) or, for a feed token, `Entities::UserSafe`
 *   (id, username, name).
 *
 * `POST /groups/:id/ldap_sync`:
 * 404 `404 Not Found` unless LDAP group sync is available (self-managed,
 * Premium or Ultimate: the emulator takes LDAP as configured there) — before
 * the group is looked up — then 404 group, 403 below Owner; 202 with the body
 * `202` (the endpoint's last value, `status 202`, rendered as JSON). A group
 * already pending keeps its one queued sync; `runDue` runs it.
 *
 * `GET /groups/:id/manage/personal_access_tokens` (the API documentation's
 * "Credentials inventory management"): the hosted offering
 * only (404 `404 Not Found` elsewhere), 401 anonymous, 404 group, 403 below
 * Owner; then, as choices of the emulator where the sources are silent, 400
 * `Must be a top-level group` for a subgroup (the wording of the group's
 * `saml_users` endpoint) and 403 below Premium (enterprise users need a
 * verified domain, a Premium feature). Lists the personal access tokens of
 * the group's enterprise users (not bots'), newest id first unless `sort`
 * says otherwise (`created_asc`, `created_desc`, `expires_asc`,
 * `expires_desc`, `last_used_asc`, `last_used_desc`, `name_asc`, `name_desc`;
 * the finder's `created_at_asc` spelling too; an unknown value keeps the
 * default, as `sort` is a free string).
 */
import { hasGroupAccess } from "../../access";
import { ApiError, badRequest, forbidden, notFound, paramError, recordNotFound } from "../../errors";
import { findGroup } from "../../lookup";
import { noContent, ok, paginate, requireUser, route, type ApiResponse, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Group } from "../../state";
import {
  credentialsStore,
  findCredential,
  hasMembershipWithin,
  isExpired,
  isTokenActive,
  revokeCredential,
  rotateFeedToken,
  selfAndDescendantIds,
  TOKEN_PREFIX,
  type CredentialRecord,
} from "./model";

export const REVOCATION_FLAG = "group_agnostic_token_revocation";

const unprocessable = (): ApiError => new ApiError(422, { message: "422 Unprocessable Entity" });

// ---------------------------------------------------------------------------
// Presenting

/** `Entities::PersonalAccessToken` (group and project access tokens too). */
export function presentPersonalAccessToken(state: EmulatorState, record: CredentialRecord): Record<string, unknown> {
  return {
    id: record.id,
    name: record.name,
    revoked: record.revoked,
    created_at: record.createdAt,
    description: record.description,
    scopes: record.scopes,
    user_id: record.userId,
    last_used_at: record.lastUsedAt,
    active: isTokenActive(state, record),
    expires_at: record.expiresAt,
  };
}

/** `Entities::DeployToken`: never the token itself. */
export function presentDeployToken(state: EmulatorState, record: CredentialRecord): Record<string, unknown> {
  return {
    id: record.id,
    name: record.name,
    username: record.username,
    expires_at: record.expiresAt === null ? null : `${record.expiresAt}T00:00:00.000Z`,
    scopes: record.scopes,
    revoked: record.revoked,
    expired: isExpired(state, record),
  };
}

// ---------------------------------------------------------------------------
// POST /groups/:id/tokens/revoke

/** `handle_personal_access_token` / `handle_deploy_token`: revoke when it reaches the group, answer when it is revoked. */
function revokeReaching(state: EmulatorState, record: CredentialRecord, reaches: boolean): CredentialRecord {
  if (!reaches) throw unprocessable();
  if (isTokenActive(state, record)) revokeCredential(state, record);
  if (!record.revoked) throw unprocessable(); // expired, not revoked: the service reports a failure
  return record;
}

function revokeByKind(state: EmulatorState, group: Group, plaintext: string): ApiResponse {
  const record = findCredential(state, plaintext);
  if (plaintext.startsWith(TOKEN_PREFIX.personal)) {
    if (!record || record.kind === "deploy_token" || record.kind === "feed_token") throw unprocessable();
    const user = record.userId === null ? undefined : state.userById(record.userId);
    const reaches = user !== undefined && hasMembershipWithin(state, user, group.id);
    return ok(presentPersonalAccessToken(state, revokeReaching(state, record, reaches)));
  }
  if (plaintext.startsWith(TOKEN_PREFIX.deploy)) {
    // Only group deploy tokens: a project's is "not found" to this service.
    if (!record || record.kind !== "deploy_token" || record.groupId === null) throw unprocessable();
    const reaches = selfAndDescendantIds(state, group.id).has(record.groupId);
    return ok(presentDeployToken(state, revokeReaching(state, record, reaches)));
  }
  if (plaintext.startsWith(TOKEN_PREFIX.feed)) {
    const user = record?.kind === "feed_token" && record.userId !== null ? state.userById(record.userId) : undefined;
    if (!record || !user || !hasMembershipWithin(state, user, group.id)) throw unprocessable();
    rotateFeedToken(state, record);
    return ok({ id: user.id, username: user.username, name: user.name });
  }
  throw unprocessable();
}

const revokeToken = route(
  "POST",
  "/groups/:id/tokens/revoke",
  { params: { id: { type: "string", required: true }, token: { type: "string", required: true } } },
  (ctx) => {
    const { state, user } = ctx;
    const group = findGroup(ctx);
    if (!state.featureEnabled(REVOCATION_FLAG, group)) throw notFound();
    if (group.parentId !== null) throw badRequest("Must be a top-level group");
    if (!hasGroupAccess(state, user, group, AccessLevel.Owner)) throw forbidden();
    return revokeByKind(state, group, ctx.params.token);
  },
);

// ---------------------------------------------------------------------------
// POST /groups/:id/ldap_sync

/** `Gitlab::Auth::Ldap::Config.group_sync_enabled?`: LDAP (self-managed only) and the Premium feature `ldap_group_sync`. */
const ldapGroupSyncAvailable = (state: EmulatorState): boolean => state.instance.offering !== "hosted" && state.instance.tier !== "free";

const ldapSync = route("POST", "/groups/:id/ldap_sync", { params: { id: { type: "string", required: true } } }, (ctx) => {
  const { state, user } = ctx;
  if (!ldapGroupSyncAvailable(state)) throw notFound();
  const group = findGroup(ctx);
  if (!hasGroupAccess(state, user, group, AccessLevel.Owner)) throw forbidden();
  const syncs = credentialsStore.of(state).ldapSync;
  const current = syncs[String(group.id)];
  // A group already waiting for its sync keeps the one job it has (`if group.pending_ldap_sync`).
  if (current?.status !== "pending") syncs[String(group.id)] = { status: "pending", requestedAt: state.now(), lastSyncAt: current?.lastSyncAt ?? null };
  return { status: 202, body: 202 };
});

/** The queued directory syncs run (`LdapGroupSyncWorker`): the group is ready again. */
export function runLdapSyncs(state: EmulatorState): void {
  for (const sync of Object.values(credentialsStore.of(state).ldapSync)) {
    if (sync.status === "pending") Object.assign(sync, { status: "ready", lastSyncAt: state.now() });
  }
}

// ---------------------------------------------------------------------------
// GET /groups/:id/manage/personal_access_tokens

export const inventoryParams = {
  id: { type: "string", required: true },
  created_after: { type: "string" },
  created_before: { type: "string" },
  last_used_after: { type: "string" },
  last_used_before: { type: "string" },
  revoked: { type: "boolean" },
  state: { type: "string", values: ["active", "inactive"] },
  search: { type: "string" },
  sort: { type: "string" },
} as const;

/** A Grape `DateTime`: any time `Date.parse` reads; 400 `<name> is invalid` otherwise. */
function readTime(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw paramError(`${name} is invalid`);
  return time;
}

type SortKey = (record: CredentialRecord) => string | null;
const SORTS: Record<string, { key: SortKey; direction: 1 | -1 }> = {};
for (const [names, key] of [
  [["created", "created_at"], (r: CredentialRecord) => r.createdAt],
  [["expires", "expires_at"], (r: CredentialRecord) => r.expiresAt],
  [["last_used", "last_used_at"], (r: CredentialRecord) => r.lastUsedAt],
  [["name"], (r: CredentialRecord) => r.name.toLowerCase()],
] as const) {
  for (const name of names) {
    SORTS[`${name}_asc`] = { key, direction: 1 };
    SORTS[`${name}_desc`] = { key, direction: -1 };
  }
}

/** The finder's order: the sort's column (nulls last ascending, first descending, as PostgreSQL), then id descending. */
export function sortTokens(records: CredentialRecord[], sort: string | undefined): CredentialRecord[] {
  const order = sort === undefined ? undefined : SORTS[sort];
  return [...records].sort((a, b) => {
    if (order) {
      const [ka, kb] = [order.key(a), order.key(b)];
      if (ka !== kb) {
        if (ka === null) return order.direction;
        if (kb === null) return -order.direction;
        return order.direction * (ka < kb ? -1 : 1);
      }
    }
    return b.id - a.id;
  });
}

type InventoryFilters = { created_after?: string; created_before?: string; last_used_after?: string; last_used_before?: string; revoked?: boolean; state?: string; search?: string };

export function filterTokens(state: EmulatorState, records: CredentialRecord[], params: InventoryFilters): CredentialRecord[] {
  const createdAfter = readTime(params.created_after, "created_after");
  const createdBefore = readTime(params.created_before, "created_before");
  const usedAfter = readTime(params.last_used_after, "last_used_after");
  const usedBefore = readTime(params.last_used_before, "last_used_before");
  const needle = params.search?.toLowerCase();
  return records.filter((record) => {
    const created = Date.parse(record.createdAt);
    const used = record.lastUsedAt === null ? undefined : Date.parse(record.lastUsedAt);
    if (createdAfter !== undefined && created < createdAfter) return false;
    if (createdBefore !== undefined && created > createdBefore) return false;
    if (usedAfter !== undefined && (used === undefined || used < usedAfter)) return false;
    if (usedBefore !== undefined && (used === undefined || used > usedBefore)) return false;
    if (params.revoked !== undefined && record.revoked !== params.revoked) return false;
    if (params.state !== undefined && isTokenActive(state, record) !== (params.state === "active")) return false;
    return needle === undefined || record.name.toLowerCase().includes(needle);
  });
}

/** The gates of the inventory, in the order a caller meets them (see the header). */
function inventoryGroup(ctx: RequestContext<unknown>): Group {
  const { state, user } = ctx;
  if (state.instance.offering !== "hosted") throw notFound();
  requireUser(ctx);
  const group = findGroup(ctx);
  if (!hasGroupAccess(state, user, group, AccessLevel.Owner)) throw forbidden();
  if (group.parentId !== null) throw badRequest("Must be a top-level group");
  if (state.tierOf(group) === "free") throw forbidden();
  return group;
}

const listInventory = route("GET", "/groups/:id/manage/personal_access_tokens", { paginated: true, params: inventoryParams }, (ctx) => {
  const { state } = ctx;
  const group = inventoryGroup(ctx);
  const { enterpriseGroups, tokens } = credentialsStore.of(state);
  const enterprise = tokens.filter(
    (record) => record.kind === "personal_access_token" && record.userId !== null && enterpriseGroups[String(record.userId)] === group.id,
  );
  const listed = sortTokens(filterTokens(state, enterprise, ctx.params), ctx.params.sort);
  return paginate(ctx, listed, { present: (record) => presentPersonalAccessToken(state, record) });
});

/**
 * `DELETE /groups/:id/manage/personal_access_tokens/:id`: revokes an
 * enterprise user's token, through the inventory's gates. `:id` is a
 * token's id, or `self` for the caller's own; an unknown id is the finder's
 * 404 `404 Not found`; a token that is not one of this group's enterprise
 * users' personal access tokens is 403; a revoked one 400 (the revoke
 * service fails: `bad_request!`); 204 when revoked.
 */
const revokeInventoryToken = route(
  "DELETE",
  "/groups/:id/manage/personal_access_tokens/:token_id",
  { params: { id: { type: "string", required: true }, token_id: { type: "string", required: true } } },
  (ctx) => {
    const { state } = ctx;
    const group = inventoryGroup(ctx);
    const { enterpriseGroups, tokens } = credentialsStore.of(state);
    const wanted = ctx.params.token_id;
    if (wanted !== "self" && !/^\d+$/.test(wanted)) throw paramError("id is invalid");
    const record =
      wanted === "self"
        ? tokens.find((candidate) => candidate.kind === "personal_access_token" && candidate.userId === ctx.user?.id && ctx.user.tokens.includes(candidate.token))
        : tokens.find((candidate) => candidate.kind === "personal_access_token" && candidate.id === Number(wanted));
    if (!record) throw recordNotFound();
    if (record.userId === null || enterpriseGroups[String(record.userId)] !== group.id) throw forbidden();
    if (record.revoked) throw badRequest();
    revokeCredential(state, record);
    return noContent();
  },
);

export const groupTokenRoutes: readonly RouteDefinition[] = [revokeToken, ldapSync, listInventory, revokeInventoryToken];
