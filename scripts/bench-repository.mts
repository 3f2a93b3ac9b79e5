/**
 * The repository functions' large cases, part of `npm run bench` and runnable
 * alone (`npm run build && node scripts/bench-repository.mts`, which rewrites
 * only the "Repository content" section of BENCHMARKS.md):
 *
 * - a tree of 10,000 entries listed recursively: requests and time;
 * - an archive of about 100 MB (incompressible files) streamed to a file:
 *   time, and this process's peak RSS, heap and buffer memory during the
 *   download, beside the same archive read whole into memory (`download`);
 * - a compare of two commits with 1,000 changed files: requests, time, and
 *   how many diffs came whole, collapsed or too large.
 *
 * The emulator runs in a child process (`platform-emulator --seed`), so the
 * memory measured here is the client's alone. The repositories are described
 * in the seed's `repositories` section: `files` for the tree and the compare,
 * `directory` (random files written here first) for the archive.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { writeBenchmarkSection } from "./benchmarks-file.mts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import * as platform from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";

const TREE_DIRECTORIES = 100;
/** 100 directories of 99 files: 10,000 entries in all. */
const FILES_PER_DIRECTORY = 99;
const ARCHIVE_FILES = 100;
const ARCHIVE_FILE_BYTES = 1024 * 1024;
const CHANGED_FILES = 1000;
const ITERATIONS = Number(process.env.BENCH_REPOSITORY_ITERATIONS ?? 5);

const TREE_PROJECT = "acme/platform/infra";
const ARCHIVE_PROJECT = "acme/api";
const COMPARE_PROJECT = "beta/site";

function seedFor(archiveDirectory: string): Seed {
  const treeFiles: Record<string, string> = {};
  for (let d = 0; d < TREE_DIRECTORIES; d++) {
    for (let f = 0; f < FILES_PER_DIRECTORY; f++) treeFiles[`dir-${String(d).padStart(3, "0")}/file-${String(f).padStart(3, "0")}.txt`] = `${d}/${f}\n`;
  }
  const compareFiles = (version: string) =>
    Object.fromEntries(Array.from({ length: CHANGED_FILES }, (_, i) => [`src/module-${String(i).padStart(4, "0")}.ts`, `export const version = "${version}";\nexport const index = ${i};\n`]));
  return {
    ...defaultSeed,
    repositories: {
      ...((defaultSeed as { repositories?: object }).repositories ?? {}),
      [TREE_PROJECT]: { files: treeFiles },
      [ARCHIVE_PROJECT]: { directory: archiveDirectory },
      [COMPARE_PROJECT]: {
        commits: [
          { id: "before", message: "Add the modules", files: compareFiles("1") },
          { id: "after", message: "Bump every module", files: compareFiles("2") },
        ],
        tags: [{ name: "before", target: "before" }],
      },
    },
  } as Seed;
}

/** Starts `platform-emulator` from dist/ in a child process and waits for its URL. */
async function startChildEmulator(seedFile: string, work: string): Promise<{ url: string; child: ChildProcess }> {
  const readyFile = join(work, "ready");
  const child = spawn(process.execPath, ["dist/emulator/bin.js", "--port", "0", "--seed", seedFile, "--ready-file", readyFile, "--quiet"], { stdio: ["ignore", "inherit", "inherit"] });
  const started = Date.now();
  while (!existsSync(readyFile)) {
    if (child.exitCode !== null) throw new Error(`the emulator exited with ${child.exitCode}`);
    if (Date.now() - started > 600_000) throw new Error("the emulator did not start within 10 minutes");
    await sleep(100);
  }
  return { url: readFileSync(readyFile, "utf8").trim(), child };
}

/** Peak memory of this process while `action` runs, sampled every 5 ms, as growth over the level before. */
async function peakMemoryDuring<T>(action: () => Promise<T>): Promise<{ result: T; ms: number; rss: number; heap: number; buffers: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  const peak = { rss: base.rss, heap: base.heapUsed, buffers: base.arrayBuffers };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heap = Math.max(peak.heap, now.heapUsed);
    peak.buffers = Math.max(peak.buffers, now.arrayBuffers);
  };
  const timer = setInterval(sample, 5);
  const start = performance.now();
  try {
    const result = await action();
    sample();
    return { result, ms: performance.now() - start, rss: peak.rss - base.rss, heap: peak.heap - base.heapUsed, buffers: peak.buffers - base.arrayBuffers };
  } finally {
    clearInterval(timer);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const percentOf = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)} %`;

/** `action` run ITERATIONS times: its last result and the median time. */
async function timedRuns<T>(action: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const times: number[] = [];
  let result: T | undefined;
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    result = await action();
    times.push(performance.now() - start);
  }
  return { result: result!, ms: median(times) };
}

export async function measureRepository(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), "bench-repository-"));
  let child: ChildProcess | undefined;
  const saved = { url: process.env.PLATFORM_URL, token: process.env.PLATFORM_TOKEN };
  try {
    const archiveDirectory = join(work, "archive-source");
    mkdirSync(archiveDirectory);
    for (let i = 0; i < ARCHIVE_FILES; i++) writeFileSync(join(archiveDirectory, `blob-${String(i).padStart(3, "0")}.bin`), randomBytes(ARCHIVE_FILE_BYTES));
    const seed = seedFor(archiveDirectory);
    writeFileSync(join(work, "seed.json"), JSON.stringify(seed));
    const buildStart = performance.now();
    const emulator = await startChildEmulator(join(work, "seed.json"), work);
    const startupSeconds = (performance.now() - buildStart) / 1000;
    child = emulator.child;
    const token = (seed.users ?? []).find((user) => user.username === "root")!.token!;
    // Functions outside a program read the environment (the provider's configuration would win: clear it).
    await platform.providers.Badge.configure({ config: { get: () => undefined, require: () => "" } as never });
    process.env.PLATFORM_URL = emulator.url;
    process.env.PLATFORM_TOKEN = token;

    // The tree: pages are counted by a client of our own that reads them the way the function does.
    const api = new platform.PlatformClient({ url: emulator.url, token });
    const bare = await timedRuns(async () => {
      let pages = 0;
      for await (const _page of api.pages(platform.apiPath`/projects/${TREE_PROJECT}/repository/tree`, { recursive: true, pagination: "keyset" })) pages++;
      return pages;
    });
    const tree = await timedRuns(() => platform.getRepositoryTree({ project: TREE_PROJECT, recursive: true }));

    const compare = await timedRuns(() => platform.getRepositoryCompare({ project: COMPARE_PROJECT, from: "before", to: "main" }));
    const diffs = compare.result.diffs;
    const collapsed = diffs.filter((diff) => diff.collapsed).length;
    const tooLarge = diffs.filter((diff) => diff.tooLarge).length;

    const destination = join(work, "download", "archive.tar.gz");
    const streamed = await peakMemoryDuring(() => platform.getRepositoryArchive({ project: ARCHIVE_PROJECT, destination }));
    rmSync(destination);
    const buffered = await peakMemoryDuring(() => api.download(platform.apiPath`/projects/${ARCHIVE_PROJECT}/repository/archive.tar.gz`));
    const archiveMb = mb(streamed.result.size);

    const rows = [
      `| tree, recursive | ${tree.result.length} entries | ${bare.result} | ${tree.ms.toFixed(0)} ms (median of ${ITERATIONS}; the same pages read with the bare client: ${bare.ms.toFixed(0)} ms) |`,
      `| compare | ${diffs.length} diffs of ${CHANGED_FILES} changed files (${collapsed} collapsed, ${tooLarge} too large), ${compare.result.commits.length} commit | 1 | ${compare.ms.toFixed(0)} ms (median of ${ITERATIONS}) |`,
      `| archive (tar.gz), streamed to a file | ${archiveMb} MB | 1 | ${(streamed.ms / 1000).toFixed(2)} s |`,
    ];
    const memory = [
      "| download of the same archive | peak RSS growth | peak heap growth | peak buffer growth |",
      "|---|---:|---:|---:|",
      `| \`getRepositoryArchive\` (streamed to disk, hashed on the way) | ${mb(streamed.rss)} MB | ${mb(streamed.heap)} MB | ${mb(streamed.buffers)} MB |`,
      `| \`PlatformClient.download\` (whole in memory), for comparison | ${mb(buffered.rss)} MB | ${mb(buffered.heap)} MB | ${mb(buffered.buffers)} MB |`,
    ];
    return (
      `Against \`platform-emulator\` in a child process on loopback (seeded through its \`repositories\` section; building the ` +
      `three repositories and starting took ${startupSeconds.toFixed(0)} s), Node ${process.version}. Memory is this process's, ` +
      `sampled every 5 ms during the call, as growth over the level before it.\n\n` +
      ["| case | size | requests | time |", "|---|---|---:|---:|", ...rows].join("\n") +
      "\n\n" +
      memory.join("\n") +
      `\n\nStreamed, the peak growth (RSS or buffers, the larger) is ${percentOf(Math.max(streamed.rss, streamed.buffers), streamed.result.size)} of the ` +
      `${archiveMb} MB written; read whole, ${percentOf(Math.max(buffered.rss, buffered.buffers), streamed.result.size)}.\n`
    );
  } finally {
    process.env.PLATFORM_URL = saved.url;
    process.env.PLATFORM_TOKEN = saved.token;
    if (saved.url === undefined) delete process.env.PLATFORM_URL;
    if (saved.token === undefined) delete process.env.PLATFORM_TOKEN;
    child?.kill();
    await platform.closeAllPools();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Puts `section` under `## Repository content` in BENCHMARKS.md, leaving the rest as it is. */
export function writeRepositorySection(section: string): void {
  writeBenchmarkSection("Repository content", section);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const section = await measureRepository();
  console.log(section);
  writeRepositorySection(section);
}
