/**
 * `npm run bench:engine` (and the last part of `npm run bench`): the real
 * Pulumi CLI against the embedded emulator on loopback, a file backend, three
 * generated programs of the same size (issue 16):
 *   P  this package: N project badges plus two group badges;
 *   A  floor A: as many trivial `pulumi.dynamic.Resource`s, whose provider sends no request;
 *   B  floor B: as many component resources (engine, language host and program, no provider).
 * For each N the three alternate within every repetition (P, A, B), so a busy
 * moment of a shared machine falls on all three; minimum and median are reported.
 * It is a benchmark, never a test. Writes the "Real engine" section of BENCHMARKS.md.
 *
 * Knobs (environment): BENCH_ENGINE_N (e.g. "50,150,500"), BENCH_ENGINE_PREVIEW_N
 * (preview-only sizes, "2000"), BENCH_ENGINE_REPS (3); BENCH_ENGINE_SCALING=500 measures only
 * `--parallel` and stack splitting at that N (printed, for the README).
 * BENCH_ENGINE_PREVIEW_UP=1: at the preview sizes, after the new-stack preview, also `up` of
 * the N resources, a `preview --expect-no-changes` and `destroy` (P, A, B alternating as
 * above). At 2,000 that adds about 14 minutes a repetition for P and A alone (measured once on
 * 2 shared cores: `up` 219 s and 201 s, `destroy` 185 s and 177 s, the preview 13 s and 12 s;
 * each step rewrites the whole state), more with B, so it is off by default.
 * For investigation: BENCH_ENGINE_KINDS ("P,A": only those programs), BENCH_ENGINE_NODE_OPTIONS
 * (NODE_OPTIONS of the program and the provider host, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`; the engine
 * stops the host with a signal, so its profile is written only with a `--require` of a file doing
 * `process.on("SIGINT", () => process.exit(0))`),
 * BENCH_ENGINE_WRITE=0 (print the section, leave BENCHMARKS.md alone).
 */
import { writeBenchmarkSection } from "./benchmarks-file.mts";
import { readFileSync, mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { closeAllPools } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram } from "./pulumi-workspace.mts";
import { stateBytesByResource } from "./state-size.mts";

const SIZES = (process.env.BENCH_ENGINE_N ?? "50,150,500").split(",").filter(Boolean).map(Number);
const PREVIEW_SIZES = (process.env.BENCH_ENGINE_PREVIEW_N ?? "2000").split(",").filter(Boolean).map(Number);
const REPS = Number(process.env.BENCH_ENGINE_REPS ?? 3);
/** The machine's load when the run began: the report says how busy the machine was. */
const LOAD_AT_START = loadavg()[0]!;

type Kind = "P" | "A" | "B";
const KINDS = (process.env.BENCH_ENGINE_KINDS ?? "P,A,B").split(",").filter(Boolean) as Kind[];
const PREVIEW_UP = process.env.BENCH_ENGINE_PREVIEW_UP === "1";
const NODE_OPTIONS = process.env.BENCH_ENGINE_NODE_OPTIONS;
type Operation = "up" | "preview" | "destroy" | "new-stack preview";

/** The three programs, as plain JavaScript (no TypeScript compile in the timing), sized by the stack config `count` (N + 2 resources each). */
const PROGRAMS: Record<Kind, string> = {
  P: `const pulumi = require("@pulumi/pulumi");
const { Badge } = require("pulumi-platform");
const config = new pulumi.Config();
const count = Number(config.require("count"));
const first = Number(config.get("first") ?? 0);
for (let i = first; i < first + count; i++) {
  new Badge("badge-" + i, { project: "acme/web", name: "bench-" + i, linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}.svg" });
}
for (const name of ["docs", "chat"]) {
  new Badge("group-" + name, { group: "acme", name: "bench-" + name + "-" + first, linkUrl: "https://docs.example.com/%{project_path}", imageUrl: "https://img.shields.io/badge/docs-online-blue" });
}
`,
  A: `const pulumi = require("@pulumi/pulumi");
const count = Number(new pulumi.Config().require("count"));
// Returns an id and sends nothing: the engine's and the SDK's own cost of a dynamic resource.
const provider = { async create(inputs) { return { id: inputs.name, outs: inputs }; } };
class Trivial extends pulumi.dynamic.Resource {
  constructor(name, props) { super(provider, name, props, {}); }
}
for (let i = 0; i < count + 2; i++) {
  new Trivial("item-" + i, { name: "bench-" + i, linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}.svg" });
}
`,
  B: `const pulumi = require("@pulumi/pulumi");
const count = Number(new pulumi.Config().require("count"));
class Item extends pulumi.ComponentResource {
  constructor(name) { super("bench:index:Item", name, {}, {}); this.registerOutputs({}); }
}
for (let i = 0; i < count + 2; i++) new Item("item-" + i);
`,
};

function writeProgram(root: string, kind: Kind): string {
  const dir = path.join(root, `floor-${kind}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: bench-${kind.toLowerCase()}\nruntime: nodejs\nmain: index.js\n`);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `bench-${kind.toLowerCase()}`, private: true, main: "index.js" }));
  writeFileSync(path.join(dir, "index.js"), PROGRAMS[kind]);
  return dir;
}

/**
 * Peak resident memory of the dynamic-provider host: every 100 ms, the VmHWM
 * (the kernel's own high-water mark of RSS) of each node process running
 * `@pulumi/pulumi/cmd/dynamic-provider`, found in /proc by its command line;
 * the largest seen. Only this program's host counts (its environment names
 * the program's PULUMI_HOME: others on the machine run their own). The host is
 * one node process (its `sh` launcher is negligible).
 */
class ProviderHostMemory {
  private peakKb = 0;
  private readonly timer = setInterval(() => this.sample(), 100);

  private readonly pulumiHome: string;

  constructor(pulumiHome: string) {
    this.pulumiHome = pulumiHome;
  }

  private sample(): void {
    for (const pid of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("cmd/dynamic-provider")) continue;
        if (!readFileSync(`/proc/${pid}/environ`, "utf8").includes(`PULUMI_HOME=${this.pulumiHome}\0`)) continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) this.peakKb = Math.max(this.peakKb, Number(hwm[1]));
      } catch {
        // the process ended between the listing and the read
      }
    }
  }

  stop(): number {
    this.sample();
    clearInterval(this.timer);
    return this.peakKb / 1024;
  }
}

interface Sample {
  n: number;
  kind: Kind;
  operation: Operation;
  seconds: number;
  providerPeakMb?: number;
}

async function timed(n: number, kind: Kind, operation: Operation, program: PulumiProgram, run: () => Promise<unknown>): Promise<Sample> {
  const memory = new ProviderHostMemory(path.join(program.root, "home"));
  const start = performance.now();
  await run();
  const seconds = (performance.now() - start) / 1000;
  const peak = memory.stop();
  console.error(`N=${n} ${kind} ${operation}: ${seconds.toFixed(1)} s${peak ? `, provider host peak ${peak.toFixed(0)} MB` : ""}`);
  return { n, kind, operation, seconds, providerPeakMb: peak || undefined };
}

async function createPrograms(root: string, emulator: Emulator, n: number): Promise<Record<Kind, PulumiProgram>> {
  const programs = {} as Record<Kind, PulumiProgram>;
  for (const kind of KINDS) {
    programs[kind] = await PulumiProgram.create({
      programDir: writeProgram(root, kind),
      stack: `n${n}`,
      config: { "platform:url": emulator.url, count: String(n) },
      secrets: kind === "P" ? { "platform:token": emulator.tokens.root! } : {},
      env: NODE_OPTIONS ? { NODE_OPTIONS } : undefined,
    });
  }
  return programs;
}

/** up, preview with no changes and destroy of each program, alternating P, A, B per repetition; the state bytes after the first up. */
async function measureSize(root: string, emulator: Emulator, n: number, samples: Sample[], stateBytes: Record<string, number>): Promise<void> {
  const programs = await createPrograms(root, emulator, n);
  try {
    for (let rep = 0; rep < REPS; rep++) {
      for (const kind of KINDS) {
        const program = programs[kind];
        samples.push(await timed(n, kind, "up", program, () => program.up()));
        if (rep === 0) stateBytes[`${n}/${kind}`] = meanResourceBytes((await program.cli(["stack", "export"])).stdout, kind);
        samples.push(await timed(n, kind, "preview", program, () => program.preview("--expect-no-changes")));
        samples.push(await timed(n, kind, "destroy", program, () => program.destroy()));
      }
    }
  } finally {
    for (const program of Object.values(programs)) program.dispose();
  }
}

/**
 * The preview sizes (the issue's 2,000): a preview of a new stack, so every resource is a create (check, no
 * diff); with BENCH_ENGINE_PREVIEW_UP=1, then `up`, a preview with no changes and `destroy`.
 */
async function measurePreviewOnly(root: string, emulator: Emulator, n: number, samples: Sample[]): Promise<void> {
  const programs = await createPrograms(root, emulator, n);
  try {
    for (let rep = 0; rep < REPS; rep++) {
      for (const kind of KINDS) {
        const program = programs[kind];
        samples.push(await timed(n, kind, "new-stack preview", program, () => program.preview()));
        if (!PREVIEW_UP) continue;
        samples.push(await timed(n, kind, "up", program, () => program.up()));
        samples.push(await timed(n, kind, "preview", program, () => program.preview("--expect-no-changes")));
        samples.push(await timed(n, kind, "destroy", program, () => program.destroy()));
      }
    }
  } finally {
    for (const program of Object.values(programs)) program.dispose();
  }
}

/** Mean bytes of the program's own resources (not the stack, not the provider resources) in `pulumi stack export`. */
function meanResourceBytes(exportText: string, kind: Kind): number {
  const type = kind === "B" ? "bench:index:Item" : kind === "P" ? ":Badge" : "pulumi-nodejs:dynamic:Resource";
  const own = stateBytesByResource(exportText, { installedLayout: true }).filter((resource) => resource.type.endsWith(type));
  return Math.round(own.reduce((sum, resource) => sum + resource.bytes, 0) / own.length);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function stats(samples: Sample[], n: number, kind: Kind, operation: Operation) {
  const times = samples.filter((s) => s.n === n && s.kind === kind && s.operation === operation).map((s) => s.seconds);
  return times.length ? { min: Math.min(...times), median: median(times) } : undefined;
}

function timeTable(samples: Sample[], sizes: number[], previewSizes: number[]): string {
  const cell = (value?: { min: number; median: number }) => (value ? `${value.min.toFixed(1)} / ${value.median.toFixed(1)} s` : "n/a");
  const rows = [
    ...sizes.flatMap((n) => (["up", "preview", "destroy"] as Operation[]).map((operation) => ({ n, operation, label: operation }))),
    ...previewSizes.flatMap((n) => [
      { n, operation: "new-stack preview" as Operation, label: "preview (new stack, all creates)" },
      ...(PREVIEW_UP ? (["up", "preview", "destroy"] as Operation[]).map((operation) => ({ n, operation, label: operation })) : []),
    ]),
  ];
  const lines = rows.map(({ n, operation, label }) => {
    const [p, a, b] = (["P", "A", "B"] as Kind[]).map((kind) => stats(samples, n, kind, operation));
    const ratio = p && a ? `${(p.min / a.min).toFixed(2)} / ${(p.median / a.median).toFixed(2)}` : "n/a";
    return `| ${n} | ${label} | ${cell(p)} | ${cell(a)} | ${cell(b)} | ${ratio} |`;
  });
  return ["| N | operation | this package (min / median) | floor A | floor B | package / A (min / median) |", "|---:|---|---:|---:|---:|---:|", ...lines].join("\n");
}

/** Seconds per added resource between two sizes, from the minimums. */
function slopeLines(samples: Sample[], sizes: number[]): string {
  const [low, high] = [150, 500].every((n) => sizes.includes(n)) ? [150, 500] : [sizes.at(-2)!, sizes.at(-1)!];
  if (low === undefined || high === undefined || low === high) return "";
  const lines = (["up", "destroy"] as Operation[]).map((operation) => {
    const slope = (kind: Kind) => {
      const [atLow, atHigh] = [stats(samples, low, kind, operation), stats(samples, high, kind, operation)];
      return atLow && atHigh ? `${(((atHigh.min - atLow.min) / (high - low)) * 1000).toFixed(1)} ms` : "n/a";
    };
    return `- ${operation}: this package ${slope("P")}, floor A ${slope("A")}, floor B ${slope("B")} a resource`;
  });
  return `Slope per resource between N = ${low} and ${high} (minimums):\n\n${lines.join("\n")}\n`;
}

function memoryLines(samples: Sample[]): string {
  const byN = new Map<string, number>();
  for (const s of samples) {
    if (s.providerPeakMb === undefined) continue;
    const key = `${s.n} | ${s.kind} | ${s.operation}`;
    byN.set(key, Math.max(byN.get(key) ?? 0, s.providerPeakMb));
  }
  const rows = [...byN].filter(([key]) => /^(500|2000) /.test(key)).map(([key, mb]) => `| ${key} | ${mb.toFixed(0)} MB |`);
  return ["| N | program | operation | provider host peak RSS |", "|---:|---|---|---:|", ...rows].join("\n");
}

function cliVersion(): string {
  return execFileSync(path.join(ensurePulumiCli(), "pulumi"), ["version"], { encoding: "utf8" }).trim();
}

function report(samples: Sample[], stateBytes: Record<string, number>): string {
  // A program left out (BENCH_ENGINE_KINDS) has no figure.
  const bytesOf = (n: number, kind: Kind) => stateBytes[`${n}/${kind}`] ?? "n/a";
  const state = SIZES.map((n) => `| ${n} | ${bytesOf(n, "P")} | ${bytesOf(n, "A")} | ${bytesOf(n, "B")} |`).join("\n");
  return (
    `Written by \`npm run bench:engine\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: Pulumi CLI ${cliVersion()}, Node ${process.version}, ` +
    `${cpuCount()} CPUs, 1-minute load average ${LOAD_AT_START.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end (a load above the benchmark's own, about 1 to 2, means others shared the machine; the programs alternate within each repetition so a busy moment falls on all three; ${REPS} repetitions, minimum and median). ` +
    `The language host is the one \`ensurePulumiCli()\` finds (scripts/ensure-pulumi-cli.sh says on stderr when it is the project's minimal stand-in for upstream's \`pulumi-language-nodejs\`, as on this machine). File backend, the embedded emulator on loopback, \`--parallel\` left at the CLI's default (8); \`up\` and \`destroy\` with \`--skip-preview\`, \`preview\` with \`--expect-no-changes\`. ` +
    `P is N project badges plus two group badges; A is N + 2 dynamic resources whose provider sends nothing; B is N + 2 component resources. ` +
    `At ${PREVIEW_SIZES.join(", ") || "no size"}: a preview of a new stack (every resource a create: check, no diff)` +
    `${PREVIEW_UP ? ", then `up` of the N resources, a preview with no changes and `destroy` (BENCH_ENGINE_PREVIEW_UP=1)" : " only"}.\n\n` +
    timeTable(samples, SIZES, PREVIEW_SIZES) +
    "\n\n" +
    slopeLines(samples, SIZES) +
    (SIZES.length
      ? "\nBytes per resource in `pulumi stack export` (the CLI's own text, source paths as in a user's project; scripts/state-size.mts):\n\n" +
        "| N | this package (badge) | floor A | floor B |\n|---:|---:|---:|---:|\n" +
        state +
        "\n"
      : "") +
    "\nPeak memory of the dynamic-provider host (the kernel's VmHWM of the node process running `@pulumi/pulumi/cmd/dynamic-provider`, found in /proc by its command line and sampled every 100 ms; the largest over the repetitions):\n\n" +
    memoryLines(samples) +
    "\n"
  );
}

function cpuCount(): number {
  return readFileSync("/proc/cpuinfo", "utf8").split("\n").filter((line) => line.startsWith("processor")).length;
}

/** A stack of this package's program (P) with `count` badges named from `first` on. */
async function packageStack(root: string, emulator: Emulator, count: number, stack: string, first = 0): Promise<PulumiProgram> {
  const dir = writeProgram(path.join(root, stack), "P");
  return PulumiProgram.create({
    programDir: dir,
    stack,
    config: { "platform:url": emulator.url, count: String(count), first: String(first) },
    secrets: { "platform:token": emulator.tokens.root! },
  });
}

/**
 * What a team can do with a large stack (README "Large stacks"), printed only:
 * \`up\` and \`destroy\` of N badges at \`--parallel\` 8 (the default), 32 and 1;
 * and the same N split into two stacks of N / 2, one after the other and both at once.
 */
async function measureScaling(root: string, emulator: Emulator, n: number): Promise<void> {
  const time = async (label: string, run: () => Promise<unknown>) => {
    const start = performance.now();
    await run();
    console.log(`N=${n} ${label}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  };
  const whole = await packageStack(root, emulator, n, "whole");
  for (const parallel of [8, 32, 1]) {
    await time(`one stack, up --parallel ${parallel}`, () => whole.up("--parallel", String(parallel)));
    await time(`one stack, destroy --parallel ${parallel}`, () => whole.cli(["destroy", "--yes", "--skip-preview", "--parallel", String(parallel)]));
  }
  whole.dispose();
  const halves = [await packageStack(root, emulator, n / 2, "first"), await packageStack(root, emulator, n / 2, "second", n / 2)];
  await time("two stacks of N/2, up one after the other", async () => {
    for (const half of halves) await half.up();
  });
  await time("two stacks of N/2, destroy one after the other", async () => {
    for (const half of halves) await half.destroy();
  });
  await time("two stacks of N/2, up at the same time", () => Promise.all(halves.map((half) => half.up())));
  await time("two stacks of N/2, destroy at the same time", () => Promise.all(halves.map((half) => half.destroy())));
  for (const half of halves) half.dispose();
}

async function main(): Promise<void> {
  ensurePulumiCli();
  const emulator = await startEmulator({ port: 0 });
  const root = mkdtempSync(path.join(tmpdir(), "pulumi-platform-bench-engine-"));
  const samples: Sample[] = [];
  const stateBytes: Record<string, number> = {};
  try {
    if (process.env.BENCH_ENGINE_SCALING) return await measureScaling(root, emulator, Number(process.env.BENCH_ENGINE_SCALING));
    for (const n of SIZES) await measureSize(root, emulator, n, samples, stateBytes);
    for (const n of PREVIEW_SIZES) await measurePreviewOnly(root, emulator, n, samples);
    const body = report(samples, stateBytes);
    console.log(body);
    if (process.env.BENCH_ENGINE_WRITE !== "0") writeBenchmarkSection("Real engine", body);
  } finally {
    rmSync(root, { recursive: true, force: true });
    await closeAllPools();
    await emulator.stop();
  }
}

await main();
