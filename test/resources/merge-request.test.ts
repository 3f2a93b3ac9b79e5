/**
 * MergeRequest through `providers.MergeRequest`, over HTTP against the
 * emulator: the requests each operation sends, bad inputs refused in check,
 * a lost POST answer, drift (closed or merged elsewhere), server
 * normalisations that must not show as changes, adoption and import.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, type PartialCreateError, providers } from "pulumi-platform";
import { defaultSeed, mergeRequestStore, type Seed } from "pulumi-platform/emulator";

type RepositorySeeds = Record<string, { branches?: Record<string, string> }>;
import { useEmulator } from "../support";

/** The default seed, with branches enough for one open merge request per test in acme/web, and a topic branch in beta/site. */
function seedWithBranches(): Seed {
  const seed = structuredClone(defaultSeed);
  const repositories = seed.repositories as RepositorySeeds;
  const web = repositories["acme/web"]!;
  web.branches = { ...web.branches, ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`topic-${i}`, "release-1.4.0"])) };
  repositories["beta/site"]!.branches = { ...repositories["beta/site"]!.branches, "topic-x": "main" };
  return seed;
}

const server = useEmulator({ seed: seedWithBranches() });
const mergeRequest = providers.MergeRequest;
let nextBranch = 0;

interface LiveMergeRequest {
  id: number;
  iid: number;
  title: string;
  state: string;
  labels: string[];
  assignees: { id: number }[];
  reviewers: { id: number }[];
  milestone: { id: number } | null;
  merge_after: string | null;
  discussion_locked: boolean | null;
}

const userId = (username: string) => server.emulator.state.userByUsername(username)!.id;
const live = (id: string) => server.as().get<LiveMergeRequest>("/" + id);
const WEB = "/api/v4/projects/acme%2Fweb/merge_requests";

/** Valid inputs on a source branch no other test uses. */
const inputs = (overrides: Record<string, unknown> = {}) => ({
  project: "acme/web",
  sourceBranch: `topic-${nextBranch++}`,
  targetBranch: "main",
  title: "Bump dependencies",
  ...overrides,
});

async function createMergeRequest(overrides: Record<string, unknown> = {}) {
  const checked = await mergeRequest.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await mergeRequest.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

/** Marks a merge request merged, as a merge outside the program would (the API's merge endpoint is not emulated). */
function mergeOutOfBand(id: string): void {
  const iid = Number(id.split("/").at(-1));
  const record = mergeRequestStore.of(server.emulator.state).mergeRequests.find((mr) => mr.iid === iid && mr.sourceBranch.startsWith("topic-"))!;
  Object.assign(record, { state: "merged", mergedAt: "2030-01-02T00:00:00.000Z" });
}

beforeAll(async () => {
  await server.configureProviders();
});

describe("check", () => {
  const refused: [string, Record<string, unknown>, RegExp][] = [
    ["a blank title", { title: "  " }, /^title: must not be blank/],
    ["a title over 255 characters", { title: "x".repeat(256) }, /^title: must be at most 255/],
    ["a source branch with a space", { sourceBranch: "my branch" }, /^sourceBranch: must be a branch name/],
    ["the same source and target branch", { sourceBranch: "main" }, /^targetBranch: must differ from sourceBranch/],
    ["a label with a comma", { labels: ["a,b"] }, /^labels\.0: must not contain a comma/],
    ["a label named twice in two cases", { labels: ["Bug", "bug"] }, /^labels: must not name a label twice/],
    ["an assignee id that is not a number", { assigneeIds: ["dev"] }, /^assigneeIds\.0: .*number/],
    ["a reviewer named twice", { reviewerIds: [3, 3] }, /^reviewerIds: must not name a user twice/],
    ["an unknown state", { state: "merged" }, /^state: must be "opened" or "closed"/],
    ["mergeAfter that is no date", { mergeAfter: "soon" }, /^mergeAfter: must be an ISO 8601/],
    ["a description over the limit", { description: "x".repeat(1_048_577) }, /^description: must be at most 1048576/],
    ["allowCollaboration without a fork", { allowCollaboration: true }, /^allowCollaboration: applies only to a merge request from a fork/],
    ["a misspelt property", { targetbranch: "main" }, /^targetbranch: unknown property; did you mean targetBranch\?$/],
  ];
  it.each(refused)("%s fails in check, naming the property, with no request", async (_title, overrides, rule) => {
    const requests = await server.requestsDuring(async () => {
      const result = await mergeRequest.check({}, inputs(overrides));
      expect(result.failures?.map((failure) => failure.reason)).toEqual([expect.stringMatching(rule)]);
    });
    expect(requests).toEqual([]);
  });
});

describe("lifecycle", () => {
  it("create sends one POST; the server's normalisations are no diff, before or after a refresh", async () => {
    let created: Awaited<ReturnType<typeof createMergeRequest>> | undefined;
    const declared = {
      // A title the server strips; an existing label in another case, two new ones out of order; an instant in a shorter ISO form.
      title: "  Bump dependencies ",
      labels: ["zeta-release", "BUG", "alpha-deps"],
      mergeAfter: "2030-01-01T00:00:00Z",
      description: "Bumps:\r\n- lodash",
      assigneeIds: [userId("dev")],
    };
    const requests = await server.requestsDuring(async () => {
      created = await createMergeRequest(declared);
    });
    expect(requests).toEqual([{ method: "POST", path: WEB, status: 201 }]);
    const { id, inputs: checked, outs } = created!;
    const onServer = await live(id);
    expect(id).toBe(`projects/acme%2Fweb/merge_requests/${onServer.iid}`);
    expect(onServer.title).toBe("Bump dependencies");
    expect(onServer.labels).toEqual(["alpha-deps", "bug", "zeta-release"]);
    expect(onServer.merge_after).toBe("2030-01-01T00:00:00.000Z");
    expect(outs).toMatchObject({ labels: declared.labels, mergeAfter: declared.mergeAfter, state: "opened", mergeRequestId: onServer.id, mergedAt: null });
    expect(await mergeRequest.diff(id, outs, checked)).toMatchObject({ changes: false, replaces: [] });
    const refreshed = await mergeRequest.read(id, outs);
    expect(await mergeRequest.diff(id, refreshed.props!, checked)).toMatchObject({ changes: false, replaces: [] });
  });

  it("a changed title and target branch update in place with one PUT; a new source branch or project replaces", async () => {
    const { id, inputs: declared, outs } = await createMergeRequest();
    const changed = { ...declared, title: "Bump dependencies (June)", targetBranch: "stable" };
    expect(await mergeRequest.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(() => mergeRequest.update(id, outs, changed));
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/" + id, status: 200 }]);
    expect(await live(id)).toMatchObject({ title: "Bump dependencies (June)" });
    expect(await mergeRequest.diff(id, outs, { ...declared, sourceBranch: "topic-29" })).toMatchObject({ replaces: ["sourceBranch"] });
    expect(await mergeRequest.diff(id, outs, { ...declared, project: "acme/api" })).toMatchObject({ replaces: ["project"] });
  });

  it("removing labels, assignees, reviewers and the milestone from the program clears them with one PUT", async () => {
    const milestone = mergeRequestStore.of(server.emulator.state).milestones.find((m) => m.title === "v1.5")!;
    const { id, inputs: declared, outs } = await createMergeRequest({ labels: ["deps"], assigneeIds: [userId("dev")], reviewerIds: [userId("maintainer")], milestoneId: milestone.id });
    const { labels: _l, assigneeIds: _a, reviewerIds: _r, milestoneId: _m, ...rest } = declared;
    expect(await mergeRequest.diff(id, outs, rest)).toMatchObject({ changes: true, replaces: [] });
    let updated: Record<string, unknown> = {};
    const requests = await server.requestsDuring(async () => {
      updated = (await mergeRequest.update(id, outs, rest)).outs!;
    });
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/" + id, status: 200 }]);
    expect(await live(id)).toMatchObject({ labels: [], assignees: [], reviewers: [], milestone: null });
    expect(await mergeRequest.diff(id, updated, rest)).toMatchObject({ changes: false });
  });

  it("delete closes it with one PUT (the API deletes no merge requests); closing it again succeeds", async () => {
    const { id, outs } = await createMergeRequest();
    const requests = await server.requestsDuring(() => mergeRequest.delete(id, outs));
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/" + id, status: 200 }]);
    expect((await live(id)).state).toBe("closed");
    await expect(mergeRequest.delete(id, outs)).resolves.toBeUndefined();
  });

  it("declared closed, it is created with a POST and a PUT; a discussion lock the same way", async () => {
    const requests = await server.requestsDuring(async () => {
      const { id } = await createMergeRequest({ state: "closed", discussionLocked: true });
      expect(await live(id)).toMatchObject({ state: "closed", discussion_locked: true });
    });
    expect(requests.map((r) => `${r.method} ${r.status}`)).toEqual(["POST 201", "PUT 200", "GET 200"]);
  });
});

describe("drift", () => {
  it("closed elsewhere: a refresh records it, and the update reopens it with one PUT", async () => {
    const { id, inputs: declared, outs } = await createMergeRequest();
    await server.as().put(`/${id}`, { state_event: "close" });
    const refreshed = await mergeRequest.read(id, outs);
    expect(refreshed.props).toMatchObject({ state: "closed" });
    expect(await mergeRequest.diff(id, refreshed.props!, declared)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(() => mergeRequest.update(id, refreshed.props!, declared));
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/" + id, status: 200 }]);
    expect((await live(id)).state).toBe("opened");
  });

  it("merged elsewhere: the update explains instead of reopening, and destroy sends nothing", async () => {
    const { id, inputs: declared, outs } = await createMergeRequest();
    mergeOutOfBand(id);
    const refreshed = await mergeRequest.read(id, outs);
    expect(refreshed.props).toMatchObject({ state: "merged", mergedAt: "2030-01-02T00:00:00.000Z" });
    const requests = await server.requestsDuring(async () => {
      await expect(mergeRequest.update(id, refreshed.props!, declared)).rejects.toThrow(/merged outside this program.*cannot be reopened.*pulumi up --replace.*pulumi state delete/);
      await mergeRequest.delete(id, refreshed.props!);
    });
    expect(requests).toEqual([]);
  });

  it("a refresh of a merge request that is gone reports it gone", async () => {
    expect(await mergeRequest.read("projects/acme%2Fweb/merge_requests/9999", {})).toEqual({ id: "" });
  });
});

describe("what the server drops without an error", () => {
  // acme/web is private: a user with no membership cannot read its merge requests, and the server drops them as assignees or reviewers.
  const apiMilestone = () => mergeRequestStore.of(server.emulator.state).milestones.find((m) => m.title === "API 1.0")!;

  it("a create whose assignees, reviewers or milestone the server dropped is recorded as kept, and fails naming them", async () => {
    const checked = await mergeRequest.check({}, inputs({ assigneeIds: [userId("dev"), userId("outsider")], reviewerIds: [userId("outsider")], milestoneId: apiMilestone().id }));
    const error = (await mergeRequest.create(checked.inputs).catch((e: unknown) => e)) as PartialCreateError;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`the server did not keep assigneeIds ${userId("outsider")} and reviewerIds ${userId("outsider")} and milestoneId ${apiMilestone().id}`);
    expect(error.message).toMatch(/cannot read the merge request.*Give those users access to the project/);
    // The merge request exists and is recorded as the server keeps it: the next preview shows what is still to do.
    expect(error.id).toMatch(/^projects\/acme%2Fweb\/merge_requests\/\d+$/);
    expect(error.properties).toMatchObject({ assigneeIds: [userId("dev")], reviewerIds: [], milestoneId: null });
    expect(await mergeRequest.diff(error.id, error.properties, checked.inputs)).toMatchObject({ changes: true, replaces: [] });
    // The program fixed: the update sends what changed, and nothing is left to do.
    const { milestoneId: _dropped, ...rest } = checked.inputs as Record<string, unknown>;
    const fixed = { ...rest, assigneeIds: [userId("dev")], reviewerIds: [userId("maintainer")] };
    const updated = await mergeRequest.update(error.id, error.properties, fixed);
    expect(await mergeRequest.diff(error.id, updated.outs!, fixed)).toMatchObject({ changes: false });
  });

  it("below Premium the server keeps the first assignee: a second one fails the create, saying so", async () => {
    const acme = server.emulator.state.groups.find((group) => group.path === "acme")!;
    const tier = acme.tier;
    acme.tier = "free";
    try {
      const checked = await mergeRequest.check({}, inputs({ assigneeIds: [userId("dev"), userId("maintainer")] }));
      const error = (await mergeRequest.create(checked.inputs).catch((e: unknown) => e)) as PartialCreateError;
      expect(error.message).toMatch(new RegExp(`did not keep assigneeIds ${userId("maintainer")};.*all but the first assignee and the first reviewer below the Premium tier`));
      expect(error.properties).toMatchObject({ assigneeIds: [userId("dev")] });
    } finally {
      acme.tier = tier;
    }
  });

  it("an update the server answers without a declared reviewer fails naming it; what it did not send is not judged", async () => {
    const { id, inputs: declared, outs } = await createMergeRequest({ assigneeIds: [userId("dev")] });
    const changed = { ...declared, title: "Bump dependencies (reviewed)", reviewerIds: [userId("maintainer"), userId("outsider")] };
    await expect(mergeRequest.update(id, outs, changed)).rejects.toThrow(new RegExp(`did not keep reviewerIds ${userId("outsider")};`));
    expect(await live(id)).toMatchObject({ title: "Bump dependencies (reviewed)", reviewers: [{ id: userId("maintainer") }] });
    // Only the title changes: the assignees, kept as declared, are not judged again.
    const updated = await mergeRequest.update(id, outs, { ...declared, title: "Bump dependencies (again)" });
    expect(updated.outs).toMatchObject({ title: "Bump dependencies (again)", assigneeIds: [userId("dev")] });
  });
});

describe("failures while creating", () => {
  it("a lost answer to the POST does not create a second merge request", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/merge_requests$/, sequence: ["commit-then-error"] }] });
    let created: Awaited<ReturnType<typeof createMergeRequest>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createMergeRequest();
    });
    server.emulator.setFaultPlan({ rules: [] });
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`POST ${WEB} 502`, "GET /api/v4/merge_requests 200"]);
    const source = created!.inputs.sourceBranch as string;
    const all = await server.as().list<LiveMergeRequest>("/merge_requests", { scope: "all", source_branch: source });
    expect(all.map((mr) => mr.iid)).toEqual([Number(created!.id.split("/").at(-1))]);
  });

  it("an open merge request of the same branches is refused with the id to import it by", async () => {
    const first = await createMergeRequest();
    const again = await mergeRequest.check({}, { ...first.inputs });
    await expect(mergeRequest.create(again.inputs)).rejects.toThrow(
      new RegExp(`already open for ${first.inputs.sourceBranch} into main.*adoptExisting: true or the import option \\(import: "${first.id}"\\)`),
    );
  });
});

describe("adoption and import", () => {
  it("adoptExisting takes over the open merge request of the same branches: one list and a PUT of what differs", async () => {
    const declared = inputs({ title: "Release 1.x", labels: ["release"] });
    const existing = await server.as().post<LiveMergeRequest>(apiPath`/projects/${"acme/web"}/merge_requests`, { source_branch: declared.sourceBranch, target_branch: "main", title: "old title" });
    const checked = await mergeRequest.check({}, { ...declared, adoptExisting: true });
    let created: Awaited<ReturnType<typeof mergeRequest.create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await mergeRequest.create(checked.inputs);
    });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v4/merge_requests", `PUT ${WEB}/${existing.iid}`]);
    expect(created!.id).toBe(`projects/acme%2Fweb/merge_requests/${existing.iid}`);
    expect(await live(created!.id)).toMatchObject({ title: "Release 1.x", labels: ["release"] });
    expect(await mergeRequest.diff(created!.id, created!.outs!, checked.inputs)).toMatchObject({ changes: false });
  });

  it("the import option takes over the merge request its id names: one GET, and nothing more when it matches", async () => {
    const declared = inputs({ title: "Imported" });
    const existing = await server.as().post<LiveMergeRequest>(apiPath`/projects/${"acme/web"}/merge_requests`, { source_branch: declared.sourceBranch, target_branch: "main", title: "Imported" });
    const id = `projects/acme%2Fweb/merge_requests/${existing.iid}`;
    const checked = await mergeRequest.check({}, { ...declared, __import: id });
    const requests = await server.requestsDuring(async () => {
      expect((await mergeRequest.create(checked.inputs)).id).toBe(id);
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/" + id, status: 200 }]);
  });

  it("an import id not of the form is refused, saying the form", async () => {
    const checked = await mergeRequest.check({}, { ...inputs(), __import: "acme/web!3" });
    await expect(mergeRequest.create(checked.inputs)).rejects.toThrow(/projects\/<project>\/merge_requests\/<iid>/);
  });
});

describe("verification at preview", () => {
  const verifyingAs = (user: string) => server.configureProviders(user, { "platform:verifyAtPreview": "true" });
  const reasonsOf = async (declared: Record<string, unknown>) => ((await mergeRequest.check({}, declared)).failures ?? []).map((failure) => failure.reason);

  it("a Developer passes; a Guest is refused naming the role; the user, the project and each branch are read once, the open merge requests once per pair of branches", async () => {
    await verifyingAs("dev");
    try {
      const [first, second] = [inputs(), inputs()];
      const requests = await server.requestsDuring(async () => {
        expect(await reasonsOf(first)).toEqual([]);
        expect(await reasonsOf(second)).toEqual([]);
      });
      const branch = (name: unknown) => `GET /api/v4/projects/1/repository/branches/${String(name)}`;
      expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "GET /api/v4/user",
        "GET /api/v4/projects/acme%2Fweb",
        branch(first.sourceBranch),
        branch("main"),
        "GET /api/v4/merge_requests",
        branch(second.sourceBranch),
        "GET /api/v4/merge_requests",
      ]);
      await verifyingAs("guest");
      expect(await reasonsOf(inputs())).toEqual([expect.stringMatching(/^project: the token.s user \(guest\) needs at least the Developer role on project acme\/web for MergeRequest, and is Guest there$/)]);
    } finally {
      await server.configureProviders();
    }
  });

  it("more than one assignee or reviewer needs Premium: named by its property, where the group's plan can be read", async () => {
    await verifyingAs("alice");
    try {
      const onBeta = (extra: Record<string, unknown>) => ({ project: "beta/site", sourceBranch: "topic-x", targetBranch: "main", title: "Site", ...extra });
      const [dev, maintainer] = [userId("dev"), userId("maintainer")];
      expect(await reasonsOf(onBeta({ assigneeIds: [dev, maintainer] }))).toEqual(["assigneeIds: project beta/site needs the Premium or Ultimate tier for more than one assignee, and group beta is on Free"]);
      expect(await reasonsOf(onBeta({ assigneeIds: [dev], reviewerIds: [dev, maintainer] }))).toEqual([
        "reviewerIds: project beta/site needs the Premium or Ultimate tier for more than one reviewer, and group beta is on Free",
      ]);
      expect(await reasonsOf(onBeta({ assigneeIds: [dev], reviewerIds: [maintainer] }))).toEqual([]);
      // Below Premium the server drops approvalsBeforeMerge unsaid: a preview that passed would diff forever.
      expect(await reasonsOf(onBeta({ approvalsBeforeMerge: 2 }))).toEqual([expect.stringMatching(/^approvalsBeforeMerge: .*Premium or Ultimate tier.*group beta is on Free/)]);
      // acme is on Ultimate.
      expect(await reasonsOf(inputs({ assigneeIds: [dev, maintainer], reviewerIds: [dev, maintainer] }))).toEqual([]);
      // An existing merge request is verified for the tier when its assignees or reviewers change, not otherwise.
      const recorded = onBeta({ assigneeIds: [dev], reviewerIds: [dev, maintainer] });
      const updateReasons = async (declared: Record<string, unknown>) => ((await mergeRequest.check(recorded, declared)).failures ?? []).map((f) => f.reason);
      expect(await updateReasons({ ...recorded, assigneeIds: [dev, maintainer] })).toEqual([
        "assigneeIds: project beta/site needs the Premium or Ultimate tier for more than one assignee or reviewer, and group beta is on Free",
      ]);
      expect(await updateReasons({ ...recorded, title: "Site (renamed)" })).toEqual([]);
    } finally {
      await server.configureProviders();
    }
  });

  it("an open merge request of the same branches is named with the id to import it by", async () => {
    const { id, inputs: declared } = await createMergeRequest();
    await verifyingAs("root");
    try {
      expect(await reasonsOf(declared)).toEqual([expect.stringContaining(`an open merge request of ${declared.sourceBranch} into main`)]);
      expect((await reasonsOf(declared))[0]).toContain(`import: "${id}"`);
      expect(await reasonsOf({ ...declared, adoptExisting: true })).toEqual([]);
    } finally {
      await server.configureProviders();
    }
  });
});
