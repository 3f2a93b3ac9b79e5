/**
 * DeployKey: an SSH public key enabled on a project, read-only or with push.
 *
 * The key is validated at preview. A key that already exists on another
 * project the token's user maintains is enabled on this one (the server
 * answers with that key: one key, enabled on both); delete disables it on
 * this project only, and the server deletes a key enabled nowhere.
 * `title` and `canPush` change in place; another key or `expiresAt` is a new
 * key (the API cannot change them).
 *
 * The resource id is `projects/<project>/deploy_keys/<key id>`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { deployKeyIdForm, deployKeyIdOf, deployKeyNeeds, deployKeyRequests, deployKeysPath, sshPublicKey, type DeployKey as DeployKeyLive } from "../api/deploy-keys";
import { field } from "../api/fields";
import { parsedId } from "../api/id-form";
import { ownerReference } from "../api/owner";
import { clientClock } from "../client";
import { defineObjectResource } from "../engine/definition";
import { idPair, wholeNumber, type TerraformTarget } from "../engine/estate";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { ownerInput } from "./common";

/** The key's type and base64 part: a comment the server keeps or drops is no change. */
const keyBody = (value: unknown) => (typeof value === "string" ? value.trim().split(/\s+/).slice(0, 2).join(" ") : value);
const sameInstant = (declared: unknown, live: unknown) => typeof declared === "string" && typeof live === "string" && Date.parse(declared) === Date.parse(live);

const schema = z.object({
  /** The project (id or full path). */
  project: ownerInput(ownerReference),
  /** The key's title. */
  title: z.string().min(1, { message: "must not be empty" }).max(255, { message: "must be at most 255 characters" }),
  /** The SSH public key (`ssh-ed25519 AAAA... comment`). Another key is a new deploy key. */
  key: field(sshPublicKey, { replaceOnChange: true, sameValue: (declared, live) => keyBody(declared) === keyBody(live) }),
  /** Whether the key may push to the project (default false). */
  canPush: z.boolean().optional(),
  /** When the key expires (a date or an ISO 8601 time, in the future); none: it does not. */
  expiresAt: field(
    z.string().refine((value) => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), { message: "must be a date (YYYY-MM-DD) or an ISO 8601 time" }).optional(),
    { replaceOnChange: true, sameValue: sameInstant },
  ),
});

function terraformKey(id: string): TerraformTarget | undefined {
  const parts = idPair(id);
  const key = wholeNumber(parts?.[1]);
  return parts && key !== undefined ? { owner: { kind: "project", ref: parts[0] }, key } : undefined;
}

export const deployKeyDefinition = defineObjectResource({
  name: "DeployKey",
  words: {
    noun: "deploy key",
    says: ({ kind }) => (kind === "delete" || kind === "replace" ? "whatever holds the key can no longer pull from or push to the project's repository with it" : undefined),
  },
  imported: {
    word: "deploy-key",
    listed: "deploy keys",
    on: ["project"],
    async find({ ctx, owner }) {
      const keys = await deployKeyRequests.list(ctx.client, deployKeysPath(owner.id));
      return { found: keys.map((key) => ({ importId: deployKeyIdOf(owner.id, key.id), name: key.title, live: key, address: { project: owner.id } })) };
    },
    async findOne({ owner, read }, key) {
      const importId = deployKeyIdOf(owner.id, Number(key));
      const live = await read(importId, { project: owner.id });
      return live ? { found: [{ importId, name: String(live.title), live, address: { project: owner.id } }] } : { found: [], skipped: [{ what: `deploy key ${key}`, why: "not enabled on the project" }] };
    },
  },
  terraform: [{ type: "gitlab_deploy_key", target: terraformKey }],
  idForm: deployKeyIdForm,
  notFoundSubject: "",
  schema,
  outputs: {
    /** The key's id on the server (the same on every project it is enabled on). */
    keyId: { value: (live: DeployKeyLive) => live.id, fromId: (id) => parsedId("DeployKey", deployKeyIdForm, id).keyId, derivedFrom: [] },
    /** The key's SHA256 fingerprint (`SHA256:...`). */
    fingerprintSha256: { value: (live: DeployKeyLive) => live.fingerprint_sha256 ?? null, derivedFrom: ["key"] },
    /** When the key was added. */
    createdAt: { value: (live: DeployKeyLive) => live.created_at ?? null, derivedFrom: [] },
  },
  validate(args) {
    if (args.expiresAt !== undefined && Date.parse(args.expiresAt) <= clientClock().now()) return [{ property: "expiresAt", reason: "must be in the future" }];
    return [];
  },
  needs: (args) => deployKeyNeeds(args),

  async create(ctx, args) {
    const path = deployKeysPath(args.project);
    // Posting a key the project has answers with it; so a POST whose answer was lost is found by its key.
    const sameKey = async () => (await deployKeyRequests.list(ctx.client, path)).find((key) => keyBody(key.key) === keyBody(args.key));
    const body = { title: args.title, key: args.key, can_push: args.canPush, expires_at: args.expiresAt };
    const live = await deployKeyRequests.post(ctx.client, path, body, sameKey);
    const id = deployKeyIdOf(args.project, live.id);
    // An existing key enabled here keeps its title and push access elsewhere; here it gets the declared ones.
    const stale = live.title !== args.title || (live.can_push ?? false) !== (args.canPush ?? false);
    return { id, live: stale ? await deployKeyRequests.put(ctx.client, `/${id}`, { title: args.title, can_push: args.canPush ?? false }) : live };
  },

  async read(ctx, id) {
    return deployKeyRequests.get(ctx.client, parsedId("DeployKey", deployKeyIdForm, id).path);
  },

  async update(ctx, id, args, changed) {
    return deployKeyRequests.put(ctx.client, parsedId("DeployKey", deployKeyIdForm, id).path, requestBody(this.fields, args, changed));
  },

  async delete(ctx, id) {
    await ctx.client.delete(parsedId("DeployKey", deployKeyIdForm, id).path);
  },
});

export type DeployKeyArgs = ResourceArgs<typeof schema>;

/**
 * An SSH deploy key of a project. The same key declared on a second project is enabled there (one key).
 *
 * ```ts
 * new DeployKey("ci", { project: "acme/web", title: "ci", key: config.require("ciPublicKey"), canPush: false });
 * ```
 */
export interface DeployKey extends ResourceOutputs<typeof deployKeyDefinition> {}
export class DeployKey extends PlatformResource {
  static {
    ofKind(this, deployKeyDefinition);
  }
  constructor(name: string, args: DeployKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
