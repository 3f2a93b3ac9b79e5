/**
 * The order platform-import reads and declares kinds in comes from what the
 * kinds declare (`imported`: `through`, `setOf`, `isOwner`), never from the
 * line that registers a kind: the same for every order of the registry, and
 * an import of objects that refer to each other declares each before the
 * declarations that refer to it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src/client";
import type { AnyResourceDefinition } from "../../src/engine/definition";
import { importOrder } from "../../src/import/order";
import { programOf } from "../../src/import/program";
import { readEstate } from "../../src/import/read";
import { definitions } from "../../src/resources";
import { useEmulator } from "../support.ts";

const registered = definitions as Readonly<Record<string, AnyResourceDefinition>>;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Orders of `items` that scatter them: item `i * step` (modulo their number) in place `i`, for each step prime to the number. */
function scattered<T>(items: readonly T[]): T[][] {
  const steps = Array.from({ length: items.length }, (_, step) => step).filter((step) => step > 1 && gcd(step, items.length) === 1);
  return steps.map((step) => items.map((_, index) => items[(index * step) % items.length]!));
}

describe("the import's order of kinds", () => {
  const order = importOrder(registered);
  const before = (a: string, b: string) => order.indexOf(a) < order.indexOf(b);

  it("puts each kind after those it is found through, and an only-these set after its members", () => {
    expect([...order].sort()).toEqual(Object.keys(registered).sort());
    for (const [kind, definition] of Object.entries(registered)) {
      const imported = definition.imported;
      if ("setOf" in imported) expect(before(imported.setOf, kind), `${imported.setOf} before ${kind}`).toBe(true);
      if ("find" in imported) for (const other of imported.through ?? []) expect(before(other, kind), `${other} before ${kind}`).toBe(true);
    }
    // Alphabetical order would put each of these first: the declarations decide.
    expect(before("VirtualRegistry", "Upstream")).toBe(true);
    expect(before("Upstream", "ExclusiveUpstreams")).toBe(true);
    expect(before("Badge", "ExclusiveBadges")).toBe(true);
    // The owner itself before what it holds: a project before its labels, a subgroup before its badges.
    expect(before("Project", "Label")).toBe(true);
    expect(before("Group", "Badge")).toBe(true);
  });

  it("is the same whatever order the kinds are registered in", () => {
    const entries = Object.entries(registered);
    for (const permutation of [[...entries].reverse(), ...scattered(entries)]) {
      expect(importOrder(Object.fromEntries(permutation))).toEqual(order);
    }
  });

  it("refuses a kind named that is not registered, and kinds that wait on each other", () => {
    const upstream = registered.Upstream!;
    const throughMissing = { ...registered, Upstream: { ...upstream, imported: { ...upstream.imported, through: ["MavenRegistry"] } } as AnyResourceDefinition };
    expect(() => importOrder(throughMissing)).toThrow("Upstream is imported after MavenRegistry, which no registered kind is");
    const registry = registered.VirtualRegistry!;
    const circle = { ...registered, VirtualRegistry: { ...registry, imported: { ...registry.imported, through: ["Upstream"] } } as AnyResourceDefinition };
    expect(() => importOrder(circle)).toThrow("these kinds are each imported after another of them: ExclusiveUpstreams, Upstream, VirtualRegistry");
  });
});

describe("an import of objects that refer to each other", () => {
  const server = useEmulator();
  afterAll(() => closeAllPools());

  it("declares a registry before its upstreams, and members before their only-these sets", async () => {
    const api = new PlatformClient({ url: server.emulator.url, token: server.emulator.tokens.root!, retryBaseDelayMs: 10 });
    const registry = await api.post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name: "order-check" });
    await api.post(apiPath`/virtual_registries/container/registries/${registry.id}/upstreams`, { name: "Mirror", url: "https://mirror.example.com" });
    const estate = await readEstate(api, { group: "acme", projects: [], instance: false, exclusive: true });
    const module = programOf(estate.declarations, { projectName: "p", names: {}, secrets: [], template: { "package.json": "{}\n", "tsconfig.json": "{}\n" } }).files.get("groups/acme.ts")!;
    const lines = module.split("\n");
    const declaredAt = new Map(lines.flatMap((line, index) => [.../^export const (\w+) = /.exec(line) ?? []].slice(1).map((identifier) => [identifier, index] as const)));
    const references = lines.flatMap((line, index) => [...line.matchAll(/\b(\w+)\.(\w+)\b/g)].filter((match) => declaredAt.has(match[1]!)).map((match) => ({ reference: match[0], at: index })));
    // Not vacuous: the upstream names its registry's output, and the sets their members'.
    expect(references.map(({ reference }) => reference)).toEqual(expect.arrayContaining([expect.stringMatching(/\.registryId$/), expect.stringMatching(/\.upstreamId$/), expect.stringMatching(/\.userId$/)]));
    expect(references.filter(({ reference, at }) => declaredAt.get(reference.split(".")[0]!)! >= at)).toEqual([]);
  });
});
