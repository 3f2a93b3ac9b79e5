/** The merge request lookups against the emulator: results, filters, pagination, refusals, bad arguments. */
import { beforeAll, describe, expect, it } from "vitest";
import {
  getMergeRequest,
  getMergeRequestDiffs,
  getMergeRequestOutput,
  getMergeRequestPipelines,
  getMergeRequestRawDiffs,
  getMergeRequests,
  getProjectMergeRequests,
  getProjectMergeRequestsOutput,
} from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// The default seed, and on acme/api 150 merge requests by dev, the first with
// 130 changed files and 120 pipelines: two pages of 100 for each list.
const MANY_MRS = 150;
const MANY_FILES = 130;
const MANY_PIPELINES = 120;
const seed: Seed = {
  ...defaultSeed,
  mergeRequests: {
    ...(defaultSeed.mergeRequests as object),
    "acme/api": {
      mergeRequests: Array.from({ length: MANY_MRS }, (_, i) => ({
        title: `Change ${String(i).padStart(3, "0")}`,
        sourceBranch: `change-${i}`,
        targetBranch: "develop",
        author: "dev",
        createdAt: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
        ...(i === 0
          ? {
              files: Array.from({ length: MANY_FILES }, (_, f) => ({ path: `src/file-${f}.go`, newFile: true, diff: `@@ -0,0 +1 @@\n+package f${f}\n` })),
              pipelines: Array.from({ length: MANY_PIPELINES }, (_, p) => ({ status: p % 2 ? "failed" : "success" })),
            }
          : {}),
      })),
    },
  },
};

const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("alice");
});

/** Runs `action` as another seed user, then as the file's user again. */
const as = <T>(username: string, action: () => Promise<T>): Promise<T> => server.actingAs(username, action);

describe("getMergeRequests", () => {
  it("merge requests in camelCase, filtered, in one request", async () => {
    let found: Awaited<ReturnType<typeof getMergeRequests>> = [];
    const requests = await server.requestsDuring(async () => {
      found = await getMergeRequests({ scope: "all", labels: ["feature", "frontend"], state: "opened" });
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe("/api/v4/merge_requests");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      title: "Add the login page",
      references: { full: "acme/web!1" },
      author: { username: "dev" },
      timeStats: { humanTimeEstimate: "4h", humanTotalTimeSpent: "1h 30m" },
      taskCompletionStatus: { count: 3, completedCount: 2 },
      detailedMergeStatus: "mergeable",
      labels: ["feature", "frontend"],
    });
  });

  it("the scope defaults to the caller's own; reviews_for_me, None/Any and not as an object", async () => {
    const mine = await as("maintainer", () => getMergeRequests({}));
    // acme/api's default merge requests are replaced by this file's seed.
    expect(mine.map((mr) => mr.references!.full)).toEqual(["acme/web!3"]);
    const reviews = await as("dev", () => getMergeRequests({ scope: "reviews_for_me" }));
    expect(reviews.map((mr) => mr.references!.full)).toEqual(["acme/web!3"]);
    const unassignedDrafts = await getMergeRequests({ scope: "all", assigneeId: "None", wip: "yes" });
    expect(unassignedDrafts.map((mr) => mr.title)).toEqual(["Draft: Rework the header"]);
    const notDev = await getMergeRequests({ scope: "all", state: "opened", not: { authorUsername: "dev", labels: ["feature"] } });
    expect(notDev.map((mr) => mr.references!.full)).toEqual(["acme/web!2", "beta/site!1"]);
    const approved = await getMergeRequests({ scope: "all", approvedByIds: "Any", milestone: "Any", in: ["description"], search: "escapes" });
    expect(approved.map((mr) => mr.references!.full)).toEqual(["acme/web!3"]);
    const deployed = await getMergeRequests({ scope: "all", environment: "production", deployedAfter: "2024-04-21T00:00:00Z" });
    expect(deployed.map((mr) => mr.title)).toEqual(["Fix XSS in the comment view"]);
  });

  it("view simple and label details pass through", async () => {
    const [simple] = await getMergeRequests({ scope: "all", view: "simple", sourceBranch: "feature/login" });
    expect(Object.keys(simple!).sort()).toEqual(["createdAt", "description", "id", "iid", "projectId", "state", "title", "updatedAt", "webUrl"]);
    const [detailed] = await getMergeRequests({ scope: "all", withLabelsDetails: true, sourceBranch: "feature/login" });
    expect(detailed!.labels).toEqual([expect.objectContaining({ name: "feature", color: "#428bca", textColor: "#FFFFFF" }), expect.objectContaining({ name: "frontend" })]);
  });

  it("every page, 100 a request; limit reads only what it needs", async () => {
    let all: Awaited<ReturnType<typeof getMergeRequests>> = [];
    const requests = await server.requestsDuring(async () => {
      all = await getMergeRequests({ scope: "all", targetBranch: "develop", authorUsername: "dev", orderBy: "title", sort: "asc" });
    });
    expect(all).toHaveLength(MANY_MRS);
    expect(requests).toHaveLength(2);
    expect(all[0]!.title).toBe("Change 000");
    expect(all.at(-1)!.title).toBe("Change 149");
    const limited = await server.requestsDuring(async () => {
      expect(await getMergeRequests({ scope: "all", targetBranch: "develop", limit: 5 })).toHaveLength(5);
    });
    expect(limited).toHaveLength(1);
  });

  it("exclusive pairs and bad arguments are refused naming them, with no request sent", async () => {
    const mark = server.emulator.mark();
    await expect(getMergeRequests({ authorId: 4, authorUsername: "dev" })).rejects.toThrow(/getMergeRequests: invalid arguments: authorId and authorUsername are mutually exclusive/);
    await expect(getMergeRequests({ reviewerId: "Any", reviewerUsername: "dev" })).rejects.toThrow(/reviewerId and reviewerUsername are mutually exclusive/);
    await expect(getMergeRequests({ mergeUserId: 2, mergeUserUsername: "alice" })).rejects.toThrow(/mergeUserId and mergeUserUsername are mutually exclusive/);
    await expect(getMergeRequests({ not: { assigneeId: 4, assigneeUsername: "dev" } })).rejects.toThrow(/not\.assigneeId and not\.assigneeUsername are mutually exclusive/);
    await expect(getMergeRequests({ approvedByIds: [1, 2, 3, 4, 5, 6] })).rejects.toThrow(/approvedByIds: .*at most 5/);
    await expect(getMergeRequests({ assigneeId: "nobody" as never })).rejects.toThrow(/assigneeId: must be a user id, None or Any/);
    await expect(getMergeRequests({ createdAfter: "yesterday" })).rejects.toThrow(/createdAfter: must be an ISO 8601 time/);
    await expect(getMergeRequests({ scope: "mine" as never })).rejects.toThrow(/scope: /);
    await expect(getMergeRequests({ labels: ["a,b"] })).rejects.toThrow(/labels/);
    await expect(getMergeRequests({ autorId: 4 } as never)).rejects.toThrow(/autorId: unknown property; did you mean authorId\?/);
    await expect(getMergeRequests({ not: { state: "opened" } as never })).rejects.toThrow(/not\.state: unknown property/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("a Guest of acme sees only the public project's merge requests", async () => {
    const seen = await as("guest", () => getMergeRequests({ scope: "all" }));
    expect(seen.map((mr) => mr.references!.full)).toEqual(["beta/site!1"]);
  });
});

describe("getProjectMergeRequests", () => {
  it("every merge request of the project (scope all by default), every page, 100 a request", async () => {
    let all: Awaited<ReturnType<typeof getProjectMergeRequests>> = [];
    const requests = await server.requestsDuring(async () => {
      all = await getProjectMergeRequests({ project: "acme/api", orderBy: "title", sort: "asc" });
    });
    expect(all).toHaveLength(MANY_MRS);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.path).toBe("/api/v4/projects/acme%2Fapi/merge_requests");
    expect(all[0]).toMatchObject({ title: "Change 000", references: { full: "acme/api!1" }, author: { username: "dev" } });
  });

  it("the list's filters, iids, and the Output form", async () => {
    const web = await getProjectMergeRequests({ project: "acme/web", state: "opened", labels: ["feature"] });
    expect(web.map((mr) => mr.iid)).toEqual([1]);
    const picked = await getProjectMergeRequests({ project: "acme/web", iids: [3, 4], sort: "asc" });
    expect(picked.map((mr) => mr.iid)).toEqual([4, 3]);
    const mine = await as("maintainer", () => getProjectMergeRequests({ project: "acme/web", scope: "created_by_me" }));
    expect(mine.map((mr) => mr.iid)).toEqual([3]);
    const titles = await new Promise<string[]>((resolve) => getProjectMergeRequestsOutput({ project: "acme/web", state: "merged" }).apply((list) => resolve(list.map((mr) => mr.title))));
    expect(titles).toEqual(["Fix XSS in the comment view"]);
  });

  it("refusals are named: a project out of sight, a Guest on a private project, bad arguments before any request", async () => {
    await expect(as("outsider", () => getProjectMergeRequests({ project: "acme/web" }))).rejects.toThrow(/getProjectMergeRequests: the merge requests of project acme\/web was not found: .*404 Project Not Found/);
    await expect(as("guest", () => getProjectMergeRequests({ project: "acme/web" }))).rejects.toThrow(/getProjectMergeRequests: the token's user may not read the merge requests of project acme\/web: .*Reporter role/);
    const mark = server.emulator.mark();
    await expect(getProjectMergeRequests({ project: "acme/web", authorId: 4, authorUsername: "dev" })).rejects.toThrow(/authorId and authorUsername are mutually exclusive/);
    await expect(getProjectMergeRequests({ project: "acme/web", iids: [0] })).rejects.toThrow(/iids/);
    await expect(getProjectMergeRequests({ state: "opened" } as never)).rejects.toThrow(/project/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("getMergeRequest", () => {
  it("one merge request with its extras", async () => {
    const mr = await getMergeRequest({ project: "acme/web", iid: 1, includeDivergedCommitsCount: true, includeRebaseInProgress: true, renderHtml: true });
    expect(mr).toMatchObject({
      iid: 1,
      changesCount: "3",
      divergedCommitsCount: 2,
      rebaseInProgress: false,
      titleHtml: "Add the login page",
      headPipeline: { status: "success", detailedStatus: { text: "passed" } },
      diffRefs: { baseSha: "4fad28417dafda0a34a76720d5db3ad93d067efb" },
      milestone: { title: "v1.5", dueDate: "2030-06-30" },
    });
  });

  it("a missing one is an error that names it", async () => {
    await expect(getMergeRequest({ project: "acme/web", iid: 99 })).rejects.toThrow(/getMergeRequest: merge request !99 of project acme\/web was not found: .*404/);
    await expect(getMergeRequest({ project: "acme/nope", iid: 1 })).rejects.toThrow(/merge request !1 of project acme\/nope was not found: .*404 Project Not Found/);
  });

  it("a Guest of a private project is refused, and told why", async () => {
    const error = await as("guest", () => getMergeRequest({ project: "acme/web", iid: 1 }).catch((e: Error) => e));
    expect((error as Error).message).toMatch(/getMergeRequest: the token's user may not read merge request !1 of project acme\/web: .*403.*Reporter role/);
  });

  it("head pipeline absent for a caller who may not see pipelines", async () => {
    const mr = await as("outsider", () => getMergeRequest({ project: "beta/site", iid: 1 }));
    expect(mr.title).toBe("Refresh the landing page");
    expect(mr).not.toHaveProperty("headPipeline");
  });

  it("bad arguments: nothing sent", async () => {
    const mark = server.emulator.mark();
    await expect(getMergeRequest({ project: "acme/web", iid: 0 })).rejects.toThrow(/getMergeRequest: invalid arguments: iid: /);
    await expect(getMergeRequest({ project: "acme/web" } as never)).rejects.toThrow(/iid: is required/);
    await expect(getMergeRequest({ project: "acme web", iid: 1 })).rejects.toThrow(/project: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("the Output form", async () => {
    const title = await new Promise<string>((resolve) => getMergeRequestOutput({ project: "acme/web", iid: 3 }).apply((mr) => resolve(mr.title)));
    expect(title).toBe("Fix XSS in the comment view");
  });
});

describe("getMergeRequestDiffs", () => {
  it("every file, 100 a request", async () => {
    let diffs: Awaited<ReturnType<typeof getMergeRequestDiffs>> = [];
    const requests = await server.requestsDuring(async () => {
      diffs = await getMergeRequestDiffs({ project: "acme/api", iid: 1 });
    });
    expect(diffs).toHaveLength(MANY_FILES);
    expect(requests).toHaveLength(2);
    expect(diffs[0]).toEqual({
      oldPath: "src/file-0.go", newPath: "src/file-0.go", aMode: "0", bMode: "100644", diff: "@@ -0,0 +1 @@\n+package f0\n",
      newFile: true, renamedFile: false, deletedFile: false, generatedFile: false, collapsed: false, tooLarge: false,
    });
  });

  it("unidiff, a missing merge request, a refused caller, a bad argument", async () => {
    const [first] = await getMergeRequestDiffs({ project: "acme/web", iid: 1, unidiff: true, limit: 1 });
    expect(first!.diff.startsWith("--- /dev/null\n+++ b/src/login.js\n")).toBe(true);
    await expect(getMergeRequestDiffs({ project: "acme/web", iid: 404 })).rejects.toThrow(/the diffs of merge request !404 of project acme\/web was not found/);
    await expect(as("guest", () => getMergeRequestDiffs({ project: "acme/web", iid: 1 }))).rejects.toThrow(/may not read the diffs of merge request !1 of project acme\/web: .*403/);
    const mark = server.emulator.mark();
    await expect(getMergeRequestDiffs({ project: "acme/web", iid: 1, unidiff: "yes" as never })).rejects.toThrow(/unidiff: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("getMergeRequestRawDiffs", () => {
  it("the whole change as text, in one request", async () => {
    let text = "";
    const requests = await server.requestsDuring(async () => {
      text = await getMergeRequestRawDiffs({ project: "acme/web", iid: 1 });
    });
    expect(requests).toHaveLength(1);
    expect(text).toContain("diff --git a/src/login.js b/src/login.js\nnew file mode 100644\n");
    expect(text).toContain("rename from src/auth.js");
  });

  it("a missing one, a refused caller, a bad argument", async () => {
    await expect(getMergeRequestRawDiffs({ project: "acme/web", iid: 404 })).rejects.toThrow(/the raw diff of merge request !404 of project acme\/web was not found/);
    await expect(as("guest", () => getMergeRequestRawDiffs({ project: "acme/web", iid: 1 }))).rejects.toThrow(/403.*Reporter role/);
    const mark = server.emulator.mark();
    await expect(getMergeRequestRawDiffs({ project: "acme/web", iid: -1 })).rejects.toThrow(/getMergeRequestRawDiffs: invalid arguments: iid: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("getMergeRequestPipelines", () => {
  it("every pipeline newest first, 100 a request; limit", async () => {
    let pipelines: Awaited<ReturnType<typeof getMergeRequestPipelines>> = [];
    const requests = await server.requestsDuring(async () => {
      pipelines = await getMergeRequestPipelines({ project: "acme/api", iid: 1 });
    });
    expect(pipelines).toHaveLength(MANY_PIPELINES);
    expect(requests).toHaveLength(2);
    expect(pipelines[0]!.id).toBeGreaterThan(pipelines[1]!.id);
    expect(pipelines[0]).toMatchObject({ ref: "change-0", sha: expect.stringMatching(/^[0-9a-f]{40}$/), webUrl: expect.stringContaining("/-/pipelines/") });
    const [latest] = await getMergeRequestPipelines({ project: "acme/web", iid: 1, limit: 1 });
    expect(latest).toMatchObject({ status: "success" });
  });

  it("pipelines that are not public refuse a non-member, and say why; a missing merge request is named", async () => {
    await expect(as("outsider", () => getMergeRequestPipelines({ project: "beta/site", iid: 1 }))).rejects.toThrow(
      /getMergeRequestPipelines: the token's user may not read the pipelines of merge request !1 of project beta\/site: .*403.*pipelines are public/,
    );
    await expect(getMergeRequestPipelines({ project: "acme/web", iid: 77 })).rejects.toThrow(/the pipelines of merge request !77 of project acme\/web was not found/);
    const mark = server.emulator.mark();
    await expect(getMergeRequestPipelines({ project: "acme/web", iid: 1.5 })).rejects.toThrow(/iid: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});
