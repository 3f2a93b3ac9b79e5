/**
 * Rules across the resources of one program, checked where they are declared.
 *
 * A dynamic provider's `check` sees one resource at a time, so it cannot tell
 * that a program declares a sixth registry in a group that allows five. The
 * resource classes' constructors, however, all run in the program's own
 * process before anything is sent: they tally their declarations here, and
 * the one that breaks a limit throws, which fails `pulumi preview` with a
 * message that names the rule.
 *
 * Keys: a plain value (`"acme"`, `12`) counts by value (paths
 * case-insensitively); a Pulumi Output or Promise counts by identity, which
 * still catches the usual `registry: registry.registryId` (the same Output
 * object every time). Two spellings of one owner (a path and its numeric id)
 * are not recognised as the same; the server's own limit still applies then.
 */

import * as pulumi from "@pulumi/pulumi";

type Tally = Map<unknown, number>;
const tallies = new Map<string, Tally>();
const claims = new Map<string, Map<unknown, Set<string>>>();
const aliases = new Map<string, Map<unknown, unknown>>();

/**
 * The key a declared value counts under, or undefined when it cannot be told
 * (absent). With the resource's `connection` (./connections.ts), a plain
 * value counts per server: `acme` on two servers is two groups. A connection
 * whose URL is not a plain value yet cannot be told apart: no key.
 */
export function declarationKey(value: unknown, connection?: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  const key = typeof value === "string" ? value.toLowerCase() : value;
  if (connection === undefined || connection === null || typeof key === "object") return key;
  const url = (connection as { url?: unknown }).url;
  return typeof url === "string" ? `${url.replace(/\/+$/, "").toLowerCase()}\n${String(key)}` : undefined;
}

/**
 * Counts one more declaration of `rule` under `key`; throws `message` when
 * that makes more than `limit`. Nothing is counted for an unknown key.
 */
export function countDeclaration(rule: string, key: unknown, limit: number, message: () => string): void {
  if (key === undefined) return;
  let tally = tallies.get(rule);
  if (!tally) tallies.set(rule, (tally = new Map()));
  const count = (tally.get(key) ?? 0) + 1;
  tally.set(key, count);
  if (count > limit) throw new Error(message());
}

/**
 * Counts a declaration of a resource its owner holds one of (a setting, a
 * star): a second for the same owner would overwrite the first on every up,
 * and take it away on destroy. `what` reads before the owner ("cleanup
 * policy for"); `rule` says why there is one.
 */
export function declareOnePerOwner(
  declared: { kind: string; name: string; owner: "group" | "project"; value: unknown; connection: unknown },
  what: string,
  rule = `a ${declared.owner} has one`,
): void {
  const { kind, name, owner, value, connection } = declared;
  countDeclaration(`one ${kind} per ${owner}`, declarationKey(value, connection), 1, () => `${kind} ${name}: ${owner}: the program declares a second ${what} ${owner} ${String(value)}; ${rule}.`);
}

/** Claims `value` as unique under `key` for `rule`; throws `message` when it is already claimed. */
export function claimUnique(rule: string, key: unknown, value: string, message: () => string): void {
  if (key === undefined) return;
  let byKey = claims.get(rule);
  if (!byKey) claims.set(rule, (byKey = new Map()));
  let taken = byKey.get(key);
  if (!taken) byKey.set(key, (taken = new Set()));
  if (taken.has(value)) throw new Error(message());
  taken.add(value);
}

/** Records that `from` (a registry's id Output, say) belongs to `to` (its group's key), for later lookups. */
export function recordAlias(kind: string, from: unknown, to: unknown): void {
  if (from === undefined || to === undefined) return;
  let map = aliases.get(kind);
  if (!map) aliases.set(kind, (map = new Map()));
  map.set(from, to);
}

export function aliasOf(kind: string, from: unknown): unknown {
  return from === undefined ? undefined : aliases.get(kind)?.get(from);
}

/**
 * Claims for the declaration `name` the one object its `values` name (a
 * link's group, name and provider): a second declaration of the program
 * naming the same object (the same `key` of the values) throws `message`,
 * given the first one's name. Plain values are checked at once (a preview of
 * a new stack); values that are Outputs once they are known.
 */
export function claimObject(rule: string, name: string, values: readonly unknown[], key: (values: unknown[]) => unknown, message: (first: string, values: unknown[]) => string): void {
  const claim = (known: unknown[]) => {
    const at = JSON.stringify(key(known));
    const first = aliasOf(rule, at);
    if (first !== undefined) throw new Error(message(String(first), known));
    recordAlias(rule, at, name);
  };
  const plain = (value: unknown) => value === undefined || value === null || typeof value === "string" || typeof value === "number";
  if (values.every(plain)) claim([...values]);
  else pulumi.all([...values]).apply((known) => claim(known));
}

/** Forgets every tally (tests that declare several programs in one process). */
export function resetDeclarations(): void {
  tallies.clear();
  claims.clear();
  aliases.clear();
}
