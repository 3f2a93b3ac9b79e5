/**
 * An apply that fails part way, and its retry, with the real Pulumi CLI and
 * the template's .gitlab-ci.yml jobs (each job's before_script and script in
 * one bash with errexit, as the platform's runner runs them) against the
 * emulator, on a project made by pulumi-platform-new:
 *
 * - a merge request adds a project badge and, after it, a group badge; its
 *   preview and report jobs post the review;
 * - after the merge, the apply job's guard passes, then, before its `up`, the
 *   apply token's user loses the Owner role on the group: the project badge
 *   is created, the group badge refused; the result note says what was
 *   applied, what was not and what to do next;
 * - the role given back, the same apply job runs again for the same commit:
 *   its guard accepts the reviewed plan less what the failed apply did, and
 *   the apply finishes;
 * - a later merge request that deletes the group badge, previewed with a
 *   token whose user is no Owner of the group, fails its preview job naming
 *   the delete, the group and the role (the engine does not verify deletes).
 *
 * Merges are recorded in the emulator's state, as a real server records them.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { mergeRequestStore, startEmulator, type Emulator } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram, repoRoot } from "../../scripts/pulumi-workspace.mts";

interface Job {
  extends?: string | string[];
  before_script?: string[];
  script: string[];
  variables?: Record<string, string>;
  environment?: { name: string };
}
type Run = { code: number; stdout: string; stderr: string };

const ciFile = parse(readFileSync(path.join(repoRoot, "templates/platform/.gitlab-ci.yml"), "utf8")) as Record<string, unknown> & {
  variables: Record<string, string>;
  default: { before_script: string[] };
};

/** The apply's token: maintainer's, whose user is made Owner of acme for the group badge (and loses it for a while). */
const WRITE_TOKEN = "glpat-maintainer-token";
/** The previews' token: maintainer's read_api token, the same user. */
const READ_TOKEN = "glpat-maintainer-release-0004";

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;
let work: string;
let projectId: number;
let mergeRequestIid: number;
let commitSha: string;

const jobOf = (name: string): Job => {
  const job = ciFile[name] as Job;
  return Object.assign({}, ...[job.extends ?? []].flat().map(jobOf), job) as Job;
};
const expand = (value: string, env: NodeJS.ProcessEnv) => value.replace(/\$\{?(\w+)\}?/g, (_m, name: string) => env[name] ?? "");

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * The job's environment as the platform gives it (protected variables only on
 * the default branch, environment-scoped ones only in their environment), and
 * its lines: the before_script (less `npm ci`), then its script. `between`
 * runs in the middle of the script, before the first line that matches `at`.
 */
async function runJob(name: string, ci: Record<string, string>, between?: { at: RegExp; action: () => Promise<void> }): Promise<Run> {
  const job = jobOf(name);
  const before = job.environment?.name === "platform-review" ? [] : (job.before_script ?? ciFile.default.before_script).filter((line) => !line.startsWith("npm ci"));
  let env: NodeJS.ProcessEnv = {
    ...program.env,
    PATH: [path.join(work, "bin"), program.env.PATH].join(path.delimiter),
    STACK: program.stack,
    CI_PROJECT_DIR: program.dir,
    CI_API_V4_URL: `${emulator.url}/api/v4`,
    CI_PROJECT_ID: String(projectId),
    ...ci,
  };
  for (const [key, value] of Object.entries(ciFile.variables)) env[key] = expand(value, env);
  env.REVIEW_TOOL = work;
  const environment = job.environment ? expand(job.environment.name, env) : undefined;
  const variables = [
    { key: "PLATFORM_READ_TOKEN", value: READ_TOKEN },
    { key: "PLATFORM_TOKEN", value: WRITE_TOKEN, protected: true, environment: program.stack },
    { key: "PLATFORM_REVIEW_TOKEN", value: emulator.tokens.alice!, environment: "platform-review" },
    { key: "PLATFORM_REVIEW_TOKEN", value: emulator.tokens.alice!, protected: true, environment: program.stack },
  ];
  for (const variable of variables) {
    if (variable.protected && ci.CI_COMMIT_BRANCH !== "main") continue;
    if (variable.environment !== undefined && variable.environment !== environment) continue;
    env[variable.key] = variable.value;
  }
  env = { ...env, ...Object.fromEntries(Object.entries(job.variables ?? {}).map(([key, value]) => [key, expand(value, env)])) };
  const split = between ? job.script.findIndex((line) => between.at.test(line)) : job.script.length;
  expect(split).toBeGreaterThanOrEqual(0);
  // The shell's variables (the job's `status`) carry over the pause: the first part writes them, the second sources them.
  const state = path.join(work, "job-state.sh");
  const first = await run("bash", ["-eo", "pipefail", "-c", [...before, ...job.script.slice(0, split), `declare -p status 2>/dev/null > ${state} || : > ${state}`].join("\n")], { cwd: program.dir, env });
  if (first.code !== 0 || !between) return first;
  await between.action();
  const second = await run("bash", ["-eo", "pipefail", "-c", [...before, `source ${state}`, ...job.script.slice(split)].join("\n")], { cwd: program.dir, env });
  return { code: second.code, stdout: first.stdout + second.stdout, stderr: first.stderr + second.stderr };
}

/** Sets the apply token's user's role on group acme, as an Owner of acme would in its members page. */
function maintainerOfAcmeIs(level: number): void {
  const user = emulator.state.userByUsername("maintainer")!;
  emulator.state.groupByFullPath("acme")!.members[String(user.id)] = level;
}

async function openMergeRequest(): Promise<void> {
  mergeRequestIid = (await api.post<{ iid: number }>(apiPath`/projects/${projectId}/merge_requests`, { source_branch: "stable", target_branch: "main", title: "Platform: badges" })).iid;
  await emulator.runDueWork();
}

let merges = 0;
function mergeMergeRequest(): void {
  const record = mergeRequestStore.of(emulator.state).mergeRequests.find((mr) => mr.projectId === projectId && mr.iid === mergeRequestIid)!;
  const mergedAt = new Date().toISOString();
  commitSha = (++merges).toString(16).padStart(40, "a");
  Object.assign(record, { state: "merged", mergedAt, updatedAt: mergedAt, mergeUserId: emulator.state.userByUsername("alice")!.id, mergeCommitSha: commitSha });
}

const mergeRequestPipeline = () => ({ CI_PIPELINE_SOURCE: "merge_request_event", CI_MERGE_REQUEST_IID: String(mergeRequestIid), CI_COMMIT_SHA: "c".repeat(40) });
const defaultBranchPipeline = () => ({ CI_PIPELINE_SOURCE: "push", CI_COMMIT_BRANCH: "main", CI_DEFAULT_BRANCH: "main", CI_COMMIT_SHA: commitSha });
const resultNotes = async () =>
  (await api.list<{ body: string }>(apiPath`/projects/${projectId}/merge_requests/${mergeRequestIid}/notes`, { sort: "asc" })).filter((note) => note.body.startsWith("<!-- platform-review-applied"));
const badgeNames = async (owner: "groups" | "projects", path: string) => (await api.list<{ name: string }>(`/${owner}/${encodeURIComponent(path)}/badges`)).map((badge) => badge.name).filter((name) => name.endsWith("status") || name === "pipeline");

/** The program: the template's project badge and, once it exists, a group badge (a step that needs the Owner role on acme). */
function writeProgram(withGroupBadge: boolean): void {
  const index = path.join(program.dir, "index.ts");
  const base = readFileSync(index, "utf8").split("// --- the change under review")[0]!;
  const change = withGroupBadge
    ? [
        "// --- the change under review",
        'new Badge("acme-status", { group: "acme", name: "acme-status", linkUrl: "https://status.example.com/acme", imageUrl: "https://status.example.com/acme.svg" }, { dependsOn: [pipeline] });',
        "",
      ].join("\n")
    : "";
  writeFileSync(index, base + change);
}

beforeAll(async () => {
  ensurePulumiCli();
  emulator = await startEmulator({ port: 0, backgroundWork: "manual" });
  api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
  work = mkdtempSync(path.join(tmpdir(), "failed-apply-e2e-"));
  mkdirSync(path.join(work, "bin"));
  symlinkSync(path.join(repoRoot, "bin/platform-review.js"), path.join(work, "bin/platform-review"));
  mkdirSync(path.join(work, "node_modules/.bin"), { recursive: true });
  symlinkSync(path.join(repoRoot, "bin/platform-review.js"), path.join(work, "node_modules/.bin/platform-review"));
  const made = spawnSync(process.execPath, [path.join(repoRoot, "bin/pulumi-platform-new.js"), path.join(work, "infra")], { encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  program = await PulumiProgram.create({ programDir: path.join(work, "infra"), transpileOnly: true, config: { "platform:url": emulator.url }, secrets: { "platform:token": emulator.tokens.root! } });
  projectId = (await api.get<{ id: number }>(apiPath`/projects/${"acme/web"}`)).id;
  maintainerOfAcmeIs(50);
}, 10 * 60_000);

afterAll(async () => {
  program?.dispose();
  if (work) rmSync(work, { recursive: true, force: true });
  await closeAllPools();
  await emulator?.stop();
});

describe.sequential("an apply that fails part way, and its retry, through the template's jobs", { timeout: 5 * 60_000 }, () => {
  it("the merge request's review shows both badges to create", async () => {
    writeProgram(true);
    await openMergeRequest();
    const preview = await runJob("preview", mergeRequestPipeline());
    expect(preview.code, preview.stderr).toBe(0);
    expect((await runJob("report", mergeRequestPipeline())).code).toBe(0);
    expect(preview.stdout).toContain("creates badge <code>acme-status</code> of group <code>acme</code>");
    expect(preview.stdout).toContain("creates badge <code>pipeline</code> of project <code>acme/web</code>");
  });

  it("the apply whose token loses the Owner role before `up` creates the project badge, not the group's, and says what to do next", async () => {
    mergeMergeRequest();
    const apply = await runJob("apply", defaultBranchPipeline(), { at: /pulumi -- up /, action: async () => maintainerOfAcmeIs(40) });
    expect(apply.code, `${apply.stdout}\n${apply.stderr}`).not.toBe(0);
    expect(await badgeNames("projects", "acme/web")).toEqual(["pipeline"]);
    expect(await badgeNames("groups", "acme")).toEqual([]);
    const [result] = await resultNotes();
    expect(result!.body).toContain("**The apply failed:**");
    expect(result!.body).toContain("created badge");
    expect(result!.body).toMatch(/#### Not applied \(1\)\n\n- `\+` creates badge <code>acme-status<\/code> of group <code>acme<\/code> <em>\(its step failed/);
    expect(result!.body).toContain("needs the Owner role on group acme");
    expect(result!.body).toContain("**What to do next:** Fix what the problems above name");
    expect(apply.stderr).toContain("platform-review: the apply failed part way (2 applied, 1 not applied)"); // the stack's own resource, and the project badge
  });

  it("with the role given back, the same job for the same commit applies the rest: its guard accepts the reviewed plan less what was applied", async () => {
    maintainerOfAcmeIs(50);
    const apply = await runJob("apply", defaultBranchPipeline());
    expect(apply.code, `${apply.stdout}\n${apply.stderr}`).toBe(0);
    expect(apply.stderr).toContain("an earlier apply of this commit made 2 of the reviewed changes");
    expect(await badgeNames("groups", "acme")).toEqual(["acme-status"]);
    const [, retry] = await resultNotes();
    expect(retry!.body).toContain("**Applied:** 1 created.");
    expect(retry!.body).not.toContain("Not applied");
  });

  it("a merge request that deletes the group badge, previewed with a token whose user is no Owner of acme, fails its preview naming the delete", async () => {
    maintainerOfAcmeIs(40);
    writeProgram(false);
    await openMergeRequest();
    const preview = await runJob("preview", mergeRequestPipeline());
    expect(preview.code).toBe(1);
    expect(preview.stdout).toContain("deletes badge");
    expect(preview.stdout).toMatch(/acme-status &#40;Badge&#41;<\/code>: <code>Badge&#58; could not delete groups\/acme\/badges\/\d+&#58; group&#58; the token&#39;s user &#40;maintainer&#41; needs the Owner role on group acme/);
    const saved = JSON.parse(readFileSync(path.join(program.dir, `preview-${program.stack}.json`), "utf8")) as { diagnostics: { severity: string; message: string }[] };
    expect(saved.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([expect.stringMatching(/^Badge: could not delete groups\/acme\/badges\/\d+: group: /)]);
  });
});
