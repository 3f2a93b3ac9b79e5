/**
 * The matrix of test/engine/verify-matrix.test.ts, one row per cause, with
 * the real Pulumi CLI on one stack, switching tokens as a team does (a
 * person's token replaced by a bot's, an owner leaving): for each cause the
 * preview refuses and the server refuses too (the same `up` with
 * `platform:verifyAtPreview false`), or the preview passes and the `up`
 * succeeds. A plain delete is measured: its preview sends the server nothing
 * for the deleted resource. A 404 hidden by the token's role fails the `up`
 * and keeps the object; a 404 the token could have seen drops it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import type { Emulator } from "pulumi-platform/emulator";
import { startProgramUnderTest, stopProgramUnderTest } from "./program-under-test";
import type { PulumiProgram } from "../../scripts/pulumi-workspace.mts";

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;

beforeAll(async () => {
  ({ emulator, api, program } = await startProgramUnderTest({ programDir: "test/e2e/programs/verify-steps", secrets: { "platform:token": "glpat-alice-token" } }));
}, 5 * 60_000);

afterAll(async () => {
  await stopProgramUnderTest({ program, emulator });
});

/** A seed user's token as the stack's secret config: `setConfigs` sets it with a step's plain values in one command. */
const tokenOf = (user: string) => ({ "platform:token": `glpat-${user}-token` });
/** The resources the program declares, as its config. */
const declaring = (...names: string[]) => ({ declare: names.join(",") });
const verifying = (on: boolean) => program.setConfig("platform:verifyAtPreview", String(on));

async function run(command: "preview" | "up"): Promise<{ code: number; text: string }> {
  const args = command === "up" ? ["up", "--yes", "--skip-preview"] : ["preview"];
  const result = await program.cli(args, { allowFailure: true });
  return { code: result.code, text: result.stdout + result.stderr };
}

/** A cause the server refuses: the preview refuses with `words`; with verification off, the `up` fails at the server. */
async function refusedTwice(words: string | RegExp): Promise<void> {
  const previewed = await run("preview");
  expect(previewed.code, previewed.text).not.toBe(0);
  expect(previewed.text).toMatch(words);
  await verifying(false);
  try {
    const applied = await run("up");
    expect(applied.code, applied.text).not.toBe(0);
    expect(applied.text).toMatch(/failed with (401|403|404)/);
  } finally {
    await verifying(true);
  }
}

const urnsInStack = async () => ((await program.exportStack()).deployment.resources ?? []).map((resource: { urn: string }) => resource.urn);
const scheduleOnServer = async () => (await api.list<{ id: number; owner: { username: string } }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`)).find(() => true);

describe.sequential("every step verified at preview, through the real engine", { timeout: 5 * 60_000 }, () => {
  it("alice's token makes the schedule and the group badge", async () => {
    await program.setConfigs(declaring("schedule", "groupBadge"));
    const applied = await run("up");
    expect(applied.code, applied.text).toBe(0);
    expect((await scheduleOnServer())?.owner.username).toBe("alice");
  });

  it("not the owner: maintainer's token changing alice's schedule without takeOwnership is refused at preview, and by the server", async () => {
    await program.setConfigs({ mode: "b" }, tokenOf("maintainer"));
    await refusedTwice(/the schedule is not the token's user's \(maintainer\): it belongs to alice/);
    // With takeOwnership the preview passes, and the up succeeds.
    await program.setConfig("takeOwnership", "true");
    expect((await run("preview")).code).toBe(0);
    const applied = await run("up");
    expect(applied.code, applied.text).toBe(0);
    expect((await scheduleOnServer())?.owner.username).toBe("maintainer");
  });

  it("role too low: dev's token creating a virtual registry is refused at preview, and by the server", async () => {
    await program.setConfigs(declaring("schedule", "groupBadge", "registry"), tokenOf("dev"));
    await refusedTwice("the token's user (dev) needs at least the Maintainer role on group acme for VirtualRegistry, and is Developer there");
  });

  it("a plain delete is not shown to the provider at preview: dev's preview of removing the group badge reads nothing of it; the up fails at the server and keeps it", async () => {
    await program.setConfigs(declaring("schedule"));
    const before = emulator.requestLog.length;
    const previewed = await run("preview");
    expect(previewed.code, previewed.text).toBe(0);
    expect(previewed.text).toMatch(/- .*group-badge/);
    expect(emulator.requestLog.slice(before).filter((entry) => entry.path.includes("/badges"))).toEqual([]);
    const applied = await run("up");
    expect(applied.code, applied.text).not.toBe(0);
    expect(applied.text).toContain("needs the Owner role on group acme");
    expect((await urnsInStack()).some((urn) => urn.endsWith("::group-badge"))).toBe(true);
  });

  it("tier: alice's SAML link on the Free group beta is refused at preview, and by the server", async () => {
    await program.setConfigs(declaring("schedule", "groupBadge", "tiered"), tokenOf("alice"));
    await refusedTwice("group beta needs the Premium or Ultimate tier for SamlGroupLink, and it is on Free");
  });

  it("flag off: root's virtual registry is refused at preview, and by the server", async () => {
    const flags = emulator.state.instance.featureFlags!;
    const saved = flags.container_virtual_registries!;
    flags.container_virtual_registries = false;
    try {
      await program.setConfigs(declaring("schedule", "groupBadge", "registry"), tokenOf("root"));
      await refusedTwice("feature flag container_virtual_registries is off for group acme");
    } finally {
      flags.container_virtual_registries = saved;
    }
  });

  it("hidden: guest's token deleting the schedule fails the up, and the schedule stays in the stack and on the server", async () => {
    await program.setConfigs(declaring("groupBadge"), tokenOf("guest"));
    const applied = await run("up");
    expect(applied.code, applied.text).not.toBe(0);
    expect(applied.text).toMatch(/the server answers 404, but the token's user \(guest, Guest of project acme\/web\) may not see PipelineSchedule/);
    expect((await urnsInStack()).some((urn) => urn.endsWith("::nightly"))).toBe(true);
    expect(await scheduleOnServer()).toBeDefined();
  });

  it("gone: deleted out of band, the schedule leaves the stack on its owner's up", async () => {
    const schedule = (await scheduleOnServer())!;
    await api.delete(apiPath`/projects/${"acme/web"}/pipeline_schedules/${schedule.id}`);
    await program.setConfigs({}, tokenOf("alice"));
    const applied = await run("up");
    expect(applied.code, applied.text).toBe(0);
    expect((await urnsInStack()).some((urn) => urn.endsWith("::nightly"))).toBe(false);
  });
});
