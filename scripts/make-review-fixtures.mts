/**
 * Writes the previews the review's golden tests read (test/review/fixtures),
 * made by the real CLI against the emulator with the program of the review
 * test (test/e2e/programs/review): run it again after a change of the CLI's
 * output or of the program, then check the golden reports' differences.
 *
 *   node scripts/make-review-fixtures.mts
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator } from "pulumi-platform/emulator";
import { PulumiProgram, repoRoot } from "./pulumi-workspace.mts";

const fixtures = path.join(repoRoot, "test/review/fixtures");
const emulator = await startEmulator({ port: 0 });
const token = emulator.tokens.root!;
const api = new PlatformClient({ url: emulator.url, token });
const program = await PulumiProgram.create({
    secretsProvider: "passphrase", // a fixture outlives this process, and its key service's key
  programDir: "test/e2e/programs/review",
  transpileOnly: true,
  config: { "platform:url": emulator.url },
  secrets: { "platform:token": token, deployToken: "fixture-deploy-token-1" },
  env: { PULUMI_EXPERIMENTAL: "true" },
});

/** The CLI's JSON, with the emulator's port made stable (the fixtures are compared as text). */
async function save(name: string, args: string[]): Promise<void> {
  const { stdout } = await program.cli(args, { allowFailure: true });
  // `up --json` writes every engine event; its debug messages are not read by the review.
  const kept = stdout.split("\n").filter((line) => !line.includes('"severity":"debug"'));
  writeFileSync(path.join(fixtures, name), kept.join("\n").replaceAll(emulator.url, "http://127.0.0.1:8080"));
}

try {
  await save("new-stack.json", ["preview", "--json"]);
  await program.up();
  await api.post("/groups/acme/badges", { name: "handmade", link_url: "https://hand.example.com", image_url: "https://hand.example.com/b.svg" });
  await api.post("/groups/acme/badges", { name: "stray", link_url: "https://stray.example.com", image_url: "https://stray.example.com/b.svg" });
  await api.put("/groups/acme/badges/2", { link_url: "https://drifted.example.com" });
  await save("drift.json", ["preview", "--json", "--refresh", "--expect-no-changes"]);
  await program.setConfig("phase", "change");
  await program.setConfig("deployToken", "fixture-deploy-token-2", { secret: true });
  await save("change.json", ["preview", "--json"]);
  await save("change-refresh.json", ["preview", "--json", "--refresh"]);
  await program.setConfig("phase", "broken");
  await save("refused.json", ["preview", "--json"]);
  await program.setConfig("phase", "change");
  await save("applied.json", ["up", "--yes", "--json", "--refresh"]);
} finally {
  program.dispose();
  await closeAllPools();
  await emulator.stop();
}
