/**
 * An apply that fails part way, and its retry, with the real Pulumi CLI and
 * the template's .gitlab-ci.yml jobs (./template-jobs.ts) against the
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
 *   the delete, the group and the role (the engine does not verify deletes);
 *   merged all the same, its apply job stops before `up`, for the same cause.
 *
 * Each merge request's branch and commit are made through the emulator's API
 * and it is merged through its merge endpoint (./template-jobs.ts), so the
 * default branch's pipeline runs for the merge commit the server made, the one
 * the guard finds the merge request by. The emulator has no members endpoint:
 * the role on acme is set in its state, as an Owner of acme would set it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import type { Emulator } from "pulumi-platform/emulator";
import type { PulumiProgram } from "../../scripts/pulumi-workspace.mts";
import { mergeMergeRequest, openMergeRequest, runTemplateJob, startTemplateStack, stopTemplateStack } from "./template-jobs";

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
/** The merge request's head commit: its pipeline's CI_COMMIT_SHA. */
let headSha: string;
/** The merge commit the server made: the default branch's pipeline's CI_COMMIT_SHA. */
let commitSha: string;

/** A job of the template, with the project's variables as the template's comments tell a team to set them. */
const runJob = (name: string, ci: Record<string, string>, between?: Parameters<typeof runTemplateJob>[3]) =>
  runTemplateJob(
    {
      program,
      emulator,
      projectId,
      work,
      variables: [
        { key: "PLATFORM_READ_TOKEN", value: READ_TOKEN },
        { key: "PLATFORM_TOKEN", value: WRITE_TOKEN, protected: true, environment: program.stack },
        { key: "PLATFORM_REVIEW_TOKEN", value: emulator.tokens.alice!, environment: "platform-review" },
        { key: "PLATFORM_REVIEW_TOKEN", value: emulator.tokens.alice!, protected: true, environment: program.stack },
      ],
    },
    name,
    ci,
    between,
  );

/** Sets the apply token's user's role on group acme, as an Owner of acme would in its members page. */
function maintainerOfAcmeIs(level: number): void {
  const user = emulator.state.userByUsername("maintainer")!;
  emulator.state.groupByFullPath("acme")!.members[String(user.id)] = level;
}

/** A branch with its commit and a merge request from it, through the API: the one the next jobs run for. */
async function newMergeRequest(branch: string): Promise<void> {
  ({ iid: mergeRequestIid, sha: headSha } = await openMergeRequest({ api, emulator, projectId }, branch));
}

/** Merges the merge request through the API: the default branch's pipeline then runs for its merge commit. */
async function merge(): Promise<void> {
  commitSha = await mergeMergeRequest({ api, projectId }, mergeRequestIid);
}

const mergeRequestPipeline = () => ({ CI_PIPELINE_SOURCE: "merge_request_event", CI_MERGE_REQUEST_IID: String(mergeRequestIid), CI_COMMIT_SHA: headSha });
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
  ({ emulator, api, work, program, projectId } = await startTemplateStack("failed-apply-e2e-"));
  maintainerOfAcmeIs(50);
}, 10 * 60_000);

afterAll(async () => {
  await stopTemplateStack({ emulator, work, program });
});

describe.sequential("an apply that fails part way, and its retry, through the template's jobs", { timeout: 5 * 60_000 }, () => {
  it("the merge request's review shows both badges to create", async () => {
    writeProgram(true);
    await newMergeRequest("badges");
    const preview = await runJob("preview", mergeRequestPipeline());
    expect(preview.code, preview.stderr).toBe(0);
    expect((await runJob("report", mergeRequestPipeline())).code).toBe(0);
    expect(preview.stdout).toContain("creates badge <code>acme-status</code> of group <code>acme</code>");
    expect(preview.stdout).toContain("creates badge <code>pipeline</code> of project <code>acme/web</code>");
  });

  it("the apply whose token loses the Owner role before `up` creates the project badge, not the group's, and says what to do next", async () => {
    await merge();
    const apply = await runJob("apply", defaultBranchPipeline(), { at: /pulumi -- up /, action: async () => maintainerOfAcmeIs(40) });
    expect(apply.code, `${apply.stdout}\n${apply.stderr}`).not.toBe(0);
    expect(await badgeNames("projects", "acme/web")).toEqual(["pipeline"]);
    expect(await badgeNames("groups", "acme")).toEqual([]);
    const [result] = await resultNotes();
    expect(result!.body).toContain(`commit \`${commitSha}\``); // the merge commit the server made, not the merge request's head
    expect(commitSha).not.toBe(headSha);
    expect(result!.body).toContain("**The apply failed:**");
    expect(result!.body).toContain("created badge");
    expect(result!.body).toMatch(/#### Not applied \(1\)\n\n- `\+` creates badge <code>acme-status<\/code> of group <code>acme<\/code> <em>\(its step failed/);
    expect(result!.body).toContain("needs the Owner role on group acme");
    expect(result!.body).toContain("**What to do next:** Fix what the problems above name");
    expect(apply.stderr).toContain("platform-review: the apply failed part way (1 applied, 1 not applied)"); // the project badge (the stack's own resource is no change to review)
  });

  it("with the role given back, the same job for the same commit applies the rest: its guard accepts the reviewed plan less what was applied", async () => {
    maintainerOfAcmeIs(50);
    const apply = await runJob("apply", defaultBranchPipeline());
    expect(apply.code, `${apply.stdout}\n${apply.stderr}`).toBe(0);
    expect(apply.stderr).toContain("the stack's state shows 1 of the reviewed changes done as reviewed");
    expect(await badgeNames("groups", "acme")).toEqual(["acme-status"]);
    const [, retry] = await resultNotes();
    expect(retry!.body).toContain(`commit \`${commitSha}\``);
    expect(retry!.body).toContain("**Applied:** 1 created.");
    expect(retry!.body).not.toContain("Not applied");
  });

  it("a merge request that deletes the group badge, previewed with a token whose user is no Owner of acme, fails its preview naming the delete", async () => {
    maintainerOfAcmeIs(40);
    writeProgram(false);
    await newMergeRequest("no-group-badge");
    const preview = await runJob("preview", mergeRequestPipeline());
    expect(preview.code).toBe(1);
    expect(preview.stdout).toContain("deletes badge");
    expect(preview.stdout).toMatch(/acme-status \(Badge\)<\/code>: <code>Badge: could not delete groups\/acme\/badges\/\d+: group: the token's user \(maintainer\) needs the Owner role on group acme/);
    const saved = JSON.parse(readFileSync(path.join(program.dir, `preview-${program.stack}.json`), "utf8")) as { diagnostics: { severity: string; message: string }[] };
    expect(saved.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([expect.stringMatching(/^Badge: could not delete groups\/acme\/badges\/\d+: group: /)]);
  });

  it("merged all the same, its apply job stops before `up`: the guard verifies the deletes with the apply's token", async () => {
    // The report job posts the failed preview's report (and fails, as the preview did).
    expect((await runJob("report", mergeRequestPipeline())).code).toBe(1);
    await merge();
    const apply = await runJob("apply", defaultBranchPipeline());
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain("platform-review: the server would refuse a delete of this apply:");
    expect(apply.stderr).toContain("needs the Owner role on group acme");
    expect(await badgeNames("groups", "acme")).toEqual(["acme-status"]);
    const stopped = (await resultNotes()).at(-1)!.body;
    expect(stopped).toContain("#### Stopped: the server would refuse this");
    expect(stopped).toContain(`commit \`${commitSha}\``);
  });
});
