/**
 * SAML of a group: its SAML group links (`/groups/:id/saml_group_links`) and
 * its members' SAML identities (`/groups/:id/saml/identities`,
 * `/groups/:id/saml/:uid`).
 *
 * Real servers answer a group without a SAML provider with a bare 400 on the
 * identities list; one read of the group tells why (`whyNoSamlProvider`).
 */
import { z } from "zod";
import { apiPath, pathSegment, tierNeeded, type PlatformClient } from "../client";
import { requestsOf } from "./core";
import { onGroup, type Needs } from "./needs";
import { idForm } from "./id-form";

// ---------------------------------------------------------------------------
// Group links

/**
 * What the group links API needs: the Owner role on a Premium group. It
 * answers every refusal with 401, a role or a tier lacking as a refused token.
 */
export const samlLinkNeeds = (group: string | number): Needs => ({ on: onGroup(group), role: "Owner", tier: "premium", refusedWith: { 401: ["tier", "role"] } });

/** A SAML group link as the API returns it. */
export const samlGroupLink = z.looseObject({
  /** The group's name at the identity provider. */
  name: z.string(),
  /** The role the SAML group's members get (10 guest ... 50 owner). */
  access_level: z.number(),
  /** A custom role (Ultimate); absent where custom roles are unavailable. */
  member_role_id: z.number().nullable().optional(),
  /** The SAML provider the link applies to; null for any. */
  provider: z.string().nullable().optional(),
});
export type SamlGroupLink = z.output<typeof samlGroupLink>;
export const samlGroupLinkRequests = requestsOf(samlGroupLink);

/** The links of the group at `groupPath` (`/groups/1` → `/groups/1/saml_group_links`). */
export const samlGroupLinksOf = (groupPath: string): string => `${groupPath}/saml_group_links`;
/** `/groups/acme/saml_group_links`. */
export const samlGroupLinksPath = (group: string | number): string => samlGroupLinksOf(apiPath`/groups/${group}`);
/** `/groups/acme/saml_group_links/devs`: one link, by its SAML group name. */
export const samlGroupLinkPath = (group: string | number, name: string): string => `${samlGroupLinksPath(group)}/${pathSegment(name)}`;

/** Reads and deletes name the provider when the link has one, so a name shared by several providers is never ambiguous. */
export const providerQuery = (provider: string | undefined) => (provider === undefined ? undefined : { provider });

/** A link's recorded id: its API path without the leading slash, with its provider when it has one (`groups/acme/saml_group_links/devs?provider=okta`). */
export function samlGroupLinkId(group: string | number, name: string, provider: string | undefined): string {
  const path = samlGroupLinkPath(group, name).slice(1);
  return provider === undefined ? path : `${path}?provider=${encodeURIComponent(provider)}`;
}

const LINK_ID = /^(groups\/([^/?]+)\/saml_group_links\/([^/?]+))(?:\?provider=([^&]*))?$/;

/** A recorded link id read back; undefined when it is not one. */
export function parseSamlGroupLinkId(id: string): { path: string; group: string; name: string; provider?: string } | undefined {
  const match = LINK_ID.exec(id);
  if (!match) return undefined;
  const parsed = { path: "/" + match[1], group: decodeURIComponent(match[2]!), name: decodeURIComponent(match[3]!) };
  return match[4] === undefined ? parsed : { ...parsed, provider: decodeURIComponent(match[4]) };
}

/** A SAML group link id as resources record it. */
export const samlGroupLinkIdForm = idForm("of the form groups/<group>/saml_group_links/<name>[?provider=<provider>]", parseSamlGroupLinkId);

// ---------------------------------------------------------------------------
// Identities

/** A member's SAML identity as the API returns it. */
export const samlIdentity = z.looseObject({
  /** The identity provider's id for the member (the SAML NameID). */
  extern_uid: z.string(),
  user_id: z.number(),
});
export type SamlIdentity = z.output<typeof samlIdentity>;
export const samlIdentityRequests = requestsOf(samlIdentity);

/** `/groups/acme/saml/identities`. */
export const samlIdentitiesPath = (group: string | number): string => apiPath`/groups/${group}/saml/identities`;
/** `/groups/acme/saml/<uid>`: an identity is addressed by its current extern_uid. */
export const samlIdentityPath = (group: string | number, uid: string): string => apiPath`/groups/${group}/saml/${uid}`;

/** A recorded SAML identity id (`groups/<group as declared, encoded>/saml/users/<user id>`) read back; undefined when it is not one. */
export function parseSamlIdentityId(id: string): { group: string; userId: number } | undefined {
  const match = /^groups\/([^/]+)\/saml\/users\/(\d+)$/.exec(id);
  return match ? { group: decodeURIComponent(match[1]!), userId: Number(match[2]) } : undefined;
}

/** A SAML identity id as resources record it. */
export const samlIdentityIdForm = idForm("of the form groups/<group>/saml/users/<user id>", parseSamlIdentityId);

/** What one read of the group tells about why it has no SAML provider. */
export interface GroupProbe {
  fullPath?: string;
  parentId?: number | null;
  /** Shows `web_based_commit_signing_enabled`: only top-level groups on the hosted offering do. */
  hostedTopLevel: boolean;
  /** Shows `membership_lock`: only Premium and Ultimate groups do. */
  premium: boolean;
}

/** The probe from `GET /groups/:id` as the API sends it (snake_case). */
export const groupProbeOf = (group: Record<string, unknown>): GroupProbe => ({
  fullPath: typeof group.full_path === "string" ? group.full_path : undefined,
  parentId: typeof group.parent_id === "number" ? group.parent_id : null,
  hostedTopLevel: "web_based_commit_signing_enabled" in group,
  premium: "membership_lock" in group,
});

/** The group read once for `whyNoSamlProvider`; undefined when it cannot be read. */
export function probeGroup(client: PlatformClient, group: string | number): Promise<GroupProbe | undefined> {
  return client.get<Record<string, unknown>>(apiPath`/groups/${group}`, { with_projects: false }).then(groupProbeOf, () => undefined);
}

/** Why the identities list answered 400 (the group has no SAML provider), from one read of the group. */
export function whyNoSamlProvider(group: string | number, probe: GroupProbe | undefined): string {
  if (probe?.parentId) {
    const top = probe.fullPath?.split("/")[0];
    return `group ${group} is a subgroup: SAML SSO and its identities belong to the top-level group${top ? ` (${top})` : ""}; name that group.`;
  }
  if (probe && !probe.hostedTopLevel) {
    return (
      `this instance is self-managed: there, SAML identities are not managed per group but through the users API ` +
      `(a user's identities: PUT /users/:id with provider and extern_uid). Group SAML identities exist on the hosted offering only.`
    );
  }
  if (probe && !probe.premium) return `${tierNeeded("premium", `group ${group}`, { purpose: "group SAML SSO", shortfall: "it is below it" })}.`;
  return `group ${group} has no SAML SSO configured; its identities exist once SSO is set up and members sign in with SAML.`;
}
