/**
 * A process loads the modules of the kinds, data functions and actions it
 * uses, and no other (src/lazy-load.ts), and the HTTP transport (undici) only
 * for its first request: every Pulumi command starts a program and a dynamic
 * provider host that load the package, and every review job platform-review. Each case runs
 * the built package (dist/) in a fresh Node process, as those are, and after
 * its use loads every export to learn which module of dist/ holds each.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lazyLoad } from "../../src/lazy-load";

const repoRoot = path.resolve(__dirname, "../..");

/**
 * The modules of dist/ that hold a kind, data function or action (relative to
 * dist/): all of them, and those `use` loaded; and whether it loaded undici
 * (the HTTP client's transport, which a process needs only once it sends a
 * request).
 */
function loadedBy(use: string): { holders: string[]; loaded: string[]; undici: boolean } {
  const script = `
    const dist = require("node:path").join(process.cwd(), "dist") + "/";
    { ${use} }
    const loaded = new Set(Object.keys(require.cache));
    const undici = [...loaded].some((file) => file.includes("/node_modules/undici/"));
    const everything = require(dist + "index.js");
    const holders = new Set();
    for (const name of Object.keys(everything)) {
      const value = everything[name];
      for (const [file, module] of Object.entries(require.cache)) {
        // The module that declares it: the registries hold it behind a getter.
        const own = Object.getOwnPropertyDescriptor(module.exports ?? {}, name);
        if (/^(resources|functions|actions)[/]/.test(file.slice(dist.length)) && own && "value" in own && own.value === value && typeof value === "function") holders.add(file);
      }
    }
    const relative = (files) => files.map((file) => file.slice(dist.length)).sort();
    process.stdout.write(JSON.stringify({ holders: relative([...holders]), loaded: relative([...holders].filter((file) => loaded.has(file))), undici }));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: repoRoot, encoding: "utf8" })) as { holders: string[]; loaded: string[]; undici: boolean };
}

/** Some of the modules that hold what the package exports, for a check that they are found. */
const SOME_HOLDERS = ["actions/hooks.js", "functions/starring.js", "resources/badge.js", "resources/project-star.js"];

describe("what a process loads of the package", () => {
  it("a program loads the modules of the classes, functions and actions it reads, the names of every kind's provider without any, and no HTTP transport before a request", () => {
    const use = `
      const platform = require(dist + "index.js");
      void platform.Badge, platform.getBadgesOutput, platform.runPipelineSchedule;
      Object.keys(platform.providers);`;
    const { holders, loaded, undici } = loadedBy(use);
    expect(holders).toEqual(expect.arrayContaining(SOME_HOLDERS));
    expect({ loaded, undici }).toEqual({ loaded: ["actions/pipeline-schedules.js", "functions/badges.js", "resources/badge.js"], undici: false });
  });

  it("the provider host loads the module of the kind it serves alone", () => {
    const { holders, loaded } = loadedBy(`require(dist + "runtime.js").provider("Badge");`);
    expect(holders).toEqual(expect.arrayContaining(SOME_HOLDERS));
    expect(loaded).toEqual(["resources/badge.js"]);
  });

  it("every export the registries declare is one they load: none is left at its declared placeholder", () => {
    const script = `const platform = require(require("node:path").join(process.cwd(), "dist/index.js"));
      process.stdout.write(JSON.stringify(Object.keys(platform).filter((name) => platform[name] === null || platform[name] === undefined)));`;
    expect(JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: repoRoot, encoding: "utf8" }))).toEqual([]);
  });

  it("the review of a preview (platform-review) loads the modules of the kinds in it alone", () => {
    const use = `
      const preview = require(dist + "review/preview.js").parsePreview(require("node:fs").readFileSync("test/review/fixtures/change.json", "utf8"));
      require(dist + "review/markdown.js").markdownOf(require(dist + "review/changes.js").reviewOf(preview));`;
    const { loaded } = loadedBy(use);
    expect(loaded).toEqual(["resources/badge.js", "resources/exclusive-badges.js", "resources/pipeline-schedule.js", "resources/saml-group-link.js"]);
  });
});

describe("lazyLoad", () => {
  it("names the exports without loading their module, loads it once, and fails on a name it does not export", () => {
    let loads = 0;
    const exported = {};
    lazyLoad(exported, ["Badge", "Bagde"], () => (loads++, { Badge: "the class" }));
    expect([Object.keys(exported), loads]).toEqual([["Badge", "Bagde"], 0]);
    expect((exported as Record<string, unknown>).Badge).toBe("the class");
    expect((exported as Record<string, unknown>).Badge).toBe("the class");
    expect(loads).toBe(1);
    expect(() => (exported as Record<string, unknown>).Bagde).toThrow("Bagde is registered as an export of a module that does not export it");
  });
});
