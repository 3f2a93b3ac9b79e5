/**
 * What platform-import costs on a 50-group estate (`npm run bench`, "Import"
 * section of BENCHMARKS.md): a top-level group with 49 subgroups, each group
 * with badges, an integration, a SAML group link, its settings and two epics
 * (one the other's child), each with a
 * project holding a badge, a pipeline schedule, its registry visibility and an
 * error tracking key, and on the top-level group a registry with two upstreams
 * and a cleanup policy. Reads the estate as the command does (the wall time,
 * and the requests counted in the emulator's request log, all GETs), then
 * writes the program. A benchmark, never a test.
 *
 *   node scripts/bench-import.mts     (after npm run build)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { defaultSeed, startEmulator } from "pulumi-platform/emulator";
import { main } from "../dist/import/cli.js";
import { writeBenchmarkSection } from "./benchmarks-file.mts";

const GROUPS = 50;
const RUNS = 3;

const groupPaths = ["estate", ...Array.from({ length: GROUPS - 1 }, (_, i) => `estate/team-${String(i + 1).padStart(2, "0")}`)];
const seed = {
  ...defaultSeed,
  groups: [
    ...(defaultSeed.groups ?? []),
    ...groupPaths.map((full) => {
      const parts = full.split("/");
      return { path: parts.at(-1)!, ...(parts.length > 1 ? { parent: parts.slice(0, -1).join("/") } : { tier: "ultimate" as const, members: { alice: 50 } }), name: parts.at(-1)! };
    }),
  ],
  projects: [...(defaultSeed.projects ?? []), ...groupPaths.map((full) => ({ path: "service", namespace: full, name: "Service" }))],
  epics: { ...(defaultSeed.epics as Record<string, object[]>), ...Object.fromEntries(groupPaths.map((full) => [full, [{ iid: 1, title: "Roadmap" }, { iid: 2, title: "Launch", parent: 1 }]])) },
};

const emulator = await startEmulator({ port: 0, seed });
const api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
for (const [index, group] of groupPaths.entries()) {
  await api.post(apiPath`/groups/${group}/badges`, { name: "docs", link_url: `https://docs.example.com/${index}`, image_url: `https://docs.example.com/${index}.svg` });
  await api.post(apiPath`/groups/${group}/badges`, { name: "coverage", link_url: "https://ci.example.com/%{project_path}", image_url: "https://ci.example.com/%{project_path}/coverage.svg" });
  await api.put(apiPath`/groups/${group}/integrations/mattermost`, { webhook: `https://chat.example.com/hooks/${index}`, channel: `team-${index}` });
  await api.post(apiPath`/groups/${group}/saml_group_links`, { saml_group_name: `team-${index}`, access_level: 30 });
  const project = `${group}/service`;
  await api.post(apiPath`/projects/${project}/badges`, { name: "pipeline", link_url: "https://ci.example.com/p", image_url: "https://ci.example.com/p.svg" });
  await api.post(apiPath`/projects/${project}/pipeline_schedules`, { description: "Nightly", ref: "main", cron: "0 2 * * *" });
  await api.post(apiPath`/projects/${project}/error_tracking/client_keys`, {});
}
const registry = await api.post<{ id: number }>(apiPath`/groups/${"estate"}/-/virtual_registries/container/registries`, { name: "containers" });
await api.post(apiPath`/virtual_registries/container/registries/${registry.id}/upstreams`, { name: "Docker Hub", url: "https://registry-1.docker.io" });
await api.post(apiPath`/virtual_registries/container/registries/${registry.id}/upstreams`, { name: "Mirror", url: "https://mirror.example.com" });
await api.post(apiPath`/groups/${"estate"}/-/virtual_registries/cleanup/policy`, { enabled: true, cadence: 7 });

process.env.PLATFORM_URL = emulator.url;
process.env.PLATFORM_TOKEN = emulator.tokens.root!;
const times: number[] = [];
let requests = 0;
let methods = new Set<string>();
let summary = "";
const work = mkdtempSync(path.join(tmpdir(), "bench-import-"));
try {
  for (let run = 0; run < RUNS; run++) {
    const mark = emulator.mark();
    const started = performance.now();
    const out: string[] = [];
    const code = await main(["--group", "estate", "--exclusive", "--out", path.join(work, `run-${run}`), "--quiet"], (text) => out.push(text), () => undefined);
    times.push((performance.now() - started) / 1000);
    if (code !== 0) throw new Error(`platform-import exited with ${code}`);
    // The first run's requests: the later runs of this process share its client, whose once-per-run reads (the user, the plan) are kept.
    const sent = emulator.requestsSince(mark);
    if (run === 0) {
      requests = sent.length;
      methods = new Set(sent.map((entry) => entry.method));
    }
    summary = out.join("");
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  await closeAllPools();
  await emulator.stop();
}

const objects = /^platform-import: (\d+) objects/m.exec(summary)?.[1];
const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
const section = [
  `platform-import --group estate --exclusive on a ${GROUPS}-group estate (a top-level group, 49 subgroups, a project in each; every kind of object): ${objects} objects declared.`,
  "",
  "| measure | value |",
  "|---|---|",
  `| wall time (median of ${RUNS} runs, read and write) | ${median.toFixed(2)} s |`,
  `| requests to the server | ${requests} (${[...methods].sort().join(", ")} only) |`,
  `| requests per owner (group or project) | ${(requests / (GROUPS * 2)).toFixed(1)} |`,
  "",
].join("\n");
process.stdout.write(`${section}\n`);
writeBenchmarkSection("Import", section);
