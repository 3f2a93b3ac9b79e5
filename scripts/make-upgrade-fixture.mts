/**
 * Writes test/e2e/fixtures/state-<commit>.json: the state an earlier release
 * wrote for the upgrade-path test's program (test/e2e/programs/upgrade), after
 * a first `pulumi up` on a fresh emulator with its default seed, as
 * `pulumi stack export` gives it. The emulator's URL is replaced by
 * `http://emulator.invalid`, which the test replaces by its own emulator's.
 *
 * Run it with the earlier release's checkout, built, beside this one:
 *
 *     git worktree add /tmp/old 65b9cf0 && (cd /tmp/old && npm ci && npx tsc -p tsconfig.build.json)
 *     node scripts/make-upgrade-fixture.mts /tmp/old 65b9cf0
 *
 * The program runs from that checkout's node_modules (its `pulumi-platform`
 * link points at that checkout), so the state holds that release's provider.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";

export const UPGRADE_FIXTURE_URL = "http://emulator.invalid";

/** The stack config the upgrade program needs besides the URL and the token (see its index.ts). */
export const upgradeProgramSecrets = { deployToken: "deploy-upgrade-test-51c9", webhook: "https://chat.example.com/hooks/upgrade-test-0e7b" };

if (import.meta.main) {
  const [earlierCheckout, commit] = process.argv.slice(2);
  if (!earlierCheckout || !commit) throw new Error("usage: node scripts/make-upgrade-fixture.mts <earlier release's checkout, built> <its commit>");
  const here = path.resolve(import.meta.dirname, "..");
  const { PulumiProgram } = await import(path.join(earlierCheckout, "scripts/pulumi-workspace.mts"));
  const { startEmulator } = await import(path.join(earlierCheckout, "dist/emulator/index.js"));
  const emulator = await startEmulator({ port: 0 });
  const program = await PulumiProgram.create({
    programDir: path.join(here, "test/e2e/programs/upgrade"),
    transpileOnly: true,
    config: { "platform:url": emulator.url },
    secrets: { "platform:token": emulator.tokens.root, ...upgradeProgramSecrets },
  });
  try {
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
