/**
 * The `import` resource option: `new Badge("b", {...}, { import: "groups/acme/badges/12" })`
 * takes over exactly the object that id names.
 *
 * The engine cannot import a dynamic resource itself: for `import` it asks the
 * provider to read the object with no `__provider` in the properties, which
 * the dynamic provider host cannot load (pulumi/pulumi#16175, #3550; the SDK
 * fails with "Cannot read properties of undefined (reading 'toJavaScript')",
 * or with 3.276 "code must be a string, not undefined").
 * So the resource class (./resource.ts) takes `import` out of the options and
 * hands the id to the provider in the engine's envelope (./envelope.ts); `create`
 * (./provider.ts) then reads that object instead of creating one, and brings
 * it to the declared values the way `adoptExisting` does. Once the object is in
 * the state the option has done its work: later runs compare as usual, and the
 * option may stay in the program or go.
 *
 * The id is the resource's own id, as `pulumi stack export` shows it for a
 * resource of the kind (docs/resources.md has the table).
 *
 * A takeover (`import`, or `adoptExisting` finding an object) can only be a
 * create to the engine: the preview shows `+ create`. So check reads the
 * object it takes and says so: in the envelope's takeover (the id, and
 * each field it overwrites with the value it has now, a secret as `[secret]`;
 * the new value is the create's own input beside it), which the preview lists
 * with the create's inputs, and, when it overwrites something, in a warning
 * (old → new) attached to the resource, which the engine can place only by
 * its URN: the resource class puts that in the envelope when a takeover is
 * possible (./resource.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AnyResourceDefinition, EngineContext, Located } from "./definition";
import { warn } from "./engine-log";
import { isUnknown } from "./values";
import { withoutEngineKeys } from "./envelope";
import { checkImportedId, ExplainedError } from "./errors";
import { isObjectNotFound } from "./explain";
import { noteSecretValues } from "./seen-secrets";
import { malformedId } from "../api/id-form";
import type { PropertyParts } from "./types";
import type { Takeover } from "./envelope";

/** The options without `import`, and the id it names (undefined without it). */
export function withoutImportOption(opts: pulumi.CustomResourceOptions | undefined): {
  options: pulumi.CustomResourceOptions | undefined;
  importId: string | undefined;
} {
  if (opts?.import === undefined) return { options: opts, importId: undefined };
  const { import: id, ...options } = opts;
  return { options, importId: String(id) };
}

/**
 * The object an `import` names, read by its id: what `create` then takes over.
 * No object at that id (or an id not of the kind's form) is refused, saying what
 * the id must be.
 */
export async function importedObject(definition: AnyResourceDefinition, ctx: EngineContext, id: string, args: Record<string, unknown>): Promise<Located> {
  const form = definition.idForm;
  if (form && form.parse(id) === undefined) throw new ExplainedError(`${definition.name}: cannot import "${id}": ${malformedId(definition.name, form, id)}`);
  let live: Record<string, unknown> | undefined;
  try {
    live = await definition.read(ctx, id, args as never);
  } catch (error) {
    if (!isObjectNotFound(definition, error)) throw error;
  }
  if (!live) {
    throw new ExplainedError(
      `${definition.name}: cannot import "${id}": there is no such object, or the token's user cannot see it. ` +
        `The import option takes the id of an existing ${definition.name}, as docs/resources.md ("Taking over an object by id") gives its form.`,
    );
  }
  return { id, live };
}

/** Whether the program may take an object over: the `import` option or `adoptExisting` (then the URN goes to check). */
export function mayTakeOver(args: object, opts: pulumi.CustomResourceOptions | undefined): boolean {
  return opts?.import !== undefined || (args as { adoptExisting?: unknown }).adoptExisting !== undefined;
}

/**
 * The properties taking over an object changes: those whose declared value
 * differs from the object as it stands, and the write-only ones declared
 * (the server never shows them, so they are always sent).
 */
export function changesToAdopt(parts: PropertyParts, current: Record<string, unknown>, args: Record<string, unknown>): Set<string> {
  const changed = new Set(parts.changedProperties(current, args));
  for (const name of parts.propertyNames) if (parts.traits(name).writeOnly && args[name] !== undefined) changed.add(name);
  return changed;
}

/**
 * At preview (check of a resource not yet in the state): reads the object an
 * import names, so a missing object, an id not of the kind's form, or a
 * settings resource's id naming another object fails the preview (returned as
 * the failure's reason); otherwise the takeover, with what the `up` will
 * overwrite. A server that cannot be read now leaves it to the `up`.
 *
 * An address field not known yet (an owner given as another resource's
 * output, which a dynamic resource has only after its first `up`) is taken as
 * the import id fixes it (`addressOfImport`, returned as `address`, which the
 * warning names), and every other field is compared as usual; any other
 * unknown input leaves the comparison to the `up`.
 */
export async function previewImport(
  parts: PropertyParts,
  ctx: EngineContext,
  id: string,
  args: Record<string, unknown>,
): Promise<{ failure: string } | { takeover: Takeover; address: Record<string, unknown> | undefined } | undefined> {
  const { definition } = parts;
  const unknown = Object.keys(args).filter((name) => isUnknown(args[name]));
  if (unknown.some((name) => !(parts.propertySet.has(name) && parts.traits(name).local))) return undefined;
  const addressed = (live: Record<string, unknown> | undefined) => withImportedAddress(parts, id, args, unknown, live);
  try {
    if (definition.kind === "object" && definition.importByCreating) {
      const declared = addressed(undefined);
      if (!declared) return undefined;
      checkImportedId(definition, id, await definition.importByCreating(ctx, declared.args as never));
      return { takeover: { id, overwrites: {} }, address: declared.address };
    } else if (definition.kind === "settings") {
      const declared = addressed(undefined);
      if (!declared) return undefined;
      const located = await definition.locate(ctx, declared.args as never);
      checkImportedId(definition, id, located.id);
      return { takeover: settingsTakeover(parts, located, declared.args), address: declared.address };
    }
    const { live } = await importedObject(definition, ctx, id, unknown.length ? withoutNames(args, unknown) : args);
    const declared = addressed(live);
    if (!declared) return undefined;
    const current = parts.outputsFor(declared.args, live);
    return { takeover: { id, overwrites: overwritten(parts, [...changesToAdopt(parts, current, declared.args)], current) }, address: declared.address };
  } catch (error) {
    return error instanceof ExplainedError ? { failure: error.message } : undefined;
  }
}

/**
 * The declared inputs with each unknown address field (`unknown`) as the
 * import id fixes it, parsed as create parses them, and those fields (as
 * `address`); undefined when one is not fixed or the inputs then do not parse
 * (another value known only at apply).
 */
function withImportedAddress(
  parts: PropertyParts,
  id: string,
  args: Record<string, unknown>,
  unknown: readonly string[],
  live: Record<string, unknown> | undefined,
): { args: Record<string, unknown>; address?: Record<string, unknown> } | undefined {
  if (unknown.length === 0) return { args };
  const fixed = (parts.definition.addressOfImport?.(id, live) ?? {}) as Record<string, unknown>;
  if (unknown.some((name) => fixed[name] === undefined)) return undefined;
  const address = Object.fromEntries(unknown.map((name) => [name, fixed[name]]));
  const parsed = parts.definition.schema.safeParse({ ...withoutEngineKeys(args), ...address });
  return parsed.success ? { args: parsed.data as Record<string, unknown>, address } : undefined;
}

function withoutNames(args: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([name]) => !names.includes(name)));
}

/**
 * At preview, for `adoptExisting`: the object the `up` would take over (the
 * kind's own lookup, a read), with what it would overwrite; undefined when
 * there is none (the `up` creates one) or the server cannot tell now.
 */
export async function previewAdoption(parts: PropertyParts, ctx: EngineContext, args: Record<string, unknown>): Promise<Takeover | undefined> {
  const { definition } = parts;
  if (args.adoptExisting !== true || definition.kind !== "object" || !definition.adopt) return undefined;
  try {
    const adopted = await definition.adopt(ctx, args as never);
    if (!adopted) return undefined;
    const current = parts.outputsFor(args, adopted.live);
    return { id: adopted.id, overwrites: overwritten(parts, [...changesToAdopt(parts, current, args)], current) };
  } catch {
    return undefined;
  }
}

/**
 * At preview, for a settings resource's create without `import`: the settings
 * it takes over by nature (./settings.ts), read now (its `locate`, as the `up`
 * reads them), with what the `up` overwrites there; undefined when the server
 * cannot tell now (the `up` reads them all the same).
 */
export async function previewSettings(parts: PropertyParts, ctx: EngineContext, args: Record<string, unknown>): Promise<Takeover | undefined> {
  const { definition } = parts;
  if (definition.kind !== "settings") return undefined;
  try {
    return { ...settingsTakeover(parts, await definition.locate(ctx, args as never), args), byNature: true };
  } catch {
    return undefined;
  }
}

/** The settings found, and each declared one the `up` changes there with the value it has now. */
function settingsTakeover(parts: PropertyParts, located: Located, args: Record<string, unknown>): Takeover {
  const current = Object.fromEntries(parts.apiProperties.map((name) => [name, parts.liveValueOf(name, parts.traits(name), located.live)]));
  return { id: located.id, overwrites: overwritten(parts, parts.differingFromLive(args, located.live), current) };
}

const SECRET = "[secret]";
const NOT_SHOWN = "[not shown by the server]";

/** Each property a takeover changes, with the value it has now; a secret (or a property holding secret values) named only. */
function overwritten(parts: PropertyParts, changed: readonly string[], current: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    changed.map((name) => {
      const traits = parts.traits(name);
      if (traits.secret || traits.secretParts) {
        // What the server holds now is as secret as the value replacing it: a refusal of the takeover may repeat it.
        noteSecretValues(current[name]);
        return [name, SECRET];
      }
      return [name, traits.writeOnly ? NOT_SHOWN : (current[name] ?? null)];
    }),
  );
}

/** A value as a warning shows it: JSON, cut at 120 characters. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return "(unset)";
  if (value === SECRET || value === NOT_SHOWN) return value;
  if (isUnknown(value)) return "(known after the up)";
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * The warning of a takeover that overwrites something (each value old → new, a secret named only), attached to the
 * resource when its URN is known; with the address fields not known yet that the comparison took as the import id fixes them.
 */
export function warnTakeover(
  kind: string,
  how: "import" | "adoptExisting",
  takeover: Takeover,
  args: Record<string, unknown>,
  urn: string | undefined,
  address?: Record<string, unknown>,
): Promise<void> {
  const lines = Object.entries(takeover.overwrites).map(([name, now]) => (now === SECRET ? `${name} (secret, not shown)` : `${name}: ${shown(now)} → ${shown(args[name])}`));
  const option = how === "import" ? "the import option" : "adoptExisting";
  const taken = Object.entries(address ?? {}).map(([name, value]) => `; ${name}, known after the up, taken as the object's: ${shown(value)}`);
  return warn(`${kind} ${takeover.id}: ${option} takes over this existing object; it overwrites ${lines.join("; ")}${taken.join("")}.`, urn);
}
