/**
 * How the review names each resource kind, derived from the kinds the package
 * declares (../resources): the noun from the class name, the properties never
 * to show from the declared secret traits, and for an exclusive set the noun of
 * the objects it deletes.
 */
import { type AnyResourceDefinition, type FieldTraits, type OutputsDeclaration, outputTraits } from "../engine/definition";
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
  /** Properties whose values are never shown, even where the CLI would. */
  secretProperties: ReadonlySet<string>;
  /** Settings of the whole instance, owned by no group or project. */
  instanceWide: boolean;
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
}

const ACRONYMS: Record<string, string> = { saml: "SAML" };

/** `SamlGroupLink` → `SAML group link`. */
export function wordsOf(name: string): string {
  return name
    .split(/(?=[A-Z])/)
    .map((word) => ACRONYMS[word.toLowerCase()] ?? word.toLowerCase())
    .join(" ");
}

/** `badges` → `badge`, `upstreams` → `upstream`: the plural in the kind's name, made singular. */
const singular = (words: string) => words.replace(/ies$/, "y").replace(/s$/, "");

/** The inputs that name whose object it is (see ./changes.ts ownerOf); a kind with none manages the instance. */
export const OWNER_INPUTS = ["group", "project", "registry"] as const;

const known = new Map<string, KindTerms>();

export function termsOf(kind: string): KindTerms {
  let terms = known.get(kind);
  if (terms) return terms;
  const definition = (definitions as Record<string, AnyResourceDefinition | undefined>)[kind];
  const secretProperties = new Set<string>();
  for (const [name, traits] of Object.entries(definition?.fields ?? {})) if ((traits as { secret?: boolean }).secret) secretProperties.add(name);
  for (const [name, output] of Object.entries((definition?.outputs ?? {}) as OutputsDeclaration)) if (outputTraits(output).secret) secretProperties.add(name);
  const options = Object.entries(definition?.fields ?? {}).filter(([, traits]) => (traits as FieldTraits).ignoreInDiff).map(([name]) => name);
  const notFields = new Set([TAKEOVER_KEY, ...options, ...(definition?.narration?.names ?? [])]);
  const ownership = definition?.fields && "takeOwnership" in definition.fields && "owner" in (definition.outputs ?? {}) ? { option: "takeOwnership", output: "owner" } : undefined;
  const exclusive = definition ? /^Exclusive([A-Z]\w+)$/.exec(kind) : null;
  const memberNoun = exclusive ? singular(wordsOf(exclusive[1]!)) : undefined;
  terms = {
    kind,
    defined: definition !== undefined,
    noun: exclusive ? `only-these set of ${wordsOf(exclusive[1]!)}` : definition ? wordsOf(kind) : "resource",
    memberNoun,
    secretProperties,
    instanceWide: definition !== undefined && !OWNER_INPUTS.some((input) => input in definition.schema.shape),
    notFields,
    ...(ownership ? { ownership } : {}),
  };
  known.set(kind, terms);
  return terms;
}
