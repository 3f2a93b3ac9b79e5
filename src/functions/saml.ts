/**
 * SAML of a group: the members' SAML
 * identities and the SAML group links. Both need the Owner role; identities
 * exist on the hosted offering for top-level Premium and Ultimate groups with
 * SAML SSO, group links on every offering from Premium.
 *
 * Real servers answer a group without a SAML provider with a bare 400 on the
 * identities list, so that failure reads the
 * group once to say why (../api/saml.ts, `whyNoSamlProvider`);
 * and they answer every refusal of the group links with 401, and 422 when
 * several links share a name and no provider was given: both explained here.
 */
import { z } from "zod";
import { ApiError, missingOrHidden, tokenRefused } from "../client";
import { refusedFor } from "../api/needs";
import { ExplainedError } from "../engine/errors";
import { ownerReference } from "../api/owner";
import {
  probeGroup,
  providerQuery,
  samlGroupLink as groupLinkShape,
  samlGroupLinkPath,
  samlGroupLinksPath,
  samlIdentitiesPath,
  samlIdentity as identityShape,
  samlIdentityPath,
  samlLinkNeeds,
  whyNoSamlProvider,
} from "../api/saml";
import { defineComposedFunction, defineListFunction, groupNeeds, type Camelized } from "./core";
import { notDotSegments } from "../validation";

export type SamlIdentityInfo = Camelized<z.output<typeof identityShape>>;
export type SamlGroupLinkInfo = Camelized<z.output<typeof groupLinkShape>>;

const group = ownerReference;
/** Group SAML is for the group's Owners (below Premium the identities list answers 400: `whyNoSamlProvider`). */
const ownerOnly = groupNeeds("Owner");
const identityNotFound = () =>
  "When the server names the Identity, no SAML identity of the group has this extern_uid (uids match case-insensitively). " +
  "On a self-managed instance every uid is not found here: identities are managed through the users API there.";
/** This API answers every refusal of the group links with 401, a group it will not show included. */
const linksRefused = (args: { group: string | number }) => refusedFor(samlLinkNeeds(args.group), 401, [missingOrHidden(`group ${args.group}`), tokenRefused()])!;

const identities = defineComposedFunction({
  name: "getSamlIdentities",
  args: z.object({
    /** The top-level group (id or full path). */
    group,
    /** At most this many identities, with no more requests than they need. */
    limit: z.number().int().positive().optional(),
  }),
  subject: (args) => `the SAML identities of group ${args.group}`,
  needs: ownerOnly,
  async run(read, args) {
    const path = samlIdentitiesPath(args.group);
    try {
      return await read.list(path, undefined, identityShape, args.limit);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 400)) throw error;
      const why = whyNoSamlProvider(args.group, await probeGroup(read.client, args.group));
      throw new ExplainedError(`getSamlIdentities: could not read the SAML identities of group ${args.group}: GET ${path} answered 400 (${error.serverMessage}): ${why}`);
    }
  },
});

const identity = defineComposedFunction({
  name: "getSamlIdentity",
  args: z.object({
    /** The top-level group (id or full path). */
    group,
    /** The identity's extern_uid. */
    uid: z.string().min(1, { message: "must not be empty" }).refine((uid) => !uid.includes("/"), { message: "must not contain a slash: the API takes the uid as one path segment" }).refine(...notDotSegments),
  }),
  subject: (args) => `SAML identity ${args.uid} of group ${args.group}`,
  refusals: { 404: identityNotFound },
  needs: ownerOnly,
  run: (read, args) => read.object(samlIdentityPath(args.group, args.uid), undefined, identityShape),
});

const groupLinks = defineListFunction({
  name: "getSamlGroupLinks",
  args: z.object({ /** The group (id or full path). */ group }),
  path: (args) => samlGroupLinksPath(args.group),
  subject: (args) => `the SAML group links of group ${args.group}`,
  refusals: { 401: linksRefused },
  item: groupLinkShape,
});

const groupLink = defineComposedFunction({
  name: "getSamlGroupLink",
  args: z.object({
    /** The group (id or full path). */
    group,
    /** The SAML group's name. */
    samlGroupName: z.string().min(1, { message: "must not be empty" }).refine((name) => !name.includes("/"), { message: "must not contain a slash" }).refine(...notDotSegments),
    /** The provider of the link, when several links share the name; "" picks the one without a provider. */
    provider: z.string().optional(),
  }),
  subject: (args) => `SAML group link ${args.samlGroupName}${args.provider ? ` (provider ${args.provider})` : ""} of group ${args.group}`,
  refusals: { 401: linksRefused, 404: () => "Check the SAML group name (and provider): no link of the group matches." },
  async run(read, args) {
    const path = samlGroupLinkPath(args.group, args.samlGroupName);
    try {
      return await read.object(path, providerQuery(args.provider), groupLinkShape);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 422)) throw error;
      throw new ExplainedError(
        `getSamlGroupLink: group ${args.group} has several SAML group links named ${args.samlGroupName}, for different providers (GET ${path} answered 422: ${error.serverMessage}). ` +
          `Pass provider to say which one (provider: "" for the link without a provider).`,
      );
    }
  },
});

/**
 * The SAML identities of a top-level group: `{ externUid, userId }` per member who signed in with SAML.
 *
 * ```ts
 * const identities = await getSamlIdentities({ group: "acme" });
 * ```
 */
export const getSamlIdentities = identities;
/** `getSamlIdentities` as an Output. */
export const getSamlIdentitiesOutput = identities.output;
/** One SAML identity of a group, by its extern_uid. */
export const getSamlIdentity = identity;
/** `getSamlIdentity` as an Output. */
export const getSamlIdentityOutput = identity.output;
/** The SAML group links of a group. */
export const getSamlGroupLinks = groupLinks;
/** `getSamlGroupLinks` as an Output. */
export const getSamlGroupLinksOutput = groupLinks.output;
/** One SAML group link, by SAML group name (and provider when several links share the name). */
export const getSamlGroupLink = groupLink;
/** `getSamlGroupLink` as an Output. */
export const getSamlGroupLinkOutput = groupLink.output;
