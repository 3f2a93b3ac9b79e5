/**
 * The client with a CI job token: `JOB-TOKEN` instead of `PRIVATE-TOKEN`,
 * taken from `connection.jobToken` or from `CI_JOB_TOKEN` when no access
 * token is set anywhere, and refusals that say what a job token reaches.
 * This file configures no provider: the functions and actions read the environment.
 */
import { afterEach, describe, expect, it } from "vitest";
import { deleteRegistryTag, getRegistryTags, runPipelineSchedule } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const JOB_TOKEN = "glcbt-web-maintainer-job";
const seed: Seed = { ...defaultSeed, jobTokens: [{ token: JOB_TOKEN, project: "acme/web", user: "maintainer" }] };
const server = useEmulator({ seed });
const ENV = ["PLATFORM_URL", "PLATFORM_TOKEN", "CI_JOB_TOKEN"] as const;

afterEach(() => {
  for (const name of ENV) delete process.env[name];
});

/** The statuses of the requests `action` made (the emulator answers a job token only on its project's registry). */
async function statuses(action: () => Promise<unknown>): Promise<number[]> {
  return (await server.requestsDuring(action)).map((request) => request.status);
}

describe("a CI job token", () => {
  it("connection.jobToken: reads and deletes its project's registry tags", async () => {
    const connection = { url: server.emulator.url, jobToken: JOB_TOKEN };
    expect((await getRegistryTags({ project: "acme/web", repositoryId: 2 }, { connection })).length).toBe(12);
    expect(await deleteRegistryTag({ project: "acme/web", repositoryId: 2, name: "main-2b3c4d5e" }, { connection })).toEqual({ deleted: "main-2b3c4d5e" });
  });

  it("CI_JOB_TOKEN with PLATFORM_URL and no access token: sent as JOB-TOKEN", async () => {
    process.env.PLATFORM_URL = server.emulator.url;
    process.env.CI_JOB_TOKEN = JOB_TOKEN;
    expect(await statuses(() => getRegistryTags({ project: "acme/web", repositoryId: 2, limit: 1 }))).toEqual([200]);
  });

  it("CI_JOB_TOKEN is not used beside PLATFORM_TOKEN: the access token is", async () => {
    process.env.PLATFORM_URL = server.emulator.url;
    process.env.CI_JOB_TOKEN = "glcbt-not-a-job-of-this-server";
    process.env.PLATFORM_TOKEN = server.emulator.tokens["dev"]!;
    // dev's own token reaches acme/api, which no job token of acme/web could.
    expect(await statuses(() => getRegistryTags({ project: "acme/api", repositoryId: 2, limit: 1 }).catch(() => undefined))).not.toContain(401);
  });

  it("anything but its project's registry is refused, and the error says what a job token reaches", async () => {
    process.env.PLATFORM_URL = server.emulator.url;
    process.env.CI_JOB_TOKEN = JOB_TOKEN;
    const reach = /A CI job token \(platform:jobToken, or CI_JOB_TOKEN\) reaches only the container registry of the project whose pipeline made it/;
    await expect(runPipelineSchedule({ project: "acme/web", scheduleId: 1 })).rejects.toThrow(/answered 401 \(401 Unauthorized\): A CI job token .* reaches only the container registry/);
    await expect(runPipelineSchedule({ project: "acme/web", scheduleId: 1 })).rejects.not.toThrow(/check platform:token/);
    await expect(getRegistryTags({ project: "acme/api", repositoryId: 3 })).rejects.toThrow(reach);
  });

  it("both an access token and a job token given: refused before any request, naming both", async () => {
    const connection = { url: server.emulator.url, token: server.emulator.tokens["dev"]!, jobToken: JOB_TOKEN };
    const mark = server.emulator.mark();
    await expect(getRegistryTags({ project: "acme/web", repositoryId: 2 }, { connection })).rejects.toThrow(/connection\.token and connection\.jobToken are both set: give one/);
    expect(server.emulator.requestLog.filter((entry) => entry.seq >= mark)).toEqual([]);
  });
});
