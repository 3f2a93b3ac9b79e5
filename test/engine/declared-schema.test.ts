/**
 * check's schema parse sized to what the program declared
 * (src/engine/declared-schema.ts): the same result and issues as the full
 * strict parse, without looking at properties the program left out; and
 * ApplicationSettings (311 settings) checked through `providers.<Name>` as
 * the engine calls it.
 */
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { declaredSchema } from "../../dist/engine/declared-schema";
import { useEmulator } from "../support";

const server = useEmulator();

beforeAll(async () => {
  await server.configureProviders();
});

/** How often each property's schema was run, by name. */
let looked: Record<string, number> = {};
const counted = <T extends z.ZodType>(name: string, schema: T) =>
  schema.refine(() => {
    looked[name] = (looked[name] ?? 0) + 1;
    return true;
  });

const shape = {
  group: counted("group", z.string().min(1)),
  cadence: counted("cadence", z.number().int().default(7)),
  description: counted("description", z.string().optional()),
  note: counted("note", z.string().nullable().optional()),
  tags: counted("tags", z.array(z.string()).optional()),
  nested: counted("nested", z.object({ on: z.boolean() }).optional()),
};
const schema = z.object(shape);

const cases: Record<string, unknown>[] = [
  { group: "acme" },
  { group: "acme", cadence: 14 },
  { group: "acme", description: "d", note: null },
  { group: "", cadence: 1.5 },
  { cadence: 3 },
  {},
  { group: "acme", tags: ["a", 1] },
  { group: "acme", nested: { on: "yes" } },
  { group: "acme", descripton: "typo" },
  { group: "acme", description: undefined },
];

describe("declaredSchema", () => {
  it.each(["strict", "strip"] as const)("gives the full %s parse's result and issues for every input", (unknownNames) => {
    const declared = declaredSchema(schema, unknownNames);
    for (const inputs of cases) {
      const full = (unknownNames === "strict" ? schema.strict() : schema).safeParse(inputs, { reportInput: true });
      const part = declared.for(inputs).safeParse(inputs, { reportInput: true });
      expect(part.success).toBe(full.success);
      if (full.success) {
        expect(part.data).toEqual(full.data);
        expect(Object.keys(part.data as object)).toEqual(Object.keys(full.data as object));
      } else expect(part.error!.issues).toEqual(full.error.issues);
    }
  });

  it("runs the schemas of the declared properties and of those needed when absent (required, defaulted), not the others", () => {
    const declared = declaredSchema(schema, "strict");
    const inputs = { group: "acme", description: "d" };
    looked = {};
    expect(declared.for(inputs).safeParse(inputs).success).toBe(true);
    expect(looked).toEqual({ group: 1, cadence: 1, description: 1 });
  });

  it("parses the whole object where a refinement of it sees every property", () => {
    const refined = z.object(shape).refine((value) => value.description !== undefined || value.note === undefined, { message: "note needs a description" });
    const declared = declaredSchema(refined, "strict");
    const inputs = { group: "acme", note: "n" };
    looked = {};
    const result = declared.for(inputs).safeParse(inputs);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.message)).toEqual(["note needs a description"]);
    expect(Object.keys(looked).sort()).toEqual(Object.keys(shape).sort());
  });
});

describe("ApplicationSettings check (311 settings)", () => {
  const check = (inputs: Record<string, unknown>) => providers.ApplicationSettings.check({}, inputs);

  it("accepts the declared settings and gives them back, nothing added", async () => {
    const result = await check({ signupEnabled: false, maxAttachmentSize: 20 });
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toEqual({ signupEnabled: false, maxAttachmentSize: 20 });
  });

  it("refuses a declared setting of the wrong type, and a misspelt one naming the nearest", async () => {
    const wrong = await check({ signupEnabled: "no" });
    expect(wrong.failures?.map((failure) => failure.reason).join("\n")).toMatch(/signupEnabled/);
    const misspelt = await check({ signupEnabld: false });
    expect(misspelt.failures?.map((failure) => failure.reason).join("\n")).toMatch(/signupEnabled/);
  });
});
