import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { useEmulator } from "../support";

const DAY = 86_400_000;
let now = Date.parse("2025-05-01T00:00:00.000Z");
const server = useEmulator({ clock: () => now });
const policy = providers.CleanupPolicy;
const POLICY_PATH = "/groups/acme/-/virtual_registries/cleanup/policy";

const inputs = (overrides: Record<string, unknown> = {}) => ({
  group: "acme",
  cadence: 7,
  enabled: true,
  keepNDaysAfterDownload: 30,
  notifyOnFailure: true,
  ...overrides,
});

async function createPolicy(overrides: Record<string, unknown> = {}) {
  const checked = await policy.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await policy.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = () => server.as("alice").get<Record<string, unknown>>(POLICY_PATH);

beforeAll(async () => {
  await server.configureProviders("alice");
});

afterEach(async () => {
  await server.as("alice").delete(POLICY_PATH).catch(() => undefined);
});

describe("lifecycle", () => {
  it("create is one POST; the run figures are outputs", async () => {
    let created: Awaited<ReturnType<typeof createPolicy>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createPolicy();
    });
    expect(requests).toEqual([{ method: "POST", path: `/api/v4${POLICY_PATH}`, status: 201 }]);
    expect(created!.id).toBe("acme");
    expect(created!.outs).toMatchObject({
      group: "acme",
      cadence: 7,
      enabled: true,
      status: "scheduled",
      lastRunAt: null,
      lastRunDeletedSize: 0,
      lastRunDeletedEntriesCount: 0,
      lastRunDetailedMetrics: {},
      nextRunAt: new Date(now + 7 * DAY).toISOString(),
    });
  });

  it("after a run, refresh records new figures and the next preview still shows no change", async () => {
    const { id, inputs: declared, outs } = await createPolicy();
    expect(await policy.diff(id, outs, declared)).toMatchObject({ changes: false });
    now += 8 * DAY;
    server.emulator.runDueWork();
    const refreshed = await policy.read(id, outs);
    expect(refreshed.props).toMatchObject({ lastRunAt: new Date(now).toISOString(), nextRunAt: new Date(now + 7 * DAY).toISOString(), lastRunDetailedMetrics: { container: { deleted_entries_count: 0, deleted_size: 0 } } });
    expect(refreshed.inputs).not.toHaveProperty("lastRunAt");
    const requests = await server.requestsDuring(async () => {
      expect(await policy.diff(id, refreshed.props, declared)).toMatchObject({ changes: false, replaces: [] });
    });
    expect(requests).toEqual([]);
  });

  it("an update is one PATCH with only the changed fields", async () => {
    const { id, inputs: declared, outs } = await createPolicy();
    const changed = { ...declared, cadence: 30 };
    expect(await policy.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(async () => {
      const updated = await policy.update(id, outs, changed);
      expect(updated.outs).toMatchObject({ cadence: 30, enabled: true });
    });
    expect(requests).toEqual([{ method: "PATCH", path: `/api/v4${POLICY_PATH}`, status: 200 }]);
    expect((await live()).cadence).toBe(30);
  });

  it("a change of a notify flag alone still sends a field real servers require", async () => {
    const { id, inputs: declared, outs } = await createPolicy();
    await policy.update(id, outs, { ...declared, notifyOnFailure: false });
    expect(await live()).toMatchObject({ notify_on_failure: false, enabled: true });
  });

  it("refresh after an out-of-band change shows it; a policy deleted out of band is gone", async () => {
    const { id, inputs: declared, outs } = await createPolicy();
    await server.as("alice").patch(POLICY_PATH, { keep_n_days_after_download: 90 });
    const requests = await server.requestsDuring(async () => {
      const refreshed = await policy.read(id, outs);
      expect(refreshed.inputs).toMatchObject({ keepNDaysAfterDownload: 90 });
      expect(await policy.diff(id, refreshed.props, declared)).toMatchObject({ changes: true, replaces: [] });
    });
    expect(requests).toEqual([{ method: "GET", path: `/api/v4${POLICY_PATH}`, status: 200 }]);
    await server.as("alice").delete(POLICY_PATH);
    expect(await policy.read(id, outs)).toEqual({ id: "" });
  });

  it("delete is one DELETE; deleting again succeeds", async () => {
    const { id, outs } = await createPolicy();
    const requests = await server.requestsDuring(() => policy.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: `/api/v4${POLICY_PATH}`, status: 204 }]);
    await expect(policy.delete(id, outs)).resolves.toBeUndefined();
  });

  it("a group change replaces, deleting first (one policy per group)", async () => {
    const { id, inputs: declared, outs } = await createPolicy();
    expect(await policy.diff(id, outs, { ...declared, group: 999 })).toMatchObject({ replaces: ["group"], deleteBeforeReplace: true });
  });
});

describe("adoption", () => {
  it("an existing policy fails the create with a pointer to adoptExisting", async () => {
    await server.as("alice").post(POLICY_PATH, { cadence: 1 });
    const checked = await policy.check({}, inputs());
    await expect(policy.create(checked.inputs)).rejects.toThrow(/already has a cleanup policy.*adoptExisting: true/);
  });

  it("adoptExisting takes it over with one GET and one PATCH of the differences", async () => {
    await server.as("alice").post(POLICY_PATH, { cadence: 1, enabled: true, keep_n_days_after_download: 30 });
    let result: Awaited<ReturnType<typeof createPolicy>> | undefined;
    const requests = await server.requestsDuring(async () => {
      result = await createPolicy({ adoptExisting: true });
    });
    expect(requests.map((r) => r.method)).toEqual(["GET", "PATCH"]);
    expect(await live()).toMatchObject({ cadence: 7, notify_on_failure: true });
    expect(await policy.diff(result!.id, result!.outs, result!.inputs)).toMatchObject({ changes: false });
  });

  it("adoptExisting with no policy creates one", async () => {
    await createPolicy({ adoptExisting: true });
    expect((await live()).cadence).toBe(7);
  });
});
