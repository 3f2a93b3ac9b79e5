/**
 * The merge requests of a commit (GET /projects/:id/repository/commits/:sha/merge_requests),
 * which the review's apply job reads to find the merge request a commit came
 * from, driven by @gitbeaker/rest's Commits.allMergeRequests, with its refusals.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
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

  it("refusals: a commit the repository lacks is 404, a caller who may not read merge requests 403 or 404", async () => {
    const { emulator } = await freshEmulator();
    const api = (as: string) => new Gitlab({ host: emulator.url, token: emulator.tokens[as]! });
    await expect(api("dev").Commits.allMergeRequests("acme/web", "0".repeat(40))).rejects.toMatchObject(status(404));
    await expect(api("outsider").Commits.allMergeRequests("acme/web", "main")).rejects.toMatchObject(status(404));
  });
});
