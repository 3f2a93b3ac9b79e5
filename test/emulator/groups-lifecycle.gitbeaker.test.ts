/**
 * A group's life driven by a real client, @gitbeaker/rest: Groups.create
 * (a subgroup), Groups.edit (a rename), Groups.transfer, Groups.remove (marked
 * for deletion, then removed for good with its full path) and Groups.restore.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const server = useEmulator();
const client = () => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens.alice! });
const status = (error: unknown) => (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;

describe("@gitbeaker/rest Groups: create, rename, transfer, remove and restore", () => {
  it("runs a subgroup's whole life", async () => {
    const api = client();
    const acme = await api.Groups.show("acme");
    const created = await api.Groups.create("Gitbeaker team", "gitbeaker-team", { parentId: acme.id, description: "made by gitbeaker" });
    expect(created).toMatchObject({ full_path: "acme/gitbeaker-team", parent_id: acme.id, description: "made by gitbeaker" });

    const renamed = await api.Groups.edit(created.id, { path: "gitbeaker-renamed" });
    expect(renamed.full_path).toBe("acme/gitbeaker-renamed");

    const beta = await api.Groups.show("beta");
    await api.Groups.transfer(created.id, { groupId: beta.id });
    expect((await api.Groups.show(created.id)).full_path).toBe("beta/gitbeaker-renamed");

    await api.Groups.remove(created.id);
    expect((await api.Groups.show(created.id)).marked_for_deletion_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await api.Groups.restore(created.id);
    expect((await api.Groups.show(created.id)).marked_for_deletion_on).toBeNull();

    await api.Groups.remove(created.id);
    await api.Groups.remove(created.id, { permanentlyRemove: true, fullPath: "beta/gitbeaker-renamed" });
    expect(status(await api.Groups.show(created.id).catch((error: unknown) => error))).toBe(404);
  });

  it("a top-level group through the hosted offering's API is refused", async () => {
    expect(status(await client().Groups.create("Top", "gitbeaker-top").catch((error: unknown) => error))).toBe(403);
  });
});
