import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

/** The emulator's clock: tests move it to let scheduled runs come due. */
let now = Date.parse("2025-03-03T10:00:00.000Z"); // a Monday
const server = useEmulator({ clock: () => now });

const WEB = "/projects/acme%2Fweb";
const SCHEDULES = `${WEB}/pipeline_schedules`;

async function createSchedule(fields: Record<string, unknown> = {}, as = "root"): Promise<any> {
  const result = await call(server.emulator, SCHEDULES, {
    as,
    method: "POST",
    body: { description: "Nightly", ref: "main", cron: "0 2 * * *", ...fields },
  });
  if (result.status !== 201) throw new Error(`creating a schedule: ${result.status} ${result.text}`);
  return result.body;
}

/** Creates a schedule for each expression and checks its next run. */
async function expectNextRuns(table: [cron: string, next: string][]): Promise<void> {
  for (const [cron, next] of table) {
    expect({ cron, next: (await createSchedule({ cron })).next_run_at }).toEqual({ cron, next });
  }
}

describe("creating a schedule", () => {
  it("answers 201 with the details: full ref, defaults, next run, owner, no pipeline yet", async () => {
    const result = await call(server.emulator, SCHEDULES, {
      method: "POST",
      body: { description: "Build packages", ref: "main", cron: "0 1 * * 5" },
    });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      id: expect.any(Number),
      description: "Build packages",
      ref: "refs/heads/main",
      cron: "0 1 * * 5",
      cron_timezone: "UTC",
      active: true,
      next_run_at: "2025-03-07T01:00:00.000Z",
      last_pipeline: null,
      owner: { username: "root", name: "Administrator", state: "active" },
      variables: [],
      inputs: [],
    });
  });

  it("expands a tag name to refs/tags and keeps a full ref as given", async () => {
    expect((await createSchedule({ ref: "v1.4.0" })).ref).toBe("refs/tags/v1.4.0");
    expect((await createSchedule({ ref: "refs/heads/release/1.x" })).ref).toBe("refs/heads/release/1.x");
  });

  it("refuses a name that is both a branch and a tag, or neither, as ambiguous", async () => {
    for (const ref of ["stable", "no-such-branch"]) {
      const result = await call(server.emulator, SCHEDULES, { method: "POST", body: { description: "x", ref, cron: "* * * * *" } });
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ message: { ref: ["is ambiguous"] } });
    }
  });

  it("computes the next run in the schedule's zone, IANA or framework name", async () => {
    const tokyo = await createSchedule({ cron: "0 9 * * *", cron_timezone: "Asia/Tokyo" });
    expect(tokyo.next_run_at).toBe("2025-03-04T00:00:00.000Z");
    const pacific = await createSchedule({ cron: "0 9 * * *", cron_timezone: "Pacific Time (US & Canada)" });
    expect(pacific.cron_timezone).toBe("Pacific Time (US & Canada)");
    expect(pacific.next_run_at).toBe("2025-03-03T17:00:00.000Z");
  });

  it("reads the server's cron dialect: L and negative days, nth and last weekdays, hour 24, steps, seconds, nicknames", async () => {
    // From Monday 2025-03-03 10:00 UTC.
    await expectNextRuns([
      ["0 0 L * *", "2025-03-31T00:00:00.000Z"],
      ["0 0 -2 * *", "2025-03-30T00:00:00.000Z"],
      ["0 9 * * fri#2", "2025-03-14T09:00:00.000Z"],
      ["0 9 * * 5#L", "2025-03-28T09:00:00.000Z"],
      ["0 24 * * *", "2025-03-04T00:00:00.000Z"],
      ["5/20 * * * *", "2025-03-03T10:05:00.000Z"],
      ["10-50/20 * * * *", "2025-03-03T10:10:00.000Z"],
      ["30 0 1 * * *", "2025-03-04T01:00:30.000Z"],
      ["@weekly", "2025-03-09T00:00:00.000Z"],
      // Both day fields restricted: either one runs (the 15th, or a Monday).
      ["0 0 1,15 * 1", "2025-03-10T00:00:00.000Z"],
      ["0 0 15 * MON", "2025-03-10T00:00:00.000Z"],
    ]);
  });

  it("reads the forms of the current Fugit: nicknames, steps, wrapping ranges, day ranges, &, %, pairs of month and day", async () => {
    // From Monday 2025-03-03 10:00 UTC, the 322nd week counted from the week of 2019-01-01.
    await expectNextRuns([
      ["@noon", "2025-03-03T12:00:00.000Z"],
      ["@hourly", "2025-03-03T11:00:00.000Z"],
      ["@midnight", "2025-03-04T00:00:00.000Z"],
      ["@monthly", "2025-04-01T00:00:00.000Z"],
      ["@yearly", "2026-01-01T00:00:00.000Z"],
      ["@annually", "2026-01-01T00:00:00.000Z"],
      // A value with a step runs to the field's end; a step alone is every step.
      ["5/15 * * * *", "2025-03-03T10:05:00.000Z"],
      ["/15 * * * *", "2025-03-03T10:15:00.000Z"],
      ["*/60 * * * *", "2025-03-03T11:00:00.000Z"],
      ["*/15 * * * * *", "2025-03-03T10:00:15.000Z"],
      // Ranges wrap around: minutes 50..59 and 0..10, December to February, Friday to Monday.
      ["50-10 * * * *", "2025-03-03T10:01:00.000Z"],
      ["0 0 * dec-feb *", "2025-12-01T00:00:00.000Z"],
      ["0 0 1 nov-feb/2 *", "2025-11-01T00:00:00.000Z"],
      ["0 0 * * fri-mon", "2025-03-07T00:00:00.000Z"],
      // Hours run to 24, which is 0; 24/2 is 24, 1, 3, ... 23.
      ["0 20-24 * * *", "2025-03-03T20:00:00.000Z"],
      ["0 24/2 * * *", "2025-03-03T11:00:00.000Z"],
      ["0 */24 * * *", "2025-03-04T00:00:00.000Z"],
      // Days counted from the end, and ranges of them.
      ["0 0 -7--1 * *", "2025-03-25T00:00:00.000Z"],
      ["0 0 -1--7 * *", "2025-03-04T00:00:00.000Z"],
      ["0 0 25-L * *", "2025-03-25T00:00:00.000Z"],
      ["0 0 1,L * *", "2025-03-31T00:00:00.000Z"],
      // 1-L covers the month: the day field is unrestricted, so only Mondays run.
      ["0 0 1-L * 1", "2025-03-10T00:00:00.000Z"],
      // Weekdays: 7 is Sunday, a stepped value is that day alone, a step of 0 is 1, a bare * among others adds none.
      ["0 0 * * 7", "2025-03-09T00:00:00.000Z"],
      ["0 0 * * 3/2", "2025-03-05T00:00:00.000Z"],
      ["0 0 * * 1-5/0", "2025-03-04T00:00:00.000Z"],
      ["0 0 * * *,1", "2025-03-10T00:00:00.000Z"],
      ["0 0 * * 1#-5", "2025-06-02T00:00:00.000Z"],
      // The first form of a weekday counts: a plain Monday, then the 2nd Monday before the 3rd.
      ["0 0 * * 1,1#2", "2025-03-10T00:00:00.000Z"],
      ["0 0 * * 1#3,1#2", "2025-03-10T00:00:00.000Z"],
      // Reference weeks modulo: Monday 2025-03-10 is in week 323, Tuesday 2025-03-11 in week 324.
      ["0 0 * * 1%2", "2025-03-17T00:00:00.000Z"],
      ["0 0 * * 1%2+1", "2025-03-10T00:00:00.000Z"],
      ["0 0 * * 1%4+2", "2025-03-31T00:00:00.000Z"],
      ["0 12 * * 2%2", "2025-03-11T12:00:00.000Z"],
      // & makes both day fields required: the first Friday that is the 1st, a Monday that is the 1st or 15th.
      ["0 0 1& * 5", "2025-08-01T00:00:00.000Z"],
      ["0 0 1 * 5&", "2025-08-01T00:00:00.000Z"],
      ["0 0 1,15 * 1&", "2025-09-01T00:00:00.000Z"],
      ["0 0 29 2 1&", "2044-02-29T00:00:00.000Z"],
      // Month and day pairs no month holds are dropped: February 31st goes, March 31st stays.
      ["0 0 29 2 *", "2028-02-29T00:00:00.000Z"],
      ["0 0 31 2,3 *", "2025-03-31T00:00:00.000Z"],
      ["0 0 30,31 2,3 1", "2025-03-10T00:00:00.000Z"],
      // Repeated and blank-separated commas, leading and trailing commas, tabs, outer blanks.
      [",,1, ,2,, * * * *", "2025-03-03T10:01:00.000Z"],
      ["0\t0\t*\t*\t*", "2025-03-04T00:00:00.000Z"],
      ["  0 0 * * *  ", "2025-03-04T00:00:00.000Z"],
      // A blank before a comma ends the field: this is six fields, second 1 and minute 2.
      ["1 , 2 * * * *", "2025-03-03T10:02:01.000Z"],
    ]);
  });

  it("refuses what the current Fugit refuses", async () => {
    for (const cron of [
      "@DAILY",
      "@reboot",
      "@daily UTC",
      "0 0 0 * *",
      "0 0 * 0 *",
      "*/0 * * * *",
      "0 */0 * * *",
      "0 0 */0 * *",
      "0 0 * */0 *",
      "5/100 * * * *",
      "0 0 L-5 * *",
      "0 0 -3-5 * *",
      "0 0 L/2 * *",
      "0 0 31 2 *",
      "0 0 30 2 *",
      "0 0 30 2 1",
      "0 0 * * 1#0",
      "0 0 * * 1#6",
      "0 0 * * 1#2,1%2",
      "0 0 * * sunday",
      "0 0 * * 8",
      "0 0 * 13 *",
      "0 0 32 * *",
      "0 25 * * *",
      "61 * * * *",
      "0 0 * * *\t",
      "0 0 * * * Europe/Berlin",
      "1 2 3 4 5 6 7",
    ]) {
      const result = await call(server.emulator, SCHEDULES, { method: "POST", body: { description: "x", ref: "main", cron } });
      expect({ cron, status: result.status, body: result.body }).toEqual({ cron, status: 400, body: { message: { cron: ["syntax is invalid"] } } });
    }
  });

  it("accepts an expression whose walk never reaches a run, with no next run", async () => {
    // April has no 31st day from its end; no month's 1st is its 5th Monday; 1%0 divides by zero.
    for (const cron of ["0 0 -31 4 *", "0 0 1 * 1#5&", "0 0 * * 1%0"]) {
      expect({ cron, next: (await createSchedule({ cron })).next_run_at }).toEqual({ cron, next: null });
    }
  });

  it("walks across changes of the clocks as the server does: skipped times, repeated ones, reference weeks", async () => {
    const before = now;
    try {
      now = Date.parse("2025-03-09T05:00:00.000Z"); // midnight in New York, the day clocks go forward at 02:00
      expect((await createSchedule({ cron: "30 2 * * *", cron_timezone: "America/New_York" })).next_run_at).toBe("2025-03-10T06:30:00.000Z");
      now = Date.parse("2025-11-02T04:00:00.000Z"); // midnight in New York, the day clocks go back at 02:00
      expect((await createSchedule({ cron: "30 1 * * *", cron_timezone: "America/New_York" })).next_run_at).toBe("2025-11-02T05:30:00.000Z");
      now = Date.parse("2025-11-02T05:45:00.000Z"); // 01:45 in New York before the clocks go back: 01:30 comes again
      expect((await createSchedule({ cron: "30 1 * * *", cron_timezone: "America/New_York" })).next_run_at).toBe("2025-11-02T06:30:00.000Z");
      now = Date.parse("2025-09-06T05:00:00.000Z"); // Santiago skips midnight on 2025-09-07: the next midnight is the 8th's
      expect((await createSchedule({ cron: "0 0 * * *", cron_timezone: "America/Santiago" })).next_run_at).toBe("2025-09-08T03:00:00.000Z");
      // Reference weeks run noon to noon in the zone: in Berlin's summer, a Tuesday a whole number of weeks
      // after 2019-01-01 is an hour short of it, and in the week before (2025-06-03: week 335 in Berlin, 336 in UTC).
      now = Date.parse("2025-06-01T00:00:00.000Z");
      expect((await createSchedule({ cron: "0 0 * * 2%2", cron_timezone: "Europe/Berlin" })).next_run_at).toBe("2025-06-09T22:00:00.000Z");
      expect((await createSchedule({ cron: "0 0 * * 2%2", cron_timezone: "UTC" })).next_run_at).toBe("2025-06-03T00:00:00.000Z");
    } finally {
      now = before;
    }
  });

  it("reports invalid cron, zone and description together as model errors", async () => {
    const result = await call(server.emulator, SCHEDULES, {
      method: "POST",
      body: { description: " ", ref: "main", cron: "61 * * * *", cron_timezone: "Mars/Olympus" },
    });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      message: { description: ["can't be blank"], cron: ["syntax is invalid"], cron_timezone: ["syntax is invalid"] },
    });
  });

  it("answers Grape's errors for missing or blank parameters", async () => {
    const missing = await call(server.emulator, SCHEDULES, { method: "POST", body: { description: "x" } });
    expect(missing.body).toEqual({ error: "ref is missing, cron is missing" });
    const blank = await call(server.emulator, SCHEDULES, { method: "POST", body: { description: "x", ref: "", cron: "* * * * *" } });
    expect(blank).toMatchObject({ status: 400, body: { error: "ref is empty" } });
    const input = await call(server.emulator, SCHEDULES, {
      method: "POST",
      body: { description: "x", ref: "main", cron: "* * * * *", inputs: [{ name: "a" }, { value: 1 }] },
    });
    expect(input.body).toEqual({ error: "inputs[0][value] is missing, inputs[1][name] is missing" });
  });

  it("takes inputs of every value type", async () => {
    const schedule = await createSchedule({
      inputs: [
        { name: "strategy", value: "blue-green" },
        { name: "flags", value: ["a", "b"] },
        { name: "replicas", value: 3 },
        { name: "dry_run", value: false },
      ],
    });
    expect(schedule.inputs).toEqual([
      { name: "strategy", value: "blue-green" },
      { name: "flags", value: ["a", "b"] },
      { name: "replicas", value: 3 },
      { name: "dry_run", value: false },
    ]);
  });

  it("lets a Developer create, not a Guest; hides private projects from outsiders", async () => {
    expect((await createSchedule({}, "dev")).owner.username).toBe("dev");
    const guest = await call(server.emulator, SCHEDULES, { as: "guest", method: "POST", body: { description: "x", ref: "main", cron: "* * * * *" } });
    expect(guest).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    const outsider = await call(server.emulator, SCHEDULES, { as: "outsider" });
    expect(outsider).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    const anonymous = await call(server.emulator, SCHEDULES, { as: null });
    expect(anonymous.status).toBe(401);
  });
});

describe("reading", () => {
  it("lists schedules without variables, inputs or last pipeline, filtered by scope", async () => {
    const inactive = await createSchedule({ description: "Paused", active: false });
    const list = await call(server.emulator, `${SCHEDULES}?scope=inactive&per_page=100`);
    expect(list.status).toBe(200);
    expect(list.body.map((s: any) => s.id)).toContain(inactive.id);
    expect(list.body.every((s: any) => s.active === false)).toBe(true);
    expect(list.body[0]).not.toHaveProperty("variables");
    expect(list.body[0]).not.toHaveProperty("last_pipeline");
    expect(list.headers.get("x-total")).not.toBeNull();
    const bad = await call(server.emulator, `${SCHEDULES}?scope=paused`);
    expect(bad.body).toEqual({ error: "scope does not have a valid value" });
  });

  it("answers 404 Pipeline Schedule Not Found for a missing schedule", async () => {
    const result = await call(server.emulator, `${SCHEDULES}/999999`);
    expect(result).toMatchObject({ status: 404, body: { message: "404 Pipeline Schedule Not Found" } });
  });

  it("shows variables and inputs to the owner and Maintainers only", async () => {
    const schedule = await createSchedule({ inputs: [{ name: "a", value: "1" }] }, "dev");
    const byMaintainer = await call(server.emulator, `${SCHEDULES}/${schedule.id}`, { as: "maintainer" });
    expect(byMaintainer.body).toHaveProperty("variables");
    expect(byMaintainer.body.inputs).toEqual([{ name: "a", value: "1" }]);
    const other = await createSchedule({}, "maintainer");
    const byDeveloper = await call(server.emulator, `${SCHEDULES}/${other.id}`, { as: "dev" });
    expect(byDeveloper.status).toBe(200);
    expect(byDeveloper.body).not.toHaveProperty("variables");
    expect(byDeveloper.body).not.toHaveProperty("inputs");
  });
});

describe("updating", () => {
  it("changes fields, expands the ref and recomputes the next run", async () => {
    const schedule = await createSchedule();
    const result = await call(server.emulator, `${SCHEDULES}/${schedule.id}`, {
      method: "PUT",
      body: { cron: "30 6 * * 1", cron_timezone: "Europe/Berlin", ref: "v1.3.0", active: false },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ cron: "30 6 * * 1", ref: "refs/tags/v1.3.0", active: false, next_run_at: "2025-03-10T05:30:00.000Z" });
  });

  it("adds, changes and removes inputs with destroy or _destroy", async () => {
    const schedule = await createSchedule({ inputs: [{ name: "a", value: "1" }, { name: "b", value: 2 }, { name: "c", value: true }] });
    const result = await call(server.emulator, `${SCHEDULES}/${schedule.id}`, {
      method: "PUT",
      body: { inputs: [{ name: "a", value: "one" }, { name: "b", destroy: true }, { name: "c", _destroy: true }, { name: "d", value: ["x"] }] },
    });
    expect(result.body.inputs).toEqual([{ name: "a", value: "one" }, { name: "d", value: ["x"] }]);
  });

  it("lets only the owner update; a Maintainer takes ownership first (201, then 200)", async () => {
    const schedule = await createSchedule({}, "dev");
    const refused = await call(server.emulator, `${SCHEDULES}/${schedule.id}`, { as: "maintainer", method: "PUT", body: { description: "mine" } });
    expect(refused).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    const devTakes = await call(server.emulator, `${SCHEDULES}/${schedule.id}/take_ownership`, { as: "guest", method: "POST" });
    expect(devTakes.status).toBe(404);
    const taken = await call(server.emulator, `${SCHEDULES}/${schedule.id}/take_ownership`, { as: "maintainer", method: "POST" });
    expect(taken).toMatchObject({ status: 201, body: { owner: { username: "maintainer" } } });
    const again = await call(server.emulator, `${SCHEDULES}/${schedule.id}/take_ownership`, { as: "maintainer", method: "POST" });
    expect(again.status).toBe(200);
    const updated = await call(server.emulator, `${SCHEDULES}/${schedule.id}`, { as: "maintainer", method: "PUT", body: { description: "mine" } });
    expect(updated).toMatchObject({ status: 200, body: { description: "mine" } });
    const devNow = await call(server.emulator, `${SCHEDULES}/${schedule.id}/take_ownership`, { as: "dev", method: "POST" });
    expect(devNow.status).toBe(403);
  });
});

describe("variables", () => {
  it("creates (201), reads (200), updates (200) and deletes (202 with the variable)", async () => {
    const schedule = await createSchedule();
    const base = `${SCHEDULES}/${schedule.id}/variables`;
    const created = await call(server.emulator, base, { method: "POST", body: { key: "DEPLOY_TOKEN", value: "s3cret" } });
    expect(created).toMatchObject({ status: 201, body: { key: "DEPLOY_TOKEN", value: "s3cret", variable_type: "env_var" } });
    const read = await call(server.emulator, `${base}/DEPLOY_TOKEN`);
    expect(read).toMatchObject({ status: 200, body: { key: "DEPLOY_TOKEN", value: "s3cret" } });
    const updated = await call(server.emulator, `${base}/DEPLOY_TOKEN`, { method: "PUT", body: { value: "n3w", variable_type: "file" } });
    expect(updated).toMatchObject({ status: 200, body: { key: "DEPLOY_TOKEN", value: "n3w", variable_type: "file" } });
    const details = await call(server.emulator, `${SCHEDULES}/${schedule.id}`);
    expect(details.body.variables).toEqual([{ key: "DEPLOY_TOKEN", value: "n3w", variable_type: "file", raw: false }]);
    const deleted = await call(server.emulator, `${base}/DEPLOY_TOKEN`, { method: "DELETE" });
    expect(deleted).toMatchObject({ status: 202, body: { key: "DEPLOY_TOKEN", value: "n3w", variable_type: "file" } });
    const gone = await call(server.emulator, `${base}/DEPLOY_TOKEN`, { method: "DELETE" });
    expect(gone).toMatchObject({ status: 404, body: { message: "404 Pipeline Schedule Variable Not Found" } });
  });

  it("validates the key: format, length, uniqueness; and the type", async () => {
    const schedule = await createSchedule();
    const base = `${SCHEDULES}/${schedule.id}/variables`;
    const bad = await call(server.emulator, base, { method: "POST", body: { key: "NOT-OK", value: "v" } });
    expect(bad).toMatchObject({ status: 400, body: { message: { key: ["can contain only letters, digits and '_'."] } } });
    const long = await call(server.emulator, base, { method: "POST", body: { key: "K".repeat(256), value: "v" } });
    expect(long.body).toEqual({ message: { key: ["is too long (maximum is 255 characters)"] } });
    await call(server.emulator, base, { method: "POST", body: { key: "ONCE", value: "v" } });
    const twice = await call(server.emulator, base, { method: "POST", body: { key: "ONCE", value: "v" } });
    expect(twice.body).toEqual({ message: { key: ["has already been taken"] } });
    const type = await call(server.emulator, base, { method: "POST", body: { key: "T", value: "v", variable_type: "secret" } });
    expect(type.body).toEqual({ error: "variable_type does not have a valid value" });
    const missing = await call(server.emulator, base, { method: "POST", body: { key: "T" } });
    expect(missing.body).toEqual({ error: "value is missing" });
  });

  it("lets only the owner write variables", async () => {
    const schedule = await createSchedule({}, "dev");
    const result = await call(server.emulator, `${SCHEDULES}/${schedule.id}/variables`, { as: "maintainer", method: "POST", body: { key: "K", value: "v" } });
    expect(result.status).toBe(403);
  });
});

describe("running", () => {
  it("play records a scheduled pipeline, listed by the schedule's pipelines and shown as its last pipeline", async () => {
    const schedule = await createSchedule();
    const played = await call(server.emulator, `${SCHEDULES}/${schedule.id}/play`, { method: "POST" });
    expect(played).toMatchObject({ status: 201, body: { message: "201 Created" } });
    const pipelines = await call(server.emulator, `${SCHEDULES}/${schedule.id}/pipelines`);
    expect(pipelines.body).toEqual([
      expect.objectContaining({ source: "schedule", ref: "refs/heads/main", status: "pending", iid: expect.any(Number), web_url: expect.stringContaining("/acme/web/-/pipelines/") }),
    ]);
    const details = await call(server.emulator, `${SCHEDULES}/${schedule.id}`);
    expect(details.body.last_pipeline).toEqual({ id: pipelines.body[0].id, sha: expect.stringMatching(/^[0-9a-f]{40}$/), ref: "refs/heads/main", status: "pending" });
    expect(details.body.next_run_at).toBe(schedule.next_run_at);
    const none = await call(server.emulator, `${SCHEDULES}/${schedule.id}/pipelines?status=success`);
    expect(none.body).toEqual([]);
  });

  it("runs due schedules when time passes, and reschedules them", async () => {
    const schedule = await createSchedule({ cron: "*/30 * * * *" });
    expect(schedule.next_run_at).toBe(new Date(now + 30 * 60_000).toISOString());
    now += 31 * 60_000;
    server.emulator.runDueWork();
    const details = await call(server.emulator, `${SCHEDULES}/${schedule.id}`);
    expect(details.body.last_pipeline).toMatchObject({ status: "pending" });
    expect(Date.parse(details.body.next_run_at)).toBeGreaterThan(now);
  });
});

describe("deleting", () => {
  it("answers the deleted schedule; a Developer who does not own it gets 403", async () => {
    const schedule = await createSchedule({}, "maintainer");
    const refused = await call(server.emulator, `${SCHEDULES}/${schedule.id}`, { as: "dev", method: "DELETE" });
    expect(refused.status).toBe(403);
    const deleted = await call(server.emulator, `${SCHEDULES}/${schedule.id}`, { method: "DELETE" });
    expect(deleted).toMatchObject({ status: 200, body: { id: schedule.id, description: "Nightly" } });
    expect((await call(server.emulator, `${SCHEDULES}/${schedule.id}`)).status).toBe(404);
  });
});
