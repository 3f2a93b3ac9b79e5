/**
 * Writes test/e2e/fixtures/state-<commit>.json: the state a version of this
 * package wrote for a program of the upgrade-path test
 * (test/e2e/upgrade.e2e.test.ts), after a first `pulumi up` on a fresh
 * emulator with its default seed, as `pulumi stack export` gives it. The
 * emulator's URL is replaced by `http://emulator.invalid`, which the test
 * replaces by its own emulator's. The project badge is created first (its own
 * `up --target`), as the test does, since project and group badges share one
 * id sequence.
 *
 * An earlier release, with the program it shipped with (test/e2e/programs/upgrade):
 * run it with that release's checkout, built, beside this one:
 *
 *     git worktree add /tmp/old 65b9cf0 && (cd /tmp/old && npm ci && npx tsc -p tsconfig.build.json)
 *     npx node scripts/make-upgrade-fixture.mts /tmp/old 65b9cf0
 *
 * The program runs from that checkout's node_modules (its `pulumi-platform`
 * link points at that checkout), so the state holds that release's provider.
 *
 * The current checkout, with the program of today's life cycles
 * (test/e2e/programs/upgrade-current), before a change that must keep its
 * state working (a refactor of the engine or of resources): with no change to
 * src/ since the last commit,
 *
 *     npm run build && npx node scripts/make-upgrade-fixture.mts --current
 *
 * writes state-<HEAD's short commit>.json (the commit as it is, which is why
 * src/ must be clean); list it in the test's `FIXTURES` to keep it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const UPGRADE_FIXTURE_URL = "http://emulator.invalid";

/** The stack config the upgrade programs need besides the URL and the token (see their index.ts). */
export const upgradeProgramSecrets = { deployToken: "deploy-upgrade-test-51c9", webhook: "https://chat.example.com/hooks/upgrade-test-0e7b" };

/** A program of the upgrade test and what its first `up` expects on the server. */
export interface UpgradeProgram {
  /** Relative to the repository. */
  programDir: string;
  /** Out-of-band set-up before the first `up` (objects the program takes over), through the API with the administrator's token. */
  prepare?(apiUrl: string, token: string): Promise<void>;
}

/** The group badge test/e2e/programs/upgrade-current takes over, as someone made it by hand. */
export const handMadeBadge = { name: "coverage", link_url: "https://coverage.example.com/old", image_url: "https://img.shields.io/badge/coverage-report-green" };

export const UPGRADE_PROGRAMS = {
  /** Release 0.1.0's life cycles: plain objects, secrets, a settings resource. */
  release010: { programDir: "test/e2e/programs/upgrade" },
  /** Today's: those, and a takeover, an exclusive set, a SAML link, a trigger resource, a cleanup rule. */
  current: {
    programDir: "test/e2e/programs/upgrade-current",
    async prepare(apiUrl, token) {
      const answer = await fetch(`${apiUrl}/groups/acme/badges`, {
        method: "POST",
        headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" },
        body: JSON.stringify(handMadeBadge),
      });
      if (answer.status !== 201) throw new Error(`making the hand-made badge: ${answer.status} ${await answer.text()}`);
    },
  },
} satisfies Record<string, UpgradeProgram>;

/** The URN of the program's project badge, which the first `up` creates alone. */
function projectBadgeUrn(programDir: string, stack: string): string {
  const project = /^name:\s*(\S+)/m.exec(readFileSync(path.join(programDir, "Pulumi.yaml"), "utf8"))![1];
  return `urn:pulumi:${stack}::${project}::pulumi-nodejs:dynamic/platform:Badge::pipeline`;
}

async function makeFixture(checkout: string, commit: string, upgradeProgram: UpgradeProgram): Promise<void> {
  const here = path.resolve(import.meta.dirname, "..");
  const { PulumiProgram } = await import(path.join(checkout, "scripts/pulumi-workspace.mts"));
  const { startEmulator } = await import(path.join(checkout, "dist/emulator/index.js"));
  const emulator = await startEmulator({ port: 0 });
  const programDir = path.join(here, upgradeProgram.programDir);
  await upgradeProgram.prepare?.(`${emulator.url}/api/v4`, emulator.tokens.root);
  const program = await PulumiProgram.create({
    secretsProvider: "passphrase", // a fixture outlives this process, and its key service's key
    programDir,
    transpileOnly: true,
    config: { "platform:url": emulator.url },
    secrets: { "platform:token": emulator.tokens.root, ...upgradeProgramSecrets },
  });
  try {
    await program.up("--target", projectBadgeUrn(programDir, program.stack));
    await program.up();
    const text: string = (await program.cli(["stack", "export"])).stdout;
    const file = path.join(here, `test/e2e/fixtures/state-${commit}.json`);
    writeFileSync(file, text.replaceAll(emulator.url, UPGRADE_FIXTURE_URL));
    console.log(`wrote ${file}`);
  } finally {
    program.dispose();
    await emulator.stop();
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (args[0] === "--current") {
    const here = path.resolve(import.meta.dirname, "..");
    const git = (...gitArgs: string[]) => execFileSync("git", gitArgs, { cwd: here, encoding: "utf8" }).trim();
    if (git("status", "--porcelain", "--", "src")) throw new Error("src/ has changes since the last commit: the fixture would not be that commit's state");
    await makeFixture(here, git("rev-parse", "--short=7", "HEAD"), UPGRADE_PROGRAMS.current);
  } else {
    const [earlierCheckout, commit] = args;
    if (!earlierCheckout || !commit) {
      throw new Error("usage: npx node scripts/make-upgrade-fixture.mts <earlier release's checkout, built> <its commit>\n       npx node scripts/make-upgrade-fixture.mts --current");
    }
    await makeFixture(earlierCheckout, commit, UPGRADE_PROGRAMS.release010);
  }
}
