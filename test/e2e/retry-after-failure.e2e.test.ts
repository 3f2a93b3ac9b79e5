/**
 * The retry of an apply cut in the middle of a create and of a replacement,
 * with the real Pulumi CLI and `platform-review` as the apply job runs them
 * (test/e2e/programs/retry-after-failure, against the emulator):
 *
 * - a merge request creates a schedule with two variables and renames a SAML
 *   group link (a replacement that makes the new link before it deletes the
 *   old one); its review is posted, and it is merged (through the API: the
 *   apply runs for the merge commit the server made);
 * - the apply job's guard passes; in its `up` (a saved plan) the server makes
 *   the schedule and refuses one of its variables: the create fails with the
 *   schedule made (kept in the state), the engine stops before it deletes the
 *   old link; the result note says what is left;
 * - the same job run again for the same commit: its guard accepts the update
 *   that finishes the schedule and the old link's delete as the rest of the
 *   reviewed replacement; its `up` of the new saved plan does exactly that,
 *   and nothing is left.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { PulumiProgram, repoRoot } from "../../scripts/pulumi-workspace.mts";
import { mergeMergeRequest, openMergeRequest, run } from "./template-jobs";

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;
let projectId: number;
let commit: string;
let mergeRequestIid: number;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, backgroundWork: "manual" });
  api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
  projectId = (await api.get<{ id: number }>(apiPath`/projects/${"acme/web"}`)).id;
  program = await PulumiProgram.create({
    programDir: "test/e2e/programs/retry-after-failure",
    transpileOnly: true,
    config: { "platform:url": emulator.url },
    secrets: { deployToken: "retry-deploy-token-1" },
    env: { PULUMI_EXPERIMENTAL: "true", PLATFORM_TOKEN: emulator.tokens.root! },
  });
}, 5 * 60_000);

afterAll(async () => {
  program?.dispose();
  await closeAllPools();
  await emulator?.stop();
});

/** `platform-review` as the pipeline's jobs run it: the package's bin, in the program's directory, with the CI's variables. */
async function review(args: string[], ci: Record<string, string>) {
  const env = { ...program.env, CI_API_V4_URL: `${emulator.url}/api/v4`, CI_PROJECT_ID: String(projectId), PLATFORM_REVIEW_TOKEN: emulator.tokens.alice!, ...ci };
  return run("node", [path.join(repoRoot, "bin/platform-review.js"), ...args], { cwd: program.dir, env });
}

const onMain = () => ({ CI_COMMIT_SHA: commit, CI_COMMIT_BRANCH: "main" });
const file = (name: string) => path.join(program.root, name);

/** The apply job's steps: the preview saved as a plan, the guard, `up` of the plan, its result on the merge request. */
async function applyJob(attempt: number) {
  const preview = await program.cli(["preview", "--refresh", "--json", "--save-plan", file(`plan-${attempt}.json`)], { allowFailure: true });
  writeFileSync(file(`preview-${attempt}.json`), preview.stdout);
  const guard = await review(["--preview", file(`preview-${attempt}.json`), "--verify-deletes", "--check-reviewed", "--post", "--quiet"], onMain());
  if (guard.code !== 0) return { guard };
  const up = await program.cli(["up", "--yes", "--skip-preview", "--refresh", "--json", "--plan", file(`plan-${attempt}.json`)], { allowFailure: true });
  writeFileSync(file(`up-${attempt}.json`), up.stdout);
  const result = await review(["--up", file(`up-${attempt}.json`), "--planned", file(`preview-${attempt}.json`), "--post", "--quiet"], onMain());
  return { guard, up, result };
}

const resultNotes = async () =>
  (await api.list<{ body: string }>(apiPath`/projects/${projectId}/merge_requests/${mergeRequestIid}/notes`, { sort: "asc" })).filter((note) => note.body.startsWith("<!-- platform-review-applied"));
const links = async () => (await api.list<{ name: string }>(apiPath`/groups/${"acme"}/saml_group_links`)).map((link) => link.name).sort();
const schedules = () => api.list<{ id: number; description: string }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`);

describe.sequential("the retry of an apply cut in a create and in a replacement", { timeout: 5 * 60_000 }, () => {
  it("the merge request's review shows the create and the replacement; it is merged", async () => {
    await program.up();
    await program.setConfig("phase", "change");
    const opened = await openMergeRequest({ api, emulator, projectId }, "platform-retry");
    mergeRequestIid = opened.iid;
    const preview = await program.cli(["preview", "--refresh", "--json"]);
    writeFileSync(file("review.json"), preview.stdout);
    const report = await review(["--preview", file("review.json"), "--post"], { CI_MERGE_REQUEST_IID: String(mergeRequestIid), CI_COMMIT_SHA: opened.sha });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain("replaces SAML group link <code>platform-ops</code>");
    expect(report.stdout).toContain("creates pipeline schedule <code>Nightly deploy (retry test)</code>");
    commit = await mergeMergeRequest({ api, projectId }, mergeRequestIid);
  });

  it("the apply: the server makes the schedule and refuses a variable; the result says the create failed and the old link is left", async () => {
    emulator.inject({ method: "POST", path: /pipeline_schedules\/\d+\/variables$/, status: 400, body: { message: { key: ["is refused by the test"] } } });
    // The engine runs deletes last, and stops at the failed create first; the old link's delete is refused all the same, should it be reached.
    emulator.inject({ method: "DELETE", path: /saml_group_links\/platform-ops/, status: 400, body: { message: "refused by the test" } });
    const { guard, up, result } = await applyJob(1);
    expect(guard.code, guard.stderr).toBe(0);
    expect(up!.code).not.toBe(0);
    expect(result!.code, result!.stderr).toBe(1);
    expect(await schedules()).toHaveLength(1);
    expect(await links()).toEqual(["platform-operations", "platform-ops"]);
    const [note] = await resultNotes();
    expect(note!.body).toContain("the new object was made, the old one not deleted");
    expect(note!.body).toMatch(/#### Not applied \(1\)\n\n- `\+` creates pipeline schedule/);
  });

  it("the same job again for the same commit: its guard accepts what is left, and its plan's `up` finishes it", async () => {
    emulator.clearFaults();
    const { guard, up, result } = await applyJob(2);
    expect(guard.code, `${guard.stdout}\n${guard.stderr}`).toBe(0);
    expect(guard.stderr).toContain("creates pipeline schedule `Nightly deploy (retry test)` of project acme/web: its create failed in an earlier apply after the object was made");
    expect(guard.stderr).toContain("deletes SAML group link `platform-ops` of group acme: the rest of a reviewed replacement");
    expect(up!.code, up!.stderr).toBe(0);
    expect(result!.code, result!.stderr).toBe(0);
    // One schedule, with both variables; the old link deleted.
    const [schedule, ...others] = await schedules();
    expect(others).toEqual([]);
    const variables = (await api.get<{ variables: { key: string }[] }>(apiPath`/projects/${"acme/web"}/pipeline_schedules/${schedule!.id}`)).variables.map((v) => v.key).sort();
    expect(variables).toEqual(["DEPLOY_ENVIRONMENT", "DEPLOY_TOKEN"]);
    expect(await links()).toEqual(["platform-operations"]);
    const [, retry] = await resultNotes();
    expect(retry!.body).toContain("deleted SAML group link <code>platform-ops</code>");
    expect(retry!.body).not.toContain("Not applied");
    await program.preview("--refresh", "--expect-no-changes");
  });
});
