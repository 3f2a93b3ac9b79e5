/**
 * check's schema parse, sized to what the program declared (issue 16, the
 * package's own work per call): a strict `z.object` parse walks every entry of
 * the shape, so a resource with hundreds of optional properties
 * (ApplicationSettings: 311) paid for all of them at every check, where a
 * program declares a handful. The parse here runs the strict schema picked to
 * the declared properties plus those that must be looked at even when absent
 * (required ones, and ones with a default), compiled once per set of names.
 * Each property's own schema is the same one, so the result and every issue
 * (paths, messages) are the full parse's; whenever that could differ (a name
 * the schema does not declare, whose issue names the nearest declared one, or
 * refinements on the whole object, which see every property) the full strict
 * schema is parsed as before.
 */
import type { z } from "zod";

type Args = Record<string, unknown>;
type ParseParams = Parameters<z.ZodType["safeParse"]>[1];

export interface DeclaredSchema {
  safeParse(inputs: Args, params?: ParseParams): ReturnType<z.ZodType["safeParse"]>;
}

export function declaredSchema(schema: z.ZodObject): DeclaredSchema {
  const strict = schema.strict();
  // Refinements of the whole object cannot be split (zod refuses to pick such a schema): parse it whole.
  if ((schema._zod.def.checks ?? []).length > 0) return strict;
  const shapeNames = Object.keys(schema.shape);
  const alwaysParsed = new Set(shapeNames.filter((name) => lookedAtWhenAbsent(schema.shape[name] as z.ZodType)));
  const picked = new Map<string, z.ZodType>();
  return {
    safeParse(inputs, params) {
      if (Object.keys(inputs).some((name) => !Object.hasOwn(schema.shape, name))) return strict.safeParse(inputs, params);
      // In the shape's order, as the full parse gives its output.
      const names = shapeNames.filter((name) => alwaysParsed.has(name) || Object.hasOwn(inputs, name));
      const key = names.join("\n");
      let part = picked.get(key);
      if (!part) picked.set(key, (part = strict.pick(Object.fromEntries(names.map((name) => [name, true])) as never) as z.ZodType));
      return part.safeParse(inputs, params);
    },
  };
}

/** A property whose schema refuses a missing value (required) or makes one up (a default): absent, it still counts. */
function lookedAtWhenAbsent(property: z.ZodType): boolean {
  const absent = property.safeParse(undefined);
  return !absent.success || absent.data !== undefined;
}
