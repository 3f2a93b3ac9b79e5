/**
 * The commands' reads are bounded by the bytes they read, replayed as the
 * attacks did it, through the built commands: `platform-import` against a
 * server whose answer never ends, `--from-terraform` given a link to
 * /dev/zero (whose `stat` says 0 bytes), and `platform-review` given the same
 * link as its preview. Each fails naming its limit, within seconds, with the
 * process's peak memory measured (`process.resourceUsage().maxRSS`, written
 * at exit by a preload).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const work = mkdtempSync(path.join(tmpdir(), "bounded-reads-"));
const zero = path.join(work, "terraform.tfstate");
symlinkSync("/dev/zero", zero);
const peak = path.join(work, "peak-memory.cjs");
writeFileSync(peak, 'process.on("exit", () => process.stderr.write(`\\npeak-rss-kib=${process.resourceUsage().maxRSS}\\n`));\n');

let endless: Server;
let url = "";
beforeAll(async () => {
  // Every answer a 200 of JSON that never ends: `[` then spaces, as long as the client reads.
  endless = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const block = Buffer.alloc(64 * 1024, 0x20);
    res.write("[");
    const more = () => {
      while (!res.destroyed && res.write(block));
      if (!res.destroyed) res.once("drain", more);
    };
    more();
  });
  await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`;
});
afterAll(async () => {
  endless.closeAllConnections();
  await new Promise<void>((resolve) => endless.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  output: string;
  seconds: number;
  peakMiB: number;
}

/** Runs a built command (async: the endless server answers from this process), killed after 60 s. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const started = Date.now();
  const child = spawn(process.execPath, ["--require", peak, path.join(root, "bin", `${command}.js`), ...args], {
    cwd: work,
    env: { ...process.env, PLATFORM_URL: url, PLATFORM_TOKEN: "bounded-token-5e1a", ...env },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) =>
    child.on("close", (status) => {
      clearTimeout(killer);
      const kib = Number(/peak-rss-kib=(\d+)/.exec(output)?.[1] ?? NaN);
      resolve({ status, output, seconds: (Date.now() - started) / 1000, peakMiB: kib / 1024 });
    }),
  );
}

it("platform-import against an answer that never ends stops at the client's limit", async () => {
  const result = await run("platform-import", ["--group", "acme", "--out", path.join(work, "program"), "--quiet"]);
  expect(result.output).toContain("is larger than 256 MiB, the most read of it; stopped there.");
  expect(result.status).toBe(1);
  // The attack grew the process to 2.5 GB in 8 s, and on until killed.
  expect(result.peakMiB).toBeLessThan(1024);
  console.log(`platform-import, endless answer: ${result.seconds.toFixed(1)} s, peak ${result.peakMiB.toFixed(0)} MiB`);
}, 90_000);

it("platform-import --from-terraform given a link to /dev/zero reads at most the state's limit", async () => {
  const result = await run("platform-import", ["--from-terraform", zero, "--out", path.join(work, "from-state"), "--quiet"]);
  expect(result.output).toContain(`${zero} (the Terraform state) is larger than 64 MiB, the most read of it; stopped there. Not a state this command reads.`);
  expect(result.status).toBe(1);
  expect(result.peakMiB).toBeLessThan(512);
  console.log(`platform-import --from-terraform /dev/zero: ${result.seconds.toFixed(1)} s, peak ${result.peakMiB.toFixed(0)} MiB`);
}, 90_000);

it("platform-review given a link to /dev/zero as its preview reads at most its input limit", async () => {
  const result = await run("platform-review", ["--preview", zero]);
  expect(result.output).toContain(`${zero} is larger than 256 MiB, the most read of it; stopped there.`);
  expect(result.status).toBe(2);
  expect(result.peakMiB).toBeLessThan(1024);
  console.log(`platform-review --preview /dev/zero: ${result.seconds.toFixed(1)} s, peak ${result.peakMiB.toFixed(0)} MiB`);
}, 90_000);
