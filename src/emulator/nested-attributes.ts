/**
 * Rails' `accepts_nested_attributes_for ..., allow_destroy: true`, as the
 * API's lists of hashes reach it (a protected branch's `allowed_to_push`, a
 * protected environment's `deploy_access_levels`): an entry with an `id`
 * changes or destroys that record (404 when the list holds none of that id),
 * one without adds one, and a `_destroy` without an id does nothing.
 */
import { paramError, recordNotFound } from "./errors";

export interface NestedChange {
  id?: number;
  destroy: boolean;
}

/** The list with the changes applied, the records copied first: nothing changes until the caller keeps the result. */
export function applyNestedAttributes<R extends { id: number }, C extends NestedChange>(
  current: readonly R[],
  changes: readonly C[],
  apply: { change(record: R, change: C): void; add(change: C): R | undefined },
): R[] {
  const next = current.map((record) => ({ ...record }));
  for (const change of changes) {
    if (change.id === undefined) {
      const added = change.destroy ? undefined : apply.add(change);
      if (added) next.push(added);
      continue;
    }
    const index = next.findIndex((record) => record.id === change.id);
    if (index < 0) throw recordNotFound();
    if (change.destroy) next.splice(index, 1);
    else apply.change(next[index]!, change);
  }
  return next;
}

/** An integer of one entry (`allowed_to_push[][access_level]`), as Grape coerces it: absent or null is undefined, another value 400. */
export function integerOf(raw: Record<string, unknown>, key: string, param: string): number | undefined {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === "number" ? value : typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number)) throw paramError(`${param}[${key}] is invalid`);
  return number;
}
