/**
 * The badges example driven by the real Pulumi CLI against a fresh emulator:
 * up, a clean second preview, a configuration change (in-place updates and a
 * replacement), refresh after out-of-band changes, no secrets in the state,
 * adoption, destroy back to the starting point, and old state run by today's code.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { changedInputs, ensurePulumiCli, PulumiProgram, repoRoot, stepsByName, type StackExport } from "../../scripts/pulumi-workspace.mts";

interface LiveBadge {
  id: number;
  name: string | null;
  link_url: string;
  image_url: string;
  kind: string;
}

let emulator: Emulator;
let program: PulumiProgram;
let admin: PlatformClient;
const timings: Record<string, number> = {};

const projectBadges = async (project = "acme/web") =>
  (await admin.list<LiveBadge>(apiPath`/projects/${project}/badges`)).filter((badge) => badge.kind === "project");
const groupBadges = (group = "acme") => admin.list<LiveBadge>(apiPath`/groups/${group}/badges`);
const summary = (badges: LiveBadge[]) => badges.map((badge) => `${badge.name} ${badge.link_url}`).sort();

/** Runs one scenario and records its wall time for the report. */
async function timed<T>(name: string, action: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await action();
  } finally {
    timings[name] = (Date.now() - start) / 1000;
  }
}

let before: { project: string[]; api: string[]; group: string[]; beta: string[] };
let handMade: LiveBadge;

beforeAll(async () => {
  await timed("CLI ready (build or cache)", async () => ensurePulumiCli());
  emulator = await startEmulator({ port: 0 });
  admin = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
  before = { project: summary(await projectBadges()), api: summary(await projectBadges("acme/api")), group: summary(await groupBadges()), beta: summary(await groupBadges("beta")) };
  // A badge made by hand before the program existed; the program declares it with adoptExisting.
  handMade = await admin.post<LiveBadge>(apiPath`/projects/${"acme/web"}/badges`, {
    name: "coverage",
    link_url: "https://old-ci.example.com/coverage",
    image_url: "https://old-ci.example.com/coverage.svg",
  });
  program = await PulumiProgram.create({
    example: "badges",
    transpileOnly: true,
    config: { "platform:url": emulator.url },
    secrets: { "platform:token": emulator.tokens.root! },
  });
}, 20 * 60_000);

afterAll(async () => {
  program?.dispose();
  await closeAllPools();
  await emulator?.stop();
  console.log("end-to-end wall times (s):", JSON.stringify(timings));
});

describe.sequential("badges example with the real Pulumi CLI", { timeout: 5 * 60_000 }, () => {
  it("1. up creates exactly the declared badges and adopts the hand-made one", async () => {
    await timed("1 up", () => program.up());
    const web = await projectBadges();
    expect(web.map((badge) => badge.name).sort()).toEqual(["coverage", "pipeline"]);
    expect(web.find((badge) => badge.name === "coverage")!.id).toBe(handMade.id);
    expect(web.find((badge) => badge.name === "coverage")!.link_url).toBe("https://ci.example.com/%{project_path}/-/graphs/%{default_branch}/charts");
    expect((await groupBadges()).map((badge) => badge.name)).toEqual(["docs"]);
  });

  it("2. a second preview shows no changes", async () => {
    await timed("2 preview --expect-no-changes", () => program.preview("--expect-no-changes"));
  });

  it("3. a config change previews exactly the expected steps, and up applies it", async () => {
    await program.setConfig("ciHost", "ci.next.example.com");
    await program.setConfig("group", "beta");
    const preview = await timed("3 preview --json", () => program.previewJson());
    const byName = stepsByName(preview);
    expect(byName.pipeline!.op).toBe("update");
    expect(changedInputs(byName.pipeline!)).toEqual(["imageUrl", "linkUrl"]);
    expect(byName.coverage!.op).toBe("update");
    expect(changedInputs(byName.coverage!)).toEqual(["imageUrl", "linkUrl"]);
    expect(byName.docs!.op).toBe("replace");
    expect(byName.docs!.replaceReasons).toEqual(["group"]);
    expect(changedInputs(byName.docs!)).toEqual(["group"]);
    expect(preview.changeSummary).toMatchObject({ update: 2, replace: 1 });

    await timed("3 up", () => program.up());
    expect((await projectBadges()).every((badge) => badge.link_url.startsWith("https://ci.next.example.com/"))).toBe(true);
    expect(await groupBadges()).toEqual([]);
    expect((await groupBadges("beta")).map((badge) => badge.name)).toEqual(["docs"]);
    await program.preview("--expect-no-changes");
  });

  it("4. refresh finds an out-of-band change and delete; the next up restores the declared state", async () => {
    const pipeline = (await projectBadges()).find((badge) => badge.name === "pipeline")!;
    await admin.put(apiPath`/projects/${"acme/web"}/badges/${pipeline.id}`, { link_url: "https://tampered.example.com" });
    const docs = (await groupBadges("beta"))[0]!;
    await admin.delete(apiPath`/groups/${"beta"}/badges/${docs.id}`);

    await timed("4 refresh", () => program.refresh());
    const preview = await program.previewJson();
    const byName = stepsByName(preview);
    expect(byName.pipeline!.op).toBe("update");
    expect(changedInputs(byName.pipeline!)).toEqual(["linkUrl"]);
    expect(byName.docs!.op).toBe("create");

    await timed("4 up", () => program.up());
    expect((await projectBadges()).find((badge) => badge.name === "pipeline")!.link_url).toMatch(/^https:\/\/ci\.next\.example\.com\//);
    expect((await groupBadges("beta")).map((badge) => badge.name)).toEqual(["docs"]);
    await program.preview("--expect-no-changes");
  });

  it("5. the exported state holds no secret in plain text, and the serialized provider is a thin shim", async () => {
    const state = await timed("5 stack export", () => program.exportStack());
    const text = JSON.stringify(state);
    expect(text).not.toContain(emulator.tokens.root!);
    const providers = new Set(state.deployment.resources!.map((resource) => resource.inputs?.__provider).filter((p): p is string => typeof p === "string"));
    expect(providers.size).toBe(1);
    const shim = [...providers][0]!;
    expect(shim).toContain('require("pulumi-platform/runtime")');
    expect(shim.length).toBeLessThan(4_000);
  });

  it("6. adoption took over the existing badge without a duplicate", async () => {
    const coverage = (await projectBadges()).filter((badge) => badge.name === "coverage");
    expect(coverage.map((badge) => badge.id)).toEqual([handMade.id]);
  });

  it("8. a stack written by an earlier version of the provider refreshes and destroys with today's code", async () => {
    // The serialized provider of pulumi-platform 0.1.0, as written into state by that release.
    const earlier = readFileSync(path.join(repoRoot, "test/e2e/fixtures/serialized-provider-0.1.0.js"), "utf8");
    const state = await program.exportStack();
    for (const resource of state.deployment.resources ?? []) {
      if (resource.type.endsWith(":Badge")) {
        resource.inputs!.__provider = earlier;
        resource.outputs!.__provider = earlier;
      }
    }
    await program.importStack(state as StackExport);
    await timed("8 refresh (earlier state)", () => program.refresh());
    await program.preview("--expect-no-changes");
  });

  it("7. destroy leaves the emulator as it was before the first up", async () => {
    await timed("7 destroy", () => program.destroy());
    // The adopted badge belonged to the stack, so it goes too: the server is back to its state before the hand-made badge.
    expect(summary(await projectBadges())).toEqual(before.project);
    expect(summary(await projectBadges("acme/api"))).toEqual(before.api);
    expect(summary(await groupBadges())).toEqual(before.group);
    expect(summary(await groupBadges("beta"))).toEqual(before.beta);
  });
});
