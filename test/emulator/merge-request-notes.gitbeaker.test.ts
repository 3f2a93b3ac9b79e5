/**
 * Merge request notes and one project's merge requests driven by
 * @gitbeaker/rest: MergeRequestNotes.all/show/create/edit (what the review
 * command uses to post and update its report) and MergeRequests.all with a
 * projectId, with their refusals as the client surfaces them.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { freshEmulator } from "./registry-fixtures";

async function client(username = "dev") {
  const server = await freshEmulator();
  const api = (as: string) => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens[as]! });
  return { server, api: api(username), as: api };
}

const status = (code: number) => ({ cause: { response: { status: code } } });

describe("@gitbeaker/rest MergeRequestNotes", () => {
  it("create, then edit in place, then find it again in the list over every page", async () => {
    const { api } = await client();
    const note = await api.MergeRequestNotes.create("acme/web", 1, "<!-- platform-review:stack=dev -->\nNo changes");
    expect(note).toMatchObject({ body: expect.stringContaining("No changes"), author: { username: "dev" }, noteable_type: "MergeRequest", noteable_iid: 1, system: false });
    const edited = await api.MergeRequestNotes.edit("acme/web", 1, note.id, { body: "<!-- platform-review:stack=dev -->\n2 to add" });
    expect(edited).toMatchObject({ id: note.id, body: expect.stringContaining("2 to add") });
    const all = await api.MergeRequestNotes.all("acme/web", 1, { perPage: 1, sort: "asc", orderBy: "created_at" });
    expect(all.map((n) => n.id)).toEqual([1, 2, 3, note.id]);
    const shown = await api.MergeRequestNotes.show("acme/web", 1, note.id);
    expect(shown.body).toContain("2 to add");
  });

  it("refusals: another Developer's edit is 403, a blank body 400, an unreadable merge request 404", async () => {
    const { api, as } = await client();
    await expect(api.MergeRequestNotes.edit("acme/web", 1, 1, { body: "not mine" })).rejects.toMatchObject(status(403));
    await expect(api.MergeRequestNotes.create("acme/web", 1, " ")).rejects.toMatchObject(status(400));
    await expect(as("guest").MergeRequestNotes.all("acme/web", 1)).rejects.toMatchObject(status(404));
    await expect(as("outsider").MergeRequestNotes.create("acme/web", 1, "hello")).rejects.toMatchObject(status(404));
  });
});

describe("@gitbeaker/rest MergeRequests.all of one project", () => {
  it("every merge request of the project by default (scope all), with filters and iids", async () => {
    const { api } = await client("guest");
    // A Guest of acme may not read acme/web's merge requests: 403 for the project list.
    await expect(api.MergeRequests.all({ projectId: "acme/web" })).rejects.toMatchObject(status(403));
    const { api: dev } = await client();
    const all = await dev.MergeRequests.all({ projectId: "acme/web", perPage: 2, sort: "asc" });
    expect(all.map((mr) => mr.iid)).toEqual([4, 3, 1, 2, 5]);
    const opened = await dev.MergeRequests.all({ projectId: "acme/web", state: "opened", labels: "feature" });
    expect(opened.map((mr) => mr.iid)).toEqual([1]);
    const some = await dev.MergeRequests.all({ projectId: "acme/web", iids: [2, 3] });
    expect(some.map((mr) => mr.iid).sort()).toEqual([2, 3]);
  });
});
