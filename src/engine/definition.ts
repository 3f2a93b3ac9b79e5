/**
 * How a resource is declared. A resource module states its input schema, the
 * traits of each field and the few requests that create, read, update and
 * delete it; the generic engine (./provider.ts) turns that into the dynamic
 * provider's check / diff / create / read / update / delete.
 */
import type { z } from "zod";
import type { EngineContext, Live, Needs, Operation } from "../api/needs";
import { aliasConflicts, inputGates, traitsOfShape, type FieldTraits } from "../api/fields";
import { topLevelNeeded } from "../api/needs";
import type { IdForm } from "../api/id-form";
import type { ImportFacts, TerraformType } from "./estate";

export type { EngineContext, Live, Operation } from "../api/needs";
export type { FieldTraits, ObservedTrait, SecretParts } from "../api/fields";


/** What `validate` is told of the step: the inputs the state recorded (none for a new object), and whether it is an import. */
export interface ValidationStep {
  recorded: Readonly<Record<string, unknown>>;
  importing: boolean;
}

/** The object the API returned, with the id the engine records for it. */
export interface Located<L extends Live = Live> {
  id: string;
  live: L;
}

/**
 * One computed output, declared once: how its value is read from the live
 * object, and its traits. Its documentation comment goes on its key in the
 * resource's `outputs`, and the class member derived from it (see
 * `ResourceOutputs` in ./resource.ts) shows it in editors.
 */
export interface OutputDeclaration<L = Live, T = unknown, A = Record<string, unknown>> {
  /**
   * The value, from the live object and the inputs (at a refresh, the recorded
   * state). Absent for an output the engine records itself (a settings
   * resource's prior values, the fingerprints of declared files).
   */
  value?(live: L, args: A): T;
  /** Secret in state: the resource class lists it in `additionalSecretOutputs`. */
  secret?: boolean;
  /**
   * The inputs whose values the output carries, whole, in part or as the
   * server renders them (a badge's `renderedLinkUrl` is its `linkUrl` with the
   * placeholders filled in): the output is secret whenever the program gives
   * one of them as a secret (`pulumi.secret`, a secret config value), as the
   * engine keeps an input's own output. `[]` for an output that carries no
   * input (the server's id, a time). Undeclared, the output is taken to carry
   * every input the program declares, except the connection and the inputs
   * secret by their own traits (whose derived outputs the kind declares
   * `secret`): an output not known to be free of a program's secret is kept
   * as secret as it (../engine/resource.ts, `announceDerivedSecrecy`).
   */
  derivedFrom?: readonly string[];
  /**
   * The output is a function of the resource id. The resource class derives it
   * from `id`, which stays known in a preview while the object is updated in
   * place, where every other output becomes unknown (dynamic providers cannot
   * say which outputs are stable). So `registry: registry.registryId` does not
   * make a dependent resource look replaced whenever the registry changes.
   */
  fromId?(id: string): T;
}

/** An output as a resource declares it: the function that reads its value, or that with traits. */
// A method's type, so that a function of a narrower live type fits, as `read` and `update` do.
export type OutputEntry<L = Live, A = Record<string, unknown>> = NonNullable<OutputDeclaration<L, unknown, A>["value"]> | OutputDeclaration<L, unknown, A>;

/** A resource's computed outputs, by name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OutputsDeclaration<L = any, A = any> = Record<string, OutputEntry<L, A>>;

/** The type of an output's value, as its declaration gives it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OutputValue<E> = E extends (...args: any[]) => infer T ? T : E extends OutputDeclaration<any, infer T, any> ? T : never;

/** An output the engine records itself, of type `T` (see `OutputDeclaration.value`). */
export function recordedOutput<T>(traits: { secret?: boolean } = {}): OutputDeclaration<Live, T, never> {
  return traits;
}

/** An output's traits, whichever way it was declared. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function outputTraits(entry: OutputEntry<any, any>): OutputDeclaration<any, unknown, any> {
  return typeof entry === "function" ? { value: entry } : entry;
}

/** The computed outputs of a live object: each declared output's value (none for one whose value is undefined). */
export function outputValues(outputs: OutputsDeclaration, live: Live, args: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name in outputs) {
    const entry = outputs[name]!;
    const value = typeof entry === "function" ? entry : entry.value;
    // An output with no value is left out: the engine's wire (a protobuf Struct) has no undefined.
    const computed = value?.(live, args);
    if (computed !== undefined) values[name] = computed;
  }
  return values;
}


/**
 * What a step gives or takes, in the words a reviewer reads, for a kind whose
 * fields do not say it plainly (a membership: "gives alice Maintainer on
 * project acme/web, was Developer"; a token's delete: "revokes the token").
 * From the kind of step, its inputs before and after (`before` absent for a
 * create, `after` for a delete; a takeover's before is what it overwrites; a
 * value known only at apply is the engine's unknown marker) and its owner in
 * words; undefined when there is nothing to say. The review shows it beside
 * the step (a replacement that moves the object to another owner as its
 * delete under the one and its create under the other).
 */
export type StepWords = (step: { kind: StepKind; before?: Record<string, unknown>; after?: Record<string, unknown>; owner: string }) => string | undefined;

/** The kinds of step a kind's words speak of. */
export type StepKind = "create" | "takeover" | "update" | "replace" | "delete";

/** How the review names one object (the declaration's `words.name`). */
export type ObjectName = (values: Record<string, unknown>, ownerPath: string | undefined) => string | undefined;

/**
 * A value of a program's or a server's (a username, a path, a date) in a
 * step's words, marked so the review shows it as a value, never as words of
 * its own (in which a mention or a reference would become one): between
 * backticks, each backtick and backslash in it escaped. The owner a kind's
 * words are given is marked so already.
 */
export const named = (value: string | number): string => `\`${String(value).replace(/[\\`]/g, (character) => `\\${character}`)}\``;

/** A step's words in their parts: the tool's text, and each value `named` marked (a mark left open runs to the end). */
export function wordsAndValues(words: string): { text: string; value?: true }[] {
  const parts: { text: string; value?: true }[] = [];
  let text = "";
  let inValue = false;
  const end = () => {
    if (text !== "" || inValue) parts.push(inValue ? { text, value: true } : { text });
    text = "";
  };
  for (let index = 0; index < words.length; index++) {
    const character = words[index]!;
    if (inValue && character === "\\" && index + 1 < words.length) text += words[++index];
    else if (character === "`") {
      end();
      inValue = !inValue;
    } else text += character;
  }
  if (text !== "" || inValue) end();
  return parts;
}

/** What every resource declares, whatever its kind. */
interface ResourceBase<S extends z.ZodObject, L extends Live, O extends OutputsDeclaration<L, z.output<S>>> {
  /** The class name, also the key in `providers`. */
  name: string;
  /**
   * How the review names the kind (`badge`, `SAML group link`, `only-these set
   * of badges`), and for an only-these set the objects it deletes (`badge`).
   */
  words: {
    noun: string;
    memberNoun?: string;
    says?: StepWords;
    /**
     * The name a reviewer knows the object by, where it is not the object's
     * `name` (a group's or a project's full path, a member's username, the
     * group a share invites): from its values (the inputs, over the outputs
     * a refresh read) and its owner's path, undefined where they do not say
     * it. The name is then the whole of how the review names the object, with
     * no number beside it.
     */
    name?: ObjectName;
    /** Whose the object is when no owner input names one (a project made in the personal namespace of the token's user). */
    unowned?: string;
    /** For an only-these set: how the review names one object it deletes (`name`), and what deleting it takes (`says`, given the object as `before`). */
    members?: { name?: (entry: Record<string, unknown>) => string | undefined; says?: StepWords };
    /**
     * For a kind whose every update is one act (an access token's rotation):
     * the verb the review says instead of "updates", its past form, and what
     * the act does besides (`revokes the current token`).
     */
    update?: { verb: string; done: string; note: string };
  };
  /**
   * For an object whose owner a change can take over (a schedule's pipelines
   * run as its owner): the input that takes it and the output that names the
   * owner, which the review shows.
   */
  ownership?: { option: keyof z.output<S> & string; output: keyof O & string };
  /**
   * What deleting the object takes with it and whether the server only marks
   * it for deletion, read by the review from the object's recorded outputs:
   * `takes`, the outputs that count what goes with it, by what they count
   * (`{ projectCount: "projects" }`); `mode`, the output that says how the
   * server deletes it (`{ delayed: false }`, or `{ delayed: true, periodDays }`
   * for an object marked for deletion and restorable that many days);
   * `marked`, the output that holds when it was marked (null: it is not),
   * so an object only marked is not taken for one still there. Such a
   * delete comes first in the report; these outputs are facts of the
   * object's contents, never drift.
   */
  deletion?: { takes: Readonly<Record<string, string>>; mode: string; marked?: string };
  /** How platform-import finds and declares the kind's objects, or why it does not (./estate.ts). */
  imported: ImportFacts;
  /** The GitLab Terraform provider's resource types whose instances are objects of this kind, where it has any (./estate.ts). */
  terraform?: readonly TerraformType[];
  /**
   * The form of the ids the resource records (../api/id-form.ts), where its
   * `read` takes no other: an `import` id not of it is refused before any request.
   */
  idForm?: IdForm;
  /**
   * The secret properties whose values the server never shows for this object
   * (a hidden CI/CD variable's `value`): the kind's `read` gives each as last
   * applied, and a refresh records them (`SECRETS_UNREAD_KEY`, ./envelope.ts),
   * so the review names each as not compared instead of as matching.
   */
  unreadSecrets?(live: L): string[];
  /**
   * What the server calls this object in a `404 <Subject> Not Found` message,
   * if it names it: a word, or a pattern where the subject is a sentence
   * naming the object's id (`Could not find project access token with token_id: 7`).
   */
  notFoundSubject?: string | RegExp;
  /** The inputs: types, defaults and the rules `check` enforces. */
  schema: S;
  /**
   * The traits of each input property, derived when the resource is defined
   * from those declared on its schema's fields (`field`, ../api/fields.ts);
   * properties without traits are plain API fields. Never declared here.
   */
  fields?: { [K in keyof z.output<S>]?: FieldTraits };
  /**
   * For an object its owner holds one of (a setting, a star): the owner's
   * property, and the words of a second declaration, checked across the
   * program where it is declared (./declarations.ts).
   */
  onePerOwner?: { owner: "group" | "project"; what: string; rule?: string };
  /** The computed outputs: each one's value from the live object, and its traits; documented on its key. */
  outputs: O;
  /**
   * What the server demands for this object and operation (../api/needs.ts):
   * refused requests are explained with it, and `check` verifies at preview
   * what a create needs (./verify.ts). `id`: the object's recorded id, where
   * the step knows it (diff's step on an existing object, the review's
   * deletes), for an object named by its id alone (a project renamed or moved).
   */
  needs?(args: z.output<S>, operation: Operation, id?: string): Needs;
  /**
   * State written by an earlier release, in today's form: applied to the
   * recorded state before read, diff, update and delete use it, so an old
   * stack refreshes and updates without a spurious change.
   */
  migrate?(recorded: Record<string, unknown>): Record<string, unknown>;
  /**
   * Rules across fields that the schema cannot say; each failure names its
   * property. `step` tells a rule of what the server judges only when a value
   * is sent (a token's lifetime) what the state recorded, and whether the
   * object is being taken over by id (its values are the server's already).
   */
  validate?(args: z.output<S>, step: ValidationStep): { property: string; reason: string }[];
  /** The live object, or undefined when it no longer exists. */
  read(ctx: EngineContext, id: string, args: z.output<S>): Promise<L | undefined>;
  /**
   * The address fields (owners, `local` ones) that an `import` id fixes, by
   * property: what a declaration taking that object over gives them. At
   * preview an owner may be another resource's output the engine does not
   * know yet (an upstream's `registry`); with this, the takeover is still
   * compared with the object, the owner taken as given here (./import.ts).
   * `live` is the object read by the id alone, for a kind read by id;
   * undefined for one imported by creating and for a settings resource. A
   * field left out stays unknown: the takeover is then compared at apply.
   */
  addressOfImport?(id: string, live: L | undefined): Partial<z.output<S>>;
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

/**
 * A resource that creates its object and deletes it (a badge, a schedule).
 * Without `update`, every input replaces the object: the engine never updates
 * it in place (an action trigger, whose every input runs it again).
 */
export interface ObjectResource<S extends z.ZodObject = z.ZodObject, L extends Live = Live, O extends OutputsDeclaration<L, z.output<S>> = OutputsDeclaration<L, z.output<S>>>
  extends ResourceBase<S, L, O> {
  create(ctx: EngineContext, args: z.output<S>): Promise<Located<L>>;
  update?(ctx: EngineContext, id: string, args: z.output<S>, changed: ReadonlySet<string>, olds: z.output<S>): Promise<L>;
  delete(ctx: EngineContext, id: string, args: z.output<S>): Promise<void>;
  /**
   * Replace by deleting first, for objects that can exist only once per owner.
   * A function decides per change (olds: the recorded state, news: the checked
   * inputs): true when the replacement could not coexist with the old object.
   */
  deleteBeforeReplace?: boolean | ((olds: Record<string, unknown>, news: z.output<S>) => boolean);

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
   * True when the lookup of create's POST (its `findCreated`) compares with what existed before that create
   * (a new key looks like any other): it cannot tell later what a killed create made (./pending-creates.ts).
   */
  lookupOnlyWhileCreating?: true;
}

/**
 * A resource that manages settings of an object that exists without it (a
 * group's settings, the instance's settings): see ./settings.ts. It has no
 * create or delete: the engine locates the object, records the prior values of
 * the managed fields, writes the declared ones with `update`, and gives the
 * prior values back on delete. Its outputs include the prior values
 * (`restoreValues`, `restoreSecrets`), which the engine adds.
 */
export interface SettingsResource<S extends z.ZodObject = z.ZodObject, L extends Live = Live, O extends OutputsDeclaration<L, z.output<S>> = OutputsDeclaration<L, z.output<S>>>
  extends ResourceBase<S, L, O> {
  /**
   * Finds the object whose settings are managed and reads it: its id and its
   * current values, the one GET of a create. A missing object is an error here
   * (a settings resource never creates it).
   */
  locate(ctx: EngineContext, args: z.output<S>): Promise<Located<L>>;
  update(ctx: EngineContext, id: string, args: z.output<S>, changed: ReadonlySet<string>, olds: z.output<S>): Promise<L>;
  /**
   * Prior values that are not part of the object the API returns, each
   * fetched apart (a file served at its own address, such as an avatar), by
   * property. Called once, when the field is first managed, with the object as
   * just read, so it can skip the request when there is nothing to fetch; the
   * result is kept in state as the prior value (`restoreValues`) and handed to
   * `update` when it is given back.
   */
  fetchPrior?: { [K in keyof z.output<S>]?: (ctx: EngineContext, located: Located<L>) => Promise<unknown> };
}

/** The prior values of a settings resource's managed fields, by property name. */
export type PriorValues = Record<string, unknown>;

/** The outputs the engine adds to every settings resource's: its prior values. A named type, so the published declarations keep the comments. */
export type SettingsOutputs = {
  /** The values the managed settings had before the first apply, given back on delete (the secret ones in `restoreSecrets`). */
  restoreValues: OutputDeclaration<Live, PriorValues, never>;
  /** The prior values of the managed secret settings: a secret output. */
  restoreSecrets: OutputDeclaration<Live, PriorValues, never>;
};

export const settingsOutputs: SettingsOutputs = {
  restoreValues: recordedOutput<PriorValues>(),
  restoreSecrets: recordedOutput<PriorValues>({ secret: true }),
};

/** A declaration, tagged with its kind: what the engine dispatches on. */
export type ResourceDefinition<S extends z.ZodObject = z.ZodObject, L extends Live = Live, O extends OutputsDeclaration<L, z.output<S>> = OutputsDeclaration<L, z.output<S>>> =
  | (ObjectResource<S, L, O> & { kind: "object" })
  | (SettingsResource<S, L, O> & { kind: "settings" });

export function defineObjectResource<S extends z.ZodObject, L extends Live, O extends OutputsDeclaration<L, z.output<S>>>(
  declaration: ObjectResource<S, L, O>,
): ObjectResource<S, L, O> & { kind: "object" } {
  return Object.assign(declaration, { kind: "object" as const }, derivedFromTraits(declaration));
}

export function defineSettingsResource<S extends z.ZodObject, L extends Live, O extends OutputsDeclaration<L, z.output<S>>>(
  declaration: SettingsResource<S, L, O>,
): SettingsResource<S, L, O & SettingsOutputs> & { kind: "settings" } {
  return Object.assign(declaration, { kind: "settings" as const, outputs: { ...settingsOutputs, ...declaration.outputs } }, derivedFromTraits(declaration));
}

type Args = Record<string, unknown>;
type Failure = { property: string; reason: string };

/**
 * What the traits declared on the schema's fields (../api/fields.ts) give a
 * declaration: its field table; the input gates of every operation that
 * writes (verified at preview); and the rules of `check` they imply: an alias
 * declared beside the property it stands for, a setting of top-level groups
 * only on a group named by a subgroup's path (one given by id is judged at preview).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function derivedFromTraits(declaration: ResourceBase<any, any, any>): Pick<ResourceBase<any, any, any>, "fields" | "needs" | "validate"> {
  if (declaration.fields) throw new Error(`${declaration.name}: declare the traits of its fields on its schema (field()), not in \`fields\``);
  const fields: Record<string, FieldTraits> = traitsOfShape(declaration.schema.shape as Record<string, z.ZodType>);
  const needs = declaration.needs?.bind(declaration);
  const validate = declaration.validate?.bind(declaration);
  const topLevelOnly = Object.keys(fields).filter((name) => fields[name]!.topLevelOnly);
  const onSubgroup = (args: Args): Failure[] => {
    const owner = topLevelOnly.some((name) => args[name] !== undefined) ? needs?.(args, "update").on : undefined;
    if (owner?.kind !== "group" || typeof owner.ref !== "string" || !owner.ref.includes("/")) return [];
    return topLevelOnly.filter((name) => args[name] !== undefined).map((name) => ({ property: name, reason: `${name}: ${topLevelNeeded(`group ${owner.ref}`)}` }));
  };
  return {
    fields,
    ...(needs && {
      needs(args: Args, operation: Operation, id?: string): Needs {
        const stated = needs(args, operation, id);
        const gates = operation === "read" || stated.noRequest ? [] : inputGates(fields, args);
        return gates.length ? { ...stated, inputGates: [...(stated.inputGates ?? []), ...gates] } : stated;
      },
    }),
    validate: (args: Args, step: ValidationStep = { recorded: {}, importing: false }) => [...(validate?.(args, step) ?? []), ...aliasConflicts(fields, args), ...onSubgroup(args)],
  };
}

/** Any declaration, as the engine and the registry hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResourceDefinition = ResourceDefinition<any, any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyObjectResource = ObjectResource<any, any, any> & { kind: "object" };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySettingsResource = SettingsResource<any, any, any> & { kind: "settings" };
