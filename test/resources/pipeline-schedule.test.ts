import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, PartialCreateError, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const schedule = providers.PipelineSchedule;

interface LiveSchedule {
  id: number;
  description: string;
  ref: string;
  cron: string;
  cron_timezone: string;
  active: boolean;
  next_run_at: string;
  owner: { username: string };
  variables: { key: string; value: string; variable_type: string }[];
  inputs: { name: string; value: unknown }[];
}

type Props = Record<string, unknown>;

const SECRET = "s3cret-deploy-token";

const inputs = (overrides: Props = {}): Props => ({
  project: "acme/web",
  description: `nightly-${Math.random().toString(36).slice(2, 8)}`,
  ref: "main",
  cron: "0 2 * * *",
  cronTimezone: "Europe/Berlin",
  variables: [
    { key: "DEPLOY_TOKEN", value: SECRET },
    { key: "TARGET", value: "staging", variableType: "env_var" },
  ],
  inputs: [
    { name: "strategy", value: "blue-green" },
    { name: "replicas", value: 3 },
  ],
  ...overrides,
});

/** check, then create, as the engine does. */
async function createSchedule(overrides: Props = {}) {
  const checked = await schedule.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await schedule.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Props, outs: created.outs as Props };
}

/**
 * The diff of a change of the variables: "changes unknown", so that the engine compares the old and new inputs with
 * their real values and names each variable that differs (a secret compared as the CLI shows it, masked, never differs).
 */
const SECRET_CHANGE = { changes: undefined, replaces: [], deleteBeforeReplace: false };

const live = (id: string, as = "root") => server.as(as).get<LiveSchedule>("/" + id);
const variablesOf = async (id: string) => (await live(id)).variables.map((v) => `${v.key}=${v.value}`).sort();

beforeAll(async () => {
  await server.configureProviders();
});

describe("check (preview)", () => {
  it("accepts the dialect's extras: names, nicknames, seconds, Rails zone names and IANA aliases", async () => {
    for (const overrides of [
      { cron: "30 6 * * MON-FRI" },
      { cron: "@daily" },
      { cron: "0 0 1 JAN *" },
      { cron: "0 0 * * FRI#2" },
      { cron: "0 30 6 * * *" },
      { cronTimezone: "Pacific Time (US & Canada)" },
      { cronTimezone: "UTC" },
      { cronTimezone: "Etc/UTC" },
      { cronTimezone: "Asia/Calcutta" },
      { cronTimezone: "US/Pacific" },
    ]) {
      expect((await schedule.check({}, inputs(overrides))).failures ?? [], JSON.stringify(overrides)).toEqual([]);
    }
  });

  it("fills in the defaults: UTC and active", async () => {
    const { cronTimezone: _zone, ...rest } = inputs();
    const result = await schedule.check({}, rest);
    expect(result.inputs).toMatchObject({ cronTimezone: "UTC", active: true });
    // The declared list becomes the map by key: keys and types plain, each value apart (secret in the engine).
    expect(result.inputs.variables).toEqual({ DEPLOY_TOKEN: { value: SECRET, variableType: "env_var" }, TARGET: { value: "staging", variableType: "env_var" } });
  });

  it("each expression keeps its own verdict, judged once and remembered: a bad one fails alike every time, a good one beside it passes", async () => {
    for (let round = 0; round < 2; round++) {
      const bad = await schedule.check({}, inputs({ cron: "0 0 32 2 *" }));
      expect(bad.failures?.map((f) => f.reason)).toEqual([expect.stringMatching(/cron: "0 0 32 2 \*" is not a valid cron expression: the day-of-month field/)]);
      expect((await schedule.check({}, inputs({ cron: "0 0 30 1 *" }))).failures ?? []).toEqual([]);
      expect((await schedule.check({}, inputs({ cron: "0 0 31 2" }))).failures?.[0]?.reason).toMatch(/has 4 fields/);
    }
  });

  it("values not yet known at preview are not rejected", async () => {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    expect((await schedule.check({}, inputs({ cron: unknown }))).failures ?? []).toEqual([]);
    expect((await schedule.check({}, inputs({ variables: [{ key: unknown, value: unknown }] }))).failures ?? []).toEqual([]);
  });
});

describe("lifecycle", () => {
  it("create sends one POST for the schedule (with its inputs) and one per variable", async () => {
    let created: Awaited<ReturnType<typeof createSchedule>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createSchedule();
    });
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`).sort()).toEqual(
      [
        "POST /api/v4/projects/acme%2Fweb/pipeline_schedules 201",
        `POST /api/v4/${created!.id}/variables 201`,
        `POST /api/v4/${created!.id}/variables 201`,
      ].sort(),
    );
    const { id, inputs: declared, outs } = created!;
    const onServer = await live(id);
    expect(id).toBe(`projects/acme%2Fweb/pipeline_schedules/${onServer.id}`);
    expect(onServer).toMatchObject({ ref: "refs/heads/main", cron_timezone: "Europe/Berlin", inputs: declared.inputs });
    expect(outs).toMatchObject({
      project: "acme/web",
      ref: "main",
      cron: "0 2 * * *",
      cronTimezone: "Europe/Berlin",
      active: true,
      variables: declared.variables,
      inputs: declared.inputs,
      scheduleId: onServer.id,
      owner: "root",
      nextRunAt: onServer.next_run_at,
      lastPipeline: null,
    });
    expect(await variablesOf(id)).toEqual([`DEPLOY_TOKEN=${SECRET}`, "TARGET=staging"]);
  });

  it("a preview after apply shows no change, for a short ref too, and sends nothing", async () => {
    const { id, inputs: declared, outs } = await createSchedule({ ref: "v1.4.0", cronTimezone: "Eastern Time (US & Canada)" });
    expect((await live(id)).ref).toBe("refs/tags/v1.4.0");
    const requests = await server.requestsDuring(async () => {
      const checked = await schedule.check(outs, declared);
      expect(await schedule.diff(id, outs, checked.inputs)).toMatchObject({ changes: false, replaces: [] });
    });
    expect(requests).toEqual([]);
  });

  it("a full ref declared is kept as declared and shows no change either", async () => {
    const { id, inputs: declared, outs } = await createSchedule({ ref: "refs/heads/main" });
    expect(outs.ref).toBe("refs/heads/main");
    expect(await schedule.diff(id, outs, declared)).toMatchObject({ changes: false });
  });

  it("a refresh keeps the declared short ref and the next diff stays empty", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    const refreshed = await schedule.read(id, outs);
    expect(refreshed.props).toMatchObject({ ref: "main" });
    expect(await schedule.diff(id, refreshed.props, declared)).toMatchObject({ changes: false });
  });

  it("nextRunAt and the last pipeline change on the server without ever being a diff", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    await server.as().post(`/${id}/play`, {});
    const refreshed = await schedule.read(id, { ...outs, nextRunAt: "2000-01-01T00:00:00.000Z" });
    expect(refreshed.props).toMatchObject({ lastPipeline: { status: "pending", ref: "refs/heads/main" }, nextRunAt: outs.nextRunAt });
    expect(await schedule.diff(id, { ...refreshed.props!, nextRunAt: "2001-01-01T00:00:00.000Z" }, declared)).toMatchObject({ changes: false });
  });

  it("a changed cron updates in place with one PUT", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    const changed = { ...declared, cron: "0 3 * * *" };
    expect(await schedule.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(async () => {
      const updated = await schedule.update(id, outs, changed);
      expect(updated.outs).toMatchObject({ cron: "0 3 * * *", ref: "main", variables: declared.variables });
      expect(updated.outs.nextRunAt).not.toBe(outs.nextRunAt);
    });
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/" + id, status: 200 }]);
  });

  it("a changed variable value sends only that variable's PUT", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    const changed = { ...declared, variables: { ...(declared.variables as Props), DEPLOY_TOKEN: { value: "rotated-token", variableType: "env_var" } } };
    const requests = await server.requestsDuring(async () => {
      const updated = await schedule.update(id, outs, changed);
      expect(updated.outs).toMatchObject({ variables: changed.variables, scheduleId: outs.scheduleId, owner: "root", nextRunAt: outs.nextRunAt });
    });
    expect(requests).toEqual([{ method: "PUT", path: `/api/v4/${id}/variables/DEPLOY_TOKEN`, status: 200 }]);
    expect(await variablesOf(id)).toEqual(["DEPLOY_TOKEN=rotated-token", "TARGET=staging"]);
  });

  it("variables and inputs are reconciled one by one: added, changed and removed only", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    const changed = {
      ...declared,
      variables: { TARGET: { value: "staging", variableType: "env_var" }, REGION: { value: "eu", variableType: "file" } },
      inputs: [{ name: "replicas", value: 3 }, { name: "flags", value: ["a", "b"] }],
    };
    const requests = await server.requestsDuring(async () => {
      const updated = await schedule.update(id, outs, changed);
      expect(updated.outs).toMatchObject({ variables: changed.variables, inputs: changed.inputs });
    });
    expect(requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [`DELETE /api/v4/${id}/variables/DEPLOY_TOKEN`, `POST /api/v4/${id}/variables`, `PUT /api/v4/${id}`].sort(),
    );
    const onServer = await live(id);
    expect(onServer.variables).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: "TARGET" }), expect.objectContaining({ key: "REGION", variable_type: "file" })]),
    );
    expect(onServer.variables).toHaveLength(2);
    expect(onServer.inputs).toEqual(changed.inputs);
  });

  it("variables in another order are no change", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    const listed = inputs({ description: declared.description }).variables as Props[];
    const reordered = await schedule.check({}, { ...declared, variables: [...listed].reverse() });
    expect(await schedule.diff(id, outs, reordered.inputs)).toMatchObject({ changes: false });
  });

  it("refresh returns the live values, so an out-of-band change shows in the next diff", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    await server.as().put(`/${id}`, { cron: "15 4 * * *", active: false });
    const requests = await server.requestsDuring(async () => {
      const refreshed = await schedule.read(id, outs);
      expect(refreshed.id).toBe(id);
      expect(refreshed.inputs).toMatchObject({ cron: "15 4 * * *", active: false, ref: "main", project: "acme/web" });
      expect(await schedule.diff(id, refreshed.props, declared)).toMatchObject({ changes: true, replaces: [] });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/" + id, status: 200 }]);
  });

  it("refresh names each variable value changed out of band, never the value: a preview masks every one of them", async () => {
    const { id, outs } = await createSchedule();
    await server.as().put(`/${id}/variables/DEPLOY_TOKEN`, { value: "changed-by-hand" });
    await server.as().put(`/${id}/variables/TARGET`, { value: "production" });
    const refreshed = await schedule.read(id, outs);
    expect(refreshed.props!.__secretsChanged).toEqual(["variables.DEPLOY_TOKEN.value", "variables.TARGET.value"]);
    // Refreshed again from that state, nothing differs: the names go.
    expect((await schedule.read(id, refreshed.props!)).props!.__secretsChanged).toBeUndefined();
    expect((await schedule.read(id, outs)).inputs).not.toHaveProperty("__secretsChanged");
  });

  it("after an out-of-band delete of one variable, the diff shows it and the update recreates only it", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    await server.as().delete(`/${id}/variables/TARGET`);
    const refreshed = await schedule.read(id, outs);
    expect(refreshed.inputs!.variables).toEqual({ DEPLOY_TOKEN: { value: SECRET, variableType: "env_var" } });
    // Variables hold secret values: "changes unknown" lets the engine compare the inputs and name the variable.
    expect(await schedule.diff(id, refreshed.props, declared)).toEqual(SECRET_CHANGE);
    const requests = await server.requestsDuring(() => schedule.update(id, refreshed.props, declared));
    expect(requests).toEqual([{ method: "POST", path: `/api/v4/${id}/variables`, status: 201 }]);
    expect(await variablesOf(id)).toEqual([`DEPLOY_TOKEN=${SECRET}`, "TARGET=staging"]);
  });

  it("a variable added out of band is refreshed with its type but not its value, and the update removes it", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    await server.as().post(`/${id}/variables`, { key: "EXTRA", value: "out-of-band-secret" });
    const refreshed = await schedule.read(id, outs);
    // The engine marks a refreshed input secret only where the recorded inputs had one: a value there would be plain in the state.
    expect(refreshed.inputs!.variables).toEqual({ ...(declared.variables as Props), EXTRA: { variableType: "env_var" } });
    expect(refreshed.props!.declaredVariableKeys).toEqual(["DEPLOY_TOKEN", "TARGET"]);
    expect(await schedule.diff(id, refreshed.props!, declared)).toEqual(SECRET_CHANGE);
    const requests = await server.requestsDuring(() => schedule.update(id, refreshed.props!, declared));
    expect(requests).toEqual([{ method: "DELETE", path: `/api/v4/${id}/variables/EXTRA`, status: 202 }]);
  });

  it("state recorded with the variables as a list (earlier releases) diffs clean, refreshes to the map and updates", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    const { declaredVariableKeys: _keys, ...withoutKeys } = outs;
    const listed = { ...withoutKeys, variables: Object.entries(outs.variables as Props).map(([key, settings]) => ({ key, ...(settings as Props) })) };
    expect(await schedule.diff(id, listed, declared)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    const refreshed = await schedule.read(id, listed);
    expect(refreshed.inputs!.variables).toEqual(declared.variables);
    expect(refreshed.props!.declaredVariableKeys).toEqual(["DEPLOY_TOKEN", "TARGET"]);
    const rotated = { ...declared, variables: { ...(declared.variables as Props), TARGET: { value: "production", variableType: "env_var" } } };
    const requests = await server.requestsDuring(() => schedule.update(id, listed, rotated));
    expect(requests).toEqual([{ method: "PUT", path: `/api/v4/${id}/variables/TARGET`, status: 200 }]);
  });

  it("refresh after an out-of-band delete reports the schedule gone", async () => {
    const { id, outs } = await createSchedule();
    await server.as().delete(`/${id}`);
    expect(await schedule.read(id, outs)).toEqual({ id: "" });
  });

  it("a different project replaces the schedule", async () => {
    const { id, inputs: declared, outs } = await createSchedule();
    expect(await schedule.diff(id, outs, { ...declared, project: "acme/api" })).toMatchObject({ changes: true, replaces: ["project"] });
  });

  it("delete removes it with one request; deleting it again succeeds", async () => {
    const { id, outs } = await createSchedule();
    const requests = await server.requestsDuring(() => schedule.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: "/api/v4/" + id, status: 200 }]);
    await expect(live(id)).rejects.toThrow(/404/);
    await expect(schedule.delete(id, outs)).resolves.toBeUndefined();
  });

  it("a schedule refused by the server (an ambiguous ref) fails with the server's reason", async () => {
    const checked = await schedule.check({}, inputs({ ref: "stable" }));
    await expect(schedule.create(checked.inputs)).rejects.toThrow(/^PipelineSchedule: could not create it\. POST .* failed with 400: ref is ambiguous/);
  });
});

describe("adoption", () => {
  it("adoptExisting takes over the project's schedule with the same description and ref, reconciling its variables", async () => {
    const description = "adopt-me-" + Math.random().toString(36).slice(2, 6);
    const existing = await server.as().post<LiveSchedule>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description, ref: "refs/heads/main", cron: "0 5 * * *" });
    await server.as().post(`/projects/acme%2Fweb/pipeline_schedules/${existing.id}/variables`, { key: "TARGET", value: "old" });
    await server.as().post(`/projects/acme%2Fweb/pipeline_schedules/${existing.id}/variables`, { key: "STALE", value: "x" });
    let result: Awaited<ReturnType<typeof createSchedule>> | undefined;
    const requests = await server.requestsDuring(async () => {
      result = await createSchedule({ description, adoptExisting: true });
    });
    expect(result!.id).toBe(`projects/acme%2Fweb/pipeline_schedules/${existing.id}`);
    expect(requests.map((r) => r.method).sort()).toEqual(["DELETE", "GET", "GET", "POST", "PUT", "PUT"].sort());
    expect(await variablesOf(result!.id)).toEqual([`DEPLOY_TOKEN=${SECRET}`, "TARGET=staging"]);
    const all = await server.as().list<LiveSchedule>(apiPath`/projects/${"acme/web"}/pipeline_schedules`);
    expect(all.filter((s) => s.description === description)).toHaveLength(1);
    expect(await schedule.diff(result!.id, result!.outs, result!.inputs)).toMatchObject({ changes: false });
  });

  it("with nothing to adopt, it creates", async () => {
    const { id } = await createSchedule({ adoptExisting: true });
    expect((await live(id)).ref).toBe("refs/heads/main");
  });
});

describe("ownership", () => {
  /** A schedule created by dev (its owner), with the providers then acting as maintainer. */
  async function scheduleOwnedByDev() {
    await server.configureProviders("dev");
    try {
      return await createSchedule();
    } finally {
      await server.configureProviders("maintainer");
    }
  }

  it("an update of someone else's schedule fails with 403 unless takeOwnership is set, which takes it first", async () => {
    const created = await scheduleOwnedByDev();
    try {
      const { id, inputs: declared, outs } = created;
      expect(outs.owner).toBe("dev");
      const changed = { ...declared, cron: "0 4 * * *" };
      await expect(schedule.update(id, outs, changed)).rejects.toThrow(/could not update .* failed with 403/);
      const taking = { ...changed, takeOwnership: true };
      expect(await schedule.diff(id, outs, { ...declared, takeOwnership: true })).toMatchObject({ changes: false });
      let updated: Props = {};
      const requests = await server.requestsDuring(async () => {
        updated = (await schedule.update(id, outs, taking)).outs as Props;
      });
      expect(requests).toEqual([
        { method: "PUT", path: "/api/v4/" + id, status: 403 },
        { method: "POST", path: `/api/v4/${id}/take_ownership`, status: 201 },
        { method: "PUT", path: "/api/v4/" + id, status: 200 },
      ]);
      expect(updated).toMatchObject({ owner: "maintainer", cron: "0 4 * * *" });
      expect((await live(id)).owner.username).toBe("maintainer");
    } finally {
      await server.configureProviders();
    }
  });

  it("takes ownership once when several variable writes are refused", async () => {
    const created = await scheduleOwnedByDev();
    try {
      const { id, inputs: declared, outs } = created;
      const changed = { ...declared, takeOwnership: true, variables: [{ key: "A", value: "1" }, { key: "B", value: "2" }] };
      const requests = await server.requestsDuring(async () => {
        const updated = await schedule.update(id, outs, (await schedule.check(outs, changed)).inputs);
        expect(updated.outs).toMatchObject({ owner: "maintainer" });
      });
      expect(requests.filter((r) => r.path.endsWith("/take_ownership"))).toHaveLength(1);
      expect(await variablesOf(id)).toEqual(["A=1", "B=2"]);
    } finally {
      await server.configureProviders();
    }
  });
});

describe("failures while creating", () => {
  it("a variable that fails after the schedule exists records it (PartialCreateError) and the next update finishes it", async () => {
    // A refusal, not a lost answer (that one is looked up and recovered: test/reliability/commit-then-fail.test.ts).
    server.emulator.inject({ method: "POST", path: /variables$/, status: 403, body: { message: "403 Forbidden" } });
    const checked = await schedule.check({}, inputs());
    // The engine passes the serialized provider among the inputs; the recorded state must keep it, or nothing could load the resource's code again.
    const serializedProvider = "exports.handler = /* the serialized provider */ undefined;";
    const error = (await schedule.create({ ...checked.inputs, __provider: serializedProvider }).catch((e: unknown) => e)) as PartialCreateError;
    expect(error).toBeInstanceOf(Error);
    expect(error.properties.__provider).toBe(serializedProvider);
    expect(error.id).toMatch(/^projects\/acme%2Fweb\/pipeline_schedules\/\d+$/);
    expect(error.message).toMatch(/^PipelineSchedule: could not create it\. The schedule was created .* 1 of its 2 variables could not be set: POST .* failed with 403/);
    expect(error.message).toMatch(/run `pulumi up` again/);
    const recorded = error.properties;
    expect(recorded).toMatchObject({ scheduleId: Number(error.id.split("/").at(-1)), ref: "main" });
    expect(Object.keys(recorded.variables as Props)).toHaveLength(1);
    expect(await live(error.id).then((s) => s.variables)).toHaveLength(1);

    expect(await schedule.diff(error.id, recorded, checked.inputs)).toEqual(SECRET_CHANGE);
    const requests = await server.requestsDuring(() => schedule.update(error.id, recorded, checked.inputs));
    expect(requests).toEqual([{ method: "POST", path: `/api/v4/${error.id}/variables`, status: 201 }]);
    expect(await variablesOf(error.id)).toEqual([`DEPLOY_TOKEN=${SECRET}`, "TARGET=staging"]);
  });

  it("a lost response to the schedule's POST does not create a second schedule", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /pipeline_schedules$/, sequence: ["commit-then-error"] }] });
    const { id, inputs: declared } = await createSchedule();
    const all = await server.as().list<LiveSchedule>(apiPath`/projects/${"acme/web"}/pipeline_schedules`);
    expect(all.filter((s) => s.description === declared.description).map((s) => s.id)).toEqual([Number(id.split("/").at(-1))]);
    expect(await variablesOf(id)).toEqual([`DEPLOY_TOKEN=${SECRET}`, "TARGET=staging"]);
  });

  it("a variable value never appears in an error message, even when the server echoes it", async () => {
    server.emulator.inject({ method: "POST", path: /variables$/, status: 400, body: { message: { value: [`${SECRET} is not allowed`] } }, times: 2 });
    const checked = await schedule.check({}, inputs());
    const error = (await schedule.create(checked.inputs).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/\[secret\] is not allowed/);
    expect(error.message).not.toContain(SECRET);
  });
});
