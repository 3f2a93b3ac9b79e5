/**
 * The actions against the emulator: each one done, refused (role, tier or
 * offering) with the reason, a bad argument refused with no request, and the
 * server's limits (the changelog's five a minute) waited out or explained.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  commitChangelog,
  createChildEpic,
  createMergeRequestPipeline,
  deleteRegistryRepository,
  deleteRegistryTag,
  getEpicChildren,
  getPipelineSchedulePipelines,
  getPipelineSchedules,
  getRegistryRepository,
  getRegistryTags,
  getUpstreams,
  getVirtualRegistries,
  purgeUpstreamCache,
  purgeVirtualRegistryCache,
  revokeToken,
  runPipelineSchedule,
  startLdapGroupSync,
} from "pulumi-platform";
import { defaultSeed, selfManagedSeed, type Seed } from "pulumi-platform/emulator";
import { tokenOf, useEmulator } from "../support";

let now = Date.parse("2026-11-20T10:00:00.000Z");
const seed: Seed = {
  ...defaultSeed,
  // A Reporter of acme, who may read schedules but not run them.
  users: [...defaultSeed.users!, { username: "reporter", name: "Rey Reporter", token: "glpat-reporter-token" }],
  groups: defaultSeed.groups!.map((group) => (group.path === "acme" ? { ...group, members: { ...group.members, reporter: 20 } } : group)),
  pipelineSchedules: { "acme/web": [{ description: "Nightly build", ref: "main", cron: "0 2 * * *", owner: "maintainer" }] },
  virtualRegistries: {
    acme: {
      upstreams: [{ name: "Docker Hub", url: "https://registry-1.docker.io" }, { name: "Quay", url: "https://quay.io" }],
      registries: [{ name: "containers", upstreams: ["Docker Hub", "Quay"] }],
    },
  },
};
const server = useEmulator({ seed, clock: () => now });
// LDAP group sync exists on self-managed Premium and Ultimate only: a second server, reached through the `connection` option.
const selfManaged = useEmulator({ seed: selfManagedSeed });

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

const as = <T>(username: string, action: () => Promise<T>): Promise<T> => server.actingAs(username, action);

/** Runs `action` and expects it to fail with `pattern` before any request reached the server. */
async function refusedBeforeAnyRequest(action: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  const mark = server.emulator.mark();
  await expect(action()).rejects.toThrow(pattern);
  expect(server.emulator.requestLog.filter((entry) => entry.seq >= mark)).toEqual([]);
}

const nightlyId = async () => (await getPipelineSchedules({ project: "acme/web" }))[0]!.id;

describe("runPipelineSchedule", () => {
  it("runs the schedule now: one POST, a new scheduled pipeline, the next run unchanged", async () => {
    const scheduleId = await nightlyId();
    const [before] = await getPipelineSchedules({ project: "acme/web" });
    const requests = await server.requestsDuring(async () => expect(await runPipelineSchedule({ project: "acme/web", scheduleId })).toEqual({ message: "201 Created" }));
    expect(requests).toEqual([{ method: "POST", path: `/api/v4/projects/acme%2Fweb/pipeline_schedules/${scheduleId}/play`, status: 201 }]);
    expect(await getPipelineSchedulePipelines({ project: "acme/web", scheduleId })).toHaveLength(1);
    expect((await getPipelineSchedules({ project: "acme/web" }))[0]!.nextRunAt).toBe(before!.nextRunAt);
  });

  it("a Reporter is refused with the role it needs; a schedule hidden or unknown is named", async () => {
    const scheduleId = await nightlyId();
    await as("reporter", () => expect(runPipelineSchedule({ project: "acme/web", scheduleId })).rejects.toThrow(/runPipelineSchedule: could not run pipeline schedule \d+ of project acme\/web: POST .* answered 403.*: the token's user needs at least the Developer role on project acme\/web/));
    await expect(runPipelineSchedule({ project: "acme/web", scheduleId: 9999 })).rejects.toThrow(/runPipelineSchedule: could not run pipeline schedule 9999 of project acme\/web: .*404.*: the pipeline schedule does not exist, or the token's user cannot see it/);
    // A Guest may not read schedules: the server hides them.
    await as("guest", () => expect(runPipelineSchedule({ project: "acme/web", scheduleId })).rejects.toThrow(/could not run pipeline schedule \d+ of project acme\/web: .*404.*the token's user needs at least the Reporter role on project acme\/web/));
  });

  it("an answer lost after the server ran it: not sent again (one pipeline more, not two), and the error says it may have been done", async () => {
    const scheduleId = await nightlyId();
    const before = (await getPipelineSchedulePipelines({ project: "acme/web", scheduleId })).length;
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: `/projects/acme%2Fweb/pipeline_schedules/${scheduleId}/play`, sequence: ["commit-then-error"] }] });
    try {
      const requests = await server.requestsDuring(() =>
        expect(runPipelineSchedule({ project: "acme/web", scheduleId })).rejects.toThrow(/runPipelineSchedule: could not run pipeline schedule \d+ .*The server may have done it before the failure: check before running it again\./),
      );
      expect(requests.filter((request) => request.method === "POST")).toHaveLength(1);
    } finally {
      server.emulator.setFaultPlan(undefined);
    }
    expect(await getPipelineSchedulePipelines({ project: "acme/web", scheduleId })).toHaveLength(before + 1);
  });

  it("bad arguments: named with their rule, nothing sent", async () => {
    await refusedBeforeAnyRequest(() => runPipelineSchedule({ project: "acme/web", scheduleId: -1 }), /runPipelineSchedule: invalid arguments: scheduleId: .*No request was sent/);
    await refusedBeforeAnyRequest(() => runPipelineSchedule({ projcet: "acme/web", scheduleId: 1 } as never), /projcet: unknown property; did you mean project\?/);
  });
});

describe("purgeVirtualRegistryCache and purgeUpstreamCache", () => {
  const ids = async () => ({
    registryId: (await getVirtualRegistries({ group: "acme" }))[0]!.id,
    upstreamId: (await getUpstreams({ group: "acme" }))[0]!.id,
  });

  it("one DELETE each, answered 204", async () => {
    const { registryId, upstreamId } = await ids();
    expect(await purgeUpstreamCache({ upstreamId })).toEqual({ scheduled: true });
    expect(await server.requestsDuring(() => purgeVirtualRegistryCache({ registryId }))).toEqual([
      { method: "DELETE", path: `/api/v4/virtual_registries/container/registries/${registryId}/cache`, status: 204 },
    ]);
    expect(await server.requestsDuring(() => purgeUpstreamCache({ upstreamId }))).toEqual([
      { method: "DELETE", path: `/api/v4/virtual_registries/container/upstreams/${upstreamId}/cache`, status: 204 },
    ]);
  });

  it("a Developer is refused (Maintainer needed); an unknown upstream is named; a bad id sends nothing", async () => {
    const { upstreamId } = await ids();
    await as("dev", () => expect(purgeUpstreamCache({ upstreamId })).rejects.toThrow(/purgeUpstreamCache: could not purge the cache of container upstream \d+: .*403.*: the token's user needs at least the Maintainer role on the registry's top-level group/));
    await expect(purgeVirtualRegistryCache({ registryId: 999 })).rejects.toThrow(/purgeVirtualRegistryCache: could not purge the cache of container virtual registry 999: .*404.*: container virtual registry 999 does not exist, or the token's user cannot see it/);
    await refusedBeforeAnyRequest(() => purgeUpstreamCache({ upstreamId: "4" as never }), /purgeUpstreamCache: invalid arguments: upstreamId: expected number, got the string "4"\. No request was sent/);
  });
});

describe("commitChangelog", () => {
  it("commits the version's notes to the default branch as the caller", async () => {
    const before = server.emulator.state.projectByFullPath("acme/web")!.lastCommitSha;
    const requests = await server.requestsDuring(async () =>
      expect(await commitChangelog({ project: "acme/web", version: "1.5.0", date: "2026-11-20T10:00:00Z", message: "Changelog for 1.5.0" })).toEqual({ version: "1.5.0", branch: null, file: null }),
    );
    expect(requests).toEqual([{ method: "POST", path: "/api/v4/projects/acme%2Fweb/repository/changelog", status: 200 }]);
    expect(server.emulator.state.projectByFullPath("acme/web")!.lastCommitSha).not.toBe(before);
  });

  it("a Developer on the protected default branch is refused with what it needs", async () => {
    await as("dev", () => expect(commitChangelog({ project: "acme/web", version: "1.6.0" })).rejects.toThrow(/commitChangelog: could not commit the changelog of version 1\.6\.0 of the repository of project acme\/web: .*403.*: the token's user needs push access \(the Developer role; on a protected default branch, the role its protection allows to push, Maintainer by default\) on project acme\/web\./));
  });

  it("bad arguments: a version that is not semantic, a refs/heads/ branch; nothing sent", async () => {
    await refusedBeforeAnyRequest(() => commitChangelog({ project: "acme/web", version: "next" }), /commitChangelog: invalid arguments: version: must be a semantic version/);
    await refusedBeforeAnyRequest(() => commitChangelog({ project: "acme/web", version: "1.6.0", branch: "refs/heads/main" }), /branch: must be a branch name/);
  });

  it("the five-a-minute limit: waited out when the window ends within the retry time", async () => {
    now += 120_000;
    // Five reads of this user and project use up the minute's window.
    for (let i = 0; i < 5; i++) expect((await server.as("maintainer").request("GET", "/projects/acme%2Fweb/repository/changelog", { query: { version: "1.6.0" } })).status).toBe(200);
    const mark = server.emulator.mark();
    const done = commitChangelog({ project: "acme/web", version: "1.6.0", branch: "stable" });
    // The next window opens once the server has answered 429.
    while (!server.emulator.requestLog.some((entry) => entry.seq >= mark && entry.status === 429)) await new Promise((resolve) => setTimeout(resolve, 5));
    now += 60_000;
    await expect(done).resolves.toMatchObject({ version: "1.6.0", branch: "stable" });
    const statuses = server.emulator.requestLog.filter((entry) => entry.seq >= mark).map((entry) => entry.status);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([429]));
    expect(statuses.at(-1)).toBe(200);
  });

  it("the limit past the retry time is explained: what the server allows and what to do", async () => {
    now += 120_000;
    for (let i = 0; i < 5; i++) await server.as("maintainer").request("GET", "/projects/acme%2Fweb/repository/changelog", { query: { version: "1.7.0" } });
    const connection = { url: server.emulator.url, token: tokenOf(server.emulator, "maintainer"), retryTimeout: 1 };
    await expect(commitChangelog({ project: "acme/web", version: "1.7.0", branch: "stable" }, { connection })).rejects.toThrow(
      /commitChangelog: could not commit the changelog of version 1\.7\.0 .*answered 429 \(This changelog has been requested too many times\. Try again later\.\)\. The server allows 5 changelog requests a minute per user and project/,
    );
  });
});

describe("createMergeRequestPipeline", () => {
  it("creates the merge request's pipeline on its head ref and answers it", async () => {
    const pipeline = await as("dev", () => createMergeRequestPipeline({ project: "acme/web", iid: 1 }));
    expect(pipeline).toMatchObject({ ref: "refs/merge-requests/1/head", status: "created", source: "merge_request_event" });
    expect(pipeline.id).toBeGreaterThan(0);
  });

  it("a Guest is refused (Developer needed); a closed merge request is explained", async () => {
    await as("guest", () => expect(createMergeRequestPipeline({ project: "acme/web", iid: 1 })).rejects.toThrow(/createMergeRequestPipeline: could not create a pipeline for merge request !1 of project acme\/web: .*403.*: the token's user needs at least the Developer role/));
    await expect(createMergeRequestPipeline({ project: "acme/web", iid: 4 })).rejects.toThrow(/could not create a pipeline for merge request !4 .*405 \(405 Method Not Allowed\)\. The server creates a merge request pipeline only for an open merge request/);
    await refusedBeforeAnyRequest(() => createMergeRequestPipeline({ project: "acme/web", iid: 0 }), /createMergeRequestPipeline: invalid arguments: iid/);
  });
});

describe("startLdapGroupSync", () => {
  const own = (username: string) => ({ connection: { url: selfManaged.emulator.url, token: tokenOf(selfManaged.emulator, username) } });

  it("queues the sync on a self-managed Premium+ instance: one POST, 202", async () => {
    const mark = selfManaged.emulator.mark();
    expect(await startLdapGroupSync({ group: "acme" }, own("alice"))).toEqual({ accepted: true });
    expect(selfManaged.emulator.requestLog.filter((entry) => entry.seq >= mark).map((e) => [e.method, e.path, e.status])).toEqual([["POST", "/api/v4/groups/acme/ldap_sync", 202]]);
  });

  it("refused: a Maintainer (Owner needed); the hosted offering (where it does not exist)", async () => {
    await expect(startLdapGroupSync({ group: "acme" }, own("maintainer"))).rejects.toThrow(/startLdapGroupSync: could not start the LDAP sync of group acme: .*403.*: the token's user needs the Owner role on group acme/);
    await expect(startLdapGroupSync({ group: "acme" })).rejects.toThrow(/startLdapGroupSync: could not start the LDAP sync of group acme: .*404.*self-managed instance with LDAP configured, and the instance needs the Premium or Ultimate tier/);
    await refusedBeforeAnyRequest(() => startLdapGroupSync({ group: "/acme" }), /startLdapGroupSync: invalid arguments: group/);
  });
});

describe("revokeToken", () => {
  it("revokes a member's token through the top-level group; the token is sent in the body only", async () => {
    const requests = await as("alice", () => server.requestsDuring(async () => expect(await revokeToken({ group: "acme", token: "glpat-dev-laptop-0001" })).toMatchObject({ name: "laptop", revoked: true })));
    expect(requests).toEqual([{ method: "POST", path: "/api/v4/groups/acme/tokens/revoke", status: 200 }]);
    expect(JSON.stringify(server.emulator.requestLog.slice(-1))).not.toContain("glpat-dev-laptop-0001");
  });

  it("refused: a Maintainer (Owner needed), a subgroup, a token of no member; the token never appears in a message", async () => {
    const token = "glpat-outsider-scratch-0005";
    const failures = [
      await as("maintainer", () => revokeToken({ group: "acme", token }).catch((error: Error) => error)),
      await as("alice", () => revokeToken({ group: "acme/platform", token }).catch((error: Error) => error)),
      await as("alice", () => revokeToken({ group: "acme", token }).catch((error: Error) => error)),
    ] as Error[];
    expect(failures[0]!.message).toMatch(/revokeToken: could not revoke a token of group acme: .*403.*: the token's user needs the Owner role on group acme/);
    expect(failures[1]!.message).toMatch(/revokeToken: could not revoke a token of group acme\/platform: .*400.*top-level group/);
    expect(failures[2]!.message).toMatch(/revokeToken: could not revoke a token of group acme: .*422.*did not revoke it/);
    for (const failure of failures) expect(failure.message).not.toContain(token);
  });

  it("a group without the feature flag answers 404, explained; an empty token sends nothing", async () => {
    await as("alice", () => expect(revokeToken({ group: "beta", token: "glpat-x-1234" })).rejects.toThrow(/revokeToken: could not revoke a token of group beta: .*404.*: group beta does not exist, or the token's user cannot see it.*group_agnostic_token_revocation/));
    await refusedBeforeAnyRequest(() => revokeToken({ group: "acme", token: "" }), /revokeToken: invalid arguments: token/);
  });
});

describe("createChildEpic", () => {
  it("creates an epic by title under the parent and answers it; the parent lists it", async () => {
    const child = await as("alice", () => createChildEpic({ group: "acme", epicIid: 1, title: "Q3: migrate runners" }));
    expect(child).toMatchObject({ title: "Q3: migrate runners", hasChildren: false, hasIssues: false });
    expect((await as("alice", () => getEpicChildren({ group: "acme", epicIid: 1 }))).map((epic) => epic.title)).toContain("Q3: migrate runners");
  });

  it("refused: a Guest (Planner needed), a Free group; a blank title sends nothing", async () => {
    await as("guest", () => expect(createChildEpic({ group: "acme", epicIid: 1, title: "x" })).rejects.toThrow(/createChildEpic: could not create a child epic under epic &1 of group acme: .*403.*: the token's user needs at least the Planner role \(Reporter on servers without Planner\) on group acme, and group acme needs the Premium or Ultimate tier/));
    await as("alice", () => expect(createChildEpic({ group: "beta", epicIid: 1, title: "x" })).rejects.toThrow(/createChildEpic: .*epic &1 of group beta/));
    await refusedBeforeAnyRequest(() => createChildEpic({ group: "acme", epicIid: 1, title: "   " }), /createChildEpic: invalid arguments: title: must be the new epic's title/);
  });
});

describe("deleteRegistryTag and deleteRegistryRepository", () => {
  it("deletes one tag (it leaves the tags list); schedules a repository's deletion", async () => {
    await deleteRegistryTag({ project: "acme/web", repositoryId: 2, name: "feature-login" });
    expect((await getRegistryTags({ project: "acme/web", repositoryId: 2 })).map((tag) => tag.name)).not.toContain("feature-login");
    expect(await deleteRegistryRepository({ project: "acme/web", repositoryId: 1 })).toEqual({ scheduled: true });
    expect((await getRegistryRepository({ id: 1 })).status).toBe("delete_scheduled");
  });

  it("refused: a protected tag below Maintainer, a repository deletion by a Developer; a tag name with / sends nothing", async () => {
    await as("dev", () => expect(deleteRegistryTag({ project: "acme/web", repositoryId: 2, name: "v1.0.0" })).rejects.toThrow(/deleteRegistryTag: could not delete tag v1\.0\.0 of registry repository 2 of project acme\/web: .*403 \(403 Forbidden - cannot delete protected tag\(s\)\).*protection rules/));
    await as("dev", () => expect(deleteRegistryRepository({ project: "acme/web", repositoryId: 2 })).rejects.toThrow(/deleteRegistryRepository: could not delete registry repository 2 of project acme\/web: .*403.*: the token's user needs at least the Maintainer role on project acme\/web/));
    await refusedBeforeAnyRequest(() => deleteRegistryTag({ project: "acme/web", repositoryId: 2, name: "a/b" }), /deleteRegistryTag: invalid arguments: name: must be a tag name/);
  });
});
