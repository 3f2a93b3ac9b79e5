/** PipelineScheduleRun and ChangelogCommit through the provider, as the engine calls them, against the emulator. */
import { beforeAll, describe, expect, it } from "vitest";
import { getPipelineSchedulePipelines, getPipelineSchedules, providers } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { tokenOf, useEmulator } from "../support";

const seed: Seed = { ...defaultSeed, pipelineSchedules: { "acme/web": [{ description: "Nightly build", ref: "main", cron: "0 2 * * *", owner: "maintainer" }] } };
const server = useEmulator({ seed });
type Props = Record<string, unknown>;
const lines = (requests: { method: string; path: string; status: number }[]) => requests.map((r) => `${r.method} ${r.path} ${r.status}`);

async function create(kind: "PipelineScheduleRun" | "ChangelogCommit", inputs: Props) {
  const checked = await providers[kind].check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await providers[kind].create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Props, outs: created.outs as Props };
}

let scheduleId = 0;
beforeAll(async () => {
  await server.configureProviders("maintainer");
  scheduleId = (await getPipelineSchedules({ project: "acme/web" }))[0]!.id;
});

describe("PipelineScheduleRun", () => {
  it("create runs the schedule once (one POST); the same inputs are no change; changed triggers replace it, which runs it again", async () => {
    let run: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => (run = await create("PipelineScheduleRun", { project: "acme/web", scheduleId, triggers: ["0 2 * * *"] })));
    expect(lines(requests)).toEqual([`POST /api/v4/projects/acme%2Fweb/pipeline_schedules/${scheduleId}/play 201`]);
    expect(run!.outs).toMatchObject({ message: "201 Created", ranAt: expect.any(String) });
    expect(await getPipelineSchedulePipelines({ project: "acme/web", scheduleId })).toHaveLength(1);
    const provider = providers.PipelineScheduleRun;
    expect(await provider.diff(run!.id, run!.outs, run!.inputs)).toMatchObject({ changes: false });
    expect(await provider.diff(run!.id, run!.outs, { ...run!.inputs, triggers: ["0 3 * * *"] })).toMatchObject({ changes: true, replaces: ["triggers"] });
  });

  it("has no update: a rotated token alone is updated in place with no request, and what the run recorded stays", async () => {
    const connection = { url: server.emulator.url, token: tokenOf(server.emulator, "maintainer") };
    const run = await create("PipelineScheduleRun", { project: "acme/web", scheduleId, connection });
    const provider = providers.PipelineScheduleRun;
    const rotated = { ...run.inputs, connection: { ...connection, token: tokenOf(server.emulator, "root") } };
    expect((await provider.diff(run.id, run.outs, rotated)).replaces).toEqual([]);
    let updated: Props = {};
    const requests = await server.requestsDuring(async () => (updated = (await provider.update(run.id, run.outs, rotated)).outs as Props));
    expect(requests).toEqual([]);
    expect(updated).toMatchObject({ project: "acme/web", scheduleId, message: "201 Created", ranAt: run.outs.ranAt, connection: rotated.connection });
  });

  it("read gives back what the run recorded, with no request; delete sends nothing (the pipeline stays)", async () => {
    const run = await create("PipelineScheduleRun", { project: "acme/web", scheduleId });
    const provider = providers.PipelineScheduleRun;
    const requests = await server.requestsDuring(async () => {
      expect((await provider.read(run.id, run.outs)).props).toMatchObject({ message: "201 Created", ranAt: run.outs.ranAt });
      await provider.delete(run.id, run.outs);
    });
    expect(requests).toEqual([]);
  });

  for (const fault of ["commit-then-error", "commit-then-reset"] as const) {
    it(`an answer lost after the server ran it (${fault}): not sent again, and the error says it may have run`, async () => {
      const pipelines = async () => (await getPipelineSchedulePipelines({ project: "acme/web", scheduleId })).length;
      const before = await pipelines();
      server.emulator.setFaultPlan({ rules: [{ method: "POST", path: `/projects/acme%2Fweb/pipeline_schedules/${scheduleId}/play`, sequence: [fault] }] });
      let error: Error | undefined;
      try {
        const requests = await server.requestsDuring(async () => {
          error = await create("PipelineScheduleRun", { project: "acme/web", scheduleId }).then(() => undefined, (caught: Error) => caught);
        });
        expect(requests.filter((request) => request.method === "POST")).toHaveLength(1);
      } finally {
        server.emulator.setFaultPlan(undefined);
      }
      expect(error?.message).toMatch(/^PipelineScheduleRun: could not create it\. .*The server may have done it before the failure: check before running it again\.$/);
      expect(error?.message).not.toMatch(/again later/);
      expect(await pipelines()).toBe(before + 1);
    });
  }

  it("a Guest's token is refused: the schedule is hidden from it", async () => {
    await server.actingAs("guest", () => expect(create("PipelineScheduleRun", { project: "acme/web", scheduleId })).rejects.toThrow(/PipelineScheduleRun: could not create it\. POST .*\/play failed with 404 .*pipeline schedule \d+ of project acme\/web does not exist, or the token's user cannot see it/));
  });
});

describe("at preview (verification on)", () => {
  it("a Guest's run or commit fails at check, naming the role; nothing is run", async () => {
    await server.configureProviders("guest", { "platform:verifyAtPreview": "true" });
    try {
      const requests = await server.requestsDuring(async () => {
        for (const [kind, inputs] of [["PipelineScheduleRun", { project: "acme/web", scheduleId }], ["ChangelogCommit", { project: "acme/web", version: "1.9.0" }]] as const) {
          const { failures } = await providers[kind].check({}, inputs);
          expect((failures ?? []).map((failure) => failure.reason).join("\n"), kind).toMatch(/project: .*Developer/);
        }
      });
      expect(requests.filter((request) => request.method !== "GET")).toEqual([]);
    } finally {
      await server.configureProviders("maintainer");
    }
  });
});

describe("ChangelogCommit", () => {
  it("create commits the version's notes; a new version replaces it and commits again; delete sends nothing", async () => {
    const first = await create("ChangelogCommit", { project: "acme/web", version: "1.5.0", branch: "stable" });
    expect(first.id).toBe("projects/acme/web/changelog/1.5.0");
    const provider = providers.ChangelogCommit;
    expect(await provider.diff(first.id, first.outs, first.inputs)).toMatchObject({ changes: false });
    expect(await provider.diff(first.id, first.outs, { ...first.inputs, version: "1.6.0" })).toMatchObject({ changes: true, replaces: ["version"] });
    const head = server.emulator.state.projectByFullPath("acme/web")!.lastCommitSha;
    const requests = await server.requestsDuring(() => create("ChangelogCommit", { project: "acme/web", version: "1.6.0", branch: "main" }));
    expect(lines(requests)).toEqual(["POST /api/v4/projects/acme%2Fweb/repository/changelog 200"]);
    expect(server.emulator.state.projectByFullPath("acme/web")!.lastCommitSha).not.toBe(head);
    expect(await server.requestsDuring(() => provider.delete(first.id, first.outs))).toEqual([]);
  });

  it("a Developer on the protected default branch is refused", async () => {
    await server.actingAs("dev", () => expect(create("ChangelogCommit", { project: "acme/web", version: "1.7.0" })).rejects.toThrow(/ChangelogCommit: could not create it\. .*403 .*the token's user needs push access \(the Developer role; on a protected default branch, .*\) on the default branch of project acme\/web/));
  });
});
