/**
 * The provider text kept in the state (`__provider`, src/engine/shim.ts), run
 * the way the dynamic provider host runs it: `requireFromString(text).handler()`
 * in a process whose working directory is the program's (@pulumi/pulumi 3.259,
 * cmd/dynamic-provider/index.js). Each case runs in a fresh Node process, as
 * the host is one: Node caches how it resolved a module name.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serializedProvider } from "../../src/engine/shim";
import { definitions } from "../../src/resources";

const repoRoot = path.resolve(__dirname, "../..");
const requireFromString = path.join(repoRoot, "node_modules/require-from-string");
const elsewhere = mkdtempSync(path.join(tmpdir(), "pulumi-platform-no-package-"));

afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

/** Runs the text as the host does, in `cwd`; prints what the handler gave or threw, and what reached console.error. */
function runAsHost(text: string, cwd: string): { methods?: string[]; message?: string; stack?: string; printed: string[] } {
  const script = `
    const printed = [];
    const print = console.error; console.error = (...values) => printed.push(values.join(" "));
    let result;
    try { result = { methods: Object.keys(require(${JSON.stringify(requireFromString)})(process.argv[1]).handler()) }; }
    catch (error) { console.error(\`\${error}: \${error.stack}\`); result = { message: error.message, stack: error.stack }; }
    console.error = print;
    process.stdout.write(JSON.stringify({ ...result, printed }));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script, text], { cwd, encoding: "utf8" }));
}

describe("the provider text in the state", () => {
  it("is the same text for a kind every time, small, and free of characters the CLI escapes", () => {
    const text = serializedProvider("Badge");
    expect(serializedProvider("Badge")).toBe(text);
    expect(serializedProvider("SamlGroupLink")).not.toBe(text);
    expect(text.length).toBeLessThan(400);
    expect(text).not.toMatch(/[<>&]/);
    expect(text).toContain('require("pulumi-platform/runtime")');
  });

  it("loads today's provider of its kind from the program's directory", () => {
    const result = runAsHost(serializedProvider("Badge"), repoRoot);
    expect(result.methods?.sort()).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
  });

  it("where the package is not installed, says to install it there, with no stack, and the host's copy of it is not printed", () => {
    const result = runAsHost(serializedProvider("Badge"), elsewhere);
    expect(result.message).toBe(`Install pulumi-platform in ${elsewhere} (npm install path/to/pulumi-platform.tgz) and run this again.`);
    expect(result.stack).toBe("");
    expect(result.printed).toEqual([]);
  });
});

describe("the provider text an earlier release wrote into the state (release 0.1.0, closure-serialized)", () => {
  const template = readFileSync(path.join(repoRoot, "test/e2e/fixtures/serialized-provider-0.1.0.js"), "utf8");
  const kinds = Object.keys(definitions);

  it("loads today's provider of every kind: configured through it, its check refuses empty inputs as today's does", () => {
    // One host process for every kind: each text is required afresh, as the host requires each resource's.
    const script = `
      const requireFromString = require(${JSON.stringify(requireFromString)});
      const runtime = require("pulumi-platform/runtime");
      const outcome = (promise) => promise.then((value) => ({ value }), (error) => ({ error: String(error && error.message) }));
      // Configured as a stack would be, without a server to ask: check refuses the empty inputs by each kind's own rules.
      const settings = { "platform:url": "http://127.0.0.1:9", "platform:token": "glpat-shim-test", "platform:verifyAtPreview": "false" };
      const config = { get: (key) => settings[key], require: (key) => settings[key] };
      (async () => {
        const results = {};
        for (const [kind, text] of JSON.parse(require("node:fs").readFileSync(0, "utf8"))) {
          const earlier = requireFromString(text).handler();
          await earlier.configure({ config });
          results[kind] = {
            methods: Object.keys(earlier).sort(),
            answer: await outcome(earlier.check({}, {})),
            same: JSON.stringify(await outcome(earlier.check({}, {}))) === JSON.stringify(await outcome(runtime.provider(kind).check({}, {}))),
          };
        }
        process.stdout.write(JSON.stringify(results));
      })();`;
    const texts = kinds.map((kind) => [kind, template.replaceAll('kind: "Badge"', `kind: ${JSON.stringify(kind)}`)]);
    type Outcome = { value?: { failures?: unknown[] }; error?: string };
    // The texts go through stdin: one argument holds at most 128 KiB (MAX_ARG_STRLEN), less than every kind's text.
    const results = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: repoRoot, encoding: "utf8", input: JSON.stringify(texts) })) as Record<
      string,
      { methods: string[]; answer: Outcome; same: boolean }
    >;
    expect(Object.keys(results)).toEqual(kinds);
    for (const kind of kinds) expect({ ...results[kind], answer: undefined }, kind).toEqual({ methods: ["check", "configure", "create", "delete", "diff", "read", "update"], same: true });
    // Each kind's own answer (so "the same as today's" is not the same for every kind): at least as many as the kinds with required inputs.
    const answers = new Set(kinds.map((kind) => JSON.stringify(results[kind]!.answer)));
    expect(answers.size).toBeGreaterThan(kinds.length / 2);
  });
});
