/**
 * The inputs of a declaration from the object as the resource itself reads it:
 * each property's live value the way the engine compares it (the resource's
 * own `fromApi` and field names, src/engine/properties.ts), so the program
 * holds exactly what the server holds and the first preview overwrites
 * nothing. What the resource would refuse, and its own defaults, are left out.
 */
import equal from "fast-deep-equal";
import type { AnyResourceDefinition, FieldTraits, Live } from "../engine/definition";
import { propertyParts } from "../engine/properties";
import { isReference } from "../engine/estate";
import type { ImportValue } from "./values";

export interface InputsOptions {
  /** Properties never declared from the live object (identity, deprecated aliases, gated settings), each with why. */
  leaveOut?: ReadonlyMap<string, string>;
  /** Write-only secrets the declaration must carry: each becomes a config entry, never a value. */
  secrets?: ReadonlyMap<string, ImportValue>;
}

export interface Inputs {
  args: Record<string, ImportValue>;
  notes: string[];
  /** Set when the object cannot be declared as the server holds it: why. */
  refused?: string;
}

/**
 * The declaration of `live`: `base` (the owner and the address, as the program
 * names them) and every API property the server shows, in the schema's order.
 */
export function inputsFromLive(definition: AnyResourceDefinition, live: Live, base: Record<string, ImportValue>, options: InputsOptions = {}): Inputs {
  const parts = propertyParts(definition);
  const shape = definition.schema.shape as Record<string, { safeParse(value: unknown): { success: boolean; data?: unknown } }>;
  const notes: string[] = [];
  const args: Record<string, ImportValue> = {};
  for (const name of parts.propertyNames) {
    if (name in base) {
      args[name] = base[name];
      continue;
    }
    if (options.secrets?.has(name)) {
      args[name] = options.secrets.get(name);
      continue;
    }
    const traits = parts.traits(name);
    if (traits.local || traits.writeOnly || traits.secret || traits.observed || traits.ignoreInDiff) continue;
    const value = parts.liveValueOf(name, traits, live);
    // A property that may hold secret values is written only when it holds none (a hook's URL without credentials).
    if (traits.secretParts && hasSecretParts(traits, value)) continue;
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    const why = options.leaveOut?.get(name);
    if (why !== undefined) {
      notes.push(`${name} is left unmanaged: ${why}.`);
      continue;
    }
    if (!shape[name]?.safeParse(value).success) {
      notes.push(`${name} is left unmanaged: the server's value is not one the resource accepts.`);
      continue;
    }
    const byDefault = shape[name].safeParse(undefined);
    if (byDefault.success && byDefault.data !== undefined && equal(byDefault.data, value)) continue;
    args[name] = value;
  }
  const liveValue = (name: string) => {
    const traits = parts.traits(name);
    if (traits.local || traits.writeOnly || traits.secret) return undefined;
    const value = parts.liveValueOf(name, traits, live);
    return traits.secretParts && hasSecretParts(traits, value) ? undefined : value;
  };
  return validated(definition, args, notes, new Set(options.secrets?.keys() ?? []), new Set(Object.keys(base)), liveValue);
}

/** The resource's own rules across fields: a property they refuse is left out (noted), unless it is part of the address. */
function validated(
  definition: AnyResourceDefinition,
  args: Record<string, ImportValue>,
  notes: string[],
  secrets: ReadonlySet<string>,
  fixed: ReadonlySet<string>,
  liveValue: (name: string) => unknown,
): Inputs {
  for (let round = 0; round < 6; round++) {
    // Secrets are left out of the probe: the rules judge the values the server holds, and a secret's absence is the config's to fill.
    const probe = Object.fromEntries(Object.entries(args).flatMap(([name, value]) => (secrets.has(name) ? [] : [[name, asData(value)]])));
    const parsed = definition.schema.safeParse(probe);
    const failing = new Set<string>();
    const reasons = new Map<string, string>();
    if (!parsed.success) for (const issue of parsed.error.issues) failing.add(String(issue.path[0] ?? ""));
    else {
      for (const failure of definition.validate?.(parsed.data, { recorded: {}, importing: true }) ?? []) {
        const name = failure.property.split(".")[0]!;
        failing.add(name);
        reasons.set(name, failure.reason);
      }
    }
    for (const name of secrets) failing.delete(name);
    if (failing.size === 0) return { args, notes };
    // A setting required beside another: the server's value of it (null included) goes with it, else the one that requires it stays out.
    let resolved = false;
    for (const name of [...failing].filter((one) => !(one in args) && !fixed.has(one))) {
      const value = liveValue(name);
      const shape = (definition.schema.shape as Record<string, { safeParse(value: unknown): { success: boolean } } | undefined>)[name];
      if (value !== undefined && shape?.safeParse(value).success) {
        args[name] = value;
        resolved = true;
        continue;
      }
      const reason = reasons.get(name) ?? "";
      const requiring = Object.keys(args).filter((other) => !fixed.has(other) && other !== name && new RegExp(`\\b${other}\\b`).test(reason));
      for (const other of requiring) {
        delete args[other];
        notes.push(`${other} is left unmanaged: the resource requires ${name} beside it, which the server does not show.`);
        resolved = true;
      }
    }
    if (resolved) continue;
    const fatal = [...failing].filter((name) => fixed.has(name) || !(name in args));
    if (fatal.length > 0) return { args, notes, refused: `the resource would refuse ${fatal.sort().join(", ")} as the server holds it` };
    for (const name of [...failing].sort()) {
      delete args[name];
      notes.push(`${name} is left unmanaged: the resource refuses the server's value beside the others.`);
    }
  }
  return { args, notes, refused: "its settings do not validate" };
}

/** The value as the schema sees it: a reference as the server's value it stands for. */
function asData(value: ImportValue): unknown {
  if (isReference(value)) return value.value;
  if (Array.isArray(value)) return value.map(asData);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asData(item)]));
  return value;
}

/** Whether a value of a property with secret parts holds any (a URL's credentials, a schedule's variable values). */
function hasSecretParts(traits: FieldTraits, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  const parts = traits.secretParts!;
  return parts.holdsSecrets ? parts.holdsSecrets(value) : parts.valuesOf(value).length > 0;
}
