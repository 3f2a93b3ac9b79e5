/** Secret values (and the token) never appear in messages, even when a server echoes them. */
import { connectionSecrets } from "./process-connections";
import { recordedPriorValues } from "./settings";

type Args = Record<string, unknown>;

/**
 * The secret values this process has seen: those of the properties a program gave as secrets (./provider.ts),
 * which another resource's record of the server's objects may show (an exclusive set's `unexpected`), and the
 * value a takeover overwrites in a secret field (./import.ts), which a refusal of the takeover may repeat.
 */
const seenSecrets = new Set<string>();

/** Masks these values in every later message of the process. */
export function noteSecretValues(value: unknown): void {
  for (const text of stringsIn(value)) seenSecrets.add(text);
}

/** For each visible property that holds secret values, how to find them (the `secretParts` trait). */
export type SecretValuesOf = Record<string, (value: unknown) => string[]>;

/**
 * The message with the token and every secret value of the given property sets
 * (`known`: the declared inputs, and on update the recorded state) masked.
 */
export function redact(message: string, known: Args[], secretProperties: readonly string[], secretValuesOf: SecretValuesOf = {}): string {
  const secrets = [...connectionSecrets(), ...seenSecrets];
  for (const args of known) {
    const prior = recordedPriorValues(args);
    for (const name of secretProperties) {
      // A secret property may be structured (a list of variables): every string in it is secret.
      secrets.push(...stringsIn(args[name]));
      // A settings resource's prior value of a secret setting is as secret.
      secrets.push(...stringsIn(prior[name]));
    }
    // Visible properties that hold secret values (schedule variables): only those values.
    for (const [name, valuesOf] of Object.entries(secretValuesOf)) if (args[name] !== undefined) secrets.push(...valuesOf(args[name]));
  }
  return masked(message, secrets);
}

/** The text with every secret value this process has seen (`noteSecretValues`) masked: for a record of the server's objects. */
export function withoutSeenSecrets(text: string): string {
  return seenSecrets.size === 0 ? text : masked(text, seenSecrets);
}

function masked(text: string, secrets: Iterable<string>): string {
  // Longest first, so a secret that contains another is masked whole.
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
