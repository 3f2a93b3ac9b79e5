/** getProject and getProjects against the emulator: results, filters, the group's list or the caller's, refusals. */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, getProject, getProjects, getProjectsOutput } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();

beforeAll(async () => {
  await server.configureProviders("alice");
  const api = server.as("alice");
  const acme = await api.get<{ id: number }>(apiPath`/groups/${"acme"}`);
  const made = await api.post<{ id: number }>("/projects", { namespace_id: acme.id, path: "old-tools", topics: ["tooling", "legacy"] });
  await api.post(`/projects/${made.id}/archive`, {});
  await api.put(apiPath`/projects/${"acme/web"}`, { topics: ["frontend"] });
});

describe("getProject", () => {
  it("one project by path, camelCased, with its statistics when asked", async () => {
    const requests = await server.requestsDuring(async () => {
      const web = await getProject({ project: "acme/web", statistics: true });
      expect(web).toMatchObject({ pathWithNamespace: "acme/web", archived: false, markedForDeletionOn: null, namespace: { fullPath: "acme", kind: "group" }, statistics: { commitCount: expect.any(Number) } });
    });
    expect(requests.map((request) => request.path)).toEqual(["/api/v4/projects/acme%2Fweb"]);
  });

  it("a missing or hidden project is named so", async () => {
    await expect(getProject({ project: "acme/nope" })).rejects.toThrow(/project acme\/nope does not exist/);
    await expect(server.actingAs("outsider", () => getProject({ project: "acme/web" }))).rejects.toThrow(/project acme\/web does not exist, or the token's user cannot see it/);
  });
});

describe("getProjects", () => {
  it("a group's projects (its subgroups' too), filtered by archived, topic, search and visibility", async () => {
    const paths = (list: { pathWithNamespace: string }[]) => list.map((one) => one.pathWithNamespace).sort();
    expect(paths(await getProjects({ group: "acme", includeSubgroups: true, withShared: false }))).toEqual(["acme/api", "acme/old-tools", "acme/platform/infra", "acme/web"]);
    expect(paths(await getProjects({ group: "acme", archived: true }))).toEqual(["acme/old-tools"]);
    expect(paths(await getProjects({ group: "acme", archived: false }))).toEqual(["acme/api", "acme/web"]);
    expect(paths(await getProjects({ group: "acme", topic: ["tooling", "legacy"] }))).toEqual(["acme/old-tools"]);
    expect(paths(await getProjects({ group: "acme", topic: "frontend" }))).toEqual(["acme/web"]);
    expect(paths(await getProjects({ group: "acme", search: "we" }))).toEqual(["acme/web"]);
    expect(paths(await getProjects({ visibility: "public" }))).toEqual(["beta/site"]);
  });

  it("each argument reaches the API in its own spelling; without a group, GET /projects", async () => {
    const requests = await server.requestsDuring(() => getProjects({ group: "acme", includeSubgroups: true, withShared: false, archived: false, topic: ["a", "b"], visibility: "private", search: "x" }));
    const query = new URLSearchParams(server.emulator.requestLog.at(-1)!.query);
    expect(requests.map((request) => request.path)).toEqual(["/api/v4/groups/acme/projects"]);
    expect(Object.fromEntries(query)).toMatchObject({ include_subgroups: "true", with_shared: "false", archived: "false", topic: "a,b", visibility: "private", search: "x", per_page: "100" });
    const mine = await server.requestsDuring(() => getProjects({ membership: true }));
    expect(mine.map((request) => request.path)).toEqual(["/api/v4/projects"]);
  });

  it("refuses arguments that apply only with or without a group, before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      await expect(getProjects({ withShared: false })).rejects.toThrow(/withShared: applies only with group/);
      await expect(getProjects({ group: "acme", membership: true })).rejects.toThrow(/membership: applies only without group/);
      await expect(getProjects({ group: "acme", visibility: "secret" as never })).rejects.toThrow(/visibility/);
    });
    expect(requests).toEqual([]);
  });

  it("the Output form gives the same list", async () => {
    const list = await new Promise<{ pathWithNamespace: string }[]>((resolve) => getProjectsOutput({ group: "acme", archived: true }).apply(resolve));
    expect(list.map((one) => one.pathWithNamespace)).toEqual(["acme/old-tools"]);
  });
});
