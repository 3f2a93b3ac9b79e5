/**
 * The package's commands started on a Node.js older than the package needs
 * (`node_modules/.bin/platform-review` in a shell whose `node` is 20): each
 * runs itself again under the project's own Node.js from node_modules/.bin
 * (./bin/project-node.js), instead of failing on the package's check.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const work = mkdtempSync(path.join(tmpdir(), "bin-node-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A preload that makes the Node.js running it say it is 20. */
const olderNode = path.join(work, "node-20.cjs");
writeFileSync(olderNode, 'Object.defineProperty(process.versions, "node", { value: "20.11.1" });\n');

it.each([
  ["platform-review", ["--help"], /^Usage: platform-review --preview <file>/],
  ["platform-import", ["--help"], /^Usage: platform-import --out <dir>/],
  ["platform-recover", ["--help"], /^usage: platform-recover \[--cancel\]/],
  ["platform-emulator", ["--help"], /^usage: platform-emulator /],
])("%s on Node.js 20 runs under the project's Node.js", (command, args, usage) => {
  const run = spawnSync(process.execPath, ["--require", olderNode, path.join(root, "bin", `${command}.js`), ...args], { cwd: root, encoding: "utf8", timeout: 60_000 });
  expect(`${run.stdout}${run.stderr}`).toMatch(usage);
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/needs Node\.js 22 or newer|    at /);
});

/**
 * The report job runs the default branch's copy of the package inside the merge request's checkout, with
 * the review token in its environment: a `node_modules/.bin/node` the branch committed there must never run.
 */
it("never runs a node from the working directory, only the one installed beside the package", () => {
  const checkout = path.join(work, "branch-checkout");
  const planted = path.join(checkout, "node_modules", ".bin");
  mkdirSync(planted, { recursive: true });
  const ran = path.join(work, "planted-node-ran");
  // Says it is a new enough Node.js, and records any run (the version probe included).
  writeFileSync(path.join(planted, "node"), `#!/bin/sh\necho "$@" >> '${ran}'\necho v24.0.0\n`);
  chmodSync(path.join(planted, "node"), 0o755);
  const run = spawnSync(process.execPath, ["--require", olderNode, path.join(root, "bin", "platform-review.js"), "--help"], {
    cwd: checkout,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, PLATFORM_REVIEW_TOKEN: "review-token-0c9e" },
  });
  expect(existsSync(ran)).toBe(false);
  expect(`${run.stdout}${run.stderr}`).toMatch(/^Usage: platform-review --preview <file>/);
});
