/**
 * Protected branches and tags (`/projects/:id/protected_branches`,
 * `/projects/:id/protected_tags`): the answers, the rules of a write, and
 * the rules enforced on the repository's own pushes and merges. Real HTTP
 * against the emulator.
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, type Emulator } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const WEB = "/projects/acme%2Fweb";
const SITE = "/projects/beta%2Fsite";
const server = useEmulator({ seed: defaultSeed, backgroundWork: "manual" });

const post = (emulator: Emulator, path: string, body: object, as = "maintainer") => call(emulator, path, { as, method: "POST", body });
const patch = (emulator: Emulator, path: string, body: object, as = "maintainer") => call(emulator, path, { as, method: "PATCH", body });
const commit = (emulator: Emulator, branch: string, as: string, extra: object = {}) =>
  post(emulator, `${WEB}/repository/commits`, { branch, commit_message: `on ${branch}`, actions: [{ action: "create", file_path: `${branch.replace(/\W/g, "-")}-${Math.random()}.txt`, content: "a" }], ...extra }, as);

describe("the default branch", () => {
  it("is protected at the project's creation as the namespace's default branch protection says: Maintainers push and merge", async () => {
    const { emulator } = server;
    const rules = await call(emulator, `${WEB}/protected_branches`, { as: "maintainer" });
    expect(rules.status).toBe(200);
    expect(rules.body).toEqual([
      {
        id: expect.any(Number),
        name: "main",
        push_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", deploy_key_id: null, user_id: null, group_id: null }],
        merge_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", user_id: null, group_id: null }],
        allow_force_push: false,
        unprotect_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", user_id: null, group_id: null }],
        code_owner_approval_required: false,
        inherited: false,
      },
    ]);
    // Free tier: no user_id, group_id or inherited.
    const free = await call(emulator, `${SITE}/protected_branches/main`, { as: "alice" });
    expect(free.body.push_access_levels[0]).toEqual({ id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", deploy_key_id: null });
    expect(free.body).not.toHaveProperty("inherited");
  });
});

describe("POST, GET, PATCH, DELETE /projects/:id/protected_branches", () => {
  it("reading needs the code (`authorize_read_code!`: a Developer reads, a Guest of a private project 403), writing Maintainer; an outsider 404, anonymous 401", async () => {
    const { emulator } = server;
    expect((await call(emulator, `${WEB}/protected_branches`, { as: "dev" })).status).toBe(200);
    expect((await call(emulator, `${WEB}/protected_branches/main`, { as: "dev" })).status).toBe(200);
    expect((await call(emulator, `${WEB}/protected_branches`, { as: "guest" })).status).toBe(403);
    expect((await post(emulator, `${WEB}/protected_branches`, { name: "x" }, "dev")).status).toBe(403);
    expect((await call(emulator, `${WEB}/protected_branches`, { as: "outsider" })).status).toBe(404);
    expect((await call(emulator, `${WEB}/protected_branches`, { as: null })).status).toBe(401);
  });

  it("protects a wildcard with the levels given (Maintainer by default); the same name again is 409; a bad level is 400", async () => {
    const { emulator } = server;
    const made = await post(emulator, `${WEB}/protected_branches`, { name: "release/*", push_access_level: 0, merge_access_level: 30, allow_force_push: false });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: "release/*",
      push_access_levels: [{ access_level: 0, access_level_description: "No one" }],
      merge_access_levels: [{ access_level: 30, access_level_description: "Developers + Maintainers" }],
      unprotect_access_levels: [{ access_level: 40 }],
    });
    expect(await post(emulator, `${WEB}/protected_branches`, { name: "release/*" })).toMatchObject({ status: 409, body: { message: "Protected branch 'release/*' already exists" } });
    expect(await post(emulator, `${WEB}/protected_branches`, { name: "x", push_access_level: 20 })).toMatchObject({ status: 400, body: { error: "push_access_level does not have a valid value" } });
    expect(await post(emulator, `${WEB}/protected_branches`, { name: "x", unprotect_access_level: 0 })).toMatchObject({ status: 400, body: { error: "unprotect_access_level does not have a valid value" } });
    expect((await call(emulator, `${WEB}/protected_branches/release%2F*`, { as: "maintainer" })).body).toMatchObject({ id: made.body.id, name: "release/*" });
    expect(await call(emulator, `${WEB}/protected_branches/nope`, { as: "maintainer" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await call(emulator, `${WEB}/protected_branches?search=RELEASE`, { as: "maintainer" })).body.map((rule: { name: string }) => rule.name)).toEqual(["release/*"]);
  });

  it("PATCH changes an access level in place by its id, adds one without, removes one with _destroy, and keeps the rule's id", async () => {
    const { emulator } = server;
    const made = (await post(emulator, `${WEB}/protected_branches`, { name: "patch-me", push_access_level: 40, merge_access_level: 40 })).body;
    const pushId = made.push_access_levels[0].id as number;
    const mergeId = made.merge_access_levels[0].id as number;
    const changed = await patch(emulator, `${WEB}/protected_branches/patch-me`, {
      allowed_to_push: [{ id: pushId, access_level: 30 }],
      allowed_to_merge: [{ id: mergeId, _destroy: true }, { access_level: 30 }],
      allow_force_push: true,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: made.id, allow_force_push: true, push_access_levels: [{ id: pushId, access_level: 30 }], merge_access_levels: [{ access_level: 30 }] });
    expect(changed.body.merge_access_levels[0].id).not.toBe(mergeId);
    expect(await patch(emulator, `${WEB}/protected_branches/patch-me`, { allowed_to_push: [{ id: 999999, access_level: 40 }] })).toMatchObject({ status: 404 });
    const twice = await patch(emulator, `${WEB}/protected_branches/patch-me`, { allowed_to_push: [{ access_level: 30 }] });
    expect(twice).toMatchObject({ status: 422, body: { message: ["Push access levels access level has already been taken"] } });
  });

  it("users and groups (Premium and up): a member of the project and an ancestor group; others are 422; dropped on Free", async () => {
    const { emulator } = server;
    const users = (await call(emulator, "/users?username=dev")).body as { id: number }[];
    const outsider = ((await call(emulator, "/users?username=outsider")).body as { id: number }[])[0]!.id;
    const acme = (await call(emulator, "/groups/acme")).body.id as number;
    const made = await post(emulator, `${WEB}/protected_branches`, { name: "people", allowed_to_push: [{ user_id: users[0]!.id }, { group_id: acme }] });
    expect(made.body.push_access_levels).toMatchObject([
      { user_id: users[0]!.id, access_level_description: "Dev Developer" },
      { group_id: acme, access_level_description: "Acme" },
    ]);
    expect(await post(emulator, `${WEB}/protected_branches`, { name: "stranger", allowed_to_push: [{ user_id: outsider }] })).toMatchObject({
      status: 422,
      body: { message: ["Push access levels user is not a member of the project"] },
    });
    const free = await post(emulator, `${SITE}/protected_branches`, { name: "people", allowed_to_push: [{ user_id: outsider }], push_access_level: 40, code_owner_approval_required: true }, "alice");
    expect(free.body).toMatchObject({ push_access_levels: [{ access_level: 40 }], code_owner_approval_required: false });
  });

  it("a PATCH changes levels on Premium and Ultimate only (doc/api/protected_branches.md): on Free it keeps them, and takes allow_force_push", async () => {
    const { emulator } = server;
    const made = await post(emulator, `${SITE}/protected_branches`, { name: "free-levels", merge_access_level: 40 }, "alice");
    const entry = made.body.merge_access_levels[0].id as number;
    const patched = await patch(emulator, `${SITE}/protected_branches/free-levels`, { allow_force_push: true, allowed_to_merge: [{ id: entry, access_level: 30 }] }, "alice");
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ allow_force_push: true, merge_access_levels: [{ id: entry, access_level: 40 }] });
  });

  it("DELETE unprotects (204); on Premium only whom the unprotect levels let in", async () => {
    const { emulator } = server;
    await post(emulator, `${WEB}/protected_branches`, { name: "admins-only", unprotect_access_level: 60 });
    expect((await call(emulator, `${WEB}/protected_branches/admins-only`, { as: "maintainer", method: "DELETE" })).status).toBe(403);
    expect((await call(emulator, `${WEB}/protected_branches/admins-only`, { method: "DELETE" })).status).toBe(204);
    expect((await call(emulator, `${WEB}/protected_branches/admins-only`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("enforced on the repository's pushes and merges", () => {
  it("a Developer pushes to an unprotected branch, not to one a rule protects; the most permissive matching rule wins", async () => {
    const { emulator } = server;
    expect((await commit(emulator, "feature/a", "dev", { start_branch: "main" })).status).toBe(201);
    await post(emulator, `${WEB}/protected_branches`, { name: "feature/*", push_access_level: 40 });
    expect(await commit(emulator, "feature/a", "dev")).toMatchObject({ status: 403, body: { message: "403 Forbidden - You are not allowed to push into this branch" } });
    expect((await call(emulator, `${WEB}/repository/branches/feature%2Fa`, { as: "dev" })).body).toMatchObject({ protected: true, can_push: false, developers_can_push: false });
    // A second rule that lets Developers push: the most permissive wins.
    await post(emulator, `${WEB}/protected_branches`, { name: "feature/a", push_access_level: 30 });
    expect((await commit(emulator, "feature/a", "dev")).status).toBe(201);
    expect((await call(emulator, `${WEB}/repository/branches/feature%2Fa`, { as: "dev" })).body).toMatchObject({ protected: true, can_push: true, developers_can_push: true });
    // A new branch under a protected name only for who may push to it.
    expect(await post(emulator, `${WEB}/repository/branches`, { branch: "feature/b", ref: "main" }, "dev")).toMatchObject({
      status: 400,
      body: { message: "You are not allowed to create protected branches on this project." },
    });
  });

  it("the default branch follows its rule as changed: Developers push once the rule lets them", async () => {
    const { emulator } = server;
    expect((await commit(emulator, "main", "dev")).status).toBe(403);
    const rule = (await call(emulator, `${WEB}/protected_branches/main`, { as: "maintainer" })).body;
    await patch(emulator, `${WEB}/protected_branches/main`, { allowed_to_push: [{ id: rule.push_access_levels[0].id, access_level: 30 }] });
    expect((await commit(emulator, "main", "dev")).status).toBe(201);
    await patch(emulator, `${WEB}/protected_branches/main`, { allowed_to_push: [{ id: rule.push_access_levels[0].id, access_level: 40 }] });
    expect((await commit(emulator, "main", "dev")).status).toBe(403);
  });

  it("a forced commit that rewrites a protected branch needs a rule allowing force push", async () => {
    const { emulator } = server;
    await commit(emulator, "guarded", "maintainer", { start_branch: "main" });
    await post(emulator, `${WEB}/protected_branches`, { name: "guarded", push_access_level: 40 });
    expect(await commit(emulator, "guarded", "maintainer", { start_branch: "main", force: true })).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - You are not allowed to force push code to a protected branch on this project." },
    });
    await patch(emulator, `${WEB}/protected_branches/guarded`, { allow_force_push: true });
    expect((await commit(emulator, "guarded", "maintainer", { start_branch: "main", force: true })).status).toBe(201);
  });

  it("a merge needs the target branch's merge level, not its push level", async () => {
    const { emulator } = server;
    await commit(emulator, "merge-target", "maintainer", { start_branch: "main" });
    await commit(emulator, "merge-source", "dev", { start_branch: "main" });
    await post(emulator, `${WEB}/protected_branches`, { name: "merge-target", push_access_level: 0, merge_access_level: 30 });
    const mr = await post(emulator, `${WEB}/merge_requests`, { source_branch: "merge-source", target_branch: "merge-target", title: "Merge it" }, "dev");
    await emulator.runDueWork();
    expect((await commit(emulator, "merge-target", "dev")).status).toBe(403);
    const merged = await call(emulator, `${WEB}/merge_requests/${mr.body.iid}/merge`, { as: "dev", method: "PUT" });
    expect(merged).toMatchObject({ status: 200, body: { state: "merged" } });
  });
});

describe("/projects/:id/protected_tags", () => {
  it("protects a tag pattern with its create level; lists, reads, refuses a second, unprotects; the tag shows it", async () => {
    const { emulator } = server;
    const made = await post(emulator, `${WEB}/protected_tags`, { name: "v*", create_access_level: 30 });
    expect(made).toMatchObject({ status: 201, body: { name: "v*", create_access_levels: [{ id: expect.any(Number), access_level: 30, access_level_description: "Developers + Maintainers" }] } });
    expect((await call(emulator, `${WEB}/protected_tags`, { as: "maintainer" })).body).toEqual([made.body]);
    expect((await call(emulator, `${WEB}/protected_tags/v*`, { as: "maintainer" })).body).toEqual(made.body);
    expect(await post(emulator, `${WEB}/protected_tags`, { name: "v*" })).toMatchObject({ status: 409, body: { message: "Protected tag 'v*' already exists" } });
    expect((await call(emulator, `${WEB}/repository/tags/v1.4.0`)).body).toMatchObject({ protected: true });
    expect((await call(emulator, `${WEB}/protected_tags`, { as: "dev" })).status).toBe(403);
    expect((await call(emulator, `${WEB}/protected_tags/v*`, { method: "DELETE", as: "maintainer" })).status).toBe(204);
    expect((await call(emulator, `${WEB}/repository/tags/v1.4.0`)).body).toMatchObject({ protected: false });
    expect((await post(emulator, `${WEB}/protected_tags`, { name: "r*" })).body).toMatchObject({ create_access_levels: [{ access_level: 40 }] });
  });
});
