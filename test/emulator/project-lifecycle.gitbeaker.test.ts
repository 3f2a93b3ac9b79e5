/**
 * A project's life driven by @gitbeaker/rest's `Projects`: create (with a
 * README), edit (a rename), transfer, archive and unarchive, remove (marked
 * for deletion) and restore. The answers decode into its types.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const server = useEmulator();
const api = () => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens.alice! });

describe("@gitbeaker/rest projects", () => {
  it("creates, renames, transfers, archives, marks for deletion and restores a project", async () => {
    const acme = await api().Groups.show("acme");
    const made = await api().Projects.create({ name: "Gitbeaker Made", namespaceId: acme.id, initializeWithReadme: true, defaultBranch: "trunk", mergeMethod: "ff" });
    expect(made).toMatchObject({ path_with_namespace: "acme/gitbeaker-made", default_branch: "trunk", merge_method: "ff", empty_repo: false });
    const renamed = await api().Projects.edit(made.id, { path: "gb-renamed", topics: ["gitbeaker"] });
    expect(renamed).toMatchObject({ path_with_namespace: "acme/gb-renamed", topics: ["gitbeaker"] });
    // Its type says camelized; without the `camelize` option the answer keeps the server's names.
    const moved = (await api().Projects.transfer(made.id, "acme/platform")) as unknown as { path_with_namespace: string };
    expect(moved.path_with_namespace).toBe("acme/platform/gb-renamed");
    expect((await api().Projects.archive(made.id)).archived).toBe(true);
    expect((await api().Projects.unarchive(made.id)).archived).toBe(false);
    await api().Projects.remove(made.id);
    expect((await api().Projects.show(made.id)).marked_for_deletion_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await api().Projects.restore(made.id);
    expect((await api().Projects.show(made.id)).marked_for_deletion_on).toBeNull();
  });
});
