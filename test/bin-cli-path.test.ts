/**
 * `pulumi-platform-cli` run in a checkout of anyone's branch, with an empty
 * and a relative entry on PATH: no `bash`, `pulumi` or `go` the branch
 * committed runs, and the @pulumi/pulumi whose version (and provider plugin)
 * it takes is the package's own, not one the branch put in its
 * `node_modules`. Each planted executable records that it ran.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const work = mkdtempSync(path.join(tmpdir(), "bin-cli-path-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it("runs bash, pulumi and go only from PATH's absolute entries, and resolves @pulumi/pulumi from the package", () => {
  const checkout = path.join(work, "checkout");
  const ran = path.join(work, "ran");
  mkdirSync(path.join(checkout, "bin"), { recursive: true });
  mkdirSync(ran);
  for (const name of ["bash", "pulumi", "go"]) {
    for (const dir of [checkout, path.join(checkout, "bin")]) {
      const file = path.join(dir, name);
      writeFileSync(file, `#!/bin/sh\ntouch ${JSON.stringify(path.join(ran, name))}\necho /planted\n`);
      chmodSync(file, 0o755);
    }
  }
  const planted = path.join(checkout, "node_modules", "@pulumi", "pulumi");
  mkdirSync(planted, { recursive: true });
  writeFileSync(path.join(planted, "package.json"), JSON.stringify({ name: "@pulumi/pulumi", version: "3.0.1" }));
  // The cache the CLI was built into (scripts/ensure-pulumi-cli.sh): the script answers from it without building.
  const run = spawnSync(process.execPath, [path.join(root, "bin", "pulumi-platform-cli.js")], {
    cwd: checkout,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, PATH: `:bin:${process.env.PATH}`, PULUMI_CLI_CACHE: path.join(process.env.HOME ?? "", ".cache", "pulumi-platform", "pulumi-cli") },
  });
  expect(readdirSync(ran)).toEqual([]);
  expect(run.stdout).not.toContain("/planted");
  expect(`${run.stdout}${run.stderr}`).not.toContain("3.0.1");
  expect(existsSync(run.stdout.trim())).toBe(true);
});
