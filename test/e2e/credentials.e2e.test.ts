/**
 * The platform's credentials with the real Pulumi CLI: a project access token
 * rotated a week before it expires, kept in a masked CI/CD variable of
 * another project, and a webhook whose receiver (a server of this test, on
 * loopback) gets the hook's test event with its token. No token or variable
 * value reaches the state in plain text, the preview's JSON or the review.
 * With the clock of the CLI's processes moved past the rotation point, the
 * preview plans the rotation and the variable's update, and `up` leaves the
 * old token revoked and the variable holding the new one. A value changed by
 * hand is drift of that variable's value, named and never shown.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath } from "pulumi-platform";
import { repoRoot, stepsByName } from "../../scripts/pulumi-workspace.mts";
import { driftFound } from "../../src/review/drift";
import { reviewOf } from "../../src/review/changes";
import { markdownOf } from "../../src/review/markdown";
import { parsePreview } from "../../src/review/preview";
import { startHookReceiver, type HookReceiver } from "../hook-receiver";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

const HOOK_TOKEN = "receiver-secret-7f3a9c";
const DAY = 24 * 60 * 60 * 1000;

let started: ProgramUnderTest;
let receiver: HookReceiver;
/** How far the emulator's clock runs ahead of real time (moved with the CLI's, past the rotation point). */
let shift = 0;

beforeAll(async () => {
  receiver = await startHookReceiver();
  started = await startProgramUnderTest({
    programDir: "test/e2e/programs/credentials",
    emulator: { clock: () => Date.now() + shift, backgroundWork: "auto" },
    config: { receiverUrl: receiver.url },
    secrets: { hookToken: HOOK_TOKEN },
  });
}, 5 * 60_000);

afterAll(async () => {
  await stopProgramUnderTest(started ?? {});
  await receiver?.stop();
});

/** The CLI's environment with its processes' clock `shift` ahead, as the emulator's (test/e2e/fixtures/shifted-clock.cjs). */
const shiftedEnv = () => ({ ...started.program.env, NODE_OPTIONS: `--require ${path.join(repoRoot, "test/e2e/fixtures/shifted-clock.cjs")}`, PLATFORM_TEST_CLOCK_SHIFT_MS: String(shift) });
/** The variable's value as the server holds it (read as the administrator). */
const variableValue = async () => (await started.api.get<{ value: string }>(apiPath`/projects/${"acme/web"}/variables/${"DEPLOY_TOKEN"}`)).value;
/** Whether a token authenticates on the server. */
const authenticates = async (token: string) => (await fetch(`${started.emulator.url}/api/v4/user`, { headers: { "PRIVATE-TOKEN": token } })).status === 200;

describe.sequential("credentials: a rotated token, the variable holding it, a hook", { timeout: 5 * 60_000 }, () => {
  let firstToken = "";

  it("up makes them; the receiver gets the hook's test event with its token; no value in the state, the preview or the review", async () => {
    const { program, api } = started;
    const preview = await program.cli(["preview", "--json"]);
    await program.up();
    firstToken = await variableValue();
    expect(firstToken).toMatch(/^glpat-/);
    expect(await authenticates(firstToken)).toBe(true);

    const hookId = (await api.list<{ id: number; name: string }>(apiPath`/projects/${"acme/web"}/hooks`)).find((hook) => hook.name === "receiver")!.id;
    const delivered = receiver.next();
    await api.post(apiPath`/projects/${"acme/web"}/hooks/${hookId}/test/${"push_events"}`, {});
    const event = await delivered;
    expect(event.headers["x-gitlab-event"]).toBe("Push Hook");
    expect(event.headers["x-gitlab-token"]).toBe(HOOK_TOKEN);

    const state = JSON.stringify(await program.exportStack());
    const second = await program.cli(["preview", "--json", "--expect-no-changes"]);
    const review = markdownOf(reviewOf(parsePreview(preview.stdout)));
    for (const [where, text] of Object.entries({ state, preview: preview.stdout + second.stdout, review })) {
      expect(text.includes(firstToken), `the token in the ${where}`).toBe(false);
      expect(text.includes(HOOK_TOKEN), `the hook's token in the ${where}`).toBe(false);
    }
  });

  it("past the rotation point the preview plans the rotation and the variable's update; up revokes the old token and the variable holds the new one", async () => {
    const { program } = started;
    // The server and the CLI's processes a year on, less a few days: within the week before the token's 365 days end.
    shift = 362 * DAY;
    const env = shiftedEnv();
    const preview = await program.cli(["preview", "--json"], { env });
    const steps = stepsByName(JSON.parse(preview.stdout));
    expect(steps.deployer?.op).toBe("update");
    expect(steps["deploy-token"]?.op).toBe("update");
    expect(steps.receiver?.op ?? "same").toBe("same");
    expect(markdownOf(reviewOf(parsePreview(preview.stdout)))).toMatch(/rotates project access token/);

    await program.cli(["up", "--yes", "--skip-preview"], { env });
    const secondToken = await variableValue();
    expect(secondToken).not.toBe(firstToken);
    expect(await authenticates(firstToken)).toBe(false);
    expect(await authenticates(secondToken)).toBe(true);
    expect(JSON.stringify(await program.exportStack()).includes(secondToken)).toBe(false);
  });

  it("a value changed by hand is drift of that variable's value, named and never shown", async () => {
    const { program, api } = started;
    const handValue = "changed-by-hand-4e1d";
    await api.put(apiPath`/projects/${"acme/web"}/variables/${"DEPLOY_TOKEN"}`, { value: handValue });
    const preview = await program.cli(["preview", "--refresh", "--json"], { env: shiftedEnv() });
    expect(preview.stdout.includes(handValue)).toBe(false);
    const found = driftFound(reviewOf(parsePreview(preview.stdout)));
    expect(found.outside.filter((change) => change.name === "deploy-token").flatMap((change) => change.fields.map((field) => field.path))).toEqual(["value"]);
    expect(JSON.stringify(found).includes(handValue)).toBe(false);
  });
});
