/**
 * The credentials area's model: what the instance knows about each token
 * beyond the string a client sends (its credentials inventory record), which users
 * are the enterprise users of which top-level group, and the seed section
 * `credentials` that fills both.
 *
 * Token kinds, as the real server's revocation tells them apart by prefix:
 * - personal, group and project access tokens are all `PersonalAccessToken`s
 *   (`glpat-`); group and project access tokens belong to a bot user who is a
 *   member of the group or project with the token's access level;
 * - deploy tokens (`gldt-`) belong to a group or a project, not to a user;
 * - a feed token (`glft-`) is a column of its user: "revoking" it rotates it.
 *
 * Which tokens authenticate API requests: active personal, group and project
 * access tokens (they are in their user's `tokens`). Deploy tokens and feed
 * tokens never do (they open Git, the registry and feeds, not the REST API),
 * and neither do revoked or expired ones. Revocation removes the token from
 * its user's `tokens`, so the next request with it answers 401.
 *
 * Every token a seed user has that the section does not describe gets a
 * personal access token record named after the user's token list position
 * (`<username>-token-1`), so every API token is in the inventory. The
 * emulator keeps plaintexts to find a token; real servers keep digests.
 */
import { createHash } from "node:crypto";
import { paramError } from "../../errors";
import { defineStore, type EmulatorState, type User } from "../../state";

export type TokenKind = "personal_access_token" | "group_access_token" | "project_access_token" | "deploy_token" | "feed_token";

export interface CredentialRecord {
  /** Personal, group and project access tokens share one id sequence, deploy tokens another. */
  id: number;
  kind: TokenKind;
  token: string;
  name: string;
  description: string;
  scopes: string[];
  /** The token's user (the bot's, for group and project access tokens); null for deploy tokens. */
  userId: number | null;
  /** Group or project access tokens and deploy tokens: what they belong to. */
  groupId: number | null;
  projectId: number | null;
  /** Group and project access tokens: the bot's role. */
  accessLevel: number | null;
  /** Deploy tokens: the username Git and the registry know them by. */
  username: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  /** `YYYY-MM-DD`, or null for no expiry. */
  expiresAt: string | null;
  revoked: boolean;
}

export interface CredentialsStore {
  tokens: CredentialRecord[];
  /** User id → id of the top-level group that owns the user (enterprise users, hosted offering). */
  enterpriseGroups: Record<string, number>;
  /** Group id → the state of its directory (LDAP) synchronisation. */
  ldapSync: Record<string, { status: "pending" | "ready"; requestedAt: string; lastSyncAt: string | null }>;
}

export const credentialsStore = defineStore("credentials", (): CredentialsStore => ({ tokens: [], enterpriseGroups: {}, ldapSync: {} }));

export const PAT_SEQUENCE = "personal_access_tokens";
export const DEPLOY_TOKEN_SEQUENCE = "deploy_tokens";

/** Prefixes of the token kinds (personal_access_token_prefix's default, DeployToken, User::FEED_TOKEN_PREFIX). */
export const TOKEN_PREFIX = { personal: "glpat-", deploy: "gldt-", feed: "glft-" } as const;

const today = (state: EmulatorState): string => state.now().slice(0, 10);

/** `PersonalAccessToken#active?` / `DeployToken#active?`: neither revoked nor expired (a token expires at the start of its date). */
export function isTokenActive(state: EmulatorState, record: CredentialRecord): boolean {
  return !record.revoked && !isExpired(state, record);
}

export function isExpired(state: EmulatorState, record: CredentialRecord): boolean {
  return record.expiresAt !== null && record.expiresAt <= today(state);
}

export const findCredential = (state: EmulatorState, plaintext: string): CredentialRecord | undefined =>
  credentialsStore.of(state).tokens.find((record) => record.token === plaintext);

/** Marks the token revoked and takes it from its user's API tokens: it answers 401 from now on. */
export function revokeCredential(state: EmulatorState, record: CredentialRecord): void {
  record.revoked = true;
  const user = record.userId === null ? undefined : state.userById(record.userId);
  if (user) user.tokens = user.tokens.filter((token) => token !== record.token);
}

/** `Users::ResetFeedTokenService`: the old value stops working, the new one is not told to anyone. */
export function rotateFeedToken(state: EmulatorState, record: CredentialRecord): void {
  const seed = `${record.token}#${state.now()}#${record.id}`;
  record.token = TOKEN_PREFIX.feed + createHash("sha256").update(seed).digest("hex").slice(0, 20);
}

/** Group ids of a group and everything below it. */
export function selfAndDescendantIds(state: EmulatorState, groupId: number): Set<number> {
  const group = state.groupById(groupId);
  return new Set(group ? [group.id, ...state.descendants(group).map((g) => g.id)] : []);
}

/**
 * `user_has_group_membership?`: a direct membership of the user (any role,
 * bots included) in the group, a subgroup, or a project of either.
 */
export function hasMembershipWithin(state: EmulatorState, user: User, groupId: number): boolean {
  const ids = selfAndDescendantIds(state, groupId);
  const key = String(user.id);
  return (
    state.groups.some((group) => ids.has(group.id) && (group.members[key] ?? 0) > 0) ||
    state.projects.some((project) => ids.has(project.namespaceId) && (project.members[key] ?? 0) > 0)
  );
}


/** Grape's `values:` for an array of strings: every item among them (400 `scopes does not have a valid value`). */
export function scopesAmong(scopes: readonly string[], allowed: readonly string[]): void {
  if (scopes.length === 0 || scopes.some((scope) => !allowed.includes(scope))) throw paramError("scopes does not have a valid value");
}
