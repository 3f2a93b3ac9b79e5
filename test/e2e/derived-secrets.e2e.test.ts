/**
 * Secrecy follows derivation, through the real Pulumi CLI: a badge's
 * `linkUrl` given as `pulumi.secret(...)` comes back from the server rendered
 * (`renderedLinkUrl`), and that output is as secret as the input: the planted
 * value is in no stack export, no `preview --refresh --json`, no scrubbed
 * copy of `up --json` (what the apply job keeps as `up-events-<stack>.json`),
 * and the program's own output of it is secret. What the server renders from
 * a plain input stays shown.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main as review } from "../../src/review/cli";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

/** Planted in the program's secret link; the server renders `%{project_path}` in it, so the rendered URL holds this too. */
const PLANTED = "derived-secret-link-5b8e0d";

let started: Partial<ProgramUnderTest> = {};
const work = mkdtempSync(path.join(tmpdir(), "derived-secrets-"));

beforeAll(async () => {
  started = await startProgramUnderTest({ programDir: "test/e2e/programs/derived-secrets" });
}, 300_000);
afterAll(async () => {
  await stopProgramUnderTest(started);
  rmSync(work, { recursive: true, force: true });
});

it("renderedLinkUrl of a secret linkUrl is secret in the state, the refreshing preview, the kept events and the program's output", async () => {
  const { program, api } = started as ProgramUnderTest;
  const up = await program.up("--json");
  // The server rendered the planted value into the badge it made.
  const [badge] = await api.list<{ rendered_link_url: string }>("/projects/acme%2Fweb/badges");
  expect(badge!.rendered_link_url).toBe(`https://scan.example.com/acme/web?key=${PLANTED}`);

  // The apply job keeps only the scrubbed events: the SDK's debug events print every secret whatever we do.
  const raw = path.join(work, "up.json");
  const kept = path.join(work, "up-events-e2e.json");
  writeFileSync(raw, up.stdout);
  expect(await review(["--up", raw, "--scrubbed", kept, "--quiet"], {}, () => undefined)).toBe(0);
  expect(readFileSync(kept, "utf8")).not.toContain(PLANTED);

  const state = JSON.stringify(await program.exportStack());
  expect(state).not.toContain(PLANTED);
  const resource = (await program.exportStack()).deployment.resources!.find((r) => r.urn.endsWith("::scan"))!;
  expect(resource.outputs!.renderedLinkUrl).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
  expect(resource.outputs!.renderedImageUrl).toBe("https://scan.example.com/acme/web/badge.svg");

  const refreshing = await program.cli(["preview", "--refresh", "--json"]);
  expect(refreshing.stdout).toContain('"renderedLinkUrl": "[secret]"');
  expect(refreshing.stdout).not.toContain(PLANTED);
  expect(JSON.stringify(await program.exportStack())).not.toContain(PLANTED);

  // The program's output of it is secret too: the stack's outputs show it masked.
  const outputs = await program.cli(["stack", "output", "--json"]);
  expect(JSON.parse(outputs.stdout)).toEqual({ rendered: "[secret]", image: "https://scan.example.com/acme/web/badge.svg" });

  await program.preview("--expect-no-changes");
}, 600_000);
