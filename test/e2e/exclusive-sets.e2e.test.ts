/**
 * The exclusive-sets example with the real Pulumi CLI: objects made out of
 * band in all five collections are named by the preview after a refresh, as
 * the objects it deletes (`deletes`, the diff of `unexpected` hidden),
 * `up` removes them and only them, a second preview is clean, an object made
 * between that preview and the `up` stays (and shows in the next preview),
 * ignored objects are never touched, and destroy removes the program's
 * objects but none of the others.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import type { Emulator } from "pulumi-platform/emulator";
import { changedInputs, type PulumiProgram, stepsByName, type PreviewJson } from "../../scripts/pulumi-workspace.mts";
import { startProgramUnderTest, stopProgramUnderTest } from "./program-under-test";

const SETS = ["only-these-badges", "only-these-saml-links", "only-these-schedules", "only-these-integrations", "only-these-upstreams"];

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;
let registry = 0;

/** What each collection holds, by name (slug for integrations). */
async function collections() {
  const badges = (await api.list<{ name: string }>(apiPath`/groups/${"acme"}/badges`)).map((b) => b.name);
  const links = (await api.list<{ name: string }>(apiPath`/groups/${"acme"}/saml_group_links`)).map((l) => l.name);
  const schedules = (await api.list<{ description: string }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`)).map((s) => s.description);
  const integrations = (await api.get<{ slug: string; active: boolean }[]>(apiPath`/groups/${"acme"}/integrations`)).filter((i) => i.active).map((i) => i.slug);
  const upstreams = registry ? (await api.get<{ name: string }[]>(apiPath`/virtual_registries/container/registries/${registry}/upstreams`)).map((u) => u.name) : [];
  return { badges: badges.sort(), links: links.sort(), schedules: schedules.sort(), integrations: integrations.sort(), upstreams: upstreams.sort() };
}

/** One object out of band in each collection, named `label` (integrations: the slug given). */
async function makeOutOfBand(label: string, slug: string): Promise<void> {
  await api.post(apiPath`/groups/${"acme"}/badges`, { name: label, link_url: `https://x.example.com/${label}`, image_url: `https://x.example.com/${label}.svg` });
  await api.post(apiPath`/groups/${"acme"}/saml_group_links`, { saml_group_name: label, access_level: 10 });
  await api.post(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: label, ref: "main", cron: "0 4 * * *" });
  const newIssueUrl = slug === "youtrack" ? {} : { new_issue_url: "https://t.example.com/new" }; // YouTrack takes none
  await api.put(apiPath`/groups/${"acme"}/integrations/${slug}`, { project_url: "https://t.example.com/p", issues_url: "https://t.example.com/i/:id", ...newIssueUrl });
  await api.post(apiPath`/virtual_registries/container/registries/${registry}/upstreams`, { name: label, url: `https://${label}.example.com` });
}

/** What an exclusive set's step says it deletes (`deletes`, in its new inputs). */
function deletedInPreview(preview: PreviewJson, set: string): unknown {
  return stepsByName(preview)[set]?.newState?.inputs?.deletes;
}

/** The names an exclusive set's step records in `unexpected` (the old inputs the preview compares). */
function namedInPreview(preview: PreviewJson, set: string): string[] {
  const step = stepsByName(preview)[set];
  const recorded = (step?.oldState?.inputs?.unexpected ?? []) as Record<string, unknown>[];
  return recorded.map((entry) => String(entry.name ?? entry.description ?? entry.slug)).sort();
}

beforeAll(async () => {
  ({ emulator, api, program } = await startProgramUnderTest({ example: "exclusive-sets" }));
}, 20 * 60_000);

afterAll(() => stopProgramUnderTest({ emulator, program }));

describe.sequential("exclusive-sets example with the real Pulumi CLI", { timeout: 5 * 60_000 }, () => {
  it("up creates the program's objects and removes nothing; a second preview is clean", async () => {
    await program.up();
    registry = (await api.get<{ id: number }[]>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`))[0]!.id;
    expect(await collections()).toEqual({
      badges: ["docs", "pipeline"],
      links: ["platform-developers", "platform-leads"],
      schedules: ["Nightly build"],
      integrations: ["custom-issue-tracker"],
      upstreams: ["Docker Hub"],
    });
    await program.preview("--expect-no-changes");
  });

  it("after objects are made out of band, preview --refresh and refresh-then-preview name each one; ignored ones are not named", async () => {
    await makeOutOfBand("stray", "redmine");
    // Another team's objects: `ignore: ["team-*"]`, and `["youtrack"]` for the integrations.
    await makeOutOfBand("team-owned", "youtrack");

    const withRefresh = await program.previewJson("--refresh");
    for (const set of SETS) expect(stepsByName(withRefresh)[set]?.op, set).toBe("update");

    await program.refresh();
    const preview = await program.previewJson();
    for (const set of SETS) {
      expect(stepsByName(preview)[set]?.op, set).toBe("update");
      expect(changedInputs(stepsByName(preview)[set]!), set).toEqual(["deletes", "unexpected"]);
    }
    expect(deletedInPreview(preview, "only-these-badges")).toEqual([expect.stringMatching(/^badge \d+ `stray`$/)]);
    expect(deletedInPreview(preview, "only-these-saml-links")).toEqual(["SAML group link `stray`"]);
    expect(deletedInPreview(preview, "only-these-schedules")).toEqual([expect.stringMatching(/^pipeline schedule \d+ `stray`$/)]);
    expect(deletedInPreview(preview, "only-these-integrations")).toEqual([expect.stringMatching(/^integration redmine/)]);
    expect(deletedInPreview(preview, "only-these-upstreams")).toEqual([expect.stringMatching(/^upstream \d+ `stray`$/)]);
    expect(namedInPreview(preview, "only-these-badges")).toEqual(["stray"]);
    expect(namedInPreview(preview, "only-these-saml-links")).toEqual(["stray"]);
    expect(namedInPreview(preview, "only-these-schedules")).toEqual(["stray"]);
    expect(namedInPreview(preview, "only-these-integrations")).toEqual(["redmine"]);
    expect(namedInPreview(preview, "only-these-upstreams")).toEqual(["stray"]);
    // Nothing else changes: the program's own objects are the same.
    expect(preview.steps.filter((step) => step.op !== "same").map((step) => step.urn.split("::").at(-1)).sort()).toEqual([...SETS].sort());
    // The text a user reads names them as what it deletes, not as an edit of the recorded list.
    const text = (await program.preview("--diff")).stdout;
    expect(text).toMatch(/\+ deletes\s*: \[/);
    expect(text).toMatch(/"badge \d+ `stray`"/);
    expect(text).toMatch(/"integration redmine/);
    expect(text).not.toMatch(/badgeId/);
  });

  it("an object made between that preview and the up is not removed; up removes exactly what the preview named", async () => {
    await makeOutOfBand("late", "ewm");
    await program.up();
    expect(await collections()).toEqual({
      badges: ["docs", "late", "pipeline", "team-owned"],
      links: ["late", "platform-developers", "platform-leads", "team-owned"],
      schedules: ["Nightly build", "late", "team-owned"],
      integrations: ["custom-issue-tracker", "ewm", "youtrack"],
      upstreams: ["Docker Hub", "late", "team-owned"],
    });
    // The state records nothing pending: the second preview is clean until the next refresh, and names no deletion.
    const clean = await program.previewJson("--expect-no-changes");
    for (const set of SETS) expect(deletedInPreview(clean, set), set).toBeUndefined();
    const state = await program.exportStack();
    for (const resource of state.deployment.resources ?? []) {
      if (SETS.includes(resource.urn.split("::").at(-1)!)) expect(resource.outputs!.unexpected, resource.urn).toEqual([]);
    }
  });

  it("the next refresh names the late ones, up removes them, and the preview after is clean", async () => {
    await program.refresh();
    const preview = await program.previewJson();
    expect(namedInPreview(preview, "only-these-badges")).toEqual(["late"]);
    expect(namedInPreview(preview, "only-these-integrations")).toEqual(["ewm"]);
    await program.up();
    expect(await collections()).toEqual({
      badges: ["docs", "pipeline", "team-owned"],
      links: ["platform-developers", "platform-leads", "team-owned"],
      schedules: ["Nightly build", "team-owned"],
      integrations: ["custom-issue-tracker", "youtrack"],
      upstreams: ["Docker Hub", "team-owned"],
    });
    // Refreshed first (in the preview): clean means the server holds nothing more to remove.
    await program.preview("--refresh", "--expect-no-changes");
  });

  it("destroy removes the program's objects and leaves the others", async () => {
    await program.destroy();
    registry = 0;
    expect(await collections()).toEqual({
      badges: ["team-owned"],
      links: ["team-owned"],
      schedules: ["team-owned"],
      integrations: ["youtrack"],
      upstreams: [],
    });
  });
});
