/**
 * The upgrade path, with the real Pulumi CLI: a stack written by an earlier
 * version is imported and run with today's package. Two fixtures, each the
 * `pulumi stack export` of its version after a first `up` of its program on a
 * fresh emulator (scripts/make-upgrade-fixture.mts says how they are made):
 *
 * - release 0.1.0 (commit 65b9cf0), programs/upgrade: its state holds the
 *   SDK's closure-serialized provider, 2.7 KB in every resource's inputs and
 *   outputs, where today's provider text is a few hundred bytes;
 * - commit b2bd4a8, programs/upgrade-current: the state of today's life
 *   cycles (a takeover, an exclusive set, a SAML link, a trigger resource, a
 *   cleanup rule with its observed `wouldDelete`), written before the engine
 *   and the resource modules were refactored, so that a refactor which
 *   changes what the state means shows here.
 *
 * Ids are assigned in order from the seed, so today's `up` of the same
 * program on a fresh emulator (with what the program takes over made first,
 * and the project badge created first, as the fixture's run did) makes the
 * same objects under the same ids; the fixture then replaces the state, as if
 * the stack had been written by the earlier version.
 *
 * Then: the preview shows no change (a changed `__provider` is no
 * replacement and no diff), an update names only the property that changed,
 * refresh and destroy run the provider text kept in the outputs (which loads
 * today's implementation), and the server is left as it was before the test
 * made anything (the pipelines a schedule ran and the tags a cleanup deleted
 * stay, as their resources promise). Last, a destroy where the package is not
 * installed says to install it, once per resource it reaches, with no stack
 * trace.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformClient } from "pulumi-platform";
import { changedInputs, repoRoot, stepsByName, type StackExport } from "../../scripts/pulumi-workspace.mts";
import { UPGRADE_FIXTURE_URL, UPGRADE_PROGRAMS, upgradeProgramSecrets, type UpgradeProgram } from "../../scripts/make-upgrade-fixture.mts";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

interface Fixture {
  commit: string;
  description: string;
  program: UpgradeProgram;
  /** Its state holds the SDK's closure-serialized provider (release 0.1.0). */
  closureSerialized: boolean;
  /**
   * Today's read gives each resource the outputs the fixture recorded, by
   * name. A renamed output shows nowhere in a preview (the engine compares
   * inputs), but breaks the programs that read it; release 0.1.0's settings
   * resource had two outputs since dropped.
   */
  outputNamesKept: boolean;
}

const FIXTURES: Fixture[] = [
  { commit: "65b9cf0", description: "release 0.1.0 (closure-serialized provider)", program: UPGRADE_PROGRAMS.release010, closureSerialized: true, outputNamesKept: false },
  { commit: "b2bd4a8", description: "commit b2bd4a8 (today's life cycles, before the engine refactor)", program: UPGRADE_PROGRAMS.current, closureSerialized: false, outputNamesKept: true },
];

/** What the programs touch on the server, read through the API. */
async function serverObjects(api: PlatformClient): Promise<unknown> {
  const group = await api.get<Record<string, unknown>>("/groups/acme");
  return {
    projectBadges: await api.get("/projects/acme%2Fweb/badges"),
    groupBadges: await api.get("/groups/acme/badges"),
    schedules: await api.get("/projects/acme%2Fweb/pipeline_schedules"),
    integrations: await api.get("/groups/acme/integrations"),
    samlGroupLinks: await api.get("/groups/acme/saml_group_links"),
    groupSettings: { requestAccessEnabled: group.request_access_enabled, twoFactorGracePeriod: group.two_factor_grace_period },
  };
}

const dynamicResources = (state: StackExport) => (state.deployment.resources ?? []).filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic/"));

function providerTexts(state: StackExport, side: "inputs" | "outputs"): string[] {
  return dynamicResources(state).map((resource) => String(resource[side]?.__provider));
}

/** Each resource's output names. */
const outputNames = (state: StackExport) => Object.fromEntries(dynamicResources(state).map((r) => [r.urn, Object.keys(r.outputs ?? {}).sort()]));

const isEarlierProvider = (text: string) => text.includes("__f0") && text.length > 2_000;

/** Each resource's id; a trigger resource's names the time it ran, which no two runs share. */
const ids = (state: StackExport) => Object.fromEntries(dynamicResources(state).map((r) => [r.urn, r.id?.replace(/\/runs\/[^/]+$/, "/runs/<time>")]));

/** Whether some resource of the state depends on another (a destroy that fails then stops before reaching it). */
const hasDependencies = (state: StackExport) => dynamicResources(state).some((resource) => ((resource as { dependencies?: string[] }).dependencies ?? []).length > 0);

/** Every line of a text that says these words. */
function linesSaying(text: string, words: string): string[] {
  return text.split("\n").filter((line) => line.includes(words));
}

describe.sequential.each(FIXTURES)("a stack written by $description with today's package", { timeout: 5 * 60_000 }, ({ commit, program: upgradeProgram, closureSerialized, outputNamesKept }) => {
  const fixtureFile = path.join(repoRoot, `test/e2e/fixtures/state-${commit}.json`);
  let started: ProgramUnderTest;
  let fixture: StackExport;
  /** The server before the test made anything (what the program takes over is destroyed with the stack). */
  let before: unknown;

  beforeAll(async () => {
    started = await startProgramUnderTest({
      programDir: upgradeProgram.programDir,
      secrets: upgradeProgramSecrets,
      async prepare(emulator, api) {
        before = await serverObjects(api);
        await upgradeProgram.prepare?.(`${emulator.url}/api/v4`, emulator.tokens.root!);
      },
    });
    fixture = JSON.parse(readFileSync(fixtureFile, "utf8").replaceAll(UPGRADE_FIXTURE_URL, started.emulator.url)) as StackExport;
  }, 10 * 60_000);

  afterAll(async () => {
    await stopProgramUnderTest(started ?? {});
  });

  it("holds no secret in plain text", () => {
    const text = readFileSync(fixtureFile, "utf8");
    for (const secret of [...Object.values(upgradeProgramSecrets), "glpat-"]) expect(text).not.toContain(secret);
  });

  it("imports: today's up makes the objects the fixture recorded, under the same ids", async () => {
    const { program } = started;
    // Project and group badges share one id sequence (as on a real server), and
    // the engine creates the badges in parallel, in any order. The
    // fixture's project badge came first, so it is made first here too.
    const projectBadge = fixture.deployment.resources!.find((resource) => resource.urn.endsWith("platform:Badge::pipeline"))!;
    await program.up("--target", projectBadge.urn);
    await program.up();
    expect(ids(await program.exportStack())).toEqual(ids(fixture));
    await program.importStack(fixture);
    const imported = await program.exportStack();
    expect(providerTexts(imported, "inputs")).toEqual(providerTexts(fixture, "inputs"));
    if (closureSerialized) expect(providerTexts(imported, "inputs").every(isEarlierProvider)).toBe(true);
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

  it("refreshes with the fixture's provider text kept in the outputs (and its output names), and previews no change after", async () => {
    const { program } = started;
    await program.refresh();
    const refreshed = await program.exportStack();
    const texts = providerTexts(refreshed, "outputs");
    expect(texts).toEqual(providerTexts(fixture, "outputs"));
    if (outputNamesKept) expect(outputNames(refreshed)).toEqual(outputNames(fixture));
    if (closureSerialized) expect(texts.every(isEarlierProvider)).toBe(true);
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

  it("destroys (the fixture's text deletes what it recorded) and leaves the server as it was", async () => {
    const { program, api } = started;
    await program.destroy();
    expect(await serverObjects(api)).toEqual(before);
  });

  it("a destroy where pulumi-platform is not installed says to install it, once, with no stack trace", async () => {
    const { program, api } = started;
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
    // Under the diagnostics of each resource the destroy reached once, and
    // nowhere else (the progress lines carry it too). A failed delete stops the
    // destroy, so of a state with dependencies only the first deletes are
    // reached; one without starts them all at once.
    const diagnostics = failed.stdout.slice(failed.stdout.indexOf("Diagnostics:"));
    const reached = diagnostics.split(/\n(?=  \S)/).filter((section) => section.trimStart().startsWith("pulumi-nodejs:dynamic/"));
    expect(reached.length).toBeGreaterThan(0);
    if (!hasDependencies(fixture)) expect(reached).toHaveLength(dynamicResources(fixture).length);
    for (const section of reached) expect(linesSaying(section, said)).toHaveLength(1);
    expect(linesSaying(diagnostics, said)).toHaveLength(reached.length);
    const everything = `${failed.stdout}\n${failed.stderr}`;
    expect(linesSaying(everything, "Cannot find module")).toEqual([]);
    expect(everything).not.toMatch(/^\s+at /m);
    // Installed again, the same destroy goes through.
    symlinkSync(repoRoot, path.join(modules, "pulumi-platform"));
    await program.destroy();
    expect(await serverObjects(api)).toEqual(before);
  });
});
