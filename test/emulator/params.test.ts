import { describe, expect, it } from "vitest";
import { declareParams, parseBody, parseNestedParams } from "../../src/emulator/params";

describe("nested parameters (Rack)", () => {
  it("expands arrays, hashes and arrays of hashes", () => {
    const params = parseNestedParams(
      new URLSearchParams(
        "scalar=1&list[]=a&list[]=b&hash[key]=v&rows[0][key]=k0&rows[0][value]=v0&rows[1][key]=k1&items[][k]=x&items[][k]=y",
      ),
    );
    expect(params).toEqual({
      scalar: "1",
      list: ["a", "b"],
      hash: { key: "v" },
      rows: { "0": { key: "k0", value: "v0" }, "1": { key: "k1" } },
      items: [{ k: "x" }, { k: "y" }],
    });
  });

  it("ignores keys that would reach the prototype", () => {
    const params = parseNestedParams(new URLSearchParams("__proto__[polluted]=1&a[__proto__][b]=2"));
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(params).toEqual({ a: {} });
  });

  it("parses JSON and form bodies by content type and ignores others", () => {
    expect(parseBody("application/json; charset=utf-8", '{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(parseBody("application/x-www-form-urlencoded", "a=1+2&b[]=x")).toEqual({ a: "1 2", b: ["x"] });
    expect(parseBody("text/plain", "a=1")).toEqual({});
    // Grape keeps a JSON body's members only when it is an object (client-go sends `null` for a call without options).
    expect(parseBody("application/json", "[1]")).toEqual({});
    expect(parseBody("application/json", "null")).toEqual({});
    expect(() => parseBody("application/json", "{")).toThrow();
  });
});

describe("declared parameters (Grape)", () => {
  const spec = {
    name: { type: "string", required: true },
    count: { type: "integer" },
    enabled: { type: "boolean" },
    ids: { type: "integer[]" },
    rows: { type: "hash[]" },
    level: { type: "integer", values: [10, 20] },
    cleared: { type: "integer", nullable: true },
  } as const;

  it("coerces form strings to the declared types", () => {
    const params = declareParams(spec, {
      name: "n",
      count: "42",
      enabled: "true",
      ids: ["1", "2"],
      rows: { "1": { k: "b" }, "0": { k: "a" } },
      level: "20",
      cleared: null,
      ignored: "x",
    });
    expect(params).toEqual({ name: "n", count: 42, enabled: true, ids: [1, 2], rows: [{ k: "a" }, { k: "b" }], level: 20, cleared: null });
  });

  it("reports every problem in Grape's words, joined", () => {
    expect(() => declareParams(spec, { count: "x", level: 30, enabled: "maybe" })).toThrowError(
      expect.objectContaining({
        status: 400,
        body: { error: "name is missing, count is invalid, enabled is invalid, level does not have a valid value" },
      }),
    );
  });

  it("treats null as absent unless the parameter is nullable", () => {
    expect(() => declareParams(spec, { name: null })).toThrowError(expect.objectContaining({ body: { error: "name is missing" } }));
  });

  it("reads an empty value of an integer or boolean as no value, and keeps an empty string", () => {
    // client-go's DeleteProjectOptions{} sends `full_path=&permanently_remove=`.
    expect(declareParams(spec, { name: "", count: "", enabled: "", cleared: "" })).toEqual({ name: "", cleared: null });
    expect(() => declareParams(spec, { name: "n", rows: "" })).toThrowError(expect.objectContaining({ body: { error: "rows is invalid" } }));
  });
});
