/**
 * `platform-review --verify-deletes` reads a secret of the stack's config with
 * the Pulumi CLI: it looks for `pulumi` only in the absolute directories of
 * PATH. An empty or relative entry (`.`, `bin`) would find a `pulumi` in the
 * working directory, a branch's checkout, and run it.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCli } from "./run-cli";

const CHANGE = readFileSync(path.join(__dirname, "fixtures", "change.json"), "utf8");
const work = mkdtempSync(path.join(tmpdir(), "review-relative-path-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it("a pulumi reached only through a relative PATH entry is never run", async () => {
  const planted = path.join(work, "checkout", "bin");
  mkdirSync(planted, { recursive: true });
  const ran = path.join(work, "planted-pulumi-ran");
  writeFileSync(path.join(planted, "pulumi"), `#!/bin/sh\n/usr/bin/touch '${ran}'\necho '{}'\n`);
  chmodSync(path.join(planted, "pulumi"), 0o755);
  const preview = JSON.parse(CHANGE) as { config: Record<string, string> };
  preview.config = { ...preview.config, "platform:url": "http://127.0.0.1:9", "platform:token": "[secret]" };
  const file = path.join(work, "preview.json");
  writeFileSync(file, JSON.stringify(preview));
  // Relative to the working directory the command runs in, as `.` or `node_modules/.bin` would be.
  const relative = path.relative(process.cwd(), planted);
  const result = await runCli(["--preview", file, "--verify-deletes", "--stack", "e2e"], { PATH: `${relative}${path.delimiter}.` });
  expect(existsSync(ran)).toBe(false);
  expect(readFileSync(file, "utf8")).toContain("the Pulumi CLI (`pulumi`), which decrypts it, is not on PATH");
  expect(result.code).toBe(0);
});
