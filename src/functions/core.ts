/**
 * The data-function layer: every lookup (`getX` / `getXOutput`) is one small
 * declaration, and this module does the rest once, for all of them, over the
 * core every call shares (../calls/core.ts: arguments, checked and camelCased
 * answers, explained failures):
 *
 * - the connection: the program's stack config (`platform:url`,
 *   `platform:token`, the timeouts), else the environment variables, through
 *   the same client the resources use (retries, pacing, explained errors);
 * - lists: every page (100 items a request, keyset where the API offers it),
 *   or the first `limit` items with no more requests than they need;
 * - the Output form: arguments may be Pulumi inputs, the lookup waits for
 *   `dependsOn`, and a result holding a secret (a DSN) is a secret.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Query } from "../client";
import type { Connection } from "../connection";
import { withConnection } from "../engine/process-connections";
import type { ConnectionInput } from "../engine/connections";
import { camelCase, traitsOf } from "../api/fields";
import { clientFor, explained, parseArgs, readerFor, type AnyDeclaration, type CallDeclaration, type Camelized, type Reader } from "../calls/core";

export { camelCase, groupNeeds, projectNeeds } from "../calls/core";
export type { CallDeclaration, Camelized, Reader, SavedFile } from "../calls/core";

// ---------------------------------------------------------------------------
// Declarations

interface CommonDeclaration<A extends z.ZodObject> extends CallDeclaration<A> {
  /**
   * Result keys (camelCase, any depth) that hold secrets: the Output form is
   * then secret. The fields of the result's (or item's) shape declared with the
   * `secret` trait (../api/fields.ts) are added.
   */
  secrets?: readonly string[];
  /** API fields whose keys are data, kept as they are. */
  opaque?: readonly string[];
}

/** A lookup that is one request (or one list) at one address. */
interface AddressedDeclaration<A extends z.ZodObject> extends CommonDeclaration<A> {
  /** The API path (encoded with `apiPath`). */
  path(args: z.output<A>): string;
  /** Query parameters in the API's names. */
  query?(args: z.output<A>): Query;
}

export interface ObjectDeclaration<A extends z.ZodObject, R extends z.ZodType> extends AddressedDeclaration<A> {
  /** The API object's shape (snake_case, as the API sends it). */
  result: R;
}

export interface ListDeclaration<A extends z.ZodObject, R extends z.ZodType> extends AddressedDeclaration<A> {
  /** The shape of one item (snake_case). */
  item: R;
}

/** A lookup whose answer is text (a raw diff), given as it is. */
export type TextDeclaration<A extends z.ZodObject> = AddressedDeclaration<A>;

/** A lookup that reads more than one address (an object and a list of its own): `run` composes the reads. */
export interface ComposedDeclaration<A extends z.ZodObject, Out> extends CommonDeclaration<A> {
  run(read: Reader, args: z.output<A>): Promise<Out>;
}

/** The arguments of the Output form: each may be a Pulumi input. */
export type InputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Options of the Output form. */
export interface FunctionOutputOptions {
  /** Look up only once these resources exist (created or updated): `dependsOn: [key]`. */
  dependsOn?: pulumi.Resource | pulumi.Resource[];
  /** Another server than the stack's, as resources take it (../engine/connections.ts); its secrecy does not make the result secret. */
  connection?: pulumi.Input<ConnectionInput>;
}

/** Options of the Promise form. */
export interface FunctionOptions {
  /** Another server than the stack's (`platform:url`, `platform:token`): `{ url, token, ... }`. */
  connection?: Connection;
}

/**
 * What the Output form gives: a `pulumi.Output<T>` whose declared fields are
 * lifted with their types (`getBadgeOutput(...).renderedLinkUrl` is an
 * `Output<string>`), through nested objects and array items.
 *
 * Results are loose objects (the API may add fields), so their types have an
 * index signature, and Pulumi's own lifting (`pulumi.Lifted`) then types every
 * field `Output<unknown>`. Here the index signature stays `Output<unknown>`
 * (a field the API adds is read with `.apply`, or lifted untyped, as before),
 * so a `DataOutput<T>` is still a `pulumi.Output<T>`.
 *
 * Pulumi's lifting at run time reads a field of a null or undefined value as
 * undefined; so does this type: `schedule.owner.username` is an
 * `Output<string | undefined>` when `owner` may be null.
 */
export type DataOutput<T> = pulumi.OutputInstance<T> & LiftedFields<NonNullable<T>, Extract<T, null | undefined> extends never ? never : undefined>;

/** The lifted fields of a value; `Absent` is `undefined` when the value holding them may be absent. */
type LiftedFields<T, Absent> = T extends string
  ? pulumi.Lifted<string>
  : T extends readonly (infer Item)[]
    ? { readonly length: pulumi.Output<number | Absent>; readonly [index: number]: LiftedField<Item | Absent> }
    : T extends object
      ? { [K in keyof T]-?: string extends K ? pulumi.Output<unknown> : number extends K ? pulumi.Output<unknown> : LiftedField<T[K] | Absent> }
      : unknown;

/** One lifted field: an object or array lifts further; anything else is Pulumi's `Output` of it. */
type LiftedField<T> = 0 extends 1 & T ? pulumi.Output<T> : [NonNullable<T>] extends [object] ? DataOutput<T> : pulumi.Output<T>;

/** A declared lookup: the Promise form and the Output form. */
export interface DataFunction<In, Out> {
  (args: In, opts?: FunctionOptions): Promise<Out>;
  output(args: InputArgs<In>, opts?: FunctionOutputOptions): DataOutput<Out>;
}

/** Every list function takes `limit`: at most this many items, and only the requests they need. */
const limit = z.number().int().positive();

/** A lookup of one object. */
export function defineObjectFunction<A extends z.ZodObject, R extends z.ZodType>(
  declaration: ObjectDeclaration<A, R>,
): DataFunction<z.input<A>, Camelized<z.output<R>>> {
  return dataFunction(withSecretFields(declaration, declaration.result), declaration.args, (read, args: z.output<A>) => read.object(declaration.path(args), declaration.query?.(args), declaration.result));
}

/** A lookup of a list: every page, or the first `limit` items. */
export function defineListFunction<A extends z.ZodObject, R extends z.ZodType>(
  declaration: ListDeclaration<A, R>,
): DataFunction<z.input<A> & { limit?: number }, Camelized<z.output<R>>[]> {
  const schema = declaration.args.extend({ limit: limit.optional() });
  return dataFunction(withSecretFields(declaration, declaration.item), schema, (read, args: z.output<A> & { limit?: number }) =>
    read.list(declaration.path(args), declaration.query?.(args), declaration.item, args.limit),
  );
}

/** A lookup of text, given as the server sent it. */
export function defineTextFunction<A extends z.ZodObject>(declaration: TextDeclaration<A>): DataFunction<z.input<A>, string> {
  return dataFunction(declaration, declaration.args, (read, args: z.output<A>) => read.text(declaration.path(args), declaration.query?.(args)));
}

/** A lookup made of several reads (see `Reader`). */
export function defineComposedFunction<A extends z.ZodObject, Out>(declaration: ComposedDeclaration<A, Out>): DataFunction<z.input<A>, Out> {
  return dataFunction(declaration, declaration.args, (read, args: z.output<A>) => declaration.run(read, args));
}

/** The declaration with the secret fields of `shape` (its traits) among its `secrets`, camelCased. */
function withSecretFields<D extends { secrets?: readonly string[] }>(declaration: D, shape: z.ZodType): D {
  const fields = shape instanceof z.ZodObject ? Object.entries(shape.shape as Record<string, z.ZodType>) : [];
  const secret = fields.filter(([, type]) => traitsOf(type)?.secret).map(([name]) => camelCase(name));
  return secret.length ? { ...declaration, secrets: [...(declaration.secrets ?? []), ...secret] } : declaration;
}

// ---------------------------------------------------------------------------
// The two forms

function dataFunction<In, Out>(
  declaration: AnyDeclaration,
  schema: z.ZodObject,
  run: (read: Reader, args: never) => Promise<Out>,
): DataFunction<In, Out> {
  const strict = schema.strict();
  const lookup = async (args: In): Promise<Out> => {
    const parsed = parseArgs(declaration, strict, args);
    const api = clientFor(declaration);
    try {
      return await run(readerFor(api, declaration, parsed), parsed as never);
    } catch (error) {
      throw explained(declaration, parsed, error);
    }
  };
  // The client, the check of the settings and the masking of messages all use the connection given.
  const get = (args: In, opts?: FunctionOptions): Promise<Out> => withConnection(opts?.connection, () => lookup(args));
  const output = (args: InputArgs<In>, opts?: FunctionOutputOptions): DataOutput<Out> => {
    const ready = [...[opts?.dependsOn ?? []].flat()].map(readiness);
    // The token is secret; the result is secret only when it holds a secret of its own.
    const connection = opts?.connection === undefined ? undefined : pulumi.unsecret(pulumi.output(opts.connection));
    return pulumi.all([pulumi.output(args), connection, ...ready]).apply(async ([resolved, given]) => {
      const result = await get(resolved as In, { connection: given as Connection | undefined });
      return (holdsSecret(result, declaration.secrets ?? []) ? pulumi.secret(result) : result) as Out;
    }) as DataOutput<Out>;
  };
  return Object.assign(get, { output });
}

/** A resource is ready once its id (custom resources) or its URN is known. */
function readiness(resource: pulumi.Resource): pulumi.Output<unknown> {
  return pulumi.CustomResource.isInstance(resource) ? (resource as pulumi.CustomResource).id : resource.urn;
}

function holdsSecret(value: unknown, keys: readonly string[]): boolean {
  if (keys.length === 0 || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((item) => holdsSecret(item, keys));
  return Object.entries(value).some(([key, inner]) => (keys.includes(key) && inner !== null && inner !== undefined && inner !== "") || holdsSecret(inner, keys));
}

