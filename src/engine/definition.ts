/**
 * How a resource is declared. A resource module states its input schema, the
 * traits of each field and the few requests that create, read, update and
 * delete it; the generic engine (./provider.ts) turns that into the dynamic
 * provider's check / diff / create / read / update / delete.
 */
import type { z } from "zod";
import type { PlatformClient } from "../client";
import type { Needs } from "./needs";

/** Traits of one input property, declared beside it once. */
export interface FieldTraits {
  /** The API's field name; defaults to the snake_case form of the property name. */
  api?: string;
  /** A change needs a new object: the API cannot update this field in place. */
  replaceOnChange?: boolean;
  /** Secret in state: the resource class lists it in `additionalSecretOutputs`. */
  secret?: boolean;
  /**
   * The property is visible but may hold secret values (a schedule
   * variable's value, not its key; secret where the program gave it so):
   * returns those values, all of which are masked in messages.
   * A change of such a property is named in the preview like a secret's (see
   * `diffInputs` in ./provider.ts); its output is secret as a whole.
   */
  secretValues?: (value: unknown) => string[];
  /**
   * Run in the program by the resource class: wraps the secret parts of the
   * declared value with `pulumi.secret`. The engine keeps secrecy per field of
   * an object but not per item of a list (a list holding a secret becomes one
   * secret), so the secret parts must sit in objects to stay apart.
   */
  markSecrets?: (declared: unknown) => unknown;
  /**
   * The input a refresh records for this property when it is not simply the
   * refreshed output (`recorded`: the state before the refresh). The engine
   * marks refreshed inputs secret only where the recorded inputs had a secret
   * at the same place, so a secret value found on the server where the program
   * declared none must be left out of the inputs.
   */
  refreshedInput?: (output: unknown, recorded: Record<string, unknown>) => unknown;
  /** Never returned by the server: the last applied value is kept in state and compared with the program. */
  writeOnly?: boolean;
  /** Part of the address (the owner) or an option of the provider, not a field of the API object. */
  local?: boolean;
  /** Never a change: options that only steer how the provider works (adoption). */
  ignoreInDiff?: boolean;
  /**
   * The value that clears the field on the server (a merge request's
   * assignees: `[]`). Without it, a property the program stops declaring is
   * left as it is on the server; with it, removing the property is a change,
   * and the update sends this value (`requestBody` with the changed names).
   */
  unsetAs?: unknown;
  /**
   * The server defaults or normalises this value (short ref to full ref, ...):
   * true when the live value is what the declared value becomes on the server.
   */
  sameValue?: (declared: unknown, live: unknown) => boolean;
  /** Reads the live value from the API object when it is not simply `live[api]`. */
  fromApi?: (live: Record<string, unknown>) => unknown;
  /** Writes the value into a request body when it is not simply `body[api] = value`. */
  toApi?: (value: unknown, body: Record<string, unknown>) => void;
  /**
   * The declared value names local content (a file path): a change of that
   * content is a change of the property even when the value itself is the
   * same. The engine keeps each fingerprint in the `fingerprints` output and
   * adds it to the checked inputs, so a preview shows which content changed.
   */
  fingerprint?: (declared: unknown) => string;
  /**
   * Settings resources (./settings.ts): the prior value is not part of the
   * object the API returns and must be fetched apart (a file served at its own
   * address, such as an avatar). Called once, when the field is first managed,
   * with the object as just read, so it can skip the request when there is
   * nothing to fetch; the result is kept in state as the prior value
   * (`restoreValues`) and handed to `update` when it is given back.
   */
  fetchPrior?: (ctx: EngineContext, located: Located) => Promise<unknown>;
  /**
   * Never declared by the program: what the server would make of the inputs
   * now, read at check (reads only) and added to the checked inputs, so that
   * a preview shows it (a registry cleanup rule's `wouldDelete`).
   */
  observed?: ObservedTrait;
}

/** How an observed property is read, and when its value is work for an update. */
export interface ObservedTrait {
  read(ctx: EngineContext, args: Record<string, unknown>): Promise<unknown>;
  /**
   * Whether the value read calls for a run, given the recorded state (what an
   * earlier run already asked the server for is not pending). A value that
   * calls for none is no change, whatever the recorded value.
   */
  pending(value: unknown, recorded: Record<string, unknown>): boolean;
  /**
   * The value recorded in the inputs when the run applies (`pulumi up`): what
   * the property will be once the update acted on the value read (a cleanup's
   * `wouldDelete`: nothing), so the next preview compares with that. The value
   * read still goes to diff and the update.
   */
  afterApply?: unknown;
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

/** Traits of one computed output. */
export interface OutputTraits {
  secret?: boolean;
  /**
   * The output is a function of the resource id. The resource class derives it
   * from `id`, which stays known in a preview while the object is updated in
   * place, where every other output becomes unknown (dynamic providers cannot
   * say which outputs are stable). So `registry: registry.registryId` does not
   * make a dependent resource look replaced whenever the registry changes.
   */
  fromId?: (id: string) => unknown;
}

/** What the engine is doing when a request fails. */
export type Operation = "create" | "read" | "update" | "delete";

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
  outputs: Record<string, OutputTraits>;
  /** The computed outputs of a live object. */
  outputsOf(live: L, args: z.output<S>): Record<string, unknown>;
  /**
   * What the server demands for this object and operation (../engine/needs.ts):
   * refused requests are explained with it, and `check` verifies at preview
   * what a create needs (./verify.ts).
   */
  needs?(args: z.output<S>, operation: Operation): Needs;
  /**
   * State written by an earlier release, in today's form: applied to the
   * recorded state before read, diff, update and delete use it, so an old
   * stack refreshes and updates without a spurious change.
   */
  migrate?(recorded: Record<string, unknown>): Record<string, unknown>;
  /** Rules across fields that the schema cannot say; each failure names its property. */
  validate?(args: z.output<S>): { property: string; reason: string }[];
  /**
   * Replace by deleting first, for objects that can exist only once per owner.
   * A function decides per change (olds: the recorded state, news: the checked
   * inputs): true when the replacement could not coexist with the old object.
   */
  deleteBeforeReplace?: boolean | ((olds: Record<string, unknown>, news: z.output<S>) => boolean);

  /**
   * Set for a resource that manages settings of an object that exists without
   * it (a group's settings, the instance's settings): see ./settings.ts. Such a
   * resource has no `create` or `delete`: the engine reads the object, records
   * the prior values of the managed fields, writes the declared ones with
   * `update`, and gives the prior values back on delete.
   */
  settings?: SettingsDefinition<S, L>;

  /** Required unless `settings` is set. */
  create?(ctx: EngineContext, args: z.output<S>): Promise<Located<L>>;
  /** The live object, or undefined when it no longer exists. */
  read(ctx: EngineContext, id: string, args: z.output<S>): Promise<L | undefined>;
  update(ctx: EngineContext, id: string, args: z.output<S>, changed: ReadonlySet<string>, olds: z.output<S>): Promise<L>;
  /** Required unless `settings` is set. */
  delete?(ctx: EngineContext, id: string, args: z.output<S>): Promise<void>;
  /**
   * For a kind whose create takes over what is there by nature (an exclusive
   * set, a member's SAML identity, recording its prior value): the id create
   * will give these inputs, found without writing. The `import` option then
   * checks that it is the id imported, and runs `create`, instead of reading
   * the object by id and updating it.
   */
  importByCreating?(ctx: EngineContext, args: z.output<S>): Promise<string>;
  /** Finds an existing object that this declaration should take over (`adoptExisting`). */
  adopt?(ctx: EngineContext, args: z.output<S>): Promise<Located<L> | undefined>;
  /**
   * What an update will do, in words a reviewer reads (an exclusive set's
   * `deletes`: the objects it removes): inputs `check` adds from the recorded
   * inputs, shown in the preview and never compared, so the next preview is
   * clean. `names` are the inputs it may add, never declared by a program.
   */
  narration?: { names: readonly string[]; of(recorded: Record<string, unknown>, args: z.output<S>): Record<string, unknown> };
  /**
   * Inputs whose diffs the CLI's text leaves out (the `hideDiffs` option)
   * because the narration names the same change in words: an exclusive set's
   * `unexpected`, which `deletes` names.
   */
  hiddenInDiffs?: readonly string[];
}

/** What a settings resource declares besides the usual read and update (see ./settings.ts). */
export interface SettingsDefinition<S extends z.ZodObject = z.ZodObject, L extends Live = Live> {
  /**
   * Finds the object whose settings are managed and reads it: its id and its
   * current values, the one GET of a create. A missing object is an error here
   * (a settings resource never creates it).
   */
  locate(ctx: EngineContext, args: z.output<S>): Promise<Located<L>>;
}

export function defineResource<S extends z.ZodObject, L extends Live>(definition: ResourceDefinition<S, L>): ResourceDefinition<S, L> {
  return definition;
}

/** Any declaration, as the engine and the registry hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResourceDefinition = ResourceDefinition<any, any>;
