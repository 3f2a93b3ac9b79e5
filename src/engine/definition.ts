/**
 * How a resource is declared. A resource module states its input schema, the
 * traits of each field and the few requests that create, read, update and
 * delete it; the generic engine (./provider.ts) turns that into the dynamic
 * provider's check / diff / create / read / update / delete.
 */
import type { z } from "zod";
import type { PlatformClient } from "../client";

/** Traits of one input property, declared beside it once. */
export interface FieldTraits {
  /** The API's field name; defaults to the snake_case form of the property name. */
  api?: string;
  /** A change needs a new object: the API cannot update this field in place. */
  replaceOnChange?: boolean;
  /** Secret in state: the resource class lists it in `additionalSecretOutputs`. */
  secret?: boolean;
  /** Never returned by the server: the last applied value is kept in state and compared with the program. */
  writeOnly?: boolean;
  /** Part of the address (the owner) or an option of the provider, not a field of the API object. */
  local?: boolean;
  /** Never a change: options that only steer how the provider works (adoption). */
  ignoreInDiff?: boolean;
  /**
   * The server defaults or normalises this value (short ref to full ref, ...):
   * true when the live value is what the declared value becomes on the server.
   */
  sameValue?: (declared: unknown, live: unknown) => boolean;
  /** Reads the live value from the API object when it is not simply `live[api]`. */
  fromApi?: (live: Record<string, unknown>) => unknown;
  /** Writes the value into a request body when it is not simply `body[api] = value`. */
  toApi?: (value: unknown, body: Record<string, unknown>) => void;
}

export type Live = Record<string, unknown>;

export interface EngineContext {
  client: PlatformClient;
}

/** The object the API returned, with the id the engine records for it. */
export interface Located<L extends Live = Live> {
  id: string;
  live: L;
}

export interface ResourceDefinition<S extends z.ZodObject = z.ZodObject, L extends Live = Live> {
  /** The class name, also the key in `providers`. */
  name: string;
  /** What the server calls this object in a `404 <Subject> Not Found` message, if it names it. */
  notFoundSubject?: string;
  /** The inputs: types, defaults and the rules `check` enforces. */
  schema: S;
  /** Traits per input property; properties not listed are plain API fields. */
  fields?: { [K in keyof z.output<S>]?: FieldTraits };
  /** Names of the computed outputs, with whether each is secret. */
  outputs: Record<string, { secret?: boolean }>;
  /** The computed outputs of a live object. */
  outputsOf(live: L, args: z.output<S>): Record<string, unknown>;
  /** Rules across fields that the schema cannot say; each failure names its property. */
  validate?(args: z.output<S>): { property: string; reason: string }[];
  /** Replace by deleting first, for objects that can exist only once per owner. */
  deleteBeforeReplace?: boolean;

  create(ctx: EngineContext, args: z.output<S>): Promise<Located<L>>;
  /** The live object, or undefined when it no longer exists. */
  read(ctx: EngineContext, id: string, args: z.output<S>): Promise<L | undefined>;
  update(ctx: EngineContext, id: string, args: z.output<S>, changed: ReadonlySet<string>, olds: z.output<S>): Promise<L>;
  delete(ctx: EngineContext, id: string, args: z.output<S>): Promise<void>;
  /** Finds an existing object that this declaration should take over (`adoptExisting`). */
  adopt?(ctx: EngineContext, args: z.output<S>): Promise<Located<L> | undefined>;
}

export function defineResource<S extends z.ZodObject, L extends Live>(definition: ResourceDefinition<S, L>): ResourceDefinition<S, L> {
  return definition;
}

/** Any declaration, as the engine and the registry hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResourceDefinition = ResourceDefinition<any, any>;
