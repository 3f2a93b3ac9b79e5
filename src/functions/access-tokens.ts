/**
 * Group and project access tokens, deploy tokens and deploy keys, listed.
 * No list answer carries a token's value (the server shows it only when it
 * makes one), so no result here holds a secret: a deploy key is a public key.
 */
import { z } from "zod";
import { accessToken as accessTokenShape, accessTokenNeeds, accessTokensPath } from "../api/access-tokens";
import { deployKey as deployKeyShape, deployKeyNeeds, deployKeysPath } from "../api/deploy-keys";
import { deployToken as deployTokenShape, deployTokenNeeds, deployTokensPath } from "../api/deploy-tokens";
import { refusedFor } from "../api/needs";
import { exactlyOneOwner, ownerName, ownerReference } from "../api/owner";
import { tokenRefused } from "../client";
import { defineListFunction, type Camelized } from "./core";

export type AccessTokenInfo = Camelized<z.output<typeof accessTokenShape>>;
export type DeployTokenInfo = Camelized<z.output<typeof deployTokenShape>>;
export type DeployKeyInfo = Camelized<z.output<typeof deployKeyShape>>;

/** The list answers 401 (`unauthorized!`) to a member below the role, as to a refused token: both are said. */
const refusedList = (owner: "group" | "project") => ({
  401: (args: { group?: string | number; project?: string | number }) => `${refusedFor(accessTokenNeeds(owner, args, "read"), 401, [tokenRefused()]) ?? tokenRefused()}.`,
});

/** `active`: tokens in force; `inactive`: revoked or expired; absent: all of them. */
const tokenState = z.enum(["active", "inactive"], { message: 'must be "active" or "inactive"' }).optional();

const groupAccessTokens = defineListFunction({
  name: "getGroupAccessTokens",
  args: z.object({
    /** The group (id or full path). */
    group: ownerReference,
    /** `active` or `inactive` (revoked or expired); absent: all. */
    state: tokenState,
  }),
  path: (args) => accessTokensPath({ group: args.group }),
  query: (args) => ({ state: args.state }),
  subject: (args) => `the access tokens of group ${args.group}`,
  needs: (args) => accessTokenNeeds("group", args, "read"),
  refusals: refusedList("group"),
  item: accessTokenShape,
});

/**
 * A group's access tokens (never their values): name, scopes, role, expiry, state.
 *
 * ```ts
 * const expiring = (await getGroupAccessTokens({ group: "acme", state: "active" })).filter((token) => token.expiresAt! < "2027-01-01");
 * ```
 */
export const getGroupAccessTokens = groupAccessTokens;
/** `getGroupAccessTokens` as an Output. */
export const getGroupAccessTokensOutput = groupAccessTokens.output;

const projectAccessTokens = defineListFunction({
  name: "getProjectAccessTokens",
  args: z.object({
    /** The project (id or full path). */
    project: ownerReference,
    /** `active` or `inactive` (revoked or expired); absent: all. */
    state: tokenState,
  }),
  path: (args) => accessTokensPath({ project: args.project }),
  query: (args) => ({ state: args.state }),
  subject: (args) => `the access tokens of project ${args.project}`,
  needs: (args) => accessTokenNeeds("project", args, "read"),
  refusals: refusedList("project"),
  item: accessTokenShape,
});

/**
 * A project's access tokens (never their values).
 *
 * ```ts
 * const tokens = await getProjectAccessTokens({ project: "acme/web" });
 * ```
 */
export const getProjectAccessTokens = projectAccessTokens;
/** `getProjectAccessTokens` as an Output. */
export const getProjectAccessTokensOutput = projectAccessTokens.output;

const deployTokens = defineListFunction({
  name: "getDeployTokens",
  args: z.object({
    /** The project (id or full path); set this or `group`. */
    project: ownerReference.optional(),
    /** The group (id or full path); set this or `project`. */
    group: ownerReference.optional(),
    /** Only tokens neither revoked nor expired. */
    active: z.boolean().optional(),
  }),
  validate: (args) => exactlyOneOwner(args).map(({ property, reason }) => ({ argument: property, reason: `${property}: ${reason}` })),
  path: deployTokensPath,
  query: (args) => ({ active: args.active }),
  subject: (args) => `the deploy tokens of ${ownerName(args)}`,
  needs: deployTokenNeeds,
  item: deployTokenShape,
});

/**
 * A project's or a group's deploy tokens (never their values).
 *
 * ```ts
 * const pulls = await getDeployTokens({ group: "acme", active: true });
 * ```
 */
export const getDeployTokens = deployTokens;
/** `getDeployTokens` as an Output. */
export const getDeployTokensOutput = deployTokens.output;

const deployKeys = defineListFunction({
  name: "getDeployKeys",
  args: z.object({ /** The project (id or full path). */ project: ownerReference }),
  path: (args) => deployKeysPath(args.project),
  subject: (args) => `the deploy keys of project ${args.project}`,
  needs: deployKeyNeeds,
  item: deployKeyShape,
});

/**
 * The deploy keys enabled on a project: title, public key, fingerprints, push access.
 *
 * ```ts
 * const keys = await getDeployKeys({ project: "acme/web" });
 * ```
 */
export const getDeployKeys = deployKeys;
/** `getDeployKeys` as an Output. */
export const getDeployKeysOutput = deployKeys.output;
