/**
 * The repository history endpoints driven by a real client: @gitbeaker/rest's
 * `Repositories.compare`, `allContributors`, `mergeBase`, `showChangelog` and
 * `editChangelog`, against a seeded git history.
 */
import { Gitlab } from "@gitbeaker/rest";
import * as fs from "node:fs";
import * as git from "isomorphic-git";
import { describe, expect, it } from "vitest";
import { defaultSeed, type Seed } from "../../src/emulator";
import { repositoryOf } from "../../src/emulator/areas/repository/model";
import { useEmulator } from "./helpers";

const history = {
  commits: [
    { id: "base", message: "Initial commit", files: { "README.md": "# Web\n", "config.yml": "retries: 1\n" } },
    { id: "client", message: "Add the API client", trailers: { Changelog: "added" }, author: { name: "Dev Developer", email: "dev@example.test" }, files: { "src/api.js": "export {};\n" } },
    { id: "retry", branch: "feature", from: "client", message: "Retry twice", trailers: { Changelog: "changed" }, files: { "config.yml": "retries: 2\n" } },
  ],
  tags: [{ name: "v1.0.0", target: "base" }],
};

const seed: Seed = {
  ...defaultSeed,
  repositories: { ...((defaultSeed as { repositories?: Record<string, unknown> }).repositories ?? {}), "acme/web": history },
};

const server = useEmulator({ seed });
const as = (username: string) => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens[username]! });

describe("@gitbeaker/rest repository history", () => {
  it("Repositories.compare: commits, diffs with their flags, straight", async () => {
    const result = await as("dev").Repositories.compare("acme/web", "v1.0.0", "feature");
    expect(result.commits!.map((c) => c.title)).toEqual(["Add the API client", "Retry twice"]);
    expect(result.commit).toMatchObject({ title: "Retry twice" });
    expect(result.compare_same_ref).toBe(false);
    expect(result.diffs).toEqual([
      expect.objectContaining({ new_path: "config.yml", diff: "@@ -1 +1 @@\n-retries: 1\n+retries: 2\n", new_file: false }),
      expect.objectContaining({ new_path: "src/api.js", new_file: true, a_mode: "0", b_mode: "100644" }),
    ]);
    const straight = await as("dev").Repositories.compare("acme/web", "feature", "main", { straight: true });
    expect(straight.commits).toEqual([]);
    expect(straight.diffs).toEqual([expect.objectContaining({ new_path: "config.yml", diff: "@@ -1 +1 @@\n-retries: 2\n+retries: 1\n" })]);
  });

  it("Repositories.compare: an unknown ref is the 404 a client sees", async () => {
    await expect(as("dev").Repositories.compare("acme/web", "nope", "main")).rejects.toMatchObject({
      cause: { response: { status: 404 }, description: "404 Ref Not Found" },
    });
  });

  it("Repositories.allContributors with orderBy and sort", async () => {
    const contributors = await as("dev").Repositories.allContributors("acme/web", { orderBy: "name", sort: "desc" });
    expect(contributors).toEqual([
      { name: "Dev Developer", email: "dev@example.test", commits: 1, additions: 0, deletions: 0 },
      { name: "Administrator", email: "admin@example.test", commits: 1, additions: 0, deletions: 0 },
    ]);
  });

  it("Repositories.mergeBase of a branch and a tag", async () => {
    const repo = await repositoryOf(server.emulator.state, server.emulator.state.projectByFullPath("acme/web")!);
    const base = await repo.resolveRef("main");
    const commit = await as("dev").Repositories.mergeBase("acme/web", ["feature", "main"]);
    expect(commit).toMatchObject({ id: base, title: "Add the API client", trailers: { Changelog: "added" } });
    await expect(as("dev").Repositories.mergeBase("acme/web", ["main"])).rejects.toMatchObject({ cause: { response: { status: 400 }, description: "Provide at least 2 refs" } });
  });

  it("Repositories.showChangelog and editChangelog: the notes, then the same notes committed to the file", async () => {
    const api = as("maintainer");
    const shown = await api.Repositories.showChangelog("acme/web", "1.1.0", { date: "2024-05-01T00:00:00Z", to: "feature" });
    expect(shown.notes).toMatch(/^## 1\.1\.0 \(2024-05-01\)\n\n### changed \(1 change\)\n\n- \[Retry twice\]\(.*\)\n\n### added \(1 change\)\n\n- \[Add the API client\]\(.*\)\n$/);
    await api.Repositories.editChangelog("acme/web", "1.1.0", { date: "2024-05-01T00:00:00Z", branch: "feature", file: "NEWS.md", message: "Release notes" });
    const repo = await repositoryOf(server.emulator.state, server.emulator.state.projectByFullPath("acme/web")!);
    const head = (await repo.resolveRef("feature"))!;
    expect((await repo.readCommit(head)).commit.message).toBe("Release notes\n");
    const file = await git.readBlob({ fs, gitdir: repo.gitdir, oid: head, filepath: "NEWS.md" });
    expect(Buffer.from(file.blob).toString("utf8")).toBe(shown.notes);
    // A Developer may not commit to the protected default branch.
    await expect(as("dev").Repositories.editChangelog("acme/web", "1.2.0")).rejects.toMatchObject({ cause: { response: { status: 403 } } });
  });
});
