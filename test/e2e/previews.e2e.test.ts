/**
 * Previews that are always right (issue 14), with the real Pulumi CLI:
 *
 * - a changed secret is named in the preview, its value masked (the engine
 *   compares masked values as equal, so the provider answers "changes
 *   unknown" and the engine names what differs: src/engine/provider.ts);
 * - schedule variables are reviewable one by one: a rotated value, a value
 *   changed out of band and found by refresh, and a variable added out of
 *   band each show on exactly that variable; `up` puts them back; a plain
 *   value is shown before and after, a secret one masked;
 * - state written with the variables as one secret list (earlier releases)
 *   refreshes and previews clean;
 * - an unknown property is refused at preview with the nearest known name,
 *   and a check failure names its property once, in our words.
 *
 * No secret value appears in any command's output or in the exported state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import type { Emulator } from "pulumi-platform/emulator";
import { startProgramUnderTest, stopProgramUnderTest } from "./program-under-test";
import { type PulumiProgram, stepsByName, type PreviewJson, type StackExport } from "../../scripts/pulumi-workspace.mts";

const WEBHOOK = "https://chat.example.com/hooks/previews-webhook-1";
const ROTATED_WEBHOOK = "https://chat.example.com/hooks/previews-webhook-2";
const DEPLOY_TOKEN = "previews-deploy-token-1";
const ROTATED_TOKEN = "previews-deploy-token-2";
/** A plain value of the program: shown, unlike the secrets. */
const TARGET = "staging";
/** The plain value the stack's config sets from the third test on (the program's default is TARGET). */
const PROMOTED = "production";
const DRIFTED = "drifted-out-of-band-value";
const EXTRA = "extra-out-of-band-value";
const SECRETS = [WEBHOOK, ROTATED_WEBHOOK, DEPLOY_TOKEN, ROTATED_TOKEN, EXTRA];

/** The preview step of a resource, with the detailed diff the engine computed. */
type Step = PreviewJson["steps"][number] & { detailedDiff?: Record<string, { kind: string }> | null; diffReasons?: string[] };

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;
const outputs: string[] = [];

/**
 * The steps of a preview, which must change `changing` and nothing else: so
 * each test's preview also shows that the `up` before it left a clean stack.
 */
async function previewSteps(changing: string): Promise<Record<string, Step>> {
  const steps = stepsByName(await program.previewJson()) as Record<string, Step>;
  expect(Object.entries(steps).filter(([, step]) => step.op !== "same").map(([name]) => name)).toEqual([changing]);
  return steps;
}

async function scheduleId(): Promise<number> {
  const schedules = await api.list<{ id: number; description: string }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`);
  return schedules.find((s) => s.description === "Nightly build (previews test)")!.id;
}

async function variablesOnServer(): Promise<Record<string, string>> {
  const live = await api.get<{ variables: { key: string; value: string }[] }>(apiPath`/projects/${"acme/web"}/pipeline_schedules/${await scheduleId()}`);
  return Object.fromEntries(live.variables.map((v) => [v.key, v.value]));
}

function expectNoSecretIn(text: string): void {
  for (const secret of SECRETS) expect(text.includes(secret), `a secret value appears: ${secret}`).toBe(false);
}

beforeAll(async () => {
  ({ emulator, api, program } = await startProgramUnderTest({
    programDir: "test/e2e/programs/previews",
    secrets: { webhook: WEBHOOK, deployToken: DEPLOY_TOKEN },
    // Every command's output but the export this test asks to show secrets in.
    onRun: (run) => (run.args.includes("--show-secrets") ? undefined : outputs.push(run.stdout, run.stderr)),
  }));
  await program.up();
}, 10 * 60_000);

afterAll(() => stopProgramUnderTest({ emulator, program }));

describe.sequential("previews through the real engine", { timeout: 5 * 60_000 }, () => {
  it("a rotated webhook is named in the preview, masked", async () => {
    await program.setConfig("webhook", ROTATED_WEBHOOK, { secret: true });
    const chat = (await previewSteps("chat")).chat!;
    expect(chat.op).toBe("update");
    expect(Object.keys(chat.detailedDiff ?? {})).toEqual(["webhook"]);
    expect(chat.diffReasons).toEqual(["webhook"]);
    const text = (await program.preview("--diff")).stdout;
    expect(text).toMatch(/~ webhook\s*: \[secret\] => \[secret\]/);
    await program.up();
  });

  it("a rotated schedule variable is named alone, its key visible and its value masked", async () => {
    await program.setConfig("deployToken", ROTATED_TOKEN, { secret: true });
    const nightly = (await previewSteps("nightly")).nightly!;
    expect(nightly.op).toBe("update");
    expect(Object.keys(nightly.detailedDiff ?? {})).toEqual(["variables.DEPLOY_TOKEN.value"]);
    const text = (await program.preview("--diff")).stdout;
    expect(text).toMatch(/DEPLOY_TOKEN/);
    expect(text).toMatch(/~ value\s*: \[secret\] => \[secret\]/);
    await program.up();
    expect(await variablesOnServer()).toEqual({ DEPLOY_TOKEN: ROTATED_TOKEN, TARGET });
  });

  it("a plain variable's change shows its value before and after; a secret one stays masked", async () => {
    await program.setConfig("target", PROMOTED);
    const nightly = (await previewSteps("nightly")).nightly!;
    expect(nightly.op).toBe("update");
    expect(Object.keys(nightly.detailedDiff ?? {})).toEqual(["variables.TARGET.value"]);
    expect((nightly.newState?.inputs as { variables: Record<string, { value: unknown }> }).variables.TARGET!.value).toBe(PROMOTED);
    expect((nightly.newState?.inputs as { variables: Record<string, { value: unknown }> }).variables.DEPLOY_TOKEN!.value).toBe("[secret]");
    const text = (await program.preview("--diff")).stdout;
    expect(text).toMatch(new RegExp(`~ value\\s*: "${TARGET}" => "${PROMOTED}"`));
    expect(text).not.toMatch(/\[secret\] => \[secret\]/);
    await program.up();
    expect(await variablesOnServer()).toEqual({ DEPLOY_TOKEN: ROTATED_TOKEN, TARGET: PROMOTED });
    expectNoSecretIn(JSON.stringify(await program.exportStack()));
  });

  it("a value changed out of band shows on exactly that variable after refresh, and up puts it back", async () => {
    await api.put(apiPath`/projects/${"acme/web"}/pipeline_schedules/${await scheduleId()}/variables/${"TARGET"}`, { value: DRIFTED });
    await program.refresh();
    const nightly = (await previewSteps("nightly")).nightly!;
    expect(nightly.op).toBe("update");
    expect(Object.keys(nightly.detailedDiff ?? {})).toEqual(["variables.TARGET.value"]);
    expect((await program.preview("--diff")).stdout).toMatch(new RegExp(`~ value\\s*: "${DRIFTED}" => "${PROMOTED}"`));
    await program.up();
    expect(await variablesOnServer()).toEqual({ DEPLOY_TOKEN: ROTATED_TOKEN, TARGET: PROMOTED });
  });

  it("a variable added out of band shows as removed after refresh, without its value in the state, and up removes it", async () => {
    await api.post(apiPath`/projects/${"acme/web"}/pipeline_schedules/${await scheduleId()}/variables`, { key: "EXTRA", value: EXTRA });
    await program.refresh();
    expectNoSecretIn(JSON.stringify(await program.exportStack()));
    const nightly = (await previewSteps("nightly")).nightly!;
    expect(Object.keys(nightly.detailedDiff ?? {})).toEqual(["variables.EXTRA"]);
    expect(nightly.detailedDiff!["variables.EXTRA"]!.kind).toBe("delete");
    await program.up();
    expect(await variablesOnServer()).toEqual({ DEPLOY_TOKEN: ROTATED_TOKEN, TARGET: PROMOTED });
    await program.preview("--expect-no-changes");
  });

  it("state with the variables as one secret list (earlier releases) refreshes and previews clean", async () => {
    const state = JSON.parse((await program.cli(["stack", "export", "--show-secrets"])).stdout) as StackExport;
    const SECRET_SIG = "4dabf18193072939515e22adb298388d";
    const plain = (value: unknown): unknown => (value && typeof value === "object" && SECRET_SIG in value ? JSON.parse((value as unknown as { plaintext: string }).plaintext) : value);
    for (const resource of state.deployment.resources ?? []) {
      if (!resource.type.endsWith(":PipelineSchedule")) continue;
      for (const props of [resource.inputs!, resource.outputs!]) {
        const map = plain(props.variables) as Record<string, unknown>;
        const list = Object.entries(map).map(([key, settings]) => {
          const { value, variableType } = settings as { value: unknown; variableType: string };
          return { key, value: plain(value), variableType };
        });
        props.variables = { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(list) };
        delete props.declaredVariableKeys;
      }
    }
    await program.importStack(state);
    await program.preview("--expect-no-changes");
    await program.refresh();
    await program.preview("--expect-no-changes");
    expectNoSecretIn(JSON.stringify(await program.exportStack()));
  });

  it("a misspelt property is refused at preview, naming the nearest declared one", async () => {
    await program.setConfig("badInput", "misspelt");
    const result = await program.cli(["preview"], { allowFailure: true });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("cronTimeZone: unknown property; did you mean cronTimezone?");
  });

  it("a check failure names its property once, in our words, never the cron library's", async () => {
    await program.setConfig("badInput", "cron");
    const result = await program.cli(["preview"], { allowFailure: true });
    const text = result.stdout + result.stderr;
    expect(result.code).not.toBe(0);
    expect(text).toContain('has a problem: cron: "every monday" is not a valid cron expression: it has 2 fields. A cron expression has five fields');
    expect(text).not.toMatch(/cron: cron:|property cron value|CronPattern|seven|parts/);
  });

  it("no secret value appears in any output or in the exported state", async () => {
    await program.destroy();
    expectNoSecretIn(outputs.join("\n"));
  });
});
