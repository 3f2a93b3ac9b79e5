/** The starring lookups against the emulator: results, filters, pagination, refusals. */
import { beforeAll, describe, expect, it } from "vitest";
import { getStarredProjects, getStarredProjectsOutput, getStarrers } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// The default seed, and two lists past one page of 100: a collector who starred
// 150 public projects, and 130 fans of beta/site.
const PROJECTS = 150;
const FANS = 130;
const libPath = (i: number) => `beta/lib-${String(i).padStart(3, "0")}`;
const fanName = (i: number) => `fan-${String(i).padStart(3, "0")}`;
const seed: Seed = {
  ...defaultSeed,
  users: [...(defaultSeed.users ?? []), { username: "collector", token: "glpat-collector-token" }, ...Array.from({ length: FANS }, (_, i) => ({ username: fanName(i) }))],
  projects: [...(defaultSeed.projects ?? []), ...Array.from({ length: PROJECTS }, (_, i) => ({ path: libPath(i).slice("beta/".length), namespace: "beta", visibility: "public" as const }))],
  stars: {
    ...(defaultSeed["stars"] as Record<string, unknown>),
    collector: Array.from({ length: PROJECTS }, (_, i) => libPath(i)),
    ...Object.fromEntries(Array.from({ length: FANS }, (_, i) => [fanName(i), ["beta/site"]])),
  },
};

const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("alice");
});

describe("getStarredProjects", () => {
  it("a user's starred projects in camelCase, newest first, in one request", async () => {
    let projects: Awaited<ReturnType<typeof getStarredProjects>> = [];
    const requests = await server.requestsDuring(async () => {
      projects = await getStarredProjects({ user: "alice" });
    });
    expect(requests.map((r) => r.path)).toEqual(["/api/v4/users/alice/starred_projects"]);
    expect(projects.map((project) => project.pathWithNamespace)).toEqual(["beta/site", "acme/api", "acme/web"]);
    expect(projects[2]).toMatchObject({
      nameWithNamespace: "Acme / Web",
      starCount: 4,
      topics: [],
      namespace: { fullPath: "acme", kind: "group" },
      containerRegistryAccessLevel: "enabled",
      links: { self: expect.stringMatching(/\/api\/v4\/projects\/1$/) },
    });
    expect(projects[2]).toHaveProperty("readmeUrl");
    expect(projects[2]).not.toHaveProperty("statistics");
  });

  it("every filter and ordering reaches the API in its own spelling", async () => {
    const mark = server.emulator.mark();
    const projects = await getStarredProjects({
      user: 2,
      visibility: "private",
      orderBy: "starCount",
      sort: "asc",
      statistics: true,
      membership: true,
      minAccessLevel: 50,
      withIssuesEnabled: true,
      withMergeRequestsEnabled: true,
      archived: false,
      updatedAfter: "2020-01-01T00:00:00Z",
      updatedBefore: "2030-01-01T00:00:00Z",
      owned: true,
      starred: false,
      simple: false,
      withCustomAttributes: false,
    });
    expect(projects.map((project) => project.pathWithNamespace)).toEqual(["acme/api", "acme/web"]);
    expect(projects[0]!.statistics).toMatchObject({ commitCount: expect.any(Number), repositorySize: expect.any(Number) });
    const query = new URLSearchParams(server.emulator.requestsSince(mark)[0]!.query);
    expect(Object.fromEntries(query)).toMatchObject({
      visibility: "private",
      order_by: "star_count",
      sort: "asc",
      statistics: "true",
      min_access_level: "50",
      with_issues_enabled: "true",
      with_merge_requests_enabled: "true",
      updated_after: "2020-01-01T00:00:00Z",
      owned: "true",
    });
  });

  it("search: part of a project's name, path or description", async () => {
    expect((await getStarredProjects({ user: "alice", search: "website" })).map((project) => project.pathWithNamespace)).toEqual(["acme/web"]);
  });

  it("simple: the basic fields only", async () => {
    const [site] = await getStarredProjects({ user: "alice", simple: true });
    expect(site).toMatchObject({ pathWithNamespace: "beta/site", starCount: FANS + 3 });
    expect(site).not.toHaveProperty("links");
  });

  it("pages of 100 over 150 projects; limit reads only what it needs", async () => {
    let all: Awaited<ReturnType<typeof getStarredProjects>> = [];
    const requests = await server.requestsDuring(async () => {
      all = await getStarredProjects({ user: "collector", orderBy: "path", sort: "asc" });
    });
    expect(requests).toHaveLength(2);
    expect(all.map((project) => project.pathWithNamespace)).toEqual(Array.from({ length: PROJECTS }, (_, i) => libPath(i)));
    const limited = await server.requestsDuring(async () => {
      expect(await getStarredProjects({ user: "collector", limit: 5 })).toHaveLength(5);
    });
    expect(limited).toHaveLength(1);
  });

  it("a private profile shows no stars to others; the user sees their own", async () => {
    expect(await getStarredProjects({ user: "guest" })).toEqual([]);
    await server.configureProviders("guest");
    try {
      expect((await getStarredProjects({ user: "guest" })).map((project) => project.pathWithNamespace)).toEqual(["beta/site", "acme/web"]);
    } finally {
      await server.configureProviders("alice");
    }
  });

  it("a caller sees only the projects it may read", async () => {
    await server.configureProviders("outsider");
    try {
      expect((await getStarredProjects({ user: "alice" })).map((project) => project.pathWithNamespace)).toEqual(["beta/site"]);
    } finally {
      await server.configureProviders("alice");
    }
  });

  it("a missing user is named", async () => {
    await expect(getStarredProjects({ user: "nobody" })).rejects.toThrow(/getStarredProjects: could not read the projects starred by user nobody: .*404 User Not Found.*Check that user nobody exists/);
  });

  it("bad arguments are refused, naming the argument and the rule; nothing is sent", async () => {
    const mark = server.emulator.mark();
    await expect(getStarredProjects({} as never)).rejects.toThrow(/user: is required: a user id or a username/);
    await expect(getStarredProjects({ user: "a b" })).rejects.toThrow(/user: must be a user id or a username/);
    await expect(getStarredProjects({ user: "alice", minAccessLevel: 7 as never })).rejects.toThrow(/minAccessLevel: must be one of 5, 10, 15, 20, 30, 40, 50/);
    await expect(getStarredProjects({ user: "alice", orderBy: "stars" as never })).rejects.toThrow(/orderBy/);
    await expect(getStarredProjects({ user: "alice", updatedAfter: "yesterday" })).rejects.toThrow(/updatedAfter: must be an ISO 8601 time/);
    await expect(getStarredProjects({ user: "alice", updatedAfter: "2025-02-01T00:00:00Z", updatedBefore: "2025-01-01T00:00:00Z" })).rejects.toThrow(/updatedBefore: must be later than updatedAfter/);
    await expect(getStarredProjects({ user: "alice", starrred: true } as never)).rejects.toThrow(/starrred/);
    await expect(getStarredProjects({ user: "alice", limit: 0 })).rejects.toThrow(/limit/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("the Output form", async () => {
    const names = await new Promise<string[]>((resolve) => getStarredProjectsOutput({ user: "alice", visibility: "public" }).apply((projects) => resolve(projects.map((project) => project.path))));
    expect(names).toEqual(["site"]);
  });
});

describe("getStarrers", () => {
  it("a project's starrers in the order they starred, with the user object of part 2.6", async () => {
    const starrers = await getStarrers({ project: "acme/web" });
    expect(starrers.map((entry) => entry.user.username)).toEqual(["alice", "maintainer", "dev"]);
    expect(starrers[0]).toEqual({
      starredSince: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      user: { id: 2, username: "alice", name: "Alice Owner", state: "active", avatarUrl: null, webUrl: "https://platform.example.test/alice" },
    });
  });

  it("search by part of a username or name", async () => {
    expect((await getStarrers({ project: "acme/web", search: "Mia" })).map((entry) => entry.user.username)).toEqual(["maintainer"]);
    expect(await getStarrers({ project: "acme/web", search: "nobody" })).toEqual([]);
  });

  it("pages of 100 over 133 starrers", async () => {
    let starrers: Awaited<ReturnType<typeof getStarrers>> = [];
    const requests = await server.requestsDuring(async () => {
      starrers = await getStarrers({ project: "beta/site" });
    });
    expect(requests).toHaveLength(2);
    // alice, then the fans (seeded in that order), then outsider; the guest's private profile is hidden.
    expect(starrers).toHaveLength(FANS + 2);
    expect(starrers.filter((entry) => entry.user.username.startsWith("fan-"))).toHaveLength(FANS);
  });

  it("a private project is hidden from a caller who is not a member: named as not found", async () => {
    await server.configureProviders("outsider");
    try {
      await expect(getStarrers({ project: "acme/web" })).rejects.toThrow(/getStarrers: could not read the starrers of project acme\/web: .*404 Project Not Found.*hidden from non-members/);
    } finally {
      await server.configureProviders("alice");
    }
  });

  it("a missing project is named; a bad argument sends nothing", async () => {
    await expect(getStarrers({ project: "acme/nope" })).rejects.toThrow(/could not read the starrers of project acme\/nope/);
    const mark = server.emulator.mark();
    await expect(getStarrers({ project: "acme web" })).rejects.toThrow(/project: must be a numeric id or a full path/);
    await expect(getStarrers({ project: "acme/web", search: "" })).rejects.toThrow(/search/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});
