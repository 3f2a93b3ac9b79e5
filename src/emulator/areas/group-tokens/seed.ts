/** The `credentials` seed section: personal, group, project, deploy and feed tokens, and enterprise users. */
import { createHash } from "node:crypto";
import { z } from "zod";
import { SeedError } from "../../seed-error";
import { AccessLevel, Sequence, type EmulatorState, type Group, type Project, type User } from "../../state";
import { credentialsStore, DEPLOY_TOKEN_SEQUENCE, isTokenActive, PAT_SEQUENCE, TOKEN_PREFIX, type CredentialRecord } from "./model";

const EPOCH = "2024-01-01T00:00:00.000Z";
const text = z.string({ error: "must be a string" });
const time = z
  .string({ error: "must be a time" })
  .refine((value) => !Number.isNaN(Date.parse(value)), "must be a time")
  .transform((value) => new Date(value).toISOString());
const prefixed = (prefix: string) => z.string({ error: `must be a string starting with ${prefix}` }).startsWith(prefix, `must be a string starting with ${prefix}`);

/** The fields every described token may have, first in each entry's shape, so that `...rest` of an entry keeps them in this order. */
const commonFields = (prefix: string, defaultScopes: readonly string[]) => ({
  token: prefixed(prefix),
  name: text.default("token"),
  description: text.default(""),
  scopes: z.array(text, { error: "must be an array of strings" }).default(() => [...defaultScopes]),
  createdAt: time.default(EPOCH),
  lastUsedAt: time.nullable().default(null),
  expiresAt: z
    .string({ error: "must be a date (YYYY-MM-DD) or null" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date (YYYY-MM-DD) or null")
    .nullable()
    .default(null),
  revoked: z.boolean({ error: "must be a boolean" }).default(false),
});

const accessLevel = z.literal([10, 15, 20, 30, 40, 50], { error: "must be 10, 15, 20, 30, 40 or 50" }).default(AccessLevel.Maintainer as 40);
const listOf = <T extends z.ZodType>(entry: T) => z.array(entry, { error: "must be an array" }).default([]);
const entryOf = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, { error: "must be an object" });

const personalToken = entryOf({ ...commonFields(TOKEN_PREFIX.personal, ["api"]), user: text });
const groupToken = entryOf({ ...commonFields(TOKEN_PREFIX.personal, ["api"]), accessLevel, group: text });
const projectToken = entryOf({ ...commonFields(TOKEN_PREFIX.personal, ["api"]), accessLevel, project: text });
const deployToken = entryOf({ ...commonFields(TOKEN_PREFIX.deploy, ["read_repository"]), group: text.optional(), project: text.optional(), username: text.optional() }).refine(
  (entry) => (entry.group === undefined) !== (entry.project === undefined),
  "give exactly one of group and project",
);

/** The section's parts: tokens described in full, feed tokens by username, enterprise users by top-level group. */
export const credentialsSeedSchema = z.strictObject(
  {
    personalAccessTokens: listOf(personalToken),
    groupAccessTokens: listOf(groupToken),
    projectAccessTokens: listOf(projectToken),
    deployTokens: listOf(deployToken),
    feedTokens: z.record(z.string(), prefixed(TOKEN_PREFIX.feed), { error: "must be an object keyed by username" }).default({}),
    enterpriseUsers: z
      .record(z.string(), z.array(text, { error: "must be an array of usernames" }), { error: "must be an object keyed by top-level group full path" })
      .default({}),
  },
  { error: "must be an object" },
);
type CredentialsSeed = z.output<typeof credentialsSeedSchema>;

const blank = { userId: null, groupId: null, projectId: null, accessLevel: null, username: null };

function userNamed(state: EmulatorState, username: string, where: string): User {
  const user = state.userByUsername(username);
  if (!user) throw new SeedError(`${where}.user: unknown user ${username}`);
  return user;
}

/** A bot user for a group or project access token (its membership is the caller's to add). */
export function addBotUser(state: EmulatorState, resource: string, resourceId: number, name: string, token: string, createdAt = EPOCH): User {
  const suffix = createHash("sha1").update(token).digest("hex").slice(0, 8);
  const username = `${resource}_${resourceId}_bot_${suffix}`;
  const user: User = {
    id: state.nextId(Sequence.users),
    username,
    name,
    email: `${username}@noreply.${state.instance.host}`,
    isAdmin: false,
    tokens: [],
    createdAt,
  };
  state.users.push(user);
  return user;
}

function readPersonalTokens(state: EmulatorState, section: CredentialsSeed): CredentialRecord[] {
  return section.personalAccessTokens.map(({ user: username, ...common }, index) => {
    const user = userNamed(state, username, `credentials.personalAccessTokens[${index}]`);
    return { id: state.nextId(PAT_SEQUENCE), kind: "personal_access_token", ...blank, ...common, userId: user.id };
  });
}

type ResourceTokenEntry = Omit<z.output<typeof groupToken>, "group">;

/** A group or project access token: a bot user, a member of `target` with the token's role. */
function resourceToken(state: EmulatorState, resource: "group" | "project", target: Group | Project | undefined, path: string, where: string, entry: ResourceTokenEntry): CredentialRecord {
  const { accessLevel, ...common } = entry;
  if (!target) throw new SeedError(`${where}: unknown ${resource} ${path}`);
  const bot = addBotUser(state, resource, target.id, common.name, common.token);
  target.members[String(bot.id)] = accessLevel;
  const owner = resource === "group" ? { groupId: target.id } : { projectId: target.id };
  return { id: state.nextId(PAT_SEQUENCE), kind: `${resource}_access_token`, ...blank, ...common, ...owner, userId: bot.id, accessLevel };
}

function readResourceTokens(state: EmulatorState, section: CredentialsSeed): CredentialRecord[] {
  return [
    ...section.groupAccessTokens.map(({ group, ...entry }, index) =>
      resourceToken(state, "group", state.groupByFullPath(group), group, `credentials.groupAccessTokens[${index}]`, entry),
    ),
    ...section.projectAccessTokens.map(({ project, ...entry }, index) =>
      resourceToken(state, "project", state.projectByFullPath(project), project, `credentials.projectAccessTokens[${index}]`, entry),
    ),
  ];
}

function readDeployTokens(state: EmulatorState, section: CredentialsSeed): CredentialRecord[] {
  return section.deployTokens.map(({ group, project, username, ...common }, index) => {
    const where = `credentials.deployTokens[${index}]`;
    const groupRecord = group === undefined ? undefined : state.groupByFullPath(group);
    const projectRecord = project === undefined ? undefined : state.projectByFullPath(project);
    if (group !== undefined && !groupRecord) throw new SeedError(`${where}: unknown group ${group}`);
    if (project !== undefined && !projectRecord) throw new SeedError(`${where}: unknown project ${project}`);
    const id = state.nextId(DEPLOY_TOKEN_SEQUENCE);
    return {
      id,
      kind: "deploy_token",
      ...blank,
      ...common,
      groupId: groupRecord?.id ?? null,
      projectId: projectRecord?.id ?? null,
      username: username ?? `gitlab+deploy-token-${id}`,
    };
  });
}

function readFeedTokens(state: EmulatorState, section: CredentialsSeed): CredentialRecord[] {
  return Object.entries(section.feedTokens).map(([username, token]) => {
    const user = userNamed(state, username, `credentials.feedTokens["${username}"]`);
    // A feed token is a user column: its id is the user's.
    return { id: user.id, kind: "feed_token", ...blank, token, name: "feed token", description: "", scopes: [], userId: user.id, createdAt: user.createdAt, lastUsedAt: null, expiresAt: null, revoked: false };
  });
}

function readEnterpriseUsers(state: EmulatorState, section: CredentialsSeed): Record<string, number> {
  const owners: Record<string, number> = {};
  for (const [path, usernames] of Object.entries(section.enterpriseUsers)) {
    const where = `credentials.enterpriseUsers["${path}"]`;
    const group = state.groupByFullPath(path);
    if (!group || group.parentId !== null) throw new SeedError(`${where}: ${path} is not a top-level group`);
    for (const username of usernames) {
      const user = userNamed(state, username, where);
      if (owners[String(user.id)] !== undefined) throw new SeedError(`${where}: ${username} is already the enterprise user of another group`);
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
export function applyCredentialsSeed(state: EmulatorState, section: CredentialsSeed | undefined): void {
  const input = section ?? credentialsSeedSchema.parse({});
  const store = credentialsStore.of(state);
  const described = [
    ...readPersonalTokens(state, input),
    ...readResourceTokens(state, input),
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
    // The core's API guard reads a token's scopes from its user.
    if (apiToken) user.tokenScopes = { ...user.tokenScopes, [record.token]: record.scopes };
    if (!(apiToken && isTokenActive(state, record))) user.tokens = user.tokens.filter((token) => token !== record.token);
  }
  store.tokens.push(...described, ...undescribedTokens(state, seen));
  Object.assign(store.enterpriseGroups, readEnterpriseUsers(state, input));
}
