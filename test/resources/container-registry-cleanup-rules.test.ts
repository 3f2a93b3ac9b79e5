/**
 * The tags ContainerRegistryCleanup shows at preview are the tags the
 * server's worker deletes, rule by rule: each rule runs on its own copy of one
 * repository (names that trip the anchoring of alternations, tags sharing a
 * manifest and so a time, a range of ages), through check and create, then
 * the emulator's worker; the tags gone must be exactly `wouldDelete`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const now = Date.parse("2024-06-01T00:00:00.000Z");
const DAY = 86_400_000;

const TAGS = [
  ...Array.from({ length: 12 }, (_, i) => ({ name: `v1.${i}.0`, createdAt: new Date(now - (90 - i * 7) * DAY).toISOString() })),
  { name: "v1.11.0-lts", sameAs: "v1.11.0" },
  { name: "stable", sameAs: "v1.10.0" },
  { name: "latest", sameAs: "v1.11.0" },
  ...Array.from({ length: 6 }, (_, i) => ({ name: `rc-${i}`, createdAt: new Date(now - (40 - i * 6) * DAY - 3_600_000).toISOString() })),
  { name: "rc-6", sameAs: "rc-5" },
  ...["0a1b2c", "1b2c3d", "2c3d4e", "3d4e5f"].map((sha, i) => ({ name: `main-${sha}`, createdAt: new Date(now - (i * 3 + 1) * DAY).toISOString() })),
  { name: "feature-v1", createdAt: new Date(now - 20 * DAY).toISOString() },
  { name: "1.0-hotfix", createdAt: new Date(now - 50 * DAY).toISOString() },
];

const RULES: Record<string, unknown>[] = [
  { nameRegexDelete: ".*" },
  { nameRegexDelete: ".*", keepN: 5 },
  { nameRegexDelete: "v.*", keepN: 3, olderThan: "30d" },
  { nameRegexDelete: "v1|rc-.*" },
  { nameRegexDelete: ".*", nameRegexKeep: "stable|main-.*" },
  { nameRegexDelete: "rc-.*", keepN: 2 },
  { nameRegexDelete: "rc-.*", keepN: 1 },
  { nameRegexDelete: ".*", olderThan: "2 weeks" },
  { nameRegexDelete: ".*", olderThan: "1month", nameRegexKeep: "v1\\.1[01]\\.0.*" },
  { nameRegexDelete: "main-[0-9a-f]+", keepN: 0, olderThan: "36h" },
  { nameRegexDelete: "(v|rc-)[0-9.]+", keepN: 4 },
  { nameRegexDelete: ".*-lts|.*hotfix", keepN: 50 },
  { nameRegexDelete: ".*", olderThan: "3 weeks, 2 days" },
  { nameRegexDelete: "v.*|rc-.*", olderThan: "0.1 years" },
  { nameRegexDelete: ".*", keepN: 2, olderThan: "1 month and 12 days" },
];

function seed(): Seed {
  const seeded = structuredClone(defaultSeed) as Seed & { containerRegistry: any };
  seeded.containerRegistry.repositories["acme/api"] = RULES.map((_, i) => ({ name: `copy-${i}`, createdAt: "2024-01-01T00:00:00.000Z", tags: TAGS }));
  return seeded;
}

const server = useEmulator({ seed: seed(), clock: () => now });
const cleanup = providers.ContainerRegistryCleanup;

async function tagNames(repositoryId: number): Promise<string[]> {
  return (await server.as().list<{ name: string }>(apiPath`/projects/${"acme/api"}/registry/repositories/${repositoryId}/tags`)).map((tag) => tag.name);
}

let repositoryIds: Record<string, number> = {};
beforeAll(async () => {
  await server.configureProviders("root");
  const repositories = await server.as().list<{ id: number; name: string }>(apiPath`/projects/${"acme/api"}/registry/repositories`);
  repositoryIds = Object.fromEntries(repositories.map((repository) => [repository.name, repository.id]));
});

describe("what the preview shows is what the server's worker deletes", () => {
  RULES.forEach((rule, i) => {
    it(JSON.stringify(rule), async () => {
      const repository = `copy-${i}`;
      const checked = await cleanup.check({}, { project: "acme/api", repository, ...rule });
      expect(checked.failures ?? []).toEqual([]);
      const shown = (checked.inputs as { wouldDelete: string[] }).wouldDelete.map((tag) => tag.split(":")[1]);
      const before = await tagNames(repositoryIds[repository]!);
      await cleanup.create(checked.inputs);
      server.emulator.runDueWork();
      const after = await tagNames(repositoryIds[repository]!);
      expect(before.filter((name) => !after.includes(name)).sort()).toEqual([...shown].sort());
      expect(after).toContain("latest");
    });
  });

  it("the rules between them delete different sets (the comparison is not trivially empty)", async () => {
    const remaining = await Promise.all(RULES.map((_, i) => tagNames(repositoryIds[`copy-${i}`]!)));
    expect(new Set(remaining.map((names) => names.join())).size).toBeGreaterThan(8);
    expect(remaining.filter((names) => names.length < TAGS.length).length).toBeGreaterThanOrEqual(RULES.length - 1);
  });
});
