/**
 * "Only these": the generic part of the exclusive-set resources
 * (ExclusiveBadges, ExclusiveSamlGroupLinks, ExclusivePipelineSchedules,
 * ExclusiveGroupIntegrations, ExclusiveUpstreams). Each declares that the
 * program's objects (`keep`) are the only ones of a collection, except those
 * an `ignore` pattern leaves to someone else (another stack, a person).
 * Modelled on gitlabform's `enforce`, but never removing what a preview did
 * not show:
 *
 * - create lists the collection once (a missing owner or a role too low fails
 *   there) and records the set; it removes nothing and records nothing found;
 * - read (`pulumi refresh`, or the refresh of `up --refresh` / `refresh: always`)
 *   lists the collection and records every object neither kept nor ignored in
 *   `unexpected`, as an input too (the engine shows diffs between old and new
 *   inputs, as a refresh may: `read` returning `inputs` replaces the recorded ones). The program's
 *   checked inputs always say `unexpected: []`, so the next preview shows an
 *   update; check names each object it will delete in the input `deletes`
 *   (`badge 4 \`legacy\``), and the CLI's text hides the diff of
 *   `unexpected`, which read as an edit of a list. `deletes` is never
 *   compared: after the `up`, the next check adds none and the preview is clean;
 * - update removes exactly the objects recorded in `unexpected` at that
 *   refresh (less any the program now keeps or ignores), never one found
 *   later: an object made after the refresh is seen by the next refresh;
 * - delete removes nothing: the objects stay, the set is simply no longer enforced.
 *
 * A collection declares only how to list it, how to name an entry, what
 * identifies an entry and how a `keep` value names one, and how to remove one.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { ownerInput } from "./common";
import { ApiError } from "../client";
import { defineObjectResource, type EngineContext, type Live, type StepWords } from "../engine/definition";
import type { ImportedSet } from "../engine/estate";
import { isUnknown, UNKNOWN } from "../engine/values";
import type { ConnectionArg } from "../engine/connections";
import type { Needs } from "../api/needs";
import { hiddenFromToken } from "../engine/gone";
import { ExplainedError } from "../engine/errors";
import { withoutSeenSecrets } from "../engine/seen-secrets";

/** How the preview names one object of the collection: a few plain fields (ids, name, URL, slug). */
export type Entry = Record<string, string | number | boolean>;

/** A value in `keep`: the program resource's `id`, or the object's own id (a number, a name or a slug per collection). */
export type KeptValue = string | number;

/** What one collection declares. `A` is the owner's part of the inputs (`group`, `project`, `registry`). */
export interface CollectionDeclaration<A extends Record<string, unknown>> {
  /** The class name, also the key in `providers`. */
  name: string;
  /** The object, as messages and the review name it: `badge`, `SAML group link` (its plural takes an s). */
  noun: string;
  /** The kind of the objects, whose import finds the collection, and the output of theirs `keep` names (platform-import's `--exclusive`). */
  imported: ImportedSet;
  /** The inputs that say whose collection it is; a change of any of them replaces the resource. */
  owner: z.ZodRawShape;
  /** Rules on the owner the schema cannot say (exactly one of project and group). */
  validateOwner?(args: A): { property: string; reason: string }[];
  /** The collection's API path without the leading slash: the resource's id. */
  collectionPath(args: A): string;
  /**
   * The owner a collection path names (the inverse of `collectionPath`), for a
   * collection whose owner a program gives as another resource's output: a
   * takeover (`import`) is then compared at preview, before that output is known.
   */
  ownerOf?(id: string): Partial<A>;
  /**
   * What the server demands to list the objects (`create`, `read`) and to
   * remove them (`update`, the only operation that removes): explains a
   * refusal, and is verified at preview. Never uniqueness: the set takes over
   * what is there. Its `delete` sends nothing.
   */
  needs(args: A, operation: "create" | "read" | "update"): Needs;
  /** Every object of the collection, each as its entry. */
  list(ctx: EngineContext, args: A): Promise<Entry[]>;
  /** The key that identifies an entry (a badge's id, a link's name and provider). */
  keyOf(entry: Entry): string;
  /** The key a `keep` value names, or undefined when the value is not of a form `keepForm` describes. */
  keptKey(value: KeptValue): string | undefined;
  /** The accepted `keep` values, for the failure message: `the badges' badgeId or id`. */
  keepForm: string;
  /** The texts an `ignore` pattern is matched against (name, URL, slug): the first an id, the second a name (or the name alone). */
  matchable(entry: Entry): string[];
  /** The object as the preview names it, when the id and name of `matchable` do not say it all (a link's provider). */
  describe?(entry: Entry): string;
  /** How the review names an object the set deletes, and what deleting it takes, where the id and name do not say it (a member's role). */
  members?: { name?: (entry: Record<string, unknown>) => string | undefined; says?: StepWords };
  /** Removes one recorded object; an object already gone counts as removed. */
  remove(ctx: EngineContext, args: A, entry: Entry): Promise<void>;
}

/** Inputs every exclusive set has besides its owner. */
const common = {
  /**
   * The program's own objects: the ids of the resources that manage them
   * (`badge.id`, or `badge.badgeId`): Outputs are fine. May be empty (then
   * every object not ignored is unexpected).
   */
  keep: field(z.array(z.union([z.string().min(1), z.number()])), { local: true }),
  /**
   * Objects managed elsewhere (another stack, by hand): an object whose name
   * (or slug, URL, id; see each resource) matches one of these patterns is
   * never unexpected. `*` matches any run of characters; matching ignores case.
   */
  ignore: field(z.array(z.string().min(1, { message: "must not be empty" })).optional(), { local: true }),
  /** Recorded by refresh: the objects found that are neither kept nor ignored. Never declared. */
  // The live value is what the last request found: refresh records the strays, create and update none.
  unexpected: field(z.array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))).default([]), {
    fromApi: (live: Live) => live.unexpected,
    toApi: () => undefined,
  }),
};

export interface CommonInputs {
  keep: KeptValue[];
  ignore?: string[];
  unexpected: Entry[];
}

/** A glob (`team-*`) as a regular expression over the whole text, ignoring case; each made once (every read matches them). */
function globPattern(glob: string): RegExp {
  let pattern = globPatterns.get(glob);
  if (pattern === undefined) {
    const escaped = glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
    globPatterns.set(glob, (pattern = new RegExp(`^${escaped.join(".*")}$`, "i")));
  }
  return pattern;
}

/** The globs of the program's exclusive sets: a few per set, kept for the process. */
const globPatterns = new Map<string, RegExp>();

/** The objects to record: neither kept nor matched by an ignore pattern. */
export function strays<A extends Record<string, unknown>>(collection: CollectionDeclaration<A>, args: CommonInputs, entries: Entry[]): Entry[] {
  const kept = new Set(args.keep.map((value) => collection.keptKey(value)).filter((key) => key !== undefined));
  const patterns = (args.ignore ?? []).map(globPattern);
  return entries.filter((entry) => {
    if (kept.has(collection.keyOf(entry))) return false;
    return !collection.matchable(entry).some((text) => patterns.some((pattern) => pattern.test(text)));
  });
}

function withoutSecretValues(entry: Entry): Entry {
  return Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, typeof value === "string" ? withoutSeenSecrets(value) : value]));
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? "an" : "a");

function validate<A extends Record<string, unknown>>(collection: CollectionDeclaration<A>, args: A & CommonInputs): { property: string; reason: string }[] {
  const failures = collection.validateOwner?.(args) ?? [];
  args.keep.forEach((value, index) => {
    if (isUnknown(value) || collection.keptKey(value) !== undefined) return;
    failures.push({ property: `keep.${index}`, reason: `keep.${index}: ${JSON.stringify(value)} does not name ${article(collection.noun)} ${collection.noun}; give ${collection.keepForm}` });
  });
  if (args.unexpected.length > 0) {
    failures.push({ property: "unexpected", reason: "unexpected: is recorded by `pulumi refresh`, not declared; leave it out (use keep and ignore)" });
  }
  return failures;
}

/**
 * `unexpected`, announced as an output too, so the class has it. A named type,
 * so the published declarations keep its documentation.
 */
export type ExclusiveSetOutputs = {
  /** The objects the last refresh found that are neither kept nor ignored: the next `up` removes them (disables an integration). */
  unexpected(live: Live): Entry[];
};

const exclusiveSetOutputs: ExclusiveSetOutputs = { unexpected: (live) => live.unexpected as Entry[] };

/** The resource declaration of one collection, for the generic engine (./../engine/provider.ts). */
export function exclusiveSetDefinition<A extends Record<string, unknown>>(collection: CollectionDeclaration<A>) {
  type Inputs = A & CommonInputs;
  // Typed by the owner's inputs, so the class has a member per owner input (the declared shape is only a ZodRawShape).
  const owner = Object.fromEntries(Object.entries(collection.owner).map(([name, type]) => [name, ownerInput(type as z.ZodType)]));
  const schema = z.object({ ...owner, ...common }) as unknown as z.ZodObject<{ [K in keyof A]-?: z.ZodType<A[K]> } & typeof common>;
  return defineObjectResource({
    name: collection.name,
    words: { noun: `only-these set of ${collection.noun}s`, memberNoun: collection.noun, ...(collection.members ? { members: collection.members } : {}) },
    imported: collection.imported,
    schema,
    outputs: exclusiveSetOutputs,
    needs: (args, operation) =>
      operation === "delete" ? { ...collection.needs(args as unknown as A, "read"), noRequest: true } : collection.needs(args as unknown as A, operation),
    validate: (args) => validate(collection, args as unknown as Inputs),
    narration: {
      names: ["deletes"],
      of: (recorded, args) => {
        const inputs = args as unknown as Inputs;
        const found = (recorded.unexpected ?? []) as Entry[];
        // A `keep` value known only at apply (an object this run creates or takes over) may name one of them:
        // what is deleted is known then, and a saved plan must not pin a guess.
        if (found.length > 0 && inputs.keep.some(isUnknown)) return { deletes: UNKNOWN };
        const removed = strays(collection, inputs, found);
        return removed.length ? { deletes: removed.map((entry) => describeEntry(collection, entry)) } : {};
      },
    },
    hiddenInDiffs: ["unexpected"],
    // `import: <collection path>` is an ordinary create: it removes nothing the preview did not name.
    importByCreating: async (_ctx, args) => collection.collectionPath(args as unknown as A),
    addressOfImport: (id) => (collection.ownerOf?.(id) ?? {}) as never,

    async create(ctx, args) {
      // One list, so a missing owner or a role too low fails this `up`, not a later refresh. Nothing is
      // removed or recorded: the preview of this `up` named nothing. The next refresh records what is there.
      await collection.list(ctx, args as unknown as A);
      return { id: collection.collectionPath(args as unknown as A), live: { unexpected: [] } };
    },

    async read(ctx, _id, args) {
      const inputs = args as unknown as Inputs;
      // A value another resource of the program gave as a secret is recorded (and shown) masked.
      return { unexpected: strays(collection, inputs, await collection.list(ctx, inputs)).map(withoutSecretValues) };
    },

    async update(ctx, _id, args, _changed, olds) {
      const inputs = args as unknown as Inputs;
      // Exactly what the refresh recorded and the preview showed, less what the program now keeps or ignores.
      const recorded = ((olds as unknown as Partial<CommonInputs>).unexpected ?? []) as Entry[];
      for (const entry of strays(collection, inputs, recorded)) await removeEntry(ctx, collection, inputs, entry);
      return { unexpected: [] };
    },

    async delete() {
      // The set stops being enforced; every object stays as it is.
    },
  });
}

/** An object as the preview names it: `badge 4 \`legacy\``, `SAML group link \`admins\``. */
function describeEntry<A extends Record<string, unknown>>(collection: CollectionDeclaration<A>, entry: Entry): string {
  if (collection.describe) return collection.describe(entry);
  const [first, name] = collection.matchable(entry);
  if (name === undefined) return `${collection.noun} \`${first}\``;
  return name === "" || name === first ? `${collection.noun} ${first}` : `${collection.noun} ${first} \`${name}\``;
}

/** Removes one entry; one already gone counts as removed, when the token could have seen it (../engine/gone.ts). */
async function removeEntry<A extends Record<string, unknown>>(ctx: EngineContext, collection: CollectionDeclaration<A>, args: A, entry: Entry): Promise<void> {
  try {
    await collection.remove(ctx, args, entry);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    const what = describeEntry(collection, entry);
    const hidden = await hiddenFromToken(ctx, collection.needs(args, "read"), what, error);
    if (hidden) throw new ExplainedError(`${collection.name}: could not remove ${what}: ${hidden}`);
  }
}

/** The arguments of an exclusive set's class: the owner's and `keep`, `ignore` (each a Pulumi input). */
export type ExclusiveSetArgs<Owner> = { [K in keyof Owner]: pulumi.Input<Owner[K]> } & ConnectionArg & {
  keep: pulumi.Input<pulumi.Input<KeptValue>[]>;
  ignore?: pulumi.Input<pulumi.Input<string>[]>;
};
