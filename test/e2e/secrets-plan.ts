/**
 * What the secrets test plants, derived from the code's own declarations: the
 * fields each resource declares secret (`secret: true` traits), per slug for
 * GroupIntegration, plus the token. A secret field added later is planted
 * automatically when it takes a string; a field the plan cannot plant fails
 * the test by name, so none is skipped silently.
 *
 * Every planted value is distinct and carries a marker (`plnt007z3f9a1c2e`):
 * letters and digits only, so it reads the same in JSON, URLs and logs, and a
 * search finds it in any text that holds the value or a part of it.
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { Declaration } from "./programs/secrets/index";
// The code's declarations, from the build the program runs.
import { definitions, type ResourceKind } from "../../dist/resources/index";
import { INTEGRATION_SLUGS, integrationSettings } from "../../dist/resources/group-integration";
import type { FieldTraits } from "../../dist/engine/definition";
import { KIND_TESTS } from "../kinds/index.mts";

export type { Declaration };

/** One value planted somewhere: in a field, the token, a prior value on the server, an out-of-band edit. */
export interface Planted {
  marker: string;
  value: string;
  /** `GroupIntegration slack.webhook (set B, from config)`. */
  what: string;
  /** Made by the server (a DSN), not planted: searched for as it is, since it carries no marker. */
  serverMade?: boolean;
}

export const MARKER = /plnt\d{3}z[0-9a-f]{8}/g;

export class Plantings {
  readonly all: Planted[] = [];

  /** A new distinct value; `shape` says whether the field wants a URL, or makes the value of the marker. */
  plant(what: string, shape: "plain" | "url" | ((marker: string) => string) = "plain"): string {
    const marker = `plnt${String(this.all.length).padStart(3, "0")}z${randomBytes(4).toString("hex")}`;
    const value = typeof shape === "function" ? shape(marker) : shape === "url" ? `https://secrets.example.com/hooks/${marker}` : marker;
    this.all.push({ marker, value, what });
    return value;
  }

  /** A secret the server made (an error-tracking DSN, its key): searched for like a planted value. */
  receive(value: string, what: string): void {
    if (!this.all.some((planted) => planted.value === value)) this.all.push({ marker: value, value, what, serverMade: true });
  }

  /** The server-made secrets received so far. */
  get serverMade(): Planted[] {
    return this.all.filter((planted) => planted.serverMade);
  }

  byMarker(marker: string): Planted | undefined {
    return this.all.find((planted) => planted.marker === marker);
  }
}

/** The secret fields a resource kind declares (`secret: true`), by property name. */
export function secretFieldsOf(kind: ResourceKind): string[] {
  const fields = (definitions[kind].fields ?? {}) as Record<string, FieldTraits | undefined>;
  // A visible property holding secret values (schedule variables) counts too: its values are planted (STRUCTURED).
  return Object.keys(fields).filter((name) => fields[name]?.secret === true || fields[name]?.secretParts !== undefined);
}

/** Every secret field of the code, as `Kind.field`, and `GroupIntegration <slug>.field` per slug that takes it. */
export function secretFieldsInCode(): string[] {
  const result: string[] = [];
  for (const kind of Object.keys(definitions) as ResourceKind[]) {
    const secret = secretFieldsOf(kind);
    if (kind === "GroupIntegration") {
      for (const slug of INTEGRATION_SLUGS) for (const field of integrationSettings(slug)) if (secret.includes(field)) result.push(`GroupIntegration ${slug}.${field}`);
    } else {
      for (const field of secret) result.push(`${kind}.${field}`);
    }
  }
  return result.sort();
}

/** Resources whose settings are read back and kept as prior values: their secret fields also get a planted prior value. */
export const SETTINGS_KINDS = (Object.keys(definitions) as ResourceKind[]).filter((kind) => definitions[kind].kind === "settings");

// ---------------------------------------------------------------------------
// The declarations, before their secrets are planted: each kind's (../kinds)

/** Where a kind's structured secret field (a schedule's variables) takes its secret strings. */
const structuredOf = (kind: ResourceKind, field: string) => {
  const secrets = KIND_TESTS.get(kind)?.secrets;
  return secrets && "declarations" in secrets ? secrets.structured?.[field] : undefined;
};

/** A field's value: plain when the schema takes it, else a URL (webhooks). */
function shapeOf(kind: ResourceKind, field: string): "plain" | "url" {
  const schema = (definitions[kind].schema as z.ZodObject).shape[field] as z.ZodType;
  return schema.safeParse("plnt000z00000000").success ? "plain" : "url";
}

/** Where a secret field's planted strings go in the declaration's arguments. */
function pathsOf(kind: ResourceKind, field: string): (string | number)[][] {
  const structured = structuredOf(kind, field);
  if (structured) return structured;
  const schema = (definitions[kind].schema as z.ZodObject).shape[field] as z.ZodType;
  if (!schema.safeParse("plnt000z00000000").success && !schema.safeParse("https://secrets.example.com/x").success) {
    throw new Error(`the secrets test does not know how to plant ${kind}.${field} (it takes no string): say where in its kind's module in test/kinds (secrets.structured)`);
  }
  return [[field]];
}

export interface PlantedField {
  /** `GroupIntegration slack.webhook`, `Upstream.password`. */
  field: string;
  value: string;
  viaConfig: boolean;
}

/**
 * The declarations of one set of secrets: every kind, every slug that takes a
 * secret, a fresh planted value in every secret string. Values alternate
 * between the stack config and the program's run time (`configFirst` says
 * which comes first, so a rotation swaps them). Returns the declarations, the
 * config secrets to set, and what was planted where.
 */
export function declarationsWithSecrets(plantings: Plantings, set: string, configFirst: boolean) {
  const declarations: Declaration[] = [];
  const config: Record<string, string> = {};
  const fields: PlantedField[] = [];
  let index = 0;
  const plantInto = (declaration: Declaration, kind: ResourceKind, field: string, label: string, planted?: (marker: string) => string) => {
    for (const path of pathsOf(kind, field)) {
      const viaConfig = index++ % 2 === (configFirst ? 0 : 1);
      const value = plantings.plant(`${label}${path.length > 1 ? ` ${path.join(".")}` : ""} (set ${set}, ${viaConfig ? "stack config" : "program run time"})`, planted ?? shapeOf(kind, field));
      const key = `${set.toLowerCase()}${String(index).padStart(3, "0")}`;
      if (viaConfig) config[key] = value;
      // A structured field's values (a schedule variable's) are as secret as the program gives them: a run-time one is wrapped.
      const wrapped = structuredOf(kind, field) !== undefined;
      declaration.secrets.push({ path, from: viaConfig ? { config: key } : { runtime: value, ...(wrapped ? { wrapped } : {}) } });
      fields.push({ field: label, value, viaConfig });
    }
  };

  for (const kind of Object.keys(definitions) as ResourceKind[]) {
    const secret = secretFieldsOf(kind);
    const tests = KIND_TESTS.get(kind)?.secrets;
    if (!tests || !("declarations" in tests)) {
      const outputs = definitions[kind].outputs as Record<string, { secret?: boolean }>;
      const secretOutputs = Object.keys(outputs).filter((name) => outputs[name]?.secret && name !== "restoreSecrets");
      if (tests && secret.length === 0 && secretOutputs.length === 0) continue;
      throw new Error(`the secrets test has no declaration of ${kind}: add one to its module in test/kinds (only a kind without secrets may say why it has none)`);
    }
    for (const base of tests.declarations) {
      const planted = secret.filter((field) => base.fields === undefined || base.fields.includes(field));
      // A declaration of some of the kind's fields (one integration slug) is there for its secrets.
      if (base.fields !== undefined && planted.length === 0) continue;
      const declaration: Declaration = { kind, name: base.name, args: structuredClone(base.args), secrets: [] };
      for (const field of planted) plantInto(declaration, kind, field, `${base.label ?? kind}.${field}`, base.planted?.[field]);
      declarations.push(declaration);
    }
  }
  // The program declares them in order: the registry before its upstream.
  declarations.sort((a, b) => Number(a.kind === "Upstream") - Number(b.kind === "Upstream"));
  return { declarations, config, fields };
}
