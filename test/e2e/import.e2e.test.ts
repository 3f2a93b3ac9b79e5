/**
 * The `import` resource option with the real CLI (issue 15, "Operating"):
 * objects made by hand before the program knew them are taken over by id, a
 * second preview is clean, and destroy deletes them (a settings resource gives
 * its prior values back). `pulumi import` of our types fails in the dynamic
 * provider host before our code runs (src/engine/import.ts says why).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath } from "pulumi-platform";
import { stepsByName, type PreviewJson } from "../../scripts/pulumi-workspace.mts";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

interface LiveBadge {
  id: number;
  name: string;
  link_url: string;
}
interface LiveSchedule {
  id: number;
  description: string;
  cron: string;
}

describe.sequential("the import option with the real Pulumi CLI", { timeout: 5 * 60_000 }, () => {
  let started: ProgramUnderTest;
  let badge: LiveBadge;
  let schedule: LiveSchedule;
  let betaId: number;
  let betaDescription: string;
  /** The first preview (`--json`): one command for the two tests that read it, the same plan on the same state. */
  let preview: Promise<PreviewJson> | undefined;
  const firstPreview = () => (preview ??= started.program.previewJson());
  const acmeBadges = () => started.api.list<LiveBadge>(apiPath`/groups/${"acme"}/badges`);
  const webSchedules = () => started.api.list<LiveSchedule>(apiPath`/projects/${"acme/web"}/pipeline_schedules`);

  beforeAll(async () => {
    started = await startProgramUnderTest({
      programDir: "test/e2e/programs/operating",
      async prepare(_emulator, api) {
        // Made by hand: the badge links elsewhere than the program declares, the schedule runs at another hour.
        badge = await api.post<LiveBadge>(apiPath`/groups/${"acme"}/badges`, {
          name: "coverage",
          link_url: "https://old-ci.example.com/acme",
          image_url: "https://ci.example.com/acme/coverage.svg",
        });
        await api.post(apiPath`/groups/${"acme"}/badges`, { name: "adopted", link_url: "https://old-ci.example.com/adopted", image_url: "https://ci.example.com/adopted.svg" });
        schedule = await api.post<LiveSchedule>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: "Nightly", ref: "main", cron: "0 4 * * *" });
        const beta = await api.get<{ id: number; description: string }>(apiPath`/groups/${"beta"}`);
        betaId = beta.id;
        betaDescription = beta.description;
      },
    });
    await started.program.setConfigs({
      importBadge: `groups/acme/badges/${badge.id}`,
      importSchedule: `projects/acme%2Fweb/pipeline_schedules/${schedule.id}`,
      importGroupSettings: `groups/${betaId}`,
      adoptBadge: "yes",
    });
  }, 10 * 60_000);

  afterAll(() => stopProgramUnderTest(started ?? {}));

  it("the preview's step of a takeover is a create: the engine knows no other for a dynamic resource", async () => {
    const steps = stepsByName(await firstPreview());
    expect(steps["imported-badge"]?.op).toBe("create");
    expect(steps["imported-schedule"]?.op).toBe("create");
  });

  it("the preview shows each takeover as one: a `takeover` input naming the values it overwrites, and a warning under the resource", async () => {
    const json = await firstPreview();
    const steps = stepsByName(json);
    // Each field it overwrites, with the value the object has now (the new one is the create's input beside it).
    expect(steps["imported-badge"]?.newState?.inputs?.takeover).toEqual({ id: `groups/acme/badges/${badge.id}`, overwrites: { linkUrl: "https://old-ci.example.com/acme" } });
    expect(steps["imported-schedule"]?.newState?.inputs?.takeover).toEqual({ id: `projects/acme%2Fweb/pipeline_schedules/${schedule.id}`, overwrites: { cron: "0 4 * * *" } });
    expect(steps["imported-settings"]?.newState?.inputs?.takeover).toEqual({ id: `groups/${betaId}`, overwrites: { description: betaDescription } });
    expect(steps["adopted-badge"]?.newState?.inputs?.takeover).toEqual({
      id: expect.stringMatching(/^groups\/acme\/badges\/\d+$/),
      overwrites: { linkUrl: "https://old-ci.example.com/adopted" },
    });
    expect(steps.docs?.newState?.inputs).not.toHaveProperty("takeover");
    // Each warning is the resource's own diagnostic, not the stack's.
    const diagnostics = (json as unknown as { diagnostics?: { urn?: string; severity: string; message: string }[] }).diagnostics ?? [];
    const takeovers = diagnostics.filter((diagnostic) => diagnostic.message.includes("takes over this existing object"));
    expect(Object.fromEntries(takeovers.map((diagnostic) => [diagnostic.urn?.split("::").at(-1), diagnostic.severity]))).toEqual({
      "imported-badge": "warning",
      "imported-schedule": "warning",
      "imported-settings": "warning",
      "adopted-badge": "warning",
    });
    // The text with --diff lists `takeover` with the create's inputs; the warnings it writes to stderr.
    const diff = await started.program.preview("--diff");
    expect(diff.stdout).toMatch(/takeover\s*: \{/);
    expect(diff.stdout).toMatch(/overwrites: \{\s*linkUrl: "https:\/\/old-ci.example.com\/acme"/);
    expect(diff.stderr).toContain(`warning: Badge groups/acme/badges/${badge.id}: the import option takes over this existing object; it overwrites linkUrl: "https://old-ci.example.com/acme" → "https://ci.example.com/acme".`);
    // The default text lists the warnings under the resource's heading, not the stack's.
    const text = (await started.program.preview()).stdout;
    expect(text).toMatch(/Badge \(imported-badge\):\s*\n\s*warning: Badge groups\/acme\/badges\/\d+: the import option takes over/);
  });

  it("up brings the taken-over objects to the declared values without a POST", async () => {
    const mark = started.emulator.mark();
    await started.program.up();
    const posts = started.emulator.requestsSince(mark).filter((request) => request.method === "POST").map((request) => request.path);
    // Only the program's own new badge is created (the adopted one is taken over too).
    expect(posts).toEqual(["/api/v4/groups/acme/badges"]);
    const badges = await acmeBadges();
    expect(badges.filter((live) => live.name === "coverage")).toEqual([expect.objectContaining({ id: badge.id, link_url: "https://ci.example.com/acme" })]);
    expect(await webSchedules()).toEqual([expect.objectContaining({ id: schedule.id, cron: "0 3 * * *" })]);
    expect((await started.api.get<{ description: string }>(apiPath`/groups/${"beta"}`)).description).toBe("Beta, managed");
    const state = await started.program.exportStack();
    const ids = Object.fromEntries((state.deployment.resources ?? []).map((resource) => [resource.urn.split("::").at(-1), resource.id]));
    expect(ids["imported-badge"]).toBe(`groups/acme/badges/${badge.id}`);
    expect(ids["imported-schedule"]).toBe(`projects/acme%2Fweb/pipeline_schedules/${schedule.id}`);
    expect(ids["imported-settings"]).toBe(`groups/${betaId}`);
  });

  it("a second preview shows no changes, with the option still in the program", async () => {
    await started.program.preview("--expect-no-changes");
  });

  it("pulumi import of our types fails in the dynamic provider host, before our code runs, and changes nothing", async () => {
    const before = await started.program.exportStack();
    const run = await started.program.cli(["import", "pulumi-nodejs:dynamic/platform:Badge", "again", `groups/acme/badges/${badge.id}`, "--yes"], { allowFailure: true });
    expect(run.code).not.toBe(0);
    // The host's getProvider, given no provider text: 3.259 (the template's pin) and 3.276 word it differently.
    expect(run.stdout).toMatch(/Cannot read properties of undefined \(reading 'toJavaScript'\)|code must be a string, not undefined/);
    expect((await started.program.exportStack()).deployment.resources?.length).toBe(before.deployment.resources?.length);
  });

  it("destroy deletes the imported badge and schedule and gives the group its description back", async () => {
    await started.program.destroy();
    expect(await acmeBadges()).toEqual([]);
    expect(await webSchedules()).toEqual([]);
    expect((await started.api.get<{ description: string }>(apiPath`/groups/${"beta"}`)).description).toBe(betaDescription);
  });
});
