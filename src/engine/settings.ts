/**
 * Settings resources: resources that manage some settings of an object that
 * exists without them (a group's settings, the instance's application
 * settings), declared with `defineSettingsResource`. They never create or
 * delete that object. `settingsLifecycle` below, which the generic engine
 * (./provider.ts) runs for this kind (./objects.ts has the other), gives every
 * such resource the same life cycle:
 *
 * - create: `locate` reads the object (one GET); the current values
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
 * - import: create, once `locate` finds the object the id names.
 *
 * Prior values are kept in state in two outputs: `restoreValues`, and
 * `restoreSecrets` for fields with the `secret` trait, which is a secret
 * output. A prior value of `null` means "unset" and is written back as null.
 * A field the server never returns (`writeOnly`) has no readable prior value
 * and is left as it is on delete, unless the resource's `fetchPrior` fetches it
 * apart (an avatar: one extra GET, only when the field is first managed).
 */
import { z } from "zod";
import { field } from "../api/fields";
import { type AnySettingsResource, type EngineContext, type Located, type PriorValues, settingsOutputs } from "./definition";
import { checkImportedId } from "./errors";
import type { EngineParts, Lifecycle } from "./types";
import { mayHaveBeenApplied } from "../client";
import { PartialCreateError } from "./errors";
import { withoutEngineKeys } from "./envelope";

type Args = Record<string, unknown>;

/** The schema piece every settings resource declares: an option of the provider, never sent. */
export const restoreOnDelete = field(z.boolean().optional(), { local: true });


/** The outputs that hold prior values; a refresh keeps them as recorded. */
export const PRIOR_VALUE_OUTPUTS = Object.keys(settingsOutputs) as (keyof typeof settingsOutputs)[];

/** The prior values recorded in a resource's state (both outputs merged). */
export function recordedPriorValues(props: Record<string, unknown>): PriorValues {
  const plain = props.restoreValues;
  const secret = props.restoreSecrets;
  return {
    ...(isRecord(plain) ? plain : {}),
    ...(isRecord(secret) ? secret : {}),
  };
}

/**
 * The two outputs for a set of prior values, the secret ones apart. An empty
 * `restoreSecrets` is left out: encrypted, even `{}` costs the state 200 bytes.
 */
export function priorValueOutputs(prior: PriorValues, isSecret: (property: string) => boolean): Record<string, PriorValues> {
  const restoreValues: PriorValues = {};
  const restoreSecrets: PriorValues = {};
  for (const [name, value] of Object.entries(prior)) {
    if (value === undefined) continue;
    (isSecret(name) ? restoreSecrets : restoreValues)[name] = value;
  }
  return Object.keys(restoreSecrets).length > 0 ? { restoreValues, restoreSecrets } : { restoreValues };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The engine parts, with the declaration known to be a settings resource's. */
type SettingsParts = EngineParts & { definition: AnySettingsResource };

/** create, update and delete of a settings resource, and the fields a program let go of. */
export function settingsLifecycle(engineParts: EngineParts, definition: AnySettingsResource): Lifecycle {
  const parts: SettingsParts = { ...engineParts, definition };
  return {
    create: (ctx, args) => createSettings(parts, ctx, args),
    async importing(ctx, args, importId) {
      checkImportedId(definition, importId, (await definition.locate(ctx, args)).id);
      return await createSettings(parts, ctx, args);
    },
    update: (ctx, id, olds, args) => updateSettings(parts, ctx, id, olds, args),
    delete: (ctx, id, props) => restorePriorValues(parts, ctx, id, props),
    released,
    // Never a new object: only the owner's inputs replace, and a settings resource names no deletion order.
    replacing: (changed) => ({ replaces: changed.filter((name) => engineParts.traits(name).replaceOnChange), deleteBeforeReplace: false }),
  };
}

/** The live values of the given properties: what a settings resource gives back on delete. */
async function priorValuesOf({ definition, traits, liveValueOf }: SettingsParts, ctx: EngineContext, names: readonly string[], located: Located): Promise<PriorValues> {
  const prior: PriorValues = {};
  for (const name of names) {
    const field = traits(name);
    const fetchPrior = definition.fetchPrior?.[name];
    if (fetchPrior) {
      prior[name] = (await fetchPrior(ctx, located)) ?? null;
      continue;
    }
    if (field.writeOnly && !field.fromApi) continue; // the server never shows it: nothing to give back
    const value = liveValueOf(name, field, located.live);
    prior[name] = value === undefined ? null : value;
  }
  return prior;
}

function priorOutputs({ traits }: EngineParts, prior: PriorValues): Record<string, PriorValues> {
  return priorValueOutputs(prior, (name) => traits(name).secret === true);
}

/** create for a settings resource: read the object, record prior values, write what differs. */
async function createSettings(parts: SettingsParts, ctx: EngineContext, args: Args) {
  const { definition, apiProperties, differingFromLive, outputsFor, fingerprintOutput } = parts;
  const located = await definition.locate(ctx, args as never);
  const declared = apiProperties.filter((name) => args[name] !== undefined);
  const prior = await priorValuesOf(parts, ctx, declared, located);
  const changed = differingFromLive(args, located.live);
  let live = located.live;
  if (changed.length) {
    try {
      live = await definition.update(ctx, located.id, args as never, new Set(changed), args as never);
    } catch (error) {
      // Refused: nothing was written, nothing to record. But a write whose answer was lost may have been
      // applied; the next `up` would then read the new values as the prior ones, and destroy could never
      // give the old ones back. So the prior values are recorded now, with the values as they were read.
      if (!mayHaveBeenApplied(error)) throw error;
      throw new PartialCreateError(
        `${(error as Error).message} The settings may have been written all the same; the values they had before are recorded, ` +
          "and the next `pulumi up` writes the declared ones again.",
        located.id,
        { ...outputsFor(args, located.live), ...priorOutputs(parts, prior) },
      );
    }
  }
  return { id: located.id, outs: { ...outputsFor(args, live), ...priorOutputs(parts, prior), ...fingerprintOutput(args) } };
}

/**
 * update for a settings resource: newly declared fields get their prior
 * value read first; fields no longer declared get theirs back.
 */
async function updateSettings(parts: SettingsParts, ctx: EngineContext, id: string, olds: Args, args: Args) {
  const { definition, propertyNames, apiProperties, traits, changedProperties, differingFromLive, outputsFor, fingerprintOutput } = parts;
  const prior = recordedPriorValues(olds);
  const changed = new Set(changedProperties(olds, args));
  const newlyDeclared = apiProperties.filter((name) => args[name] !== undefined && !(name in prior) && olds[name] === undefined);
  if (newlyDeclared.length) {
    const current = await definition.locate(ctx, args as never);
    Object.assign(prior, await priorValuesOf(parts, ctx, newlyDeclared, current));
    for (const name of newlyDeclared) changed.delete(name);
    for (const name of differingFromLive(args, current.live, newlyDeclared)) changed.add(name);
  }
  const letGo = released(olds, args);
  const body: Args = { ...args };
  if (args.restoreOnDelete !== false) {
    for (const name of letGo) {
      body[name] = prior[name];
      changed.add(name);
    }
  }
  for (const name of letGo) delete prior[name];
  const toWrite = [...changed].filter((name) => !traits(name).local);
  let outs: Args;
  if (toWrite.length) {
    const live = await definition.update(ctx, id, body as never, new Set(toWrite), withoutEngineKeys(olds) as never);
    outs = outputsFor(args, live);
  } else {
    // Only provider options changed: nothing to send; the recorded values stand.
    outs = Object.fromEntries(Object.entries(withoutEngineKeys(olds)).filter(([name]) => !propertyNames.includes(name) || args[name] !== undefined));
    for (const name of propertyNames) if (traits(name).local && args[name] !== undefined) outs[name] = args[name];
  }
  return { ...outs, ...priorOutputs(parts, prior), ...fingerprintOutput(args) };
}

/** delete for a settings resource: the prior values go back, in one request. */
async function restorePriorValues({ definition, apiProperties }: SettingsParts, ctx: EngineContext, id: string, props: Args): Promise<void> {
  if (props.restoreOnDelete === false) return;
  const prior = Object.fromEntries(Object.entries(recordedPriorValues(props)).filter(([name]) => apiProperties.includes(name)));
  const names = Object.keys(prior);
  if (names.length === 0) return;
  await definition.update(ctx, id, prior as never, new Set(names), props as never);
}

/** Fields with a recorded prior value that the program no longer declares: given back (or let go), so a change. */
function released(olds: Args, declared: Args): string[] {
  return Object.keys(recordedPriorValues(olds)).filter((name) => declared[name] === undefined);
}
