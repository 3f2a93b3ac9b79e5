/**
 * `platform-recover` runs the Pulumi CLI in the program's directory, which may
 * be a branch's checkout, with the write token in its environment: it looks
 * for `pulumi` only in the absolute directories of PATH. An empty or relative
 * entry (`::`, `.`) would find a `pulumi` committed there, and run it.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const checkout = mkdtempSync(path.join(tmpdir(), "recover-path-"));
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

it("a pulumi reached only through an empty or relative PATH entry is never run", () => {
  const ran = path.join(checkout, "planted-pulumi-ran");
  writeFileSync(path.join(checkout, "pulumi"), `#!/bin/sh\necho "$PLATFORM_TOKEN" > '${ran}'\nexit 1\n`);
  chmodSync(path.join(checkout, "pulumi"), 0o755);
  const run = spawnSync(process.execPath, [path.join(root, "bin", "platform-recover.js")], {
    cwd: checkout,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, PATH: `${path.delimiter}.${path.delimiter}${path.dirname(process.execPath)}`, PLATFORM_TOKEN: "glpat-planted-check" },
  });
  expect(existsSync(ran) ? readFileSync(ran, "utf8") : "").toBe("");
  expect(run.stderr).toContain("platform-recover: ");
  expect(run.status).toBe(1);
});
