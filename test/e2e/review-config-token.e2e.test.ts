/**
 * `platform-review --verify-deletes` for a team that keeps the server's URL
 * and token only in the stack's config, as secrets (`pulumi config set
 * --secret platform:token ...`), with no PLATFORM_URL or PLATFORM_TOKEN in the
 * environment: the preview shows them as `[secret]`, so the command reads them
 * from the stack through the real Pulumi CLI, in the program's directory, for
 * the preview's stack, and verifies the deletes with the token the stack's
 * provider uses. The token is in nothing the command writes.
 *
 * The preview is the review fixture the real CLI wrote for the stack `e2e` of
 * the project `review-e2e` (test/review/fixtures/change.json: it deletes the
 * group badge `legacy` of acme, here one alice made); the stack here is a real
 * one of that name, with a file backend and a passphrase. No engine runs: the
 * review reads the stack's config only.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { PulumiProgram, repoRoot, type RunResult } from "../../scripts/pulumi-workspace.mts";
import { run as runCommand } from "./template-jobs";

const CHANGE = readFileSync(path.join(repoRoot, "test/review/fixtures/change.json"), "utf8");
const LEGACY = "urn:pulumi:e2e::review-e2e::pulumi-nodejs:dynamic/platform:Badge::legacy";

let emulator: Emulator;
let program: PulumiProgram;
let work: string;
/** The id of the group badge the preview deletes: one alice made. */
let badgeId: number;

const as = (user: string) => new PlatformClient({ url: emulator.url, token: emulator.tokens[user]!, retryBaseDelayMs: 10 });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  badgeId = (await as("alice").post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, { link_url: "https://legacy.example.com", image_url: "https://legacy.example.com/b.svg", name: "legacy" })).id;
  work = mkdtempSync(path.join(tmpdir(), "review-config-token-"));
  const source = path.join(work, "source");
  mkdirSync(source);
  // The project of the fixture's URNs; its program never runs here.
  writeFileSync(path.join(source, "Pulumi.yaml"), "name: review-e2e\nruntime: nodejs\n");
  program = await PulumiProgram.create({ programDir: source, stack: "e2e", secretsProvider: "passphrase", secrets: { "platform:url": emulator.url, "platform:token": emulator.tokens.dev! } });
}, 5 * 60_000);

afterAll(async () => {
  program?.dispose();
  rmSync(work, { recursive: true, force: true });
  await closeAllPools();
  await emulator?.stop();
});

/** The preview as the CLI wrote it: the stack's URL and token shown as `[secret]`; its delete, of alice's badge. */
function previewFile(): string {
  const preview = JSON.parse(CHANGE) as { config: Record<string, string>; steps: { op: string; oldState?: { id?: string } }[] };
  preview.config = { ...preview.config, "platform:url": "[secret]", "platform:token": "[secret]" };
  for (const step of preview.steps) if (step.op === "delete") step.oldState!.id = `groups/acme/badges/${badgeId}`;
  const file = path.join(work, `preview-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(preview, null, 4));
  return file;
}

/** platform-review as the preview job runs it: its bin, in the program's directory, with the stack's environment and no platform variable. */
function review(file: string, env: Record<string, string> = {}): Promise<RunResult> {
  const args = [path.join(repoRoot, "bin/platform-review.js"), "--preview", file, "--verify-deletes", "--json", `${file}.review.json`];
  const { PLATFORM_READ_TOKEN: _read, PLATFORM_REVIEW_TOKEN: _review, ...inherited } = program.env;
  return runCommand(process.execPath, args, { cwd: program.dir, env: { ...inherited, ...env } });
}

const diagnosticsIn = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { diagnostics?: { urn?: string; message: string; severity: string }[] }).diagnostics ?? [];

/** Every file under `dir` (the program's copy, the backend, PULUMI_HOME, the preview files), its text; links not followed (the program's node_modules). */
function filesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(file);
    return entry.isFile() ? [{ file, text: readFileSync(file, "latin1") }] : [];
  });
}

function expectNowhere(secret: string, run: RunResult): void {
  expect(run.stdout).not.toContain(secret);
  expect(run.stderr).not.toContain(secret);
  for (const { file, text } of [...filesUnder(work), ...filesUnder(program.root)]) expect(text.includes(secret), file).toBe(false);
}

describe.sequential("deletes verified with the token of the stack's config, through the real Pulumi CLI", { timeout: 2 * 60_000 }, () => {
  it("dev's token in the config (Developer of acme): the badge's delete is refused, as the server refuses it; the token is nowhere", async () => {
    const file = previewFile();
    const run = await review(file);
    expect(run.code, run.stderr).toBe(1);
    expect(diagnosticsIn(file).filter((d) => d.severity === "error")).toEqual([
      {
        urn: LEGACY,
        severity: "error",
        message: `Badge: could not delete groups/acme/badges/${badgeId}: group: the token's user (dev) needs the Owner role on group acme for Badge, and is Developer there`,
      },
    ]);
    expect(run.stdout).toContain("**The preview failed:** 1 problem");
    expectNowhere(emulator.tokens.dev!, run);
    await expect(as("dev").delete(apiPath`/groups/${"acme"}/badges/${badgeId}`)).rejects.toMatchObject({ status: 403 });
  });

  it("alice's token in the config (Owner of acme): passes, before a PLATFORM_TOKEN that would be refused, as the provider takes them", async () => {
    await program.setConfig("platform:token", emulator.tokens.alice!, { secret: true });
    const file = previewFile();
    const before = readFileSync(file, "utf8");
    const run = await review(file);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(before);
    const withEnvironment = previewFile();
    const second = await review(withEnvironment, { PLATFORM_TOKEN: emulator.tokens.dev! });
    expect(second.code, second.stderr).toBe(0);
    expect(diagnosticsIn(withEnvironment)).toEqual(diagnosticsIn(file));
    expectNowhere(emulator.tokens.alice!, run);
    expectNowhere(emulator.tokens.alice!, second);
  });

  it("a config the CLI cannot decrypt: not verified, a warning naming the key and the CLI's error, never the value", async () => {
    const file = previewFile();
    const run = await review(file, { PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase" });
    expect(run.code, run.stderr).toBe(0);
    expect(diagnosticsIn(file).at(-1)).toEqual({
      severity: "warning",
      message:
        "The deletes of this preview were not verified against the server (platform:token, platform:url, kept as secrets in the stack's config, could not be read with " +
        "`pulumi config --show-secrets --json --stack e2e`: error: incorrect passphrase); `pulumi up` will show the server's answer.",
    });
    expectNowhere(emulator.tokens.alice!, run);
  });

  it("the server agrees: alice's delete goes through", async () => {
    await as("alice").delete(apiPath`/groups/${"acme"}/badges/${badgeId}`);
    await expect(as("alice").get(apiPath`/groups/${"acme"}/badges/${badgeId}`)).rejects.toMatchObject({ status: 404 });
  });
});
