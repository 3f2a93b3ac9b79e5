/**
 * The deletes of a preview verified by the review (`platform-review
 * --verify-deletes`), against the emulator over real HTTP: the engine calls no
 * provider at preview for a resource removed from the program, so these are
 * verified from the preview's data, with the declarations' needs for a delete
 * and the engine's checks: refused where the server would refuse (shown on the
 * resource, naming the object, its owner and what it needs, and written into
 * the preview file for the report made from it), never on an unknown fact,
 * reading each owner once. The apply's guard refuses likewise, before `up`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src";
import { mergeRequestStore, startEmulator, type Emulator } from "../../src/emulator";
import { main } from "../../src/review/cli";
import { runCli } from "./run-cli";

/** The reviewed preview: it deletes the group badge `legacy` of acme (groups/acme/badges/1). */
const CHANGE = readFileSync(path.join(__dirname, "fixtures", "change.json"), "utf8");
const LEGACY = "urn:pulumi:e2e::review-e2e::pulumi-nodejs:dynamic/platform:Badge::legacy";
const SCHEDULE_TYPE = "pulumi-nodejs:dynamic/platform:PipelineSchedule";

let emulator: Emulator;
let projectId: number;
let work: string;
let output = "";
let stderr = "";

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, backgroundWork: "manual" });
  projectId = (await as("root").get<{ id: number }>(apiPath`/projects/${"acme/web"}`)).id;
  work = mkdtempSync(path.join(tmpdir(), "review-verify-deletes-"));
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await closeAllPools();
  await emulator.stop();
});

const as = (user: string) => new PlatformClient({ url: emulator.url, token: emulator.tokens[user]!, retryBaseDelayMs: 10 });

/**
 * The preview as the CLI wrote it for this server, with `extra` delete steps;
 * the stack's `platform:token` empty, as the template's jobs set it (the token
 * is the environment's), unless `config` says otherwise.
 */
function previewFile(extra: unknown[] = [], config: Record<string, string> = {}): string {
  const preview = JSON.parse(CHANGE) as { config: Record<string, string>; steps: unknown[] };
  preview.config = { ...preview.config, "platform:url": emulator.url, "platform:token": "", ...config };
  preview.steps.push(...extra);
  const name = path.join(work, `preview-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(name, JSON.stringify(preview, null, 4));
  return name;
}

/** A delete step of the schedule `id` of acme/web, as the CLI writes one: the object's recorded inputs. */
const scheduleDelete = (name: string, id: number) => ({
  op: "delete",
  urn: `urn:pulumi:e2e::review-e2e::${SCHEDULE_TYPE}::${name}`,
  oldState: { type: SCHEDULE_TYPE, id: `projects/acme%2Fweb/pipeline_schedules/${id}`, inputs: { __provider: "exports.handler=…", project: "acme/web", description: name, ref: "main", cron: "0 2 * * *" } },
});

async function alicesSchedule(): Promise<number> {
  return (await as("alice").post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: "alice's", ref: "main", cron: "0 2 * * *" })).id;
}

async function review(file: string, user: string | undefined, args: string[] = [], env: Record<string, string> = {}): Promise<number> {
  const ran = await runCli(["--preview", file, "--verify-deletes", ...args], { ...(user ? { PLATFORM_TOKEN: emulator.tokens[user]! } : {}), ...env });
  ({ output, stderr } = ran);
  return ran.code;
}

const errorsIn = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { diagnostics: { urn?: string; message: string; severity: string }[] }).diagnostics.filter((d) => d.severity === "error");

describe("a delete verified by the review", () => {
  it("dev's token (Developer of acme) deleting a group badge: refused on the resource, naming the object, its owner and the role; written into the preview", async () => {
    const file = previewFile();
    expect(await review(file, "dev")).toBe(1);
    const refusal =
      "Badge: could not delete groups/acme/badges/1: group: the token's user (dev) needs the Owner role on group acme for Badge, and is Developer there";
    expect(errorsIn(file)).toEqual([{ urn: LEGACY, severity: "error", message: refusal }]);
    expect(output).toContain("**The preview failed:** 1 problem");
    expect(output).toContain("<code>legacy (Badge)</code>: <code>Badge: could not delete groups/acme/badges/1: group: the token's user (dev) needs the Owner role on group acme");
    // The report job's run, without a token, reads the refusal from the file.
    expect(await main(["--preview", file], {}, () => {})).toBe(1);
  });

  it("the old object a cut replacement left, which the preview has no step for but `up` deletes: verified as a delete", async () => {
    const badge = "urn:pulumi:e2e::review-e2e::pulumi-nodejs:dynamic/platform:Badge::moved";
    const oldState = { type: "pulumi-nodejs:dynamic/platform:Badge", id: "groups/acme/badges/2", delete: true, inputs: { __provider: "exports.handler=…", group: "acme", name: "moved" } };
    const file = previewFile([{ op: "refresh", urn: badge, oldState, newState: oldState }]);
    expect(await review(file, "dev")).toBe(1);
    expect(errorsIn(file).map((d) => d.urn)).toEqual([LEGACY, badge]);
    expect(errorsIn(file)[1]!.message).toContain("Badge: could not delete groups/acme/badges/2: group: the token's user (dev) needs the Owner role on group acme");
  });

  it("a group: maintainer's token (Maintainer of acme) may not delete a subgroup it does not own; alice's may", async () => {
    const acme = await as("root").get<{ id: number }>(apiPath`/groups/${"acme"}`);
    const made = await as("alice").post<{ id: number }>("/groups", { name: "Doomed", path: "doomed-review", parent_id: acme.id });
    const type = "pulumi-nodejs:dynamic/platform:Group";
    const urn = `urn:pulumi:e2e::review-e2e::${type}::doomed`;
    const step = { op: "delete", urn, oldState: { type, id: `groups/${made.id}`, inputs: { __provider: "exports.handler=…", parent: "acme", path: "doomed-review", name: "Doomed" } } };
    const maintainer = previewFile([step]);
    expect(await review(maintainer, "maintainer")).toBe(1);
    expect(errorsIn(maintainer).find((d) => d.urn === urn)?.message).toBe(
      `Group: could not delete groups/${made.id}: the token's user (maintainer) needs the Owner role on group acme/doomed-review for Group, and is Maintainer there`,
    );
    const owner = previewFile([step]);
    await review(owner, "alice");
    expect(errorsIn(owner).filter((d) => d.urn === urn)).toEqual([]);
  });

  it("alice's token (Owner of acme): passes, and the preview file is left as it was", async () => {
    const file = previewFile();
    const before = readFileSync(file, "utf8");
    expect(await review(file, "alice"), output).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("a schedule: guest's token lacks the role, dev's is not its owner (read per object), maintainer's may; the server agrees", async () => {
    const [first, second] = [await alicesSchedule(), await alicesSchedule()];
    const file = () => previewFile([scheduleDelete("first", first), scheduleDelete("second", second)]);
    const guest = file();
    expect(await review(guest, "guest")).toBe(1);
    expect(errorsIn(guest).map((d) => d.message)).toContain(
      `PipelineSchedule: could not delete projects/acme%2Fweb/pipeline_schedules/${first}: project: the token's user (guest) needs at least the Developer role on project acme/web for PipelineSchedule, and is Guest there`,
    );
    const dev = file();
    expect(await review(dev, "dev")).toBe(1);
    expect(errorsIn(dev).map((d) => d.message)).toContain(
      `PipelineSchedule: could not delete projects/acme%2Fweb/pipeline_schedules/${second}: the schedule is not the token's user's (dev): it belongs to alice, ` +
        "and the change needs ownership of the schedule or the Maintainer role",
    );
    const maintainer = file();
    expect(await review(maintainer, "maintainer"), output).toBe(1); // the group badge still needs an Owner
    expect(errorsIn(maintainer).map((d) => d.urn)).toEqual([LEGACY]);
    // The server: dev's delete is refused, maintainer's goes through.
    await expect(as("dev").delete(apiPath`/projects/${"acme/web"}/pipeline_schedules/${second}`)).rejects.toMatchObject({ status: 403 });
    await expect(as("guest").delete(apiPath`/projects/${"acme/web"}/pipeline_schedules/${second}`)).rejects.toThrow();
    await as("maintainer").delete(apiPath`/projects/${"acme/web"}/pipeline_schedules/${second}`);
  });

  it("reads each owner once, however many deletes it has; the schedules' owners once per object", async () => {
    const ids = [await alicesSchedule(), await alicesSchedule(), await alicesSchedule()];
    const file = previewFile(ids.map((id, index) => scheduleDelete(`s${index}`, id)));
    const start = emulator.requestLog.length;
    await review(file, "dev");
    const reads = emulator.requestLog.slice(start).map(({ method, path }) => `${method} ${path.replace(/\?.*$/, "")}`);
    const count = (pattern: RegExp) => reads.filter((read) => pattern.test(read)).length;
    expect(count(/^GET \/api\/v4\/user$/)).toBe(1);
    expect(count(/^GET \/api\/v4\/groups\/acme$/)).toBe(1);
    expect(count(/^GET \/api\/v4\/projects\/acme%2Fweb$/)).toBe(1);
    expect(count(/pipeline_schedules\/\d+$/)).toBe(3);
    expect(reads.every((read) => read.startsWith("GET "))).toBe(true);
  });

  it("an unknown fact is no refusal: without a token nothing is verified, and it says so", async () => {
    const file = previewFile();
    expect(await review(file, undefined, [], { PLATFORM_VERIFY_AT_PREVIEW: "true" })).toBe(0);
    const warnings = (JSON.parse(readFileSync(file, "utf8")) as { diagnostics: { message: string; severity: string }[] }).diagnostics.filter((d) => d.severity === "warning");
    expect(warnings.at(-1)!.message).toContain("The deletes of this preview were not verified against the server (The platform provider is not configured");
    expect(errorsIn(file)).toEqual([]);
    // A token the server refuses: nothing verified, and said so.
    const refusedToken = previewFile();
    expect(await review(refusedToken, undefined, [], { PLATFORM_TOKEN: "glpat-not-a-token" })).toBe(0);
    expect(readFileSync(refusedToken, "utf8")).toMatch(/The deletes of this preview were not verified against the server \([^)]*401/);
    expect(readFileSync(refusedToken, "utf8")).not.toContain("glpat-not-a-token");
    // Verification turned off for the stack: nothing read, nothing refused.
    const off = previewFile([], { "platform:verifyAtPreview": "false" });
    const start = emulator.requestLog.length;
    expect(await review(off, "dev")).toBe(0);
    expect(emulator.requestLog.length).toBe(start);
  });
});

describe("a token kept as a secret in the stack's config", () => {
  // With the real Pulumi CLI: test/e2e/review-config-token.e2e.test.ts.
  it("is the stack's token, before PLATFORM_TOKEN, as the provider takes it: unread without the CLI, the deletes are not verified, and the key is named", async () => {
    const file = previewFile([], { "platform:token": "[secret]" });
    const noCli = mkdtempSync(path.join(work, "no-cli-"));
    // alice's token in the environment would pass; it is not the token the stack's provider uses.
    expect(await review(file, "alice", [], { PATH: noCli })).toBe(0);
    const warnings = (JSON.parse(readFileSync(file, "utf8")) as { diagnostics: { message: string; severity: string }[] }).diagnostics.filter((d) => d.severity === "warning");
    expect(warnings.at(-1)!.message).toBe(
      "The deletes of this preview were not verified against the server (platform:token, kept as a secret in the stack's config, could not be read: " +
        "the Pulumi CLI (`pulumi`), which decrypts it, is not on PATH); `pulumi up` will show the server's answer.",
    );
    expect(errorsIn(file)).toEqual([]);
  });

  it("is not read when the preview names no stack (no step of the stack's own resource, and URNs of two stacks)", async () => {
    const file = previewFile([], { "platform:token": "[secret]" });
    const preview = JSON.parse(readFileSync(file, "utf8")) as { steps: { urn: string; op: string }[] };
    preview.steps = preview.steps.filter((step) => !step.urn.includes("::pulumi:pulumi:Stack::"));
    preview.steps.push({ ...preview.steps[0]!, op: "same", urn: preview.steps[0]!.urn.replace(/^urn:pulumi:[^:]+::/, "urn:pulumi:other::") });
    writeFileSync(file, JSON.stringify(preview));
    expect(await review(file, "alice")).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("platform:token, kept as a secret in the stack's config, could not be read: the preview names no stack (give --stack)");
  });
});

describe("the apply's guard", () => {
  it("with --verify-deletes, stops before `up` when the apply's token would be refused a delete, and says so on the merge request", async () => {
    const { iid } = await as("root").post<{ iid: number }>(apiPath`/projects/${projectId}/merge_requests`, { source_branch: "stable", target_branch: "main", title: "Platform change" });
    await emulator.runDueWork();
    const ci = { CI_API_V4_URL: `${emulator.url}/api/v4`, CI_PROJECT_ID: String(projectId), PLATFORM_REVIEW_TOKEN: emulator.tokens.alice! };
    // Reviewed with a token that may delete it.
    expect(await main(["--preview", previewFile(), "--post", "--quiet"], { ...ci, CI_MERGE_REQUEST_IID: String(iid) }, () => {})).toBe(0);
    const commit = "f".repeat(40);
    const record = mergeRequestStore.of(emulator.state).mergeRequests.find((mr) => mr.projectId === projectId && mr.iid === iid)!;
    Object.assign(record, { state: "merged", mergedAt: new Date().toISOString(), mergeCommitSha: commit, sha: "b".repeat(40) });
    // The apply's token is dev's.
    const code = await review(previewFile(), "dev", ["--check-reviewed", "--post", "--quiet"], { ...ci, CI_COMMIT_SHA: commit, CI_COMMIT_BRANCH: "main" });
    expect(code, stderr).toBe(1);
    expect(stderr).toContain("platform-review: the server would refuse a delete of this apply:\n  - Badge: could not delete groups/acme/badges/1");
    const notes = await as("root").list<{ body: string }>(apiPath`/projects/${projectId}/merge_requests/${iid}/notes`, { sort: "asc" });
    expect(notes.at(-1)!.body).toContain("#### Stopped: the server would refuse this");
    expect(notes.at(-1)!.body).toContain("**What to do next:** Give the apply's token (PLATFORM_TOKEN) what each refusal names");
  });
});
