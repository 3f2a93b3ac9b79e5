/**
 * The areas as the core sees them: the seeding order each area declares
 * (an area's seed runs after the seeds it reads), and a seed section
 * refused by its zod schema, naming the section, the field and the rule.
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, defineStore, SeedError, startEmulator, stateFromSeed, type EmulatorArea, type Seed } from "../../src/emulator";
import { areaSeed, seedingOrder } from "../../src/emulator/area";
import { areas } from "../../src/emulator/areas";
import { pipelineScheduleStore } from "../../src/emulator/areas/pipeline-schedules/model";
import { z } from "zod";

const names = (list: readonly EmulatorArea[]): string[] => list.map((area) => area.name);
const bare = (name: string, after?: string[]): EmulatorArea => ({ name, routes: [], ...(after ? { after } : {}) });

describe("the seeding order", () => {
  it("of the served areas is their list's order, each after the areas it reads", () => {
    const ordered = seedingOrder(areas);
    // Unchanged: ids given in seed order stay those of the list.
    expect(names(ordered)).toEqual(names(areas));
    for (const [index, area] of ordered.entries()) {
      for (const read of area.after ?? []) expect(names(ordered).indexOf(read), `${area.name} after ${read}`).toBeLessThan(index);
    }
    expect(areas.filter((area) => area.seed && !area.seed.schema).map((area) => area.name), "areas whose seed section has no schema").toEqual([]);
    expect(areas.find((area) => area.name === "merge-requests")?.after).toContain("repository");
    expect(areas.find((area) => area.name === "pipeline-schedules")?.after).toContain("repository");
  });

  it("moves an area listed before one it reads after it, and keeps the rest in list order", () => {
    expect(names(seedingOrder([bare("a"), bare("reader", ["source"]), bare("b"), bare("source")]))).toEqual(["a", "b", "source", "reader"]);
  });

  it("refuses a cycle, naming the areas in it, and an unknown area", () => {
    expect(() => seedingOrder([bare("x", ["y"]), bare("y", ["x"]), bare("z")])).toThrow("the seeding order has a cycle among the areas x, y");
    expect(() => seedingOrder([bare("x", ["nowhere"])])).toThrow("area x is seeded after nowhere, which is not an area");
  });

  it("runs a seed that reads another area's seeded state after it, whatever the list's order", () => {
    const values = defineStore("test-values", (): { values: string[] } => ({ values: [] }));
    const source: EmulatorArea = {
      name: "source",
      routes: [],
      seed: areaSeed({ key: "source", schema: z.array(z.string()), apply: (state, section) => values.of(state).values.push(...(section ?? [])) }),
    };
    const seen: string[][] = [];
    const reader: EmulatorArea = {
      name: "reader",
      routes: [],
      after: ["source"],
      seed: areaSeed({ key: "reader", schema: z.boolean(), apply: (state) => seen.push([...values.of(state).values]) }),
    };
    stateFromSeed({ source: ["one", "two"], reader: true }, undefined, [reader, source]);
    expect(seen).toEqual([["one", "two"]]);
  });

  it("seeds pipeline schedules after the repositories: a schedule may run on a branch only the repository seed makes", async () => {
    const repositories = defaultSeed["repositories"] as Record<string, unknown>;
    const seed: Seed = {
      ...defaultSeed,
      repositories: { ...repositories, "acme/api": { files: { "README.md": "# API\n" }, commits: [{ message: "Try", branch: "ordered", files: { "a.txt": "a\n" } }] } },
      pipelineSchedules: { "acme/api": [{ description: "On the new branch", ref: "ordered", cron: "0 2 * * *", owner: "alice" }] },
    };
    const emulator = await startEmulator({ seed });
    try {
      expect(pipelineScheduleStore.of(emulator.state).schedules.map((schedule) => schedule.ref)).toEqual(["refs/heads/ordered"]);
    } finally {
      await emulator.stop();
    }
  });
});

describe("a section refused by its area's schema", () => {
  const refusal = (section: Record<string, unknown>): string => {
    try {
      stateFromSeed({ ...defaultSeed, ...section });
    } catch (error) {
      expect(error).toBeInstanceOf(SeedError);
      return (error as Error).message;
    }
    throw new Error("the seed was accepted");
  };

  it("names the section, the field and the rule", () => {
    expect(refusal({ jobTokens: [{ token: "glcbt-x", project: "acme/web", user: "alice", status: "paused" }] })).toBe(
      "invalid emulator seed: jobTokens[0].status: must be one of running, success, failed, canceled",
    );
    expect(refusal({ badges: { projects: { "acme/web": [{ linkUrl: "https://x.test", imageUrl: 7 }] } } })).toBe(
      'invalid emulator seed: badges.projects["acme/web"][0].imageUrl: must be an http(s) URL (placeholders allowed)',
    );
    expect(refusal({ stars: { alice: { projects: [], private: true } } })).toBe('invalid emulator seed: stars["alice"]: unknown key(s) private');
    expect(refusal({ pipelineSchedules: { "acme/web": [{ description: "x", ref: "main", cron: "0 2 * * *", owner: "alice", active: "yes" }] } })).toBe(
      'invalid emulator seed: pipelineSchedules["acme/web"][0].active: must be a boolean',
    );
  });

  it("is left to apply for an extra area declared without a schema (a RouteModule written before schemas)", () => {
    const read: unknown[] = [];
    const legacy: EmulatorArea = { name: "legacy", routes: [], seed: { key: "legacy", apply: (_state, section) => read.push(section) } };
    stateFromSeed({ legacy: { anything: [1] } }, undefined, [legacy]);
    expect(read).toEqual([{ anything: [1] }]);
  });

  it("names the section when its shape is wrong", () => {
    expect(refusal({ epics: [] })).toBe("invalid emulator seed: epics: must be an object keyed by group full path");
    expect(refusal({ jobTokens: {} })).toBe("invalid emulator seed: jobTokens: must be a list of { token, project, user, status? }");
  });

  it("and the core's own sections, in the same words", () => {
    expect(refusal({ users: [{ username: "x", admin: "yes" }] })).toBe("invalid emulator seed: users[0].admin: must be a boolean");
    expect(refusal({ projects: [{ path: "p", namespace: "acme", visibility: "secret" }] })).toBe(
      "invalid emulator seed: projects[0].visibility: must be private, internal or public",
    );
    expect(refusal({ instance: { offering: "cloud" } })).toBe("invalid emulator seed: instance.offering: must be hosted, self-managed or dedicated");
    expect(refusal({ instance: { featureFlags: { beta: "on" } } })).toBe(
      'invalid emulator seed: instance.featureFlags["beta"]: must be true, false or a list of top-level group full paths',
    );
  });
});
