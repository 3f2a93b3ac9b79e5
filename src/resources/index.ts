/**
 * The registered kinds: the declaration of each class ./kinds.ts exports, by
 * the kind's name. A new resource module adds its block there, not here.
 */
import type { AnyResourceDefinition } from "../engine/definition";
import { declarationOf, type PlatformResource } from "../engine/resource";
import * as kinds from "./kinds";

type Kinds = typeof kinds;

/** The name of every registered kind: the classes ./kinds.ts exports. */
export type ResourceKind = { [K in keyof Kinds]: Kinds[K] extends abstract new (...args: never[]) => PlatformResource ? K : never }[keyof Kinds];

/**
 * Each class's declaration, by its name, in the order of the names: which
 * block registers a kind means nothing. The names come without loading any
 * class; a declaration is read from its class, which loads its module, when
 * it is first asked for, and is checked then.
 */
export function registered(classes: Record<string, unknown>): Readonly<Record<ResourceKind, AnyResourceDefinition>> {
  const names = Object.keys(classes).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const declaration = (name: string) => () => {
    const definition = declarationOf(classes[name]);
    if (!definition) throw new Error(`src/resources/kinds.ts exports ${name}, which is not the class of a kind: its class declares one with ofKind in its static block`);
    if (definition.name !== name) throw new Error(`src/resources/kinds.ts exports ${name} as the class of ${definition.name}: a kind's class is named as the kind`);
    return definition;
  };
  return Object.defineProperties({}, Object.fromEntries(names.map((name) => [name, { enumerable: true, get: declaration(name) }]))) as Record<ResourceKind, AnyResourceDefinition>;
}

/** Every registered kind's declaration: `Object.keys` loads no kind, reading one loads its module alone. */
export const definitions: Readonly<Record<ResourceKind, AnyResourceDefinition>> = registered(kinds);
