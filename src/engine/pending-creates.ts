/**
 * Whether a create the state records as pending (its `pulumi up` was killed
 * while it ran) made its object, told by the resource's own lookup: the one
 * its create runs when a POST's answer is lost (`findCreated`), which finds
 * only an object matching the declared values.
 *
 * The create runs as it would, against a client that sends no write: each
 * POST is replaced by its lookup (found: the object, as if the POST had
 * answered; not found: nothing was made), and any other write, or a POST
 * with no lookup, means the answer cannot be told. A create that goes on
 * after its object exists (a second request) stops there with the object's
 * id, as a create cut short does (`PartialCreateError`): the next `up` then
 * finishes it as an update.
 */
import type { PlatformClient, RequestOptions } from "../client";
import type { Connection } from "../connection";
import { client, withConnection } from "./process-connections";
import type { AnyResourceDefinition } from "./definition";
import { declaredSchema } from "./declared-schema";
import { PartialCreateError } from "./errors";
import { envelopeOf, withoutEngineKeys } from "./envelope";

type Args = Record<string, unknown>;

/** What a pending create left on the server. */
export type PendingCreateFinding =
  | { made: true; id: string }
  | { made: false }
  /** Why it cannot be told: the create writes something that has no lookup. */
  | { made: "unknown"; reason: string };

class NothingMade extends Error {}
class NoLookup extends Error {}

/** The object a pending create with these inputs (as the state records them, secrets in plain text) made, if any. */
export async function lookUpPendingCreate(definition: AnyResourceDefinition, recordedInputs: Args): Promise<PendingCreateFinding> {
  const { importId } = envelopeOf(recordedInputs);
  // An `import` takes over an object that was there before the create: it is there still.
  if (importId !== undefined) return { made: true, id: importId };
  if (definition.kind === "settings") {
    return { made: "unknown", reason: `${definition.name} changes settings of an object that exists; whether the cut create applied them cannot be told from the server` };
  }
  if (definition.lookupOnlyWhileCreating) {
    return { made: "unknown", reason: `${definition.name}'s create finds what it made only among the objects that existed before it` };
  }
  const { connection, ...declared } = withoutEngineKeys(recordedInputs);
  const args = declaredSchema(definition.schema, "strip").for(declared).parse(declared) as Args;
  return withConnection(connection as Partial<Connection> | undefined, async () => {
    const ctx = { client: lookupOnly(client()) };
    try {
      if (args.adoptExisting === true && definition.adopt) {
        const adopted = await definition.adopt(ctx, args as never);
        if (adopted) return { made: true, id: adopted.id };
      }
      return { made: true, id: (await definition.create(ctx, args as never)).id };
    } catch (error) {
      if (error instanceof PartialCreateError) return { made: true, id: error.id };
      if (error instanceof NothingMade) return { made: false };
      return { made: "unknown", reason: error instanceof NoLookup ? error.message : `the lookup failed: ${(error as Error).message}` };
    }
  });
}

/** The client as the lookup uses it: reads pass, a POST is its `findCreated` lookup, any other write is refused. */
function lookupOnly(real: PlatformClient): PlatformClient {
  const request = async (method: string, path: string, options: RequestOptions<unknown> = {}) => {
    if (method === "GET" || method === "HEAD") return real.request(method, path, options);
    if (method !== "POST" || !options.findCreated) throw new NoLookup(`its create sends ${method} ${path}, which has no lookup`);
    const found = await options.findCreated();
    if (found === undefined) throw new NothingMade();
    return { status: 201, headers: {}, body: found };
  };
  // The client's own methods (post, put, delete, list...) call `this.request`: the proxy's.
  return new Proxy(real, { get: (target, name, receiver) => (name === "request" ? request : Reflect.get(target, name, receiver)) });
}
