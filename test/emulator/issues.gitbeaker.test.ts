/**
 * Project issues and their notes driven by @gitbeaker/rest: Issues.create,
 * all, show, edit (close), and IssueNotes.create, all, show, edit, as the
 * review's drift job would keep one issue per stack.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { freshEmulator } from "./registry-fixtures";

describe("@gitbeaker/rest Issues and IssueNotes", () => {
  it("opens, finds, updates and closes an issue, with notes", async () => {
    const { emulator } = await freshEmulator();
    const api = new Gitlab({ host: emulator.url, token: emulator.tokens.maintainer! });
    const issue = await api.Issues.create("acme/web", "Drift: prod", { description: "2 changes outside the program", labels: "drift" });
    expect(issue).toMatchObject({ iid: 1, state: "opened", labels: ["drift"] });
    const found = await api.Issues.all({ projectId: "acme/web", labels: "drift", state: "opened" });
    expect(found.map((one) => one.iid)).toEqual([1]);
    expect((await api.Issues.show(1, { projectId: "acme/web" })).title).toBe("Drift: prod");
    const note = await api.IssueNotes.create("acme/web", 1, "Seen again");
    expect((await api.IssueNotes.all("acme/web", 1)).map((one) => one.body)).toEqual(["Seen again"]);
    expect((await api.IssueNotes.edit("acme/web", 1, note.id, { body: "Seen twice" })).body).toBe("Seen twice");
    expect((await api.IssueNotes.show("acme/web", 1, note.id)).body).toBe("Seen twice");
    const closed = await api.Issues.edit("acme/web", 1, { stateEvent: "close", description: "The platform matches again" });
    expect(closed).toMatchObject({ state: "closed", description: "The platform matches again" });
    await expect(api.Issues.show(9, { projectId: "acme/web" })).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });
});
