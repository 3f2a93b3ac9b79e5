/**
 * What the review costs at 500 resources (`npm run bench`, "Review report"
 * section of BENCHMARKS.md): a new stack of 500 badges previewed by the real
 * CLI against the emulator, then `platform-review` on that preview (the
 * report, its data, and the requests of posting it twice and of the apply's
 * guard, counted in the emulator's request log); and at its limits, a 100 MB
 * preview and 15,000 changes (./large-preview.mts), each by the command in a
 * Node.js of its own, its time and the most memory it held. A benchmark,
 * never a test (test/review/limits.test.ts checks what these give).
 *
 *   node scripts/bench-review.mts     (after npm run build)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { mergeRequestStore, startEmulator } from "pulumi-platform/emulator";
import { main } from "../dist/review/cli.js";
import { writeBenchmarkSection } from "./benchmarks-file.mts";
import { writeLargePreview } from "./large-preview.mts";
import { PulumiProgram } from "./pulumi-workspace.mts";

const RESOURCES = 500;
const RUNS = 5;

const program = `import { Badge } from "pulumi-platform";
for (let i = 0; i < ${RESOURCES}; i++) {
  new Badge("badge-" + i, { project: "acme/web", name: "badge-" + i, linkUrl: "https://ci.example.com/" + i, imageUrl: "https://ci.example.com/" + i + ".svg" });
}
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `platform-review --preview <file> --json <file> --quiet` in a Node.js of its own, its heap bounded to 1 GiB: seconds from start to exit and the most memory it held (MiB). */
function commandCost(previewFile: string): { seconds: number; mib: number } {
  const cli = path.resolve(import.meta.dirname, "../dist/review/cli.js");
  const script = `require(${JSON.stringify(cli)}).main(process.argv.slice(1), {}, () => {}).then((code) => { process.stderr.write("maxRSS " + process.resourceUsage().maxRSS + "\\n"); process.exitCode = code; });`;
  const started = performance.now();
  const run = spawnSync(process.execPath, ["--max-old-space-size=1024", "-e", script, "--", "--preview", previewFile, "--json", `${previewFile}.review.json`, "--quiet"], { encoding: "utf8" });
  const seconds = (performance.now() - started) / 1000;
  const maxRss = /maxRSS (\d+)/.exec(run.stderr);
  if (run.status !== 0 || !maxRss) throw new Error(`platform-review failed on ${previewFile}: ${run.stderr}`);
  return { seconds, mib: Number(maxRss[1]) / 1024 };
}

const work = mkdtempSync(path.join(tmpdir(), "bench-review-"));
const emulator = await startEmulator({ port: 0 });
let pulumi: PulumiProgram | undefined;
try {
  writeFileSync(path.join(work, "Pulumi.yaml"), "name: bench-review\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
  writeFileSync(path.join(work, "index.ts"), program);
  pulumi = await PulumiProgram.create({ programDir: work, transpileOnly: true, config: { "platform:url": emulator.url }, secrets: { "platform:token": emulator.tokens.root! } });
  const started = performance.now();
  const preview = (await pulumi.cli(["preview", "--json"])).stdout;
  const previewSeconds = (performance.now() - started) / 1000;
  const previewFile = path.join(work, "preview.json");
  writeFileSync(previewFile, preview);

  const quiet = () => undefined;
  const summaryFile = path.join(work, "review.json");
  let report = "";
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    await main(["--preview", previewFile, "--json", summaryFile], {}, (text) => (report = text));
    times.push(performance.now() - start);
  }

  const api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root! });
  const mr = await api.post<{ iid: number }>(apiPath`/projects/${"acme/web"}/merge_requests`, { source_branch: "stable", target_branch: "main", title: "bench" });
  emulator.runDueWork();
  const { project_id } = await api.get<{ project_id: number }>(apiPath`/projects/${"acme/web"}/merge_requests/${mr.iid}`);
  const ci = { CI_API_V4_URL: `${emulator.url}/api/v4`, CI_PROJECT_ID: String(project_id), PLATFORM_REVIEW_TOKEN: emulator.tokens.alice! };
  const requestsOf = async (env: Record<string, string>, ...args: string[]) => {
    const mark = emulator.mark();
    await main(["--preview", previewFile, "--quiet", ...args], env, quiet);
    return emulator.requestsSince(mark).map((request) => `${request.method} ${request.path.replace(/\/[0-9a-f]{40}(\/|$)/g, "/:sha$1").replace(/\/\d+(\/|$)/g, "/:n$1")}`);
  };
  const first = await requestsOf({ ...ci, CI_MERGE_REQUEST_IID: String(mr.iid) }, "--post");
  const second = await requestsOf({ ...ci, CI_MERGE_REQUEST_IID: String(mr.iid) }, "--post");
  // The merge, as a real server records it (the emulator serves no merge endpoint): the guard reads the merged merge request.
  const sha = "e".repeat(40);
  Object.assign(mergeRequestStore.of(emulator.state).mergeRequests.find((record) => record.projectId === project_id && record.iid === mr.iid)!, {
    state: "merged",
    mergedAt: new Date().toISOString(),
    mergeCommitSha: sha,
  });
  const guard = await requestsOf({ ...ci, CI_COMMIT_SHA: sha, CI_COMMIT_BRANCH: "main" }, "--check-reviewed");

  const large = path.join(work, "large.json");
  const largeCounts = writeLargePreview(large, { bytes: 100 * 1024 * 1024 });
  const largeChanges = largeCounts.create + largeCounts.update + largeCounts.delete + largeCounts.replace;
  const largeCost = commandCost(large);
  const many = path.join(work, "many.json");
  writeLargePreview(many, { changes: 10_000, removals: 5_000 });
  const manyCost = commandCost(many);
  const mb = (file: string) => (statSync(file).size / 1024 / 1024).toFixed(0);

  const rows = [
    `| preview of the new stack by the CLI (for scale) | ${previewSeconds.toFixed(1)} s |`,
    `| platform-review: read the preview, write the report and its data (median of ${RUNS}) | ${median(times).toFixed(0)} ms |`,
    `| the preview's JSON | ${(preview.length / 1024).toFixed(0)} KB |`,
    `| the report | ${(report.length / 1024).toFixed(0)} KB (note limit: 977 KB) |`,
    `| requests of the first --post | ${first.length}: ${first.join(", ")} |`,
    `| requests of the next --post (rewrites the note) | ${second.length}: ${second.join(", ")} |`,
    `| requests of the apply's --check-reviewed | ${guard.length}: ${guard.join(", ")} |`,
    `| a ${mb(large)} MB preview (${largeChanges} changes: creates, updates, deletes, replacements, ${(statSync(large).size / largeChanges / 1024).toFixed(1)} KB a step): read, report, data (one run, a Node.js bounded to 1 GiB of heap) | ${largeCost.seconds.toFixed(1)} s, ${largeCost.mib.toFixed(0)} MiB at most |`,
    `| 15,000 changes (${mb(many)} MB: creates, updates, deletes, replacements, 5,000 deletions of an only-these set): the same | ${manyCost.seconds.toFixed(1)} s, ${manyCost.mib.toFixed(0)} MiB at most |`,
  ];
  const section = [
    `A new stack of ${RESOURCES} badges, previewed by the real CLI against the emulator; \`platform-review\` run in-process on that preview.`,
    "A note is found by listing the merge request's notes (one page per 100 notes), so the request counts grow with the notes a merge request has, not with the stack.",
    "The large previews (scripts/large-preview.mts: steps in the CLI's shape) are reviewed by the command in a Node.js of its own, timed from its start to its exit; the limits are 60 s and 1 GiB on two cores.",
    "",
    "| measure | value |",
    "|---|---|",
    ...rows,
    "",
  ].join("\n");
  process.stdout.write(`${section}\n`);
  writeBenchmarkSection("Review report", section);
} finally {
  pulumi?.dispose();
  await closeAllPools();
  await emulator.stop();
  rmSync(work, { recursive: true, force: true });
}
