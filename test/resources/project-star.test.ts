/** ProjectStar through the provider, as the engine calls it, against the emulator. */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const projectStar = providers.ProjectStar;
type Props = Record<string, unknown>;

interface Starrer {
  starred_since: string;
  user: { id: number; username: string };
}

const starrers = (project: string) => server.as().list<Starrer>(apiPath`/projects/${project}/starrers`);
const starredBy = async (project: string, username: string) => (await starrers(project)).some((entry) => entry.user.username === username);
const starCount = async (project: string) => (await server.as().get<{ star_count: number }>(apiPath`/projects/${project}`)).star_count;
const requestLines = (requests: { method: string; path: string; status: number }[]) => requests.map((r) => `${r.method} ${r.path} ${r.status}`);

async function create(inputs: Props) {
  const checked = await projectStar.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await projectStar.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Props, outs: created.outs as Props };
}

let apiId = 0;
let devId = 0;

beforeAll(async () => {
  await server.configureProviders("dev");
  apiId = (await server.as().get<{ id: number }>(apiPath`/projects/${"acme/api"}`)).id;
  devId = server.emulator.state.userByUsername("dev")!.id;
});

afterEach(async () => {
  await server.configureProviders("dev");
});

describe("life cycle", () => {
  it("create: who the token's user is, the star, the starrers searched by username; then a clean diff", async () => {
    const before = await starCount("acme/api");
    let created: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await create({ project: "acme/api" });
    });
    expect(requestLines(requests)).toEqual([
      "GET /api/v4/user 200",
      "POST /api/v4/projects/acme%2Fapi/star 201",
      `GET /api/v4/projects/${apiId}/starrers 200`,
    ]);
    const { id, inputs, outs } = created!;
    expect(id).toBe(`projects/${apiId}/starrers/${devId}`);
    expect(outs).toMatchObject({ project: "acme/api", projectId: apiId, userId: devId, username: "dev", starCount: before + 1, starredBefore: false });
    expect(outs.starredSince).toBe((await starrers("acme/api")).find((entry) => entry.user.username === "dev")!.starred_since);
    expect(await projectStar.diff(id, outs, inputs)).toMatchObject({ changes: false });

    // Another project replaces the star; the old one goes first (a path and an id may name one project).
    expect(await projectStar.diff(id, outs, { project: "acme/web" })).toMatchObject({ changes: true, replaces: ["project"], deleteBeforeReplace: true });

    const deleted = await server.requestsDuring(() => projectStar.delete(id, outs));
    expect(requestLines(deleted)).toEqual([`POST /api/v4/projects/${apiId}/unstar 201`]);
    expect(await starredBy("acme/api", "dev")).toBe(false);
    expect(await starCount("acme/api")).toBe(before);
  });

  it("refresh: the star and the project's current star count; a star removed elsewhere is gone", async () => {
    const { id, outs } = await create({ project: apiId });
    // Someone else stars the project: the count read on refresh follows.
    await server.as("maintainer").post(apiPath`/projects/${"acme/api"}/star`, {});
    const requests = await server.requestsDuring(async () => {
      const read = await projectStar.read(id, outs);
      expect(read.id).toBe(id);
      expect(read.props).toMatchObject({ starredSince: outs.starredSince, starCount: Number(outs.starCount) + 1, username: "dev" });
      expect(read.inputs).toEqual({ project: apiId });
    });
    expect(requestLines(requests)).toEqual([`GET /api/v4/projects/${apiId}/starrers 200`, `GET /api/v4/projects/${apiId} 200`]);
    expect(server.emulator.requestLog.at(-2)!.query).toBe("per_page=100&search=dev");
    await server.as("maintainer").post(apiPath`/projects/${"acme/api"}/unstar`, {});

    // dev unstars in the web UI: the star reads as gone, and the next up makes it again.
    await server.as("dev").post(apiPath`/projects/${"acme/api"}/unstar`, {});
    expect((await projectStar.read(id, outs)).id).toBe("");
    // Deleting a star that is already gone succeeds: a 304, and the token is still dev's.
    const deleted = await server.requestsDuring(() => projectStar.delete(id, outs));
    expect(requestLines(deleted)).toEqual([`POST /api/v4/projects/${apiId}/unstar 304`, "GET /api/v4/user 200"]);
  });

  it("a project the user already starred is taken over without error, and destroy keeps that star", async () => {
    // dev starred acme/web in the seed.
    const before = await starCount("acme/web");
    let created: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await create({ project: "acme/web" });
    });
    expect(requestLines(requests)).toEqual([
      "GET /api/v4/user 200",
      "POST /api/v4/projects/acme%2Fweb/star 304",
      "GET /api/v4/projects/acme%2Fweb 200",
      "GET /api/v4/projects/1/starrers 200",
    ]);
    expect(created!.outs).toMatchObject({ starredBefore: true, starCount: before, username: "dev" });
    expect(await server.requestsDuring(() => projectStar.delete(created!.id, created!.outs))).toEqual([]);
    expect(await starredBy("acme/web", "dev")).toBe(true);
  });

  it("a user with no role on a public project may star it", async () => {
    await server.configureProviders("maintainer");
    const { id, outs } = await create({ project: "beta/site" });
    expect(outs).toMatchObject({ username: "maintainer", starredBefore: false });
    await projectStar.delete(id, outs);
    expect(await starredBy("beta/site", "maintainer")).toBe(false);
  });

  it("a star of a project that was deleted reads as gone to an administrator; to others a deleted project may be a hidden one", async () => {
    const { id, outs } = await create({ project: "acme/api" });
    const project = server.emulator.state.projectByFullPath("acme/api")!;
    const index = server.emulator.state.projects.indexOf(project);
    server.emulator.state.projects.splice(index, 1);
    try {
      await expect(projectStar.read(id, outs)).rejects.toThrow(/project acme\/api does not exist, or the token's user \(dev\) cannot see it; nothing was removed from the stack/);
      await expect(projectStar.delete(id, outs)).rejects.toThrow(/nothing was removed from the stack/);
      await server.actingAs("root", async () => {
        expect((await projectStar.read(id, outs)).id).toBe("");
        await projectStar.delete(id, outs);
      });
    } finally {
      server.emulator.state.projects.splice(index, 0, project);
    }
    await server.as("dev").post(apiPath`/projects/${"acme/api"}/unstar`, {});
  });
});

describe("refusals", () => {
  it("the token of another user cannot remove the star: the error names both users", async () => {
    const { id, outs } = await create({ project: "acme/api" });
    await server.configureProviders("maintainer");
    const error = (await projectStar.delete(id, outs).catch((caught: Error) => caught)) as Error;
    expect(error.message).toMatch(/made by dev \(user \d+\), but platform:token is now maintainer's/);
    expect(error.stack ?? "").toBe("");
    expect(await starredBy("acme/api", "dev")).toBe(true);
    await server.configureProviders("dev");
    await projectStar.delete(id, outs);
  });

  it("a private project the user cannot see is named, and nothing is starred", async () => {
    await server.configureProviders("outsider");
    const checked = await projectStar.check({}, { project: "acme/api" });
    const error = (await projectStar.create(checked.inputs).catch((caught: Error) => caught)) as Error;
    expect(error.message).toMatch(/project acme\/api does not exist, or the token's user cannot see it/);
    expect(await starredBy("acme/api", "outsider")).toBe(false);
  });

  it("check refuses a bad project before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      const result = await projectStar.check({}, { project: "acme web!" });
      expect(result.failures).toEqual([{ property: "", reason: expect.stringMatching(/project: .*numeric id or a full path/) }]);
      const missing = await projectStar.check({}, {});
      expect(missing.failures).toEqual([{ property: "", reason: expect.stringMatching(/project: .*required/) }]);
    });
    expect(requests).toEqual([]);
  });
});
