/**
 * A project's life over real HTTP: creation and its rules (name, path,
 * reserved names, visibility under the group's, `project_creation_level`),
 * the README commit, renames and transfers leaving redirects, archiving
 * (writes refused), delayed deletion, restore and removal for good.
 */
import * as fs from "node:fs";
import * as git from "isomorphic-git";
import { describe, expect, it } from "vitest";
import { repositoryOf } from "../../src/emulator/areas/repository/model";
import { defaultSeed } from "../../src/emulator/seeds/default";
import { call, useEmulator } from "./helpers";

let now = Date.parse("2026-01-05T10:00:00.000Z");
const server = useEmulator({ clock: () => now, backgroundWork: "manual" });
const post = (path: string, body: object, as = "alice") => call(server.emulator, path, { method: "POST", body, as });
const put = (path: string, body: object, as = "alice") => call(server.emulator, path, { method: "PUT", body, as });

describe("POST /projects", () => {
  it("creates a project in a group with its settings; the README commit on the default branch", async () => {
    const acme = (await call(server.emulator, "/groups/acme")).body;
    const made = await post("/projects", {
      name: "Docs Site",
      namespace_id: acme.id,
      description: "The docs",
      default_branch: "trunk",
      initialize_with_readme: true,
      merge_method: "ff",
      squash_option: "always",
      only_allow_merge_if_pipeline_succeeds: true,
      remove_source_branch_after_merge: false,
      wiki_access_level: "disabled",
      topics: ["docs", "web"],
      ci_config_path: "ci/main.yml",
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      path_with_namespace: "acme/docs-site",
      visibility: "private",
      default_branch: "trunk",
      empty_repo: false,
      merge_method: "ff",
      squash_option: "always",
      only_allow_merge_if_pipeline_succeeds: true,
      remove_source_branch_after_merge: false,
      wiki_access_level: "disabled",
      wiki_enabled: false,
      topics: ["docs", "web"],
      ci_config_path: "ci/main.yml",
      marked_for_deletion_on: null,
      namespace: { kind: "group", full_path: "acme" },
    });
    const tree = (await call(server.emulator, "/projects/acme%2Fdocs-site/repository/tree?ref=trunk", { as: "alice" })).body;
    expect(tree.map((entry: { path: string }) => entry.path)).toEqual(["README.md"]);
    const readme = await call(server.emulator, `/projects/acme%2Fdocs-site/repository/blobs/${tree[0].id}/raw`, { as: "alice" });
    expect(readme.text).toBe("# Docs Site\n\nThe docs\n");
    const head = await call(server.emulator, "/projects/acme%2Fdocs-site/repository/branches/trunk", { as: "alice" });
    expect(head.body).toMatchObject({ default: true, commit: { title: "Initial commit", author_name: "Alice Owner", parent_ids: [] } });
  });

  it("without a namespace: the caller's personal namespace, which is no group", async () => {
    const made = await post("/projects", { path: "notes" }, "outsider");
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ path_with_namespace: "outsider/notes", name: "notes", namespace: { kind: "user", path: "outsider" }, empty_repo: true });
    expect((await call(server.emulator, "/groups/outsider", { as: "outsider" })).status).toBe(404);
    expect((await call(server.emulator, "/groups?search=outsider")).body).toEqual([]);
  });

  it("refuses bad names and paths, reserved and taken ones, a visibility wider than the group, and a role below project_creation_level", async () => {
    const acme = (await call(server.emulator, "/groups/acme")).body;
    expect((await post("/projects", { namespace_id: acme.id })).body).toEqual({ error: "name, path are missing, at least one parameter must be provided" });
    const bad = await post("/projects", { name: "-bad", path: "bad.git", namespace_id: acme.id });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.message).sort()).toEqual(["name", "path"]);
    expect((await post("/projects", { path: "tree", namespace_id: acme.id })).body).toEqual({ message: { path: ["tree is a reserved name"] } });
    expect((await post("/projects", { path: "web", namespace_id: acme.id })).body).toEqual({ message: { path: ["has already been taken"] } });
    expect((await post("/projects", { path: "open", visibility: "public", namespace_id: acme.id })).body).toEqual({
      message: { visibility_level: ["public is not allowed in a private group."] },
    });
    // Developers may create projects (the default level); guests may not.
    expect((await post("/projects", { path: "guesswork", namespace_id: acme.id }, "guest")).body).toEqual({ message: { namespace: ["is not valid"] } });
    expect((await put("/groups/acme", { project_creation_level: "maintainer" })).status).toBe(200);
    expect((await post("/projects", { path: "devwork", namespace_id: acme.id }, "dev")).body).toEqual({ message: { namespace: ["is not valid"] } });
    expect((await post("/projects", { path: "mainwork", namespace_id: acme.id }, "maintainer")).status).toBe(201);
    expect((await put("/groups/acme", { project_creation_level: "developer" })).status).toBe(200);
    // A feature of the repository is never more open than the repository; nothing is created.
    expect((await post("/projects", { path: "closed-repo", namespace_id: acme.id, repository_access_level: "private", merge_requests_access_level: "enabled", builds_access_level: "private" })).body).toEqual({
      message: { merge_requests_access_level: ["cannot have higher visibility level than repository access level"] },
    });
    expect((await call(server.emulator, "/projects/acme%2Fclosed-repo", { as: "alice" })).status).toBe(404);
    const web = await put("/projects/acme%2Fweb", { builds_access_level: "enabled", repository_access_level: "disabled" });
    expect(web.body).toEqual({ message: { merge_requests_access_level: ["cannot have higher visibility level than repository access level"], builds_access_level: ["cannot have higher visibility level than repository access level"] } });
  });
});

describe("statistics", () => {
  const statisticsOf = async (id: number | string) => (await call(server.emulator, `/projects/${id}?statistics=true`, { as: "alice" })).body.statistics;

  it("counts the default branch's commits and the repository's bytes from the repository itself", async () => {
    const web = server.emulator.state.projectByFullPath("acme/web")!;
    const repo = await repositoryOf(server.emulator.state, web);
    const commits = await git.log({ fs, gitdir: repo.gitdir, ref: web.defaultBranch });
    expect((await statisticsOf(web.id)).commit_count).toBe(commits.length);

    const acme = (await call(server.emulator, "/groups/acme")).body;
    const empty = (await post("/projects", { path: "counted-empty", namespace_id: acme.id })).body;
    expect(await statisticsOf(empty.id)).toMatchObject({ commit_count: 0, repository_size: 0, storage_size: 0 });
    const made = (await post("/projects", { path: "counted", namespace_id: acme.id, initialize_with_readme: true })).body;
    const first = await statisticsOf(made.id);
    expect(first.commit_count).toBe(1);
    expect(first.repository_size).toBeGreaterThan(0);
    const commit = await post(`/projects/${made.id}/repository/commits`, { branch: "main", commit_message: "Add notes", actions: [{ action: "create", file_path: "NOTES.md", content: "notes\n" }] });
    expect(commit.status).toBe(201);
    const second = await statisticsOf(made.id);
    expect(second.commit_count).toBe(2);
    expect(second.repository_size).toBeGreaterThan(first.repository_size);
    expect(second.storage_size).toBe(second.repository_size);
    // Another branch's commits are not the default branch's.
    await post(`/projects/${made.id}/repository/commits`, { branch: "topic", start_branch: "main", commit_message: "Topic", actions: [{ action: "create", file_path: "T.md", content: "t\n" }] });
    expect((await statisticsOf(made.id)).commit_count).toBe(2);
  });
});

describe("rename and transfer", () => {
  it("a path change renames in place: the old path redirects reads and refuses writes", async () => {
    const acme = (await call(server.emulator, "/groups/acme")).body;
    const made = (await post("/projects", { path: "old-name", namespace_id: acme.id })).body;
    // Renaming the path is the owners'.
    expect((await put(`/projects/${made.id}`, { path: "new-name" }, "maintainer")).status).toBe(403);
    const renamed = await put(`/projects/${made.id}`, { path: "new-name" });
    expect(renamed.body.path_with_namespace).toBe("acme/new-name");
    const old = await call(server.emulator, "/projects/acme%2Fold-name", { as: "alice" });
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe(`${server.emulator.apiUrl}/projects/${made.id}`);
    expect((await put("/projects/acme%2Fold-name", { description: "x" })).status).toBe(405);
  });

  it("PUT /projects/:id/transfer moves it, narrowing its visibility to the group's; the old path redirects", async () => {
    const beta = (await call(server.emulator, "/groups/beta")).body;
    const made = (await post("/projects", { path: "mover", visibility: "public", namespace_id: beta.id })).body;
    expect((await put(`/projects/${made.id}/transfer`, { namespace: "beta" })).body).toEqual({
      message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}',
    });
    expect((await put(`/projects/${made.id}/transfer`, { namespace: "acme" }, "outsider")).status).toBe(403);
    const moved = await put(`/projects/${made.id}/transfer`, { namespace: "acme" });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ path_with_namespace: "acme/mover", visibility: "private" });
    expect((await call(server.emulator, "/projects/beta%2Fmover", { as: "alice" })).status).toBe(301);
    expect((await put(`/projects/${made.id}/transfer`, { namespace: "acme/platform" }, "dev")).status).toBe(403);
  });
});

describe("archive", () => {
  it("an archived project refuses writes to what it holds; its settings, unarchive and stars stay open", async () => {
    const acme = (await call(server.emulator, "/groups/acme")).body;
    const made = (await post("/projects", { path: "frozen", namespace_id: acme.id, initialize_with_readme: true })).body;
    expect((await post(`/projects/${made.id}/archive`, {}, "maintainer")).status).toBe(403);
    const archived = await post(`/projects/${made.id}/archive`, {});
    expect(archived.status).toBe(201);
    expect(archived.body.archived).toBe(true);
    expect((await post(`/projects/${made.id}/archive`, {})).status).toBe(201);
    const badge = await post(`/projects/${made.id}/badges`, { link_url: "https://example.com", image_url: "https://example.com/b.svg" });
    expect(badge).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await call(server.emulator, `/projects/${made.id}/badges`, { as: "alice" })).status).toBe(200);
    expect((await put(`/projects/${made.id}`, { description: "still editable" })).status).toBe(200);
    expect((await call(server.emulator, "/projects?archived=true&search=frozen", { as: "alice" })).body).toHaveLength(1);
    expect((await post(`/projects/${made.id}/unarchive`, {})).body.archived).toBe(false);
    expect((await post(`/projects/${made.id}/badges`, { link_url: "https://example.com", image_url: "https://example.com/b.svg" })).status).toBe(201);
  });
});

describe("DELETE /projects/:id", () => {
  it("marks for deletion (202), restorable; a second delete needs permanently_remove and the full path", async () => {
    const acme = (await call(server.emulator, "/groups/acme")).body;
    const made = (await post("/projects", { path: "doomed", namespace_id: acme.id })).body;
    expect((await call(server.emulator, `/projects/${made.id}`, { method: "DELETE", as: "maintainer" })).status).toBe(403);
    expect(await call(server.emulator, `/projects/${made.id}`, { method: "DELETE", as: "alice" })).toMatchObject({ status: 202, body: { message: "202 Accepted" } });
    expect((await call(server.emulator, `/projects/${made.id}`, { as: "alice" })).body.marked_for_deletion_on).toBe("2026-01-05");
    expect((await call(server.emulator, `/projects/${made.id}`, { method: "DELETE", as: "alice" })).body).toEqual({ message: "Project has been already marked for deletion" });
    const restored = await post(`/projects/${made.id}/restore`, {});
    expect(restored.status).toBe(201);
    expect(restored.body.marked_for_deletion_on).toBeNull();
    expect((await post(`/projects/${made.id}/restore`, {})).status).toBe(400);
    await call(server.emulator, `/projects/${made.id}`, { method: "DELETE", as: "alice" });
    expect((await call(server.emulator, `/projects/${made.id}?permanently_remove=true&full_path=acme/wrong`, { method: "DELETE", as: "alice" })).status).toBe(400);
    expect((await call(server.emulator, `/projects/${made.id}?permanently_remove=true&full_path=acme/doomed`, { method: "DELETE", as: "alice" })).status).toBe(202);
    expect((await call(server.emulator, `/projects/${made.id}`, { as: "alice" })).status).toBe(404);
  });

  it("removes a marked project for good when its period ends", async () => {
    const acme = (await call(server.emulator, "/groups/acme")).body;
    const made = (await post("/projects", { path: "waiting", namespace_id: acme.id })).body;
    await call(server.emulator, `/projects/${made.id}`, { method: "DELETE", as: "alice" });
    now += 29 * 86_400_000;
    await server.emulator.runDueWork();
    expect((await call(server.emulator, `/projects/${made.id}`, { as: "alice" })).status).toBe(200);
    now += 86_400_000;
    await server.emulator.runDueWork();
    expect((await call(server.emulator, `/projects/${made.id}`, { as: "alice" })).status).toBe(404);
  });
});

describe("deletion at once", () => {
  const community = useEmulator({ seed: { ...defaultSeed, instance: { ...defaultSeed.instance!, enterprise: false } }, backgroundWork: "manual" });

  it("the Community Edition deletes a project at once, as it does groups; a personal project goes at once everywhere", async () => {
    const site = await call(community.emulator, "/projects/beta%2Fsite", { method: "DELETE", as: "alice" });
    expect(site.status).toBe(202);
    expect((await call(community.emulator, "/projects/beta%2Fsite", { as: "alice" })).status).toBe(404);
    expect((await call(community.emulator, "/projects/acme%2Fapi", { as: "alice" })).body).not.toHaveProperty("marked_for_deletion_on");
    const mine = (await call(server.emulator, "/projects", { method: "POST", body: { path: "scratch" }, as: "alice" })).body;
    await call(server.emulator, `/projects/${mine.id}`, { method: "DELETE", as: "alice" });
    expect((await call(server.emulator, `/projects/${mine.id}`, { as: "alice" })).status).toBe(404);
  });
});
