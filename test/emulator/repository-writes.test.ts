/**
 * Branches and commits made through the API (`POST .../repository/branches`,
 * `POST .../repository/commits`), merge requests on them prepared from the
 * repository, merged for real, and their diff's versions. Real HTTP against
 * the emulator; the git objects are read back through the API.
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, startEmulator, type Emulator } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const WEB = "/projects/acme%2Fweb";
const server = useEmulator({ seed: defaultSeed, backgroundWork: "manual" });

async function post(emulator: Emulator, path: string, body: object, as = "dev") {
  return call(emulator, path, { as, method: "POST", body });
}

async function fileAt(emulator: Emulator, path: string, ref: string): Promise<string | undefined> {
  const tree = await call(emulator, `${WEB}/repository/tree?ref=${encodeURIComponent(ref)}&recursive=true&per_page=100`);
  const entry = (tree.body as { path: string; id: string }[]).find((candidate) => candidate.path === path);
  if (!entry) return undefined;
  return (await call(emulator, `${WEB}/repository/blobs/${entry.id}/raw`)).text;
}

describe("POST /projects/:id/repository/branches", () => {
  it("makes a branch at a ref; the same name again, a bad name or an unknown ref is 400", async () => {
    const { emulator } = server;
    const main = (await call(emulator, `${WEB}`)).body;
    const made = await post(emulator, `${WEB}/repository/branches`, { branch: "topic/one", ref: "main" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "topic/one", merged: false, protected: false, default: false, can_push: true, commit: { id: expect.stringMatching(/^[0-9a-f]{40}$/) } });
    expect(main.default_branch).toBe("main");
    expect((await post(emulator, `${WEB}/repository/branches`, { branch: "topic/one", ref: "main" })).body).toEqual({ message: "Branch already exists" });
    expect((await post(emulator, `${WEB}/repository/branches`, { branch: "bad..name", ref: "main" })).body).toEqual({ message: "Branch name is invalid" });
    const unknown = await post(emulator, `${WEB}/repository/branches`, { branch: "topic/two", ref: "nowhere" });
    expect(unknown).toMatchObject({ status: 400, body: { message: "Invalid reference name: nowhere" } });
    expect((await post(emulator, `${WEB}/repository/branches`, { branch: "topic/two" })).body).toEqual({ error: "ref is missing" });
  });

  it("needs push access: a Guest 403, a non-member of a private project 404, anonymous 401", async () => {
    const { emulator } = server;
    expect((await post(emulator, `${WEB}/repository/branches`, { branch: "g", ref: "main" }, "guest")).status).toBe(403);
    expect((await post(emulator, "/projects/acme%2Fapi/repository/branches", { branch: "g", ref: "main" }, "outsider")).status).toBe(404);
    expect((await call(emulator, `${WEB}/repository/branches`, { as: null, method: "POST", body: { branch: "g", ref: "main" } })).status).toBe(401);
  });
});

describe("GET /projects/:id/repository/branches/:branch and tags/:tag_name", () => {
  it("answers the branch or tag of that name, a name with / encoded; another is 404 Branch or Tag Not Found", async () => {
    const { emulator } = server;
    expect((await call(emulator, `${WEB}/repository/branches/main`)).body).toMatchObject({ name: "main", default: true, commit: { id: expect.stringMatching(/^[0-9a-f]{40}$/) } });
    expect((await call(emulator, `${WEB}/repository/branches/release%2F1.x`)).body).toMatchObject({ name: "release/1.x", default: false });
    expect((await call(emulator, `${WEB}/repository/tags/v1.4.0`)).body).toMatchObject({ name: "v1.4.0", target: expect.stringMatching(/^[0-9a-f]{40}$/), commit: { id: expect.any(String) } });
    expect(await call(emulator, `${WEB}/repository/branches/mian`)).toMatchObject({ status: 404, body: { message: "404 Branch Not Found" } });
    expect(await call(emulator, `${WEB}/repository/branches/v1.4.0`)).toMatchObject({ status: 404, body: { message: "404 Branch Not Found" } });
    expect(await call(emulator, `${WEB}/repository/tags/main`)).toMatchObject({ status: 404, body: { message: "404 Tag Not Found" } });
    expect((await call(emulator, "/projects/acme%2Fapi/repository/branches/develop")).body).toMatchObject({ name: "develop", default: true });
    expect((await call(emulator, "/projects/acme%2Fapi/repository/branches/main", { as: "outsider" })).status).toBe(404);
  });
});

describe("POST /projects/:id/repository/commits", () => {
  it("commits every kind of action on a new branch, with base64 content and an author", async () => {
    const { emulator } = server;
    const made = await post(emulator, `${WEB}/repository/commits`, {
      branch: "topic/actions",
      start_branch: "main",
      commit_message: "Every action\n\nChangelog: added",
      author_name: "Ada Author",
      author_email: "ada@example.test",
      actions: [
        { action: "create", file_path: "new.txt", content: "hello\n" },
        { action: "create", file_path: "tools/run.sh", content: Buffer.from("#!/bin/sh\necho run\n").toString("base64"), encoding: "base64", execute_filemode: true },
        { action: "update", file_path: "README.md", content: "# web\n\nRewritten.\n" },
        { action: "move", file_path: "config/moved.json", previous_path: "config/deploy.json" },
      ],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      title: "Every action",
      author_name: "Ada Author",
      author_email: "ada@example.test",
      committer_name: "Dev Developer",
      trailers: { Changelog: "added" },
      project_id: expect.any(Number),
      stats: { additions: expect.any(Number), deletions: expect.any(Number) },
      status: null,
      last_pipeline: null,
    });
    expect(made.body.stats.additions).toBeGreaterThanOrEqual(4);
    expect(await fileAt(emulator, "new.txt", "topic/actions")).toBe("hello\n");
    expect(await fileAt(emulator, "tools/run.sh", "topic/actions")).toBe("#!/bin/sh\necho run\n");
    expect(await fileAt(emulator, "config/deploy.json", "topic/actions")).toBeUndefined();
    expect(await fileAt(emulator, "config/moved.json", "topic/actions")).toBe(await fileAt(emulator, "config/deploy.json", "main"));
    const tree = await call(emulator, `${WEB}/repository/tree?ref=topic/actions&path=tools`);
    expect(tree.body[0]).toMatchObject({ name: "run.sh", mode: "100755" });

    const second = await post(emulator, `${WEB}/repository/commits`, {
      branch: "topic/actions",
      commit_message: "Delete and chmod",
      actions: [
        { action: "delete", file_path: "new.txt" },
        { action: "chmod", file_path: "tools/run.sh", execute_filemode: false },
      ],
    });
    expect(second.status).toBe(201);
    expect(second.body.parent_ids).toEqual([made.body.id]);
    expect(await fileAt(emulator, "new.txt", "topic/actions")).toBeUndefined();
    expect((await call(emulator, `${WEB}/repository/tree?ref=topic/actions&path=tools`)).body[0].mode).toBe("100644");
  });

  it("refuses what Commits::CreateService refuses, with 400 and its message", async () => {
    const { emulator } = server;
    const commit = (body: object, as = "dev") => post(emulator, `${WEB}/repository/commits`, { commit_message: "x", ...body }, as);
    expect((await commit({ branch: "nowhere", actions: [{ action: "create", file_path: "a", content: "a" }] })).body).toEqual({ message: "You can only create or edit files when you are on a branch" });
    expect((await commit({ branch: "stable", start_branch: "main", actions: [{ action: "create", file_path: "a", content: "a" }] })).body).toEqual({
      message: "A branch called 'stable' already exists. Switch to that branch in order to make changes",
    });
    expect((await commit({ branch: "main", actions: [{ action: "create", file_path: "README.md", content: "a" }] }, "maintainer")).status).toBe(400);
    expect((await commit({ branch: "main", actions: [{ action: "update", file_path: "missing.txt", content: "a" }] }, "maintainer")).status).toBe(400);
    expect((await commit({ branch: "main", actions: [{ action: "rename", file_path: "a" }] }, "maintainer")).body).toEqual({ error: "actions[0][action] does not have a valid value" });
    expect((await commit({ branch: "main" }, "maintainer")).body).toEqual({ error: "actions is missing" });
    // The default branch is protected: Maintainers push, Developers do not.
    const onMain = await commit({ branch: "main", actions: [{ action: "create", file_path: "dev.txt", content: "a" }] });
    expect(onMain).toMatchObject({ status: 403, body: { message: "403 Forbidden - You are not allowed to push into this branch" } });
  });
});

describe("merge requests on branches of the repository", () => {
  it("background work fills head, base and files; a push makes a new version; the merge makes a merge commit", async () => {
    const { emulator } = server;
    await post(emulator, `${WEB}/repository/commits`, { branch: "topic/merge", start_branch: "main", commit_message: "Add merged.txt", actions: [{ action: "create", file_path: "merged.txt", content: "one\n" }] });
    const created = await post(emulator, `${WEB}/merge_requests`, { source_branch: "topic/merge", target_branch: "main", title: "Merge me" });
    expect(created.body).toMatchObject({ sha: null, diff_refs: null, detailed_merge_status: "preparing" });
    await emulator.runDueWork();
    const iid = created.body.iid as number;
    const prepared = (await call(emulator, `${WEB}/merge_requests/${iid}`, { as: "dev" })).body;
    const branchHead = (await call(emulator, `${WEB}/repository/tree?ref=topic/merge`)).status === 200 ? prepared.sha : undefined;
    expect(branchHead).toMatch(/^[0-9a-f]{40}$/);
    expect(prepared.diff_refs).toEqual({ base_sha: expect.any(String), head_sha: prepared.sha, start_sha: prepared.diff_refs.base_sha });
    expect(prepared.changes_count).toBe("1");
    expect((await call(emulator, `${WEB}/merge_requests/${iid}/diffs`, { as: "dev" })).body).toMatchObject([{ new_path: "merged.txt", new_file: true, diff: "@@ -0,0 +1 @@\n+one\n" }]);

    const push = await post(emulator, `${WEB}/repository/commits`, { branch: "topic/merge", commit_message: "Second line", actions: [{ action: "update", file_path: "merged.txt", content: "one\ntwo\n" }] });
    await emulator.runDueWork();
    const versions = await call(emulator, `${WEB}/merge_requests/${iid}/versions`, { as: "dev" });
    expect(versions.body.map((version: { head_commit_sha: string }) => version.head_commit_sha)).toEqual([push.body.id, prepared.sha]);
    expect(versions.body[0]).toMatchObject({ state: "collected", real_size: "1", merge_request_id: created.body.id, base_commit_sha: prepared.diff_refs.base_sha });
    const oldest = await call(emulator, `${WEB}/merge_requests/${iid}/versions/${versions.body[1].id}`, { as: "dev" });
    expect(oldest.body).toMatchObject({ head_commit_sha: prepared.sha, commits: [{ title: "Add merged.txt" }], diffs: [{ diff: "@@ -0,0 +1 @@\n+one\n" }] });
    expect((await call(emulator, `${WEB}/merge_requests/${iid}/versions/999999`, { as: "dev" })).status).toBe(404);

    // Only who may push to the target branch merges: a Developer on the protected default branch is 401.
    expect((await call(emulator, `${WEB}/merge_requests/${iid}/merge`, { as: "dev", method: "PUT" })).body).toEqual({ message: "401 Unauthorized" });
    const stale = await call(emulator, `${WEB}/merge_requests/${iid}/merge`, { as: "maintainer", method: "PUT", body: { sha: prepared.sha } });
    expect(stale).toMatchObject({ status: 409, body: { message: `SHA does not match HEAD of source branch: ${push.body.id}` } });
    const merged = await call(emulator, `${WEB}/merge_requests/${iid}/merge`, { as: "maintainer", method: "PUT", body: { sha: push.body.id, should_remove_source_branch: true } });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ state: "merged", merged_at: expect.any(String), merge_user: { username: "maintainer" }, squash_commit_sha: null });
    const mergeCommit = (await call(emulator, `${WEB}/repository/commits/${merged.body.merge_commit_sha}/merge_requests`)).status;
    expect(mergeCommit).toBe(200);
    expect(await fileAt(emulator, "merged.txt", "main")).toBe("one\ntwo\n");
    const history = await call(emulator, `${WEB}/repository/compare?from=${prepared.diff_refs.base_sha}&to=main`);
    expect(history.body.commit).toMatchObject({ id: merged.body.merge_commit_sha, parent_ids: [prepared.diff_refs.base_sha, push.body.id], title: "Merge branch 'topic/merge' into 'main'" });
    expect(history.body.commit.message).toBe(`Merge branch 'topic/merge' into 'main'\n\nMerge me\n\nSee merge request acme/web!${iid}\n`);
    expect((await call(emulator, `${WEB}/repository/tree?ref=topic/merge`)).status).toBe(404);
    expect((await call(emulator, `${WEB}/merge_requests/${iid}/merge`, { as: "maintainer", method: "PUT" })).body).toEqual({ message: "405 Method Not Allowed" });
  });

  it("squash and fast-forward, as the project's merge method says; a draft is 405, a conflict 422", async () => {
    const { emulator } = server;
    expect((await call(emulator, WEB, { as: "maintainer", method: "PUT", body: { merge_method: "ff" } })).body.merge_method).toBe("ff");
    await post(emulator, `${WEB}/repository/commits`, { branch: "topic/ff", start_branch: "main", commit_message: "One", actions: [{ action: "create", file_path: "ff.txt", content: "1\n" }] });
    await post(emulator, `${WEB}/repository/commits`, { branch: "topic/ff", commit_message: "Two", actions: [{ action: "update", file_path: "ff.txt", content: "2\n" }] });
    const mr = (await post(emulator, `${WEB}/merge_requests`, { source_branch: "topic/ff", target_branch: "main", title: "Fast" })).body;
    await emulator.runDueWork();
    const before = (await call(emulator, WEB)).body;
    const merged = await call(emulator, `${WEB}/merge_requests/${mr.iid}/merge`, { as: "maintainer", method: "PUT", body: { squash: true, squash_commit_message: "Squashed" } });
    expect(merged.body).toMatchObject({ state: "merged", merge_commit_sha: null, squash_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/), squash: true });
    const head = (await call(emulator, `${WEB}/repository/compare?from=${mr.sha ?? merged.body.diff_refs.start_sha}&to=main`)).body.commit;
    expect(head).toMatchObject({ id: merged.body.squash_commit_sha, title: "Squashed", parent_ids: [merged.body.diff_refs.start_sha], author_name: "Dev Developer", committer_name: "Mia Maintainer" });
    expect(before.default_branch).toBe("main");

    // Behind the target branch now: a fast-forward is impossible.
    await post(emulator, `${WEB}/repository/commits`, { branch: "topic/behind", start_sha: merged.body.diff_refs.start_sha, commit_message: "Old base", actions: [{ action: "create", file_path: "behind.txt", content: "b\n" }] });
    const behind = (await post(emulator, `${WEB}/merge_requests`, { source_branch: "topic/behind", target_branch: "main", title: "Behind" })).body;
    const draft = (await post(emulator, `${WEB}/merge_requests`, { source_branch: "topic/one", target_branch: "main", title: "Draft: later" })).body;
    await emulator.runDueWork();
    expect((await call(emulator, `${WEB}/merge_requests/${behind.iid}/merge`, { as: "maintainer", method: "PUT" })).body).toEqual({ message: "Branch cannot be merged" });
    expect((await call(emulator, `${WEB}/merge_requests/${draft.iid}/merge`, { as: "maintainer", method: "PUT" })).status).toBe(405);
    await call(emulator, WEB, { as: "maintainer", method: "PUT", body: { merge_method: "merge" } });

    // Both sides change one line: the three-way merge conflicts.
    await post(emulator, `${WEB}/repository/commits`, { branch: "topic/conflict", start_branch: "main", commit_message: "Theirs", actions: [{ action: "update", file_path: "ff.txt", content: "theirs\n" }] });
    await post(emulator, `${WEB}/repository/commits`, { branch: "main", commit_message: "Ours", actions: [{ action: "update", file_path: "ff.txt", content: "ours\n" }] }, "maintainer");
    const conflicting = (await post(emulator, `${WEB}/merge_requests`, { source_branch: "topic/conflict", target_branch: "main", title: "Conflict" })).body;
    await emulator.runDueWork();
    await call(emulator, `${WEB}/merge_requests/${conflicting.iid}`, { as: "dev" });
    await emulator.runDueWork();
    expect((await call(emulator, `${WEB}/merge_requests/${conflicting.iid}`, { as: "dev" })).body).toMatchObject({ has_conflicts: true, detailed_merge_status: "conflict" });
    expect((await call(emulator, `${WEB}/merge_requests/${conflicting.iid}/merge`, { as: "maintainer", method: "PUT" })).status).toBe(422);
  });

  it("a seeded merge request on branches the repository lacks is merged without a commit, with one version", async () => {
    const { emulator } = server;
    const versions = await call(emulator, "/projects/acme%2Fapi/merge_requests/1/versions", { as: "alice" });
    expect(versions.body).toHaveLength(1);
    const merged = await call(emulator, "/projects/acme%2Fapi/merge_requests/1/merge", { as: "alice", method: "PUT" });
    expect(merged.body).toMatchObject({ state: "merged", merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
  });
});

describe("background work", () => {
  it("runs on its own without a clock, and only when asked with one", async () => {
    const automatic = await startEmulator();
    let now = Date.parse("2024-06-01T00:00:00Z");
    const manual = await startEmulator({ clock: () => now });
    try {
      for (const emulator of [automatic, manual]) {
        const made = await post(emulator, `${WEB}/merge_requests`, { source_branch: "feature/search", target_branch: "main", title: "Search" });
        expect(made.body.sha).toBeNull();
      }
      // The first run of the automatic emulator's timer after the create, awaited, not polled for with a time bound.
      await automatic.nextWorkDone();
      expect((await call(automatic, `${WEB}/merge_requests/6`, { as: "dev" })).body.sha).toMatch(/^[0-9a-f]{40}$/);
      await new Promise((done) => setTimeout(done, 1_200));
      expect((await call(manual, `${WEB}/merge_requests/6`, { as: "dev" })).body.sha).toBeNull();
      now += 1000;
      await manual.runDueWork();
      expect((await call(manual, `${WEB}/merge_requests/6`, { as: "dev" })).body.sha).toMatch(/^[0-9a-f]{40}$/);
    } finally {
      await Promise.all([automatic.stop(), manual.stop()]);
    }
  });
});
