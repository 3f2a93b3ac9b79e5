/**
 * `platform-emulator --ready-file`: what a CI script waits for (docs/emulator.md,
 * docs/ci/github-actions.yml). The file appears once the emulator listens, holds
 * its URL, and the API answers there. Runs the built bin (dist/, `npm test` builds first).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { whenFileExists } from "../spawned";

const bin = resolve(__dirname, "../../dist/emulator/bin.js");

it("--ready-file gets the emulator's URL, written whole, once it listens; SIGTERM stops it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-ready-"));
  const readyFile = join(dir, "emulator-url");
  const child = spawn(process.execPath, [bin, "--port", "0", "--quiet", "--ready-file", readyFile], { stdio: "ignore" });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  try {
    await whenFileExists(child, readyFile);
    const url = readFileSync(readyFile, "utf8");
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(readdirSync(dir)).toEqual(["emulator-url"]); // the partial file was renamed, not left behind
    const metadata = await fetch(`${url.trim()}/api/v4/metadata`, { headers: { "PRIVATE-TOKEN": "glpat-alice-token" } });
    expect(metadata.status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});
