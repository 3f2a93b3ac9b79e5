/**
 * What a property of an API object is, declared once on its zod type (`field`):
 * its API name, how it is read and written, and the facts about it that the
 * rest is derived from: the tier, the administrator and the top-level group
 * it needs, the offering that has it, whether it is secret or never shown,
 * which other name it is an alias of. From these the engine derives a
 * resource's field table, the preview's input gates (./needs.ts), the
 * alias and top-level rules of `check`, the requirement a dropped setting
 * is reported with, and the secret lists; the docs' tables are checked against them.
 */
import { z } from "zod";
import { tierInWords, type Tier } from "../client";
import type { EngineContext, InputGate } from "./needs";

/** An offering a field exists on when not every one has it. */
export type Offering = "self-managed" | "hosted";

/** Traits of one property, declared on its zod type with `field` (below). */
export interface FieldTraits {
  /** The least licence tier the field needs (the owner's top-level group's, or the instance's): below it the server neither applies nor shows it. */
  tier?: Tier;
  /** Only an administrator may set it (the server answers 403 to others). */
  administrator?: true;
  /** Only top-level groups have it. */
  topLevelOnly?: true;
  /** The one offering that has it. */
  offering?: Offering;
  /**
   * The server applies it whatever the tier, role or level, but shows it only
   * to some: an answer without it is no change, and the value applied stays in state.
   */
  shownToSome?: true;
  /**
   * Another name of `property`: read from (or from its own name, where the
   * server shows both) and written as that one, with its traits; a program sets
   * only one of the two. `deprecated`: an older name; otherwise the name real clients send.
   */
  aliasOf?: { property: string; deprecated?: true };
  /** The API's field name; defaults to the snake_case form of the property name. */
  api?: string;
  /** A change needs a new object: the API cannot update this field in place. */
  replaceOnChange?: boolean;
  /** Secret in state: the resource class lists it in `additionalSecretOutputs`. */
  secret?: boolean;
  /**
   * The property is visible but may hold secret parts (a schedule variable's
   * value, not its key; secret where the program gave it so). A change of such
   * a property is named in the preview like a secret's (see `diffInputs` in
   * ./provider.ts); its output is secret as a whole.
   */
  secretParts?: SecretParts;
  /** Never returned by the server: the last applied value is kept in state and compared with the program. */
  writeOnly?: boolean;
  /** Part of the address (the owner) or an option of the provider, not a field of the API object. */
  local?: boolean;
  /**
   * A group or project the value names besides the owner (a share's invited
   * group), by numeric id or full path: one named by id is shown by the path
   * the preview read for it, as an owner is (`namedPaths`, ../engine/envelope.ts).
   */
  names?: "group" | "project";
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
   * Never declared by the program: what the server would make of the inputs
   * now, read at check (reads only) and added to the checked inputs, so that
   * a preview shows it (a registry cleanup rule's `wouldDelete`).
   */
  observed?: ObservedTrait;
}

/** How the engine keeps the secret parts of a visible property secret (the `secretParts` trait). */
export interface SecretParts {
  /** The secret values in a value of the property, all of which are masked in messages. */
  valuesOf(value: unknown): string[];
  /**
   * Run in the program by the resource class: wraps the secret parts of the
   * declared value with `pulumi.secret`. The engine keeps secrecy per field of
   * an object but not per item of a list (a list holding a secret becomes one
   * secret), so the secret parts must sit in objects to stay apart.
   */
  mark(declared: unknown): unknown;
  /**
   * The input a refresh records for the property (`recorded`: the state
   * before the refresh). The engine marks refreshed inputs secret only where
   * the recorded inputs had a secret at the same place, so a secret value found
   * on the server where the program declared none must be left out of the inputs.
   */
  refreshedInput(output: unknown, recorded: Record<string, unknown>): unknown;
  /**
   * Whether a value the server holds has secret parts, for the importer, which
   * declares the value only when it has none (a hook's URL without credentials).
   * By default, when `valuesOf` finds any.
   */
  holdsSecrets?(value: unknown): boolean;
}

/** How an observed property is read, and when its value is work for an update. */
export interface ObservedTrait {
  /** The value now, from the checked inputs and the inputs the state recorded (none for a new object). */
  read(ctx: EngineContext, args: Record<string, unknown>, recorded: Record<string, unknown>): Promise<unknown>;
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

/**
 * The traits of each zod type declared with `field`. (Held in a box: zod maps a
 * registry's metadata type member by member, which the trait functions' types do not survive.)
 */
const registry = z.registry<{ traits: unknown }>();

/** The traits declared on `type` with `field`, if any. */
export const traitsOf = (type: z.ZodType): FieldTraits | undefined => registry.get(type)?.traits as FieldTraits | undefined;

/**
 * `type` with these traits: a copy, so that a type shared by several
 * properties (an owner reference, `restoreOnDelete`) carries each one's own.
 * Declare it on the property's outermost type (after `.optional()`).
 */
export function field<T extends z.ZodType>(type: T, traits: FieldTraits): T {
  const copy = type.clone();
  registry.add(copy, { traits });
  return copy;
}

/** `linkUrl` → `link_url`: property names are the camelCase form of the API's field names. */
export function snakeCase(name: string): string {
  let snake = snakeNames.get(name);
  if (snake === undefined) snakeNames.set(name, (snake = name.replace(/[A-Z]/g, (letter) => "_" + letter.toLowerCase())));
  return snake;
}

/** A request's query: the arguments of these names, each under its API name (its snake form); absent ones are left out by the client. */
export function queryOf<A extends object, N extends keyof A & string>(args: A, names: readonly N[]): Record<string, A[N]> {
  return Object.fromEntries(names.map((name) => [snakeCase(name), args[name]]));
}

/** Each name's snake form, made once: the engine asks for them at every call (a few hundred names at most). */
const snakeNames = new Map<string, string>();

/** `link_url` → `linkUrl` (a leading `_` dropped): the names programs read. */
export const camelCase = (name: string): string => name.replace(/^_+/, "").replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

export function apiFieldName(property: string, traits: FieldTraits | undefined): string {
  return traits?.api ?? snakeCase(property);
}

/** The facts an alias takes from the property it stands for. */
const INHERITED = ["tier", "administrator", "topLevelOnly", "offering", "secret", "writeOnly", "shownToSome"] as const satisfies readonly (keyof FieldTraits)[];

/**
 * The traits of each property of an object schema, as its fields declare
 * them; an alias has the facts of the property it stands for, and is read
 * and written as that one.
 */
export function traitsOfShape(shape: Readonly<Record<string, z.ZodType>>): Record<string, FieldTraits> {
  const declared = Object.fromEntries(Object.entries(shape).flatMap(([name, type]) => {
    const traits = traitsOf(type);
    return traits ? [[name, traits]] : [];
  }));
  const fields: Record<string, FieldTraits> = {};
  for (const [name, traits] of Object.entries(declared)) {
    const target = traits.aliasOf?.property;
    if (target === undefined) {
      fields[name] = traits;
      continue;
    }
    if (!(target in shape)) throw new Error(`${name}: an alias of ${target}, which the schema does not have`);
    const of = declared[target] ?? {};
    const replacement = apiFieldName(target, of);
    const own = apiFieldName(name, traits);
    const inherited = Object.fromEntries(INHERITED.filter((fact) => of[fact] !== undefined).map((fact) => [fact, of[fact]]));
    fields[name] = {
      fromApi: (live) => (of.fromApi ? of.fromApi(live) : live[replacement]) ?? live[own],
      toApi: (value, body) => {
        if (of.toApi) of.toApi(value, body);
        else body[replacement] = value;
      },
      ...(of.sameValue ? { sameValue: of.sameValue } : {}),
      ...inherited,
      ...traits,
    };
  }
  return fields;
}

/** The properties whose traits say `fact`. */
export function propertiesWith(fields: Readonly<Record<string, FieldTraits | undefined>>, fact: (traits: FieldTraits) => unknown): string[] {
  return Object.keys(fields).filter((name) => fact(fields[name]!));
}

/** What a field needs beyond its resource's own needs, in words: `administrator`, `Premium or Ultimate tier`, `top-level group`, `self-managed offering`. */
export function requirementsInWords(traits: FieldTraits | undefined): string[] {
  if (!traits) return [];
  return [
    ...(traits.administrator ? ["administrator"] : []),
    ...(traits.tier ? [`${tierInWords(traits.tier)} tier`] : []),
    ...(traits.topLevelOnly ? ["top-level group"] : []),
    ...(traits.offering ? [`${traits.offering} offering`] : []),
  ];
}

/**
 * The needs of single inputs the preview can verify, for those `args`
 * declares: the tier, an administrator, a top-level group (not the offering, which
 * the reads do not tell).
 */
export function inputGates(fields: Readonly<Record<string, FieldTraits | undefined>>, args: Record<string, unknown>): InputGate[] {
  return Object.entries(fields).flatMap(([property, traits]) => {
    if (args[property] === undefined || !traits || !(traits.tier || traits.administrator || traits.topLevelOnly)) return [];
    return [{ property, ...(traits.tier ? { tier: traits.tier } : {}), ...(traits.administrator ? { administrator: true } : {}), ...(traits.topLevelOnly ? { topLevel: true } : {}) }];
  });
}

/** The one wording of a property declared under both of its names. */
export function bothNames(alias: string, target: string, deprecated: boolean): string {
  return `${alias}: ${deprecated ? "deprecated alias of" : "the name real clients use for"} ${target}; set only one of them`;
}

/** A failure for each alias declared beside the property it stands for. */
export function aliasConflicts(fields: Readonly<Record<string, FieldTraits | undefined>>, args: Record<string, unknown>): { property: string; reason: string }[] {
  return Object.entries(fields).flatMap(([alias, traits]) => {
    const target = traits?.aliasOf?.property;
    if (target === undefined || args[alias] === undefined || args[target] === undefined) return [];
    return [{ property: alias, reason: bothNames(alias, target, traits!.aliasOf!.deprecated === true) }];
  });
}
