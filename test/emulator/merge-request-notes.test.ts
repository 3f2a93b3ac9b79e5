/**
 * Merge request notes over HTTP: the list (order, sort, activity filter,
 * pagination), one note, create and edit, and each refusal in the order real
 * servers check them (401, 400 parameters, 404 project, 404 merge request,
 * 403 policy, 400 model errors).
 */
import { describe, expect, it } from "vitest";
import { call } from "./helpers";
import { freshEmulator, HOUR, registrySeed } from "./registry-fixtures";

const WEB_MR1 = "/projects/acme%2Fweb/merge_requests/1/notes";
const LOCKED_MR5 = "/projects/acme%2Fweb/merge_requests/5/notes";
const SITE_MR1 = "/projects/beta%2Fsite/merge_requests/1/notes";

describe("GET .../merge_requests/:iid/notes", () => {
  it("lists the comments newest first by default, with offset pagination headers", async () => {
    const { emulator } = await freshEmulator();
    const page = await call(emulator, `${WEB_MR1}?per_page=2`, { as: "dev" });
    expect(page.status).toBe(200);
    expect(page.body.map((n: any) => n.body)).toEqual(["Looks good to me.", "Added in the second commit."]);
    expect(page.headers.get("x-total")).toBe("3");
    expect(page.headers.get("x-total-pages")).toBe("2");
    expect(page.headers.get("x-next-page")).toBe("2");
    const ascending = await call(emulator, `${WEB_MR1}?sort=asc&order_by=updated_at`, { as: "dev" });
    expect(ascending.body.map((n: any) => n.id)).toEqual([1, 2, 3]);
    expect((await call(emulator, `${WEB_MR1}?activity_filter=only_activity`, { as: "dev" })).body).toEqual([]);
    expect((await call(emulator, `${WEB_MR1}?activity_filter=only_comments`, { as: "dev" })).body).toHaveLength(3);
  });

  it("answers API::Entities::Note with the author as UserBasic", async () => {
    const { emulator } = await freshEmulator();
    const note = await call(emulator, `${WEB_MR1}/1`, { as: "reporter" });
    expect(note.status).toBe(200);
    expect(note.body).toEqual({
      id: 1, type: null, body: "Please add a test for the empty form.", attachment: null,
      author: expect.objectContaining({ username: "maintainer", name: "Mia Maintainer", state: "active", avatar_url: null, web_url: expect.stringMatching(/\/maintainer$/) }),
      created_at: "2024-05-01T12:00:00.000Z", updated_at: "2024-05-01T12:00:00.000Z", system: false,
      noteable_id: expect.any(Number), noteable_type: "MergeRequest", project_id: emulator.state.projectByFullPath("acme/web")!.id,
      resolvable: false, confidential: false, internal: false, imported: false, imported_from: "none", noteable_iid: 1, commands_changes: {},
    });
  });

  it("refuses in the real order: 401, 400, 404 project, 404 merge request (missing or unreadable), 404 note", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, SITE_MR1, { as: null })).status).toBe(401);
    expect((await call(emulator, "/projects/acme%2Fweb/merge_requests/abc/notes", { as: "dev" })).body).toEqual({ error: "noteable_id is invalid" });
    expect((await call(emulator, `${WEB_MR1}?sort=up`, { as: "dev" })).body).toEqual({ error: "sort does not have a valid value" });
    expect(await call(emulator, WEB_MR1, { as: "outsider" })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    // A Guest sees the private project but not its merge requests: the finder hides them (404, not 403).
    expect(await call(emulator, WEB_MR1, { as: "guest" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await call(emulator, "/projects/acme%2Fweb/merge_requests/99/notes", { as: "dev" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await call(emulator, "/projects/acme%2Fweb/merge_requests/2/notes/1", { as: "dev" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });
});

describe("POST .../merge_requests/:iid/notes", () => {
  it("creates a comment: 201, counted in user_notes_count, the merge request touched", async () => {
    const { emulator, advance } = await freshEmulator();
    advance(HOUR);
    const created = await call(emulator, WEB_MR1, { as: "dev", method: "POST", body: { body: "Preview: 2 to add" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 4, body: "Preview: 2 to add", author: { username: "dev" }, noteable_iid: 1, created_at: "2024-06-01T01:00:00.000Z" });
    const mr = await call(emulator, "/projects/acme%2Fweb/merge_requests/1", { as: "dev" });
    expect(mr.body).toMatchObject({ user_notes_count: 4, updated_at: "2024-06-01T01:00:00.000Z" });
    // A form body works as well, and anyone signed in may comment on a public project's merge request.
    const form = await call(emulator, SITE_MR1, { as: "outsider", method: "POST", body: new URLSearchParams({ body: "From outside" }) });
    expect(form).toMatchObject({ status: 201, body: { author: { username: "outsider" } } });
  });

  it("the body: required, not blank, at most 1,000,000 characters (counted as characters, not bytes)", async () => {
    const { emulator } = await freshEmulator();
    const post = (body: object) => call(emulator, WEB_MR1, { as: "dev", method: "POST", body });
    expect((await post({})).body).toEqual({ error: "body is missing" });
    expect(await post({ body: "  " })).toMatchObject({ status: 400, body: { message: `400 Bad request - Note {:note=>["can't be blank"]}` } });
    expect(await post({ body: "x".repeat(1_000_001) })).toMatchObject({
      status: 400,
      body: { message: `400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}` },
    });
    expect((await post({ body: "é".repeat(1_000_000) })).status).toBe(201);
    expect(await post({ body: "secret", internal: true })).toMatchObject({ status: 400, body: { message: `400 Bad request - Note {:confidential=>["can not be set for this resource"]}` } });
  });

  it("a locked discussion refuses non-members (an administrator too) and takes members' comments", async () => {
    const { emulator } = await freshEmulator();
    expect(await call(emulator, LOCKED_MR5, { as: "root", method: "POST", body: { body: "admin" } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await call(emulator, LOCKED_MR5, { as: "dev", method: "POST", body: { body: "member" } })).status).toBe(201);
  });

  it("a blocked account's token is refused by the API guard (403), however readable the merge request", async () => {
    const { emulator } = await freshEmulator(registrySeed((seed) => seed.users.push({ username: "blocked", token: "glpat-blocked-token", blocked: true })));
    const refused = await call(emulator, SITE_MR1, { token: "glpat-blocked-token", method: "POST", body: { body: "hello" } });
    expect(refused).toMatchObject({ status: 403, body: { message: "403 Forbidden - Your account has been blocked." } });
    expect((await call(emulator, SITE_MR1, { token: "glpat-blocked-token" })).status).toBe(403);
  });

  it("anonymous writes are 401, before the body is looked at", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, SITE_MR1, { as: null, method: "POST", body: {} })).status).toBe(401);
  });
});

describe("PUT .../merge_requests/:iid/notes/:note_id", () => {
  it("the author edits their comment; updated_at moves, created_at stays", async () => {
    const { emulator, advance } = await freshEmulator();
    advance(HOUR);
    const edited = await call(emulator, `${WEB_MR1}/2`, { as: "dev", method: "PUT", body: { body: "Added in the third commit." } });
    expect(edited).toMatchObject({ status: 200, body: { id: 2, body: "Added in the third commit.", created_at: "2024-05-02T09:00:00.000Z", updated_at: "2024-06-01T01:00:00.000Z" } });
    // Without a body nothing changes.
    expect((await call(emulator, `${WEB_MR1}/2`, { as: "dev", method: "PUT", body: {} })).body.body).toBe("Added in the third commit.");
  });

  it("another Developer may not edit it (403); a Maintainer or an Owner may (the project's admin_note)", async () => {
    const { emulator } = await freshEmulator();
    expect(await call(emulator, `${WEB_MR1}/1`, { as: "dev", method: "PUT", body: { body: "changed" } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await call(emulator, `${WEB_MR1}/2`, { as: "maintainer", method: "PUT", body: { body: "edited by a Maintainer" } })).status).toBe(200);
    const outsiders = await call(emulator, SITE_MR1, { as: "outsider", method: "POST", body: { body: "hello" } });
    const byAlice = await call(emulator, SITE_MR1, { as: "alice", method: "POST", body: { body: "welcome" } });
    expect((await call(emulator, `${SITE_MR1}/${byAlice.body.id}`, { as: "outsider", method: "PUT", body: { body: "x" } })).status).toBe(403);
    expect((await call(emulator, `${SITE_MR1}/${outsiders.body.id}`, { as: "alice", method: "PUT", body: { body: "moderated" } })).body.body).toBe("moderated");
  });

  it("a blank body is Grape's 400; a too long one the model's; a note of another merge request is 404", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, `${WEB_MR1}/2`, { as: "dev", method: "PUT", body: { body: " " } })).body).toEqual({ error: "body is empty" });
    expect((await call(emulator, `${WEB_MR1}/2`, { as: "dev", method: "PUT", body: { body: "y".repeat(1_000_001) } })).status).toBe(400);
    expect((await call(emulator, "/projects/acme%2Fweb/merge_requests/3/notes/2", { as: "dev", method: "PUT", body: { body: "z" } })).status).toBe(404);
  });
});
