/**
 * What the engine knows of a resource's properties, from its declaration
 * alone: their traits, which ones changed, which differ from the live object,
 * their fingerprints, and the state recorded for a live object. The provider
 * (./provider.ts) and the settings life cycle (./settings.ts) share these.
 */
import equal from "fast-deep-equal";
import { type AnyResourceDefinition, type FieldTraits, type Live, outputValues } from "./definition";
import type { PropertyParts } from "./types";
import { apiFieldName, isUnknown } from "./values";

type Args = Record<string, unknown>;

/** The property names and their traits: what the helpers below read of a declaration. */
interface Properties {
  propertyNames: readonly string[];
  propertySet: ReadonlySet<string>;
  /** Each property's place in the declaration. */
  propertyIndex: ReadonlyMap<string, number>;
  fingerprinted: readonly string[];
  traits(name: string): FieldTraits;
}

export function propertyParts(definition: AnyResourceDefinition): PropertyParts {
  const fields = (definition.fields ?? {}) as Record<string, FieldTraits | undefined>;
  const traits = (name: string): FieldTraits => fields[name] ?? {};
  const propertyNames = Object.keys(definition.schema.shape);
  const fingerprinted = propertyNames.filter((name) => traits(name).fingerprint !== undefined);
  const propertySet = new Set(propertyNames);
  const propertyIndex = new Map(propertyNames.map((name, index) => [name, index]));
  const properties: Properties = { propertyNames, propertySet, propertyIndex, fingerprinted, traits };
  const apiProperties = propertyNames.filter((name) => !traits(name).local);
  return {
    definition,
    propertyNames,
    propertySet,
    apiProperties,
    fingerprinted,
    secretProperties: propertyNames.filter((name) => traits(name).secret),
    traits,
    liveValueOf,
    changedProperties: (olds, news) => changedProperties(properties, olds, news),
    differingFromLive: (args, live, names = apiProperties) => differingFromLive(traits, args, live, names),
    outputsFor: (args, live) => outputsFor(definition, properties, args, live),
    fingerprintOutput: (args) => fingerprintOutput(properties, args),
    // One object, not spread into another at each create and update: most kinds have nothing to fingerprint.
    recordedOutputs: (args, live) => {
      const outs = outputsFor(definition, properties, args, live);
      return fingerprinted.length === 0 ? outs : Object.assign(outs, fingerprintOutput(properties, args));
    },
  };
}

/**
 * Properties whose declared value differs from the recorded one, in the
 * declaration's order. Only the names declared now or recorded before can
 * differ, so those are the ones looked at: a resource of many kinds (an
 * integration, 97 properties) declares a few.
 */
function changedProperties({ propertySet, propertyIndex, traits }: Properties, olds: Args, news: Args): string[] {
  const changed: string[] = [];
  for (const name in news) {
    const declared = news[name];
    if (declared === undefined || !propertySet.has(name)) continue;
    const field = traits(name);
    if (field.ignoreInDiff) continue;
    if (field.observed) {
      if (field.observed.pending(declared, olds)) changed.push(name);
      continue;
    }
    if (isUnknown(declared) || (field.fingerprint && field.fingerprint(declared) !== fingerprintsIn(olds)[name]) || !sameValue(field, declared, olds[name])) changed.push(name);
  }
  for (const name in olds) {
    if (news[name] !== undefined || olds[name] === undefined || !propertySet.has(name)) continue;
    // Not managed: unset optional fields never show as changes, unless removing one clears it on the server.
    const unsetAs = traits(name).unsetAs;
    if (unsetAs !== undefined && !sameValue(traits(name), unsetAs, olds[name])) changed.push(name);
  }
  return changed.length < 2 ? changed : changed.sort((a, b) => propertyIndex.get(a)! - propertyIndex.get(b)!);
}

/** Declared API properties whose live value is not the declared one (write-only ones always are). */
function differingFromLive(traits: Properties["traits"], args: Args, live: Live, names: readonly string[]): string[] {
  return names.filter((name) => {
    const declared = args[name];
    if (declared === undefined) return false;
    const field = traits(name);
    return field.writeOnly === true || !sameValue(field, declared, liveValueOf(name, field, live));
  });
}

/**
 * The state recorded for a live object: the declared properties, in the form
 * the user wrote them wherever the server's form means the same, and the
 * computed outputs. Write-only values are kept as last applied.
 */
function outputsFor(definition: AnyResourceDefinition, { propertySet, traits }: Properties, args: Args, live: Live): Args {
  const outs: Args = {};
  // The declared ones only: a resource of many kinds (an integration, 97 properties) declares a few.
  for (const name in args) {
    const declared = args[name];
    if (declared === undefined || !propertySet.has(name)) continue;
    const field = traits(name);
    if (field.local || field.writeOnly) {
      outs[name] = declared;
      continue;
    }
    const liveValue = liveValueOf(name, field, live);
    outs[name] = sameValue(field, declared, liveValue) ? declared : liveValue;
  }
  return Object.assign(outs, outputValues(definition.outputs, live, args));
}

function liveValueOf(name: string, field: FieldTraits, live: Live): unknown {
  return field.fromApi ? field.fromApi(live) : live[apiFieldName(name, field)];
}

/** The `fingerprints` output for the declared local content, when the program declares any (an empty one is not kept in the state). */
function fingerprintOutput(properties: Properties, args: Args): Args {
  const fingerprints = fingerprintsOf(properties, args);
  return fingerprints && Object.keys(fingerprints).length > 0 ? { fingerprints } : {};
}

/** The fingerprints of the declared local content (files), by property. */
function fingerprintsOf({ fingerprinted, traits }: Properties, args: Args): Record<string, string> | undefined {
  if (fingerprinted.length === 0) return undefined;
  const result: Record<string, string> = {};
  for (const name of fingerprinted) {
    const declared = args[name];
    if (declared !== undefined && !isUnknown(declared)) result[name] = traits(name).fingerprint!(declared);
  }
  return result;
}

function fingerprintsIn(props: Args): Record<string, unknown> {
  const recorded = props.fingerprints;
  return recorded && typeof recorded === "object" ? (recorded as Record<string, unknown>) : {};
}

function sameValue(field: FieldTraits, declared: unknown, recorded: unknown): boolean {
  if (equal(declared, recorded)) return true;
  return recorded !== undefined && field.sameValue !== undefined && field.sameValue(declared, recorded);
}
