/**
 * Merge requests in the emulator over HTTP: every filter of GET /merge_requests
 * one by one, the exclusive pairs, one merge request and its extras, create
 * and update with their refusals, the state machine, the background
 * preparation and mergeability checks, diffs (paging, unidiff, limits), the
 * raw diff and pipelines.
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, mergeRequestStore, stateFromSeed, type Seed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";
import { freshEmulator, registrySeed } from "./registry-fixtures";

// Read-only tests share one emulator (the default seed plus a Reporter of acme).
const server = useEmulator({ seed: registrySeed(), backgroundWork: "manual" });
const WEB = "/projects/acme%2Fweb/merge_requests";
const API = "/projects/acme%2Fapi/merge_requests";
const SITE = "/projects/beta%2Fsite/merge_requests";

/** `project!iid` of each merge request a list answered, in order. */
async function listed(query: string, as: string | null = "root"): Promise<string[]> {
  const result = await call(server.emulator, `/merge_requests?${query}`, { as });
  if (result.status !== 200) throw new Error(`${query}: ${result.status} ${result.text}`);
  return result.body.map((mr: any) => mr.references.full);
}

const all = (query = "") => listed(`scope=all&per_page=100&order_by=created_at&sort=asc${query ? `&${query}` : ""}`);
const userId = (username: string) => server.emulator.state.userByUsername(username)!.id;

describe("GET /merge_requests: scope and visibility", () => {
  it("lists what the caller created by default, and everything readable with scope=all", async () => {
    expect(await listed("", "dev")).toEqual(["acme/web!5", "acme/web!1", "acme/api!2", "acme/web!4"]);
    expect(await all()).toEqual(["acme/web!4", "acme/web!3", "acme/api!2", "acme/web!1", "acme/api!1", "beta/site!1", "acme/web!2", "acme/web!5"]);
  });

  it("assigned_to_me and reviews_for_me (and the dashed alias)", async () => {
    expect(await listed("scope=assigned_to_me&sort=asc", "dev")).toEqual(["acme/web!1", "acme/api!1"]);
    expect(await listed("scope=assigned-to-me&sort=asc", "dev")).toEqual(["acme/web!1", "acme/api!1"]);
    expect(await listed("scope=reviews_for_me&sort=asc", "dev")).toEqual(["acme/web!3", "acme/api!1"]);
  });

  it("anonymous: 401 without scope=all; with it, only public projects", async () => {
    const refused = await call(server.emulator, "/merge_requests", { as: null });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: "401 Unauthorized" });
    expect(await listed("scope=all", null)).toEqual(["beta/site!1"]);
  });

  it("private projects need Reporter: a Guest of acme sees only the public project's", async () => {
    expect(await listed("scope=all", "guest")).toEqual(["beta/site!1"]);
    expect((await listed("scope=all", "reporter")).length).toBe(8);
  });

  it("an unknown scope or state is Grape's 400", async () => {
    expect((await call(server.emulator, "/merge_requests?scope=mine")).body).toEqual({ error: "scope does not have a valid value" });
    expect((await call(server.emulator, "/merge_requests?state=open")).body).toEqual({ error: "state does not have a valid value" });
  });
});

describe("GET /merge_requests: each filter", () => {
  it("state", async () => {
    expect(await all("state=opened")).toEqual(["acme/web!1", "acme/api!1", "beta/site!1", "acme/web!2"]);
    expect(await all("state=merged")).toEqual(["acme/web!3", "acme/api!2"]);
    expect(await all("state=closed")).toEqual(["acme/web!4"]);
    expect(await all("state=locked")).toEqual(["acme/web!5"]);
  });

  it("order_by and sort (created_at desc by default; merged_at puts unmerged last)", async () => {
    expect((await listed("scope=all&per_page=3"))).toEqual(["acme/web!5", "acme/web!2", "beta/site!1"]);
    expect(await listed("scope=all&order_by=title&sort=asc&per_page=3")).toEqual(["acme/api!1", "acme/web!1", "acme/api!2"]);
    expect(await listed("scope=all&order_by=merged_at&sort=desc&per_page=3")).toEqual(["acme/api!2", "acme/web!3", "beta/site!1"]);
    expect(await listed("scope=all&order_by=updated_at&sort=desc&per_page=1")).toEqual(["acme/web!5"]);
    expect((await call(server.emulator, "/merge_requests?order_by=priority")).status).toBe(400);
  });

  it("author_id XOR author_username", async () => {
    expect(await all(`author_id=${userId("alice")}`)).toEqual(["beta/site!1", "acme/web!2"]);
    expect(await all("author_username=maintainer")).toEqual(["acme/web!3", "acme/api!1"]);
    const both = await call(server.emulator, `/merge_requests?scope=all&author_id=1&author_username=alice`);
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: "author_id, author_username are mutually exclusive" });
  });

  it("assignee_id: an id, None, Any; anything else is refused", async () => {
    expect(await all(`assignee_id=${userId("dev")}`)).toEqual(["acme/web!1", "acme/api!1"]);
    expect(await all("assignee_id=None")).toEqual(["acme/web!4", "acme/api!2", "beta/site!1", "acme/web!2", "acme/web!5"]);
    expect(await all("assignee_id=any")).toEqual(["acme/web!3", "acme/web!1", "acme/api!1"]);
    expect((await call(server.emulator, "/merge_requests?scope=all&assignee_id=someone")).body).toEqual({
      error: "assignee_id should be an integer, none, or any, however got someone",
    });
  });

  it("reviewer_id and reviewer_username (None, Any), exclusive", async () => {
    expect(await all(`reviewer_id=${userId("maintainer")}`)).toEqual(["acme/web!1"]);
    expect(await all("reviewer_id=None")).toEqual(["acme/web!4", "acme/api!2", "beta/site!1", "acme/web!2"]);
    expect(await all("reviewer_username=alice")).toEqual(["acme/api!1", "acme/web!5"]);
    expect(await all("reviewer_username=Any")).toEqual(["acme/web!3", "acme/web!1", "acme/api!1", "acme/web!5"]);
    expect((await call(server.emulator, "/merge_requests?scope=all&reviewer_id=1&reviewer_username=alice")).body).toEqual({
      error: "reviewer_id, reviewer_username are mutually exclusive",
    });
  });

  it("merge_user_id XOR merge_user_username", async () => {
    expect(await all(`merge_user_id=${userId("alice")}`)).toEqual(["acme/web!3"]);
    expect(await all("merge_user_username=maintainer")).toEqual(["acme/api!2"]);
    expect((await call(server.emulator, "/merge_requests?scope=all&merge_user_id=1&merge_user_username=x")).body).toEqual({
      error: "merge_user_id, merge_user_username are mutually exclusive",
    });
  });

  it("approved_by_ids and approver_ids (Premium+: the Free beta/site is never filtered out)", async () => {
    expect(await all(`approved_by_ids[]=${userId("maintainer")}`)).toEqual(["acme/web!1", "beta/site!1"]);
    expect(await all(`approved_by_ids[]=${userId("alice")}&approved_by_ids[]=${userId("dev")}`)).toEqual(["acme/web!3", "beta/site!1"]);
    expect(await all("approved_by_ids=Any")).toEqual(["acme/web!3", "acme/web!1", "beta/site!1"]);
    expect(await all("approved_by_ids=None")).toEqual(["acme/web!4", "acme/api!2", "acme/api!1", "beta/site!1", "acme/web!2", "acme/web!5"]);
    expect(await all(`approver_ids[]=${userId("alice")}`)).toEqual(["acme/web!3", "acme/web!1", "acme/api!1", "beta/site!1"]);
    expect((await call(server.emulator, "/merge_requests?scope=all&approved_by_ids=7")).body).toEqual({ error: "approved_by_ids should be an array, 'None' or 'Any'" });
    const six = [1, 2, 3, 4, 5, 6].map((id) => `approved_by_ids[]=${id}`).join("&");
    expect((await call(server.emulator, `/merge_requests?scope=all&${six}`)).body).toEqual({ error: "approved_by_ids allows at most 5 users" });
  });

  it("milestone: a title, None, Any", async () => {
    expect(await all("milestone=v1.5")).toEqual(["acme/web!1"]);
    expect(await all("milestone=Any")).toEqual(["acme/web!3", "acme/web!1", "acme/api!1"]);
    expect(await all("milestone=None")).toEqual(["acme/web!4", "acme/api!2", "beta/site!1", "acme/web!2", "acme/web!5"]);
  });

  it("labels: all of a comma-separated list (case-insensitive), None, Any", async () => {
    expect(await all("labels=feature,FRONTEND")).toEqual(["acme/web!1"]);
    expect(await all("labels=feature")).toEqual(["acme/web!1", "acme/api!1"]);
    expect(await all("labels=None")).toEqual(["acme/api!2", "beta/site!1", "acme/web!2", "acme/web!5"]);
    expect(await all("labels=Any")).toEqual(["acme/web!4", "acme/web!3", "acme/web!1", "acme/api!1"]);
  });

  it("my_reaction_emoji: the caller's reactions", async () => {
    expect(await listed("scope=all&my_reaction_emoji=thumbsup", "alice")).toEqual(["acme/web!1"]);
    expect(await listed("scope=all&sort=asc&my_reaction_emoji=Any", "dev")).toEqual(["acme/web!2"]);
    expect((await listed("scope=all&my_reaction_emoji=None", "dev")).length).toBe(7);
  });

  it("not[...]: each negated filter, and its exclusive pairs scoped by name", async () => {
    expect(await all("not[labels]=feature")).toEqual(["acme/web!4", "acme/web!3", "acme/api!2", "beta/site!1", "acme/web!2", "acme/web!5"]);
    expect(await all("not[author_username]=dev&state=opened")).toEqual(["acme/api!1", "beta/site!1", "acme/web!2"]);
    expect(await all(`not[author_id]=${userId("dev")}&state=opened`)).toEqual(["acme/api!1", "beta/site!1", "acme/web!2"]);
    expect(await all("not[milestone]=v1.5&milestone=Any")).toEqual(["acme/web!3", "acme/api!1"]);
    expect(await all(`not[assignee_id]=${userId("dev")}&assignee_id=Any`)).toEqual(["acme/web!3"]);
    expect(await all(`not[reviewer_id]=${userId("alice")}&reviewer_id=Any`)).toEqual(["acme/web!3", "acme/web!1"]);
    expect(await all("not[reviewer_username]=dev&reviewer_id=Any")).toEqual(["acme/web!1", "acme/web!5"]);
    expect(await listed("scope=all&sort=asc&not[my_reaction_emoji]=thumbsup&state=opened", "alice")).toEqual(["acme/api!1", "beta/site!1", "acme/web!2"]);
    const both = await call(server.emulator, "/merge_requests?scope=all&not[author_id]=1&not[author_username]=x");
    expect(both.body).toEqual({ error: "not[author_id], not[author_username] are mutually exclusive" });
  });

  it("created and updated before/after, inclusive", async () => {
    expect(await all("created_after=2024-05-04T10:00:00Z")).toEqual(["beta/site!1", "acme/web!2", "acme/web!5"]);
    expect(await all("created_before=2024-04-15T08:00:00Z")).toEqual(["acme/web!4", "acme/web!3"]);
    expect(await all("updated_after=2024-05-03T12:00:00Z&updated_before=2024-05-04T10:00:00Z")).toEqual(["acme/web!1", "beta/site!1"]);
    expect((await call(server.emulator, "/merge_requests?scope=all&created_after=yesterday")).body).toEqual({ error: "created_after is invalid" });
  });

  it("deployed_after, deployed_before and environment", async () => {
    expect(await all("environment=production")).toEqual(["acme/web!3"]);
    expect(await all("environment=staging")).toEqual(["acme/web!3", "acme/api!2"]);
    expect(await all("deployed_after=2024-04-21T00:00:00Z")).toEqual(["acme/web!3", "acme/api!2"]);
    expect(await all("deployed_before=2024-04-20T17:00:00Z")).toEqual(["acme/web!3"]);
  });

  it("search in title, description or both", async () => {
    expect(await all("search=LOGIN")).toEqual(["acme/web!1"]);
    expect(await all("search=escapes")).toEqual(["acme/web!3"]);
    expect(await all("search=escapes&in=title")).toEqual([]);
    expect(await all("search=login&in=description")).toEqual(["acme/web!1"]);
  });

  it("source_branch and target_branch", async () => {
    expect(await all("source_branch=feature/login")).toEqual(["acme/web!1"]);
    expect(await all("target_branch=develop")).toEqual(["acme/api!2", "acme/api!1"]);
  });

  it("wip yes and no (drafts are read from the title)", async () => {
    expect(await all("wip=yes")).toEqual(["acme/web!2"]);
    expect((await all("wip=no")).length).toBe(7);
  });

  it("view=simple answers the reduced set", async () => {
    const result = await call(server.emulator, "/merge_requests?scope=all&view=simple&per_page=1");
    expect(Object.keys(result.body[0]).sort()).toEqual(["created_at", "description", "id", "iid", "project_id", "state", "title", "updated_at", "web_url"]);
  });

  it("with_labels_details gives label objects; render_html adds the HTML fields", async () => {
    const result = await call(server.emulator, "/merge_requests?scope=all&source_branch=feature/login&with_labels_details=true&render_html=true");
    const [mr] = result.body;
    expect(mr.labels).toEqual([
      { id: expect.any(Number), name: "feature", color: "#428bca", description: null, description_html: "", text_color: "#FFFFFF", archived: false },
      { id: expect.any(Number), name: "frontend", color: "#f0ad4e", description: null, description_html: "", text_color: "#1F1E24", archived: false },
    ]);
    expect(mr.title_html).toBe("Add the login page");
    expect(mr.description_html).toContain('<p dir="auto">Adds a login form.</p>');
    const plain = await call(server.emulator, "/merge_requests?scope=all&source_branch=feature/login");
    expect(plain.body[0].labels).toEqual(["feature", "frontend"]);
    expect(plain.body[0]).not.toHaveProperty("title_html");
  });

  it("pages of 20 by default with the real headers", async () => {
    const result = await call(server.emulator, "/merge_requests?scope=all&per_page=3&page=2");
    expect(result.body).toHaveLength(3);
    expect(result.headers.get("x-total")).toBe("8");
    expect(result.headers.get("x-total-pages")).toBe("3");
    expect(result.headers.get("x-next-page")).toBe("3");
  });
});

describe("GET /merge_requests: the search rate limit", () => {
  it("answers the application rate limiter's 429 past the limit, and counts per minute", async () => {
    const { emulator, advance } = await freshEmulator();
    mergeRequestStore.of(emulator.state).searchRateLimit.authenticated = 2;
    for (let i = 0; i < 2; i++) expect((await call(emulator, "/merge_requests?scope=all&search=login")).status).toBe(200);
    const limited = await call(emulator, "/merge_requests?scope=all&search=login");
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: { error: "This endpoint has been requested too many times. Try again later." } });
    expect(limited.headers.get("retry-after")).toBeNull();
    expect((await call(emulator, "/merge_requests?scope=all")).status).toBe(200);
    advance(60_000);
    expect((await call(emulator, "/merge_requests?scope=all&search=login")).status).toBe(200);
  });
});

describe("GET /projects/:id/merge_requests/:iid", () => {
  it("answers every field of part 2.2 with the single-MR extras", async () => {
    const result = await call(server.emulator, `${WEB}/1?include_diverged_commits_count=true&include_rebase_in_progress=true`, { as: "dev" });
    expect(result.status).toBe(200);
    const mr = result.body;
    expect(mr).toMatchObject({
      iid: 1, project_id: mr.target_project_id, source_project_id: mr.target_project_id, title: "Add the login page", state: "opened",
      draft: false, work_in_progress: false, imported: false, imported_from: "none", source_branch: "feature/login", target_branch: "main",
      author: { username: "dev", name: "Dev Developer", state: "active", locked: false, avatar_url: null, web_url: "https://platform.example.test/dev", public_email: "" },
      assignees: [{ username: "dev" }], reviewers: [{ username: "maintainer" }], closed_by: null, merge_user: null, merged_at: null, closed_at: null,
      labels: ["feature", "frontend"], milestone: { title: "v1.5", state: "active", iid: 2, due_date: "2030-06-30", start_date: "2024-05-01", expired: false },
      upvotes: 2, downvotes: 0, user_notes_count: 3, merge_status: "can_be_merged", detailed_merge_status: "mergeable", has_conflicts: false,
      references: { short: "!1", relative: "!1", full: "acme/web!1" },
      time_stats: { time_estimate: 14_400, total_time_spent: 5_400, human_time_estimate: "4h", human_total_time_spent: "1h 30m" },
      task_completion_status: { count: 3, completed_count: 2 },
      changes_count: "3", diverged_commits_count: 2, rebase_in_progress: false, merge_commit_sha: null, squash_commit_sha: null,
      web_url: "https://platform.example.test/acme/web/-/merge_requests/1",
      pipeline: { status: "success", ref: "feature/login" },
      head_pipeline: { status: "success", coverage: "87.5", detailed_status: { text: "passed" }, user: { username: "dev" } },
      user: { can_merge: true },
    });
    expect(mr.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(mr.diff_refs).toEqual({ base_sha: "4fad28417dafda0a34a76720d5db3ad93d067efb", head_sha: mr.sha, start_sha: "4fad28417dafda0a34a76720d5db3ad93d067efb" });
    expect(mr.latest_build_finished_at).toEqual(expect.any(String));
  });

  it("a conflicting draft: cannot_be_merged, has_conflicts, draft_status first", async () => {
    const { body } = await call(server.emulator, `${WEB}/2`);
    expect(body).toMatchObject({ draft: true, work_in_progress: true, merge_status: "cannot_be_merged", has_conflicts: true, detailed_merge_status: "draft_status" });
  });

  it("merged and closed ones: merge_user, closed_by, not_open", async () => {
    const merged = (await call(server.emulator, `${WEB}/3`)).body;
    expect(merged).toMatchObject({ state: "merged", merge_user: { username: "alice" }, merged_by: { username: "alice" }, merged_at: "2024-04-20T16:00:00.000Z", detailed_merge_status: "not_open", first_deployed_to_production_at: "2024-04-21T09:00:00.000Z" });
    expect(merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    const closed = (await call(server.emulator, `${WEB}/4`)).body;
    expect(closed).toMatchObject({ state: "closed", closed_by: { username: "maintainer" }, closed_at: "2024-04-10T08:00:00.000Z" });
  });

  it("pipelines are hidden from callers who may not read them (public project, pipelines not public)", async () => {
    const outsider = (await call(server.emulator, `${SITE}/1`, { as: "outsider" })).body;
    expect(outsider.title).toBe("Refresh the landing page");
    expect(outsider).not.toHaveProperty("head_pipeline");
    expect(outsider).not.toHaveProperty("pipeline");
    const owner = (await call(server.emulator, `${SITE}/1`, { as: "alice" })).body;
    expect(owner.head_pipeline).toMatchObject({ status: "success" });
  });

  it("401 for a bad token, 404 project, 404 merge request, 403 below Reporter", async () => {
    expect((await call(server.emulator, `${WEB}/1`, { token: "glpat-nope" })).status).toBe(401);
    expect((await call(server.emulator, `${WEB}/1`, { as: "outsider" })).body).toEqual({ message: "404 Project Not Found" });
    const missing = await call(server.emulator, `${WEB}/99`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Not found" });
    const guest = await call(server.emulator, `${WEB}/1`, { as: "guest" });
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: "403 Forbidden" });
    expect((await call(server.emulator, `${WEB}/1`, { as: "reporter" })).status).toBe(200);
    expect((await call(server.emulator, `${WEB}/abc`)).body).toEqual({ error: "merge_request_iid is invalid" });
  });
});

describe("POST /projects/:id/merge_requests", () => {
  it("below Premium approvals_before_merge is dropped unsaid; the answer still carries the field", async () => {
    const { emulator } = await freshEmulator();
    const branch = await call(emulator, "/projects/beta%2Fsite/repository/branches", { as: "alice", method: "POST", body: { branch: "approvals", ref: "main" } });
    expect(branch.status).toBe(201);
    const created = await call(emulator, "/projects/beta%2Fsite/merge_requests", {
      as: "alice",
      method: "POST",
      body: { source_branch: "approvals", target_branch: "main", title: "Site", approvals_before_merge: 2 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ approvals_before_merge: null });
  });

  it("creates with every body field; sha, diff_refs and changes_count come with the background preparation", async () => {
    const { emulator } = await freshEmulator();
    const milestone = mergeRequestStore.of(emulator.state).milestones.find((m) => m.title === "v1.5")!;
    const [dev, maintainer, outsider] = ["dev", "maintainer", "outsider"].map((u) => emulator.state.userByUsername(u)!.id);
    const result = await call(emulator, WEB, {
      as: "dev",
      method: "POST",
      body: {
        title: "Add search", source_branch: "feature/search", target_branch: "main", description: "- [ ] tests",
        assignee_ids: [dev, outsider], reviewer_ids: [maintainer], labels: "feature,search", milestone_id: milestone.id,
        remove_source_branch: true, squash: true, allow_collaboration: true, merge_after: "2030-01-01T00:00:00Z", approvals_before_merge: 2,
      },
    });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({
      iid: 6, state: "opened", author: { username: "dev" }, assignees: [{ username: "dev" }], reviewers: [{ username: "maintainer" }],
      labels: ["feature", "search"], milestone: { title: "v1.5" }, force_remove_source_branch: true, squash: true, allow_collaboration: true,
      allow_maintainer_to_push: true, merge_after: "2030-01-01T00:00:00.000Z", approvals_before_merge: 2, task_completion_status: { count: 1, completed_count: 0 },
      sha: null, diff_refs: null, changes_count: null, prepared_at: null, merge_status: "checking", detailed_merge_status: "preparing", head_pipeline: null,
    });
    expect((await call(emulator, `${WEB}/6/diffs`)).body).toEqual([]);
    emulator.runDueWork();
    const prepared = (await call(emulator, `${WEB}/6`)).body;
    expect(prepared).toMatchObject({ changes_count: "1", merge_status: "checking", detailed_merge_status: "checking" });
    expect(prepared.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(prepared.diff_refs).toEqual({ base_sha: "4fad28417dafda0a34a76720d5db3ad93d067efb", head_sha: prepared.sha, start_sha: "4fad28417dafda0a34a76720d5db3ad93d067efb" });
    expect(prepared.prepared_at).toEqual(expect.any(String));
    emulator.runDueWork();
    expect((await call(emulator, `${WEB}/6`)).body).toMatchObject({ merge_status: "can_be_merged", detailed_merge_status: "mergeable" });
    const labels = (await call(emulator, "/merge_requests?scope=all&source_branch=feature/search&with_labels_details=true")).body[0].labels;
    expect(labels.find((l: any) => l.name === "search")).toMatchObject({ color: "#6699cc", text_color: "#FFFFFF" });
  });

  it("below Premium only the first assignee and reviewer are taken; users none of whom may read it change nothing; [] and [0] remove all", async () => {
    const { emulator } = await freshEmulator(registrySeed((seed) => (seed.groups.find((g: any) => g.path === "acme").tier = "free")));
    const [dev, maintainer, outsider] = ["dev", "maintainer", "outsider"].map((u) => emulator.state.userByUsername(u)!.id);
    const users = (body: any) => ({ assignees: body.assignees.map((u: any) => u.username), reviewers: body.reviewers.map((u: any) => u.username) });
    const created = await call(emulator, WEB, {
      method: "POST",
      body: { title: "Add search", source_branch: "feature/search", target_branch: "main", assignee_ids: [dev, maintainer], reviewer_ids: [maintainer, dev] },
    });
    expect(created.status).toBe(201);
    expect(users(created.body)).toEqual({ assignees: ["dev"], reviewers: ["maintainer"] });
    const one = `${WEB}/${created.body.iid}`;
    // The first one may not read it: nothing is left, and the users stay as they were.
    const unreadable = await call(emulator, one, { method: "PUT", body: { assignee_ids: [outsider, dev], reviewer_ids: [outsider] } });
    expect(users(unreadable.body)).toEqual({ assignees: ["dev"], reviewers: ["maintainer"] });
    expect(users((await call(emulator, one, { method: "PUT", body: { assignee_ids: [0], reviewer_ids: [] } })).body)).toEqual({ assignees: [], reviewers: [] });
  });

  it("409 for an open merge request of the same branches, or the same branch twice", async () => {
    const { emulator } = await freshEmulator();
    const duplicate = await call(emulator, WEB, { method: "POST", body: { title: "Again", source_branch: "feature/login", target_branch: "main" } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ message: ["Another open merge request already exists for this source branch: !1"] });
    const same = await call(emulator, WEB, { method: "POST", body: { title: "Loop", source_branch: "main", target_branch: "main" } });
    // `:branch_conflict` is one of the keys answered 422 (the spec's "validation failed"), not the 409 of another open one.
    expect(same.status).toBe(422);
    expect(same.body).toEqual({ message: ["You can't use same project/branch for source and target"] });
    // A closed one does not block a new one.
    expect((await call(emulator, WEB, { method: "POST", body: { title: "Readme again", source_branch: "docs/readme", target_branch: "stable" } })).status).toBe(201);
  });

  it("422 for a branch that does not exist or another target project; 400 for parameters and model errors", async () => {
    const { emulator } = await freshEmulator();
    const noBranch = await call(emulator, WEB, { method: "POST", body: { title: "X", source_branch: "nope", target_branch: "main" } });
    expect(noBranch.status).toBe(422);
    expect(noBranch.body).toEqual({ message: ['Source branch "nope" does not exist'] });
    const fork = await call(emulator, WEB, { method: "POST", body: { title: "X", source_branch: "feature/search", target_branch: "main", target_project_id: 99 } });
    expect(fork.status).toBe(422);
    expect(fork.body).toEqual({ message: ["Source project is not a fork of the target project"] });
    expect((await call(emulator, WEB, { method: "POST", body: { source_branch: "a" } })).body).toEqual({ error: "title is missing, target_branch is missing" });
    const blank = await call(emulator, WEB, { method: "POST", body: { title: " ", source_branch: "feature/search", target_branch: "main", description: "x".repeat(1_048_577) } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: { title: ["can't be blank"], description: ["is too long (maximum is 1048576 characters)"] } });
    expect((await call(emulator, WEB, { method: "POST", body: { title: "X", source_branch: "feature/search", target_branch: "main", merge_after: "soon" } })).body).toEqual({ message: { merge_after: ["is invalid"] } });
  });

  it("needs Developer: 401 anonymous, 403 Reporter, 404 for a non-member of a private project", async () => {
    const { emulator } = await freshEmulator();
    const body = { title: "X", source_branch: "feature/search", target_branch: "main" };
    expect((await call(emulator, WEB, { as: null, method: "POST", body })).status).toBe(401);
    expect((await call(emulator, WEB, { as: "reporter", method: "POST", body })).status).toBe(403);
    expect((await call(emulator, WEB, { as: "outsider", method: "POST", body })).status).toBe(404);
    expect((await call(emulator, WEB, { as: "dev", method: "POST", body })).status).toBe(201);
  });
});

describe("PUT /projects/:id/merge_requests/:iid", () => {
  it("needs at least one attribute; blank title and target_branch are refused", async () => {
    const missing = await call(server.emulator, `${WEB}/1`, { method: "PUT", body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^assignee_id, assignee_ids, reviewer_ids, .*, title, discussion_locked, merge_after are missing, at least one parameter must be provided$/);
    expect((await call(server.emulator, `${WEB}/1`, { method: "PUT", body: { title: "" } })).body).toEqual({ error: "title is empty" });
    expect((await call(server.emulator, `${WEB}/1`, { method: "PUT", body: { state_event: "merge" } })).body).toEqual({ error: "state_event does not have a valid value" });
  });

  it("close and reopen (part 3), and a reopen that would duplicate an open one is 409", async () => {
    const { emulator, advance } = await freshEmulator();
    advance(1000);
    const closed = await call(emulator, `${WEB}/1`, { as: "dev", method: "PUT", body: { state_event: "close" } });
    expect(closed.body).toMatchObject({ state: "closed", closed_by: { username: "dev" }, closed_at: "2024-06-01T00:00:01.000Z", updated_at: "2024-06-01T00:00:01.000Z", detailed_merge_status: "not_open" });
    const reopened = await call(emulator, `${WEB}/1`, { as: "dev", method: "PUT", body: { state_event: "reopen" } });
    expect(reopened.body).toMatchObject({ state: "opened", closed_by: null, closed_at: null });
    // Merged stays merged.
    expect((await call(emulator, `${WEB}/3`, { method: "PUT", body: { state_event: "close" } })).body.state).toBe("merged");
    await call(emulator, `${WEB}/1`, { method: "PUT", body: { state_event: "close" } });
    expect((await call(emulator, WEB, { method: "POST", body: { title: "Login v2", source_branch: "feature/login", target_branch: "main" } })).status).toBe(201);
    const conflict = await call(emulator, `${WEB}/1`, { method: "PUT", body: { state_event: "reopen" } });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ message: ["Another open merge request already exists for this source branch: !6"] });
  });

  it("labels, add_labels, remove_labels, milestone 0, reviewers emptied, a new target branch rechecks", async () => {
    const { emulator } = await freshEmulator();
    const added = await call(emulator, `${WEB}/1`, { method: "PUT", body: { add_labels: "bug,needs-review", remove_labels: "FRONTEND" } });
    expect(added.body.labels).toEqual(["bug", "feature", "needs-review"]);
    const cleared = await call(emulator, `${WEB}/1`, { method: "PUT", body: { labels: "", milestone_id: 0, reviewer_ids: [], assignee_ids: [0] } });
    expect(cleared.body).toMatchObject({ labels: [], milestone: null, reviewers: [], assignees: [], assignee: null });
    const retargeted = await call(emulator, `${WEB}/1`, { method: "PUT", body: { target_branch: "stable", title: "Draft: Add the login page", discussion_locked: true } });
    expect(retargeted.body).toMatchObject({ target_branch: "stable", merge_status: "checking", draft: true, discussion_locked: true });
    expect((await call(emulator, `${WEB}/1`, { method: "PUT", body: { target_branch: "nowhere" } })).status).toBe(422);
  });

  it("a stale write is 409 Resource lock and changes nothing; the retry goes through", async () => {
    const { emulator } = await freshEmulator();
    mergeRequestStore.of(emulator.state).mergeRequests.find((mr) => mr.iid === 1 && mr.title === "Add the login page")!.lockConflicts = 1;
    const stale = await call(emulator, `${WEB}/1`, { method: "PUT", body: { title: "Renamed" } });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ message: "409 Conflict: Resource lock" });
    expect((await call(emulator, `${WEB}/1`)).body.title).toBe("Add the login page");
    expect((await call(emulator, `${WEB}/1`, { method: "PUT", body: { title: "Renamed" } })).body.title).toBe("Renamed");
  });

  it("403 for a caller who is neither Developer nor the author; 404 for a missing one", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, `${SITE}/1`, { as: "outsider", method: "PUT", body: { title: "Mine" } })).status).toBe(403);
    expect((await call(emulator, `${WEB}/1`, { as: "reporter", method: "PUT", body: { title: "Mine" } })).status).toBe(403);
    expect((await call(emulator, `${WEB}/42`, { method: "PUT", body: { title: "Mine" } })).body).toEqual({ message: "404 Not found" });
    expect((await call(emulator, `${WEB}/1`, { as: null, method: "PUT", body: { title: "Mine" } })).status).toBe(401);
  });
});

describe("diffs and raw diffs", () => {
  it("pages the entries, with every field of part 2.3; unidiff adds the header", async () => {
    const first = await call(server.emulator, `${WEB}/1/diffs?per_page=2`);
    expect(first.body).toHaveLength(2);
    expect(first.headers.get("x-total")).toBe("3");
    expect(first.body[0]).toEqual({
      diff: "@@ -0,0 +1,4 @@\n+export function login(form) {\n+  validate(form);\n+  return submit(form);\n+}\n",
      new_path: "src/login.js", old_path: "src/login.js", a_mode: "0", b_mode: "100644", new_file: true, renamed_file: false,
      deleted_file: false, generated_file: false, collapsed: false, too_large: false,
    });
    const second = await call(server.emulator, `${WEB}/1/diffs?per_page=2&page=2`);
    expect(second.body[0]).toMatchObject({ old_path: "src/auth.js", new_path: "src/session.js", renamed_file: true, diff: "" });
    const unidiff = await call(server.emulator, `${WEB}/1/diffs?unidiff=true&per_page=1`);
    expect(unidiff.body[0].diff.startsWith("--- /dev/null\n+++ b/src/login.js\n@@ -0,0 +1,4 @@")).toBe(true);
    const deleted = await call(server.emulator, `${WEB}/5/diffs?unidiff=true`);
    expect(deleted.body[0]).toMatchObject({ deleted_file: true, b_mode: "0" });
    expect(deleted.body[0].diff.startsWith("--- a/config/legacy.yml\n+++ /dev/null\n")).toBe(true);
  });

  it("raw_diffs is the whole change as text/plain", async () => {
    const raw = await call(server.emulator, `${WEB}/1/raw_diffs`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(raw.text).toContain("diff --git a/src/login.js b/src/login.js\nnew file mode 100644\n--- /dev/null\n+++ b/src/login.js\n@@ -0,0 +1,4 @@");
    expect(raw.text).toContain("rename from src/auth.js\nrename to src/session.js");
    expect((await call(server.emulator, `${WEB}/1/raw_diffs`, { as: "guest" })).status).toBe(403);
  });

  it("diff limits: over 20,480 bytes collapsed, over 204,800 too large, past 1,000 files collapsed and counted 1000+", async () => {
    const files = [
      { path: "big.txt", diff: `@@ -1 +1 @@\n${"+x".repeat(11_000)}\n` },
      { path: "huge.txt", diff: `@@ -1 +1 @@\n${"+y".repeat(110_000)}\n` },
      ...Array.from({ length: 1_001 }, (_, i) => ({ path: `f/${i}.txt`, newFile: true, diff: "@@ -0,0 +1 @@\n+a\n" })),
    ];
    const seed = registrySeed((s: Seed) => {
      (s.mergeRequests as any)["acme/api"].mergeRequests.push({ title: "Huge", sourceBranch: "huge", author: "dev", files });
    });
    const { emulator } = await freshEmulator(seed);
    const mr = (await call(emulator, `${API}/3`)).body;
    expect(mr.changes_count).toBe("1000+");
    const first = (await call(emulator, `${API}/3/diffs?per_page=3`)).body;
    expect(first.map((d: any) => [d.collapsed, d.too_large, d.diff === ""])).toEqual([[true, false, true], [false, true, true], [false, false, false]]);
    const last = (await call(emulator, `${API}/3/diffs?per_page=100&page=11`)).body;
    expect(last.map((d: any) => d.new_path)).toEqual(["f/998.txt", "f/999.txt", "f/1000.txt"]);
    expect(last.map((d: any) => d.collapsed)).toEqual([true, true, true]);
    const tenth = (await call(emulator, `${API}/3/diffs?per_page=100&page=10`)).body;
    expect(tenth.at(-1)).toMatchObject({ new_path: "f/997.txt", collapsed: false, diff: "@@ -0,0 +1 @@\n+a\n" });
    expect((await call(emulator, `${API}/3/raw_diffs`)).text).toContain("+y".repeat(100));
  });
});

describe("pipelines of a merge request", () => {
  it("lists them newest first with the basic fields", async () => {
    const result = await call(server.emulator, `${WEB}/1/pipelines`, { as: "reporter" });
    expect(result.body.map((p: any) => p.status)).toEqual(["success", "failed"]);
    expect(Object.keys(result.body[0]).sort()).toEqual(["created_at", "id", "iid", "project_id", "ref", "sha", "source", "status", "updated_at", "web_url"]);
    expect(result.headers.get("x-total")).toBe("2");
  });

  it("POST runs a merge-request pipeline on refs/merge-requests/<iid>/head (200, `status :ok`), and it becomes the head pipeline", async () => {
    const { emulator } = await freshEmulator();
    const created = await call(emulator, `${WEB}/1/pipelines`, { as: "dev", method: "POST" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      ref: "refs/merge-requests/1/head", source: "merge_request_event", status: "created", tag: false, yaml_errors: null,
      user: { username: "dev" }, before_sha: "0000000000000000000000000000000000000000", archived: false, detailed_status: { group: "created" },
    });
    expect(created.body.sha).toMatch(/^[0-9a-f]{40}$/);
    const listed = (await call(emulator, `${WEB}/1/pipelines`)).body;
    expect(listed[0].id).toBe(created.body.id);
    expect((await call(emulator, `${WEB}/1`)).body.head_pipeline.id).toBe(created.body.id);
  });

  it("refusals: 403 to read non-public pipelines or create below Developer; 405 for a merged one; 400 without merge-request rules", async () => {
    const seed = registrySeed((s: Seed) => {
      (s.mergeRequests as any)["acme/api"].mergeRequestPipelines = false;
    });
    const { emulator } = await freshEmulator(seed);
    expect((await call(emulator, `${SITE}/1/pipelines`, { as: "outsider" })).status).toBe(403);
    expect((await call(emulator, `${WEB}/1/pipelines`, { as: "guest" })).status).toBe(403);
    expect((await call(emulator, `${WEB}/1/pipelines`, { as: "reporter", method: "POST" })).status).toBe(403);
    const merged = await call(emulator, `${WEB}/3/pipelines`, { method: "POST" });
    expect(merged.status).toBe(405);
    expect(merged.body).toEqual({ message: "405 Method Not Allowed" });
    expect((await call(emulator, `${API}/1/pipelines`, { method: "POST" })).body).toEqual({ message: { base: ["No stages / jobs for this pipeline."] } });
    expect((await call(emulator, `${WEB}/77/pipelines`)).status).toBe(404);
  });
});

describe("merge status rechecks", () => {
  it("a list asks for the check only with with_merge_status_recheck; the background work answers it", async () => {
    const { emulator } = await freshEmulator();
    await call(emulator, WEB, { method: "POST", body: { title: "Search", source_branch: "feature/search", target_branch: "main" } });
    emulator.runDueWork();
    const status = async (query: string) => (await call(emulator, `/merge_requests?scope=all&source_branch=feature/search${query}`)).body[0].merge_status;
    expect(await status("")).toBe("unchecked");
    expect(await status("&with_merge_status_recheck=true")).toBe("checking");
    emulator.runDueWork();
    expect(await status("")).toBe("can_be_merged");
  });
});

describe("the mergeRequests seed section", () => {
  const refused = (entry: Record<string, unknown>) => () => stateFromSeed({ ...defaultSeed, mergeRequests: { "acme/web": entry } });
  const request = { title: "Search", sourceBranch: "feature/search", author: "dev" };

  it("names the section, the field and the rule of a bad entry", () => {
    expect(refused({ mergeRequests: [{ ...request, state: "draft" }] })).toThrow(
      'invalid emulator seed: mergeRequests["acme/web"].mergeRequests[0].state: must be one of opened, closed, locked, merged',
    );
    expect(refused({ mergeRequests: [{ ...request, files: [{ diff: "@@" }] }] })).toThrow(
      'invalid emulator seed: mergeRequests["acme/web"].mergeRequests[0].files[0].newPath: must be a file path (newPath or path)',
    );
    expect(refused({ mergeRequests: [{ ...request, pipelines: [{ createdAt: "yesterday" }] }] })).toThrow(
      'invalid emulator seed: mergeRequests["acme/web"].mergeRequests[0].pipelines[0].createdAt: must be an ISO 8601 time',
    );
    expect(refused({ milestones: [{ title: "v1", state: "open" }] })).toThrow('invalid emulator seed: mergeRequests["acme/web"].milestones[0].state: must be active or closed');
  });

  it("names what only the state can tell: an unknown user or milestone", () => {
    expect(refused({ mergeRequests: [{ ...request, reviewers: ["nobody"] }] })).toThrow('mergeRequests["acme/web"].mergeRequests[0].reviewers[0]: unknown user nobody');
    expect(refused({ mergeRequests: [{ ...request, milestone: "v9" }] })).toThrow('mergeRequests["acme/web"].mergeRequests[0].milestone: no milestone v9 in acme/web');
  });
});
