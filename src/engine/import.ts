/**
 * The `import` resource option: `new Badge("b", {...}, { import: "groups/acme/badges/12" })`
 * takes over exactly the object that id names.
 *
 * The engine cannot import a dynamic resource itself: for `import` it asks the
 * provider to read the object with no `__provider` in the properties, which
 * the dynamic provider host cannot load (pulumi/pulumi#16175, #3550; the SDK
 * fails with "Cannot read properties of undefined (reading 'toJavaScript')").
 * So the resource class (./resource.ts) takes `import` out of the options and
 * hands the id to the provider in the reserved input `__import`; `create`
 * (./provider.ts) then reads that object instead of creating one, and brings
 * it to the declared values the way `adoptExisting` does. Once the object is in
 * the state the option has done its work: later runs compare as usual, and the
 * option may stay in the program or go.
 *
 * The id is the resource's own id, as `pulumi stack export` shows it for a
 * resource of the kind (docs/resources.md has the table).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AnyResourceDefinition, EngineContext, Located } from "./definition";
import { warn } from "./engine-log";
import { ExplainedError } from "./errors";
import { isGone } from "./explain";
import type { PropertyParts } from "./properties";

/** The reserved input that carries the id of the object to take over. */
export const IMPORT_KEY = "__import";

/** The options without `import`, and the input that carries its id (empty without it). */
export function withoutImportOption(opts: pulumi.CustomResourceOptions | undefined): {
  options: pulumi.CustomResourceOptions | undefined;
  importInput: Record<string, string>;
} {
  if (opts?.import === undefined) return { options: opts, importInput: {} };
  const { import: id, ...options } = opts;
  return { options, importInput: { [IMPORT_KEY]: String(id) } };
}

/** The id to import, from a resource's inputs (as check passes them on to create). */
export function importIdOf(inputs: Record<string, unknown>): string | undefined {
  const id = inputs[IMPORT_KEY];
  return typeof id === "string" && id !== "" ? id : undefined;
}

/**
 * The object an `import` names, read by its id: what `create` then takes over.
 * No object at that id (or an id not of the kind's form) is refused, saying what
 * the id must be.
 */
export async function importedObject(definition: AnyResourceDefinition, ctx: EngineContext, id: string, args: Record<string, unknown>): Promise<Located> {
  let live: Record<string, unknown> | undefined;
  try {
    live = await definition.read(ctx, id, args as never);
  } catch (error) {
    if (isGone(definition, error)) live = undefined;
    else if (isMalformedId(error)) throw new ExplainedError(`${definition.name}: cannot import "${id}": ${(error as Error).message}`);
    else throw error;
  }
  if (!live) {
    throw new ExplainedError(
      `${definition.name}: cannot import "${id}": there is no such object, or the token's user cannot see it. ` +
        `The import option takes the id of an existing ${definition.name}, as docs/resources.md ("Taking over an object by id") gives its form.`,
    );
  }
  return { id, live };
}

/** A resource module's own refusal of an id it cannot parse (`parseId`), not a failed request. */
function isMalformedId(error: unknown): boolean {
  return error instanceof Error && !("status" in error) && / id "[^"]*" is not /.test(error.message);
}

/**
 * For the kinds whose create takes over what is there by nature (settings
 * resources, `importByCreating` kinds): the object create takes must be the
 * one the import names, or the declaration and the id disagree.
 */
export function checkImportedId(definition: AnyResourceDefinition, importId: string, found: string): void {
  if (found === importId) return;
  throw new ExplainedError(
    `${definition.name}: cannot import "${importId}": the declared properties name the object "${found}". ` +
      `Import "${found}", or change the declaration to name the object "${importId}" is.`,
  );
}

/** The reserved input as check passes it on to create: `{ __import: id }`, or nothing. */
export function importInputOf(inputs: Record<string, unknown>): Record<string, string> {
  const id = importIdOf(inputs);
  return id === undefined ? {} : { [IMPORT_KEY]: id };
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
 * the failure's reason), and the properties the `up` will change are shown as
 * a warning (the preview itself can only show a create). A server that cannot
 * be read now leaves it to the `up`.
 */
export async function previewImport(parts: PropertyParts, ctx: EngineContext, id: string, args: Record<string, unknown>): Promise<string | undefined> {
  const { definition } = parts;
  let changes: string[];
  try {
    if (definition.importByCreating) {
      checkImportedId(definition, id, await definition.importByCreating(ctx, args as never));
      return undefined;
    } else if (definition.settings) {
      const located = await definition.settings.locate(ctx, args as never);
      checkImportedId(definition, id, located.id);
      changes = parts.differingFromLive(args, located.live);
    } else {
      const { live } = await importedObject(definition, ctx, id, args);
      changes = [...changesToAdopt(parts, parts.outputsFor(args, live), args)];
    }
  } catch (error) {
    return error instanceof ExplainedError ? error.message : undefined;
  }
  if (changes.length) await warn(`${definition.name} ${id}: the import takes it over and sets ${changes.join(", ")} to the declared values.`);
  return undefined;
}
