/**
 * The release-step example with the real Pulumi CLI: the trigger resources
 * act at `up` only, once per version, and the preview shows when they will.
 *
 * 1. a preview creates nothing on the server (no pipeline, no commit, no write at all);
 * 2. `up` commits the changelog of 1.5.0 to `main` and runs the schedule once;
 * 3. a second preview shows no changes, and a second `up` does nothing;
 * 4. a new version previews as the two triggers replaced (the schedule unchanged), and `up` commits and runs once more;
 *    with `purgeHubCache` set, the preview purges nothing and the `up` purges the upstream's cache once;
 * 5. `destroy` removes the schedule and leaves the changelog commits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, getRepositoryBlob, getRepositoryMergeBase, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram, stepsByName } from "../../scripts/pulumi-workspace.mts";

let emulator: Emulator;
let program: PulumiProgram;
let api: PlatformClient;

const schedules = () => api.list<{ id: number; description: string }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`);
const pipelinesOf = (scheduleId: number) => api.list<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules/${scheduleId}/pipelines`);
/** The cache purges the emulator saw since `mark`. */
const purgesSince = (mark: number) => emulator.requestLog.filter((entry) => entry.seq >= mark && entry.method === "DELETE" && entry.path.endsWith("/cache"));

const connection = () => ({ url: emulator.url, token: emulator.tokens.root! });
const changelogOnMain = async (): Promise<string | null | undefined> =>
  getRepositoryBlob({ project: "acme/web", path: "CHANGELOG.md", ref: "main" }, { connection: connection() }).then(
    (blob) => blob.text,
    () => undefined,
  );
/** The branch's head commit (the merge base of a ref with itself). */
const headOf = async (branch: string) => (await getRepositoryMergeBase({ project: "acme/web", refs: [branch, branch] }, { connection: connection() })).id;

beforeAll(async () => {
  ensurePulumiCli();
  emulator = await startEmulator({ port: 0 });
  api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
  program = await PulumiProgram.create({
    example: "release-step",
    transpileOnly: true,
    config: { "platform:url": emulator.url, releaseVersion: "1.5.0" },
    secrets: { "platform:token": emulator.tokens.maintainer! },
  });
}, 20 * 60_000);

afterAll(async () => {
  program?.dispose();
  await closeAllPools();
  await emulator?.stop();
});

describe.sequential("release-step example with the real Pulumi CLI", { timeout: 5 * 60_000 }, () => {
  let mainBefore = "";
  let scheduleId = 0;

  it("1. a preview shows the creates and does nothing on the server", async () => {
    mainBefore = await headOf("main");
    const mark = emulator.mark();
    const steps = stepsByName(await program.previewJson());
    expect(["nightly", "changelog", "release-build", "images", "docker-hub"].map((name) => steps[name]?.op)).toEqual(Array(5).fill("create"));
    expect(emulator.requestLog.filter((entry) => entry.seq >= mark && entry.method !== "GET")).toEqual([]);
    expect(await schedules()).toEqual([]);
    expect(await headOf("main")).toBe(mainBefore);
  });

  it("2. up commits the changelog to main and runs the schedule once (no purge without purgeHubCache)", async () => {
    const mark = emulator.mark();
    await program.up();
    expect(purgesSince(mark)).toEqual([]);
    const [nightly] = await schedules();
    scheduleId = nightly!.id;
    expect(await pipelinesOf(scheduleId)).toHaveLength(1);
    expect(await headOf("main")).not.toBe(mainBefore);
    expect(await changelogOnMain()).toMatch(/^## 1\.5\.0 /m);
  });

  it("3. a second preview shows no changes; a second up runs nothing", async () => {
    await program.preview("--expect-no-changes");
    const head = await headOf("main");
    await program.up();
    expect(await pipelinesOf(scheduleId)).toHaveLength(1);
    expect(await headOf("main")).toBe(head);
  });

  it("4. a new version replaces the two triggers, and up commits and runs once more", async () => {
    await program.setConfigs({ releaseVersion: "1.6.0", purgeHubCache: "true" });
    const mark = emulator.mark();
    const steps = stepsByName(await program.previewJson());
    expect(purgesSince(mark)).toEqual([]);
    // The schedule is not a step of the preview: it does not change.
    expect(steps["nightly"]?.op ?? "same").toBe("same");
    expect(steps["changelog"]?.op).toBe("replace");
    expect(steps["release-build"]?.op).toBe("replace");
    expect(await pipelinesOf(scheduleId)).toHaveLength(1);
    await program.up();
    expect(purgesSince(mark).map((entry) => `${entry.method} ${entry.status}`)).toEqual(["DELETE 204"]);
    expect(await pipelinesOf(scheduleId)).toHaveLength(2);
    expect(await changelogOnMain()).toMatch(/^## 1\.6\.0 [\s\S]*^## 1\.5\.0 /m);
  });

  it("5. destroy removes the schedule; the changelog commits stay", async () => {
    const head = await headOf("main");
    await program.destroy();
    expect(await schedules()).toEqual([]);
    expect(await headOf("main")).toBe(head);
  });
});
