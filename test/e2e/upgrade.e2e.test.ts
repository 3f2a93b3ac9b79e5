/**
 * The upgrade path, with the real Pulumi CLI: a stack written by release 0.1.0
 * (commit 65b9cf0, whose state holds the SDK's closure-serialized provider,
 * 2.7 KB in every resource's inputs and outputs) is imported and run with
 * today's package, whose provider text is a few hundred bytes.
 *
 * The fixture (fixtures/state-65b9cf0.json) is that release's `pulumi stack
 * export` after a first `up` of programs/upgrade on a fresh emulator
 * (scripts/make-upgrade-fixture.mts says how it was made). Ids are assigned in
 * order from the seed, so today's `up` of the same program on a fresh
 * emulator, creating the project badge first as the fixture's run did, makes
 * the same objects under the same ids; the fixture then
 * replaces the state, as if the stack had been written by the old release.
 *
 * Then: the preview shows no change (the changed `__provider` is no
 * replacement and no diff), an update names only the property that changed,
 * refresh and destroy run the old provider text kept in the outputs (which
 * loads today's implementation), and the server is left as it was. Last, a
 * destroy where the package is not installed says to install it, once, with
 * no stack trace.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedInputs, repoRoot, stepsByName, type RunResult, type StackExport } from "../../scripts/pulumi-workspace.mts";
import { UPGRADE_FIXTURE_URL, upgradeProgramSecrets } from "../../scripts/make-upgrade-fixture.mts";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

const FIXTURE = path.join(repoRoot, "test/e2e/fixtures/state-65b9cf0.json");

let started: ProgramUnderTest;
let before: unknown;

/** What the program touches on the server, read through the API. */
async function serverObjects({ api }: ProgramUnderTest): Promise<unknown> {
  const group = await api.get<Record<string, unknown>>("/groups/acme");
  return {
    projectBadges: await api.get("/projects/acme%2Fweb/badges"),
    groupBadges: await api.get("/groups/acme/badges"),
    schedules: await api.get("/projects/acme%2Fweb/pipeline_schedules"),
    integrations: await api.get("/groups/acme/integrations"),
    groupSettings: { requestAccessEnabled: group.request_access_enabled, twoFactorGracePeriod: group.two_factor_grace_period },
  };
}

function providerTexts(state: StackExport, side: "inputs" | "outputs"): string[] {
  return (state.deployment.resources ?? []).filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic/")).map((resource) => String(resource[side]?.__provider));
}

const isEarlierProvider = (text: string) => text.includes("__f0") && text.length > 2_000;

/** Every line of a CLI run that shows the error of the missing package. */
function linesSaying(run: RunResult, words: string): string[] {
  return `${run.stdout}\n${run.stderr}`.split("\n").filter((line) => line.includes(words));
}

beforeAll(async () => {
  started = await startProgramUnderTest({ programDir: "test/e2e/programs/upgrade", secrets: upgradeProgramSecrets });
  before = await serverObjects(started);
}, 10 * 60_000);

afterAll(async () => {
  await stopProgramUnderTest(started ?? {});
});

describe.sequential("a stack written by release 0.1.0 (closure-serialized provider) with today's package", { timeout: 5 * 60_000 }, () => {
  it("imports: today's up makes the objects the fixture recorded, under the same ids", async () => {
    const { program, emulator } = started;
    const fixture = JSON.parse(readFileSync(FIXTURE, "utf8").replaceAll(UPGRADE_FIXTURE_URL, emulator.url)) as StackExport;
    // Project and group badges share one id sequence (as on a real server), and
    // the engine creates the two badges in parallel, in either order. The
    // fixture's project badge came first, so it is made first here too.
    const projectBadge = fixture.deployment.resources!.find((resource) => resource.urn.endsWith("platform:Badge::pipeline"))!;
    await program.up("--target", projectBadge.urn);
    await program.up();
    const ids = (state: StackExport) => Object.fromEntries((state.deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/")).map((r) => [r.urn, r.id]));
    expect(ids(await program.exportStack())).toEqual(ids(fixture));
    await program.importStack(fixture);
    const imported = await program.exportStack();
    expect(providerTexts(imported, "inputs").every(isEarlierProvider)).toBe(true);
  });

  it("previews no change, and a changed property is the only one an update names", async () => {
    const { program } = started;
    await program.preview("--expect-no-changes");
    await program.setConfig("ciHost", "ci.next.example.com");
    const preview = await program.previewJson();
    const steps = stepsByName(preview);
    expect(Object.entries(steps).filter(([, step]) => step.op !== "same").map(([name, step]) => `${step.op} ${name}`)).toEqual(["update pipeline"]);
    expect(changedInputs(steps.pipeline!)).toEqual(["linkUrl"]);
    // What the user reads: the property diff, and no word of the provider text that changed with it.
    const shown = await program.cli(["preview", "--diff"]);
    expect(shown.stdout).toContain("~ linkUrl");
    expect(shown.stdout).not.toContain("__provider");
    await program.setConfig("ciHost", "ci.example.com");
  });

  it("refreshes with the earlier provider text kept in the outputs, and previews no change after", async () => {
    const { program } = started;
    await program.refresh();
    expect(providerTexts(await program.exportStack(), "outputs").every(isEarlierProvider)).toBe(true);
    await program.preview("--expect-no-changes");
  });

  it("up records today's provider text in the inputs; an update, in the outputs too", async () => {
    const { program } = started;
    await program.up();
    let state = await program.exportStack();
    expect(providerTexts(state, "inputs").every((text) => text.length < 400 && text.includes('require("pulumi-platform/runtime")'))).toBe(true);
    await program.setConfig("ciHost", "ci.next.example.com");
    await program.up();
    state = await program.exportStack();
    const pipeline = state.deployment.resources!.find((resource) => resource.urn.endsWith("::pipeline"))!;
    expect(String(pipeline.outputs!.__provider).length).toBeLessThan(400);
    await program.preview("--expect-no-changes");
  });

  it("destroys (the earlier text deletes what it recorded) and leaves the server as it was", async () => {
    const { program } = started;
    await program.destroy();
    expect(await serverObjects(started)).toEqual(before);
  });

  it("a destroy where pulumi-platform is not installed says to install it, once, with no stack trace", async () => {
    const { program } = started;
    await program.up();
    const modules = path.join(program.dir, "node_modules");
    // The program's node_modules as after `npm uninstall pulumi-platform`: everything else still there.
    rmSync(modules);
    mkdirSync(modules);
    for (const entry of readdirSync(path.join(repoRoot, "node_modules"))) {
      if (entry !== "pulumi-platform") symlinkSync(path.join(repoRoot, "node_modules", entry), path.join(modules, entry));
    }
    const failed = await program.cli(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    const said = `Install pulumi-platform in ${program.dir} (npm install path/to/pulumi-platform.tgz) and run this again.`;
    // Under each resource's diagnostics once, and nowhere else (the progress lines carry it too).
    const diagnostics = failed.stdout.slice(failed.stdout.indexOf("Diagnostics:"));
    expect(linesSaying({ ...failed, stdout: diagnostics }, said)).toHaveLength(5);
    expect(linesSaying(failed, "Cannot find module")).toEqual([]);
    expect(`${failed.stdout}${failed.stderr}`).not.toMatch(/^\s+at /m);
    // Installed again, the same destroy goes through.
    symlinkSync(repoRoot, path.join(modules, "pulumi-platform"));
    await program.destroy();
    expect(await serverObjects(started)).toEqual(before);
  });
});
