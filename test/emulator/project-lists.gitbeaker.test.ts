/**
 * Finding the estate with @gitbeaker/rest, as an import tool would:
 * Projects.all (its default keyset pages, and offset pages),
 * Groups.allProjects with subgroups, Groups.allSubgroups and
 * Groups.allDescendantGroups, each reading every page.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { freshEmulator } from "./registry-fixtures";

describe("@gitbeaker/rest project and group lists", () => {
  it("Projects.all over keyset and offset pages", async () => {
    const { emulator } = await freshEmulator();
    const api = new Gitlab({ host: emulator.url, token: emulator.tokens.dev! });
    const keyset = await api.Projects.all({ pagination: "keyset", orderBy: "id", sort: "asc", perPage: 1, membership: true });
    expect(keyset.map((project) => project.path_with_namespace)).toEqual(["acme/web", "acme/api", "acme/platform/infra"]);
    const offset = await api.Projects.all({ pagination: "offset", perPage: 2, simple: true, orderBy: "path", sort: "asc" });
    expect(offset.map((project) => project.path_with_namespace)).toEqual(["acme/api", "acme/platform/infra", "beta/site", "acme/web"]);
  });

  it("Groups.allProjects, allSubgroups, allDescendantGroups", async () => {
    const { emulator } = await freshEmulator();
    const api = new Gitlab({ host: emulator.url, token: emulator.tokens.alice! });
    const projects = await api.Groups.allProjects("acme", { includeSubgroups: true, perPage: 1, orderBy: "id", sort: "asc" });
    expect(projects.map((project) => project.path_with_namespace)).toEqual(["acme/web", "acme/api", "acme/platform/infra"]);
    expect((await api.Groups.allSubgroups("acme")).map((group) => group.full_path)).toEqual(["acme/platform"]);
    expect((await api.Groups.allDescendantGroups("beta", { perPage: 1 })).map((group) => group.full_path)).toEqual(["beta/labs"]);
    const outsider = new Gitlab({ host: emulator.url, token: emulator.tokens.outsider! });
    await expect(outsider.Groups.allProjects("acme")).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});
