/**
 * The labels emulator driven by a real client: @gitbeaker/rest's
 * `ProjectLabels` and `GroupLabels` (`all`, `show`, `create`, `edit`, `remove`).
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const server = useEmulator();
const as = (username: string) => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens[username]! });

describe("@gitbeaker/rest labels", () => {
  it("GroupLabels and ProjectLabels: create, list with the group's labels, show by name, rename, delete", async () => {
    const api = as("maintainer");
    const groupLabel = await api.GroupLabels.create("acme", "gb-group", "orange", { description: "from gitbeaker" });
    expect(groupLabel).toMatchObject({ name: "gb-group", color: "#FFA500", description: "from gitbeaker" });
    const projectLabel = await api.ProjectLabels.create("acme/web", "gb-project", "#00aa00", { priority: 3 });
    expect(projectLabel).toMatchObject({ name: "gb-project", priority: 3, is_project_label: true });
    const listed = await api.ProjectLabels.all("acme/web", { search: "gb-" });
    expect(listed.map((label) => label.name)).toEqual(["gb-group", "gb-project"]);
    expect(await api.ProjectLabels.show("acme/web", "gb-group")).toMatchObject({ id: groupLabel.id, is_project_label: false });
    const renamed = await api.ProjectLabels.edit("acme/web", projectLabel.id, { newName: "gb-renamed" });
    expect(renamed).toMatchObject({ id: projectLabel.id, name: "gb-renamed" });
    await api.ProjectLabels.remove("acme/web", projectLabel.id);
    await api.GroupLabels.remove("acme", "gb-group");
    expect((await api.GroupLabels.all("acme")).map((label) => label.name)).not.toContain("gb-group");
  });
});
