/**
 * The end-to-end scenario every example goes through with the real Pulumi CLI
 * against a freshly seeded emulator. An example's test file declares only
 * what is particular to it (what it creates, which config change it makes,
 * which out-of-band drift it suffers); this file runs the steps:
 *
 * 1. `up` succeeds and the server holds exactly the declared objects;
 * 3. a config change previews exactly the expected steps and changed inputs
 *    (every other resource `same`: the preview right after `up` is clean),
 *    and `up` applies it;
 * 4. out-of-band changes are found by the refresh of `preview --refresh`,
 *    the drift check names each as changed outside the program (none as
 *    merged but not yet applied), and `up --refresh` restores the declared state (every resource step 3
 *    changed and the drift left alone previews `same`: the preview after
 *    step 3's `up` is clean); `pulumi refresh` on its own runs in previews,
 *    exclusive-sets, secrets and faults (.e2e.test.ts);
 * 6. a resource declared with `adoptExisting` took over the existing object (no duplicate);
 * 7. `destroy` leaves the server as it was before step 1.
 *
 * What the engine does whatever the example is checked once, by the example
 * that declares `engineBehaviours` (platform-team, nine kinds of resource):
 * 2. `preview --expect-no-changes` passes right after `up` (and after steps 3's and 4's);
 * 5. `pulumi stack export` holds none of the secret values the program used,
 *    and the serialized provider is a thin shim;
 * 8. state written by an earlier release's serialized provider refreshes with today's code.
 * Every secret field of every kind is searched for in state and logs by
 * secrets.e2e.test.ts; the earlier release's provider text loads today's
 * provider of every kind in test/engine/shim.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator, type Seed } from "pulumi-platform/emulator";
import { reviewOf } from "../../src/review/changes";
import { driftFound } from "../../src/review/drift";
import { markdownOf } from "../../src/review/markdown";
import { parsePreview } from "../../src/review/preview";
import { changedInputs, ensurePulumiCli, PulumiProgram, repoRoot, stepsByName, type PreviewJson } from "../../scripts/pulumi-workspace.mts";

/** The expected step of one resource (by name): its operation and, for updates and replacements, the inputs that change. */
export type ExpectedSteps = Record<string, { op: "create" | "update" | "replace" | "delete" | "same"; changed?: string[] }>;

export interface ScenarioContext {
  api: PlatformClient;
  emulator: Emulator;
}

export interface ExampleScenario {
  example: string;
  /** Emulator seed (default: the emulator's default seed). */
  seed?: Seed;
  /** The seed user whose token the stack uses (default root, the administrator). */
  user?: string;
  config?: Record<string, string>;
  /** Secret stack config: none of these values may appear in the exported state. */
  secrets?: Record<string, string>;
  /** What the example can touch on the server, read through the API; compared before step 1 and after destroy. */
  snapshot(ctx: ScenarioContext): Promise<unknown>;
  /** Out-of-band set-up before step 1 (an object for the program to adopt). */
  prepare?(ctx: ScenarioContext): Promise<void>;
  /** Step 1: the server holds exactly the declared objects. */
  verifyCreated(ctx: ScenarioContext): Promise<void>;
  /** Step 6: the adopted object is the one `prepare` made, and there is no duplicate. */
  verifyAdopted?(ctx: ScenarioContext): Promise<void>;
  /** Step 3. */
  change: { config: Record<string, string>; expect: ExpectedSteps; verify(ctx: ScenarioContext): Promise<void> };
  /** Step 4. */
  drift: {
    apply(ctx: ScenarioContext): Promise<void>;
    expect: ExpectedSteps;
    /** The fields the drift check names as changed outside the program, by resource (every field of each is checked where given). */
    drifted?: Record<string, string[]>;
    /** The review of the drift's preview (its Markdown report), before `up --refresh` puts things back. */
    reviewSays?(report: string): void;
    verify(ctx: ScenarioContext): Promise<void>;
  };
  /**
   * Before step 7: the review of `preview --destroy` (the report a merge
   * request that removes the program would get), for examples whose deletes
   * say what goes with them and how the server deletes.
   */
  destroyReview?(report: string): void;
  /** Run steps 2, 5 and 8 (the engine's own behaviours, the same for every example): set by one example only. */
  engineBehaviours?: boolean;
}

function expectSteps(preview: PreviewJson, expected: ExpectedSteps): void {
  // `preview --refresh` lists its refresh steps first; the steps it plans are what the test expects.
  preview = { ...preview, steps: preview.steps.filter((step) => step.op !== "refresh") };
  const steps = stepsByName(preview);
  for (const [name, { op, changed }] of Object.entries(expected)) {
    expect(steps[name]?.op, `step of ${name}`).toBe(op);
    if (changed) expect(changedInputs(steps[name]!), `changed inputs of ${name}`).toEqual([...changed].sort());
  }
  const unexpected = preview.steps.filter((step) => step.op !== "same" && !(step.urn.split("::").at(-1)! in expected));
  expect(unexpected.map((step) => `${step.op} ${step.urn.split("::").at(-1)} ${changedInputs(step).join(",")}`)).toEqual([]);
}

/**
 * The drift check's reading of step 4's preview: after step 3's apply nothing
 * is merged but not applied, so every step the preview plans puts back a
 * change made outside the program, and each such resource is named as drifted
 * (with the fields given), its secret values named, never shown.
 */
function expectDrift(preview: PreviewJson, expected: ExpectedSteps, drifted: Record<string, string[]> = {}, secrets: string[] = []): void {
  const found = driftFound(reviewOf(parsePreview(JSON.stringify(preview))));
  expect(found.pending.map((change) => `${change.kind} ${change.name}: ${change.fields.map((field) => field.path).join(", ")}`), "merged but not yet applied").toEqual([]);
  const outside = new Set(found.outside.map((change) => change.name));
  const planned = Object.entries(expected).filter(([, { op }]) => op !== "same").map(([name]) => name);
  expect(planned.filter((name) => !outside.has(name)), "changed on the server, not found as drift").toEqual([]);
  for (const [name, paths] of Object.entries(drifted)) {
    const fields = found.outside.filter((change) => change.name === name).flatMap((change) => change.fields.map((field) => field.path));
    expect(fields.sort(), `drifted fields of ${name}`).toEqual([...paths].sort());
  }
  const text = JSON.stringify(found);
  for (const secret of secrets) expect(text.includes(secret), "a secret value appears in the drift check's findings").toBe(false);
}

/** The serialized provider of pulumi-platform 0.1.0 for a resource kind, as that release wrote it into state. */
function earlierSerializedProvider(kind: string): string {
  const template = readFileSync(path.join(repoRoot, "test/e2e/fixtures/serialized-provider-0.1.0.js"), "utf8");
  return template.replaceAll('kind: "Badge"', `kind: ${JSON.stringify(kind)}`);
}

export function describeExample(scenario: ExampleScenario): void {
  let emulator: Emulator;
  let program: PulumiProgram;
  let ctx: ScenarioContext;
  let before: unknown;
  /** Wall times of the steps, printed at the end of the file (the engine issue's closing note uses them). */
  const timings: Record<string, number> = {};
  async function timed<T>(name: string, action: () => Promise<T>): Promise<T> {
    const start = Date.now();
    try {
      return await action();
    } finally {
      timings[name] = (Date.now() - start) / 1000;
    }
  }

  beforeAll(async () => {
    await timed("CLI ready", async () => ensurePulumiCli());
    emulator = await startEmulator({ port: 0, ...(scenario.seed ? { seed: scenario.seed } : {}) });
    ctx = { emulator, api: new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 }) };
    before = await scenario.snapshot(ctx);
    await scenario.prepare?.(ctx);
    program = await PulumiProgram.create({
      example: scenario.example,
      transpileOnly: true,
      config: { "platform:url": emulator.url, ...scenario.config },
      secrets: { "platform:token": emulator.tokens[scenario.user ?? "root"]!, ...scenario.secrets },
    });
  }, 20 * 60_000);

  afterAll(async () => {
    program?.dispose();
    await closeAllPools();
    await emulator?.stop();
    console.log(`end-to-end wall times for ${scenario.example} (s): ${JSON.stringify(timings)}`);
  });

  describe.sequential(`${scenario.example} example with the real Pulumi CLI`, { timeout: 5 * 60_000 }, () => {
    it("1. up creates exactly the declared objects", async () => {
      await timed("1 up", () => program.up());
      await scenario.verifyCreated(ctx);
    });

    const engineBehaviours = scenario.engineBehaviours === true;

    it.runIf(engineBehaviours)("2. a second preview shows no changes", async () => {
      await timed("2 preview", () => program.preview("--expect-no-changes"));
    });

    it("3. a config change previews exactly the expected steps, and up applies it", async () => {
      await program.setConfigs(scenario.change.config);
      expectSteps(await timed("3 preview --json", () => program.previewJson()), scenario.change.expect);
      await timed("3 up", () => program.up());
      await scenario.change.verify(ctx);
      // Otherwise step 4's preview shows every resource its drift leaves alone as `same`.
      if (engineBehaviours) await program.preview("--expect-no-changes");
    });

    it("4. preview --refresh finds out-of-band changes, and up --refresh restores the declared state", async () => {
      await scenario.drift.apply(ctx);
      const preview = await timed("4 preview --refresh --json", () => program.previewJson("--refresh"));
      expectSteps(preview, scenario.drift.expect);
      expectDrift(preview, scenario.drift.expect, scenario.drift.drifted, Object.values(scenario.secrets ?? {}));
      scenario.drift.reviewSays?.(markdownOf(reviewOf(parsePreview(JSON.stringify(preview)))));
      await timed("4 up --refresh", () => program.up("--refresh"));
      await scenario.drift.verify(ctx);
      if (engineBehaviours) await program.preview("--expect-no-changes");
    });

    it.runIf(engineBehaviours)("5. the exported state holds no secret in plain text, and the serialized provider is a thin shim", async () => {
      const text = JSON.stringify(await timed("5 stack export", () => program.exportStack()));
      for (const secret of [emulator.tokens[scenario.user ?? "root"]!, ...Object.values(scenario.secrets ?? {})]) {
        expect(text.includes(secret), `a secret value appears in the exported state`).toBe(false);
      }
      const shims = [...text.matchAll(/"__provider":"((?:[^"\\]|\\.)*)"/g)].map((match) => JSON.parse(`"${match[1]}"`) as string);
      expect(shims.length).toBeGreaterThan(0);
      for (const shim of shims) {
        expect(shim).toContain('require("pulumi-platform/runtime")');
        expect(shim.length).toBeLessThan(4_000);
      }
    });

    it.runIf(scenario.verifyAdopted !== undefined)("6. adoption took over the existing object without a duplicate", async () => {
      await scenario.verifyAdopted!(ctx);
    });

    it.runIf(engineBehaviours)("8. state written by an earlier release's provider refreshes with today's code", async () => {
      const state = await program.exportStack();
      for (const resource of state.deployment.resources ?? []) {
        const kind = /^pulumi-nodejs:dynamic\/platform:(\w+)$/.exec(resource.type)?.[1];
        if (!kind) continue;
        resource.inputs!.__provider = earlierSerializedProvider(kind);
        resource.outputs!.__provider = resource.inputs!.__provider;
      }
      await program.importStack(state);
      await timed("8 refresh with earlier state", () => program.refresh());
      await program.preview("--expect-no-changes");
    });

    it("7. destroy leaves the server as it was before the first up", async () => {
      if (scenario.destroyReview) {
        // `destroy --preview-only` refuses the confirmation the workspace skips for every other command.
        const { PULUMI_SKIP_CONFIRMATIONS: _skip, ...env } = program.env;
        const preview = await program.cli(["destroy", "--preview-only", "--json"], { env });
        scenario.destroyReview(markdownOf(reviewOf(parsePreview(preview.stdout))));
      }
      await timed("7 destroy", () => program.destroy());
      expect(await scenario.snapshot(ctx)).toEqual(before);
    });
  });
}
