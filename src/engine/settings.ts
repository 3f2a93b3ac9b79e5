/**
 * Settings resources: resources that manage some settings of an object that
 * exists without them (a group's settings, the instance's application
 * settings). They never create or delete that object. The engine
 * (./provider.ts) gives every such resource the same life cycle:
 *
 * - create: `settings.locate` reads the object (one GET); the current values
 *   of the declared fields are recorded as the *prior values*; only the
 *   fields whose value differs are written (one PUT, none when the object
 *   already holds the declared values: a settings resource adopts by nature).
 * - update: writes the changed fields. A field declared for the first time
 *   has its prior value read first (one GET, only then). A field removed from
 *   the program stops being managed and gets its prior value back in the same
 *   PUT (unless `restoreOnDelete: false`, which leaves it as it is).
 * - delete: writes the prior values back in one PUT, unless the program says
 *   `restoreOnDelete: false`; then it sends nothing.
 * - refresh: reads the object; the prior values stay as recorded.
 *
 * Prior values are kept in state in two outputs: `restoreValues`, and
 * `restoreSecrets` for fields with the `secret` trait, which is a secret
 * output. A prior value of `null` means "unset" and is written back as null.
 * A field the server never returns (`writeOnly`) has no readable prior value
 * and is left as it is on delete.
 */
import { z } from "zod";

/** The schema piece every settings resource declares. */
export const restoreOnDelete = z.boolean().optional();

/** The outputs every settings resource declares (spread into `outputs`). */
export const settingsOutputs = {
  /** Prior values of the managed fields that are not secret, by property name. */
  restoreValues: {},
  /** Prior values of the managed secret fields: a secret output. */
  restoreSecrets: { secret: true },
} as const;

export type PriorValues = Record<string, unknown>;

/** The prior values recorded in a resource's state (both outputs merged). */
export function recordedPriorValues(props: Record<string, unknown>): PriorValues {
  const plain = props.restoreValues;
  const secret = props.restoreSecrets;
  return {
    ...(isRecord(plain) ? plain : {}),
    ...(isRecord(secret) ? secret : {}),
  };
}

/** The two outputs for a set of prior values, the secret ones apart. */
export function priorValueOutputs(prior: PriorValues, isSecret: (property: string) => boolean): Record<string, PriorValues> {
  const restoreValues: PriorValues = {};
  const restoreSecrets: PriorValues = {};
  for (const [name, value] of Object.entries(prior)) {
    if (value === undefined) continue;
    (isSecret(name) ? restoreSecrets : restoreValues)[name] = value;
  }
  return { restoreValues, restoreSecrets };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
