/**
 * Object resources (`defineObjectResource`): the life cycle of a resource that
 * creates its object and deletes it. Settings resources have theirs in
 * ./settings.ts; the generic engine (./provider.ts) runs whichever its
 * declaration's kind names.
 *
 * - create: an object found by `adopt` (with `adoptExisting`) is brought to the
 *   declared values with `update`; otherwise `create` makes a new one.
 * - import: the object the id names, taken over like an adopted one; a kind
 *   whose create takes over what is there by nature (`importByCreating`) runs
 *   its create, once the object it will take is known to be the one named.
 * - update: `update` with the changed properties. A kind without `update` is
 *   replaced by every change of its inputs: an update is then only a change of
 *   the connection's credentials, and the recorded state stands.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AnyObjectResource, EngineContext, Located } from "./definition";
import { checkImportedId, ExplainedError } from "./errors";
import { changesToAdopt, importedObject } from "./import";
import type { Lifecycle, PropertyParts } from "./types";
import { withoutEngineKeys } from "./envelope";

type Args = Record<string, unknown>;

export function objectLifecycle(parts: PropertyParts, definition: AnyObjectResource): Lifecycle {
  const create = async (ctx: EngineContext, args: Args) => {
    const adopted = args.adoptExisting === true && definition.adopt ? await definition.adopt(ctx, args) : undefined;
    if (adopted) return await updateAdopted(parts, definition, ctx, args, adopted);
    const created = await definition.create(ctx, args);
    return { id: created.id, outs: parts.recordedOutputs(args, created.live) };
  };
  return {
    create,
    async importing(ctx, args, importId) {
      if (!definition.importByCreating) return await updateAdopted(parts, definition, ctx, args, await importedObject(definition, ctx, importId, args));
      checkImportedId(definition, importId, await definition.importByCreating(ctx, args));
      return await create(ctx, args);
    },
    async update(ctx, id, olds, args) {
      if (!definition.update) return keptState(parts, olds, args);
      const changed = new Set(parts.changedProperties(olds, args));
      return parts.recordedOutputs(args, await definition.update(ctx, id, args, changed, withoutEngineKeys(olds)));
    },
    delete: (ctx, id, props) => definition.delete(ctx, id, props),
    released: () => [],
    replacing(changed, olds, news) {
      const replaces = definition.update ? changed.filter((name) => parts.traits(name).replaceOnChange) : [...changed];
      const rule = definition.deleteBeforeReplace;
      const deleteBeforeReplace = replaces.length > 0 && (typeof rule === "function" ? rule(olds, news) : rule === true);
      return { replaces, deleteBeforeReplace };
    },
  };
}

/** The adopted object as it stands is the "old" state the update starts from. */
async function updateAdopted(parts: PropertyParts, definition: AnyObjectResource, ctx: EngineContext, args: Args, adopted: Located): Promise<pulumi.dynamic.CreateResult> {
  const current = parts.outputsFor(args, adopted.live);
  const changed = changesToAdopt(parts, current, args);
  if (changed.size && !definition.update) {
    throw new ExplainedError(`${definition.name}: ${adopted.id} differs from the declaration in ${[...changed].join(", ")}, and every input of this kind replaces it: it cannot be taken over as it is.`);
  }
  const live = changed.size && definition.update ? await definition.update(ctx, adopted.id, args, changed, current) : adopted.live;
  return { id: adopted.id, outs: parts.outputsFor(args, live) };
}

/** A kind without `update`, changed in place only by its connection: the recorded outputs, with the inputs as declared now. */
function keptState(parts: PropertyParts, olds: Args, args: Args): Args {
  const outs: Args = {};
  for (const name of parts.propertyNames) if (args[name] !== undefined) outs[name] = args[name];
  for (const name of Object.keys(parts.definition.outputs)) if (olds[name] !== undefined) outs[name] = olds[name];
  return outs;
}
