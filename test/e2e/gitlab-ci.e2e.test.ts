/**
 * The template's .gitlab-ci.yml run by a real CI interpreter, gitlab-ci-local
 * (shell executor), against the emulator, with two stacks (dev and prod): the
 * pipeline's checkout is a clone of the emulator's own repository of
 * acme/web, whose branches, commits and merges are made through the API, so
 * each pipeline runs at the emulator's commit and the guard finds the merge
 * request that brought it.
 *
 * Set by hand, as gitlab-ci-local does not model them: a merge request
 * pipeline's variables (CI_PIPELINE_SOURCE merge_request_event, the iid, the
 * event type `detached`, the target branch), the project's API URL and id;
 * protected variables (the default branch's pipelines get a variables file
 * with PLATFORM_TOKEN, merge request pipelines one without it); the
 * environment scopes are gitlab-ci-local's own (its variables file scopes a
 * value by environment). Untested here: `resource_group` (jobs run one at a
 * time, `--concurrency 1`, which also keeps the shell executor's shared
 * directory to one job), protected environments and their approvals, and the
 * runner's fresh container per job (a shell runs every job in the checkout).
 * `npm ci` is a no-op (the checkout links this repository's node_modules, and
 * the report job's platform-review is this repository's).
 *
 * The stacks live in a backend the team and the pipeline share, from the first
 * day: an S3 bucket (a fake S3 server on loopback, test/e2e/fake-s3, built once
 * with Go into the cache beside the Pulumi CLI's), given to the pipeline as
 * its CI/CD variables (`PULUMI_BACKEND_URL` and the bucket's credentials).
 * alice makes the stacks from her clone, the pipeline applies them, and bob
 * reads what it applied from his: three PULUMI_HOMEs, one backend.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src";
import { startEmulator, type Emulator } from "../../src/emulator";
import { repositoryOf } from "../../src/emulator/areas/repository/model";
import { ensurePulumiCli, repoRoot } from "../../scripts/pulumi-workspace.mts";
import { run as runCommand } from "./template-jobs";

const STACKS = ["dev", "prod"];
const READ_TOKEN = "glpat-maintainer-release-0004"; // read_api: the emulator refuses its writes

let emulator: Emulator;
let api: PlatformClient;
let work: string;
let checkout: string;
let projectId: number;
let origin: string;
let s3: ChildProcess | undefined;
const env: NodeJS.ProcessEnv = {};
/** The shared backend's address and credentials: the pipeline's CI/CD variables, and what each teammate exports. */
let backend: Record<string, string>;

/** Starts the fake S3 server (built once per version of its source) with an empty bucket `platform-state`; its URL. */
async function startFakeS3(): Promise<string> {
  const source = path.join(repoRoot, "test/e2e/fake-s3");
  const digest = createHash("sha256");
  for (const file of ["main.go", "go.mod", "go.sum"]) digest.update(readFileSync(path.join(source, file)));
  const binary = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "pulumi-platform/fake-s3", digest.digest("hex").slice(0, 16), "fake-s3");
  if (!existsSync(binary)) {
    const building = `${binary}.${process.pid}`;
    const built = spawnSync("go", ["build", "-o", building, "."], { cwd: source, encoding: "utf8" });
    if (built.status !== 0) throw new Error(`go build of test/e2e/fake-s3 failed: ${built.stderr}`);
    renameSync(building, binary);
  }
  s3 = spawn(binary, ["-bucket", "platform-state"], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(s3.stdout!, "data")) as [Buffer];
  return line.toString().trim();
}

/** A teammate: a clone of the project and a PULUMI_HOME of their own, with the shared backend. */
function teammate(name: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = path.join(work, name);
  git(["clone", "--quiet", origin, dir], work);
  return { dir, env: { ...env, ...backend, PULUMI_HOME: path.join(work, `${name}-pulumi-home`) } };
}

function git(args: string[], cwd = checkout): string {
  const run = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run.stdout.trim();
}

/** Runs gitlab-ci-local on the checkout at `sha`: its exit code and output. */
function pipeline(sha: string, variables: Record<string, string>, protectedRef: boolean): Promise<{ code: number; output: string }> {
  git(["fetch", "--quiet", "origin", "+refs/heads/*:refs/remotes/origin/*"]);
  git(["checkout", "--quiet", "--force", "--detach", sha]);
  git(["clean", "-fdxq", "-e", "node_modules", "-e", ".gitlab-ci-local"]);
  const file = path.join(work, protectedRef ? "protected.yml" : "unprotected.yml");
  const args = [path.join(repoRoot, "node_modules/gitlab-ci-local/dist/index.js"), "--force-shell-executor", "--concurrency", "1", "--variables-file", file];
  const all = { CI_API_V4_URL: `${emulator.url}/api/v4`, CI_PROJECT_ID: String(projectId), CI_DEFAULT_BRANCH: "main", ...variables };
  for (const [key, value] of Object.entries(all)) args.push("--variable", `${key}=${value}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: checkout, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

/** Commits `files` to `branch` through the API: each created, or updated where the branch has it. */
async function commit(branch: string, files: Record<string, string>, message: string): Promise<string> {
  const existing = new Set(git(["--git-dir", origin, "ls-tree", "--name-only", branch], work).split("\n"));
  const actions = Object.entries(files).map(([file_path, content]) => ({ action: existing.has(file_path) ? "update" : "create", file_path, content }));
  return (await api.post<{ id: string }>(apiPath`/projects/${projectId}/repository/commits`, { branch, commit_message: message, actions })).id;
}

/** What the program read of its environment in the last pipeline's jobs, one entry a run. */
const envSeen = () =>
  readFileSync(path.join(checkout, "env-seen.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { stack: string; PLATFORM_REVIEW_TOKEN: string | null; PLATFORM_TOKEN: string | null });

const notesOf = (iid: number) => api.list<{ id: number; body: string }>(apiPath`/projects/${projectId}/merge_requests/${iid}/notes`, { sort: "asc" });

beforeAll(async () => {
  const bin = ensurePulumiCli();
  emulator = await startEmulator({ port: 0 });
  api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
  projectId = (await api.get<{ id: number }>(apiPath`/projects/${"acme/web"}`)).id;
  origin = (await repositoryOf(emulator.state, emulator.state.projectById(projectId)!)).gitdir;
  work = mkdtempSync(path.join(tmpdir(), "gitlab-ci-e2e-"));
  // The project as pulumi-platform-new makes it, committed to main through the API.
  const made = spawnSync(process.execPath, [path.join(repoRoot, "bin/pulumi-platform-new.js"), path.join(work, "template")], { encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  const files: Record<string, string> = { "package-lock.json": "{}\n" };
  for (const name of readdirSync(path.join(work, "template"))) files[name] = readFileSync(path.join(work, "template", name), "utf8");
  files["Pulumi.yaml"] = files["Pulumi.yaml"]!.replace("http://127.0.0.1:8080", emulator.url);
  // What the program can read of its environment, in every job that runs it, one line a run.
  files["index.ts"] +=
    'require("node:fs").appendFileSync("env-seen.jsonl", JSON.stringify({ stack: pulumi.getStack(), PLATFORM_REVIEW_TOKEN: process.env.PLATFORM_REVIEW_TOKEN ?? null, PLATFORM_TOKEN: process.env.PLATFORM_TOKEN ?? null }) + "\\n");\n';
  // Each stack its own objects, as the template's stack files say: dev's badge on acme/web, prod's on acme/api.
  expect([files["Pulumi.dev.yaml"], files["Pulumi.prod.yaml"]].map((text) => /template:project: (\S+)/.exec(text ?? "")?.[1])).toEqual(["acme/web", "acme/api"]);
  await commit("main", files, "The platform's program");
  checkout = path.join(work, "checkout");
  git(["clone", "--quiet", origin, checkout], work);
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(checkout, "node_modules"));
  // npm ci: nothing to install (the checkout links this repository's packages); --prefix DIR gets this repository's platform-review.
  mkdirSync(path.join(work, "bin"));
  // The command the package's bin puts in an installed project's node_modules/.bin.
  symlinkSync(path.join(repoRoot, "bin/platform-review.js"), path.join(work, "bin/platform-review"));
  const npm = spawnSync("bash", ["-c", "command -v npm"], { encoding: "utf8" }).stdout.trim();
  writeFileSync(
    path.join(work, "bin/npm"),
    `#!/bin/sh\nif [ "$1" = ci ]; then\n  prefix=""; for a in "$@"; do [ "$previous" = --prefix ] && prefix="$a"; previous="$a"; done\n` +
      `  if [ -n "$prefix" ]; then mkdir -p "$prefix/node_modules/.bin" && ln -sf "${path.join(repoRoot, "bin/platform-review.js")}" "$prefix/node_modules/.bin/platform-review"; fi\n  exit 0\nfi\nexec "${npm}" "$@"\n`,
    { mode: 0o755 },
  );
  backend = {
    PULUMI_BACKEND_URL: `s3://platform-state/platform-infra?endpoint=${await startFakeS3()}&s3ForcePathStyle=true&region=us-east-1`,
    AWS_ACCESS_KEY_ID: "platform-state-key",
    AWS_SECRET_ACCESS_KEY: "platform-state-secret",
  };
  // The runner's environment: no backend but the CI/CD variables' (the variables files below).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^PULUMI_BACKEND_URL$|^AWS_/.test(key)));
  Object.assign(env, inherited, {
    PATH: [path.join(work, "bin"), bin, path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
    HOME: path.join(work, "home"),
    PULUMI_HOME: path.join(work, "pulumi-home"),
    PULUMI_CONFIG_PASSPHRASE: "gitlab-ci-e2e",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
  });
  mkdirSync(path.join(work, "home"));
  // alice makes the stacks in the shared backend, from her clone, as the README's first day does.
  const alice = teammate("alice");
  for (const stack of STACKS) {
    const init = spawnSync(path.join(bin, "pulumi"), ["stack", "init", stack, "--non-interactive"], { cwd: alice.dir, env: alice.env, encoding: "utf8" });
    expect(init.status, init.stderr).toBe(0);
  }
  // `stack init` writes each stack's secrets salt into its file; she commits them, as the README's first day commits the project.
  // (A read first: the client's idle connection may be closed by now, and a read is retried where a commit is not.)
  await api.get(apiPath`/projects/${projectId}`);
  await commit("main", Object.fromEntries(STACKS.map((stack) => [`Pulumi.${stack}.yaml`, readFileSync(path.join(alice.dir, `Pulumi.${stack}.yaml`), "utf8")])), "The stacks' files, with their secrets salt");
  // The project's CI/CD variables, as the template's comments set them: environment-scoped values by environment.
  const scoped = (values: Record<string, string>) => ({ type: "variable", values });
  const review = scoped({ "platform-review": emulator.tokens.alice!, dev: emulator.tokens.alice!, prod: emulator.tokens.alice! });
  writeFileSync(path.join(work, "unprotected.yml"), JSON.stringify({ ...backend, PLATFORM_READ_TOKEN: READ_TOKEN, PLATFORM_REVIEW_TOKEN: scoped({ "platform-review": emulator.tokens.alice! }) }));
  writeFileSync(
    path.join(work, "protected.yml"),
    JSON.stringify({ ...backend, PLATFORM_READ_TOKEN: READ_TOKEN, PLATFORM_REVIEW_TOKEN: review, PLATFORM_TOKEN: scoped({ dev: emulator.tokens.root!, prod: emulator.tokens.root! }) }),
  );
}, 10 * 60_000);

afterAll(async () => {
  s3?.kill();
  if (work) rmSync(work, { recursive: true, force: true });
  await closeAllPools();
  await emulator?.stop();
});

describe.sequential("the template's pipeline under gitlab-ci-local, two stacks", { timeout: 10 * 60_000 }, () => {
  let iid: number;
  let head: string;
  /** The merge request's diff base: main's head when its branch was made. */
  let base: string;
  const mergeRequestPipeline = () =>
    pipeline(
      head,
      { CI_PIPELINE_SOURCE: "merge_request_event", CI_MERGE_REQUEST_IID: String(iid), CI_MERGE_REQUEST_EVENT_TYPE: "detached", CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main", CI_MERGE_REQUEST_DIFF_BASE_SHA: base },
      false,
    );

  it("a merge request pipeline posts one review note per stack; the program runs with the read token only", async () => {
    // A second merge request's branch, made now: behind main once the first is merged.
    await api.post(apiPath`/projects/${projectId}/repository/branches`, { branch: "docs", ref: "main" });
    await api.post(apiPath`/projects/${projectId}/repository/branches`, { branch: "badge", ref: "main" });
    base = git(["--git-dir", origin, "rev-parse", "main"], work).trim();
    head = await commit("badge", { "index.ts": readFileSync(path.join(checkout, "index.ts"), "utf8").replace('name: "pipeline"', 'name: "status"') }, "Platform: the status badge");
    iid = (await api.post<{ iid: number }>(apiPath`/projects/${projectId}/merge_requests`, { source_branch: "badge", target_branch: "main", title: "Platform: the status badge" })).iid;
    const run = await mergeRequestPipeline();
    expect(run.code, run.output).toBe(0);
    const notes = await notesOf(iid);
    expect(notes.map((note) => note.body.split("\n")[0])).toEqual(['<!-- platform-review stack="dev" -->', '<!-- platform-review stack="prod" -->']);
    expect(notes.map((note) => /creates badge <code>status<\/code> of project <code>([^<]+)<\/code>/.exec(note.body)?.[1])).toEqual(["acme/web", "acme/api"]);
    expect(envSeen()).toEqual(STACKS.map((stack) => ({ stack, PLATFORM_REVIEW_TOKEN: null, PLATFORM_TOKEN: READ_TOKEN })));
    // The preview job's log shows the report; each note ends with the review's data, the line the guard reads.
    expect(run.output).toContain("creates badge <code>status</code> of project <code>acme/web</code>");
    for (const note of notes) expect(note.body.trimEnd().split("\n").at(-1)).toMatch(/^<!-- platform-review-data [A-Za-z0-9+/=]+ -->$/);
    // The code it changes, read by the report job's git from the merge request's commits: it runs with the write token once merged.
    for (const note of notes) expect(note.body).toContain("**Code:** this merge request changes the program's code (1 file). Merged, it runs with the platform's write token at the apply");
    for (const note of notes) expect(note.body).toMatch(/\n- <code>index(&#46;|\.)ts<\/code>\n/);
  });

  it("each stack's report needs only its own preview: a stack whose preview fails holds back no other stack's note, and gets its own", async () => {
    await api.post(apiPath`/projects/${projectId}/repository/branches`, { branch: "prod-elsewhere", ref: "main" });
    const broken = await commit("prod-elsewhere", { "Pulumi.prod.yaml": "config:\n  template:project: acme/no-such-project\n" }, "Platform: prod's badge on a project that does not exist");
    const request = (await api.post<{ iid: number }>(apiPath`/projects/${projectId}/merge_requests`, { source_branch: "prod-elsewhere", target_branch: "main", title: "Platform: prod elsewhere" })).iid;
    const run = await pipeline(broken, { CI_PIPELINE_SOURCE: "merge_request_event", CI_MERGE_REQUEST_IID: String(request), CI_MERGE_REQUEST_EVENT_TYPE: "detached", CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main" }, false);
    expect(run.code).not.toBe(0);
    // gitlab-ci-local's summary: one line a job that ran.
    expect(run.output).toMatch(/FAIL +preview: \[prod\]/);
    expect(run.output).toMatch(/PASS +report: \[dev\]/);
    // prod's report still runs: the failed preview's error is on the merge request, not only in its log.
    const notes = await notesOf(request);
    expect(notes.map((note) => note.body.split("\n")[0])).toEqual(['<!-- platform-review stack="dev" -->', '<!-- platform-review stack="prod" -->']);
    expect(notes[1]!.body).toContain("no-such-project");
  });

  const merge = async (request: number) => {
    await emulator.runDueWork();
    return (await api.put<{ merge_commit_sha: string | null; sha: string }>(apiPath`/projects/${projectId}/merge_requests/${request}/merge`, {})).merge_commit_sha!;
  };
  const defaultBranchPipeline = (sha: string, source = "push") => pipeline(sha, { CI_PIPELINE_SOURCE: source, CI_COMMIT_BRANCH: "main" }, true);
  const badges = async (project: string) => (await api.list<{ id: number; name: string }>(apiPath`/projects/${project}/badges`)).filter((badge) => badge.name === "status");

  it("the merge applies each stack and adds its result, naming the merge commit and linking the review; the program never sees the review token", async () => {
    const sha = await merge(iid);
    const run = await defaultBranchPipeline(sha);
    expect(run.code, run.output).toBe(0);
    expect([(await badges("acme/web")).length, (await badges("acme/api")).length]).toEqual([1, 1]);
    const [devReview, prodReview, ...results] = await notesOf(iid);
    expect(results.map((note) => note.body.split("\n")[0])).toEqual(['<!-- platform-review-applied stack="dev" -->', '<!-- platform-review-applied stack="prod" -->']);
    expect(results[0]!.body).toContain(`Applied commit \`${sha}\``);
    expect(results[0]!.body).toContain(`#note_${devReview!.id})`);
    expect(results[1]!.body).toContain(`#note_${prodReview!.id})`);
    // Each apply runs the program twice (the preview of the plan, then up), with the write token and without the review token.
    expect(envSeen()).toEqual(STACKS.flatMap((stack) => [stack, stack]).map((stack) => ({ stack, PLATFORM_REVIEW_TOKEN: null, PLATFORM_TOKEN: emulator.tokens.root })));
    // The scrubbed events are kept; the raw ones, whose debug events print secrets, are gone.
    expect(existsSync(path.join(checkout, "up.json"))).toBe(false);
    // The jobs wrote no tracked file (no stack config), and nothing the jobs wrote is left for git to add.
    expect(git(["status", "--porcelain"]).split("\n").filter((line) => line !== "" && !/ (env-seen\.jsonl|node_modules)$/.test(line)), git(["diff"])).toEqual([]);
    for (const stack of STACKS) expect(readFileSync(path.join(checkout, `up-events-${stack}.json`), "utf8")).toMatch(/^\{"sequence":/);
  });

  it("a merge request behind main previews its merge result: no reversal of what was merged since, then merges and applies back to back", async () => {
    const docsHead = await commit("docs", { "NOTES.md": "How the platform is run\n" }, "Docs: notes");
    const docs = (await api.post<{ iid: number }>(apiPath`/projects/${projectId}/merge_requests`, { source_branch: "docs", target_branch: "main", title: "Docs" })).iid;
    const run = await pipeline(docsHead, { CI_PIPELINE_SOURCE: "merge_request_event", CI_MERGE_REQUEST_IID: String(docs), CI_MERGE_REQUEST_EVENT_TYPE: "detached", CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main" }, false);
    expect(run.code, run.output).toBe(0);
    const notes = await notesOf(docs);
    expect(notes.length).toBe(2);
    for (const note of notes) {
      expect(note.body).toContain("**No changes.**");
      expect(note.body).not.toContain("deletes badge");
    }
    const applied = await defaultBranchPipeline(await merge(docs));
    expect(applied.code, applied.output).toBe(0);
    expect((await notesOf(docs)).filter((note) => note.body.startsWith("<!-- platform-review-applied")).length).toBe(2);
  });

  it("an apply whose stack was changed by hand since the review stops, in a note of its own; the other stack applies", async () => {
    await api.post(apiPath`/projects/${projectId}/repository/branches`, { branch: "rename", ref: "main" });
    head = await commit("rename", { "index.ts": readFileSync(path.join(checkout, "index.ts"), "utf8").replace('linkUrl: "https://ci.example.com/%{project_path}"', 'linkUrl: "https://ci.example.com/%{project_path}/pipelines"') }, "Platform: link the pipelines");
    iid = (await api.post<{ iid: number }>(apiPath`/projects/${projectId}/merge_requests`, { source_branch: "rename", target_branch: "main", title: "Platform: link the pipelines" })).iid;
    expect((await mergeRequestPipeline()).code).toBe(0);
    const sha = await merge(iid);
    // bob, from his clone, reads what the pipeline applied to the stack alice made.
    const bob = teammate("bob");
    const exported = spawnSync("pulumi", ["stack", "export", "--stack", "dev"], { cwd: bob.dir, env: bob.env, encoding: "utf8" });
    expect(exported.status, exported.stderr).toBe(0);
    const state = JSON.parse(exported.stdout) as { deployment: { resources: { type: string; id?: string; inputs?: Record<string, unknown> }[] } };
    // No token in the state: the provider's stored config, which refresh and destroy use, holds none, not even an empty one.
    const providers = state.deployment.resources.filter((resource) => resource.type.startsWith("pulumi:providers:"));
    expect(providers.length).toBeGreaterThan(0);
    for (const provider of providers) expect(Object.keys(provider.inputs ?? {})).not.toContain("platform:token");
    // bob's preview --refresh without a token says what works (once, no stack trace); with PLATFORM_TOKEN it works.
    symlinkSync(path.join(repoRoot, "node_modules"), path.join(bob.dir, "node_modules"));
    // A child process, never spawnSync: the emulator answers from this process.
    const refresh = (extra: NodeJS.ProcessEnv) => runCommand("pulumi", ["preview", "--refresh", "--stack", "dev", "--non-interactive"], { cwd: bob.dir, env: { ...bob.env, ...extra } });
    const without = await refresh({});
    expect(without.code).not.toBe(0);
    expect(without.stdout).toContain("the stack's config stored at the last `pulumi up` has no platform:token");
    const summary = without.stdout.slice(without.stdout.indexOf("Diagnostics:"));
    expect(summary.split("do not run the program, so they use that stored copy").length - 1, without.stdout).toBe(1);
    expect(`${without.stdout}${without.stderr}`).not.toMatch(/pulumi config set --secret platform:token|\n\s+at /);
    const withToken = await refresh({ PLATFORM_TOKEN: emulator.tokens.root! });
    expect(withToken.code, withToken.stdout + withToken.stderr).toBe(0);
    const devBadge = state.deployment.resources.find((resource) => resource.type.includes("Badge"))!.id!;
    await api.put(apiPath`/projects/${projectId}/badges/${devBadge.split("/").at(-1)!}`, { link_url: "https://elsewhere.example.com" });
    const run = await defaultBranchPipeline(sha);
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/apply: \[dev\][^\n]*FAIL 3/);
    const results = (await notesOf(iid)).filter((note) => note.body.startsWith("<!-- platform-review-applied"));
    expect(results.map((note) => note.body.includes("#### Stopped: this is not what was reviewed"))).toEqual([true, false]);
    expect(results[0]!.body).toContain("changed outside this program");
    expect(results[0]!.body).toContain("**What to do next:**");
    // Stopped before any write: the badge is as the hand left it.
    expect((await api.get<{ link_url: string }>(apiPath`/projects/${projectId}/badges/${devBadge.split("/").at(-1)!}`)).link_url).toBe("https://elsewhere.example.com");
  });

  it("the drift schedule keeps one issue per stack: the stack changed outside the program fails, the other has none", async () => {
    const main = git(["rev-parse", "origin/main"]);
    const run = await defaultBranchPipeline(main, "schedule");
    expect(run.code).not.toBe(0);
    const issues = await api.list<{ title: string; description: string; state: string }>(apiPath`/projects/${projectId}/issues`, { state: "all" });
    const drift = issues.filter((issue) => issue.description?.startsWith("<!-- platform-review-drift"));
    expect(drift.map((issue) => issue.title)).toEqual(["Drift on stack dev: 1 object changed outside the program"]);
    expect(drift[0]!.description).toContain("https&#58;//elsewhere.example.com");
  });
});
