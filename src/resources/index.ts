/**
 * The registered kinds: the declaration of each class ./kinds.ts exports, by
 * the kind's name. A new resource module adds its line there, not here.
 */
import type { AnyResourceDefinition } from "../engine/definition";
import { declarationOf, type PlatformResource } from "../engine/resource";
import * as kinds from "./kinds";

type Kinds = typeof kinds;

/** The name of every registered kind: the classes ./kinds.ts exports. */
export type ResourceKind = { [K in keyof Kinds]: Kinds[K] extends abstract new (...args: never[]) => PlatformResource ? K : never }[keyof Kinds];

/** Each class's declaration, by its name, in the order of the names: which line registers a kind means nothing. */
function registered(classes: Record<string, unknown>): Record<ResourceKind, AnyResourceDefinition> {
  const entries = Object.entries(classes).map(([name, value]): [string, AnyResourceDefinition] => {
    const definition = declarationOf(value);
    if (!definition) throw new Error(`src/resources/kinds.ts exports ${name}, which is not the class of a kind: its class declares one with ofKind in its static block`);
    if (definition.name !== name) throw new Error(`src/resources/kinds.ts exports ${name} as the class of ${definition.name}: a kind's class is named as the kind`);
    return [name, definition];
  });
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as Record<ResourceKind, AnyResourceDefinition>;
}

export const definitions: Readonly<Record<ResourceKind, AnyResourceDefinition>> = registered(kinds);
