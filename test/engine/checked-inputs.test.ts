/**
 * create and update take the value check parsed when their inputs are what
 * check returned (src/engine/run-caches.ts `checkedInputs`), found by the
 * inputs' value, whatever the order of their keys (the engine sends them back
 * sorted). Either way they must act on the same value as a fresh parse: these
 * tests compare the paths.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { canonicalJson } from "../../dist/engine/values";
import { rememberChecked, takeChecked } from "../../dist/engine/run-caches";
import { useEmulator } from "../support";

const server = useEmulator();
const schedule = providers.PipelineSchedule;
type Props = Record<string, unknown>;

beforeAll(async () => {
  await server.configureProviders();
});

/** An object with its keys in sorted order at every level, as the engine sends properties. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Props)[key])]));
}

const declared = (description: string): Props => ({
  project: "acme/web",
  description,
  ref: "main",
  cron: "0 4 * * *",
  variables: [
    { key: "TARGET", value: "staging" },
    { key: "MODE", value: "full", variableType: "env_var" },
  ],
});

/** What a created schedule holds on the server, without its ids and times. */
async function stored(id: string): Promise<unknown> {
  const live = await server.as("root").get<Props & { variables: Props[] }>("/" + id);
  return { description: live.description, cron: live.cron, cron_timezone: live.cron_timezone, active: live.active, variables: live.variables.map((v) => `${String(v.key)}=${String(v.value)} ${String(v.variable_type)}`).sort() };
}

describe("canonicalJson", () => {
  it("gives equal values the same text whatever their keys' order, leaves out undefined members, keeps arrays in order", () => {
    const a = { b: 1, a: { y: [3, { q: 1, p: 2 }], x: "s" }, gone: undefined };
    const b = { a: { x: "s", y: [3, { p: 2, q: 1 }] }, b: 1 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":{"x":"s","y":[3,{"p":2,"q":1}]},"b":1}');
    expect(canonicalJson({ list: [2, 1] })).not.toBe(canonicalJson({ list: [1, 2] }));
    expect(canonicalJson([undefined, null])).toBe("[null,null]");
    expect(canonicalJson({ at: new Date(Date.UTC(2026, 0, 2)) })).toBe('{"at":"2026-01-02T00:00:00.000Z"}');
  });
});

describe("create and update after check", () => {
  it("create of check's result with its keys sorted, as the engine sends it, makes what create of a fresh parse makes", async () => {
    const checked = (await schedule.check({}, declared("checked-then-created"))).inputs as Props;
    const viaCheck = await schedule.create(sortedKeys(checked) as Props);
    // Never checked in this form: the list of variables and the default zone come from create's own parse.
    const fresh = await schedule.create(declared("created-unchecked"));
    const withoutDescription = ({ description: _d, ...rest }: Record<string, unknown>) => rest;
    expect(withoutDescription((await stored(viaCheck.id)) as Props)).toEqual(withoutDescription((await stored(fresh.id)) as Props));
    expect(withoutDescription(viaCheck.outs as Props)).toMatchObject({ cronTimezone: "UTC", active: true, variables: { MODE: { variableType: "env_var" }, TARGET: { variableType: "env_var" } } });
    await schedule.delete(viaCheck.id, viaCheck.outs as Props);
    await schedule.delete(fresh.id, fresh.outs as Props);
  });

  it("what check parsed is found by the inputs' value in any order of their keys, of the same kind only, once", () => {
    const returned = { project: "acme/web", variables: { B: { value: "2" }, A: { value: "1" } } };
    const parsed = { ...returned, active: true };
    rememberChecked("PipelineSchedule", returned, parsed);
    expect(takeChecked("Badge", sortedKeys(returned) as Props)).toBeUndefined();
    expect(takeChecked("PipelineSchedule", { ...returned, variables: { A: { value: "1" } } })).toBeUndefined();
    expect(takeChecked("PipelineSchedule", sortedKeys(returned) as Props)).toBe(parsed);
    expect(takeChecked("PipelineSchedule", returned)).toBeUndefined();
  });

  it("create of check's result with its keys in another order makes what create of check's result makes", async () => {
    const checked = (await schedule.check({}, declared("checked-reordered"))).inputs as Props;
    const reversed = (value: unknown): unknown =>
      value === null || typeof value !== "object" || Array.isArray(value)
        ? value
        : Object.fromEntries(Object.keys(value).reverse().map((key) => [key, reversed((value as Props)[key])]));
    const viaReordered = await schedule.create(reversed(checked) as Props);
    const viaCheck = await schedule.create((await schedule.check({}, declared("checked-as-returned"))).inputs as Props);
    const withoutDescription = ({ description: _d, ...rest }: Record<string, unknown>) => rest;
    expect(withoutDescription((await stored(viaReordered.id)) as Props)).toEqual(withoutDescription((await stored(viaCheck.id)) as Props));
    const own = ({ description: _d, scheduleId: _s, ...rest }: Record<string, unknown>) => rest;
    expect(own(viaReordered.outs as Props)).toEqual(own(viaCheck.outs as Props));
    await schedule.delete(viaReordered.id, viaReordered.outs as Props);
    await schedule.delete(viaCheck.id, viaCheck.outs as Props);
  });

  it("an update takes the inputs it is given, not an earlier check's of other inputs", async () => {
    const checked = (await schedule.check({}, declared("update-target"))).inputs as Props;
    const created = await schedule.create(checked);
    // Checked, then not the inputs the update receives: the update must act on what it receives.
    await schedule.check(created.outs as Props, { ...declared("update-target"), cron: "0 5 * * *" });
    const updated = await schedule.update(created.id, created.outs as Props, { ...checked, cron: "0 6 * * *" });
    expect(updated.outs).toMatchObject({ cron: "0 6 * * *" });
    expect(await stored(created.id)).toMatchObject({ cron: "0 6 * * *" });
    await schedule.delete(created.id, updated.outs as Props);
  });
});
