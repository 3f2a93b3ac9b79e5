/**
 * Writes the previews of what a report must name right (test/review/fixtures,
 * `naming*.json`), made by the real CLI against the emulator with the program
 * test/e2e/programs/review-naming, as the `maintainer` seed user: a badge moved
 * to another project, a takeover an only-these set keeps, a schedule whose
 * owner is someone else changed with `takeOwnership`, and an apply of a saved
 * plan whose program dropped a resource the plan creates.
 *
 *   node scripts/make-review-naming-fixtures.mts     (after npm run build)
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator } from "pulumi-platform/emulator";
import { PulumiProgram, repoRoot } from "./pulumi-workspace.mts";

const fixtures = path.join(repoRoot, "test/review/fixtures");
const emulator = await startEmulator({ port: 0 });
const token = emulator.tokens.maintainer!;
const maintainer = new PlatformClient({ url: emulator.url, token });
const alice = new PlatformClient({ url: emulator.url, token: emulator.tokens.alice! });
const program = await PulumiProgram.create({
    secretsProvider: "passphrase", // a fixture outlives this process, and its key service's key
  programDir: "test/e2e/programs/review-naming",
  transpileOnly: true,
  config: { "platform:url": emulator.url },
  secrets: { "platform:token": token },
  env: { PULUMI_EXPERIMENTAL: "true" },
});

/** The CLI's JSON, with the emulator's port and the program's temporary directory made stable (the fixtures are compared as text). */
async function save(name: string, args: string[]): Promise<void> {
  const { stdout } = await program.cli(args, { allowFailure: true });
  // `up --json` writes every engine event; its debug messages are not read by the review.
  const kept = stdout.split("\n").filter((line) => !line.includes('"severity":"debug"'));
  writeFileSync(path.join(fixtures, name), kept.join("\n").replaceAll(emulator.url, "http://127.0.0.1:8080").replaceAll(program.root, "/tmp/review-naming"));
}

try {
  await program.up();
  // Someone else made a badge by hand, and took the schedule over: its pipelines now run as alice.
  await maintainer.post(apiPath`/projects/${"acme/platform/infra"}/badges`, { name: "handmade", link_url: "https://hand.example.com", image_url: "https://hand.example.com/b.svg" });
  const [schedule] = await maintainer.list<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`);
  await alice.post(apiPath`/projects/${"acme/web"}/pipeline_schedules/${schedule!.id}/take_ownership`, {});
  await program.refresh();
  await program.setConfig("phase", "change");
  await save("naming.json", ["preview", "--json"]);
  const plan = path.join(program.root, "plan.json");
  await program.cli(["preview", "--save-plan", plan]);
  program.env.REVIEW_NAMING_STRAYED = "true";
  await save("naming-strayed.json", ["up", "--yes", "--skip-preview", "--json", "--plan", plan]);
} finally {
  program.dispose();
  await closeAllPools();
  await emulator.stop();
}
