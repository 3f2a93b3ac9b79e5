/**
 * The scheduled drift check (`platform-review --drift-issue`) against the
 * emulator over real HTTP: one issue per stack, found again by its marker
 * and its author (the review token's user), opened, rewritten in place,
 * reopened and closed; a change outside the program fails the check, a
 * change merged but not yet applied is reported and does not.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src";
import { startEmulator, type Emulator } from "../../src/emulator";
import { reviewOf } from "../../src/review/changes";
import { main } from "../../src/review/cli";
import { driftFound, driftMarkerOf } from "../../src/review/drift";
import { parsePreview } from "../../src/review/preview";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");
/** A refresh that found a badge changed by hand and a badge an only-these set does not keep. */
const DRIFTED = fixture("drift.json");
/** Changes of the program to objects nobody touched: merged, not yet applied. */
const PENDING = fixture("change.json");
/** What a clean preview writes: no step. */
const CLEAN = JSON.stringify({ steps: [], diagnostics: [], changeSummary: { same: 3 } });

interface IssueSeen {
  iid: number;
  title: string;
  description: string;
  state: string;
  author: { username: string };
}

let emulator: Emulator;
let root: PlatformClient;
let work: string;
let stderr = "";

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  root = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
  work = mkdtempSync(path.join(tmpdir(), "review-drift-"));
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await closeAllPools();
  await emulator.stop();
});

async function check(preview: string, stack = "e2e"): Promise<number> {
  const file = path.join(work, "drift.json");
  writeFileSync(file, preview);
  stderr = "";
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const env = { CI_API_V4_URL: `${emulator.url}/api/v4`, CI_PROJECT_ID: "acme/web", PLATFORM_REVIEW_TOKEN: emulator.tokens.alice! };
    return await main(["--preview", file, "--drift-issue", "--stack", stack, "--quiet"], env, () => {});
  } finally {
    spy.mockRestore();
  }
}

const issues = async () =>
  (await root.list<IssueSeen>(apiPath`/projects/${"acme/web"}/issues`, { state: "all", sort: "asc" })).filter((issue) => issue.description?.includes("platform-review-drift"));

describe("the drift check's issue", () => {
  it("tells a change outside the program from one merged but not yet applied", () => {
    const drifted = driftFound(reviewOf(parsePreview(DRIFTED)));
    expect(drifted.outside.map((change) => change.kind).sort()).toEqual(["drift", "removal", "removal"]);
    expect(drifted.reversals.map((change) => change.name)).toEqual(["docs"]);
    expect(drifted.pending).toEqual([]);
    const pending = driftFound(reviewOf(parsePreview(PENDING)));
    expect(pending.outside).toEqual([]);
    expect(pending.pending.length).toBe(7);
  });

  it("tells the fields of one update apart: those that drifted are put back, the others were merged and not applied", () => {
    const urn = "urn:pulumi:e2e::p::pulumi-nodejs:dynamic/platform:PipelineSchedule::nightly";
    const base = { type: "PipelineSchedule", name: "nightly", urn, owner: "project acme/web", object: "pipeline schedule 1" };
    const field = (path: string) => ({ path, before: { secret: true as const }, after: { secret: true as const } });
    const review = reviewOf(parsePreview(CLEAN));
    review.changes = [
      { ...base, kind: "drift", fields: [field("variables.DEPLOY_TOKEN.value")] },
      { ...base, kind: "update", fields: [field("variables.DEPLOY_TOKEN.value"), { path: "cron", before: { value: "0 2 * * *" }, after: { value: "0 3 * * *" } }] },
    ];
    const found = driftFound(review);
    expect(found.outside.map((change) => change.kind)).toEqual(["drift"]);
    expect(found.reversals.map((change) => change.fields.map((f) => f.path))).toEqual([["variables.DEPLOY_TOKEN.value"]]);
    expect(found.pending.map((change) => change.fields.map((f) => f.path))).toEqual([["cron"]]);
  });

  it("opens one issue per stack, rewrites it in place, closes it when the platform matches, reopens it", async () => {
    expect(await check(DRIFTED)).toBe(1);
    expect(stderr).toContain("changed outside the program");
    let [issue, ...others] = await issues();
    expect(others).toEqual([]);
    expect(issue!.author.username).toBe("alice");
    expect(issue!.title).toBe("Drift on stack e2e: 3 objects changed outside the program");
    expect(issue!.description.startsWith(driftMarkerOf("e2e"))).toBe(true);
    expect(issue!.description).toContain("**Changed outside the program: 3 objects**");

    // Only merged changes left: reported in the same issue, and the check passes.
    expect(await check(PENDING)).toBe(0);
    [issue, ...others] = await issues();
    expect(others).toEqual([]);
    expect(issue!.state).toBe("opened");
    expect(issue!.title).toBe("Drift on stack e2e: 7 changes merged but not yet applied");
    expect(issue!.description).toContain("**Merged but not yet applied: 7 changes**");
    expect(issue!.description).not.toContain("Changed outside the program");

    // Another stack has an issue of its own.
    expect(await check(DRIFTED, "prod")).toBe(1);
    expect((await issues()).map((seen) => seen.title)).toEqual([issue!.title, "Drift on stack prod: 3 objects changed outside the program"]);

    expect(await check(CLEAN)).toBe(0);
    [issue] = await issues();
    expect(issue!.state).toBe("closed");
    expect(issue!.title).toBe("No drift on stack e2e: the platform matches the program");
    expect(issue!.description).toContain("The platform matches the program again");
    expect(await check(CLEAN)).toBe(0);
    expect(stderr).toContain("no drift, no issue open");

    expect(await check(DRIFTED)).toBe(1);
    const reopened = (await issues())[0]!;
    expect([reopened.iid, reopened.state]).toEqual([issue!.iid, "opened"]);
  });

  it("ignores an issue with the marker that someone else wrote", async () => {
    await root.post(apiPath`/projects/${"acme/web"}/issues`, { title: "forged", description: `${driftMarkerOf("forged")}\nnothing to see` });
    expect(await check(PENDING, "forged")).toBe(0);
    const forged = (await issues()).filter((seen) => seen.description.startsWith(driftMarkerOf("forged")));
    expect(forged.map((seen) => seen.author.username)).toEqual(["root", "alice"]);
  });

  it("a failed preview fails the check and says so in the issue", async () => {
    expect(await check(fixture("refused.json"), "refused")).toBe(1);
    const issue = (await issues()).find((seen) => seen.description.startsWith(driftMarkerOf("refused")))!;
    expect(issue.title).toBe("Drift check of stack refused failed");
  });
  it("a secret value the server never shows is said as not compared, never as matching", async () => {
    const type = "pulumi-nodejs:dynamic/platform:ProjectVariable";
    const urn = `urn:pulumi:hidden::platform::${type}::deploy-token`;
    const recorded = { urn, custom: true, type, id: "projects/acme%2Fweb/variables/DEPLOY_TOKEN/*", inputs: { project: "acme/web", key: "DEPLOY_TOKEN", value: "[secret]" }, outputs: { project: "acme/web", key: "DEPLOY_TOKEN", value: "[secret]", hidden: true } };
    const refreshed = { ...recorded, outputs: { ...recorded.outputs, __secretsUnread: ["value"] } };
    const hiddenOnly = JSON.stringify({ steps: [{ op: "refresh", urn, oldState: recorded, newState: recorded }, { op: "same", urn, oldState: refreshed, newState: recorded }], diagnostics: [] });
    expect(await check(DRIFTED, "hidden")).toBe(1);
    expect(await check(hiddenOnly, "hidden")).toBe(0);
    const issue = (await issues()).find((seen) => seen.description.startsWith(driftMarkerOf("hidden")))!;
    expect(issue.state).toBe("closed");
    expect(issue.title).toBe("No drift on stack hidden: the platform matches the program, but for 1 secret value the server never shows (not compared)");
    expect(issue.description).toContain("#### Not compared (1)");
  });
});
