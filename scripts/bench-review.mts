/**
 * What the review costs at 500 resources (`npm run bench`, "Review report"
 * section of BENCHMARKS.md): a new stack of 500 badges previewed by the real
 * CLI against the emulator, then `platform-review` on that preview (the
 * report, its data, and the requests of posting it twice and of the apply's
 * guard, counted in the emulator's request log). A benchmark, never a test.
 *
 *   node scripts/bench-review.mts     (after npm run build)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { mergeRequestStore, startEmulator } from "pulumi-platform/emulator";
import { main } from "../dist/review/cli.js";
import { writeBenchmarkSection } from "./benchmarks-file.mts";
import { PulumiProgram } from "./pulumi-workspace.mts";

const RESOURCES = 500;
const RUNS = 5;

const program = `import { Badge } from "pulumi-platform";
for (let i = 0; i < ${RESOURCES}; i++) {
  new Badge("badge-" + i, { project: "acme/web", name: "badge-" + i, linkUrl: "https://ci.example.com/" + i, imageUrl: "https://ci.example.com/" + i + ".svg" });
}
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

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

  const rows = [
    `| preview of the new stack by the CLI (for scale) | ${previewSeconds.toFixed(1)} s |`,
    `| platform-review: read the preview, write the report and its data (median of ${RUNS}) | ${median(times).toFixed(0)} ms |`,
    `| the preview's JSON | ${(preview.length / 1024).toFixed(0)} KB |`,
    `| the report | ${(report.length / 1024).toFixed(0)} KB (note limit: 977 KB) |`,
    `| requests of the first --post | ${first.length}: ${first.join(", ")} |`,
    `| requests of the next --post (rewrites the note) | ${second.length}: ${second.join(", ")} |`,
    `| requests of the apply's --check-reviewed | ${guard.length}: ${guard.join(", ")} |`,
  ];
  const section = [
    `A new stack of ${RESOURCES} badges, previewed by the real CLI against the emulator; \`platform-review\` run in-process on that preview.`,
    "A note is found by listing the merge request's notes (one page per 100 notes), so the request counts grow with the notes a merge request has, not with the stack.",
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
