/**
 * How the review names each resource kind, derived from the kinds the package
 * declares (../resources): the nouns and the ownership each kind declares
 * (`words`, `ownership`), the properties never to show from the declared
 * secret traits.
 */
import { type AnyResourceDefinition, type FieldTraits, type ObjectName, type OutputsDeclaration, outputTraits, type StepWords } from "../engine/definition";
import { TAKEOVER_KEY } from "../engine/envelope";
import { definitions } from "../resources";

export interface KindTerms {
  kind: string;
  /** One of the package's kinds: its words are the tool's own; another's kind is the program's text. */
  defined: boolean;
  /** `badge`, `SAML group link`, `only-these set of badges`; `resource` for a kind of another package. */
  noun: string;
  /** For an exclusive set: the objects it deletes (`badge`). */
  memberNoun?: string;
  /** What a step gives or takes, in words, where the kind says it (a membership's role). */
  says?: StepWords;
  /** The name a reviewer knows one object by, where the kind says it (a group's full path): shown with no number. */
  name?: ObjectName;
  /** For an exclusive set: how one object it deletes is named, and what deleting it takes. */
  members?: { name?: (entry: Record<string, unknown>) => string | undefined; says?: StepWords };
  /** A kind whose every update is one act (a rotation): its verb, past form and note. */
  update?: { verb: string; done: string; note: string };
  /** Properties whose values are never shown, even where the CLI would. */
  secretProperties: ReadonlySet<string>;
  /** Properties the server never shows (a hook's token): what is applied cannot be read back, so a change made outside the program is not seen. */
  writeOnlyProperties: ReadonlySet<string>;
  /** Settings of the whole instance, owned by no group or project. */
  instanceWide: boolean;
  /** Whose the object is when no owner input names one, where the kind says it. */
  unowned?: string;
  /**
   * Inputs that are no field of the object: the provider's options (`adoptExisting`), and what check adds to
   * narrate a step (the takeover, an exclusive set's `deletes`). Keys starting with `__` are the engine's.
   */
  notFields: ReadonlySet<string>;
  /**
   * A kind whose object has an owner a change can take over (a schedule's
   * pipelines run as its owner): the option that takes it and the output that
   * names the owner.
   */
  ownership?: { option: string; output: string };
  /** What deleting the kind's object takes with it and how the server deletes it (`deletion` on the declaration). */
  deletion?: { takes: Readonly<Record<string, string>>; mode: string };
}

/** The inputs that name whose object it is (see ./changes.ts ownerOf); a kind with none manages the instance. */
export const OWNER_INPUTS = ["group", "project", "registry", "parent"] as const;

const known = new Map<string, KindTerms>();

let unownedWordsOfKinds: ReadonlySet<string> | undefined;

/**
 * The owners the kinds name in words when no owner input names one: the
 * tool's words, never a path. Read on first use: it loads every kind, which a
 * review of a few kinds otherwise never does.
 */
export function unownedWords(): ReadonlySet<string> {
  return (unownedWordsOfKinds ??= new Set(Object.values(definitions as Record<string, AnyResourceDefinition>).flatMap((definition) => definition.words.unowned ?? [])));
}

export function termsOf(kind: string): KindTerms {
  let terms = known.get(kind);
  if (terms) return terms;
  const definition = (definitions as Record<string, AnyResourceDefinition | undefined>)[kind];
  const secretProperties = new Set<string>();
  for (const [name, traits] of Object.entries(definition?.fields ?? {})) if ((traits as { secret?: boolean }).secret) secretProperties.add(name);
  for (const [name, output] of Object.entries((definition?.outputs ?? {}) as OutputsDeclaration)) if (outputTraits(output).secret) secretProperties.add(name);
  const writeOnlyProperties = new Set(Object.entries(definition?.fields ?? {}).filter(([, traits]) => (traits as FieldTraits).writeOnly).map(([name]) => name));
  const options = Object.entries(definition?.fields ?? {}).filter(([, traits]) => (traits as FieldTraits).ignoreInDiff).map(([name]) => name);
  const notFields = new Set([TAKEOVER_KEY, ...options, ...(definition?.narration?.names ?? [])]);
  terms = {
    kind,
    defined: definition !== undefined,
    noun: definition?.words.noun ?? "resource",
    memberNoun: definition?.words.memberNoun,
    ...(definition?.words.says ? { says: definition.words.says } : {}),
    ...(definition?.words.name ? { name: definition.words.name } : {}),
    ...(definition?.words.members ? { members: definition.words.members } : {}),
    ...(definition?.words.unowned ? { unowned: definition.words.unowned } : {}),
    ...(definition?.words.update ? { update: definition.words.update } : {}),
    secretProperties,
    writeOnlyProperties,
    // A group with no parent is a top-level group: the instance's.
    instanceWide: definition !== undefined && !OWNER_INPUTS.some((input) => input !== "parent" && input in definition.schema.shape),
    notFields,
    ...(definition?.ownership ? { ownership: definition.ownership } : {}),
    ...(definition?.deletion ? { deletion: definition.deletion } : {}),
  };
  known.set(kind, terms);
  return terms;
}
