/**
 * GroupAccessToken and ProjectAccessToken: a token of a group or a project,
 * whose bot user is a member of it with the token's role.
 *
 * The token is a secret output, shown by the server only when it is made:
 * at the create and at each rotation (`POST .../access_tokens/:id/rotate`,
 * which revokes the token it rotates). An update is always a rotation; a
 * change of the name, the scopes or the role makes a new token (the API
 * cannot change them).
 *
 * Expiry, one of two ways:
 * - `expiresAt`: the token's date; moving it rotates the token to the new date.
 * - `rotateBeforeDays`: each token gets the longest life the server allows
 *   (365 days from the day it is made), and a preview on or after
 *   `rotateBeforeDays` days before that date (the client's clock) plans
 *   the rotation: `plannedExpiresAt`, read at preview, is then the new
 *   token's date instead of the current one's.
 * A token revoked outside the program is gone (a refresh drops it: drift,
 * "deleted outside this program"), and the next `up` makes a new one; an
 * expired one reads `active` false (drift, named), and the next `up` rotates it.
 *
 * The resource id is `groups|projects/<owner>/access_tokens/<id of the first
 * token>`; `tokenId` is the current token's id.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  ACCESS_TOKEN_SCOPES,
  accessTokenIdOf,
  accessTokenNeeds,
  accessTokenRequests,
  accessTokensPath,
  addDays,
  calendarDate,
  clientToday,
  daysBetween,
  groupAccessTokenIdForm,
  lifetimeProblem,
  MAX_TOKEN_LIFETIME_DAYS,
  newAccessTokenRequests,
  parseAccessTokenId,
  projectAccessTokenIdForm,
  tokenLevel,
  tokenRole,
  type AccessToken,
  type AccessTokenWithToken,
} from "../api/access-tokens";
import { field, type ObservedTrait } from "../api/fields";
import type { IdForm } from "../api/id-form";
import { ownerReference, type OwnerKind } from "../api/owner";
import { ApiError } from "../client";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { idPair, ownerAddress, wholeNumber, type Found, type TerraformTarget } from "../engine/estate";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { ownerInput, TOKEN_REPLACED, tokenWords } from "./common";

/** The live token, with the token itself where this run made one (or the recorded one, kept). */
type TokenLive = AccessToken & { token?: string };
type Args = Record<string, unknown>;

const sameSet = (declared: unknown, live: unknown) =>
  Array.isArray(declared) && Array.isArray(live) && declared.length === live.length && declared.every((item) => live.includes(item));

/** The fields both kinds share, after their owner. */
const tokenFields = {
  /** The token's name (its bot user's name too). A new name makes a new token. */
  name: field(z.string().min(1, { message: "must not be empty" }).max(255, { message: "must be at most 255 characters" }), { replaceOnChange: true }),
  /** What the token may do (`api`, `read_repository`, ...). Other scopes make a new token. */
  scopes: field(z.array(z.enum(ACCESS_TOKEN_SCOPES, { message: `must be among ${ACCESS_TOKEN_SCOPES.join(", ")}` })).min(1, { message: "must name at least one scope" }), {
    replaceOnChange: true,
    sameValue: sameSet,
  }),
  /** The bot's role: a name (`developer`) or its access level (30); the server's default is maintainer. Another role makes a new token. */
  accessLevel: field(tokenRole.optional(), { replaceOnChange: true, sameValue: (declared, live) => tokenLevel(declared) === tokenLevel(live) }),
  /** The token's expiry date (`YYYY-MM-DD`, at most 365 days ahead). Moving it rotates the token. Set this or `rotateBeforeDays`. */
  expiresAt: field(calendarDate.optional(), {}),
  /**
   * Rotate the token this many days before it expires (the client's clock); each token then lives the
   * longest the server allows (365 days). Set this or `expiresAt`.
   */
  rotateBeforeDays: field(
    z.number().int({ message: "must be a whole number of days" }).min(1, { message: "must be at least 1" }).max(MAX_TOKEN_LIFETIME_DAYS - 1, { message: `must be less than ${MAX_TOKEN_LIFETIME_DAYS}` }).optional(),
    { local: true, ignoreInDiff: true },
  ),
  /** Read at preview, never declared: the expiry date the token has after this run (a new date: the run rotates the token). */
  plannedExpiresAt: field(z.string().optional(), { local: true, observed: plannedExpiry() }),
};

/**
 * `plannedExpiresAt`: `expiresAt` where declared; else the recorded date until
 * the rotation is due (`rotateBeforeDays` before it, on the client's clock),
 * then the longest life from today. Pending when it moves, and when a refresh
 * found the token revoked or expired.
 */
function plannedExpiry(): ObservedTrait {
  return {
    async read(_ctx, args, recorded) {
      if (typeof args.expiresAt === "string") return args.expiresAt;
      if (typeof args.rotateBeforeDays !== "number") return undefined;
      const today = clientToday();
      const current = recorded.plannedExpiresAt;
      const due = typeof current !== "string" || daysBetween(today, current) <= args.rotateBeforeDays;
      return due ? addDays(today, MAX_TOKEN_LIFETIME_DAYS) : current;
    },
    pending: (value, recorded) => value !== recorded.plannedExpiresAt || recorded.active === false,
  };
}

/** The expiry a new token of these inputs gets. */
const expiryOf = (args: Args): string => (args.expiresAt as string | undefined) ?? (args.plannedExpiresAt as string | undefined) ?? addDays(clientToday(), MAX_TOKEN_LIFETIME_DAYS);

interface Kind {
  owner: OwnerKind;
  name: "GroupAccessToken" | "ProjectAccessToken";
  noun: string;
  idForm: IdForm<{ kind: OwnerKind; tokensPath: string; tokenId: number }>;
  terraform: string;
}

const ownerRef = (kind: Kind, args: Args) => args[kind.owner] as string | number;
const pathOf = (kind: Kind, args: Args) => accessTokensPath({ [kind.owner]: ownerRef(kind, args) });

/** The token a create whose answer was lost made: the newest active one of that name not there before, made again to be known. */
async function madeSince(ctx: EngineContext, path: string, name: string, before: Set<number>): Promise<AccessToken | undefined> {
  const tokens = await accessTokenRequests.list(ctx.client, path);
  return tokens.filter((token) => token.name === name && token.active && !before.has(token.id)).sort((a, b) => b.id - a.id)[0];
}

/** Rotates `tokenId`; a rotation whose answer was lost is found (the bot's newest active token) and rotated again, so its value is known. */
async function rotate(ctx: EngineContext, path: string, tokenId: number, botId: number | undefined, expiresAt: string): Promise<AccessTokenWithToken> {
  const rotated = await ctx.client.post<unknown>(`${path}/${tokenId}/rotate`, { expires_at: expiresAt }, async () => {
    const tokens = await accessTokenRequests.list(ctx.client, path);
    return tokens.filter((token) => token.user_id === botId && token.active && token.id > tokenId).sort((a, b) => b.id - a.id)[0];
  });
  const checked = (rotated as { token?: unknown }).token === undefined ? undefined : newAccessTokenRequests.check(rotated, `POST ${path}/${tokenId}/rotate`);
  return checked ?? rotate(ctx, path, (rotated as AccessToken).id, botId, expiresAt);
}

/** Creates the token; a create whose answer was lost is found and rotated, so its value is known (the lost one is revoked). */
async function createToken(ctx: EngineContext, kind: Kind, args: Args): Promise<AccessTokenWithToken> {
  const path = pathOf(kind, args);
  const before = new Set((await accessTokenRequests.list(ctx.client, path)).map((token) => token.id));
  const body = { name: args.name, scopes: args.scopes, access_level: tokenLevel(args.accessLevel), expires_at: expiryOf(args) };
  const made = await ctx.client.post<unknown>(path, body, () => madeSince(ctx, path, args.name as string, before));
  if ((made as { token?: unknown }).token !== undefined) return newAccessTokenRequests.check(made, `POST ${path}`);
  const found = accessTokenRequests.check(made, `POST ${path}`);
  return rotate(ctx, path, found.id, found.user_id, expiryOf(args));
}

const isRevokedAnswer = (error: unknown) => error instanceof ApiError && error.status === 400 && /already revoked|Failed to find bot user/i.test(error.serverMessage);

function terraformToken(owner: OwnerKind, id: string): TerraformTarget | undefined {
  const parts = idPair(id);
  const token = wholeNumber(parts?.[1]);
  return parts && token !== undefined ? { owner: { kind: owner, ref: parts[0] }, key: token } : undefined;
}

/** Why an imported token's value is not in the program: the server never shows it again. */
const CANNOT_KNOW =
  "the server shows a token only when it is made: the program cannot know this one's value, so `token` stays empty until the next rotation (move expiresAt) makes a new one";

function foundToken(kind: Kind, ownerId: number, token: AccessToken): Found {
  return {
    importId: accessTokenIdOf(kind.owner, ownerId, token.id),
    name: token.name,
    live: token,
    address: { [kind.owner]: ownerId },
    leaveOut: new Map([["rotateBeforeDays", "the program chooses how to rotate: the import declares the token's expiresAt"]]),
    notes: [CANNOT_KNOW],
  };
}

function defineAccessToken<S extends z.ZodObject>(kind: Kind, schema: S) {
  const parseId = (id: string) => {
    const parsed = kind.idForm.parse(id);
    if (!parsed) throw new Error(`${kind.name} id "${id}" is not ${kind.idForm.says}.`);
    return parsed;
  };
  /** The current token: the recorded `tokenId`, else the one the id names. */
  const currentId = (id: string, recorded: Args) => (typeof recorded.tokenId === "number" ? recorded.tokenId : parseId(id).tokenId);

  return defineObjectResource({
    name: kind.name,
    words: { noun: kind.noun, says: tokenWords, update: { verb: "rotates", done: "rotated", note: TOKEN_REPLACED } },
    imported: {
      word: `${kind.owner}-access-token`,
      listed: `${kind.owner} access tokens`,
      on: [kind.owner],
      async find({ ctx, owner }) {
        const tokens = await accessTokenRequests.list(ctx.client, accessTokensPath(ownerAddress(owner)));
        return { found: tokens.filter((token) => token.active).map((token) => foundToken(kind, owner.id, token)) };
      },
      async findOne({ ctx, owner }, key) {
        const tokens = await accessTokenRequests.list(ctx.client, accessTokensPath(ownerAddress(owner)));
        const token = tokens.find((one) => one.id === Number(key));
        if (!token || !token.active) return { found: [], skipped: [{ what: `${kind.noun} ${key}`, why: token ? "revoked or expired" : "not found" }] };
        return { found: [foundToken(kind, owner.id, token)] };
      },
    },
    terraform: [{ type: kind.terraform, target: (id) => terraformToken(kind.owner, id) }],
    idForm: kind.idForm,
    notFoundSubject: new RegExp(`^Could not find ${kind.owner} access token with token_id: \\d+$`),
    schema,
    outputs: {
      /** The token, secret: known from the create on, new at each rotation (empty after an import: the server never shows it again). */
      token: { value: (live: TokenLive, args: Args) => live.token ?? (args.token as string | undefined), secret: true, derivedFrom: [] },
      /** The current token's id (a rotation makes a new one). */
      tokenId: { value: (live: TokenLive) => live.id, derivedFrom: [] },
      /** The token's bot user. */
      userId: { value: (live: TokenLive) => live.user_id, derivedFrom: [] },
      /** The expiry date the server holds. */
      tokenExpiresAt: { value: (live: TokenLive) => live.expires_at, derivedFrom: ["expiresAt"] },
      /** False once the token expired: a refresh that finds it so reports drift, and the next `up` rotates it. */
      active: { value: (live: TokenLive) => live.active, derivedFrom: [] },
      revoked: { value: (live: TokenLive) => live.revoked, derivedFrom: [] },
    },
    validate(args, step) {
      const problems: { property: string; reason: string }[] = [];
      const given = args as Args;
      if ((given.expiresAt === undefined) === (given.rotateBeforeDays === undefined)) {
        problems.push({
          property: given.expiresAt === undefined ? "expiresAt" : "rotateBeforeDays",
          reason: "set exactly one of expiresAt (the token's date; moving it rotates the token) and rotateBeforeDays (the token is rotated that many days before it expires)",
        });
      }
      // The server judges the lifetime of a date it is sent (a new token, a rotation): one the token has already passes.
      const sent = typeof given.expiresAt === "string" && !step.importing && given.expiresAt !== step.recorded.expiresAt;
      const problem = typeof given.expiresAt === "string" ? lifetimeProblem(given.expiresAt, clientToday(), sent) : undefined;
      if (problem) problems.push({ property: "expiresAt", reason: problem });
      return problems;
    },
    needs: (args, operation) => accessTokenNeeds(kind.owner, args as never, operation),

    async create(ctx, args) {
      const made = await createToken(ctx, kind, args as Args);
      return { id: accessTokenIdOf(kind.owner, ownerRef(kind, args as Args), made.id), live: made };
    },

    async read(ctx, id, recorded) {
      const path = parseId(id).tokensPath;
      const live = await accessTokenRequests.get(ctx.client, `${path}/${currentId(id, recorded as Args)}`);
      // A revoked token is gone for good (the server keeps only its record); an expired one can still be rotated.
      return live.revoked ? undefined : { ...live, token: (recorded as Args).token as string | undefined };
    },

    // Every update is a rotation: of the current token, or a new one where it was revoked or expired.
    async update(ctx, id, args, _changed, olds) {
      const path = parseId(id).tokensPath;
      const recorded = olds as Args;
      const tokenId = currentId(id, recorded);
      const botId = typeof recorded.userId === "number" ? recorded.userId : undefined;
      if (recorded.active !== false) {
        try {
          return await rotate(ctx, path, tokenId, botId, expiryOf(args as Args));
        } catch (error) {
          if (!isRevokedAnswer(error)) throw error;
        }
      }
      return createToken(ctx, kind, args as Args);
    },

    async delete(ctx, id, recorded) {
      const path = parseId(id).tokensPath;
      try {
        await ctx.client.delete(`${path}/${currentId(id, recorded as Args)}`);
      } catch (error) {
        // Revoked already (outside the program): nothing is left to revoke.
        if (!isRevokedAnswer(error)) throw error;
      }
    },

    addressOfImport: (id) => {
      const parsed = parseAccessTokenId(id);
      return parsed ? ({ [kind.owner]: decodeURIComponent(parsed.tokensPath.split("/")[2]!) } as never) : {};
    },
  });
}

const groupSchema = z.object({
  /** The group (numeric id or full path). */
  group: ownerInput(ownerReference),
  ...tokenFields,
});
const projectSchema = z.object({
  /** The project (numeric id or full path). */
  project: ownerInput(ownerReference),
  ...tokenFields,
});

export const groupAccessTokenDefinition = defineAccessToken(
  { owner: "group", name: "GroupAccessToken", noun: "group access token", idForm: groupAccessTokenIdForm, terraform: "gitlab_group_access_token" },
  groupSchema,
);
export const projectAccessTokenDefinition = defineAccessToken(
  { owner: "project", name: "ProjectAccessToken", noun: "project access token", idForm: projectAccessTokenIdForm, terraform: "gitlab_project_access_token" },
  projectSchema,
);

export type GroupAccessTokenArgs = Omit<ResourceArgs<typeof groupSchema>, "plannedExpiresAt">;
export type ProjectAccessTokenArgs = Omit<ResourceArgs<typeof projectSchema>, "plannedExpiresAt">;

/**
 * A group access token: its bot user is a member of the group with `accessLevel`. `token` is a secret output.
 *
 * ```ts
 * const ci = new GroupAccessToken("ci", { group: "acme", name: "ci", scopes: ["read_api"], accessLevel: "reporter", rotateBeforeDays: 30 });
 * ```
 */
export interface GroupAccessToken extends ResourceOutputs<typeof groupAccessTokenDefinition> {}
export class GroupAccessToken extends PlatformResource {
  static {
    ofKind(this, groupAccessTokenDefinition);
  }
  constructor(name: string, args: GroupAccessTokenArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}

/**
 * A project access token: its bot user is a member of the project with `accessLevel`. `token` is a secret output;
 * what reads it (a CI/CD variable, a hook's token) gets the new token in the same `up` that rotates it.
 *
 * ```ts
 * const deploy = new ProjectAccessToken("deploy", { project: "acme/web", name: "deploy", scopes: ["api"], rotateBeforeDays: 14 });
 * ```
 */
export interface ProjectAccessToken extends ResourceOutputs<typeof projectAccessTokenDefinition> {}
export class ProjectAccessToken extends PlatformResource {
  static {
    ofKind(this, projectAccessTokenDefinition);
  }
  constructor(name: string, args: ProjectAccessTokenArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
