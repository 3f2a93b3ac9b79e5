/**
 * An apply that fails part way, and its retry, against the emulator over real
 * HTTP: the result (`platform-review --up --planned`) says what was applied,
 * what was not and what to do next, and keeps what it did in its note; the
 * guard of the same commit then accepts the reviewed plan less what that
 * apply did, where the preview shows it done, and refuses anything else.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src";
import { mergeRequestStore, startEmulator, type Emulator } from "../../src/emulator";
import { appliedComment, appliedInNote, lessApplied } from "../../src/review/applied";
import { reviewOf } from "../../src/review/changes";
import { differences } from "../../src/review/summary";
import { markerOf } from "../../src/review/markdown";
import { addNote } from "../../src/review/post";
import { parsePreview, stackOfPreview } from "../../src/review/preview";
import { runCli } from "./run-cli";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");
/** The reviewed preview (with --refresh), and the events of the apply that carried it out. */
const REVIEWED = fixture("change-refresh.json");
const APPLIED = fixture("applied.json");
const NIGHTLY = "urn:pulumi:e2e::review-e2e::pulumi-nodejs:dynamic/platform:PipelineSchedule::nightly";
const STATUS = "urn:pulumi:e2e::review-e2e::pulumi-nodejs:dynamic/platform:Badge::status";

/**
 * The same apply failed part way: the schedule's update refused (403), the
 * badge `status` never created; the rest done.
 */
function failedApply(): string {
  const lines = APPLIED.split("\n").filter((line) => !(line.startsWith('{"sequence"') && /"resOutputsEvent"/.test(line) && (line.includes(`"${NIGHTLY}"`) || line.includes(`"${STATUS}"`)) && !/"op": ?"refresh"/.test(line)));
  const at = lines.findIndex((line) => line.includes('"summaryEvent"'));
  const failed = { sequence: 90, timestamp: 1795695947, resOpFailedEvent: { metadata: { op: "update", urn: NIGHTLY, type: "pulumi-nodejs:dynamic/platform:PipelineSchedule" }, status: 1, steps: 1 } };
  const error = {
    sequence: 91,
    timestamp: 1795695947,
    diagnosticEvent: { urn: NIGHTLY, prefix: "error: ", message: "PipelineSchedule: could not update projects/acme%2Fweb/pipeline_schedules/1. The server refused (403).\n", color: "never", severity: "error" },
  };
  lines.splice(at, 1, JSON.stringify(failed), JSON.stringify(error), lines[at]!.replace('"result": "succeeded"', '"result": "failed"'));
  return lines.join("\n");
}

/**
 * The preview taken before the retry: what the failed apply did is in the
 * state now (`same`, its refresh finding nothing changed; a delete is gone),
 * the rest still proposed.
 */
function previewAfter(done: (urn: string) => boolean): string {
  const preview = JSON.parse(REVIEWED) as { steps: { op: string; urn: string; oldState?: unknown; newState?: unknown }[] };
  preview.steps = preview.steps
    .filter((step) => !((step.op === "delete" || step.op === "refresh") && done(step.urn)))
    .map((step) => (step.op !== "refresh" && step.op !== "same" && done(step.urn) ? { ...step, op: "same", oldState: step.newState } : step));
  return JSON.stringify(preview);
}
const appliedBefore = (urn: string) => urn !== NIGHTLY && urn !== STATUS;

let emulator: Emulator;
let root: PlatformClient;
let projectId: number;
let work: string;
let output = "";
let stderr = "";

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, backgroundWork: "manual" });
  root = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
  projectId = (await root.get<{ id: number }>(apiPath`/projects/${"acme/web"}`)).id;
  work = mkdtempSync(path.join(tmpdir(), "review-failed-apply-"));
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await closeAllPools();
  await emulator.stop();
});

let files = 0;
function file(text: string): string {
  const name = path.join(work, `file-${++files}.json`);
  writeFileSync(name, text);
  return name;
}

let shas = 0;
/** A merge request from `stable`, reviewed by the report job and merged with a merge commit of its own: that commit. */
async function reviewedAndMerged(reviewed = REVIEWED): Promise<{ iid: number; commit: string }> {
  const { iid } = await root.post<{ iid: number }>(apiPath`/projects/${projectId}/merge_requests`, { source_branch: "stable", target_branch: "main", title: "Platform change" });
  await emulator.runDueWork();
  expect(await cli(["--preview", file(reviewed), "--post", "--quiet"], { CI_MERGE_REQUEST_IID: String(iid) })).toBe(0);
  const commit = (++shas).toString(16).padStart(40, "d");
  const record = mergeRequestStore.of(emulator.state).mergeRequests.find((mr) => mr.projectId === projectId && mr.iid === iid)!;
  const mergedAt = new Date().toISOString();
  Object.assign(record, { state: "merged", mergedAt, updatedAt: mergedAt, mergeUserId: emulator.state.userByUsername("maintainer")!.id, mergeCommitSha: commit, sha: (shas + 1000).toString(16).padStart(40, "a") });
  return { iid, commit };
}

async function cli(args: string[], env: Record<string, string>): Promise<number> {
  const ran = await runCli(args, { CI_API_V4_URL: `${emulator.url}/api/v4`, CI_PROJECT_ID: String(projectId), PLATFORM_REVIEW_TOKEN: emulator.tokens.alice!, ...env });
  ({ output, stderr } = ran);
  return ran.code;
}

const onMain = (commit: string) => ({ CI_COMMIT_SHA: commit, CI_COMMIT_BRANCH: "main" });
const guard = (commit: string, preview: string) => cli(["--preview", file(preview), "--check-reviewed", "--quiet"], onMain(commit));
const notesOf = (iid: number) => root.list<{ id: number; body: string }>(apiPath`/projects/${projectId}/merge_requests/${iid}/notes`, { sort: "asc" });

describe("the result of an apply that failed part way", () => {
  it("says what was applied, what was not (the failed step marked), and what to do next", async () => {
    expect(await cli(["--up", file(failedApply()), "--planned", file(REVIEWED)], {})).toBe(1);
    expect(output).toContain("**The apply failed:** 1 problem");
    expect(output).toContain("#### Took over (1)");
    expect(output).toMatch(/#### Not applied \(2\)\n\n- `~` updates pipeline schedule 1 <code>Nightly[^\n]*<em>\(its step failed: see the problems below\)<\/em>/);
    expect(output).toMatch(/- `\+` creates badge <code>status<\/code> of group <code>acme<\/code> · <code>status<\/code> \(Badge\)\n/);
    expect(output).toContain("**What to do next:** Fix what the problems above name");
    expect(stderr).toContain("platform-review: the apply failed part way (6 applied, 2 not applied); what to do next: Fix what the problems above name");
  });

  it("keeps what it applied, and the commit, in the result note's last line", async () => {
    const { iid, commit } = await reviewedAndMerged();
    expect(await cli(["--up", file(failedApply()), "--planned", file(REVIEWED), "--post", "--quiet"], onMain(commit))).toBe(1);
    const result = (await notesOf(iid)).find((note) => note.body.startsWith(markerOf("e2e", true)))!;
    const record = appliedInNote(result.body)!;
    expect(record.commit).toBe(commit);
    expect(record.applied.map((step) => step.urn)).not.toContain(NIGHTLY);
    expect(record.applied.map((step) => step.urn)).not.toContain(STATUS);
    expect(record.applied.filter((step) => step.kind !== "drift")).toHaveLength(6);
  });
});

describe("the guard of the retry", () => {
  it("accepts the reviewed plan less what the failed apply of the same commit did; the retry's result completes it", async () => {
    const { iid, commit } = await reviewedAndMerged();
    const now = previewAfter(appliedBefore);
    // Before the failed apply's result is on the merge request, the rest alone is not what was reviewed.
    expect(await guard(commit, now)).toBe(3);
    expect(stderr).toContain("reviewed but no longer proposed");
    expect(await cli(["--up", file(failedApply()), "--planned", file(REVIEWED), "--post", "--quiet"], onMain(commit))).toBe(1);
    expect(await guard(commit, now), stderr).toBe(0);
    // Its six changes, and the drift its refresh recorded.
    expect(stderr).toContain("an earlier apply of this commit made 7 of the reviewed changes");
    // The whole reviewed plan is still accepted too (nothing applied it after all, say).
    expect(await guard(commit, REVIEWED), stderr).toBe(0);
    expect(await cli(["--up", file(APPLIED), "--planned", file(now), "--post", "--quiet"], onMain(commit))).toBe(0);
    const results = (await notesOf(iid)).filter((note) => note.body.startsWith(markerOf("e2e", true)));
    expect(results).toHaveLength(2);
    expect(results[1]!.body).not.toContain("Not applied");
  });

  it("refuses anything else: a step of the rest left out, a step changed, another commit, a record someone else wrote", async () => {
    const { iid, commit } = await reviewedAndMerged();
    expect(await cli(["--up", file(failedApply()), "--planned", file(REVIEWED), "--post", "--quiet"], onMain(commit))).toBe(1);
    // The rest less the badge it never created: not what was reviewed.
    expect(await guard(commit, previewAfter((urn) => urn !== NIGHTLY))).toBe(3);
    expect(stderr).toContain("reviewed but no longer proposed: creates badge `status` of group acme");
    // The rest with a field of its own changed.
    expect(await guard(commit, previewAfter(appliedBefore).replaceAll('"name":"status"', '"name":"status-2"'))).toBe(3);
    // A change the failed apply did not make, gone from the preview: no record says it was applied.
    const other = await reviewedAndMerged();
    expect(await guard(other.commit, previewAfter(appliedBefore))).toBe(3);
    expect(stderr).toContain("reviewed but no longer proposed");
    // A result note with a record of everything, written by another user (a Developer can comment): not read.
    const forged = (await notesOf(iid)).find((note) => note.body.startsWith(markerOf("e2e", true)))!.body.replace(/applied-data \S+/, "x");
    const all = reviewOf(parsePreview(REVIEWED)).changes;
    await addNote({ url: emulator.url, token: emulator.tokens.dev!, project: String(projectId), mergeRequestIid: other.iid }, `${forged}${appliedComment(other.commit, all)}\n`);
    expect(await guard(other.commit, previewAfter(() => true))).toBe(3);
    expect(stderr).toContain("reviewed but no longer proposed: creates badge `status` of group acme");
  });

  it("an apply that failed before the engine reported the stack's own resource: the stack is still named, and nothing is left of its create", () => {
    const STACK = "urn:pulumi:e2e::review-e2e::pulumi:pulumi:Stack::review-e2e-e2e";
    // The review of a new stack: the stack's own resource is no change to review, so no record of an apply need list it.
    const newStack = parsePreview(REVIEWED);
    newStack.steps = newStack.steps!.map((step) => (step.urn === STACK && step.op === "same" ? { ...step, op: "create" } : step));
    const reviewed = reviewOf(newStack).changes;
    expect(reviewed.map((change) => change.urn)).not.toContain(STACK);
    const record = { version: 1 as const, commit: "d".repeat(40), applied: reviewed.filter((change) => change.urn !== STATUS).map(({ urn, kind, object }) => ({ urn, kind, object })) };
    const now = parsePreview(previewAfter((urn) => urn !== STATUS));
    expect(lessApplied(reviewed, [record], now, reviewOf(now).changes).remaining.map((change) => change.urn)).toEqual([STATUS]);
    // A review recorded by an earlier version listed the stack's own resource: the guard reads past it.
    const recordedBefore = { kind: "create" as const, type: "resource", name: "review-e2e-e2e", urn: STACK, owner: "(no owner named)", object: "resource", fields: [] };
    expect(differences({ changes: [recordedBefore, ...reviewed] }, { changes: reviewed })).toEqual([]);
    // Without the stack's own step, every URN still names the stack; URNs of two stacks name none.
    const cut = { ...now, steps: now.steps!.filter((step) => step.urn !== STACK) };
    expect(stackOfPreview(cut)).toBe("e2e");
    expect(stackOfPreview({ ...cut, steps: [...cut.steps!, { ...cut.steps![0]!, urn: cut.steps![0]!.urn.replace("urn:pulumi:e2e::", "urn:pulumi:prod::") }] })).toBeUndefined();
  });

  it("leaves out a recorded change only where the preview shows it done", () => {
    const reviewed = reviewOf(parsePreview(REVIEWED)).changes;
    const record = { version: 1 as const, commit: "d".repeat(40), applied: reviewed.map(({ urn, kind, object }) => ({ urn, kind, object })) };
    // Recorded as applied, but the preview still shows the badge `legacy` in the state (not deleted) and `status` to create.
    const now = parsePreview(previewAfter(appliedBefore));
    const { remaining, done } = lessApplied(reviewed, [record], now, reviewOf(now).changes);
    expect(remaining.map((change) => change.urn)).toEqual(expect.arrayContaining([NIGHTLY, STATUS]));
    expect(done.some((change) => change.urn === NIGHTLY)).toBe(false);
    const kept = parsePreview(previewAfter((urn) => appliedBefore(urn) && !urn.endsWith("::legacy")).replace(/"op": "delete"/g, '"op": "same"'));
    expect(lessApplied(reviewed, [record], kept, []).remaining.map((change) => change.urn)).toContain("urn:pulumi:e2e::review-e2e::pulumi-nodejs:dynamic/platform:Badge::legacy");
  });
});

/**
 * A create that failed after the server made its object, measured with the
 * real CLI (scripts/make-retry-fixtures.mts): the server refused a variable of
 * the new schedule `nightly` after making the schedule, so the engine keeps
 * it in the state with the failure, and the retry's preview updates it (the
 * variable left) or, once that variable was set, has nothing to do for it.
 * The same apply cut the replacement of the SAML group link `ops` after its
 * new link was made.
 */
describe("the guard of a retry after a create that failed with its object made", () => {
  const RETRY_REVIEWED = fixture("retry-reviewed.json");
  const RETRY_FAILED_UP = fixture("retry-failed-up.json");
  const RETRY_PREVIEW = fixture("retry-preview.json");
  const RETRY_NOTHING_LEFT = fixture("retry-nothing-left.json");
  const SCHEDULE = "urn:pulumi:e2e::retry-after-failure::pulumi-nodejs:dynamic/platform:PipelineSchedule::nightly";
  const SCHEDULE_ID = "projects/acme%2Fweb/pipeline_schedules/1";
  const reviewedCreate = "creates pipeline schedule `Nightly deploy (retry test)` of project acme/web";
  const refusedFinish = `${reviewedCreate}: the preview shows its object made already, but not as that create finishing`;

  /** The retry's preview with the schedule's update step changed by `edit`. */
  function withScheduleStep(preview: string, edit: (step: { op: string; oldState?: { id?: string }; newState: { inputs: Record<string, unknown> } }) => void): string {
    const parsed = JSON.parse(preview) as { steps: { op: string; urn: string; oldState?: { id?: string }; newState: { inputs: Record<string, unknown> } }[] };
    for (const step of parsed.steps) if (step.urn === SCHEDULE && step.op !== "refresh") edit(step);
    return JSON.stringify(parsed);
  }

  const failedApplyOf = async (commit: string) => expect(await cli(["--up", file(RETRY_FAILED_UP), "--planned", file(RETRY_REVIEWED), "--post", "--quiet"], onMain(commit))).toBe(1);

  it("the failed apply's result records the object the create made", async () => {
    expect(parsePreview(RETRY_FAILED_UP).madeByFailedCreates).toEqual([{ urn: SCHEDULE, id: SCHEDULE_ID }]);
    const { iid, commit } = await reviewedAndMerged(RETRY_REVIEWED);
    await failedApplyOf(commit);
    const result = (await notesOf(iid)).find((note) => note.body.startsWith(markerOf("e2e", true)))!;
    expect(result.body).toMatch(/#### Not applied \(1\)\n\n- `\+` creates pipeline schedule <code>Nightly deploy \(retry test\)<\/code>[^\n]*<em>\(its step failed/);
    expect(appliedInNote(result.body)!.made).toEqual([{ urn: SCHEDULE, id: SCHEDULE_ID }]);
  });

  it("accepts the update that finishes it, and nothing left to do, only after the failed apply's result note; the retry's result completes it", async () => {
    const { iid, commit } = await reviewedAndMerged(RETRY_REVIEWED);
    // Today's refusal, without the failed apply's result: the update is not what was reviewed, and the guard says why.
    expect(await guard(commit, RETRY_PREVIEW)).toBe(3);
    expect(stderr).toContain(`not reviewed: updates pipeline schedule 1 \`Nightly deploy (retry test)\` of project acme/web`);
    expect(stderr).toContain(`${refusedFinish}: no result note of an earlier apply of this commit by the review token's user says that its create failed after the object was made`);
    await failedApplyOf(commit);
    expect(await guard(commit, RETRY_PREVIEW), stderr).toBe(0);
    expect(stderr).toContain(`platform-review: ${reviewedCreate}: its create failed in an earlier apply of this commit after the object was made; this apply finishes it with the reviewed values`);
    expect(await guard(commit, RETRY_NOTHING_LEFT), stderr).toBe(0);
    expect(stderr).toContain("this apply finishes it with the reviewed values");
    expect(await cli(["--up", file(fixture("retry-up.json")), "--planned", file(RETRY_NOTHING_LEFT), "--post", "--quiet"], onMain(commit))).toBe(0);
    const results = (await notesOf(iid)).filter((note) => note.body.startsWith(markerOf("e2e", true)));
    expect(results).toHaveLength(2);
    expect(results[1]!.body).not.toContain("Not applied");
  });

  it("refuses other values, another object, another commit, and a record the review token's user did not write, saying why", async () => {
    const { iid, commit } = await reviewedAndMerged(RETRY_REVIEWED);
    await failedApplyOf(commit);
    // Values declared now that the review did not show.
    const otherCron = withScheduleStep(RETRY_PREVIEW, (step) => Object.assign(step.newState.inputs, { cron: "0 3 * * *" }));
    expect(await guard(commit, otherCron)).toBe(3);
    expect(stderr).toContain(`${refusedFinish}: the values declared now differ from the reviewed create's: cron`);
    const otherRef = withScheduleStep(RETRY_PREVIEW, (step) => Object.assign(step.newState.inputs, { ref: "develop", active: false }));
    expect(await guard(commit, otherRef)).toBe(3);
    expect(stderr).toContain("the values declared now differ from the reviewed create's: active, ref");
    // Another object in the state than the one the failed create made.
    expect(await guard(commit, RETRY_PREVIEW.replaceAll(SCHEDULE_ID, "projects/acme%2Fweb/pipeline_schedules/7"))).toBe(3);
    expect(stderr).toContain(`${refusedFinish}: the object in the state (projects/acme%2Fweb/pipeline_schedules/7) is not the one the failed create made (${SCHEDULE_ID})`);
    // A replacement of it instead of an update.
    expect(await guard(commit, withScheduleStep(RETRY_PREVIEW, (step) => (step.op = "replace")))).toBe(3);
    expect(stderr).toContain(`${refusedFinish}: the preview does not finish it in place (its steps: replace)`);
    // Another commit, reviewed the same, with no failed apply of its own.
    const other = await reviewedAndMerged(RETRY_REVIEWED);
    expect(await guard(other.commit, RETRY_PREVIEW)).toBe(3);
    expect(stderr).toContain(`${refusedFinish}: no result note of an earlier apply of this commit`);
    // A result note for it with the record, written by another user (a Developer can comment): not read.
    const forged = (await notesOf(iid)).find((note) => note.body.startsWith(markerOf("e2e", true)))!.body.replace(/applied-data \S+/, "x");
    const made = [{ urn: SCHEDULE, id: SCHEDULE_ID }];
    await addNote({ url: emulator.url, token: emulator.tokens.dev!, project: String(projectId), mergeRequestIid: other.iid }, `${forged}${appliedComment(other.commit, [], made)}\n`);
    expect(await guard(other.commit, RETRY_NOTHING_LEFT)).toBe(3);
    expect(stderr).toContain(`${refusedFinish}: no result note of an earlier apply of this commit`);
  });

  it("needs the object's id in the failed apply's record: a record without it, or that says the create was applied, does not do", () => {
    const reviewed = reviewOf(parsePreview(RETRY_REVIEWED)).changes;
    const now = parsePreview(RETRY_PREVIEW);
    const proposed = reviewOf(now).changes;
    const failedUp = reviewOf(parsePreview(RETRY_FAILED_UP)).changes.map(({ urn, kind, object }) => ({ urn, kind, object }));
    const record = { version: 1 as const, commit: "d".repeat(40), applied: failedUp, made: [{ urn: SCHEDULE, id: SCHEDULE_ID }] };
    const accepted = lessApplied(reviewed, [record], now, proposed);
    expect(accepted.finishing.map((change) => change.urn)).toEqual([SCHEDULE]);
    expect(differences({ changes: accepted.remaining }, { changes: accepted.proposedRest })).toEqual([]);
    const { made: _made, ...older } = record;
    const withoutId = lessApplied(reviewed, [older], now, proposed);
    expect(withoutId.finishing).toEqual([]);
    expect(withoutId.unfinished.map((entry) => entry.reason)).toEqual(["the result notes of the earlier applies of this commit do not say that its create failed after the object was made"]);
    expect(differences({ changes: withoutId.remaining }, { changes: withoutId.proposedRest })).toContain(`reviewed but no longer proposed: ${reviewedCreate}`);
    // Recorded as applied, yet the preview updates it: not done, and no create to finish.
    const appliedToo = { ...record, applied: [...failedUp, { urn: SCHEDULE, kind: "create", object: "pipeline schedule `Nightly deploy (retry test)`" }] };
    expect(lessApplied(reviewed, [appliedToo], now, proposed).finishing).toEqual([]);
  });
});

/**
 * A replacement cut between its halves, measured with the real CLI
 * (scripts/make-retry-fixtures.mts). Create first (the link `ops` renamed):
 * the new link made, the old one's delete not reached; the engine keeps the
 * old link in the state marked to delete, the retry's preview has no step for
 * it (only its refresh), and the retry's `up` deletes it. Delete first (the
 * link `devs` given another role, a stack of its own): the old link deleted,
 * the new one refused; the engine keeps the old link's state marked as
 * pending replacement, and the retry's preview proposes the same replacement,
 * whose `up` only creates.
 */
describe("the guard of a retry after a replacement cut between its halves", () => {
  const RETRY_REVIEWED = fixture("retry-reviewed.json");
  const RETRY_FAILED_UP = fixture("retry-failed-up.json");
  const RETRY_PREVIEW = fixture("retry-preview.json");
  const OPS = "urn:pulumi:e2e::retry-after-failure::pulumi-nodejs:dynamic/platform:SamlGroupLink::ops";
  const oldLinkDelete = "deletes SAML group link `platform-ops` of group acme";

  /** The retry's preview with the old link's marked refresh naming another link. */
  function otherOldLink(preview: string): string {
    const parsed = JSON.parse(preview) as { steps: { op: string; urn: string; oldState?: { delete?: boolean; id?: string; inputs?: Record<string, unknown> } }[] };
    for (const step of parsed.steps) {
      if (step.urn !== OPS || step.oldState?.delete !== true) continue;
      step.oldState.inputs = { ...step.oldState.inputs, samlGroupName: "platform-other" };
      step.oldState.id = "groups/acme/saml_group_links/platform-other?provider=okta";
    }
    return JSON.stringify(parsed);
  }

  it("the failed apply's result says which half is left; the retry's report shows the old object's delete, which the preview has no step for", async () => {
    expect(await cli(["--up", file(RETRY_FAILED_UP)], {})).toBe(1);
    expect(output).toContain(
      "- `+-` replaced SAML group link <code>platform-ops</code> of group <code>acme</code>, <em>cut short: the new object was made, the old one not deleted; the next apply deletes it</em>",
    );
    expect(await cli(["--preview", file(RETRY_PREVIEW)], {})).toBe(0);
    expect(output).toContain(
      "- `-` deletes SAML group link <code>platform-ops</code> of group <code>acme</code>, <em>the rest of a replacement an earlier apply cut short (its new object was made): the next apply deletes it</em>",
    );
    // The retry's apply, whose events have the delete and no other change: its result says what it deleted.
    expect(await cli(["--up", file(fixture("retry-up.json"))], {})).toBe(0);
    expect(output).toContain("deleted SAML group link <code>platform-ops</code> of group <code>acme</code>, <em>the rest of a replacement an earlier apply cut short</em>");
  });

  it("accepts that delete as the rest of the reviewed replacement after the failed apply's result, and no other", async () => {
    const { commit } = await reviewedAndMerged(RETRY_REVIEWED);
    expect(await guard(commit, RETRY_PREVIEW)).toBe(3);
    expect(stderr).toContain(`not reviewed: ${oldLinkDelete}`);
    expect(await cli(["--up", file(RETRY_FAILED_UP), "--planned", file(RETRY_REVIEWED), "--post", "--quiet"], onMain(commit))).toBe(1);
    expect(await guard(commit, RETRY_PREVIEW), stderr).toBe(0);
    expect(stderr).toContain(`platform-review: ${oldLinkDelete}: the rest of a reviewed replacement an earlier apply of this commit cut after making its new object`);
    // Another old object to delete than the reviewed replacement's.
    expect(await guard(commit, otherOldLink(RETRY_PREVIEW))).toBe(3);
    expect(stderr).toContain("not reviewed: deletes SAML group link `platform-other` of group acme");
    // Another commit, with no failed apply of its own.
    const other = await reviewedAndMerged(RETRY_REVIEWED);
    expect(await guard(other.commit, RETRY_PREVIEW)).toBe(3);
    expect(stderr).toContain(`not reviewed: ${oldLinkDelete}`);
  });

  it("a delete-first replacement cut after its delete: the retry proposes the reviewed replacement, which is accepted, and says only the create is left", async () => {
    const reviewed = fixture("retry-delete-first-reviewed.json");
    const retry = fixture("retry-delete-first-preview.json");
    expect(await cli(["--up", file(fixture("retry-delete-first-failed-up.json"))], {})).toBe(1);
    expect(output).toContain("<em>cut short: the old object was deleted, the new one not made; the next apply creates it</em>");
    expect(await cli(["--preview", file(retry)], {})).toBe(0);
    expect(output).toContain("<em>an earlier apply deleted the old object already: what is left is to create the new one</em>");
    const { commit } = await reviewedAndMerged(reviewed);
    expect(await cli(["--up", file(fixture("retry-delete-first-failed-up.json")), "--planned", file(reviewed), "--post", "--quiet"], onMain(commit))).toBe(1);
    expect(await guard(commit, retry), stderr).toBe(0);
    // The same with another role than the reviewed one: refused.
    expect(await guard(commit, retry.replace(/"accessLevel": "maintainer"/, '"accessLevel": "owner"'))).toBe(3);
    expect(stderr).toContain("replaces SAML group link `platform-devs` of group acme (accessLevel changes): fields differ from the review: accessLevel");
  });
});
