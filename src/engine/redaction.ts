/** Secret values (and the token) never appear in messages, even when a server echoes them. */
import { connectionSecrets } from "./process-connections";
import { recordedPriorValues } from "./settings";
import { masked, seenSecrets, stringsIn } from "./seen-secrets";

type Args = Record<string, unknown>;

/** For each visible property that holds secret values, how to find them (the `secretParts` trait). */
export type SecretValuesOf = Record<string, (value: unknown) => string[]>;

/**
 * The message with the token and every secret value of the given property sets
 * (`known`: the declared inputs, and on update the recorded state) masked.
 */
export function redact(message: string, known: Args[], secretProperties: readonly string[], secretValuesOf: SecretValuesOf = {}): string {
  const secrets = [...connectionSecrets(), ...seenSecrets()];
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
