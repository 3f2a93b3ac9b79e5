/**
 * The machine's shared cache of seeded repository builds
 * (src/emulator/areas/repository/model.ts) is written by every emulator
 * process at once: a build another process is making lives in a temporary
 * directory, renamed into place or removed at any moment. A process looking
 * through the cache (for builds unused for a day) must take an entry gone by
 * the time it reads it as gone, not fail to start.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { whenOutput } from "../spawned";

const bin = resolve(__dirname, "../../dist/emulator/bin.js");

it("an entry of the shared cache gone between its listing and its reading is passed over", async () => {
  const temporary = mkdtempSync(join(tmpdir(), "emulator-shared-cache-"));
  const cache = join(temporary, `pulumi-platform-emulator-builds-${process.getuid?.() ?? "user"}`);
  mkdirSync(cache);
  // Listed, and gone when read: another process's build at the moment it is renamed into place.
  symlinkSync(join(temporary, "renamed-meanwhile"), join(cache, "0123.git.4242.x1y2.tmp"));
  const child = spawn(process.execPath, [bin, "--port", "0"], { env: { ...process.env, TMPDIR: temporary }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  try {
    expect(await whenOutput(child, () => /listening on (\S+)/.exec(output)?.[1]).catch(() => output)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(temporary, { recursive: true, force: true });
  }
});
