/**
 * The apply's guard (`platform-review --check-reviewed`) against the emulator
 * over real HTTP, attacked as a Developer of the project would: it trusts only
 * the review token's own note on the merge request merged into the commit,
 * reads the data only from the note's last line, renders the note again from
 * that data, and refuses (exit 3) whatever it cannot show was reviewed. The
 * emulator serves no merge endpoint, so a merge is made in its state: the
 * merge request's state, merge time and merge or squash commit, as a real
 * server records them.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src";
import { startEmulator, mergeRequestStore, type Emulator } from "../../src/emulator";
import { reviewOf } from "../../src/review/changes";
import { main } from "../../src/review/cli";
import { code, markdownOf, markerOf } from "../../src/review/markdown";
import { postNote } from "../../src/review/post";
import { parsePreview } from "../../src/review/preview";
import { dataComment, summaryOf } from "../../src/review/summary";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");
/** The reviewed plan and another one of the same stack. */
const REVIEWED = fixture("change.json");
const OTHER = fixture("new-stack.json");

let emulator: Emulator;
let root: PlatformClient;
let projectId: number;
let work: string;

beforeAll(async () => {
  // The test sets merge requests' heads itself; background work would put the branches' heads back.
  emulator = await startEmulator({ port: 0, backgroundWork: "manual" });
  root = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
  projectId = (await root.get<{ id: number }>(apiPath`/projects/${"acme/web"}`)).id;
  work = mkdtempSync(path.join(tmpdir(), "review-guard-"));
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await closeAllPools();
  await emulator.stop();
});

let stderr: string;
afterEach(() => {
  vi.restoreAllMocks();
  // Each test's merge request is merged or closed by its end; one a failed test left open would block the next.
  for (const mr of mergeRequestStore.of(emulator.state).mergeRequests) if (mr.projectId === projectId && mr.sourceBranch === "stable" && mr.state === "opened") close(mr.iid);
});
function captureStderr(): void {
  stderr = "";
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
}

let files = 0;
function file(text: string): string {
  const name = path.join(work, `preview-${++files}.json`);
  writeFileSync(name, text);
  return name;
}

const ci = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  CI_API_V4_URL: `${emulator.url}/api/v4`,
  CI_PROJECT_ID: String(projectId),
  PLATFORM_REVIEW_TOKEN: emulator.tokens.alice!,
  CI_COMMIT_SHORT_SHA: "abc1234",
  CI_JOB_URL: "https://platform.example.com/acme/web/-/jobs/1",
  ...extra,
});

let shas = 0;
const newSha = () => (++shas).toString(16).padStart(40, "c");

/**
 * A merge request from `stable`, prepared; each gets a head of its own (as
 * successive branches would), so that no two of them share a commit.
 */
async function openMergeRequest(): Promise<{ iid: number; sha: string; base: string }> {
  const { iid } = await root.post<{ iid: number }>(apiPath`/projects/${projectId}/merge_requests`, { source_branch: "stable", target_branch: "main", title: "Platform change" });
  await emulator.runDueWork();
  const mr = await root.get<{ diff_refs: { base_sha: string } }>(apiPath`/projects/${projectId}/merge_requests/${iid}`);
  const sha = newSha();
  record(iid).sha = sha;
  return { iid, sha, base: mr.diff_refs.base_sha };
}

function record(iid: number) {
  return mergeRequestStore.of(emulator.state).mergeRequests.find((mr) => mr.projectId === projectId && mr.iid === iid)!;
}

/** Merges as the server records it: a merge commit, a squash commit, or neither (fast-forward: the head is the commit). */
function merge(iid: number, commits: { merge?: string; squash?: string }, mergedAt = new Date().toISOString()): void {
  Object.assign(record(iid), {
    state: "merged",
    mergedAt,
    updatedAt: mergedAt,
    mergeUserId: emulator.state.userByUsername("maintainer")!.id,
    mergeCommitSha: commits.merge ?? null,
    squashCommitSha: commits.squash ?? null,
  });
}

function close(iid: number): void {
  Object.assign(record(iid), { state: "closed", closedAt: new Date().toISOString(), closedById: emulator.state.userByUsername("maintainer")!.id });
}

/** The merge request pipeline's report job: posts the review of `preview`. */
async function review(iid: number, preview: string): Promise<number> {
  captureStderr();
  return main(["--preview", file(preview), "--post", "--quiet"], ci({ CI_MERGE_REQUEST_IID: String(iid) }), () => {});
}

/** The apply job's guard for `commit` with the preview taken now. */
async function guard(commit: string, preview: string): Promise<number> {
  captureStderr();
  return main(["--preview", file(preview), "--check-reviewed", "--quiet"], ci({ CI_COMMIT_SHA: commit, CI_COMMIT_BRANCH: "main" }), () => {});
}

const notesOf = (iid: number) => root.list<{ id: number; body: string; author: { username: string } }>(apiPath`/projects/${projectId}/merge_requests/${iid}/notes`, { sort: "asc" });

/** A note as the tool writes it for `preview`, written by whoever `token` belongs to. */
function noteFor(preview: string, extraData?: string): string {
  const data = reviewOf(parsePreview(preview));
  const summary = summaryOf(data, { stack: "e2e", max_chars: 990_000 });
  return markdownOf(data, { stack: "e2e", maxChars: 990_000 }) + (extraData ?? dataComment(summary)) + "\n";
}

describe("the merge request the guard reads", () => {
  it("applies what the review token's note on the merged merge request says, by its merge commit", async () => {
    const mr = await openMergeRequest();
    expect(await review(mr.iid, REVIEWED)).toBe(0);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, REVIEWED), stderr).toBe(0);
    expect(await guard(commit, OTHER)).toBe(3);
    expect(stderr).toContain("the preview differs from the reviewed one");
  });

  it("makes three requests: the merge requests of the commit, the review token's user, the merge request's notes", async () => {
    const mr = await openMergeRequest();
    expect(await review(mr.iid, REVIEWED)).toBe(0);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    const mark = emulator.mark();
    expect(await guard(commit, REVIEWED), stderr).toBe(0);
    const requests = emulator.requestsSince(mark).map((request) => `${request.method} ${request.path.replace(/\/[0-9a-f]{40}(\/|$)/g, "/:sha$1").replace(/\/\d+(\/|$)/g, "/:n$1")}`);
    expect(requests).toEqual(["GET /api/v4/projects/:n/repository/commits/:sha/merge_requests", "GET /api/v4/user", "GET /api/v4/projects/:n/merge_requests/:n/notes"]);
  });

  it("with --post, a passing guard leaves the review's note as its reviewers read it; a stopped one says why in a note of its own", async () => {
    const mr = await openMergeRequest();
    await review(mr.iid, REVIEWED);
    const [reviewed] = await notesOf(mr.iid);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    const apply = (preview: string) =>
      main(["--preview", file(preview), "--check-reviewed", "--post", "--quiet"], ci({ CI_COMMIT_SHA: commit, CI_COMMIT_BRANCH: "main", CI_COMMIT_SHORT_SHA: "fff0000" }), () => {});
    captureStderr();
    expect(await apply(REVIEWED), stderr).toBe(0);
    expect((await notesOf(mr.iid)).map((note) => note.body)).toEqual([reviewed!.body]);
    expect(await apply(OTHER)).toBe(3);
    const [kept, stopped] = await notesOf(mr.iid);
    expect(kept!.body).toBe(reviewed!.body);
    expect(stopped!.body.startsWith(markerOf("e2e", true))).toBe(true);
    expect(stopped!.body).toContain("#### Stopped: this is not what was reviewed");
  });

  it("keeps history: each stop and each result is a note of its own, naming the commit and linking the review note; a stop says what to do next", async () => {
    const mr = await openMergeRequest();
    await review(mr.iid, REVIEWED);
    const [reviewed] = await notesOf(mr.iid);
    const { web_url } = await root.get<{ web_url: string }>(apiPath`/projects/${projectId}/merge_requests/${mr.iid}`);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    const env = ci({ CI_COMMIT_SHA: commit, CI_COMMIT_BRANCH: "main" });
    captureStderr();
    expect(await main(["--preview", file(OTHER), "--check-reviewed", "--post", "--quiet"], env, () => {})).toBe(3);
    expect(stderr).toContain("platform-review: what to do next: If the server was changed by hand since the review");
    expect(await main(["--preview", file(OTHER), "--check-reviewed", "--post", "--quiet"], env, () => {})).toBe(3);
    expect(await main(["--up", file(fixture("applied.json")), "--post", "--quiet"], env, () => {}), stderr).toBeLessThan(2);
    const [kept, firstStop, secondStop, applied, ...more] = await notesOf(mr.iid);
    expect(more).toEqual([]);
    expect(kept!.body).toBe(reviewed!.body);
    const link = `[the review note ${reviewed!.id} of !${mr.iid}](${web_url}#note_${reviewed!.id})`;
    for (const stop of [firstStop!, secondStop!]) {
      expect(stop.body).toContain(`Stopped before applying commit \`${commit}\` ([job](https://platform.example.com/acme/web/-/jobs/1)), held against ${link}.`);
      expect(stop.body).toContain("**What to do next:** If the server was changed by hand since the review, decide which is right");
    }
    expect(firstStop!.id).not.toBe(secondStop!.id);
    expect(applied!.body).toContain(`Applied commit \`${commit}\` ([job](https://platform.example.com/acme/web/-/jobs/1)), as reviewed in ${link}.`);
  });

  it("a stop for a merged merge request without a review says what can be done: a follow-up merge request, not approving it again", async () => {
    const mr = await openMergeRequest();
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, REVIEWED)).toBe(3);
    expect(stderr).toContain("has no review of this stack by alice");
    expect(stderr).toContain("what to do next: open a follow-up merge request from the default branch");
    expect(stderr).not.toMatch(/have it approved again|retry the preview and report jobs/);
  });

  it("finds a squash commit, and a fast-forward merge by the head", async () => {
    const squashed = await openMergeRequest();
    await review(squashed.iid, REVIEWED);
    const squash = newSha();
    merge(squashed.iid, { squash });
    expect(await guard(squash, REVIEWED), stderr).toBe(0);
    const forwarded = await openMergeRequest();
    await review(forwarded.iid, OTHER);
    merge(forwarded.iid, {});
    expect(await guard(forwarded.sha, OTHER), stderr).toBe(0);
    expect(await guard(forwarded.sha, REVIEWED)).toBe(3);
  });

  it("takes the merge request merged last when several merged ones hold the commit", async () => {
    const first = await openMergeRequest();
    await review(first.iid, OTHER);
    const commit = newSha();
    // Merge times after every review note, the second merge an hour after the first.
    const at = (hours: number) => new Date(Date.now() + 60_000 + hours * 3_600_000).toISOString();
    merge(first.iid, { merge: commit }, at(0));
    const second = await openMergeRequest();
    await review(second.iid, REVIEWED);
    merge(second.iid, { squash: commit }, at(1));
    expect(await guard(commit, REVIEWED), stderr).toBe(0);
    expect(await guard(commit, OTHER)).toBe(3);
  });

  it("ignores an earlier note a Developer forged with the marker and another plan's data", async () => {
    const mr = await openMergeRequest();
    // Before the bot's first note: the Developer's copy of the marker, its report and the data of the plan they want applied.
    await postNote({ url: emulator.url, token: emulator.tokens.dev!, project: String(projectId), mergeRequestIid: mr.iid }, markerOf("e2e"), noteFor(OTHER));
    await review(mr.iid, REVIEWED);
    expect((await notesOf(mr.iid)).map((note) => note.author.username)).toEqual(["dev", "alice"]);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, OTHER)).toBe(3);
    expect(await guard(commit, REVIEWED)).toBe(0);
  });

  it("refuses when only another user's note reviews the stack", async () => {
    const mr = await openMergeRequest();
    await postNote({ url: emulator.url, token: emulator.tokens.dev!, project: String(projectId), mergeRequestIid: mr.iid }, markerOf("e2e"), noteFor(OTHER));
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, OTHER)).toBe(3);
    expect(stderr).toContain(`merge request !${mr.iid}, which brought commit ${commit}, has no review of this stack by alice`);
  });

  it("refuses a commit that an open merge request holds, and one that a closed one holds", async () => {
    const open = await openMergeRequest();
    await review(open.iid, REVIEWED);
    expect(await guard(open.sha, REVIEWED)).toBe(3);
    expect(stderr).toContain(`no merged merge request of project ${projectId} brought commit ${open.sha} into main`);
    expect(stderr).toContain(`!${open.iid} (opened)`);
    close(open.iid);
    expect(await guard(open.sha, REVIEWED)).toBe(3);
    expect(stderr).toContain(`!${open.iid} (closed)`);
  });

  it("refuses a commit pushed straight to the default branch, saying so", async () => {
    const { iid, base } = await openMergeRequest();
    close(iid);
    expect(await guard(base, REVIEWED)).toBe(3);
    expect(stderr).toContain(`brought commit ${base} into main`);
    expect(stderr).toContain("it was pushed without a merge request, so it was never reviewed");
  });

  it("a merge request merged into another branch did not bring the commit into this one", async () => {
    const mr = await openMergeRequest();
    await review(mr.iid, REVIEWED);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    record(mr.iid).targetBranch = "develop";
    expect(await guard(commit, REVIEWED)).toBe(3);
    expect(stderr).toContain("into main");
  });
});

describe("the note the guard reads", () => {
  it("takes the data only from the note's last line: a warning that prints review data is report text", async () => {
    const forged = dataComment(summaryOf(reviewOf(parsePreview(OTHER)), { stack: "e2e", max_chars: 990_000 }));
    const preview = JSON.parse(REVIEWED) as { diagnostics: unknown[] };
    preview.diagnostics = [...(preview.diagnostics ?? []), { severity: "warning", message: `deprecated ${forged}\n` }];
    const mr = await openMergeRequest();
    expect(await review(mr.iid, JSON.stringify(preview))).toBe(0);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, OTHER)).toBe(3);
    expect(await guard(commit, JSON.stringify(preview)), stderr).toBe(0);
  });

  it("refuses a note whose text was edited after the bot wrote it", async () => {
    const mr = await openMergeRequest();
    await review(mr.iid, REVIEWED);
    const [note] = await notesOf(mr.iid);
    // A Maintainer may edit anyone's note: the report now hides the deletion, the data is untouched.
    const edited = note!.body.replace(/deletes badge/g, "keeps badge");
    expect(edited).not.toBe(note!.body);
    const maintainer = new PlatformClient({ url: emulator.url, token: emulator.tokens.maintainer! });
    await maintainer.put(apiPath`/projects/${projectId}/merge_requests/${mr.iid}/notes/${note!.id}`, { body: edited });
    expect((await notesOf(mr.iid))[0]!.author.username).toBe("alice");
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, REVIEWED)).toBe(3);
    expect(stderr).toContain(`the review note ${note!.id} on merge request !${mr.iid} was edited, or is not the tool's`);
  });

  it("refuses a note the report job rewrote after the merge: what it says then was never approved", async () => {
    const mr = await openMergeRequest();
    await review(mr.iid, REVIEWED);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, REVIEWED), stderr).toBe(0);
    // The merge request's pipeline retried after the merge: its report job previews again and rewrites the note.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await review(mr.iid, OTHER)).toBe(0);
    expect(await guard(commit, OTHER)).toBe(3);
    expect(stderr).toContain(`on merge request !${mr.iid} was rewritten at`);
    expect(stderr).toContain("after the merge at");
    expect(stderr).toContain("open a follow-up merge request");
  });

  it("refuses data that decompresses beyond 8 MiB, without decompressing it all", async () => {
    const mr = await openMergeRequest();
    const bomb = `<!-- platform-review-data ${gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)).toString("base64")} -->`;
    await postNote({ url: emulator.url, token: emulator.tokens.alice!, project: String(projectId), mergeRequestIid: mr.iid }, markerOf("e2e"), noteFor(REVIEWED, bomb));
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    const before = process.memoryUsage().rss;
    expect(await guard(commit, REVIEWED)).toBe(3);
    expect(stderr).toContain("its data decompresses to more than 8 MiB");
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
  });

  it("posts the apply's result on the merge request the commit came from, found the same way", async () => {
    const mr = await openMergeRequest();
    await review(mr.iid, REVIEWED);
    const other = await (async () => {
      close(mr.iid);
      const next = await openMergeRequest();
      return next;
    })();
    const commit = newSha();
    merge(mr.iid, { merge: commit }, "2026-02-01T10:00:00.000Z");
    // A later open merge request that holds the same commit gets nothing.
    record(other.iid).sha = commit;
    captureStderr();
    const code = await main(["--up", file(fixture("applied.json")), "--post", "--quiet"], ci({ CI_COMMIT_SHA: commit, CI_COMMIT_BRANCH: "main" }), () => {});
    expect(code, stderr).toBeLessThan(2);
    expect((await notesOf(mr.iid)).some((note) => note.body.startsWith(markerOf("e2e", true)))).toBe(true);
    expect((await notesOf(other.iid)).some((note) => note.body.includes("platform-review"))).toBe(false);
    close(other.iid);
  });
});

describe("what the command reads and prints", () => {
  it("names the stack from the stack's own resource, not from a config value that looks like a URN", async () => {
    const preview = JSON.parse(REVIEWED) as { config: Record<string, string> };
    preview.config = { "review-e2e:note": "urn:pulumi:evil::x::pulumi:pulumi:Stack::x", ...preview.config };
    let report = "";
    expect(await main(["--preview", file(JSON.stringify(preview))], {}, (text) => (report += text))).toBe(0);
    expect(report).toContain("### Pulumi preview of stack <code>e2e</code>");
    expect(report).toContain(markerOf("e2e"));
  });

  it("never prints the review token, even when the server repeats it in an error", async () => {
    const mr = await openMergeRequest();
    const token = emulator.tokens.alice!;
    emulator.inject({ method: "POST", path: /\/notes$/, status: 400, body: { message: { note: [`token ${token} may not comment here`] } }, times: 1 });
    captureStderr();
    const error = (await review(mr.iid, REVIEWED).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain("[secret] may not comment here");
    expect(error.message).not.toContain(token);
    expect(stderr).not.toContain(token);
    close(mr.iid);
  });

  it("--scrubbed keeps up --json's events without the SDK's debug events, which print secrets", async () => {
    const secret = "s3cr3t-planted-value";
    const events = [
      { sequence: 1, timestamp: 1, diagnosticEvent: { severity: "debug", message: `RegisterResource RPC finished: resp: {"password":"${secret}"}` } },
      { sequence: 2, timestamp: 2, resOutputsEvent: { metadata: { op: "same", urn: "urn:pulumi:e2e::p::pulumi:pulumi:Stack::p-e2e", type: "pulumi:pulumi:Stack", new: { type: "pulumi:pulumi:Stack", inputs: {}, outputs: {} } } } },
      { sequence: 3, timestamp: 3, diagnosticEvent: { severity: "warning", message: "a warning stays" } },
      { sequence: 4, timestamp: 4, summaryEvent: { result: "succeeded" } },
    ];
    const up = file(events.map((event) => JSON.stringify(event)).join("\n") + "\n");
    const kept = path.join(work, "up-events.json");
    let report = "";
    expect(await main(["--up", up, "--scrubbed", kept], {}, (text) => (report += text))).toBe(0);
    const text = readFileSync(kept, "utf8");
    expect(text).not.toContain(secret);
    expect(text.trim().split("\n").map((line) => (JSON.parse(line) as { sequence: number }).sequence)).toEqual([2, 3, 4]);
    expect(report).toContain("### Pulumi up of stack <code>e2e</code>");
  });
});

/** Badge steps of stack `e2e`, as `pulumi preview --json` writes them. */
const BADGE = "pulumi-nodejs:dynamic/platform:Badge";
const badgeUrn = (name: string) => `urn:pulumi:e2e::review-e2e::${BADGE}::${name}`;
const badgeInputs = (name: string, linkUrl: string) => ({ group: "acme", name, linkUrl, imageUrl: "https://ci.example.com/b.svg" });
const badgeState = (id: number, name: string, linkUrl: string) => ({ type: BADGE, urn: badgeUrn(name), id: `groups/acme/badges/${id}`, inputs: badgeInputs(name, linkUrl), outputs: { ...badgeInputs(name, linkUrl), badgeId: id } });

describe("a preview job that wrote no preview", () => {
  it("gets the stack's note saying its preview failed, in place of the last push's review, and the guard refuses it", async () => {
    const mr = await openMergeRequest();
    await review(mr.iid, REVIEWED);
    captureStderr();
    const missing = path.join(work, "preview-dev.json");
    const status = await main(["--preview", missing, "--stack", "e2e", "--post", "--quiet"], ci({ CI_MERGE_REQUEST_IID: String(mr.iid) }), () => {});
    expect(status).not.toBe(0);
    const notes = await notesOf(mr.iid);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body.startsWith(markerOf("e2e"))).toBe(true);
    expect(notes[0]!.body).toContain("The preview failed:");
    expect(notes[0]!.body).toContain("its job failed before the preview ran");
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, REVIEWED)).toBe(3);
  });
});

describe("the bot cannot be made to vouch for an apply that never happened", () => {
  const SCAN = badgeUrn("security-scan");
  const REVIEWED_CREATE = JSON.stringify({ steps: [{ op: "create", urn: SCAN, newState: { type: BADGE, urn: SCAN, inputs: badgeInputs("security-scan", "https://scan.example.com") } }] });
  /** `pulumi up --json` of an apply whose create of the badge failed after making badge 1: what the branch's preview job wrote as its "preview". */
  const FAILED_UP = [
    { sequence: 1, timestamp: 1, resOpFailedEvent: { metadata: { op: "create", urn: SCAN, type: BADGE, new: badgeState(1, "security-scan", "https://scan.example.com") }, status: 1, steps: 1 } },
    { sequence: 2, timestamp: 1, diagnosticEvent: { urn: SCAN, prefix: "error: ", message: "Badge: the create failed after the badge was made\n", color: "never", severity: "error" } },
    { sequence: 3, timestamp: 1, summaryEvent: { result: "failed" } },
  ]
    .map((event) => JSON.stringify(event))
    .join("\n");
  /** The apply's preview after the merge: badge 1 (another team's) in the state under the reviewed resource, updated to the reviewed values. */
  const TAKEOVER = JSON.stringify({
    steps: [
      { op: "refresh", urn: SCAN, oldState: badgeState(1, "security-scan", "https://theirs.example.com"), newState: badgeState(1, "security-scan", "https://theirs.example.com") },
      { op: "update", urn: SCAN, oldState: badgeState(1, "security-scan", "https://theirs.example.com"), newState: badgeState(1, "security-scan", "https://scan.example.com") },
    ],
  });
  /** A result note's data as the apply wrote it before: the commit, and a create that failed after making badge 1. */
  const resultData = (commit: string) =>
    `<!-- platform-review-applied-data ${gzipSync(JSON.stringify({ version: 1, commit, applied: [], made: [{ urn: SCAN, id: "groups/acme/badges/1" }] })).toString("base64")} -->`;

  it("the report job posts no result for an `up` output given as the preview", async () => {
    const mr = await openMergeRequest();
    expect(await review(mr.iid, REVIEWED_CREATE)).toBe(0);
    // The report job, given the branch's file: an `up` output named as the preview.
    captureStderr();
    await expect(main(["--preview", file(FAILED_UP), "--post", "--quiet"], ci({ CI_MERGE_REQUEST_IID: String(mr.iid), CI_COMMIT_SHA: mr.sha }), () => {})).rejects.toThrow(
      /--preview: the file holds engine events/,
    );
    expect((await notesOf(mr.iid)).some((note) => note.body.startsWith(markerOf("e2e", true)))).toBe(false);
    merge(mr.iid, {});
    expect(await guard(mr.sha, TAKEOVER)).toBe(3);
  });

  it("a result note the review token's user wrote, saying the reviewed create failed after making another team's badge, lets nothing through", async () => {
    const mr = await openMergeRequest();
    expect(await review(mr.iid, REVIEWED_CREATE)).toBe(0);
    // The review token itself writing such a result note (a branch's pipeline that reads the token can): nothing to the guard.
    await postNote({ url: emulator.url, token: emulator.tokens.alice!, project: String(projectId), mergeRequestIid: mr.iid }, markerOf("e2e", true), `${markerOf("e2e", true)}\nresult\n${resultData(mr.sha)}\n`);
    // A fast-forward merge: the head is the commit applied.
    merge(mr.iid, {});
    expect(await guard(mr.sha, TAKEOVER)).toBe(3);
    expect(stderr).toContain("not reviewed: updates badge 1 `security-scan` of group acme");
    expect(stderr).toContain("the stack's state does not record a create of it that failed after making its object");
  });
});

describe("a review counts only for what its reviewers were shown", () => {
  /** Text that stays markup in every escaping: each character is written as a reference. */
  const punctuation = "[]|$<`".repeat(45);
  const creates = Array.from({ length: 350 }, (_, index) => {
    const name = `scan-${index}-${"[]|".repeat(20)}`;
    const urn = badgeUrn(`scan${index}`);
    return { op: "create", urn, newState: { type: BADGE, urn, inputs: { ...badgeInputs(name, `https://ci.example.com/${index}/${punctuation}`), imageUrl: `https://ci.example.com/${index}.svg?${punctuation}` } } };
  });
  const ATTACKER = "https://attacker.example.com/collect";
  const update = { op: "update", urn: badgeUrn("team"), oldState: badgeState(1, "team", "https://team.example.com"), newState: badgeState(1, "team", ATTACKER) };
  const PLAN = JSON.stringify({ steps: [...creates, update] });

  it("a report too large for its note shows the update's values, and the apply stops, naming what the note did not show", async () => {
    const mr = await openMergeRequest();
    expect(await review(mr.iid, PLAN)).toBe(0);
    const [note] = await notesOf(mr.iid);
    expect(note!.body.length).toBeLessThanOrEqual(1_000_000);
    // The update of an existing badge keeps its values, before and after, whatever the creates take.
    expect(note!.body).toContain(`| ${code("linkUrl", 200)} | ${code("https://team.example.com", 300)} | ${code(ATTACKER, 300)} |`);
    expect(note!.body).toMatch(/\*\*Not shown\*\* \(the note's size limit\): the fields of \d+ changes/);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, PLAN)).toBe(3);
    expect(stderr).toContain("the review did not show all that the apply would do");
    expect(stderr).toMatch(/not shown in the review: the values of creates badge `scan-\d+-/);
    expect(stderr).not.toMatch(/not shown in the review: .*updates badge 1/);
  });
});

describe("the report says what code the merge request changes", () => {
  /** A repository with a program, its lockfile and its pipeline, and a branch that changes each: the report job's checkout, and its two commits. */
  function branchChangingCode(): { checkout: string; range: string } {
    const checkout = mkdtempSync(path.join(work, "repository-"));
    const git = (...args: string[]) => {
      const ran = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@localhost", ...args], { cwd: checkout, encoding: "utf8" });
      if (ran.status !== 0) throw new Error(ran.stderr);
      return ran.stdout.trim();
    };
    git("init", "--quiet", "--initial-branch=main");
    const write = (name: string, text: string) => {
      mkdirSync(path.dirname(path.join(checkout, name)), { recursive: true });
      writeFileSync(path.join(checkout, name), text);
    };
    for (const name of ["index.ts", "package-lock.json", ".gitlab-ci.yml", "Pulumi.dev.yaml", "README.md"]) write(name, "before\n");
    // A branch's attributes that would run a program for a diff: names only are read, so none runs.
    write(".gitattributes", "* diff=evil\n");
    git("add", "-A");
    git("commit", "--quiet", "-m", "base");
    const base = git("rev-parse", "HEAD");
    for (const name of ["index.ts", "package-lock.json", ".gitlab-ci.yml", "Pulumi.dev.yaml", "vendor/pkg/index.js", "[x](https:__evil.example.com) @all.ts"]) write(name, "after\n");
    git("add", "-A");
    git("commit", "--quiet", "-m", "change");
    git("config", "diff.evil.textconv", `touch ${path.join(checkout, "textconv-ran")} && cat`);
    return { checkout, range: `${base}..${git("rev-parse", "HEAD")}` };
  }

  it("names the program's code, its dependencies and the pipeline the branch changes, inert, and the guard renders the note again the same", async () => {
    const { checkout, range } = branchChangingCode();
    const mr = await openMergeRequest();
    captureStderr();
    const env = ci({ CI_MERGE_REQUEST_IID: String(mr.iid), PATH: process.env.PATH ?? "" });
    expect(await main(["--preview", file(REVIEWED), "--code-changes", range, "--post", "--quiet"], env, () => {}, checkout)).toBe(0);
    const [note] = await notesOf(mr.iid);
    expect(note!.body).toContain(
      "**Code:** this merge request changes the program's code (2 files), its dependencies (2 files), the pipeline (1 file). Merged, it runs with the platform's write token at the apply",
    );
    for (const name of ["package-lock.json", "vendor/pkg/index.js", ".gitlab-ci.yml", "index.ts", "Pulumi.dev.yaml"]) expect(note!.body).toContain(`- ${code(name, 200)}\n`);
    expect(note!.body).toContain(`- ${code("[x](https:__evil.example.com) @all.ts", 200)}\n`);
    expect(note!.body).not.toContain("[x](https");
    expect(existsSync(path.join(checkout, "textconv-ran"))).toBe(false);
    const commit = newSha();
    merge(mr.iid, { merge: commit });
    expect(await guard(commit, REVIEWED), stderr).toBe(0);
  });

  it("says when it cannot tell which files changed, and says nothing of code where no file changed", async () => {
    const { checkout, range } = branchChangingCode();
    let report = "";
    const env = { PATH: process.env.PATH ?? "" };
    expect(await main(["--preview", file(REVIEWED), "--code-changes", `..${range.split("..")[1]}`], env, (text) => (report += text), checkout)).toBe(0);
    expect(report).toContain(`**Code:** which files this merge request changes could not be read (${code("the merge request's commits are not known (CI_MERGE_REQUEST_DIFF_BASE_SHA and its head)", 2000)})`);
    // Outside a repository, files named as the commits are not compared instead.
    const elsewhere = mkdtempSync(path.join(work, "not-a-repository-"));
    const [base, head] = range.split("..") as [string, string];
    writeFileSync(path.join(elsewhere, base), "a\n");
    writeFileSync(path.join(elsewhere, head), "b\n");
    report = "";
    expect(await main(["--preview", file(REVIEWED), "--code-changes", range], env, (text) => (report += text), elsewhere)).toBe(0);
    expect(report).toContain("**Code:** which files this merge request changes could not be read");
    expect(report).toContain("not a git repository");
    report = "";
    const settingsOnly = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "--quiet", "--allow-empty", "-m", "empty"], { cwd: checkout });
    expect(settingsOnly.status).toBe(0);
    expect(await main(["--preview", file(REVIEWED), "--code-changes", `${range.split("..")[1]}..${spawnSync("git", ["rev-parse", "HEAD"], { cwd: checkout, encoding: "utf8" }).stdout.trim()}`], env, (text) => (report += text), checkout)).toBe(0);
    expect(report).not.toContain("**Code:**");
  });
});
