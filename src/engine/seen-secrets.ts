/**
 * The secret values this process has seen, masked in every message it
 * writes: those of the properties a program gave as secrets (./provider.ts),
 * which another resource's record of the server's objects may show (an
 * exclusive set's `unexpected`) or a warning may quote, and the value a
 * takeover overwrites in a secret field (./import.ts), which a refusal of the
 * takeover may repeat. A module of its own, importing nothing, so the log
 * (./engine-log.ts) can mask them too.
 */

const seen = new Set<string>();

/** Masks these values (every string in `value`) in every later message of the process. */
export function noteSecretValues(value: unknown): void {
  for (const text of stringsIn(value)) seen.add(text);
}

/** The values noted so far. */
export function seenSecrets(): Iterable<string> {
  return seen;
}

/** The text with every secret value this process has seen masked. */
export function withoutSeenSecrets(text: string): string {
  return seen.size === 0 ? text : masked(text, seen);
}

/** The text with each of `secrets` (of four characters or more) masked, longest first, so a secret that contains another is masked whole. */
export function masked(text: string, secrets: Iterable<string>): string {
  let result = text;
  for (const value of [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) result = result.split(value).join("[secret]");
  return result;
}

/** Every string in a value, however deeply nested. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}
