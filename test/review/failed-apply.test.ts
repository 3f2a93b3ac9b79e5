/**
 * An apply that fails part way, and its retry, against the emulator over real
 * HTTP: the result (`platform-review --up --planned`) says what was applied,
 * what was not and what to do next; the guard of the retry accepts the
 * reviewed plan less what the stack's state shows done as reviewed, and
 * refuses anything else. No note is evidence of what an apply did: a result
 * note carries no data, and the guard reads none.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src";
import { mergeRequestStore, startEmulator, type Emulator } from "../../src/emulator";
import { reviewOf } from "../../src/review/changes";
import { differences, guardVerdict } from "../../src/review/guard";
import { markerOf } from "../../src/review/markdown";
import { parsePreview, stackOfPreview } from "../../src/review/preview";
import { summaryOf } from "../../src/review/summary";
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

  it("lists only what happened: a delete the run never reached is not applied, not failed, and the engine's line about it is no problem", async () => {
    const LEGACY = "urn:pulumi:e2e::review-e2e::pulumi-nodejs:dynamic/platform:Badge::legacy";
    const lines = failedApply()
      .split("\n")
      .filter((line) => !(/"resOutputsEvent"/.test(line) && line.includes(`"${LEGACY}"`) && /"op": ?"delete"/.test(line)));
    const at = lines.findIndex((line) => line.includes('"summaryEvent"'));
    // What `up --plan` says, after the failure, of each planned step it never started.
    const notReached = (urn: string, sequence: number) =>
      JSON.stringify({ sequence, timestamp: 1795695947, diagnosticEvent: { urn, prefix: "error: ", message: `expected resource operations for ${urn} but none were seen\n`, color: "never", severity: "error" } });
    lines.splice(at, 0, notReached(LEGACY, 92), notReached(STATUS, 93));
    expect(await cli(["--up", file(lines.join("\n")), "--planned", file(REVIEWED)], {})).toBe(1);
    expect(output).toContain("**The apply failed:** 1 problem");
    expect(output).not.toContain("expected resource operations");
    expect(output).toMatch(/#### Not applied \(3\)\n\n- `-` deletes badge 1 <code>legacy<\/code> of group <code>acme<\/code> · /);
    expect(output).not.toMatch(/deletes badge 1 <code>legacy<\/code>[^\n]*its step failed/);
    expect(output).not.toMatch(/creates badge <code>status<\/code>[^\n]*its step failed/);
    expect(output).toMatch(/updates pipeline schedule 1 <code>Nightly[^\n]*<em>\(its step failed: see the problems below\)<\/em>/);
  });

  it("carries no data: a result note is history for people, never evidence for a guard", async () => {
    const { iid, commit } = await reviewedAndMerged();
    expect(await cli(["--up", file(failedApply()), "--planned", file(REVIEWED), "--post", "--quiet"], onMain(commit))).toBe(1);
    const result = (await notesOf(iid)).find((note) => note.body.startsWith(markerOf("e2e", true)))!;
    expect(result.body).toContain("#### Not applied (2)");
    expect(result.body).not.toMatch(/platform-review-(applied-)?data/);
  });
});

/** The verdict on `now` held against `reviewed`, with no delete refused. */
const verdictOn = (reviewed: string | ReturnType<typeof reviewOf>["changes"], now: string) => {
  const changes = typeof reviewed === "string" ? reviewOf(parsePreview(reviewed)).changes : reviewed;
  const preview = parsePreview(now);
  return guardVerdict({ reviewed: { summary: summaryOf({ ...reviewOf(parsePreview(REVIEWED)), changes }), leftOut: { fields: [], changes: [] } }, now: preview, proposed: reviewOf(preview).changes, refusedDeletes: [] });
};

describe("the guard of the retry", () => {
  it("accepts the reviewed plan less what the stack's state shows done as reviewed, with no note to say so; the retry's result completes it", async () => {
    const { iid, commit } = await reviewedAndMerged();
    const now = previewAfter(appliedBefore);
    expect(await guard(commit, now), stderr).toBe(0);
    // Its six changes, and the drift its refresh recorded.
    expect(stderr).toContain("the stack's state shows 7 of the reviewed changes done as reviewed");
    // The whole reviewed plan is still accepted too (nothing applied it after all, say).
    expect(await guard(commit, REVIEWED), stderr).toBe(0);
    expect(await cli(["--up", file(APPLIED), "--planned", file(now), "--post", "--quiet"], onMain(commit))).toBe(0);
    const results = (await notesOf(iid)).filter((note) => note.body.startsWith(markerOf("e2e", true)));
    expect(results).toHaveLength(1);
    expect(results[0]!.body).not.toContain("Not applied");
  });

  it("refuses anything else: a step of the rest left out, a step changed, a change the state holds otherwise than reviewed", async () => {
    const { commit } = await reviewedAndMerged();
    // The rest less the badge, which the state does not hold either: not what was reviewed.
    const withoutStatus = JSON.parse(previewAfter((urn) => urn !== NIGHTLY && urn !== STATUS)) as { steps: { urn: string }[] };
    withoutStatus.steps = withoutStatus.steps.filter((step) => step.urn !== STATUS);
    expect(await guard(commit, JSON.stringify(withoutStatus))).toBe(3);
    expect(stderr).toContain("reviewed but no longer proposed: creates badge `status` of group acme");
    // The rest with a field of its own changed.
    expect(await guard(commit, previewAfter(appliedBefore).replaceAll('"name":"status"', '"name":"status-2"'))).toBe(3);
    // A reviewed update the state shows with nothing to do, but another value than the review's (the object set by hand to a third value, its refresh taken as the program's).
    const elsewhere = previewAfter(appliedBefore).replaceAll('"name":"documentation"', '"name":"third"');
    expect(elsewhere).not.toBe(previewAfter(appliedBefore));
    expect(await guard(commit, elsewhere)).toBe(3);
    expect(stderr).toContain("reviewed but no longer proposed: updates badge 2 `docs` of group acme");
  });

  it("an apply that failed before the engine reported the stack's own resource: the stack is still named, and nothing is left of its create", () => {
    const STACK = "urn:pulumi:e2e::review-e2e::pulumi:pulumi:Stack::review-e2e-e2e";
    // The review of a new stack: the stack's own resource is no change to review, so the state need not show it done.
    const newStack = parsePreview(REVIEWED);
    newStack.steps = newStack.steps!.map((step) => (step.urn === STACK && step.op === "same" ? { ...step, op: "create" } : step));
    const reviewed = reviewOf(newStack).changes;
    expect(reviewed.map((change) => change.urn)).not.toContain(STACK);
    expect(verdictOn(reviewed, previewAfter((urn) => urn !== STATUS))).toMatchObject({ accepted: true });
    // A review recorded by an earlier version listed the stack's own resource: the guard reads past it.
    const recordedBefore = { kind: "create" as const, type: "resource", name: "review-e2e-e2e", urn: STACK, owner: "(no owner named)", object: "resource", fields: [] };
    expect(differences([recordedBefore, ...reviewed], reviewed)).toEqual([]);
    // Without the stack's own step, every URN still names the stack; URNs of two stacks name none.
    const now = parsePreview(previewAfter((urn) => urn !== STATUS));
    const cut = { ...now, steps: now.steps!.filter((step) => step.urn !== STACK) };
    expect(stackOfPreview(cut)).toBe("e2e");
    expect(stackOfPreview({ ...cut, steps: [...cut.steps!, { ...cut.steps![0]!, urn: cut.steps![0]!.urn.replace("urn:pulumi:e2e::", "urn:pulumi:prod::") }] })).toBeUndefined();
  });

  it("leaves out a reviewed change only where the preview shows it done: a delete whose object is still in the state is not", () => {
    const kept = previewAfter((urn) => appliedBefore(urn) && !urn.endsWith("::legacy")).replace(/"op": ?"delete"/g, '"op": "same"');
    const verdict = verdictOn(REVIEWED, kept);
    expect(verdict.accepted ? [] : verdict.found, JSON.stringify(verdict)).toContain("reviewed but no longer proposed: deletes badge 1 `legacy` of group acme");
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

  /** The retry's preview with the engine's record of the failed create taken out of the state: the object there as any object is. */
  const withoutFailedCreate = (preview: string) => {
    const parsed = JSON.parse(preview) as { steps: { urn: string; oldState?: { initErrors?: unknown }; newState?: { initErrors?: unknown } }[] };
    for (const step of parsed.steps) {
      if (step.urn !== SCHEDULE) continue;
      delete step.oldState?.initErrors;
      delete step.newState?.initErrors;
    }
    return JSON.stringify(parsed);
  };

  it("the failed apply's result lists the create as not applied, its step failed", async () => {
    const { iid, commit } = await reviewedAndMerged(RETRY_REVIEWED);
    expect(await cli(["--up", file(RETRY_FAILED_UP), "--planned", file(RETRY_REVIEWED), "--post", "--quiet"], onMain(commit))).toBe(1);
    const result = (await notesOf(iid)).find((note) => note.body.startsWith(markerOf("e2e", true)))!;
    expect(result.body).toMatch(/#### Not applied \(1\)\n\n- `\+` creates pipeline schedule <code>Nightly deploy \(retry test\)<\/code>[^\n]*<em>\(its step failed/);
  });

  it("accepts the update that finishes it, and nothing left to do, from the state's record of the failed create; the retry's result completes it", async () => {
    const { iid, commit } = await reviewedAndMerged(RETRY_REVIEWED);
    // No result note is on the merge request: the state's record of the failed create is the evidence.
    expect(await guard(commit, RETRY_PREVIEW), stderr).toBe(0);
    expect(stderr).toContain(`platform-review: ${reviewedCreate}: its create failed in an earlier apply after the object was made; this apply finishes it with the reviewed values`);
    expect(await guard(commit, RETRY_NOTHING_LEFT), stderr).toBe(0);
    expect(stderr).toContain("this apply finishes it with the reviewed values");
    expect(await cli(["--up", file(fixture("retry-up.json")), "--planned", file(RETRY_NOTHING_LEFT), "--post", "--quiet"], onMain(commit))).toBe(0);
    const results = (await notesOf(iid)).filter((note) => note.body.startsWith(markerOf("e2e", true)));
    expect(results).toHaveLength(1);
    expect(results[0]!.body).not.toContain("Not applied");
  });

  it("refuses other values, a replacement, and an object the state holds as any object, saying why", async () => {
    const { commit } = await reviewedAndMerged(RETRY_REVIEWED);
    // Values declared now that the review did not show.
    const otherCron = withScheduleStep(RETRY_PREVIEW, (step) => Object.assign(step.newState.inputs, { cron: "0 3 * * *" }));
    expect(await guard(commit, otherCron)).toBe(3);
    expect(stderr).toContain(`${refusedFinish}: the values declared now differ from the reviewed create's: cron`);
    const otherRef = withScheduleStep(RETRY_PREVIEW, (step) => Object.assign(step.newState.inputs, { ref: "develop", active: false }));
    expect(await guard(commit, otherRef)).toBe(3);
    expect(stderr).toContain("the values declared now differ from the reviewed create's: active, ref");
    // A replacement of it instead of an update.
    expect(await guard(commit, withScheduleStep(RETRY_PREVIEW, (step) => (step.op = "replace")))).toBe(3);
    expect(stderr).toContain(`${refusedFinish}: the preview does not finish it in place (its steps: replace)`);
    // An object in the state without the engine's record of a failed create: an update of it is no create finishing.
    expect(await guard(commit, withoutFailedCreate(RETRY_PREVIEW))).toBe(3);
    expect(stderr).toContain(`not reviewed: updates pipeline schedule 1 \`Nightly deploy (retry test)\` of project acme/web`);
    expect(stderr).toContain(`${refusedFinish}: the stack's state does not record a create of it that failed after making its object (${SCHEDULE_ID} is in the state as any object is)`);
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

  it("accepts that delete as the rest of the reviewed replacement whose new object the state shows made, and no other", async () => {
    const { commit } = await reviewedAndMerged(RETRY_REVIEWED);
    expect(await guard(commit, RETRY_PREVIEW), stderr).toBe(0);
    expect(stderr).toContain(`platform-review: ${oldLinkDelete}: the rest of a reviewed replacement an earlier apply cut after making its new object`);
    // Another old object to delete than the reviewed replacement's.
    expect(await guard(commit, otherOldLink(RETRY_PREVIEW))).toBe(3);
    expect(stderr).toContain("not reviewed: deletes SAML group link `platform-other` of group acme");
  });

  it("a delete-first replacement cut after its delete: the retry proposes the reviewed replacement, which is accepted, and says only the create is left", async () => {
    const reviewed = fixture("retry-delete-first-reviewed.json");
    const retry = fixture("retry-delete-first-preview.json");
    expect(await cli(["--up", file(fixture("retry-delete-first-failed-up.json"))], {})).toBe(1);
    expect(output).toContain("<em>cut short: the old object was deleted, the new one not made; the next apply creates it</em>");
    expect(await cli(["--preview", file(retry)], {})).toBe(0);
    expect(output).toContain("<em>an earlier apply deleted the old object already: what is left is to create the new one</em>");
    const { commit } = await reviewedAndMerged(reviewed);
    expect(await guard(commit, retry), stderr).toBe(0);
    // The same with another role than the reviewed one: refused.
    expect(await guard(commit, retry.replace(/"accessLevel": "maintainer"/, '"accessLevel": "owner"'))).toBe(3);
    expect(stderr).toContain("replaces SAML group link `platform-devs` of group acme (accessLevel changes): fields differ from the review: accessLevel");
  });
});
