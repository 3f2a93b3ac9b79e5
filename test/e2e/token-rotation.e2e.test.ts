/**
 * Token rotation and errors printed once, with the real CLI (issue 15,
 * "Operating"). The stack's token is alice's first token; it is revoked on the
 * server and `platform:token` is set to her second one, as a team does when a
 * token expires. `pulumi refresh`, `pulumi destroy` and `pulumi up --refresh`
 * configure the provider from the config stored at the last `up` (see
 * src/engine/stored-config.ts), so they send the revoked token: each must say
 * that, once, with the command that fixes it, and that command must work.
 * The stack holds four badges and a SAML group link: the explanation is
 * given in full once per run, every other resource it stops says it briefly,
 * and the SAML group link (whose API answers 401 for a tier or a role too)
 * says the same as the badges.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import type { RunResult, StackExport } from "../../scripts/pulumi-workspace.mts";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

const FIRST_TOKEN = "glpat-alice-first-0001";
const BADGES = ["api", "coverage", "docs", "status"];
/** What each resource stopped by the stored token says, in the full form or the short one. */
const storedTokenRefused = "the server refused the platform:token stored in the stack at the last `pulumi up`";
/** The explanation's own words, which only its full form has. */
const FULL_FORM = "do not run the program, so they use that stored copy";
const SECOND_TOKEN = "glpat-alice-second-0002";

/** The default seed, with alice (Owner of acme) holding two tokens. */
const seed: Seed = {
  ...defaultSeed,
  users: (defaultSeed.users ?? []).map((user) => (user.username === "alice" ? { ...user, token: undefined, tokens: [FIRST_TOKEN, SECOND_TOKEN] } : user)),
};

/** The lines under "Diagnostics:" (the summary the CLI prints at the end). */
function diagnostics(run: RunResult): string {
  const start = run.stdout.indexOf("Diagnostics:");
  const end = run.stdout.indexOf("\nResources:", start);
  return start < 0 ? "" : run.stdout.slice(start, end < 0 ? undefined : end);
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

/**
 * What every failing run must show: each of the five resources stopped, once in the summary, saying the stored
 * token was refused (the badges and the SAML group link alike); the full explanation for one resource only; no
 * copy on the stack and no line ending in ": ".
 */
function expectSaidOnce(run: RunResult, operation: "read" | "delete"): void {
  expect(run.code).not.toBe(0);
  const summary = diagnostics(run);
  const method = operation === "read" ? "GET" : "DELETE";
  const said = `failed with 401 (401 Unauthorized): ${storedTokenRefused}`;
  expect(occurrences(summary, said), summary).toBe(5);
  expect(summary.match(new RegExp(`Badge: could not ${operation} groups/acme/badges/\\d+\\. ${method} /groups/acme/badges/\\d+ ${said.replace(/[()`]/g, "\\$&")}`, "g")), summary).toHaveLength(4);
  expect(summary).toMatch(new RegExp(`SamlGroupLink: could not ${operation} groups/acme/saml_group_links/platform-developers\\. `));
  expect(occurrences(summary, FULL_FORM), summary).toBe(1);
  // The engine echoes each resource's error in its progress lines (twice); the full form is only ever the one resource's.
  const fullLines = `${run.stdout}\n${run.stderr}`.split("\n").filter((line) => line.includes(FULL_FORM));
  expect(new Set(fullLines.map((line) => /could not \w+ (\S+)\./.exec(line)?.[1])).size, fullLines.join("\n")).toBe(1);
  // The host's console copy of an error was shown as a diagnostic of the stack, as `Error: <message>: `.
  expect(run.stdout).not.toMatch(/Error: (Badge|SamlGroupLink): could not/);
  const lines = `${run.stdout}\n${run.stderr}`.split("\n");
  expect(lines.filter((line) => line.includes(storedTokenRefused) && line.trimEnd().endsWith(":"))).toEqual([]);
}

describe.sequential("token rotation with the real Pulumi CLI", { timeout: 5 * 60_000 }, () => {
  let started: ProgramUnderTest;
  /** The state once the token was rotated: its last `up` stored the first token, which the server has since revoked. */
  let rotated: StackExport;
  const badges = async () => (await started.api.list<{ id: number; name: string }>(apiPath`/groups/${"acme"}/badges`)).map((badge) => badge.name);

  /** The stack's state back to `rotated`, whatever a test before did to it (the config holds the second token until the last test). */
  const fromRotated = () => started.program.importStack(rotated);

  /**
   * The reads of the stack's five objects that `run` sent, as "<status> <path>", and every refused request: all
   * five read with a token the server accepts, and nothing refused, when the run used the second token.
   */
  async function readsDuring(run: () => Promise<unknown>): Promise<{ reads: string[]; refused: string[] }> {
    const mark = started.emulator.mark();
    await run();
    const requests = started.emulator.requestsSince(mark);
    const objectPath = /^\/api\/v4\/groups\/acme\/(badges\/\d+|saml_group_links\/platform-developers)$/;
    return {
      reads: requests.filter((request) => request.method === "GET" && objectPath.test(request.path)).map((request) => `${request.status} ${request.path.replace(/\d+$/, "<id>")}`).sort(),
      refused: requests.filter((request) => request.status === 401).map((request) => `${request.method} ${request.path}`),
    };
  }
  const READ_WITH_THE_SECOND_TOKEN = { reads: [...Array(4).fill("200 /api/v4/groups/acme/badges/<id>"), "200 /api/v4/groups/acme/saml_group_links/platform-developers"], refused: [] };

  beforeAll(async () => {
    started = await startProgramUnderTest({
      programDir: "test/e2e/programs/operating",
      emulator: { seed },
      config: { moreResources: "true" },
      secrets: { "platform:token": FIRST_TOKEN },
    });
    await started.program.up();
    expect((await badges()).sort()).toEqual(BADGES);
    // The first token is revoked on the server (as the administrator), and the stack moves to the second.
    const revoked = await started.api.post<{ revoked: boolean }>(apiPath`/groups/${"acme"}/tokens/revoke`, { token: FIRST_TOKEN });
    expect(revoked.revoked).toBe(true);
    await started.program.setConfig("platform:token", SECOND_TOKEN, { secret: true });
    rotated = await started.program.exportStack();
  }, 10 * 60_000);

  afterAll(() => stopProgramUnderTest(started ?? {}));


  it("pulumi refresh says the stored token was refused, once, and names pulumi refresh --run-program", async () => {
    const run = await started.program.cli(["refresh", "--yes", "--skip-preview"], { allowFailure: true });
    expectSaidOnce(run, "read");
    expect(diagnostics(run)).toContain("Run `pulumi refresh --run-program` (or `pulumi up --refresh --run-program`) to use the current platform:token.");
  });

  it("pulumi up --refresh says the same", async () => {
    const run = await started.program.cli(["up", "--yes", "--skip-preview", "--refresh"], { allowFailure: true });
    expectSaidOnce(run, "read");
  });

  it("pulumi destroy says so and names pulumi destroy --run-program; nothing is deleted", async () => {
    const run = await started.program.cli(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
    expectSaidOnce(run, "delete");
    expect(diagnostics(run)).toContain("Run `pulumi destroy --run-program` to use the current platform:token.");
    expect((await badges()).sort()).toEqual(BADGES);
  });

  it("the commands named work with the new token: refresh --run-program and up --refresh --run-program", async () => {
    await fromRotated();
    expect(await readsDuring(() => started.program.cli(["refresh", "--yes", "--skip-preview", "--run-program"]))).toEqual(READ_WITH_THE_SECOND_TOKEN);
    await fromRotated();
    expect(await readsDuring(() => started.program.cli(["up", "--yes", "--skip-preview", "--refresh", "--run-program"]))).toEqual(READ_WITH_THE_SECOND_TOKEN);
    await started.program.preview("--expect-no-changes");
    expect((await badges()).sort()).toEqual(BADGES);
  });

  it("once an up has stored the new token, plain pulumi refresh uses it", async () => {
    // The state as the test before left it: its last command, `up --refresh --run-program`, stored the new token as every `up` does.
    expect(await readsDuring(() => started.program.refresh())).toEqual(READ_WITH_THE_SECOND_TOKEN);
  });

  it("pulumi destroy --run-program deletes with the new token", async () => {
    await started.program.cli(["destroy", "--yes", "--skip-preview", "--run-program"]);
    expect(await badges()).toEqual([]);
  });

  it("a preview with a token the server refuses: the verification and the data function say it in the same words, the function's not as an unhandled exception", async () => {
    await started.program.setConfig("platform:token", "glpat-never-issued-0003", { secret: true });
    const result = await started.program.cli(["preview"], { allowFailure: true });
    expect(result.code).not.toBe(0);
    const run = `${result.stdout}\n${result.stderr}`;
    const refused = "The server refused the token in platform:token (or PLATFORM_TOKEN): it is mistyped, expired or revoked; set a valid one with `pulumi config set --secret platform:token <token>`.";
    expect(run).toContain(`getMetadata: could not read the instance metadata. GET /metadata failed with 401: 401 Unauthorized. ${refused}`);
    expect(run).toContain(`GET /user failed with 401: 401 Unauthorized. ${refused}`);
    const about401 = run.split("\n").filter((line) => line.includes("401"));
    expect(about401.filter((line) => !line.includes(refused))).toEqual([]);
    expect(run).not.toContain("unhandled exception");
    expect(run).not.toContain("glpat-never-issued-0003");
  });
});

/**
 * The pipeline's stacks keep no token in their config: the jobs give it in
 * PLATFORM_TOKEN. The stack's config stored at the last `up` then has none
 * (earlier templates stored an empty one, as here), and a teammate's
 * `preview --refresh` or `refresh` without PLATFORM_TOKEN must say what works
 * (the environment, or `--run-program`), once, with no stack trace, not the
 * config's advice, which does not reach the stored copy.
 */
describe.sequential("a stack whose stored config has no token", { timeout: 5 * 60_000 }, () => {
  let started: ProgramUnderTest;
  const FULL = "do not run the program, so they use that stored copy";
  const SAID = "the stack's config stored at the last `pulumi up` has no platform:token";

  beforeAll(async () => {
    started = await startProgramUnderTest({ programDir: "test/e2e/programs/operating", config: { moreResources: "true" } });
    await started.program.setConfig("platform:token", "");
    started.program.env.PLATFORM_TOKEN = started.emulator.tokens.root!;
    await started.program.up();
    delete started.program.env.PLATFORM_TOKEN;
  }, 10 * 60_000);

  afterAll(() => stopProgramUnderTest(started ?? {}));

  it("preview --refresh and refresh without PLATFORM_TOKEN say what works, once, without a stack trace", async () => {
    for (const args of [["preview", "--refresh"], ["refresh", "--yes", "--skip-preview"]]) {
      const run = await started.program.cli(args, { allowFailure: true });
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.code, args.join(" ")).not.toBe(0);
      const summary = diagnostics(run);
      expect(occurrences(summary, FULL), summary).toBe(1);
      expect(summary).toContain(`${SAID}. `);
      expect(summary).toContain("Set PLATFORM_TOKEN in the environment for this command");
      expect(summary).toContain("`pulumi refresh --run-program`");
      // Not the config's advice, and no stack trace of the host's copy.
      expect(output).not.toContain("pulumi config set --secret platform:token");
      expect(output).not.toMatch(/\n\s+at .*\.js:\d+/);
      expect(output).not.toMatch(/Error: (Badge|SamlGroupLink): could not/);
    }
  });

  it("with PLATFORM_TOKEN the same commands work", async () => {
    started.program.env.PLATFORM_TOKEN = started.emulator.tokens.root!;
    try {
      await started.program.cli(["preview", "--refresh"]);
      await started.program.refresh();
    } finally {
      delete started.program.env.PLATFORM_TOKEN;
    }
  });
});
