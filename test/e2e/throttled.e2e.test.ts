/**
 * A program of 300 resources against a server that allows a few requests per
 * second (the emulator's Rack::Attack-style throttle, fixed one-second
 * windows): `up` completes with no failed request other than throttled ones,
 * every badge exists exactly once, and pacing keeps the 429s to a handful
 * (pacing that did not work would show as hundreds). The ratio of the run's
 * time to the time the limit allows is printed, not asserted: it measures the
 * machine as much as the pacing (other test files share its cores), and speed
 * is `npm run bench`'s to show.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllPools } from "pulumi-platform";
import { badgeStore, defaultSeed, startEmulator, type Emulator, type Seed } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram } from "../../scripts/pulumi-workspace.mts";

const PROJECTS = 100;
const BADGES_PER_PROJECT = 3;
const REQUESTS_PER_SECOND = 10;

const fleet = Array.from({ length: PROJECTS }, (_, index) => `fleet-${String(index + 1).padStart(3, "0")}`);
const seed: Seed = {
  ...defaultSeed,
  groups: [...(defaultSeed.groups ?? []), { path: "fleet", parent: "acme", name: "Fleet" }],
  projects: [...(defaultSeed.projects ?? []), ...fleet.map((path) => ({ path, namespace: "acme/fleet" }))],
};

describe.sequential("300 resources under a rate limit of a few requests per second, with the real Pulumi CLI", { timeout: 10 * 60_000 }, () => {
  let emulator: Emulator;
  let program: PulumiProgram;

  beforeAll(async () => {
    ensurePulumiCli();
    emulator = await startEmulator({ port: 0, seed, rateLimit: { requests: REQUESTS_PER_SECOND, periodSeconds: 1 } });
    program = await PulumiProgram.create({
      example: "project-badges",
      transpileOnly: true,
      config: { "platform:url": emulator.url, projects: JSON.stringify(fleet.map((path) => `acme/fleet/${path}`)) },
      secrets: { "platform:token": emulator.tokens.root! },
    });
  }, 20 * 60_000);

  afterAll(async () => {
    program?.dispose();
    await closeAllPools();
    await emulator?.stop();
  });

  it("up completes, paced by the server's limit, with nothing failed but throttled requests", async () => {
    const mark = emulator.mark();
    const started = Date.now();
    await program.up();
    const wallSeconds = (Date.now() - started) / 1000;

    const requests = emulator.requestsSince(mark);
    const throttled = requests.filter((r) => r.status === 429);
    const failed = requests.filter((r) => r.status >= 400 && r.status !== 429);
    expect(failed.map((r) => `${r.method} ${r.path} → ${r.status}`)).toEqual([]);

    // Every project has its three badges, once each (read from the emulator's state: an API read would be throttled too).
    const fleetGroup = emulator.state.groupByFullPath("acme/fleet")!;
    const fleetProjects = new Map(emulator.state.projects.filter((p) => p.namespaceId === fleetGroup.id).map((p) => [p.id, p.path]));
    const badgesByProject = new Map<string, string[]>();
    for (const badge of badgeStore.of(emulator.state).badges) {
      const project = badge.kind === "project" ? fleetProjects.get(badge.sourceId) : undefined;
      if (project) badgesByProject.set(project, [...(badgesByProject.get(project) ?? []), badge.name ?? ""].sort());
    }
    expect(badgesByProject.size).toBe(PROJECTS);
    for (const path of fleet) expect(badgesByProject.get(path), path).toEqual(["coverage", "pipeline", "runbook"]);
    const created = requests.filter((r) => r.method === "POST" && r.status === 201);
    expect(created).toHaveLength(PROJECTS * BADGES_PER_PROJECT);

    const accepted = requests.filter((r) => r.status !== 429).length;
    const apiSeconds = (requests.at(-1)!.time + requests.at(-1)!.durationMs - requests[0]!.time) / 1000;
    const allowedSeconds = accepted / REQUESTS_PER_SECOND;
    const report = {
      resources: PROJECTS * BADGES_PER_PROJECT,
      requests: requests.length,
      throttled: throttled.length,
      limit: `${REQUESTS_PER_SECOND}/s`,
      "time the limit allows (s)": allowedSeconds,
      "first to last request (s)": apiSeconds,
      "pulumi up (s)": wallSeconds,
      "ratio, requests": Number((apiSeconds / allowedSeconds).toFixed(3)),
      "ratio, whole up": Number((wallSeconds / allowedSeconds).toFixed(3)),
    };
    console.log(`throttled run: ${JSON.stringify(report)}`);
    // Without pacing, a burst of 300 creates would meet hundreds of 429s; the gate keeps them to a handful.
    expect(throttled.length).toBeLessThanOrEqual(Math.ceil(allowedSeconds / 2));

    await program.preview("--expect-no-changes");
  });
});
