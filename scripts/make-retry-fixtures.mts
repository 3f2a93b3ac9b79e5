/**
 * Writes the previews of an apply that failed part way and of its retry
 * (test/review/fixtures/retry-*.json), made by the real CLI against the
 * emulator with test/e2e/programs/retry-after-failure: the reviewed preview;
 * the apply, in which the server refuses a variable of the schedule after
 * creating the schedule (the create fails with the schedule made) and the
 * replacement of the link is cut before the old link's delete; the retry's
 * preview; the same once the missing variable was set by hand (nothing left to
 * do for the schedule); and the retry's apply. Then, on a stack of its own, a
 * replacement that deletes first cut between its halves (the server refuses
 * the new link): the reviewed preview, the failed apply, and the retry's
 * preview (retry-delete-first-*.json).
 *
 *   npm run build && node scripts/make-retry-fixtures.mts
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator } from "pulumi-platform/emulator";
import { PulumiProgram, repoRoot } from "./pulumi-workspace.mts";

const fixtures = path.join(repoRoot, "test/review/fixtures");
const emulator = await startEmulator({ port: 0 });
const token = emulator.tokens.root!;
const api = new PlatformClient({ url: emulator.url, token });

/** The program on a stack of its own, with `config` besides the server and its secrets. */
const programWith = (config: Record<string, string>) =>
  PulumiProgram.create({
    secretsProvider: "passphrase", // a fixture outlives this process, and its key service's key
    programDir: "test/e2e/programs/retry-after-failure",
    transpileOnly: true,
    config: { "platform:url": emulator.url, ...config },
    secrets: { "platform:token": token, deployToken: "fixture-deploy-token-1" },
    env: { PULUMI_EXPERIMENTAL: "true" },
  });

/** The CLI's JSON without the SDK's debug events (which print secrets), the emulator's port made stable. */
async function save(program: PulumiProgram, name: string, args: string[]): Promise<void> {
  const { stdout } = await program.cli(args, { allowFailure: true });
  const kept = stdout.split("\n").filter((line) => !line.includes('"severity":"debug"'));
  const text = kept.join("\n").replaceAll(emulator.url, "http://127.0.0.1:8080");
  if (text.includes("fixture-deploy-token-1")) throw new Error(`${name} holds the secret's value`);
  writeFileSync(path.join(fixtures, name), text);
}

const programs: PulumiProgram[] = [];
try {
  const program = await programWith({});
  programs.push(program);
  await program.up();
  await program.setConfig("phase", "change");
  await save(program, "retry-reviewed.json", ["preview", "--json", "--refresh"]);
  emulator.inject({ method: "POST", path: /pipeline_schedules\/\d+\/variables$/, status: 400, body: { message: { key: ["is refused by the fixture"] } } });
  // Deletes run last: the failed create stops the engine first, but an unlucky order must not delete the old link either.
  emulator.inject({ method: "DELETE", path: /saml_group_links\/platform-ops/, status: 400, body: { message: "refused by the fixture" } });
  await save(program, "retry-failed-up.json", ["up", "--yes", "--skip-preview", "--json", "--refresh"]);
  emulator.clearFaults();
  await save(program, "retry-preview.json", ["preview", "--json", "--refresh"]);
  const [schedule] = await api.list<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`);
  await api.post(apiPath`/projects/${"acme/web"}/pipeline_schedules/${schedule!.id}/variables`, { key: "DEPLOY_ENVIRONMENT", value: "production" });
  await save(program, "retry-nothing-left.json", ["preview", "--json", "--refresh"]);
  await save(program, "retry-up.json", ["up", "--yes", "--skip-preview", "--json", "--refresh"]);

  const deleteFirst = await programWith({ replacement: "delete-first" });
  programs.push(deleteFirst);
  await deleteFirst.up();
  await deleteFirst.setConfig("phase", "change");
  await save(deleteFirst, "retry-delete-first-reviewed.json", ["preview", "--json", "--refresh"]);
  emulator.inject({ method: "POST", path: /saml_group_links$/, status: 400, body: { message: "refused by the fixture" } });
  await save(deleteFirst, "retry-delete-first-failed-up.json", ["up", "--yes", "--skip-preview", "--json", "--refresh"]);
  emulator.clearFaults();
  await save(deleteFirst, "retry-delete-first-preview.json", ["preview", "--json", "--refresh"]);
} finally {
  for (const program of programs) program.dispose();
  await closeAllPools();
  await emulator.stop();
}
