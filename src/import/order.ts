/**
 * The order platform-import reads an owner's kinds in, and writes their
 * declarations in each owner's module: derived from what each kind declares
 * (`imported` in ../engine/estate.ts), never from where it is registered.
 */
import type { AnyResourceDefinition } from "../engine/definition";

/** The kinds a kind is read and declared after: those it is found through, and an only-these set's members. */
function earlierOf(definition: AnyResourceDefinition): readonly string[] {
  const imported = definition.imported;
  if ("setOf" in imported) return [imported.setOf];
  if ("find" in imported) return imported.through ?? [];
  return [];
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every kind, each after the kinds it is found through and an only-these set
 * after its members' kind; among those free to come next, a kind whose object
 * is the owner itself (a project before its labels), then by name. Throws,
 * naming the kinds, for a kind named that is not registered or kinds that
 * wait on each other.
 */
export function importOrder(definitions: Readonly<Record<string, AnyResourceDefinition>>): string[] {
  const waiting = new Map(Object.entries(definitions).map(([kind, definition]) => [kind, new Set(earlierOf(definition))]));
  for (const [kind, earlier] of waiting) {
    const unknown = [...earlier].filter((other) => !waiting.has(other));
    if (unknown.length > 0) throw new Error(`${kind} is imported after ${unknown.join(", ")}, which no registered kind is`);
  }
  const isOwner = (kind: string) => {
    const imported = definitions[kind]!.imported;
    return "find" in imported && imported.isOwner === true;
  };
  const order: string[] = [];
  while (waiting.size > 0) {
    const free = [...waiting].filter(([, earlier]) => earlier.size === 0).map(([kind]) => kind);
    if (free.length === 0) throw new Error(`these kinds are each imported after another of them: ${[...waiting.keys()].sort(compareText).join(", ")}`);
    const next = free.sort((a, b) => Number(isOwner(b)) - Number(isOwner(a)) || compareText(a, b))[0]!;
    order.push(next);
    waiting.delete(next);
    for (const earlier of waiting.values()) earlier.delete(next);
  }
  return order;
}
