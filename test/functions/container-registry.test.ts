/** The container registry lookups against the emulator: results, pagination, extras, failures. */
import { beforeAll, describe, expect, it } from "vitest";
import { getRegistryRepositories, getRegistryRepository, getRegistryTag, getRegistryTags, getRegistryTagsOutput } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// The default seed, and a repository with 250 tags on acme/api: three pages of 100.
const MANY = 250;
const tagName = (i: number) => `build-${String(i).padStart(3, "0")}`;
const seed: Seed = {
  ...defaultSeed,
  containerRegistry: {
    ...(defaultSeed.containerRegistry as object),
    repositories: {
      ...(defaultSeed.containerRegistry as { repositories: Record<string, unknown[]> }).repositories,
      "acme/api": [{ name: "builds", createdAt: "2024-06-01T00:00:00.000Z", tags: Array.from({ length: MANY }, (_, i) => ({ name: tagName(i) })) }],
    },
  },
};

const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("alice");
});

const repositoryNamed = async (project: string, name: string) => (await getRegistryRepositories({ project })).find((repository) => repository.name === name)!;

describe("getRegistryRepositories", () => {
  it("a project's repositories in camelCase with every field, tags and counts when asked, in one request", async () => {
    let repositories: Awaited<ReturnType<typeof getRegistryRepositories>> = [];
    const requests = await server.requestsDuring(async () => {
      repositories = await getRegistryRepositories({ project: "acme/web", tags: true, tagsCount: true });
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe("/api/v4/projects/acme%2Fweb/registry/repositories");
    expect(repositories.map((repository) => repository.name).sort()).toEqual(["", "api-server"]);
    const api = repositories.find((repository) => repository.name === "api-server")!;
    expect(api).toMatchObject({ path: "acme/web/api-server", projectId: expect.any(Number), location: expect.stringMatching(/\/acme\/web\/api-server$/), tagsCount: 12 });
    expect(api).toHaveProperty("createdAt");
    expect(api).toHaveProperty("cleanupPolicyStartedAt");
    expect(api).toHaveProperty("status", null);
    expect(api.tags!.map((tag) => tag.name)).toContain("v1.4.0");
    expect(api.tags![0]).toEqual({ name: expect.any(String), path: expect.stringMatching(/^acme\/web\/api-server:/), location: expect.any(String) });
  });

  it("without the extras, no tags or counts", async () => {
    const [first] = await getRegistryRepositories({ project: "acme/web" });
    expect(first).not.toHaveProperty("tags");
    expect(first).not.toHaveProperty("tagsCount");
  });

  it("a group's repositories cover its subgroups' projects", async () => {
    const paths = (await getRegistryRepositories({ group: "acme" })).map((repository) => repository.path).sort();
    expect(paths).toEqual(["acme/api/builds", "acme/platform/infra/tools", "acme/web", "acme/web/api-server"]);
  });

  it("a project with no registry images is an empty list, not an error", async () => {
    expect(await getRegistryRepositories({ group: "beta/labs" })).toEqual([]);
  });

  it("limit reads no more than it needs", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await getRegistryRepositories({ group: "acme", limit: 2 })).toHaveLength(2);
    });
    expect(requests).toHaveLength(1);
    expect(server.emulator.requestLog.at(-1)!.query).toContain("per_page=2");
  });

  it("exactly one of project and group; tag extras only for a project; nothing sent", async () => {
    const mark = server.emulator.mark();
    await expect(getRegistryRepositories({})).rejects.toThrow(/project: set exactly one of project and group/);
    await expect(getRegistryRepositories({ project: "acme/web", group: "acme" })).rejects.toThrow(/set exactly one of project and group/);
    await expect(getRegistryRepositories({ group: "acme", tagsCount: true })).rejects.toThrow(/tagsCount: only for a project's repositories/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("a missing project is named; a caller who may not see it gets the same", async () => {
    await expect(getRegistryRepositories({ project: "acme/nope" })).rejects.toThrow(/getRegistryRepositories: could not read the registry repositories of project acme\/nope: .*404 Project Not Found/);
    await server.configureProviders("outsider");
    try {
      await expect(getRegistryRepositories({ project: "acme/web" })).rejects.toThrow(/project acme\/web does not exist, or the token's user cannot see it/);
    } finally {
      await server.configureProviders("alice");
    }
  });

  it("a registry visible to Reporters only refuses a Guest, and says why", async () => {
    const guestError = await (async () => {
      await server.configureProviders("guest");
      try {
        return await getRegistryRepositories({ project: "acme/web" }).catch((error: Error) => error);
      } finally {
        await server.configureProviders("alice");
      }
    })();
    expect((guestError as Error).message).toMatch(/getRegistryRepositories: could not read the registry repositories of project acme\/web: .*403.*Reporter role/);
  });
});

describe("getRegistryRepository", () => {
  it("one repository with its extras", async () => {
    const { id } = await repositoryNamed("acme/web", "api-server");
    const repository = await getRegistryRepository({ id, tags: true, tagsCount: true, size: true });
    expect(repository).toMatchObject({ id, name: "api-server", tagsCount: 12 });
    expect(repository).toHaveProperty("size");
    expect(repository.tags).toHaveLength(12);
  });

  it("a missing repository is an error that names it", async () => {
    await expect(getRegistryRepository({ id: 99_999 })).rejects.toThrow(/getRegistryRepository: could not read registry repository 99999/);
  });
});

describe("getRegistryTags", () => {
  it("every tag, 100 a request, by name ascending with keyset pagination", async () => {
    const { id } = await repositoryNamed("acme/api", "builds");
    let tags: Awaited<ReturnType<typeof getRegistryTags>> = [];
    const requests = await server.requestsDuring(async () => {
      tags = await getRegistryTags({ project: "acme/api", repositoryId: id });
    });
    expect(tags.map((tag) => tag.name)).toEqual(Array.from({ length: MANY }, (_, i) => tagName(i)));
    expect(requests.length).toBe(Math.ceil(MANY / 100));
    const queries = server.emulator.requestLog.slice(-requests.length).map((entry) => entry.query);
    expect(queries.every((query) => query.includes("pagination=keyset") && query.includes("order_by=name") && query.includes("per_page=100"))).toBe(true);
  });

  it("descending, and a limit that stops early", async () => {
    const { id } = await repositoryNamed("acme/api", "builds");
    const requests = await server.requestsDuring(async () => {
      const newest = await getRegistryTags({ project: "acme/api", repositoryId: id, sort: "desc", limit: 5 });
      expect(newest.map((tag) => tag.name)).toEqual([249, 248, 247, 246, 245].map(tagName));
    });
    expect(requests).toHaveLength(1);
  });

  it("the Output form", async () => {
    const { id } = await repositoryNamed("acme/web", "api-server");
    const names = await new Promise<string[]>((resolve) => getRegistryTagsOutput({ project: "acme/web", repositoryId: id, limit: 3 }).apply((tags) => resolve(tags.map((tag) => tag.name))));
    expect(names).toHaveLength(3);
  });

  it("a missing repository is named", async () => {
    await expect(getRegistryTags({ project: "acme/web", repositoryId: 99_999 })).rejects.toThrow(/could not read the tags of registry repository 99999 of project acme\/web/);
  });
});

describe("getRegistryTag", () => {
  it("the detail: revision, digest, manifest time, size", async () => {
    const { id } = await repositoryNamed("acme/web", "api-server");
    const tag = await getRegistryTag({ project: "acme/web", repositoryId: id, name: "v1.4.0" });
    expect(tag).toMatchObject({ name: "v1.4.0", createdAt: "2024-05-01T12:00:00.000Z", totalSize: 63_105_377 });
    expect(tag.revision).toMatch(/^[0-9a-f]{64}$/);
    expect(tag.shortRevision).toBe(tag.revision!.slice(0, 9));
    expect(tag.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await getRegistryTag({ project: "acme/web", repositoryId: id, name: "latest" })).digest).toBe(tag.digest);
  });

  it("a missing tag is an error that names it", async () => {
    const { id } = await repositoryNamed("acme/web", "api-server");
    await expect(getRegistryTag({ project: "acme/web", repositoryId: id, name: "v9" })).rejects.toThrow(new RegExp(`getRegistryTag: could not read tag v9 of registry repository ${id} of project acme/web`));
  });
});
