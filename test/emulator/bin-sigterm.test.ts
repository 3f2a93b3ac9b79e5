/**
 * The repository's `npm run emulator` (docs/emulator.md): it builds, then runs
 * dist/emulator/bin.js in the script's place (`exec`), so the SIGTERM a
 * supervisor sends npm reaches the emulator, which stops and frees its port.
 * Started from its command line, the emulator runs its background work on
 * its own: a merge request made through the API gets its head commit.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, it, vi } from "vitest";

const repoRoot = resolve(__dirname, "../..");

it("npm run emulator: background work runs on its own; SIGTERM to npm stops the emulator", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-sigterm-"));
  const readyFile = join(dir, "emulator-url");
  const npm = spawn("npm", ["run", "--silent", "emulator", "--", "--port", "0", "--quiet", "--ready-file", readyFile], { cwd: repoRoot, stdio: "ignore" });
  const exited = new Promise<number | null>((done) => npm.once("exit", (code) => done(code)));
  try {
    await vi.waitFor(() => expect(existsSync(readyFile)).toBe(true), { timeout: 120_000, interval: 200 });
    const api = `${readFileSync(readyFile, "utf8").trim()}/api/v4`;
    const headers = { "PRIVATE-TOKEN": "glpat-dev-token", "Content-Type": "application/json" };
    const made = await fetch(`${api}/projects/acme%2Fweb/merge_requests`, {
      method: "POST",
      headers,
      body: JSON.stringify({ source_branch: "stable", target_branch: "main", title: "From the command line" }),
    });
    expect(made.status).toBe(201);
    const { iid, sha } = (await made.json()) as { iid: number; sha: string | null };
    expect(sha).toBeNull();
    await expect
      .poll(async () => ((await (await fetch(`${api}/projects/acme%2Fweb/merge_requests/${iid}`, { headers })).json()) as { sha: string | null }).sha, { timeout: 10_000 })
      .toMatch(/^[0-9a-f]{40}$/);
    npm.kill("SIGTERM");
    await exited;
    await expect(fetch(`${api}/metadata`, { headers })).rejects.toThrow();
  } finally {
    if (npm.exitCode === null) npm.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
