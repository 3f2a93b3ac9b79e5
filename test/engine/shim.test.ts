/**
 * The provider text kept in the state (`__provider`, src/engine/shim.ts), run
 * the way the dynamic provider host runs it: `requireFromString(text).handler()`
 * in a process whose working directory is the program's (@pulumi/pulumi 3.259,
 * cmd/dynamic-provider/index.js). Each case runs in a fresh Node process, as
 * the host is one: Node caches how it resolved a module name.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serializedProvider } from "../../src/engine/shim";

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
