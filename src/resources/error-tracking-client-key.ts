/**
 * ErrorTrackingClientKey: a client key (DSN) of a project's error tracking.
 * Keys cannot be changed, only created
 * and deleted: a new key comes from a change of `project` or `rotation`.
 *
 * Rotation follows the API documentation's sequence, so a project is never without a key:
 * the replacement key is created first, then confirmed in the project's key
 * list, and only then does Pulumi delete the old key (create-before-delete).
 * A key the list does not show is recorded as a failed create, which stops the
 * replacement before the old key goes.
 *
 * The payloads are not in the API documentation; real servers (GitLab's
 * `doc/api/error_tracking.md`, `API::Entities::ErrorTracking::ClientKey`)
 * answer `{ id, active, public_key, sentry_dsn }`, and the POST takes the
 * project's numeric id only, so a full path is resolved first.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ownerInput } from "./common";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { PartialCreateError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { clientKeyRequests, clientKeyId, clientKeysPath, type ClientKey as ClientKeyLive, clientKeyIdForm } from "../api/error-tracking";
import { ownerReference } from "../api/owner";
import { numericProjectId } from "../api/projects";
import { clientKeyNeeds } from "../api/error-tracking";
import { parsedId } from "../api/id-form";

const schema = z.object({
  /** The project (numeric id or full path). */
  project: ownerInput(ownerReference),
  /**
   * Any value; changing it rotates the key: a new key is created and
   * confirmed, then the old one is deleted. A date (`"2026-11"`) records when.
   */
  rotation: ownerInput(z.string().min(1).optional()),
});

type ClientKeyInputs = z.output<typeof schema>;

/** The resource id: `projects/<project id>/error_tracking/client_keys/<key id>`. */
function parseId(id: string): { keysPath: string; keyId: number } {
  return parsedId("ErrorTrackingClientKey", clientKeyIdForm, id);
}

const listKeys = (ctx: EngineContext, keysPath: string) => clientKeyRequests.list(ctx.client, keysPath);

/** There is no GET of one key: the list is searched, reading no more pages than needed. */
function readKey(ctx: EngineContext, id: string): Promise<ClientKeyLive | undefined> {
  const { keysPath, keyId } = parseId(id);
  return clientKeyRequests.find(ctx.client, keysPath, undefined, (key) => key.id === keyId);
}

export const errorTrackingClientKeyDefinition = defineObjectResource({
  name: "ErrorTrackingClientKey",
  words: { noun: "error tracking client key" },
  imported: {
    word: "error-tracking",
    listed: "error tracking client keys",
    on: ["project"],
    async find({ ctx, owner }) {
      const keys = await clientKeyRequests.list(ctx.client, clientKeysPath(owner.id));
      return { found: keys.sort((a, b) => a.id - b.id).map((key) => ({ importId: clientKeyId(owner.id, key.id), name: `key-${key.id}`, live: key, address: { project: owner.id } })) };
    },
  },
  idForm: clientKeyIdForm,
  notFoundSubject: "",
  lookupOnlyWhileCreating: true,
  schema,
  outputs: {
    /** The key's id on the server. */
    keyId: { value: (live: ClientKeyLive) => live.id, fromId: (id) => Number(id.split("/").at(-1)) },
    active: (live: ClientKeyLive) => live.active ?? false,
    /** Part of the DSN, so as secret as the DSN itself. */
    publicKey: { value: (live: ClientKeyLive) => live.public_key, secret: true },
    /** The DSN an error-reporting SDK is configured with. Secret. */
    dsn: { value: (live: ClientKeyLive) => live.sentry_dsn, secret: true },
  },
  needs: clientKeyNeeds,

  async create(ctx, args: ClientKeyInputs) {
    // The POST takes the numeric project id only: a full path costs one GET.
    const projectId = await numericProjectId(ctx.client, args.project);
    const keysPath = clientKeysPath(projectId);
    // The keys that exist before: a POST whose answer is lost is then found (a key not among them), never made twice.
    const before = new Set((await listKeys(ctx, keysPath)).map((key) => key.id));
    const created = await clientKeyRequests.post(ctx.client, keysPath, {}, async () => {
      const added = (await listKeys(ctx, keysPath)).filter((key) => !before.has(key.id));
      return added.length === 1 ? added[0] : undefined;
    });
    const id = clientKeyId(projectId, created.id);
    // Key rotation: the new key is confirmed in the list before anything relies on it.
    const confirmed = (await listKeys(ctx, keysPath)).find((key) => key.id === created.id);
    if (!confirmed) {
      throw PartialCreateError.fromLive(
        `ErrorTrackingClientKey: the server created key ${created.id} on project ${args.project} but does not list it; the old key (if this is a rotation) is kept. ` +
          "Run `pulumi up` again once the key shows in the project's list.",
        id,
        created,
      );
    }
    return { id, live: confirmed };
  },

  read: readKey,

  async update(ctx, id) {
    // Every input replaces the key: nothing is ever updated in place.
    const live = await readKey(ctx, id);
    if (!live) throw new Error(`ErrorTrackingClientKey ${id} no longer exists; run \`pulumi refresh\`.`);
    return live;
  },

  async delete(ctx, id) {
    const { keysPath, keyId } = parseId(id);
    await ctx.client.delete(`${keysPath}/${keyId}`);
  },
});

export type ErrorTrackingClientKeyArgs = ResourceArgs<typeof schema>;

/**
 * A client key (DSN) for a project's error tracking. `dsn` is a secret output.
 * Change `rotation` to rotate the key without a moment without one.
 *
 * ```ts
 * const key = new ErrorTrackingClientKey("web-errors", { project: "acme/web", rotation: "2026-11" });
 * export const dsn = key.dsn; // secret
 * ```
 */
export interface ErrorTrackingClientKey extends ResourceOutputs<typeof errorTrackingClientKeyDefinition> {}
export class ErrorTrackingClientKey extends PlatformResource {
  static {
    ofKind(this, errorTrackingClientKeyDefinition);
  }
  constructor(name: string, args: ErrorTrackingClientKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
