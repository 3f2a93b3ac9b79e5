/**
 * MergeRequest with the real Pulumi CLI: `up` opens it with one POST, the
 * values the server normalises never show as a change (a second preview and
 * one after a refresh are clean), a title change is one PUT, a merge request
 * closed in the web UI is reopened, one merged elsewhere fails the `up` with
 * the explanation instead of being reopened, and destroy closes (or, once
 * merged, leaves) it: the API deletes no merge requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeRequestStore } from "pulumi-platform/emulator";
import { stepsByName } from "../../scripts/pulumi-workspace.mts";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

interface LiveMergeRequest {
  iid: number;
  title: string;
  state: string;
  labels: string[];
}

describe.sequential("MergeRequest with the real Pulumi CLI", { timeout: 5 * 60_000 }, () => {
  let started: ProgramUnderTest;
  let path = "";
  const live = () => started.api.get<LiveMergeRequest>(path);
  const requestsOf = async (action: () => Promise<unknown>) => {
    const mark = started.emulator.mark();
    await action();
    return started.emulator.requestsSince(mark).filter((r) => r.path.includes("merge_requests")).map((r) => `${r.method} ${r.path.replace(/\/\d+$/, "/:iid")}`);
  };

  beforeAll(async () => {
    started = await startProgramUnderTest({ programDir: "test/e2e/programs/merge-requests" });
  }, 10 * 60_000);

  afterAll(() => stopProgramUnderTest(started ?? {}));

  it("up opens it with one POST (check first looks for an open one); a second preview, and one after a refresh, show no changes", async () => {
    // check's verification first looks for an open merge request of the same branches.
    expect(await requestsOf(() => started.program.up())).toEqual(["GET /api/v4/merge_requests", "POST /api/v4/projects/acme%2Fweb/merge_requests"]);
    const { deployment } = await started.program.exportStack();
    path = "/" + deployment.resources!.find((resource) => resource.urn.endsWith("::release"))!.id;
    expect(await live()).toMatchObject({ title: "Release 1.x", state: "opened", labels: ["bug", "zeta-release"] });
    await started.program.preview("--expect-no-changes");
    await started.program.preview("--refresh", "--expect-no-changes");
  });

  it("a new title is one PUT", async () => {
    await started.program.setConfig("title", "Release 1.x (QA)");
    expect(stepsByName(await started.program.previewJson()).release?.op).toBe("update");
    expect(await requestsOf(() => started.program.up())).toEqual(["PUT /api/v4/projects/acme%2Fweb/merge_requests/:iid"]);
    expect((await live()).title).toBe("Release 1.x (QA)");
  });

  it("closed in the web UI: up --refresh reopens it", async () => {
    await started.api.put(path, { state_event: "close" });
    await started.program.up("--refresh");
    expect((await live()).state).toBe("opened");
    await started.program.preview("--refresh", "--expect-no-changes");
  });

  it("merged elsewhere: up --refresh fails saying why and what to do, and sends no write", async () => {
    const iid = Number(path.split("/").at(-1));
    const record = mergeRequestStore.of(started.emulator.state).mergeRequests.find((mr) => mr.iid === iid && mr.sourceBranch === "release/1.x")!;
    Object.assign(record, { state: "merged", mergedAt: "2030-01-02T00:00:00.000Z" });
    let failed: { code: number; stdout: string } | undefined;
    const requests = await requestsOf(async () => {
      failed = await started.program.cli(["up", "--yes", "--skip-preview", "--refresh"], { allowFailure: true });
    });
    expect(failed!.code).not.toBe(0);
    expect(failed!.stdout).toMatch(/merged outside this program.*cannot be reopened/);
    expect(requests.filter((request) => !request.startsWith("GET"))).toEqual([]);
    expect((await live()).state).toBe("merged");
  });

  it("destroy leaves a merged merge request as it is (sending nothing)", async () => {
    expect(await requestsOf(() => started.program.destroy())).toEqual([]);
    expect((await live()).state).toBe("merged");
  });
});
