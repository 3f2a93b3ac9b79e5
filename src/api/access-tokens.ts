/**
 * Group and project access tokens (`/groups/:id/access_tokens`,
 * `/projects/:id/access_tokens`): the answers, paths, id forms, the limits a
 * new token must keep, and the needs. The token itself is in an answer only
 * at creation and at rotation: every list and read leaves it out.
 */
import { z } from "zod";
import { clientClock, ROLE_LEVELS, type Role } from "../client";
import { requestsOf } from "./core";
import { idForm } from "./id-form";
import type { Needs, Operation } from "./needs";
import { onGroup, onProject, ownerOf, type OwnerKind } from "./owner";

/** An access token as listed and read (`Entities::ResourceAccessToken`): never the token. */
export const accessToken = z.looseObject({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable().optional(),
  revoked: z.boolean(),
  active: z.boolean(),
  created_at: z.string(),
  /** `YYYY-MM-DD`, or null for none. */
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable().optional(),
  scopes: z.array(z.string()),
  /** The token's bot user. */
  user_id: z.number(),
  access_level: z.number(),
  resource_type: z.string().optional(),
  resource_id: z.number().optional(),
});
export type AccessToken = z.output<typeof accessToken>;

/** The answer of a create or a rotation: the token too, shown this once. */
export const accessTokenWithToken = accessToken.extend({ token: z.string() });
export type AccessTokenWithToken = z.output<typeof accessTokenWithToken>;

export const accessTokenRequests = requestsOf(accessToken);
export const newAccessTokenRequests = requestsOf(accessTokenWithToken);

/** `Gitlab::Auth.resource_bot_scopes`: what a group or project access token may be given. */
export const ACCESS_TOKEN_SCOPES = [
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

/** The roles a token's bot may have (`Gitlab::Access.options_with_owner`), by the names users know them by. */
export const TOKEN_ROLES = Object.fromEntries(Object.entries(ROLE_LEVELS).map(([role, level]) => [role.toLowerCase(), level])) as { [R in Role as Lowercase<R>]: (typeof ROLE_LEVELS)[R] };
export type TokenRoleName = keyof typeof TOKEN_ROLES;
const TOKEN_LEVELS: readonly number[] = Object.values(TOKEN_ROLES);

/** A role given by its name (`developer`) or its number (30), as a number; undefined stays undefined. */
export const tokenLevel = (value: unknown): number | undefined => (typeof value === "string" ? TOKEN_ROLES[value as TokenRoleName] : (value as number | undefined));

/** The role a token's bot gets: a name or its access level. */
export const tokenRole = z.custom<TokenRoleName | number>(
  (value) => (typeof value === "string" && value in TOKEN_ROLES) || (typeof value === "number" && TOKEN_LEVELS.includes(value)),
  { error: `must be a role (${Object.keys(TOKEN_ROLES).join(", ")}) or one of the access levels ${TOKEN_LEVELS.join(", ")}` },
);

/** `PersonalAccessToken::MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS`: the longest a token may live, from the day it is made. */
export const MAX_TOKEN_LIFETIME_DAYS = 365;

const DAY = 86_400_000;
/** The date `days` after `today` (both `YYYY-MM-DD`). */
export const addDays = (today: string, days: number): string => new Date(Date.parse(today) + days * DAY).toISOString().slice(0, 10);
/** Whole days from `from` to `to` (both `YYYY-MM-DD`). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / DAY);

/** A calendar date, `YYYY-MM-DD`. */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date in the form YYYY-MM-DD" })
  .refine((value) => !Number.isNaN(Date.parse(value)) && new Date(Date.parse(value)).toISOString().startsWith(value), { message: "must be a date in the form YYYY-MM-DD" });

/**
 * Why `expiresAt` breaks the server's lifetime rule on `today`, or undefined:
 * a date in the past never holds; the longest lifetime is judged for a date
 * that is `sent` (a new token, a rotation), not for the one a token has.
 */
export function lifetimeProblem(expiresAt: string, today: string, sent: boolean): string | undefined {
  const latest = addDays(today, MAX_TOKEN_LIFETIME_DAYS);
  if (sent && expiresAt > latest) return `must be at most ${MAX_TOKEN_LIFETIME_DAYS} days from today (${today}): no later than ${latest}, the longest a token may live`;
  if (expiresAt <= today) return `must be after today (${today}): a token expires at the start of its date`;
  return undefined;
}

/** `/groups/acme/access_tokens` or `/projects/acme%2Fweb/access_tokens`. */
export const accessTokensPath = (owner: { project?: string | number; group?: string | number }): string => `${ownerOf(owner).path}/access_tokens`;

/** An access token's recorded id: `projects/<project>/access_tokens/<first token id>` (a rotation keeps it: the current token's id is an output). */
const ACCESS_TOKEN_ID = /^(projects|groups)\/([^/]+)\/access_tokens\/(\d+)$/;

export function accessTokenIdOf(kind: OwnerKind, owner: string | number, tokenId: number): string {
  return `${kind}s/${encodeURIComponent(String(owner))}/access_tokens/${tokenId}`;
}

export function parseAccessTokenId(id: string): { kind: OwnerKind; tokensPath: string; tokenId: number } | undefined {
  const match = ACCESS_TOKEN_ID.exec(id);
  if (!match) return undefined;
  return { kind: match[1] === "projects" ? "project" : "group", tokensPath: `/${match[1]}/${match[2]}/access_tokens`, tokenId: Number(match[3]) };
}

export const groupAccessTokenIdForm = idForm("of the form groups/<group>/access_tokens/<token id>", (id) => {
  const parsed = parseAccessTokenId(id);
  return parsed?.kind === "group" ? parsed : undefined;
});
export const projectAccessTokenIdForm = idForm("of the form projects/<project>/access_tokens/<token id>", (id) => {
  const parsed = parseAccessTokenId(id);
  return parsed?.kind === "project" ? parsed : undefined;
});

/**
 * Access tokens need the `*_resource_access_tokens` abilities: Maintainer of
 * a project, Owner of a group; and the token's role may not be above the
 * creator's, so a token with the Owner role needs the Owner role.
 */
export function accessTokenNeeds(owner: OwnerKind, args: { project?: string | number; group?: string | number; accessLevel?: unknown }, operation: Operation): Needs {
  const base: Role = owner === "group" ? "Owner" : "Maintainer";
  const level = tokenLevel(args.accessLevel) ?? ROLE_LEVELS.Maintainer;
  const role: Role = operation !== "read" && level > ROLE_LEVELS[base] ? "Owner" : base;
  const ref = owner === "group" ? args.group! : args.project!;
  return {
    on: owner === "group" ? onGroup(ref) : onProject(ref),
    role,
    ...(role !== base ? { phrase: "the Owner role (a token's role may not be above its creator's, and this one's is Owner)" } : {}),
    ...(operation === "read" ? {} : { subject: `${owner} access tokens of ${owner} ${ref}` }),
    // Listing and rotating answer 401 (`unauthorized!`) to a member below the role.
    refusedWith: { 401: ["role"] },
  };
}

/** Today on the client's clock (UTC), `YYYY-MM-DD`: the day the server judges a new token's expiry by. */
export const clientToday = (): string => new Date(clientClock().now()).toISOString().slice(0, 10);
