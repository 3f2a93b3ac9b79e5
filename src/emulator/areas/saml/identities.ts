/**
 * SAML identities of a group: the link
 * between a member and the identity provider's id for them (`extern_uid`,
 * the SAML NameID), made when the member first signs in with SAML.
 *
 * The spec gives the four endpoints, the identity's two fields, "hosted
 * offering, Premium+" and "on self-managed instances identity read, update and
 * delete are done through the users API". Where it is silent, as real
 * servers answer:
 * - `before { authenticate! }` then `authorize_admin_group`, i.e.
 *   `authorize! :admin_group, find_group!(id)`: 401 anonymous, then 404
 *   `404 Group Not Found` for a group the caller cannot see, then 403
 *   `403 Forbidden` below Owner (administrators pass). Grape runs these
 *   `before` blocks ahead of parameter validation, so a missing `extern_uid`
 *   is a 400 only for an Owner.
 * - The identities belong to the group's SAML provider (`group.saml_provider`).
 *   A group has one only where group SAML SSO exists: a top-level group on the
 *   hosted offering with a Premium or Ultimate subscription, that configured
 *   it (here: the seed's `samlIdentities` names it). Without one the list is
 *   `bad_request!` → 400 `{"message":"400 Bad request"}`, and get, update and
 *   delete find nothing → 404 `{"message":"404 Identity Not Found"}`. That is
 *   also how a self-managed instance answers, where the users API manages
 *   identities; and a subgroup, whose SSO is its top-level group's.
 * - A uid is matched case-insensitively (`Identity.with_extern_uid` uses
 *   `iwhere`); no match → 404 `404 Identity Not Found`.
 * - PATCH: `extern_uid` required (Grape: 400 `{"error":"extern_uid is missing"}`);
 *   model errors → 400 `{"message":"<full messages joined by ,>"}`: blank →
 *   "SAML NameID is missing from your SAML response. Please contact your
 *   administrator"; taken by another identity of the same provider
 *   (case-insensitive) → "Extern uid has already been taken. Please contact
 *   your administrator to generate a unique extern_uid / NameID". 200 with the
 *   identity.
 * - DELETE: `no_content!`, i.e. `render_api_error!('204 No Content', 204)`:
 *   the handler answers `{"message":"204 No Content"}` with status 204, as the
 *   spec and doc/api/saml.md show; HTTP sends no body with a 204 (Puma drops
 *   it there, the emulator's server here), so clients see an empty body.
 * - The entity (`API::Entities::IdentityDetail`) is `{extern_uid, user_id}`.
 * - The list is not paginated on real servers (`present ... identities`);
 *   the emulator pages it as the specification pages every list: 20 a page by default, at most 100, with the
 *   usual headers. A client that follows `Link` reads both alike.
 */
import { hasGroupAccess } from "../../access";
import { ApiError, badRequest, forbidden, notFound, paramError } from "../../errors";
import { findGroup } from "../../lookup";
import { ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, defineStore, type EmulatorState, type Group } from "../../state";

export interface SamlIdentityRecord {
  /** The top-level group whose SAML provider the identity belongs to. */
  groupId: number;
  userId: number;
  externUid: string;
}

export const samlIdentityStore = defineStore(
  "samlIdentities",
  (): { providerGroupIds: number[]; identities: SamlIdentityRecord[] } => ({ providerGroupIds: [], identities: [] }),
);

export const NAME_ID_MISSING = "SAML NameID is missing from your SAML response. Please contact your administrator";
export const EXTERN_UID_TAKEN = "Extern uid has already been taken. Please contact your administrator to generate a unique extern_uid / NameID";

export const sameUid = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * Whether `group` has a usable SAML provider: configured (in the seed), a
 * top-level group, the hosted offering, Premium or Ultimate.
 */
export function hasSamlProvider(state: EmulatorState, group: Group): boolean {
  return (
    state.instance.offering === "hosted" &&
    group.parentId === null &&
    state.tierOf(group) !== "free" &&
    samlIdentityStore.of(state).providerGroupIds.includes(group.id)
  );
}

const identitiesOf = (state: EmulatorState, group: Group): SamlIdentityRecord[] =>
  hasSamlProvider(state, group) ? samlIdentityStore.of(state).identities.filter((identity) => identity.groupId === group.id) : [];

const present = (identity: SamlIdentityRecord) => ({ extern_uid: identity.externUid, user_id: identity.userId });

/** `authenticate!` + `authorize_admin_group`: 401, then 404 for an invisible group, then 403 below Owner. */
function administeredGroup(ctx: RequestContext<unknown>): Group {
  requireUser(ctx);
  const group = findGroup(ctx);
  if (!hasGroupAccess(ctx.state, ctx.user, group, AccessLevel.Owner)) throw forbidden();
  return group;
}

/** `GroupSamlIdentityFinder.find_by_group_and_uid`, or `not_found!('Identity')`. */
function findIdentity(ctx: RequestContext<{ uid: string }>, group: Group): SamlIdentityRecord {
  const identity = identitiesOf(ctx.state, group).find((candidate) => sameUid(candidate.externUid, ctx.params.uid));
  if (!identity) throw notFound("Identity");
  return identity;
}

/** The Identity model's validations, as `full_messages.join(",")`. */
function validateExternUid(state: EmulatorState, group: Group, identity: SamlIdentityRecord, externUid: string): void {
  const errors: string[] = [];
  if (externUid.trim() === "") errors.push(NAME_ID_MISSING);
  else if (identitiesOf(state, group).some((other) => other !== identity && sameUid(other.externUid, externUid))) errors.push(EXTERN_UID_TAKEN);
  if (errors.length) throw new ApiError(400, { message: errors.join(",") });
}

const groupParam = { id: { type: "string", required: true } } as const;
const uidParams = { ...groupParam, uid: { type: "string", required: true } } as const;

const listIdentities = route("GET", "/groups/:id/saml/identities", { params: groupParam, paginated: true }, (ctx) => {
  const group = administeredGroup(ctx);
  if (!hasSamlProvider(ctx.state, group)) throw badRequest();
  return paginate(ctx, identitiesOf(ctx.state, group), { present });
});

const getIdentity = route("GET", "/groups/:id/saml/:uid", { params: uidParams }, (ctx) => {
  const group = administeredGroup(ctx);
  return ok(present(findIdentity(ctx, group)));
});

const updateIdentity = route(
  "PATCH",
  "/groups/:id/saml/:uid",
  // Declared optional so the Owner check comes first, as Grape's `before` blocks do; checked below.
  { params: { ...uidParams, extern_uid: { type: "string" } } },
  (ctx) => {
    const group = administeredGroup(ctx);
    const externUid = ctx.params.extern_uid;
    if (externUid === undefined) throw paramError("extern_uid is missing");
    const identity = findIdentity(ctx, group);
    validateExternUid(ctx.state, group, identity, externUid);
    identity.externUid = externUid;
    return ok(present(identity));
  },
);

const deleteIdentity = route("DELETE", "/groups/:id/saml/:uid", { params: uidParams }, (ctx) => {
  const group = administeredGroup(ctx);
  const identity = findIdentity(ctx, group);
  const { identities } = samlIdentityStore.of(ctx.state);
  identities.splice(identities.indexOf(identity), 1);
  return { status: 204, body: { message: "204 No Content" } };
});

export const samlIdentityRoutes: readonly RouteDefinition[] = [listIdentities, getIdentity, updateIdentity, deleteIdentity];
