/**
 * Project issues over real HTTP: list, create, show, edit (close and reopen),
 * who may do what (a private project's issues hidden from non-members, a
 * confidential issue from Guests), and the issues' notes, internal ones
 * included.
 */
import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

const WEB = "/projects/acme%2Fweb";
const API = "/projects/acme%2Fapi";
const server = useEmulator({ backgroundWork: "manual" });

const create = (path: string, body: object, as = "dev") => call(server.emulator, `${path}/issues`, { as, method: "POST", body });

describe("project issues", () => {
  it("create, show, list with filters, edit, close and reopen", async () => {
    const { emulator } = server;
    const made = await create(WEB, { title: "  Drift on prod  ", description: "- [x] seen\n- [ ] fixed", labels: "drift,stack::prod", assignee_ids: [4] }, "maintainer");
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      iid: 1,
      title: "Drift on prod",
      state: "opened",
      labels: ["drift", "stack::prod"],
      author: { username: "maintainer" },
      assignees: [{ id: 4 }],
      type: "ISSUE",
      issue_type: "issue",
      confidential: false,
      closed_at: null,
      user_notes_count: 0,
      task_completion_status: { count: 2, completed_count: 1 },
      references: { full: "acme/web#1" },
      web_url: "https://gitlab.example.test/acme/web/-/issues/1".replace("gitlab.example.test", new URL(made.body.web_url).host),
    });
    await create(WEB, { title: "Second" });
    const listed = await call(emulator, `${WEB}/issues?labels=drift&state=opened`, { as: "guest" });
    expect(listed.body.map((issue: { iid: number }) => issue.iid)).toEqual([1]);
    expect(listed.headers.get("x-total")).toBe("1");
    expect((await call(emulator, `${WEB}/issues?search=second`, { as: "guest" })).body.map((issue: { iid: number }) => issue.iid)).toEqual([2]);
    expect((await call(emulator, `${WEB}/issues?order_by=created_at&sort=asc`, { as: "guest" })).body.map((issue: { iid: number }) => issue.iid)).toEqual([1, 2]);
    expect((await call(emulator, `${WEB}/issues/1`, { as: "guest" })).body.title).toBe("Drift on prod");

    const closed = await call(emulator, `${WEB}/issues/1`, { as: "maintainer", method: "PUT", body: { state_event: "close", description: "Matches again." } });
    expect(closed.body).toMatchObject({ state: "closed", closed_by: { username: "maintainer" }, closed_at: expect.any(String), description: "Matches again." });
    expect((await call(emulator, `${WEB}/issues?state=closed`, { as: "guest" })).body.map((issue: { iid: number }) => issue.iid)).toEqual([1]);
    const reopened = await call(emulator, `${WEB}/issues/1`, { as: "maintainer", method: "PUT", body: { state_event: "reopen" } });
    expect(reopened.body).toMatchObject({ state: "opened", closed_at: null, closed_by: null });
    expect((await call(emulator, `${WEB}/issues/1`, { as: "maintainer", method: "PUT", body: {} })).status).toBe(400);
    expect((await create(WEB, { title: " " })).body).toEqual({ message: { title: ["can't be blank"] } });
    expect((await create(WEB, {})).body).toEqual({ error: "title is missing" });
  });

  it("who may: members of a private project only, Planners or the author to edit, confidential issues hidden from Guests", async () => {
    const { emulator } = server;
    const secret = await create(API, { title: "Rotate the key", confidential: true }, "maintainer");
    expect(secret.body.confidential).toBe(true);
    expect((await call(emulator, `${API}/issues`, { as: "outsider" })).status).toBe(404);
    expect((await create(API, { title: "x" }, "outsider")).status).toBe(404);
    expect((await call(emulator, `${API}/issues/${secret.body.iid}`, { as: "guest" })).body).toEqual({ message: "404 Not found" });
    expect((await call(emulator, `${API}/issues`, { as: "guest" })).body).toEqual([]);
    const byGuest = await create(WEB, { title: "Guest's own", labels: "ignored" }, "guest");
    expect(byGuest.body).toMatchObject({ author: { username: "guest" }, labels: [] });
    expect((await call(emulator, `${WEB}/issues/${byGuest.body.iid}`, { as: "guest", method: "PUT", body: { title: "Renamed" } })).body.title).toBe("Renamed");
    expect((await call(emulator, `${WEB}/issues/1`, { as: "guest", method: "PUT", body: { title: "Not mine" } })).status).toBe(403);
    expect((await call(emulator, `${WEB}/issues`, { as: null, method: "POST", body: { title: "x" } })).status).toBe(401);
    // A public project's issues are read anonymously; with the feature off nobody reads or opens any.
    expect((await call(emulator, "/projects/beta%2Fsite/issues", { as: null })).status).toBe(200);
    await call(emulator, WEB, { as: "maintainer", method: "PUT", body: { issues_enabled: false } });
    expect((await call(emulator, `${WEB}/issues`, { as: "maintainer" })).body).toEqual([]);
    expect((await create(WEB, { title: "x" }, "maintainer")).status).toBe(403);
    await call(emulator, WEB, { as: "maintainer", method: "PUT", body: { issues_enabled: true } });
  });

  it("notes: list, create, show, edit; internal notes for Reporters and above", async () => {
    const { emulator } = server;
    const notes = `${WEB}/issues/1/notes`;
    const first = await call(emulator, notes, { as: "dev", method: "POST", body: { body: "Drift found: 2 resources" } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ body: "Drift found: 2 resources", noteable_type: "Issue", noteable_iid: 1, internal: false, author: { username: "dev" } });
    const internal = await call(emulator, notes, { as: "maintainer", method: "POST", body: { body: "token rotated", internal: true } });
    expect(internal.body).toMatchObject({ internal: true, confidential: true });
    expect((await call(emulator, notes, { as: "guest", method: "POST", body: { body: "x", internal: true } })).status).toBe(400);
    expect((await call(emulator, notes, { as: "dev" })).body.map((note: { id: number }) => note.id)).toEqual([internal.body.id, first.body.id]);
    expect((await call(emulator, notes, { as: "guest" })).body.map((note: { id: number }) => note.id)).toEqual([first.body.id]);
    expect((await call(emulator, `${notes}/${internal.body.id}`, { as: "guest" })).status).toBe(404);
    const edited = await call(emulator, `${notes}/${first.body.id}`, { as: "dev", method: "PUT", body: { body: "Drift found: 3 resources" } });
    expect(edited.body.body).toBe("Drift found: 3 resources");
    expect((await call(emulator, `${notes}/${first.body.id}`, { as: "guest", method: "PUT", body: { body: "mine now" } })).status).toBe(403);
    expect((await call(emulator, `${WEB}/issues/1`, { as: "dev" })).body.user_notes_count).toBe(2);
    expect((await call(emulator, `${WEB}/issues/99/notes`, { as: "dev" })).body).toEqual({ message: "404 Not found" });
    expect((await call(emulator, notes, { as: null })).status).toBe(401);
  });
});
