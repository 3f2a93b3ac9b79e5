/**
 * Verification at preview of the steps on existing objects (src/engine/verify.ts,
 * `verifiedStep` in src/engine/provider.ts): an update's ownership of the
 * object (read per object), a replacement's delete of the old object under
 * its old owner, and an exclusive set's removals. Driven as the engine drives
 * a preview: `check(olds, news)`, then `diff(id, state, checked inputs)`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();

afterEach(() => server.configureProviders());

type Name = keyof typeof providers;
const SCHEDULE = { description: "Nightly", ref: "main", cron: "0 2 * * *" };

/** A preview's step on a recorded object: check, then diff; the reasons it fails for (check's, or diff's error). */
async function previewStep(resource: Name, id: string, state: Record<string, unknown>, news: Record<string, unknown>): Promise<string[]> {
  const inputs = Object.fromEntries(Object.entries(state).filter(([name]) => name in news || ["project", "group"].includes(name)));
  const checked = await providers[resource].check(inputs, news);
  if (checked.failures?.length) return checked.failures.map((failure) => failure.reason);
  return providers[resource].diff(id, state, checked.inputs).then(
    () => [],
    (error: Error) => [error.message],
  );
}

async function runAs(user: string): Promise<void> {
  await server.configureProviders(user, { "platform:verifyAtPreview": "true" });
}

/** alice's schedule of acme/web, with one variable: its id and recorded state. */
async function alicesSchedule(): Promise<{ id: string; state: Record<string, unknown> }> {
  const alice = server.as("alice");
  const created = await alice.post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, SCHEDULE);
  await alice.post(`/projects/acme%2Fweb/pipeline_schedules/${created.id}/variables`, { key: "MODE", value: "fast" });
  const id = `projects/acme%2Fweb/pipeline_schedules/${created.id}`;
  const state = { project: "acme/web", ...SCHEDULE, cronTimezone: "UTC", active: true, variables: { MODE: { value: "fast", variableType: "env_var" } }, scheduleId: created.id, owner: "alice" };
  return { id, state };
}

const changedVariable = (state: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  project: state.project,
  ...SCHEDULE,
  variables: [{ key: "MODE", value: "slow" }],
  ...extra,
});

describe("an update of someone else's pipeline schedule", () => {
  it("maintainer's token, no takeOwnership: the preview refuses, naming the owner; the server refuses too", async () => {
    const { id, state } = await alicesSchedule();
    await runAs("maintainer");
    expect(await previewStep("PipelineSchedule", id, state, changedVariable(state))).toEqual([
      `PipelineSchedule: could not update ${id}: the schedule is not the token's user's (maintainer): it belongs to alice, ` +
        "and the change needs ownership of the schedule (or the Maintainer role, with takeOwnership: true)",
    ]);
    await server.configureProviders("maintainer");
    const checked = await providers.PipelineSchedule.check(state, changedVariable(state));
    await expect(providers.PipelineSchedule.update(id, state, checked.inputs)).rejects.toThrow(/failed with 403/);
  });

  it("a read token verifies each step as the apply user platform:applyAs names: passes for the owner, refuses what that user could not do", async () => {
    const { id, state } = await alicesSchedule();
    // maintainer's token reads, as a preview's read token; alice's token will apply.
    await server.configureProviders("maintainer", { "platform:verifyAtPreview": "true", "platform:applyAs": "alice" });
    expect(await previewStep("PipelineSchedule", id, state, changedVariable(state))).toEqual([]);
    await server.configureProviders("maintainer", { "platform:verifyAtPreview": "true", "platform:applyAs": "dev" });
    expect(await previewStep("PipelineSchedule", id, state, changedVariable(state))).toEqual([
      `PipelineSchedule: could not update ${id}: the schedule is not the apply user's (dev): it belongs to alice, ` +
        "and the change needs ownership of the schedule (or the Maintainer role, with takeOwnership: true)",
    ]);
    // Taking it over needs the Maintainer role, or an administrator, which the maintainer's reads cannot tell dev is not: not judged.
    expect(await previewStep("PipelineSchedule", id, state, changedVariable(state, { takeOwnership: true }))).toEqual([]);
    await server.configureProviders("maintainer", { "platform:verifyAtPreview": "true", "platform:applyAs": "nobody-of-that-name" });
    expect(await previewStep("PipelineSchedule", id, state, changedVariable(state))).toEqual([
      'platform:applyAs (or PLATFORM_APPLY_AS): no user "nobody-of-that-name" exists, or the token\'s user cannot see it; name the user whose token applies the program',
    ]);
  });

  it("with takeOwnership the preview passes, and so does the update; the owner's own change passes with one read of the schedule", async () => {
    const { id, state } = await alicesSchedule();
    await runAs("maintainer");
    const news = changedVariable(state, { takeOwnership: true });
    expect(await previewStep("PipelineSchedule", id, state, news)).toEqual([]);
    const checked = await providers.PipelineSchedule.check(state, news);
    await expect(providers.PipelineSchedule.update(id, state, checked.inputs)).resolves.toBeDefined();

    const mine = await alicesSchedule();
    await runAs("alice");
    const requests = await server.requestsDuring(async () => expect(await previewStep("PipelineSchedule", mine.id, mine.state, changedVariable(mine.state))).toEqual([]));
    expect(requests.filter(({ path }) => path.includes("pipeline_schedules"))).toEqual([{ method: "GET", path: `/api/v4/${mine.id}`, status: 200 }]);
  });

  it("a Developer who does not own it, even with takeOwnership: refused (taking ownership needs Maintainer)", async () => {
    const { id, state } = await alicesSchedule();
    await runAs("dev");
    const reasons = await previewStep("PipelineSchedule", id, state, changedVariable(state, { takeOwnership: true }));
    expect(reasons.join("\n")).toMatch(/it belongs to alice/);
  });
});

describe("a replacement: the delete of the old object, under its old owner", () => {
  it("a Developer moving a group badge of acme to a project it maintains: the new badge passes check, the old one's delete needs the Owner role", async () => {
    const badge = await server.as().post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, { link_url: "https://ci.example.test/g", image_url: "https://ci.example.test/g.svg" });
    const id = `groups/acme/badges/${badge.id}`;
    const state = { group: "acme", linkUrl: "https://ci.example.test/g", imageUrl: "https://ci.example.test/g.svg", badgeId: badge.id, kind: "group" };
    await runAs("dev");
    expect(await previewStep("Badge", id, state, { project: "acme/platform/infra", linkUrl: state.linkUrl, imageUrl: state.imageUrl })).toEqual([
      `Badge: could not delete ${id}, which the replacement removes: group: the token's user (dev) needs the Owner role on group acme for Badge, and is Developer there`,
    ]);
    // With verification off, the server says the same of the delete.
    await server.configureProviders("dev");
    await expect(providers.Badge.delete(id, state)).rejects.toThrow(/failed with 403/);
  });

  it("a Guest moving alice's schedule: refused at preview, for the new project and for the old one", async () => {
    const { id, state } = await alicesSchedule();
    await runAs("guest");
    const reasons = await previewStep("PipelineSchedule", id, state, { project: "acme/api", ...SCHEDULE });
    expect(reasons.join("\n")).toMatch(/needs at least the Developer role on project acme\/api/);
  });
});

describe("collisions the matrix found the preview missing", () => {
  it("a group's sixth container virtual registry: refused at preview, as by the server", async () => {
    const admin = server.as();
    const existing = await admin.list<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`);
    const made: number[] = [];
    for (let n = existing.length; n < 5; n++) made.push((await admin.post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name: `full-${n}` })).id);
    try {
      await runAs("alice");
      const checked = await providers.VirtualRegistry.check({}, { group: "acme", name: "sixth" });
      expect(checked.failures?.map((failure) => failure.reason)).toEqual([
        "group: group acme already holds 5 container virtual registries, the most it may hold; the server would refuse one more (remove one from it, or use another)",
      ]);
      await server.configureProviders("alice");
      await expect(providers.VirtualRegistry.create((await providers.VirtualRegistry.check({}, { group: "acme", name: "sixth" })).inputs)).rejects.toThrow(/maximum allowed/);
    } finally {
      for (const id of made) await admin.delete(`/virtual_registries/container/registries/${id}`);
    }
  });

  it("an integration already active on the group: named at preview with the id to adopt it, as the create refuses it", async () => {
    const inputs = { group: "beta", slug: "mattermost", webhook: "https://chat.example.test/hooks/b" };
    await server.as("alice").put(apiPath`/groups/${"beta"}/integrations/mattermost`, { webhook: "https://chat.example.test/hooks/a" });
    await runAs("alice");
    expect((await providers.GroupIntegration.check({}, inputs)).failures?.map((failure) => failure.reason)).toEqual([
      'an active mattermost integration already exists in group beta (id groups/beta/integrations/mattermost): adopt it with the import option (import: "groups/beta/integrations/mattermost") or remove it',
    ]);
    expect((await providers.GroupIntegration.check({}, { ...inputs, adoptExisting: true })).failures ?? []).toEqual([]);
    await server.configureProviders("alice");
    await expect(providers.GroupIntegration.create((await providers.GroupIntegration.check({}, inputs)).inputs)).rejects.toThrow(/already active on group beta/);
  });
});
