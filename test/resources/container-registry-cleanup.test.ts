/**
 * ContainerRegistryCleanup through the provider, as the engine calls it,
 * against the emulator: what check reads and shows (`wouldDelete`), what up
 * sends, the server's once-an-hour limit, and that the tags shown are those
 * the server's worker deletes, for many rules.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const HOUR = 3_600_000;
let now = Date.parse("2024-06-01T00:00:00.000Z");

/** The default seed, with a tag protected from Maintainers, two tags on one manifest (equal times) and a tag of unknown time. */
function seed(): Seed {
  const seeded = structuredClone(defaultSeed) as Seed & { containerRegistry: any };
  const apiServer = seeded.containerRegistry.repositories["acme/web"][1];
  apiServer.tags.push(
    { name: "v0.9.0", createdAt: "2024-01-15T12:00:00.000Z" },
    { name: "v0.9.0-lts", sameAs: "v0.9.0" },
    { name: "rc-1", createdAt: "2024-02-20T12:00:00.000Z" },
    { name: "rc-2", sameAs: "rc-1" },
    { name: "rc-3", sameAs: "rc-1" },
  );
  seeded.containerRegistry.protectionRules = { "acme/web": [{ tagNamePattern: "^v1\\.0\\.0$", minimumAccessLevelForDelete: "owner" }] };
  return seeded;
}

const server = useEmulator({ seed: seed(), clock: () => now });
const cleanup = providers.ContainerRegistryCleanup;
type Props = Record<string, unknown>;
const API_SERVER = "acme/web/api-server";

async function tagNames(repository = 2): Promise<string[]> {
  const tags = await server.as().list<{ name: string }>(apiPath`/projects/${"acme/web"}/registry/repositories/${repository}/tags`);
  return tags.map((tag) => tag.name);
}

/** The requests (with their queries) the emulator saw while `action` ran. */
async function logDuring(action: () => Promise<unknown>): Promise<{ method: string; path: string; query: string; status: number }[]> {
  const start = server.emulator.requestLog.length;
  await action();
  return server.emulator.requestLog.slice(start).map(({ method, path, query, status }) => ({ method, path, query, status }));
}

async function checked(inputs: Props, olds: Props = {}): Promise<Props> {
  const result = await cleanup.check(olds, inputs);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as Props;
}

/** Lets the hour-long lease of every repository run out, and the accepted deletions run. */
function nextHour(): void {
  now += HOUR + 1000;
  server.emulator.runDueWork();
}

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

describe("the preview: wouldDelete", () => {
  it("check names the tags a run would delete now, reading the tags list and each candidate's detail, writing nothing", async () => {
    let inputs: Props = {};
    const requests = await logDuring(async () => {
      inputs = await checked({ project: "acme/web", repository: "api-server", nameRegexDelete: "v.*", keepN: 2, olderThan: "30d" });
    });
    expect(inputs.wouldDelete).toEqual([`${API_SERVER}:v0.9.0`, `${API_SERVER}:v0.9.0-lts`, `${API_SERVER}:v1.0.0`, `${API_SERVER}:v1.1.0`, `${API_SERVER}:v1.2.0`]);
    expect(requests.every((r) => r.method === "GET")).toBe(true);
    expect(requests.filter((r) => r.path.endsWith("/tags")).map((r) => r.query)).toEqual(["per_page=100&pagination=keyset&order_by=name&sort=asc"]);
    // One detail per name candidate (seven v* tags), none for the others.
    expect(requests.filter((r) => /\/tags\/[^/?]+$/.test(r.path))).toHaveLength(7);
  });

  it("without keep_n or older_than no detail is read", async () => {
    const requests = await server.requestsDuring(() => checked({ project: "acme/web", repository: "api-server", nameRegexDelete: "main-.*" }));
    expect(requests.map((r) => r.path.replace(/\?.*/, ""))).toEqual([
      "/api/v4/projects/acme%2Fweb/registry/repositories",
      "/api/v4/projects/acme%2Fweb/registry/repositories/2/tags",
    ]);
  });

  it("a rule for the whole project covers each of its repositories; `latest` is never listed", async () => {
    const inputs = await checked({ project: "acme/web", nameRegexDelete: ".*", nameRegexKeep: "v.*|rc-.*" });
    expect(inputs.wouldDelete).toEqual([
      `${API_SERVER}:feature-login`,
      ...["1a2b3c4d", "2b3c4d5e", "3c4d5e6f", "4d5e6f70", "5e6f7081"].map((sha) => `${API_SERVER}:main-${sha}`),
      "acme/web:main",
    ]);
  });

  it("bad input fails at check, naming the property and the rule, before any request", async () => {
    const cases: [Props, string][] = [
      [{ nameRegexDelete: "v(" }, "nameRegexDelete: must be an RE2 regular expression (missing closing ): `v(`)"],
      [{ nameRegexDelete: ".*", nameRegexKeep: "(?<=a)b" }, "nameRegexKeep: must be an RE2 regular expression"],
      [{ nameRegexDelete: ".*", olderThan: "soon" }, "olderThan: must be a duration such as 1h, 30d, 2 weeks or 1month"],
      [{ nameRegexDelete: ".*", keepN: -1 }, "keepN"],
      [{ nameRegexDelete: ".*", wouldDelete: ["acme/web:main"] }, "wouldDelete: is read from the server at preview; a program cannot set it"],
    ];
    for (const [rule, reason] of cases) {
      const requests = await server.requestsDuring(async () => {
        const result = await cleanup.check({}, { project: "acme/web", ...rule });
        expect(result.failures?.map((f) => f.reason).join("\n")).toContain(reason);
      });
      expect(requests).toEqual([]);
    }
  });

  it("a project the token's user cannot see, or a registry it may not read, fails the check with the server's answer", async () => {
    const result = await cleanup.check({}, { project: "acme/nope", nameRegexDelete: ".*" });
    expect(result.failures?.[0]?.reason).toMatch(/could not read what it would do now.*404/);
    await server.actingAs("guest", async () => {
      const refused = await cleanup.check({}, { project: "acme/web", nameRegexDelete: ".*" });
      expect(refused.failures?.[0]?.reason).toMatch(/403.*needs at least the Reporter role on the registry of project acme\/web/);
    });
  });
});

describe("up: the bulk deletion, and the clean preview after", () => {
  it("create sends one bulk deletion with the rule; the server's worker deletes exactly wouldDelete, protected tags aside", async () => {
    const inputs = await checked({ project: "acme/web", repository: "api-server", nameRegexDelete: "v.*", keepN: 2, olderThan: "30d" });
    let created: { id: string; outs: Props } | undefined;
    const requests = await logDuring(async () => {
      created = (await cleanup.create(inputs)) as { id: string; outs: Props };
    });
    expect(requests.filter((r) => r.method !== "GET")).toEqual([
      { method: "DELETE", path: "/api/v4/projects/acme%2Fweb/registry/repositories/2/tags", query: "name_regex_delete=v.*&keep_n=2&older_than=30d", status: 202 },
    ]);
    const { id, outs } = created!;
    expect(id).toBe("registry-cleanup/acme%2Fweb/api-server");
    expect(outs).toMatchObject({
      wouldDelete: [],
      repositories: [API_SERVER],
      deleted: { [API_SERVER]: { acceptedAt: new Date(now).toISOString(), tags: inputs.wouldDelete } },
      refused: {},
      lastRunAt: new Date(now).toISOString(),
    });

    // Before the worker ran: the tags are still there, and already asked for: no change.
    const rule = { project: "acme/web", repository: "api-server", nameRegexDelete: "v.*", keepN: 2, olderThan: "30d" };
    const pending = await checked(rule, inputs);
    expect(pending.wouldDelete).toEqual(inputs.wouldDelete);
    expect(await cleanup.diff(id, outs, pending)).toMatchObject({ changes: false });

    const before = await tagNames();
    server.emulator.runDueWork();
    const after = await tagNames();
    const gone = before.filter((name) => !after.includes(name));
    // v1.0.0 is protected from Maintainers: the server leaves it, as the API cannot show beforehand.
    expect(gone.map((name) => `${API_SERVER}:${name}`).sort()).toEqual((inputs.wouldDelete as string[]).filter((tag) => !tag.endsWith(":v1.0.0")));

    const second = await checked(rule, inputs);
    expect(second.wouldDelete).toEqual([`${API_SERVER}:v1.0.0`]);
    expect(await cleanup.diff(id, outs, second)).toMatchObject({ changes: false });

    // Destroy deletes nothing on the server.
    expect(await server.requestsDuring(() => cleanup.delete(id, outs))).toEqual([]);
  });

  it("within the server's hour a second run is refused with 400: the up succeeds, the tags stay in wouldDelete, refused says why; an hour later it runs", async () => {
    nextHour();
    const rule = { project: "acme/web", repository: "api-server", nameRegexDelete: "main-.*", keepN: 4 };
    const first = await checked(rule);
    const created = (await cleanup.create(first)) as { id: string; outs: Props };
    server.emulator.runDueWork();

    const tighter = await checked({ ...rule, keepN: 2 }, first);
    expect(tighter.wouldDelete).toEqual([`${API_SERVER}:main-2b3c4d5e`, `${API_SERVER}:main-3c4d5e6f`]);
    expect(await cleanup.diff(created.id, created.outs, tighter)).toMatchObject({ changes: true, replaces: [] });
    const refused = (await cleanup.update(created.id, created.outs, tighter)).outs as Props;
    const message = "This request has already been made. You can run this at most once an hour for a given container repository";
    expect(refused).toMatchObject({ wouldDelete: tighter.wouldDelete, refused: { [API_SERVER]: message }, keepN: 2 });
    expect(await tagNames()).toContain("main-2b3c4d5e");

    nextHour();
    const again = await checked({ ...rule, keepN: 2 }, tighter);
    expect(await cleanup.diff(created.id, refused, again)).toMatchObject({ changes: true });
    const applied = (await cleanup.update(created.id, refused, again)).outs as Props;
    expect(applied).toMatchObject({ wouldDelete: [], refused: {}, deleted: { [API_SERVER]: { tags: again.wouldDelete } } });
    server.emulator.runDueWork();
    expect((await tagNames()).filter((name) => name.startsWith("main-"))).toEqual(["main-4d5e6f70", "main-5e6f7081"]);
  });

  it("when the program's run applies, check records wouldDelete as the run leaves it ([]) and hands what it read to the update", async () => {
    nextHour();
    const rule = { project: "acme/web", repository: "api-server", nameRegexDelete: "feature-.*" };
    const applying = (await cleanup.check({}, { ...rule, __engine: { applying: true } })).inputs as Props;
    expect(applying).toMatchObject({ wouldDelete: [], __engine: { observed: { wouldDelete: [`${API_SERVER}:feature-login`] } } });
    expect(applying.__engine).not.toHaveProperty("applying");
    const previewed = await checked({ ...rule, __engine: { applying: false } });
    expect(previewed.wouldDelete).toEqual([`${API_SERVER}:feature-login`]);
    const { id, outs } = (await cleanup.create(applying)) as { id: string; outs: Props };
    expect(outs).toMatchObject({ wouldDelete: [], deleted: { [API_SERVER]: { tags: [`${API_SERVER}:feature-login`] } } });
    // The next preview, before and after the worker ran: nothing new, no change, and the recorded [] is what it compares with.
    expect(await cleanup.diff(id, outs, await checked({ ...rule, __engine: { applying: false } }, applying))).toMatchObject({ changes: false });
    server.emulator.runDueWork();
    expect(await checked({ ...rule, __engine: { applying: false } }, applying)).toMatchObject({ wouldDelete: [] });
  });

  it("a rule that would delete nothing sends no deletion, and so spends no hour", async () => {
    nextHour();
    const inputs = await checked({ project: "acme/web", repository: "api-server", nameRegexDelete: "nothing-matches" });
    expect(inputs.wouldDelete).toEqual([]);
    const requests = await server.requestsDuring(() => cleanup.create(inputs));
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
  });

  it("a Developer cannot run the rule: the server's 403 is explained with the role it needs", async () => {
    nextHour();
    await server.actingAs("dev", async () => {
      const inputs = await checked({ project: "acme/web", repository: "api-server", nameRegexDelete: "v1\\.4\\.0" });
      expect(inputs.wouldDelete).toEqual([`${API_SERVER}:v1.4.0`]);
      await expect(cleanup.create(inputs)).rejects.toThrow(/needs at least the Maintainer role on registry repository "api-server" of project acme\/web/);
    });
  });

  it("with verification at preview, a Developer's new rule fails at check, before anything is written", async () => {
    await server.configureProviders("dev", { "platform:verifyAtPreview": "true" });
    try {
      const requests = await logDuring(async () => {
        const result = await cleanup.check({}, { project: "acme/web", repository: "api-server", nameRegexDelete: "v.*" });
        expect(result.failures?.map((f) => f.reason).join("\n")).toMatch(/project: .*Maintainer/);
      });
      expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
    } finally {
      await server.configureProviders("maintainer");
    }
  });

  it("a refresh keeps the rule's record and lists the repositories it covers", async () => {
    const rule = { project: "acme/web", nameRegexDelete: "nothing" };
    const { id, outs } = (await cleanup.create(await checked(rule))) as { id: string; outs: Props };
    const read = await cleanup.read(id, outs);
    expect(read.props).toMatchObject({ repositories: ["acme/web", API_SERVER], wouldDelete: [], deleted: {} });
    expect(await cleanup.diff(id, read.props as Props, await checked(rule, read.inputs as Props))).toMatchObject({ changes: false });
  });
});
