/** The `credentials` seed section: personal, group, project, deploy and feed tokens, and enterprise users. */
import { createHash } from "node:crypto";
import { z } from "zod";
import { SeedError } from "../../seed-error";
import { AccessLevel, Sequence, type EmulatorState, type User } from "../../state";
import { credentialsStore, DEPLOY_TOKEN_SEQUENCE, isTokenActive, PAT_SEQUENCE, TOKEN_PREFIX, type CredentialRecord } from "./model";


const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const EPOCH = "2024-01-01T00:00:00.000Z";

interface CommonFields {
  token: string;
  name: string;
  description: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revoked: boolean;
}

/** The fields every described token may have; `where` names the entry in errors. */
function readCommon(entry: unknown, where: string, prefix: string, defaultScopes: string[]): CommonFields {
  if (!isObject(entry)) throw new SeedError(`${where} must be an object`);
  const { token, name, description, scopes, createdAt, lastUsedAt, expiresAt, revoked } = entry;
  if (typeof token !== "string" || !token.startsWith(prefix)) throw new SeedError(`${where}.token must be a string starting with ${prefix}`);
  if (name !== undefined && typeof name !== "string") throw new SeedError(`${where}.name must be a string`);
  if (description !== undefined && typeof description !== "string") throw new SeedError(`${where}.description must be a string`);
  if (scopes !== undefined && (!Array.isArray(scopes) || !scopes.every((s) => typeof s === "string"))) throw new SeedError(`${where}.scopes must be an array of strings`);
  for (const [field, value] of [["createdAt", createdAt], ["lastUsedAt", lastUsedAt]] as const) {
    if (value !== undefined && value !== null && (typeof value !== "string" || Number.isNaN(Date.parse(value)))) throw new SeedError(`${where}.${field} must be a time`);
  }
  if (expiresAt !== undefined && expiresAt !== null && (typeof expiresAt !== "string" || !DATE.test(expiresAt))) throw new SeedError(`${where}.expiresAt must be a date (YYYY-MM-DD) or null`);
  if (revoked !== undefined && typeof revoked !== "boolean") throw new SeedError(`${where}.revoked must be a boolean`);
  return {
    token,
    name: (name as string | undefined) ?? "token",
    description: (description as string | undefined) ?? "",
    scopes: (scopes as string[] | undefined) ?? defaultScopes,
    createdAt: new Date((createdAt as string | undefined) ?? EPOCH).toISOString(),
    lastUsedAt: typeof lastUsedAt === "string" ? new Date(lastUsedAt).toISOString() : null,
    expiresAt: (expiresAt as string | null | undefined) ?? null,
    revoked: (revoked as boolean | undefined) ?? false,
  };
}

const blank = { userId: null, groupId: null, projectId: null, accessLevel: null, username: null };

function listOf(section: Record<string, unknown>, key: string): unknown[] {
  const value = section[key] ?? [];
  if (!Array.isArray(value)) throw new SeedError(`credentials.${key} must be an array`);
  return value;
}

function userNamed(state: EmulatorState, username: unknown, where: string): User {
  const user = typeof username === "string" ? state.userByUsername(username) : undefined;
  if (!user) throw new SeedError(`${where}.user: unknown user ${String(username)}`);
  return user;
}

/** A bot user for a group or project access token, a member of its resource with the token's role. */
function addBotUser(state: EmulatorState, resource: string, resourceId: number, name: string, token: string): User {
  const suffix = createHash("sha1").update(token).digest("hex").slice(0, 8);
  const username = `${resource}_${resourceId}_bot_${suffix}`;
  const user: User = {
    id: state.nextId(Sequence.users),
    username,
    name,
    email: `${username}@noreply.${state.instance.host}`,
    isAdmin: false,
    tokens: [],
    createdAt: EPOCH,
  };
  state.users.push(user);
  return user;
}

function readPersonalTokens(state: EmulatorState, section: Record<string, unknown>): CredentialRecord[] {
  return listOf(section, "personalAccessTokens").map((entry, index) => {
    const where = `credentials.personalAccessTokens[${index}]`;
    const user = userNamed(state, (entry as Record<string, unknown> | null)?.user, where);
    const common = readCommon(entry, where, TOKEN_PREFIX.personal, ["api"]);
    return { id: state.nextId(PAT_SEQUENCE), kind: "personal_access_token", ...blank, ...common, userId: user.id };
  });
}

function readAccessLevel(entry: unknown, where: string): number {
  const level = (entry as Record<string, unknown>).accessLevel ?? AccessLevel.Maintainer;
  if (![10, 15, 20, 30, 40, 50].includes(level as number)) throw new SeedError(`${where}.accessLevel must be 10, 15, 20, 30, 40 or 50`);
  return level as number;
}

function readResourceTokens(state: EmulatorState, section: Record<string, unknown>, kind: "group_access_token" | "project_access_token"): CredentialRecord[] {
  const key = kind === "group_access_token" ? "groupAccessTokens" : "projectAccessTokens";
  return listOf(section, key).map((entry, index) => {
    const where = `credentials.${key}[${index}]`;
    const common = readCommon(entry, where, TOKEN_PREFIX.personal, ["api"]);
    const accessLevel = readAccessLevel(entry, where);
    const path = (entry as Record<string, unknown>)[kind === "group_access_token" ? "group" : "project"];
    const target = typeof path !== "string" ? undefined : kind === "group_access_token" ? state.groupByFullPath(path) : state.projectByFullPath(path);
    if (!target) throw new SeedError(`${where}: unknown ${kind === "group_access_token" ? "group" : "project"} ${String(path)}`);
    const bot = addBotUser(state, kind === "group_access_token" ? "group" : "project", target.id, common.name, common.token);
    target.members[String(bot.id)] = accessLevel;
    const owner = kind === "group_access_token" ? { groupId: target.id } : { projectId: target.id };
    return { id: state.nextId(PAT_SEQUENCE), kind, ...blank, ...common, ...owner, userId: bot.id, accessLevel };
  });
}

function readDeployTokens(state: EmulatorState, section: Record<string, unknown>): CredentialRecord[] {
  return listOf(section, "deployTokens").map((entry, index) => {
    const where = `credentials.deployTokens[${index}]`;
    const common = readCommon(entry, where, TOKEN_PREFIX.deploy, ["read_repository"]);
    const { group, project, username } = entry as Record<string, unknown>;
    if ((group === undefined) === (project === undefined)) throw new SeedError(`${where}: give exactly one of group and project`);
    const groupRecord = typeof group === "string" ? state.groupByFullPath(group) : undefined;
    const projectRecord = typeof project === "string" ? state.projectByFullPath(project) : undefined;
    if (group !== undefined && !groupRecord) throw new SeedError(`${where}: unknown group ${String(group)}`);
    if (project !== undefined && !projectRecord) throw new SeedError(`${where}: unknown project ${String(project)}`);
    if (username !== undefined && typeof username !== "string") throw new SeedError(`${where}.username must be a string`);
    const id = state.nextId(DEPLOY_TOKEN_SEQUENCE);
    return {
      id,
      kind: "deploy_token",
      ...blank,
      ...common,
      groupId: groupRecord?.id ?? null,
      projectId: projectRecord?.id ?? null,
      username: (username as string | undefined) ?? `gitlab+deploy-token-${id}`,
    };
  });
}

function readFeedTokens(state: EmulatorState, section: Record<string, unknown>): CredentialRecord[] {
  const value = section["feedTokens"] ?? {};
  if (!isObject(value)) throw new SeedError("credentials.feedTokens must be an object: username → feed token");
  return Object.entries(value).map(([username, token]) => {
    const where = `credentials.feedTokens["${username}"]`;
    const user = userNamed(state, username, where);
    if (typeof token !== "string" || !token.startsWith(TOKEN_PREFIX.feed)) throw new SeedError(`${where} must be a string starting with ${TOKEN_PREFIX.feed}`);
    // A feed token is a user column: its id is the user's.
    return { id: user.id, kind: "feed_token", ...blank, token, name: "feed token", description: "", scopes: [], userId: user.id, createdAt: user.createdAt, lastUsedAt: null, expiresAt: null, revoked: false };
  });
}

function readEnterpriseUsers(state: EmulatorState, section: Record<string, unknown>): Record<string, number> {
  const value = section["enterpriseUsers"] ?? {};
  if (!isObject(value)) throw new SeedError("credentials.enterpriseUsers must be an object: top-level group path → usernames");
  const owners: Record<string, number> = {};
  for (const [path, usernames] of Object.entries(value)) {
    const where = `credentials.enterpriseUsers["${path}"]`;
    const group = state.groupByFullPath(path);
    if (!group || group.parentId !== null) throw new SeedError(`${where}: ${path} is not a top-level group`);
    if (!Array.isArray(usernames)) throw new SeedError(`${where} must be an array of usernames`);
    for (const username of usernames) {
      const user = userNamed(state, username, where);
      if (owners[String(user.id)] !== undefined) throw new SeedError(`${where}: ${String(username)} is already the enterprise user of another group`);
      owners[String(user.id)] = group.id;
    }
  }
  return owners;
}

/** A record for each API token of a seed user that the section did not describe. */
function undescribedTokens(state: EmulatorState, described: Set<string>): CredentialRecord[] {
  return state.users.flatMap((user) =>
    user.tokens
      .filter((token) => !described.has(token))
      .map((token, index): CredentialRecord => ({
        id: state.nextId(PAT_SEQUENCE),
        kind: "personal_access_token",
        ...blank,
        token,
        name: `${user.username}-token-${index + 1}`,
        description: "",
        scopes: user.tokenScopes?.[token] ?? ["api"],
        userId: user.id,
        createdAt: user.createdAt,
        lastUsedAt: null,
        expiresAt: null,
        revoked: false,
      })),
  );
}

/** Applies the section: records, bot users, enterprise users; active API tokens join their user's `tokens`. */
/**
 * The section's parts; each part's entries are read below, where a token's
 * rules (its prefix, its user's role) live.
 */
export const credentialsSeedSchema = z.strictObject(
  {
    personalAccessTokens: z.unknown().optional(),
    groupAccessTokens: z.unknown().optional(),
    projectAccessTokens: z.unknown().optional(),
    deployTokens: z.unknown().optional(),
    feedTokens: z.unknown().optional(),
    enterpriseUsers: z.unknown().optional(),
  },
  { error: "must be an object" },
);

export function applyCredentialsSeed(state: EmulatorState, section: z.infer<typeof credentialsSeedSchema> | undefined): void {
  const input: Record<string, unknown> = section ?? {};
  const store = credentialsStore.of(state);
  const described = [
    ...readPersonalTokens(state, input),
    ...readResourceTokens(state, input, "group_access_token"),
    ...readResourceTokens(state, input, "project_access_token"),
    ...readDeployTokens(state, input),
    ...readFeedTokens(state, input),
  ];
  const seen = new Set<string>();
  for (const record of described) {
    if (seen.has(record.token)) throw new SeedError(`credentials: the token of ${record.name} is given twice`);
    seen.add(record.token);
    const holder = state.userByToken(record.token);
    if (holder && holder.id !== record.userId) throw new SeedError(`credentials: the token of ${record.name} is already ${holder.username}'s`);
  }
  // Active personal, group and project access tokens authenticate; the others do not (see the header).
  for (const record of described) {
    const user = record.userId === null ? undefined : state.userById(record.userId);
    const apiToken = record.kind !== "deploy_token" && record.kind !== "feed_token";
    if (!user) continue;
    if (apiToken && isTokenActive(state, record) && !user.tokens.includes(record.token)) user.tokens.push(record.token);
    if (!(apiToken && isTokenActive(state, record))) user.tokens = user.tokens.filter((token) => token !== record.token);
  }
  store.tokens.push(...described, ...undescribedTokens(state, seen));
  Object.assign(store.enterpriseGroups, readEnterpriseUsers(state, input));
}
