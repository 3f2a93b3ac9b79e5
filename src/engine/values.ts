/** Small value helpers shared by the engine and the resource modules. */
import { apiFieldName } from "../api/fields";
import type { FieldTraits } from "./definition";

export { apiFieldName, snakeCase } from "../api/fields";

/** The placeholder the engine sends during preview for values not yet known. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/**
 * Whether a value is, or holds anywhere inside it, a value not yet known: an
 * entry of a list naming another resource's output (`{ userId: user.id }`)
 * is sent whole, with the placeholder in place of the id. Such a property
 * is judged at apply, when it is known, as one unknown at the top is.
 */
export function holdsUnknown(value: unknown, depth = 0): boolean {
  if (value === UNKNOWN) return true;
  // Inputs come from a program's declarations; no real one nests this deep, and the walk stays bounded.
  if (value === null || typeof value !== "object" || depth > 64) return false;
  return (Array.isArray(value) ? value : Object.values(value)).some((item) => holdsUnknown(item, depth + 1));
}

/**
 * A value's JSON text with every object's keys in sorted order, so that equal
 * values give the same text whatever order their keys came in (the engine
 * sends a resource's properties sorted; a program declares them in its own
 * order). Undefined members are left out, and values with `toJSON` written as
 * it says, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  // A sorted copy given to JSON.stringify: twice as fast as writing the text member by member.
  return JSON.stringify(withSortedKeys(value)) ?? "null";
}

/** A copy of `value` with every object's keys in sorted order (values with `toJSON` kept as they are). */
function withSortedKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  if (Array.isArray(value)) return value.map(withSortedKeys);
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = withSortedKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/**
 * The API request body for the declared properties (all of them, or only
 * `only`): wire names, `toApi` hooks, and no local properties (owners, options).
 * A name in `only` that `args` no longer declares is sent as its `unsetAs` value.
 */
export function requestBody(
  fields: Partial<Record<string, FieldTraits>> | undefined,
  args: Record<string, unknown>,
  only?: ReadonlySet<string>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const write = (name: string, value: unknown, traits: FieldTraits | undefined) => {
    if (traits?.toApi) traits.toApi(value, body);
    else body[apiFieldName(name, traits)] = value;
  };
  for (const [name, value] of Object.entries(args)) {
    const traits = fields?.[name];
    if (value === undefined || traits?.local || (only && !only.has(name))) continue;
    write(name, value, traits);
  }
  // A changed property no longer declared is cleared, where the field says how (`unsetAs`).
  for (const name of only ?? []) {
    const traits = fields?.[name];
    if (args[name] === undefined && traits?.unsetAs !== undefined && !traits.local) write(name, traits.unsetAs, traits);
  }
  return body;
}

/**
 * The paths under which two values differ (`variables.TOKEN.value`,
 * `labels["a b"]`): down through plain objects, a list or any other value
 * compared whole, with `same`.
 */
export function differingPaths(before: unknown, after: unknown, path: string, same: (a: unknown, b: unknown) => boolean): string[] {
  const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
  if (!isObject(before) || !isObject(after)) return same(before, after) ? [] : [path];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].flatMap((key) => differingPaths(before[key], after[key], /^[A-Za-z_]\w*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`, same));
}
