/** A group's subgroups and descendants against the emulator: results, filters, the Output forms, refusals. */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, getGroupDescendants, getGroupDescendantsOutput, getGroups, getGroupSubgroups, getGroupSubgroupsOutput } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const paths = (groups: { fullPath: string }[]) => groups.map((group) => group.fullPath).sort();

beforeAll(async () => {
  await server.configureProviders("alice");
  const platform = await server.as().get<{ id: number }>(apiPath`/groups/${"acme/platform"}`);
  await server.as().post("/groups", { name: "Tools", path: "tools", parent_id: platform.id });
  await server.as().post("/groups", { name: "Web team", path: "web-team", parent_id: (await server.as().get<{ id: number }>(apiPath`/groups/${"acme"}`)).id, visibility: "private" });
});

describe("getGroupSubgroups and getGroupDescendants", () => {
  it("list the children, or every group below, with the list's filters", async () => {
    expect(paths(await getGroupSubgroups({ group: "acme", allAvailable: true }))).toEqual(["acme/platform", "acme/web-team"]);
    expect(paths(await getGroupDescendants({ group: "acme", allAvailable: true }))).toEqual(["acme/platform", "acme/platform/tools", "acme/web-team"]);
    expect(paths(await getGroupDescendants({ group: "acme", allAvailable: true, search: "tool" }))).toEqual(["acme/platform/tools"]);
    expect(paths(await getGroupSubgroups({ group: "acme", minAccessLevel: 50 }))).toEqual(["acme/platform", "acme/web-team"]);
    const output = await new Promise<{ fullPath: string }[]>((resolve) => getGroupDescendantsOutput({ group: "acme/platform", allAvailable: true }).apply(resolve));
    expect(paths(output)).toEqual(["acme/platform/tools"]);
    const children = await new Promise<{ fullPath: string }[]>((resolve) => getGroupSubgroupsOutput({ group: "beta", allAvailable: true }).apply(resolve));
    expect(paths(children)).toEqual(["beta/labs"]);
  });

  it("getGroups takes search, allAvailable, topLevelOnly and minAccessLevel", async () => {
    expect(paths(await getGroups({ topLevelOnly: true, minAccessLevel: 50 }))).toEqual(["acme", "beta"]);
    expect(paths(await getGroups({ allAvailable: true, search: "web-team" }))).toEqual(["acme/web-team"]);
  });

  it("a group the caller may not see is named; bad arguments fail before any request", async () => {
    await server.actingAs("outsider", async () => {
      await expect(getGroupSubgroups({ group: "acme" })).rejects.toThrow(/getGroupSubgroups: could not read the subgroups of group acme: .*404/);
    });
    const mark = server.emulator.mark();
    await expect(getGroupDescendants({ group: "acme", orderBy: "similarity" })).rejects.toThrow(/orderBy: similarity orders by closeness to search; give search too/);
    await expect(getGroupSubgroups({ group: "acme/.." })).rejects.toThrow(/group: must not be "\."/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});
