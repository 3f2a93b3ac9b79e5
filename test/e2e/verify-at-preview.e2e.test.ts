/**
 * Previews that catch what the server will refuse (issue 15), with the real
 * Pulumi CLI: a program whose five resources each pass the static checks and
 * would each be refused at `up` (a missing group, a role too low, a tier too
 * low, a group setting its tier lacks, an object that already exists) fails
 * `pulumi preview` naming one (each one's words: test/engine/verify.test.ts);
 * `platform:verifyAtPreview false` lets the preview pass without reading the
 * server; with the server stopped, the preview passes with one warning.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import { defaultSeed, type Emulator, type Seed } from "pulumi-platform/emulator";
import { startProgramUnderTest, stopProgramUnderTest } from "./program-under-test";
import type { PulumiProgram } from "../../scripts/pulumi-workspace.mts";

/** The default seed and a Premium group `ops` where alice is a Developer. */
const seed: Seed = {
  ...defaultSeed,
  groups: [...(defaultSeed.groups ?? []), { path: "ops", name: "Ops", visibility: "private", tier: "premium", createdAt: "2024-05-01T09:00:00.000Z", members: { alice: 30 } }],
};

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;
let emulatorStopped = false;
let existingBadgeId: number;

beforeAll(async () => {
  ({ emulator, api, program } = await startProgramUnderTest({
    programDir: "test/e2e/programs/verify-at-preview",
    emulator: { seed },
    secrets: { "platform:token": "glpat-alice-token" },
    prepare: async (_emulator, admin) => {
      const badge = { name: "pipeline", link_url: "https://ci.example.com/%{project_path}", image_url: "https://ci.example.com/%{project_path}/badge.svg" };
      existingBadgeId = (await admin.post<{ id: number }>(apiPath`/projects/${"acme/web"}/badges`, badge)).id;
    },
  }));
}, 5 * 60_000);

afterAll(async () => {
  await stopProgramUnderTest({ program, emulator: emulatorStopped ? undefined : emulator });
});

/** What a preview printed, and how it ended. */
async function preview(): Promise<{ code: number; text: string }> {
  const result = await program.cli(["preview"], { allowFailure: true });
  return { code: result.code, text: result.stdout + result.stderr };
}

/** What each resource of the program misses, as the preview names it. */
const PROBLEMS: Record<string, (badgeId: number) => string> = {
  "missing-group": () => `group: group acme/missing does not exist, or the token's user (alice) cannot see it (private groups and projects are hidden from non-members)`,
  "too-low-role": () => "group: the token's user (alice) needs the Owner role on group ops for SamlGroupLink, and is Developer there",
  "too-low-tier": () => "group: group beta needs the Premium or Ultimate tier for SamlGroupLink, and it is on Free",
  "gated-setting": () => "membershipLock: group beta needs the Premium or Ultimate tier for this setting, and it is on Free",
  existing: (id) =>
    `a badge with this link and image named pipeline already exists in project acme/web (id projects/acme%2Fweb/badges/${id}): ` +
    `adopt it with the import option (import: "projects/acme%2Fweb/badges/${id}") or remove it`,
};

describe.sequential("verify at preview through the real engine", { timeout: 5 * 60_000 }, () => {
  it("a resource the server would refuse fails the preview, named with its object and the requirement it misses", async () => {
    // The engine stops at the first resource whose check fails (a check failure makes the resource invalid, and
    // the engine bails), so the preview fails naming one of the five; each one's words are checked in process,
    // through the provider objects the engine calls (test/engine/verify.test.ts).
    const { code, text } = await preview();
    expect(code, text).not.toBe(0);
    expect(Object.entries(PROBLEMS).some(([name, problem]) => text.includes(`resource '${name}' has a problem: ${problem(existingBadgeId)}`)), text).toBe(true);
    // Nothing was written: the previews only read.
    expect(await api.list(apiPath`/groups/${"ops"}/saml_group_links`)).toEqual([]);
    expect((await api.list<{ name: string }>(apiPath`/projects/${"acme/web"}/badges`)).filter((badge) => badge.name === "pipeline")).toHaveLength(1);
  });

  it("platform:verifyAtPreview false: the preview passes without asking the server", async () => {
    await program.setConfig("platform:verifyAtPreview", "false");
    try {
      const before = emulator.requestLog.length;
      const { code, text } = await preview();
      expect(code, text).toBe(0);
      expect(text).toMatch(/\+ 6 to create/); // the stack and the five resources
      expect(emulator.requestLog.slice(before)).toEqual([]);
    } finally {
      await program.cli(["config", "rm", "platform:verifyAtPreview"]);
    }
  });

  it("with the server stopped, the preview passes with one warning", async () => {
    await emulator.stop();
    emulatorStopped = true;
    const { code, text } = await preview();
    expect(code, text).toBe(0);
    expect(text).toMatch(/\+ 6 to create/);
    const warnings = text.match(/warning: The preview could not verify against the server what it would refuse/g) ?? [];
    // Once while the preview runs, once in its summary of diagnostics: one warning.
    expect(new Set(warnings).size, text).toBe(1);
    expect(text).toMatch(/The preview could not verify[^\n]*no answer from the server/);
  });
});
