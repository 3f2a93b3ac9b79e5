/**
 * A property the program gives as a secret is secret in what the provider
 * says, through the real Pulumi CLI: a badge taken over (`adoptExisting`)
 * with a secret `linkUrl` over one whose link holds another secret. The
 * preview's JSON (its takeover and its warning), platform-review's note of
 * it, a server's refusal that repeats both values, and the state after the
 * `up` hold neither value; the takeover names the field.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiPath } from "pulumi-platform";
import { main as review } from "../../src/review/cli";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

const OLD = "https://scan.example.com/?key=OLDSECRET-1234";
const SECRETS = /OLDSECRET-1234|NEWSECRET-5678/;

let started: Partial<ProgramUnderTest> = {};
let badgeId = 0;
const work = mkdtempSync(path.join(tmpdir(), "secret-inputs-"));

beforeAll(async () => {
  started = await startProgramUnderTest({
    programDir: "test/e2e/programs/secret-inputs",
    config: { "platform:verifyAtPreview": "true" },
    async prepare(_emulator, api) {
      badgeId = (await api.post<{ id: number }>(apiPath`/projects/${"acme/web"}/badges`, { name: "scan", link_url: OLD, image_url: "https://scan.example.com/badge.svg" })).id;
    },
  });
}, 300_000);
afterAll(async () => {
  await stopProgramUnderTest(started);
  rmSync(work, { recursive: true, force: true });
});

it("the preview, the review note, a refusal repeating both values and the state name the secret field, never its values", async () => {
  const { program, emulator } = started as ProgramUnderTest;
  const preview = await program.cli(["preview", "--json"]);
  expect(preview.stdout).toContain("linkUrl (secret, not shown)");
  expect(preview.stdout).not.toMatch(SECRETS);
  // The note platform-review writes of that preview.
  const file = path.join(work, "preview.json");
  writeFileSync(file, preview.stdout);
  let note = "";
  expect(await review(["--preview", file, "--stack", "e2e"], {}, (text) => (note += text))).toBe(0);
  expect(note).toContain("linkUrl");
  expect(note).not.toMatch(SECRETS);

  emulator.inject({
    method: "PUT",
    path: `/projects/acme%2Fweb/badges/${badgeId}`,
    status: 400,
    body: { message: { link_url: ["https://scan.example.com/?key=NEWSECRET-5678 is blocked", `${OLD} was there`] } },
  });
  const refused = await program.cli(["up", "--yes", "--skip-preview", "--json"], { allowFailure: true });
  expect(refused.code).not.toBe(0);
  expect(refused.stdout).toContain("[secret] is blocked");
  expect(refused.stdout + refused.stderr).not.toMatch(SECRETS);

  await program.up();
  expect(JSON.stringify(await program.exportStack())).not.toMatch(SECRETS);
  await program.preview("--expect-no-changes");
}, 600_000);
