/**
 * The template's .gitlab-ci.yml jobs run as the platform's runner runs them,
 * for end-to-end tests with the real Pulumi CLI against the emulator: each
 * job's before_script (less `npm ci`) and script in one bash with errexit,
 * with the CI's own variables and the project's CI/CD variables as the
 * platform gives them (protected ones only to the default branch's
 * pipelines, environment-scoped ones only to jobs of that environment), in
 * a project pulumi-platform-new made, whose platform-review is this
 * repository's.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { parse } from "yaml";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram, repoRoot } from "../../scripts/pulumi-workspace.mts";

export interface Job {
  extends?: string | string[];
  before_script?: string[];
  script: string[];
  variables?: Record<string, string>;
  environment?: { name: string };
  artifacts?: { paths: string[] };
}

export type JobRun = { code: number; stdout: string; stderr: string };

/** A CI/CD variable of the project, as Settings > CI/CD > Variables holds it. */
export interface ProjectVariable {
  key: string;
  value: string;
  protected?: boolean;
  environment?: string;
}

export const ciFile = parse(readFileSync(path.join(repoRoot, "templates/platform/.gitlab-ci.yml"), "utf8")) as Record<string, unknown> & {
  variables: Record<string, string>;
  default: { before_script: string[] };
};

/** A job with what it `extends` (a shallow merge, as the platform's for these keys). */
export function jobOf(name: string): Job {
  const job = ciFile[name] as Job;
  return Object.assign({}, ...[job.extends ?? []].flat().map(jobOf), job) as Job;
}

/** `$NAME` and `${NAME}` of a CI variable's value, from the variables before it. */
export const expand = (value: string, env: NodeJS.ProcessEnv) => value.replace(/\$\{?(\w+)\}?/g, (_m, name: string) => env[name] ?? "");

/** Runs a command asynchronously: the emulator answers from this process, which must not block. */
export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<JobRun> {
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
 * A project made by pulumi-platform-new in `work`/infra, and the command the
 * package's bin would put on PATH (`work`/bin) and in the report jobs'
 * `$REVIEW_TOOL` (`work` itself): this repository's platform-review.
 */
function templateProject(work: string): string {
  mkdirSync(path.join(work, "bin"));
  symlinkSync(path.join(repoRoot, "bin/platform-review.js"), path.join(work, "bin/platform-review"));
  mkdirSync(path.join(work, "node_modules/.bin"), { recursive: true });
  symlinkSync(path.join(repoRoot, "bin/platform-review.js"), path.join(work, "node_modules/.bin/platform-review"));
  const made = spawnSync(process.execPath, [path.join(repoRoot, "bin/pulumi-platform-new.js"), path.join(work, "infra")], { encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  return path.join(work, "infra");
}

/** A template project's stack on a fresh emulator, as the template-job tests start from. */
export interface TemplateStack {
  emulator: Emulator;
  /** The administrator's client. */
  api: PlatformClient;
  work: string;
  program: PulumiProgram;
  /** acme/web's numeric id: the project the pipeline runs in. */
  projectId: number;
}

/**
 * The emulator (background work when the test says: a merge request is
 * prepared before the test reads its head), a project from the template in a
 * temporary directory, and its stack, on the administrator's token.
 */
export async function startTemplateStack(prefix: string): Promise<TemplateStack> {
  ensurePulumiCli();
  const emulator = await startEmulator({ port: 0, backgroundWork: "manual" });
  const api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
  const work = mkdtempSync(path.join(tmpdir(), prefix));
  // No token in the stack's config: the template's jobs give it in PLATFORM_TOKEN.
  const program = await PulumiProgram.create({ programDir: templateProject(work), transpileOnly: true, config: { "platform:url": emulator.url } });
  const projectId = (await api.get<{ id: number }>(apiPath`/projects/${"acme/web"}`)).id;
  return { emulator, api, work, program, projectId };
}

/** Stops what startTemplateStack started; any part may be missing when it failed half way. */
export async function stopTemplateStack(stack: Partial<TemplateStack>): Promise<void> {
  stack.program?.dispose();
  if (stack.work) rmSync(stack.work, { recursive: true, force: true });
  await closeAllPools();
  await stack.emulator?.stop();
}

/** What the merge request helpers need of a template stack. */
type MergeRequestStack = Pick<TemplateStack, "api" | "emulator" | "projectId">;

/**
 * A branch from the default branch with one commit, made through the API, and
 * a merge request from it, prepared (the emulator's background work runs when
 * the test says): its iid and its head commit, the merge request pipeline's
 * CI_COMMIT_SHA.
 */
export async function openMergeRequest({ api, emulator, projectId }: MergeRequestStack, branch: string): Promise<{ iid: number; sha: string }> {
  await api.post(apiPath`/projects/${projectId}/repository/branches`, { branch, ref: "main" });
  const actions = [{ action: "create", file_path: `platform/${branch}.md`, content: "The change under review\n" }];
  await api.post(apiPath`/projects/${projectId}/repository/commits`, { branch, commit_message: `Platform: ${branch}`, actions });
  const iid = (await api.post<{ iid: number }>(apiPath`/projects/${projectId}/merge_requests`, { source_branch: branch, target_branch: "main", title: `Platform: ${branch}` })).iid;
  await emulator.runDueWork(); // the merge request's preparation, which gives it its head commit
  const sha = (await api.get<{ sha: string }>(apiPath`/projects/${projectId}/merge_requests/${iid}`)).sha;
  expect(sha).toMatch(/^[0-9a-f]{40}$/);
  return { iid, sha };
}

/** Merges a merge request through the merge endpoint: its merge commit, which the default branch's pipeline then runs for. */
export async function mergeMergeRequest({ api, projectId }: Pick<MergeRequestStack, "api" | "projectId">, iid: number): Promise<string> {
  const sha = (await api.put<{ merge_commit_sha: string }>(apiPath`/projects/${projectId}/merge_requests/${iid}/merge`, {})).merge_commit_sha;
  expect(sha).toMatch(/^[0-9a-f]{40}$/);
  return sha;
}

export interface JobContext {
  program: PulumiProgram;
  emulator: Emulator;
  projectId: number;
  /** The directory `templateProject` was given. */
  work: string;
  variables: ProjectVariable[];
}

/**
 * Runs one job in the program's directory; its exit code and output. With
 * `between`, the script stops before its first line matching `at`, `action`
 * runs (a change on the server while the job runs), and the script goes on
 * with the shell variables it had set.
 */
export async function runTemplateJob(context: JobContext, name: string, ci: Record<string, string>, between?: { at: RegExp; action: () => Promise<void> | void }): Promise<JobRun> {
  const { program, emulator, projectId, work } = context;
  const job = jobOf(name);
  // The review token's jobs install platform-review from the default branch in their before_script; here it is this repository's.
  const before = job.environment?.name === "platform-review" ? [] : (job.before_script ?? ciFile.default.before_script).filter((line) => !line.startsWith("npm ci"));
  const protectedRef = ci.CI_COMMIT_BRANCH === "main";
  let env: NodeJS.ProcessEnv = {
    ...program.env,
    PATH: [path.join(work, "bin"), program.env.PATH].join(path.delimiter),
    STACK: program.stack,
    CI_PROJECT_DIR: program.dir,
    CI_API_V4_URL: `${emulator.url}/api/v4`,
    CI_PROJECT_ID: String(projectId),
    ...ci,
  };
  for (const [key, value] of Object.entries(ciFile.variables)) if (key !== "STACK") env[key] = expand(value, env);
  env.REVIEW_TOOL = work;
  const environment = job.environment ? expand(job.environment.name, env) : undefined;
  for (const variable of context.variables) {
    if (variable.protected && !protectedRef) continue;
    if (variable.environment !== undefined && variable.environment !== environment) continue;
    env[variable.key] = variable.value;
  }
  env = { ...env, ...Object.fromEntries(Object.entries(job.variables ?? {}).map(([key, value]) => [key, expand(value, env)])) };
  const bash = (lines: string[]) => run("bash", ["-eo", "pipefail", "-c", lines.join("\n")], { cwd: program.dir, env });
  if (!between) return bash([...before, ...job.script]);
  const split = job.script.findIndex((line) => between.at.test(line));
  expect(split, `a line of job ${name} matching ${between.at}`).toBeGreaterThanOrEqual(0);
  const shellState = path.join(work, `${name}-shell.sh`);
  const first = await bash([...before, ...job.script.slice(0, split), `declare -p status > ${shellState} 2>/dev/null || : > ${shellState}`]);
  if (first.code !== 0) return first;
  await between.action();
  const second = await bash([...before, `source ${shellState}`, ...job.script.slice(split)]);
  return { code: second.code, stdout: first.stdout + second.stdout, stderr: first.stderr + second.stderr };
}
