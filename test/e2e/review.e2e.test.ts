/**
 * What the review loop needs a closer look at than a CI interpreter gives
 * (test/e2e/gitlab-ci.e2e.test.ts runs the template's pipeline itself, with
 * gitlab-ci-local: the notes per stack, their rewrite, the apply and its
 * result, the stop, the drift issue, previews of the merge result, and what
 * the program reads of its environment), with the real Pulumi CLI against the
 * emulator, on a project made by pulumi-platform-new:
 *
 * - secrets planted in every kind of value (config, `pulumi.secret`, a
 *   property the class marks secret) reach no note, no kept artifact and no
 *   job log of the template's jobs, from the merge request's preview and
 *   report to the apply after the merge;
 * - `pulumi up --plan` refuses a run that strays from the saved plan;
 * - the GitHub Actions variant's steps (docs/ci/github-review.yml) write the
 *   report and hand it to `gh pr comment` (GitHub itself is out of reach here:
 *   a `gh` on PATH records what it was asked to post);
 * - a plan saved with `--refresh` holds for this package's resources.
 *
 * The template's jobs run as the platform's runner runs them (./template-jobs.ts:
 * each job's before_script and script in one bash with errexit, its variables
 * and the CI's own). The CI/CD variables reach each job as the platform gives
 * them: protected ones only to the default branch's pipelines,
 * environment-scoped ones only to jobs of that environment (the template's
 * comments list them).
 * The merge request's branch and commit are made through the emulator's API
 * and it is merged through its merge endpoint, so the default branch's
 * pipeline runs for the merge commit the guard finds; the emulator's
 * background work (the merge request's preparation) runs when the test says.
 *
 * Not run: `npm ci`, and the report job's install of platform-review from the
 * default branch (the project's node_modules is this repository's;
 * test/e2e/user-project.e2e.test.ts installs for real).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { apiPath, type PlatformClient } from "pulumi-platform";
import type { Emulator } from "pulumi-platform/emulator";
import { PulumiProgram, repoRoot } from "../../scripts/pulumi-workspace.mts";
import { expand, jobOf, mergeMergeRequest, openMergeRequest, run, runTemplateJob, startTemplateStack, stopTemplateStack, type JobRun, type ProjectVariable } from "./template-jobs";

interface Note {
  id: number;
  body: string;
}

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;
let work: string;
let projectId: number;
let mergeRequestIid: number;
let commitSha: string;

/** The program as a push changes it: the badge's name. */
function pushProgram(badgeName: string): void {
  const file = path.join(program.dir, "index.ts");
  writeFileSync(file, readFileSync(file, "utf8").replace(/name: "[^"]*",/, `name: "${badgeName}",`));
}

/** The read token of the template's previews: a Maintainer's token with the read_api scope (a real server refuses its writes). */
const READ_TOKEN = "glpat-maintainer-release-0004";

/**
 * The project's CI/CD variables as the template's comments tell a team to set
 * them: protected ones reach only the protected default branch's pipelines,
 * environment-scoped ones only the jobs of that environment.
 */
function projectVariables(): ProjectVariable[] {
  return [
    { key: "PLATFORM_READ_TOKEN", value: READ_TOKEN },
    { key: "PLATFORM_TOKEN", value: emulator.tokens.root!, protected: true, environment: program.stack },
    { key: "PLATFORM_REVIEW_TOKEN", value: emulator.tokens.alice!, environment: "platform-review" },
    { key: "PLATFORM_REVIEW_TOKEN", value: emulator.tokens.alice!, protected: true, environment: program.stack },
  ];
}

/** What each job ran and printed, for the scan of secrets. */
const jobLogs: string[] = [];

/** Runs one job of the template's .gitlab-ci.yml in the program's directory, keeping its log; its exit code and output. */
async function runJob(name: string, ci: Record<string, string>): Promise<JobRun> {
  const result = await runTemplateJob({ program, emulator, projectId, work, variables: projectVariables() }, name, ci);
  jobLogs.push(result.stdout, result.stderr);
  return result;
}

/** A merge request pipeline: its preview job, then its report job with the preview's artifact. */
async function mergeRequestPipelineRuns(): Promise<{ preview: JobRun; report: JobRun }> {
  const preview = await runJob("preview", mergeRequestPipeline());
  const report = await runJob("report", mergeRequestPipeline());
  return { preview, report };
}

const mergeRequestPipeline = () => ({ CI_PIPELINE_SOURCE: "merge_request_event", CI_MERGE_REQUEST_IID: String(mergeRequestIid), CI_COMMIT_SHA: commitSha });
const defaultBranchPipeline = () => ({ CI_PIPELINE_SOURCE: "push", CI_COMMIT_BRANCH: "main", CI_DEFAULT_BRANCH: "main", CI_COMMIT_SHA: commitSha });

const notes = () => api.list<Note>(apiPath`/projects/${projectId}/merge_requests/${mergeRequestIid}/notes`, { sort: "asc" });
const resultNotes = async () => (await notes()).filter((note) => note.body.startsWith("<!-- platform-review-applied stack="));
const badgesOnServer = async () => (await api.list<{ name: string; link_url: string }>(apiPath`/projects/${"acme/web"}/badges`)).filter((badge) => badge.name.startsWith("pipeline"));

beforeAll(async () => {
  ({ emulator, api, work, program, projectId } = await startTemplateStack("review-e2e-"));
}, 10 * 60_000);

afterAll(async () => {
  await stopTemplateStack({ emulator, work, program });
});

describe.sequential("the review loop through the template's CI jobs", { timeout: 5 * 60_000 }, () => {
  it("secrets planted in config, in pulumi.secret and in a property the class marks secret reach no note, kept artifact or job log", async () => {
    const planted = { config: "planted-config-secret-7Q2", wrapped: "planted-wrapped-secret-K9d", classSecret: "planted-class-secret-W4m" };
    await program.setConfig("plantedSecret", planted.config, { secret: true });
    const file = path.join(program.dir, "index.ts");
    const original = readFileSync(file, "utf8");
    writeFileSync(
      file,
      original.replace('import { Badge, getMetadataOutput } from "pulumi-platform";', 'import { Badge, getMetadataOutput, GroupIntegration, PipelineSchedule } from "pulumi-platform";') +
        [
          `new GroupIntegration("ci-server", { group: "acme", slug: "teamcity", teamcityUrl: "https://teamcity.example.com", buildType: "Web_Build", username: "ci", password: "${planted.classSecret}" });`,
          `new PipelineSchedule("nightly", { project: "acme/web", description: "Nightly (planted secrets)", ref: "main", cron: "0 3 * * *", variables: [`,
          `  { key: "WRAPPED", value: pulumi.secret("${planted.wrapped}") },`,
          `  { key: "FROM_CONFIG", value: config.requireSecret("plantedSecret") },`,
          `] });`,
        ].join("\n") +
        "\n",
    );
    try {
      ({ iid: mergeRequestIid, sha: commitSha } = await openMergeRequest({ api, emulator, projectId }, "planted-secrets"));
      const review = await mergeRequestPipelineRuns();
      expect(review.report.code, review.report.stderr).toBe(0);
      commitSha = await mergeMergeRequest({ api, projectId }, mergeRequestIid);
      const apply = await runJob("apply", defaultBranchPipeline());
      expect(apply.code, `${apply.stdout}\n${apply.stderr}`).toBe(0);
      expect((await resultNotes())[0]!.body).toContain("created pipeline schedule");
      // Every artifact the template's jobs keep, every note, every job's log.
      const kept = [...new Set(["preview", "report", "apply"].flatMap((name) => jobOf(name).artifacts?.paths ?? []))].map((name) => path.join(program.dir, expand(name, { STACK: program.stack })));
      const texts = [...kept.filter((name) => existsSync(name)).map((name) => readFileSync(name, "utf8")), ...(await notes()).map((note) => note.body), ...jobLogs];
      for (const value of Object.values(planted)) expect(texts.filter((text) => text.includes(value)), value).toEqual([]);
      expect(kept.filter((name) => existsSync(name)).map((name) => path.basename(name)).sort()).toEqual(["preview-e2e.json", "review-e2e.json", "up-events-e2e.json"]);
    } finally {
      writeFileSync(file, original);
    }
  });

  it("pulumi up --plan refuses a run that strays from the saved plan, writing nothing", async () => {
    // The template's jobs give the token in PLATFORM_TOKEN; this test runs the CLI itself.
    await program.setConfig("platform:token", emulator.tokens.root!, { secret: true });
    const plan = path.join(work, "plan.json");
    await program.cli(["preview", "--save-plan", plan]);
    pushProgram("pipeline-unreviewed");
    const applied = await run("pulumi", ["up", "--yes", "--skip-preview", "--non-interactive", "--plan", plan], { cwd: program.dir, env: { ...program.env, PULUMI_EXPERIMENTAL: "true" } });
    expect(applied.code).not.toBe(0);
    expect(`${applied.stdout}${applied.stderr}`).toMatch(/plan/i);
    expect((await badgesOnServer()).map((badge) => badge.name)).toEqual(["pipeline"]);
  });
});

describe("the GitHub Actions variant", { timeout: 5 * 60_000 }, () => {
  it("its preview and report steps write the report and comment with it, rewriting the last comment", async () => {
    const workflow = parse(readFileSync(path.join(repoRoot, "docs/ci/github-review.yml"), "utf8")) as { jobs: { preview: { steps: { name?: string; run?: string }[] } } };
    const steps = workflow.jobs.preview.steps.filter((step) => step.name === "Preview" || step.name === "Report").map((step) => step.run!);
    expect(steps).toHaveLength(2);
    const posted = path.join(work, "gh-calls.txt");
    writeFileSync(path.join(work, "bin/gh"), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${posted}"\ncat report.md >> "${posted}"\n`, { mode: 0o755 });
    const result = await run("bash", ["-eo", "pipefail", "-c", steps.join("\n")], {
      cwd: program.dir,
      env: { ...program.env, PATH: [path.join(work, "bin"), program.env.PATH].join(path.delimiter), STACK: program.stack, PR_NUMBER: "12", GH_TOKEN: "unused" },
    });
    expect(result.code, result.stderr).toBe(0);
    const calls = readFileSync(posted, "utf8");
    expect(calls).toMatch(/^pr comment 12 --edit-last --body-file report\.md$/m);
    expect(calls).toContain("### Pulumi preview of stack <code>e2e</code>");
  });
});

describe("saved plans and this package's resources", { timeout: 10 * 60_000 }, () => {
  it("a plan saved with --refresh applies an only-these set's removals, a replacement and a takeover, then previews clean", async () => {
    const plans = await PulumiProgram.create({
      programDir: "test/e2e/programs/review",
      transpileOnly: true,
      stack: "plans",
      config: { "platform:url": emulator.url },
      secrets: { "platform:token": emulator.tokens.root!, deployToken: "plan-token-1" },
      env: { PULUMI_EXPERIMENTAL: "true" },
    });
    try {
      await plans.up();
      await api.post(apiPath`/groups/${"acme"}/badges`, { name: "handmade", link_url: "https://hand.example.com", image_url: "https://hand.example.com/b.svg" });
      await api.post(apiPath`/groups/${"acme"}/badges`, { name: "stray", link_url: "https://stray.example.com", image_url: "https://stray.example.com/b.svg" });
      await plans.setConfig("phase", "change");
      const plan = path.join(work, "plan-refresh.json");
      await plans.cli(["preview", "--refresh", "--save-plan", plan]);
      await plans.cli(["up", "--yes", "--skip-preview", "--refresh", "--plan", plan]);
      const names = (await api.list<{ name: string }>(apiPath`/groups/${"acme"}/badges`)).map((badge) => badge.name).sort();
      expect(names).toEqual(["documentation", "handmade", "status"]);
      await plans.preview("--expect-no-changes");
    } finally {
      // Only the stack's files: nothing runs on this emulator after this test, so its objects need no destroy.
      plans.dispose();
    }
  });
});
