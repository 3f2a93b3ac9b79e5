/**
 * A resource's own connection: the `connection` argument every resource takes
 * (see `Connection` in ../connection.ts), for a program that manages objects
 * on more than one server.
 *
 * A dynamic resource cannot have a provider of its own (the `provider`
 * resource option is for provider plugins), so the connection travels in the
 * inputs, and so in the state: refresh and destroy, which run without the
 * program, find it there. The provider below wraps the engine's: it takes
 * `connection` out of the inputs and the state, runs every operation with it
 * in force (`withConnection`: the client, the checks at preview and the
 * masking of messages all use it), and records it in the outputs again.
 *
 * - Secret: the resource class wraps the token, the client key and the
 *   headers with `pulumi.secret` and lists `connection` among the secret
 *   outputs (`secretConnection`, `CONNECTION_PROPERTY`).
 * - A change of URL is another server's object: the resource is replaced.
 *   Any other change (a rotated token, a new CA) is made in place: the update
 *   runs with the new connection, and the new one is recorded. Since the token
 *   is a secret, its change shows as `~ connection` with the values masked.
 * - No connection: the stack's (`platform:url`, `platform:token`). Moving
 *   between the two keeps the resource when the URL is the same.
 */
import * as pulumi from "@pulumi/pulumi";
import equal from "fast-deep-equal";
import { SECRET_SETTINGS, type Connection } from "../connection";
import { connectionUrl, withConnection } from "./process-connections";
import { isUnknown } from "./values";

type Args = Record<string, unknown>;
type Provider = Required<pulumi.dynamic.ResourceProvider>;

/** The property that holds a resource's own connection. */
export const CONNECTION_PROPERTY = "connection";

/** A connection whose settings may be Pulumi inputs (a token from `config.requireSecret`). */
export type ConnectionInput = { [K in keyof Connection]: pulumi.Input<Connection[K]> };

/** The argument every resource class takes besides its own. */
export interface ConnectionArg {
  /**
   * The server this object lives on, when it is not the stack's
   * (`platform:url`, `platform:token`): `{ url, token }` and optionally the
   * TLS settings and headers. A change of `url` replaces the resource; a
   * change of anything else (a rotated token) updates it in place.
   */
  connection?: pulumi.Input<ConnectionInput>;
}

/**
 * The `connection` argument as the resource registers it: its secret
 * settings wrapped with `pulumi.secret` (the engine keeps secrecy per field of
 * an object, so the URL stays readable in previews). A connection that is
 * itself an Output is secret as a whole.
 */
export function secretConnection(connection: pulumi.Input<ConnectionInput>): pulumi.Input<ConnectionInput> {
  if (pulumi.Output.isInstance(connection) || connection === null || typeof connection !== "object") return pulumi.secret(connection);
  const wrapped: Record<string, unknown> = { ...connection };
  for (const name of SECRET_SETTINGS) if (wrapped[name] !== undefined) wrapped[name] = pulumi.secret(wrapped[name] as pulumi.Input<unknown>);
  return wrapped as ConnectionInput;
}

/** The connection recorded in (or declared by) a set of properties, and the properties without it. */
function split(values: Args | undefined): { connection: Partial<Connection> | undefined; rest: Args } {
  // Most resources use the stack's connection: their properties pass as they are, not copied.
  if (values === undefined || !Object.hasOwn(values, CONNECTION_PROPERTY)) return { connection: undefined, rest: values ?? {} };
  const { [CONNECTION_PROPERTY]: connection, ...rest } = values;
  return { connection: connection === undefined || connection === null ? undefined : (connection as Partial<Connection>), rest };
}

/** A connection not known yet at preview (built from another resource's output): nothing can be checked or read with it. */
function isPending(connection: Partial<Connection> | undefined): boolean {
  return connection !== undefined && (isUnknown(connection) || Object.values(connection).some(isUnknown));
}

/** The properties with the connection recorded (when there is one). */
function recorded(values: Args | undefined, connection: Partial<Connection> | undefined): Args | undefined {
  return values && connection !== undefined ? { ...values, [CONNECTION_PROPERTY]: connection } : values;
}

/** The engine's provider for one resource kind, with each resource's own connection in force for its operations. */
export function withResourceConnections(provider: Provider): Provider {
  async function createWith(connection: Partial<Connection>, rest: Args) {
    try {
      const result = await withConnection(connection, () => provider.create(rest));
      return { ...result, outs: recorded(result.outs ?? {}, connection) };
    } catch (error) {
      // A partial create is recorded with its connection, so the next `up` or `destroy` reaches the same server.
      const partial = error as { properties?: Args };
      if (partial && typeof partial === "object" && partial.properties) partial.properties = recorded(partial.properties, connection);
      throw error;
    }
  }

  async function readWith(connection: Partial<Connection>, id: string, rest: Args) {
    const result = await withConnection(connection, () => provider.read(id, rest));
    if (!result.id) return result;
    return { ...result, props: recorded(result.props, connection), inputs: recorded(result.inputs, connection) };
  }

  async function updateWith(connection: Partial<Connection>, id: string, olds: Args, rest: Args) {
    const result = await withConnection(connection, () => provider.update(id, olds, rest));
    return { ...result, outs: recorded(result.outs ?? {}, connection) };
  }

  return {
    configure: (request) => provider.configure(request),

    async check(olds, news) {
      const declared = split(news);
      // Unknown until the resources it comes from exist: the rest is checked, the connection at `up`.
      if (isPending(declared.connection)) return { inputs: news };
      const result = await withConnection(declared.connection, () => provider.check(split(olds).rest, declared.rest));
      return result.failures?.length ? { ...result, inputs: news } : { ...result, inputs: recorded(result.inputs, declared.connection) };
    },

    async diff(id, olds, news) {
      const before = split(olds);
      const after = split(news);
      const result = await provider.diff(id, before.rest, after.rest);
      const change = connectionChange(before.connection, after.connection);
      if (change === "none") return result;
      const replaces = change === "server" ? [...(result.replaces ?? []), CONNECTION_PROPERTY] : (result.replaces ?? []);
      // The token is secret: a changed token looks the same masked, so "changes unknown" lets the engine compare the real values and name it.
      const changes = change === "server" || result.changes === true ? true : undefined;
      return { ...result, changes, replaces };
    },

    // Most resources use the stack's connection: then the engine's operation and its answer pass as they are,
    // with no layer of their own around them (these four run for every resource of a stack).
    create(inputs) {
      const { connection, rest } = split(inputs);
      return connection === undefined ? provider.create(rest) : createWith(connection, rest);
    },

    read(id, props) {
      const { connection, rest } = split(props);
      return connection === undefined ? provider.read(id, rest) : readWith(connection, id, rest);
    },

    update(id, olds, news) {
      const { connection, rest } = split(news);
      return connection === undefined ? provider.update(id, split(olds).rest, rest) : updateWith(connection, id, split(olds).rest, rest);
    },

    delete(id, props) {
      const { connection, rest } = split(props);
      return withConnection(connection, () => provider.delete(id, rest));
    },
  };
}

/**
 * What changed between the recorded and the declared connection: nothing, the
 * server (another URL: another server's object), or only how it is reached
 * (the token, TLS, headers, timeouts). No connection means the stack's URL.
 */
function connectionChange(before: Partial<Connection> | undefined, after: Partial<Connection> | undefined): "none" | "server" | "access" {
  if (isPending(after)) return isUnknown(after) || isUnknown(after!.url) ? "server" : "access";
  const urlBefore = connectionUrl(before);
  const urlAfter = connectionUrl(after);
  if (urlBefore !== undefined && urlAfter !== undefined && urlBefore !== urlAfter) return "server";
  return equal(before ?? null, after ?? null) ? "none" : "access";
}
