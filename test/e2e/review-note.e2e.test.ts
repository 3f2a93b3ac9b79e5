/**
 * What a review note shows, from previews the real Pulumi CLI writes against
 * the emulator (the program test/e2e/programs/review-note): a settings
 * resource's first apply with each declared setting before and after (the
 * group's two-factor grace period 48 → 72), an owner the program names by
 * numeric id by its path in every kind of change (a delete after a refresh
 * too), and a schedule's variables item by item, only the secret value
 * masked. The saved plan of such a preview applies, and the next preview is
 * clean: what check adds for the reviewer (`takeover`, `ownerPath`) holds
 * across the CLI's plans.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { PulumiProgram } from "../../scripts/pulumi-workspace.mts";
import { reviewOf } from "../../src/review/changes";
import { markdownOf } from "../../src/review/markdown";
import { parsePreview } from "../../src/review/preview";
import { summaryOf } from "../../src/review/summary";

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;
let acmeId: number;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root! });
  acmeId = (await api.get<{ id: number }>(apiPath`/groups/${"acme"}`, { with_projects: false })).id;
  await api.put(apiPath`/groups/${"acme"}`, { two_factor_grace_period: 48 });
  program = await PulumiProgram.create({
    programDir: "test/e2e/programs/review-note",
    transpileOnly: true,
    config: { "platform:url": emulator.url, acmeId: String(acmeId) },
    secrets: { "platform:token": emulator.tokens.root! },
    env: { PULUMI_EXPERIMENTAL: "true" },
  });
}, 300_000);

afterAll(async () => {
  program?.dispose();
  await closeAllPools();
  await emulator?.stop();
});

describe("the note of a first apply, as the real CLI previews it", { timeout: 600_000 }, () => {
  it("settings before and after, owners by path, variables by item; the saved plan applies and the next preview is clean", async () => {
    const start = emulator.requestLog.length;
    const plan = path.join(program.root, "plan.json");
    const { stdout } = await program.cli(["preview", "--json", "--save-plan", plan]);
    const review = reviewOf(parsePreview(stdout));
    const report = markdownOf(review, { stack: "e2e" });
    expect(summaryOf(review).sentences).toEqual([
      "creates group settings of group acme",
      "creates badge `by-id` of group acme",
      "creates pipeline schedule `Nightly deploy (note test)` of project acme/web",
    ]);
    const settings = review.changes.find((change) => change.type === "GroupSettings")!;
    expect(settings.fields).toContainEqual({ path: "twoFactorGracePeriod", before: { value: "48" }, after: { value: "72" } });
    expect(report).toContain("| <code>twoFactorGracePeriod</code> | <code>48</code> | <code>72</code> |");
    const schedule = review.changes.find((change) => change.type === "PipelineSchedule")!;
    expect(schedule.fields.filter((field) => field.path.startsWith("variables"))).toEqual([
      { path: "variables.DEPLOY_ENVIRONMENT.value", before: { absent: true }, after: { value: "staging" } },
      { path: "variables.DEPLOY_ENVIRONMENT.variableType", before: { absent: true }, after: { value: "env_var" } },
      { path: "variables.DEPLOY_TOKEN.value", before: { absent: true }, after: { secret: true } },
      { path: "variables.DEPLOY_TOKEN.variableType", before: { absent: true }, after: { value: "env_var" } },
    ]);
    expect(report + JSON.stringify(summaryOf(review))).not.toContain("planted-token-value");
    expect(report).not.toMatch(new RegExp(`group <code>${acmeId}</code>`));
    // The preview's one read of the group the program names by id serves the settings and the badge alike.
    const groupReads = emulator.requestLog.slice(start).filter((entry) => entry.method === "GET" && entry.path === `/api/v4/groups/${acmeId}`);
    expect(groupReads).toHaveLength(1);

    await program.up("--plan", plan);
    expect((await api.get<{ two_factor_grace_period: number }>(apiPath`/groups/${"acme"}`, { with_projects: false })).two_factor_grace_period).toBe(72);
    await program.preview("--expect-no-changes");
    await program.preview("--expect-no-changes", "--refresh");

    await program.setConfig("phase", "drop");
    const dropped = reviewOf(parsePreview((await program.cli(["preview", "--json", "--refresh"])).stdout));
    expect(summaryOf(dropped).sentences).toEqual([expect.stringMatching(/^deletes badge \d+ `by-id` of group acme$/)]);
  });
});
