/**
 * The merge requests of a commit (GET /projects/:id/repository/commits/:sha/merge_requests),
 * which the review's apply job reads to find the merge request a commit came
 * from, driven by @gitbeaker/rest's Commits.allMergeRequests, with its refusals.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { defaultSeed, type Seed } from "../../src/emulator";
import { freshEmulator } from "./registry-fixtures";

const status = (code: number) => ({ cause: { response: { status: code } } });

describe("@gitbeaker/rest Commits.allMergeRequests", () => {
  it("finds the merge request whose head the commit is; none for another commit", async () => {
    const { emulator } = await freshEmulator();
    const api = (as: string) => new Gitlab({ host: emulator.url, token: emulator.tokens[as]! });
    const mr = await api("maintainer").MergeRequests.create("acme/web", "stable", "main", "Back to stable");
    emulator.runDueWork();
    const { sha } = await api("maintainer").MergeRequests.show("acme/web", mr.iid);
    const found = await api("dev").Commits.allMergeRequests("acme/web", sha as string);
    expect(found.map((request) => request.iid)).toContain(mr.iid);
    expect(found.find((request) => request.iid === mr.iid)).toMatchObject({ source_branch: "stable", target_branch: "main", state: "opened" });
    // A commit of the repository that no merge request holds: none.
    expect(await api("dev").Commits.allMergeRequests("acme/web", "main")).toEqual([]);
  });

  it("finds a merged merge request by its merge commit and by its squash commit, with what tells it brought them", async () => {
    // The default seed, with acme/web's merged !3 squashed.
    const seed = structuredClone(defaultSeed) as Seed & { mergeRequests: Record<string, { mergeRequests: { title: string; squash?: boolean }[] }> };
    seed.mergeRequests["acme/web"]!.mergeRequests.find((mr) => mr.title === "Fix XSS in the comment view")!.squash = true;
    const { emulator } = await freshEmulator(seed);
    const api = new Gitlab({ host: emulator.url, token: emulator.tokens.dev! });
    const [merged] = await api.MergeRequests.all({ projectId: "acme/web", state: "merged", search: "Fix XSS" });
    expect(merged).toMatchObject({ state: "merged", target_branch: "main", merged_at: "2024-04-20T16:00:00.000Z", squash: true });
    expect(merged!.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(merged!.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    for (const commit of [merged!.merge_commit_sha, merged!.squash_commit_sha] as string[]) {
      const found = await api.Commits.allMergeRequests("acme/web", commit);
      expect(found.map((request) => [request.iid, request.state, request.merged_at, request.merge_commit_sha, request.squash_commit_sha])).toEqual([
        [merged!.iid, "merged", "2024-04-20T16:00:00.000Z", merged!.merge_commit_sha, merged!.squash_commit_sha],
      ]);
    }
  });

  it("refusals: a commit the repository lacks is 404, a caller who may not read merge requests 403 or 404", async () => {
    const { emulator } = await freshEmulator();
    const api = (as: string) => new Gitlab({ host: emulator.url, token: emulator.tokens[as]! });
    await expect(api("dev").Commits.allMergeRequests("acme/web", "0".repeat(40))).rejects.toMatchObject(status(404));
    await expect(api("outsider").Commits.allMergeRequests("acme/web", "main")).rejects.toMatchObject(status(404));
  });
});
