/**
 * `npx node scripts/bench-verify.mts` (part of `npm run bench`): what
 * verification at preview costs, in reads and time, written to BENCHMARKS.md.
 *
 * 1. A real preview: `pulumi preview` of an example (default `platform-team`,
 *    `BENCH_EXAMPLE` to change it) against the emulator, with
 *    `platform:verifyAtPreview` on and off, `BENCH_RUNS` times each (default
 *    3): the requests each preview sent (from the emulator's log), by what
 *    they read, and its wall time.
 * 2. Steps on existing objects, in process through the provider objects as
 *    the engine calls them (check, then diff): N pipeline schedules of alice
 *    and N badges on one project, updated with the token of another user or
 *    of the owner. The reads are counted per run, per owner and per object:
 *    a schedule's owner is the one fact read per object, and only when the
 *    role does not do without it.
 */
import { apiPath, closeAllPools, PlatformClient, providers } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { writeBenchmarkSection } from "./benchmarks-file.mts";
import { PulumiProgram } from "./pulumi-workspace.mts";

const EXAMPLE = process.env.BENCH_EXAMPLE ?? "platform-team";
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const OBJECTS = 20;

/** What a verification read is of: the run, an owner (and its members or lists), one object. */
function readOf(path: string): "run" | "owner" | "object" {
  if (/^\/api\/v4\/(user|license|features(\/definitions)?|namespaces\/[^/]+)$/.test(path)) return "run";
  if (/\/pipeline_schedules\/\d+$/.test(path) || /\/virtual_registries\/container\/registries\/\d+$/.test(path)) return "object";
  return "owner";
}

const requestsSince = (emulator: Emulator, start: number) => emulator.requestLog.slice(start).map((entry) => ({ method: entry.method, path: entry.path.split("?")[0]! }));

function byKind(requests: { path: string }[]): Record<"run" | "owner" | "object", number> {
  const counts = { run: 0, owner: 0, object: 0 };
  for (const request of requests) counts[readOf(request.path)]++;
  return counts;
}

async function realPreview(): Promise<string[]> {
  const emulator = await startEmulator({ port: 0 });
  const program = await PulumiProgram.create({ example: EXAMPLE, transpileOnly: true, config: { "platform:url": emulator.url }, secrets: { "platform:token": emulator.tokens.root! } });
  const rows: string[] = [];
  try {
    for (const verify of ["true", "false"]) {
      await program.setConfig("platform:verifyAtPreview", verify);
      const seconds: number[] = [];
      let requests: { method: string; path: string }[] = [];
      for (let run = 0; run < RUNS; run++) {
        const before = emulator.requestLog.length;
        const started = performance.now();
        await program.preview();
        seconds.push((performance.now() - started) / 1000);
        requests = requestsSince(emulator, before);
      }
      const kinds = byKind(requests);
      const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)]!;
      rows.push(`| ${EXAMPLE}, new stack | ${verify === "true" ? "on" : "off"} | ${requests.length} | ${kinds.run} | ${kinds.owner} | ${kinds.object} | ${median.toFixed(2)} s |`);
      console.log(`${EXAMPLE} preview, verifyAtPreview ${verify}: ${requests.length} requests, median ${median.toFixed(2)} s`);
      for (const request of requests) console.log(`  ${request.method} ${request.path}`);
    }
  } finally {
    program.dispose();
    await closeAllPools();
    await emulator.stop();
  }
  return rows;
}

/** The steps of a preview of updates to existing objects, in process; the reads they sent, by kind. */
async function objectSteps(): Promise<string[]> {
  const emulator = await startEmulator({ port: 0 });
  const alice = new PlatformClient({ url: emulator.url, token: emulator.tokens.alice!, retryBaseDelayMs: 10 });
  const configure = (user: string) =>
    providers.Badge.configure({
      config: { get: (key: string) => ({ "platform:url": emulator.url, "platform:token": emulator.tokens[user]!, "platform:verifyAtPreview": "true" })[key], require: (key: string) => key },
    } as never);
  const schedules: { id: string; state: Record<string, unknown> }[] = [];
  const badges: { id: string; state: Record<string, unknown> }[] = [];
  for (let n = 0; n < OBJECTS; n++) {
    const schedule = await alice.post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: `bench ${n}`, ref: "main", cron: "0 2 * * *" });
    schedules.push({ id: `projects/acme%2Fweb/pipeline_schedules/${schedule.id}`, state: { project: "acme/web", description: `bench ${n}`, ref: "main", cron: "0 2 * * *", cronTimezone: "UTC", active: true } });
    const badge = await alice.post<{ id: number }>(apiPath`/projects/${"acme/web"}/badges`, { link_url: `https://b.test/${n}`, image_url: `https://b.test/${n}.svg` });
    badges.push({ id: `projects/acme%2Fweb/badges/${badge.id}`, state: { project: "acme/web", linkUrl: `https://b.test/${n}`, imageUrl: `https://b.test/${n}.svg` } });
  }
  const scenarios: [string, string, "PipelineSchedule" | "Badge", Record<string, unknown>][] = [
    ["schedules, their owner's token", "alice", "PipelineSchedule", { cron: "0 3 * * *" }],
    ["schedules, a Maintainer's token with takeOwnership", "maintainer", "PipelineSchedule", { cron: "0 3 * * *", takeOwnership: true }],
    ["schedules, a Maintainer's token without takeOwnership (each refused)", "maintainer", "PipelineSchedule", { cron: "0 3 * * *" }],
    ["project badges, a Maintainer's token", "maintainer", "Badge", { name: "renamed" }],
  ];
  const rows: string[] = [];
  try {
    for (const [what, user, kind, change] of scenarios) {
      await configure(user);
      const objects = kind === "Badge" ? badges : schedules;
      const before = emulator.requestLog.length;
      let refused = 0;
      for (const { id, state } of objects) {
        const checked = await providers[kind].check(state, { ...state, ...change });
        const failed = checked.failures?.length || (await providers[kind].diff(id, state, checked.inputs).then(() => false, () => true));
        if (failed) refused++;
      }
      const requests = requestsSince(emulator, before);
      const kinds = byKind(requests);
      rows.push(`| ${OBJECTS} ${what} | ${requests.length} | ${kinds.run} | ${kinds.owner} (1 owner) | ${kinds.object} (${(kinds.object / OBJECTS).toFixed(1)} per object) | ${refused} |`);
      console.log(`${what}: ${requests.length} reads (${kinds.run} run, ${kinds.owner} owner, ${kinds.object} object), ${refused} refused`);
    }
  } finally {
    await closeAllPools();
    await emulator.stop();
  }
  return rows;
}

const preview = await realPreview();
const steps = await objectSteps();
const section = [
  `Written by \`npm run bench\` (scripts/bench-verify.mts) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, Node ${process.version}. Reads are the verification's GET requests, each counted once per run: of the run (\`/user\`, a namespace's plan, the licence, the flags), of an owner (the group or project, the member read of the token's user, a list of what must be unique), of one object (a pipeline schedule's owner, a registry's group).`,
  "",
  `A real preview (the Pulumi CLI, ${RUNS} runs, the last one's requests, median time):`,
  "",
  "| preview | verifyAtPreview | requests | of the run | of owners | of objects | time |",
  "|---|---|---:|---:|---:|---:|---:|",
  ...preview,
  "",
  "Updates of existing objects, in process (check, then diff, as a preview calls them), all on project acme/web:",
  "",
  "| objects and token | reads | of the run | of owners | of objects | refused |",
  "|---|---:|---:|---:|---:|---:|",
  ...steps,
  "",
  "A schedule's owner is read once per schedule, and only when the role does not do without it (a Maintainer with `takeOwnership` reads none); every other fact is read once per owner, whatever the number of objects.",
  "",
].join("\n");
process.stdout.write(`${section}\n`);
writeBenchmarkSection("Verification at preview", section);
