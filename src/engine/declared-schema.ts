/**
 * The schema parses of check, create and update, sized to what the program
 * declared (to keep the package's own work per call small): a `z.object` parse
 * walks every entry of the shape, so a resource with hundreds of optional
 * properties (ApplicationSettings: 311) paid for all of them at every check,
 * create and update, where a program declares a handful. The schema used here
 * is picked to the declared properties plus those that must be looked at even
 * when absent (required ones, and ones with a default), made once per set of
 * names. Each property's own schema is the same one, so the result and every
 * issue (paths, messages) are the full parse's; whenever that could differ
 * the full schema is used as before: a name a strict schema does not declare
 * (its issue names the nearest declared one), and refinements on the whole
 * object, which see every property.
 */
import type { z } from "zod";

type Args = Record<string, unknown>;

export interface DeclaredSchema {
  /** The schema that parses these inputs as the full one would. */
  for(inputs: Args): z.ZodType;
}

/** `strict` refuses undeclared names (check); `strip` drops them, as a plain `z.object` does (create, update). */
export function declaredSchema(schema: z.ZodObject, unknownNames: "strict" | "strip"): DeclaredSchema {
  const full: z.ZodObject = unknownNames === "strict" ? schema.strict() : schema;
  // Refinements of the whole object cannot be split (zod refuses to pick such a schema): parse it whole.
  if ((schema._zod.def.checks ?? []).length > 0) return { for: () => full };
  const shapeNames = Object.keys(schema.shape);
  const alwaysParsed = new Set(shapeNames.filter((name) => lookedAtWhenAbsent(schema.shape[name] as z.ZodType)));
  /** The schema for each set of names given (in the order given), and for each set of names picked. */
  const byGivenNames = new Map<string, z.ZodType>();
  const picked = new Map<string, z.ZodType>();
  return {
    for(inputs) {
      // Keyed first by the names as given (a handful), not by walking the whole shape (hundreds) at every call.
      const given = Object.keys(inputs);
      const givenKey = given.join("\n");
      let part = byGivenNames.get(givenKey);
      if (part) return part;
      if (unknownNames === "strict" && given.some((name) => !Object.hasOwn(schema.shape, name))) part = full;
      else {
        // In the shape's order, as the full parse gives its output.
        const names = shapeNames.filter((name) => alwaysParsed.has(name) || Object.hasOwn(inputs, name));
        const key = names.join("\n");
        part = picked.get(key);
        if (!part) picked.set(key, (part = full.pick(Object.fromEntries(names.map((name) => [name, true])) as never) as z.ZodType));
      }
      byGivenNames.set(givenKey, part);
      return part;
    },
  };
}

/** A property whose schema refuses a missing value (required) or makes one up (a default): absent, it still counts. */
function lookedAtWhenAbsent(property: z.ZodType): boolean {
  const absent = property.safeParse(undefined);
  return !absent.success || absent.data !== undefined;
}
