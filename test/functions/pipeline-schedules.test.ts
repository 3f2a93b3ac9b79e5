/** getPipelineSchedules, getPipelineSchedule and getPipelineSchedulePipelines against the emulator. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { getPipelineSchedule, getPipelineScheduleOutput, getPipelineSchedulePipelines, getPipelineSchedules, getPipelineSchedulesOutput } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const SECRET_VALUE = "planted-variable-secret";
const PIPELINES = 150;
const HOUR = 3_600_000;
const pipelineTime = (i: number) => new Date(Date.parse("2024-05-01T02:00:00.000Z") + i * HOUR).toISOString();
/** Every third pipeline failed, the rest succeeded; the last one is still running. */
const statusOf = (i: number) => (i === PIPELINES - 1 ? "running" : i % 3 === 0 ? "failed" : "success");
const SCHEDULES = 120;

const seed: Seed = {
  ...defaultSeed,
  pipelineSchedules: {
    "acme/web": [
      {
        description: "Nightly build",
        ref: "main",
        cron: "0 2 * * *",
        owner: "maintainer",
        variables: [{ key: "DEPLOY_TOKEN", value: SECRET_VALUE }, { key: "CONFIG", value: "a: 1", variableType: "file" }],
        inputs: [{ name: "mode", value: "full" }, { name: "targets", value: ["eu", "us"] }],
        pipelines: Array.from({ length: PIPELINES }, (_, i) => ({ status: statusOf(i), createdAt: pipelineTime(i) })),
      },
      { description: "Weekly release", ref: "v1.4.0", cron: "0 6 * * 1", cronTimezone: "Europe/Berlin", active: false, owner: "alice" },
    ],
    "acme/api": Array.from({ length: SCHEDULES }, (_, i) => ({ description: `schedule ${i}`, ref: "develop", cron: "0 * * * *", owner: "dev" })),
  },
};
const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

/** Runs `action` as another seed user, then as the file's user again. */
const as = <T>(username: string, action: () => Promise<T>): Promise<T> => server.actingAs(username, action);

async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await new Promise<T>((resolve) => output.apply((inner) => resolve(inner)));
  return { value, secret: await pulumi.isSecret(output) };
}

const nightlyId = async () => (await getPipelineSchedules({ project: "acme/web" })).find((s) => s.description === "Nightly build")!.id;

describe("getPipelineSchedules", () => {
  it("a project's schedules, full refs, owners, without variables", async () => {
    const schedules = await getPipelineSchedules({ project: "acme/web" });
    expect(schedules.map((s) => [s.description, s.ref, s.active])).toEqual([
      ["Nightly build", "refs/heads/main", true],
      ["Weekly release", "refs/tags/v1.4.0", false],
    ]);
    expect(schedules[1]).toMatchObject({ cron: "0 6 * * 1", cronTimezone: "Europe/Berlin", owner: { username: "alice", name: "Alice Owner" } });
    expect(schedules[0]!.nextRunAt).toMatch(/T02:00:00\.000Z$/);
    expect(schedules[0]).not.toHaveProperty("variables");
    expect(schedules[0]).not.toHaveProperty("lastPipeline");
    const { secret } = await settle(getPipelineSchedulesOutput({ project: "acme/web" }));
    expect(secret).toBe(false);
  });

  it("scope picks active or inactive ones", async () => {
    expect((await getPipelineSchedules({ project: "acme/web", scope: "inactive" })).map((s) => s.description)).toEqual(["Weekly release"]);
    expect(server.emulator.requestLog.at(-1)!.query).toContain("scope=inactive");
  });

  it("every schedule across pages, 100 a request, and a limit that stops early", async () => {
    const requests = await server.requestsDuring(async () => expect(await getPipelineSchedules({ project: "acme/api" })).toHaveLength(SCHEDULES));
    expect(requests).toHaveLength(2);
    const limited = await server.requestsDuring(async () => expect(await getPipelineSchedules({ project: "acme/api", limit: 10 })).toHaveLength(10));
    expect(limited).toHaveLength(1);
  });

  it("a Guest is refused and told the role it needs; a bad scope sends nothing", async () => {
    await as("guest", () => expect(getPipelineSchedules({ project: "acme/web" })).rejects.toThrow(/getPipelineSchedules: the token's user may not read the pipeline schedules of project acme\/web: .*403.*Reporter role/));
    const mark = server.emulator.mark();
    await expect(getPipelineSchedules({ project: "acme/web", scope: "paused" as never })).rejects.toThrow(/getPipelineSchedules: invalid arguments: scope: .*No request was sent/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("getPipelineSchedule", () => {
  it("with its last pipeline, variables and inputs; secret in the Output form", async () => {
    const id = await nightlyId();
    const schedule = await getPipelineSchedule({ project: "acme/web", scheduleId: id });
    expect(schedule).toMatchObject({
      id,
      description: "Nightly build",
      lastPipeline: { id: expect.any(Number), ref: "refs/heads/main", status: "running", sha: expect.stringMatching(/^[0-9a-f]{40}$/) },
      variables: [
        { key: "DEPLOY_TOKEN", variableType: "env_var", value: SECRET_VALUE, raw: false },
        { key: "CONFIG", variableType: "file", value: "a: 1", raw: false },
      ],
      inputs: [{ name: "mode", value: "full" }, { name: "targets", value: ["eu", "us"] }],
    });
    expect(schedule).not.toHaveProperty("pipelines");
    const { secret } = await settle(getPipelineScheduleOutput({ project: "acme/web", scheduleId: id }));
    expect(secret).toBe(true);
  });

  it("a Developer who does not own it sees no variables or inputs, and the Output form is not secret", async () => {
    const id = await nightlyId();
    await as("dev", async () => {
      const { value, secret } = await settle(getPipelineScheduleOutput({ project: "acme/web", scheduleId: id }));
      expect(value).not.toHaveProperty("variables");
      expect(value).not.toHaveProperty("inputs");
      expect(secret).toBe(false);
    });
  });

  it("withPipelines also reads every pipeline it ran, 100 a request", async () => {
    const id = await nightlyId();
    let schedule: Awaited<ReturnType<typeof getPipelineSchedule>> | undefined;
    const requests = await server.requestsDuring(async () => {
      schedule = await getPipelineSchedule({ project: "acme/web", scheduleId: id, withPipelines: true });
    });
    expect(requests.map((r) => r.path)).toEqual([
      `/api/v4/projects/acme%2Fweb/pipeline_schedules/${id}`,
      `/api/v4/projects/acme%2Fweb/pipeline_schedules/${id}/pipelines`,
      `/api/v4/projects/acme%2Fweb/pipeline_schedules/${id}/pipelines`,
    ]);
    expect(schedule!.pipelines).toHaveLength(PIPELINES);
    expect(schedule!.pipelines![0]).toMatchObject({ source: "schedule", status: "failed", ref: "refs/heads/main", createdAt: pipelineTime(0), webUrl: expect.stringContaining("/acme/web/-/pipelines/") });
    expect(schedule!.pipelines!.at(-1)!.id).toBe(schedule!.lastPipeline!.id);
  });

  it("a missing schedule is an error that names it; a Guest is told the same, with the role it needs", async () => {
    await expect(getPipelineSchedule({ project: "acme/web", scheduleId: 99_999 })).rejects.toThrow(
      /getPipelineSchedule: pipeline schedule 99999 of project acme\/web was not found: .*404 Pipeline Schedule Not Found.*Reporter role/,
    );
    const id = await nightlyId();
    await as("guest", () => expect(getPipelineSchedule({ project: "acme/web", scheduleId: id })).rejects.toThrow(/was not found: .*404 Pipeline Schedule Not Found/));
  });

  it("a bad id or flag sends nothing", async () => {
    const mark = server.emulator.mark();
    await expect(getPipelineSchedule({ project: "acme/web", scheduleId: 0 })).rejects.toThrow(/getPipelineSchedule: invalid arguments: scheduleId: /);
    await expect(getPipelineSchedule({ project: "acme/web", scheduleId: 1, withPipelines: "yes" as never })).rejects.toThrow(/withPipelines: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("getPipelineSchedulePipelines", () => {
  it("every pipeline across pages, oldest first", async () => {
    const id = await nightlyId();
    const requests = await server.requestsDuring(async () => expect(await getPipelineSchedulePipelines({ project: "acme/web", scheduleId: id })).toHaveLength(PIPELINES));
    expect(requests).toHaveLength(2);
  });

  it("status, sort and limit: the five newest failures in one request", async () => {
    const id = await nightlyId();
    let failures: Awaited<ReturnType<typeof getPipelineSchedulePipelines>> = [];
    const requests = await server.requestsDuring(async () => {
      failures = await getPipelineSchedulePipelines({ project: "acme/web", scheduleId: id, status: "failed", sort: "desc", limit: 5 });
    });
    expect(requests).toHaveLength(1);
    expect(server.emulator.requestLog.at(-1)!.query).toMatch(/status=failed/);
    expect(failures.map((p) => p.createdAt)).toEqual([147, 144, 141, 138, 135].map(pipelineTime));
  });

  it("scope and the time bounds", async () => {
    const id = await nightlyId();
    expect((await getPipelineSchedulePipelines({ project: "acme/web", scheduleId: id, scope: "running" })).map((p) => p.status)).toEqual(["running"]);
    expect(await getPipelineSchedulePipelines({ project: "acme/web", scheduleId: id, scope: "finished" })).toHaveLength(PIPELINES - 1);
    expect(await getPipelineSchedulePipelines({ project: "acme/web", scheduleId: id, scope: "tags" })).toEqual([]);
    // branches (and tags): the latest pipeline of each ref, as real servers' PipelinesFinder gives them.
    expect((await getPipelineSchedulePipelines({ project: "acme/web", scheduleId: id, scope: "branches" })).map((p) => [p.ref, p.createdAt])).toEqual([["refs/heads/main", pipelineTime(PIPELINES - 1)]]);
    const window = await getPipelineSchedulePipelines({ project: "acme/web", scheduleId: id, createdAfter: pipelineTime(9), createdBefore: "2024-05-01T15:00:00+02:00" });
    // 15:00+02:00 is 13:00Z, i.e. pipeline 11; both bounds are exclusive.
    expect(window.map((p) => p.createdAt)).toEqual([pipelineTime(10)]);
    expect(server.emulator.requestLog.at(-1)!.query).toContain("created_before=2024-05-01T15%3A00%3A00%2B02%3A00");
  });

  it("a date that is not ISO 8601 is refused before any request", async () => {
    const mark = server.emulator.mark();
    await expect(getPipelineSchedulePipelines({ project: "acme/web", scheduleId: 1, updatedAfter: "yesterday" })).rejects.toThrow(
      /getPipelineSchedulePipelines: invalid arguments: updatedAfter: must be an ISO 8601 date and time/,
    );
    await expect(getPipelineSchedulePipelines({ project: "acme/web", scheduleId: 1, status: "green" as never })).rejects.toThrow(/status: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("a missing schedule is named", async () => {
    await expect(getPipelineSchedulePipelines({ project: "acme/web", scheduleId: 99_999 })).rejects.toThrow(/the pipelines of pipeline schedule 99999 of project acme\/web was not found/);
  });
});
