/**
 * DeployToken: a deploy token of a project or a group, which opens its
 * repositories, registry or package registry (never the REST API).
 *
 * The token is a secret output, shown by the server only in the create's
 * answer. The API cannot change a deploy token: every input replaces it
 * (the new token is made before the old one is deleted). A create whose
 * answer was lost is found (a token of that name not there before), deleted
 * and made again, so its value is known and no second token is left.
 *
 * The resource id is `projects|groups/<owner>/deploy_tokens/<id>`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  DEPLOY_TOKEN_SCOPES,
  deployTokenIdForm,
  deployTokenIdOf,
  deployTokenNeeds,
  deployTokenRequests,
  deployTokensPath,
  newDeployTokenRequests,
  parseDeployTokenId,
  type DeployToken as DeployTokenLive,
  type DeployTokenWithToken,
} from "../api/deploy-tokens";
import { field } from "../api/fields";
import { parsedId } from "../api/id-form";
import { exactlyOneOwner, ownerReference, type OwnerKind } from "../api/owner";
import { clientClock } from "../client";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { idPair, ownerAddress, wholeNumber, type Found, type TerraformTarget } from "../engine/estate";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { ownerInput, tokenWords } from "./common";

type Args = Record<string, unknown>;
type TokenLive = DeployTokenLive & { token?: string };

const sameSet = (declared: unknown, live: unknown) =>
  Array.isArray(declared) && Array.isArray(live) && declared.length === live.length && declared.every((item) => live.includes(item));

/** A time the server reads (`2027-01-01` or `2027-01-01T00:00:00Z`), compared as the instant it names. */
const time = z.string().refine((value) => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), { message: "must be a date (YYYY-MM-DD) or an ISO 8601 time" });
const sameInstant = (declared: unknown, live: unknown) => typeof declared === "string" && typeof live === "string" && Date.parse(declared) === Date.parse(live);

const schema = z.object({
  /** The project the token belongs to (id or full path); set this or `group`. */
  project: ownerInput(ownerReference.optional()),
  /** The group the token belongs to (id or full path); set this or `project`. */
  group: ownerInput(ownerReference.optional()),
  /** The token's name. */
  name: field(z.string().min(1, { message: "must not be empty" }).max(255, { message: "must be at most 255 characters" }), { replaceOnChange: true }),
  /** What it opens: `read_repository`, `read_registry`, `write_registry`, `read_package_registry`, `write_package_registry`, ... */
  scopes: field(z.array(z.enum(DEPLOY_TOKEN_SCOPES, { message: `must be among ${DEPLOY_TOKEN_SCOPES.join(", ")}` })).min(1, { message: "must name at least one scope" }), {
    replaceOnChange: true,
    sameValue: sameSet,
  }),
  /** When it expires (a date or an ISO 8601 time, in the future); none: it does not expire. */
  expiresAt: field(time.optional(), { replaceOnChange: true, sameValue: sameInstant }),
  /** The username Git and the registry know it by; the server's default is `gitlab+deploy-token-<id>`. */
  username: field(
    z
      .string()
      .min(1, { message: "must not be empty" })
      .max(255, { message: "must be at most 255 characters" })
      .regex(/^[a-zA-Z0-9][a-zA-Z0-9_+.-]*$/, { message: "may contain only letters, digits, '_', '-', '+' and '.', and must start with a letter or digit" })
      .optional(),
    { replaceOnChange: true },
  ),
});

type DeployTokenInputs = z.output<typeof schema>;

const ownerKindOf = (args: DeployTokenInputs): OwnerKind => (args.project !== undefined ? "project" : "group");
const ownerRefOf = (args: DeployTokenInputs): string | number => (args.project ?? args.group)!;

const CANNOT_KNOW = "the server shows a deploy token only when it is made: the program cannot know this one's value, so `token` stays empty (a new token needs a replacement)";

function found(kind: OwnerKind, ownerId: number, token: DeployTokenLive): Found {
  return { importId: deployTokenIdOf(kind, ownerId, token.id), name: token.name, live: token, address: { [kind]: ownerId }, notes: [CANNOT_KNOW] };
}

/** The Terraform provider's id: `project:<id>:<token id>` or `group:<id>:<token id>`. */
function terraformToken(id: string): TerraformTarget | undefined {
  const [kind, rest] = idPair(id) ?? [];
  const parts = rest === undefined ? undefined : idPair(rest);
  const token = wholeNumber(parts?.[1]);
  if ((kind !== "project" && kind !== "group") || !parts || token === undefined) return undefined;
  return { owner: { kind, ref: parts[0] }, key: token };
}

/** The token of a create whose answer was lost: one of that name the owner did not have before. */
async function madeSince(ctx: EngineContext, path: string, name: string, before: Set<number>): Promise<DeployTokenLive | undefined> {
  return (await deployTokenRequests.list(ctx.client, path)).find((token) => token.name === name && !before.has(token.id));
}

async function createToken(ctx: EngineContext, args: DeployTokenInputs, again = true): Promise<DeployTokenWithToken> {
  const path = deployTokensPath(args);
  const before = new Set((await deployTokenRequests.list(ctx.client, path)).map((token) => token.id));
  const body = { name: args.name, scopes: args.scopes, expires_at: args.expiresAt, username: args.username };
  const made = await ctx.client.post<unknown>(path, body, () => madeSince(ctx, path, args.name, before));
  if ((made as { token?: unknown }).token !== undefined || !again) return newDeployTokenRequests.check(made, `POST ${path}`);
  // Found, not answered: its value is lost for good, so it goes and a token is made again.
  await ctx.client.delete(`${path}/${deployTokenRequests.check(made, `POST ${path}`).id}`);
  return createToken(ctx, args, false);
}

export const deployTokenDefinition = defineObjectResource({
  name: "DeployToken",
  words: { noun: "deploy token", says: tokenWords },
  imported: {
    word: "deploy-token",
    listed: "deploy tokens",
    on: ["group", "project"],
    async find({ ctx, owner }) {
      const kind = owner.kind as OwnerKind;
      const tokens = await deployTokenRequests.list(ctx.client, deployTokensPath(ownerAddress(owner)), { active: true });
      return { found: tokens.map((token) => found(kind, owner.id, token)) };
    },
    async findOne({ ctx, owner }, key) {
      const kind = owner.kind as OwnerKind;
      const token = (await deployTokenRequests.list(ctx.client, deployTokensPath(ownerAddress(owner)))).find((one) => one.id === Number(key));
      return token ? { found: [found(kind, owner.id, token)] } : { found: [], skipped: [{ what: `deploy token ${key}`, why: "not found" }] };
    },
  },
  terraform: [{ type: "gitlab_deploy_token", target: terraformToken }],
  idForm: deployTokenIdForm,
  notFoundSubject: "",
  schema,
  outputs: {
    /** The token, secret: known from the create on (empty after an import: the server never shows it again). */
    token: { value: (live: TokenLive, args: Args) => live.token ?? (args.token as string | undefined), secret: true, derivedFrom: [] },
    /** The token's id on the server. */
    tokenId: { value: (live: TokenLive) => live.id, fromId: (id) => parseDeployTokenId(id)?.tokenId as number, derivedFrom: [] },
    /** The username to give Git or the registry with the token (the server's default where none is declared). */
    tokenUsername: { value: (live: TokenLive) => live.username, derivedFrom: ["username"] },
    /** Whether it has expired: a refresh that finds it so reports drift; a new `expiresAt` replaces it. */
    expired: { value: (live: TokenLive) => live.expired ?? false, derivedFrom: [] },
  },
  validate(args) {
    const problems = exactlyOneOwner(args);
    if (args.expiresAt !== undefined && Date.parse(args.expiresAt) <= clientClock().now()) problems.push({ property: "expiresAt", reason: "must be in the future" });
    return problems;
  },
  needs: (args) => deployTokenNeeds(args),

  async create(ctx, args) {
    const made = await createToken(ctx, args);
    return { id: deployTokenIdOf(ownerKindOf(args), ownerRefOf(args), made.id), live: made };
  },

  async read(ctx, id, recorded) {
    const { path } = parsedId("DeployToken", deployTokenIdForm, id);
    const live = await deployTokenRequests.get(ctx.client, path);
    // A revoked deploy token is gone for good.
    return live.revoked ? undefined : { ...live, token: (recorded as Args).token as string | undefined };
  },

  async delete(ctx, id) {
    await ctx.client.delete(parsedId("DeployToken", deployTokenIdForm, id).path);
  },
});

export type DeployTokenArgs = ResourceArgs<typeof schema>;

/**
 * A deploy token of a project or a group. `token` is a secret output, and `tokenUsername` the username to use it with.
 *
 * ```ts
 * const pull = new DeployToken("registry-pull", { group: "acme", name: "registry-pull", scopes: ["read_registry"], expiresAt: "2027-06-30" });
 * ```
 */
export interface DeployToken extends ResourceOutputs<typeof deployTokenDefinition> {}
export class DeployToken extends PlatformResource {
  static {
    ofKind(this, deployTokenDefinition);
  }
  constructor(name: string, args: DeployTokenArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
