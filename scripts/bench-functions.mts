/**
 * The data functions' part of `npm run bench`: for each function, the requests
 * one call sends (read from the emulator's request log) against one page per
 * 100 items (plus the requests a call needs besides its pages, stated), and
 * its median time. Runs against an emulator seeded with 250
 * tags, findings, dependencies and client keys, so the lists take several pages.
 */
import { createServer, type AddressInfo } from "node:net";
import * as platform from "pulumi-platform";
import { defaultSeed, selfManagedSeed, startEmulator, type Emulator, type Seed } from "pulumi-platform/emulator";

const ITEMS = 250;
const ITERATIONS = Number(process.env.BENCH_FUNCTION_ITERATIONS ?? 30);
const SAML_MEMBERS = Array.from({ length: ITEMS }, (_, i) => `saml-member-${String(i).padStart(3, "0")}`);

const seed: Seed = {
  ...defaultSeed,
  containerRegistry: {
    ...(defaultSeed.containerRegistry as object),
    repositories: {
      ...(defaultSeed.containerRegistry as { repositories: Record<string, unknown[]> }).repositories,
      "acme/api": [{ name: "builds", tags: Array.from({ length: ITEMS }, (_, i) => ({ name: `build-${String(i).padStart(3, "0")}` })) }],
    },
  },
  securityReports: {
    ...(defaultSeed.securityReports as object),
    "acme/api": {
      pipelines: [{ findings: Array.from({ length: ITEMS }, (_, i) => ({ reportType: "sast", name: `finding ${i}`, severity: "high" })) }],
      dependencies: Array.from({ length: ITEMS }, (_, i) => ({ name: `package-${i}`, version: "1.0.0", packageManager: "npm", path: "package-lock.json" })),
    },
  },
  errorTracking: { ...(defaultSeed.errorTracking as object), "acme/api": { clientKeys: Array.from({ length: ITEMS }, () => ({})) } },
  // 250 merge requests on acme/api (the list takes three pages); the first changes 250 files and has 250 pipelines.
  mergeRequests: {
    ...(defaultSeed.mergeRequests as object),
    "acme/api": {
      mergeRequests: Array.from({ length: ITEMS }, (_, i) => ({
        title: `Change ${i}`, sourceBranch: `change-${i}`, targetBranch: "develop", author: "dev",
        ...(i === 0
          ? {
              files: Array.from({ length: ITEMS }, (_, f) => ({ path: `src/file-${f}.go`, newFile: true, diff: `@@ -0,0 +1 @@\n+package f${f}\n` })),
              pipelines: Array.from({ length: ITEMS }, () => ({ status: "success" })),
            }
          : {}),
      })),
    },
  },
  // The lookups of the managed objects: 250 badges, schedules, pipelines of one schedule and upstreams of a group.
  badges: { projects: { "acme/api": Array.from({ length: ITEMS }, (_, i) => ({ name: `badge-${i}`, linkUrl: `https://ci.example.test/${i}`, imageUrl: `https://img.example.test/${i}.svg` })) } },
  pipelineSchedules: {
    "acme/api": Array.from({ length: ITEMS }, (_, i) => ({
      description: `schedule ${i}`, ref: "develop", cron: "0 * * * *", owner: "dev",
      ...(i === 0 ? { variables: [{ key: "TOKEN", value: "secret" }], pipelines: Array.from({ length: ITEMS }, () => ({ status: "success" })) } : {}),
    })),
  },
  integrations: { acme: [{ slug: "slack", properties: { webhook: "https://hooks.example.test/x" } }] },
  virtualRegistries: {
    acme: {
      upstreams: Array.from({ length: ITEMS }, (_, i) => ({ name: `mirror-${i}`, url: `https://mirror-${i}.example.test` })),
      registries: [{ name: "containers", upstreams: ["mirror-0", "mirror-1", "mirror-2"] }],
    },
  },
  // 250 more members of acme who signed in with SAML: the identities list takes three pages.
  users: [...defaultSeed.users!, ...SAML_MEMBERS.map((username) => ({ username }))],
  groups: defaultSeed.groups!.map((group) =>
    group.path === "acme" && group.parent === undefined ? { ...group, members: { ...group.members, ...Object.fromEntries(SAML_MEMBERS.map((username) => [username, 10])) } } : group,
  ),
  samlIdentities: { acme: [...(defaultSeed.samlIdentities as { acme: unknown[] }).acme, ...SAML_MEMBERS.map((username) => ({ username, externUid: `idp-${username}` }))] },
};

// 250 public top-level groups (getGroups takes three pages) and 250 more tokens of
// dev, an enterprise user of acme (acme's credentials inventory takes three pages).
seed.groups = [...seed.groups!, ...Array.from({ length: ITEMS }, (_, i) => ({ path: `bulk-${String(i).padStart(3, "0")}`, visibility: "public" as const, tier: "free" as const }))];
const seededCredentials = defaultSeed.credentials as { personalAccessTokens: object[] };
seed.credentials = {
  ...seededCredentials,
  personalAccessTokens: [
    ...seededCredentials.personalAccessTokens,
    ...Array.from({ length: ITEMS }, (_, i) => ({ user: "dev", name: `script-${i}`, token: `glpat-dev-bench-${String(i).padStart(4, "0")}` })),
  ],
};

// 250 public projects starred by outsider (getStarredProjects takes three pages), and the
// 250 SAML members above as starrers of beta/site, after alice and the guest (getStarrers takes three pages).
const STARRED_PROJECTS = Array.from({ length: ITEMS }, (_, i) => `starred-${String(i).padStart(3, "0")}`);
seed.projects = [...seed.projects!, ...STARRED_PROJECTS.map((path) => ({ path, namespace: "beta", visibility: "public" as const }))];
seed.stars = {
  ...(defaultSeed.stars as object),
  outsider: STARRED_PROJECTS.map((path) => `beta/${path}`),
  ...Object.fromEntries(SAML_MEMBERS.map((username) => [username, ["beta/site"]])),
};

// An epic of acme/platform with 250 children (getEpicChildren takes three pages; a seed may hold more than the 100 a parent can be given).
const seededEpics = defaultSeed.epics as Record<string, object[]>;
seed.epics = {
  ...seededEpics,
  "acme/platform": [...(seededEpics["acme/platform"] ?? []), { iid: 20, title: "Big initiative" }, ...Array.from({ length: ITEMS }, (_, i) => ({ iid: 100 + i, title: `Task ${i}`, parent: 20 }))],
};

interface Call {
  name: string;
  /** What the call reads, for the table. */
  reads: string;
  call: () => Promise<unknown>;
  /** Requests the call needs besides its pages (getRegistryCatalog: the registry token and the registry's address). */
  fixed?: number;
}

function calls(repositoryId: number): Call[] {
  const project = "acme/api";
  return [
    { name: "getMetadata", reads: "the instance metadata", call: () => platform.getMetadata() },
    { name: "getRegistryRepositories", reads: "a group's repositories", call: () => platform.getRegistryRepositories({ group: "acme" }) },
    { name: "getRegistryRepository", reads: "one repository, with tags", call: () => platform.getRegistryRepository({ id: repositoryId, tags: true, tagsCount: true }) },
    { name: "getRegistryTags", reads: `${ITEMS} tags`, call: () => platform.getRegistryTags({ project, repositoryId }) },
    { name: "getRegistryTags (limit 10)", reads: "the 10 newest tags by name", call: () => platform.getRegistryTags({ project, repositoryId, sort: "desc", limit: 10 }) },
    { name: "getRegistryTag", reads: "one tag's detail", call: () => platform.getRegistryTag({ project, repositoryId, name: "build-100" }) },
    { name: "getVulnerabilityFindings", reads: `${ITEMS} findings`, call: () => platform.getVulnerabilityFindings({ project }) },
    { name: "getDependencies", reads: `${ITEMS} dependencies`, call: () => platform.getDependencies({ project }) },
    { name: "getErrorTrackingClientKeys", reads: `${ITEMS} keys`, call: () => platform.getErrorTrackingClientKeys({ project }) },
    { name: "getMergeRequests", reads: `${ITEMS} merge requests of acme/api`, call: () => platform.getMergeRequests({ scope: "all", targetBranch: "develop", authorUsername: "dev" }) },
    { name: "getMergeRequests (limit 10)", reads: "the 10 newest merge requests", call: () => platform.getMergeRequests({ scope: "all", limit: 10 }) },
    { name: "getMergeRequest", reads: "one merge request with its extras", call: () => platform.getMergeRequest({ project, iid: 1, includeDivergedCommitsCount: true }) },
    { name: "getMergeRequestDiffs", reads: `${ITEMS} changed files`, call: () => platform.getMergeRequestDiffs({ project, iid: 1 }) },
    { name: "getMergeRequestRawDiffs", reads: `the raw diff of ${ITEMS} files`, call: () => platform.getMergeRequestRawDiffs({ project, iid: 1 }) },
    { name: "getMergeRequestPipelines", reads: `${ITEMS} pipelines of a merge request`, call: () => platform.getMergeRequestPipelines({ project, iid: 1 }) },
    { name: "getStarredProjects", reads: `${ITEMS} projects a user starred`, call: () => platform.getStarredProjects({ user: "outsider" }) },
    { name: "getStarredProjects (limit 10)", reads: "the 10 most starred of them", call: () => platform.getStarredProjects({ user: "outsider", orderBy: "starCount", limit: 10 }) },
    { name: "getStarrers", reads: `the ${ITEMS + 2} starrers of beta/site`, call: () => platform.getStarrers({ project: "beta/site" }) },
    { name: "getEpicChildren", reads: `the ${ITEMS} children of an epic`, call: () => platform.getEpicChildren({ group: "acme/platform", epicIid: 20 }) },
  ];
}

/** The lookups of the objects the resources manage, on the seed's 250 badges, schedules, pipelines and upstreams. */
async function lookupCalls(): Promise<Call[]> {
  const scheduleId = (await platform.getPipelineSchedules({ project: "acme/api", limit: 1 }))[0]!.id;
  const registryId = (await platform.getVirtualRegistries({ group: "acme" }))[0]!.id;
  const upstreamId = (await platform.getUpstreams({ registry: registryId }))[0]!.id;
  const badgeId = (await platform.getBadges({ project: "acme/api", limit: 1 }))[0]!.id;
  const project = "acme/api";
  return [
    { name: "getBadges", reads: `${ITEMS} badges`, call: () => platform.getBadges({ project }) },
    { name: "getBadge", reads: "one badge", call: () => platform.getBadge({ project, id: badgeId }) },
    { name: "getRenderedBadge", reads: "a badge rendered", call: () => platform.getRenderedBadge({ project, linkUrl: "https://ci.example.test/%{project_path}", imageUrl: "https://img.example.test/%{default_branch}.svg" }) },
    { name: "getGroupIntegrations", reads: "a group's active integrations", call: () => platform.getGroupIntegrations({ group: "acme" }) },
    { name: "getGroupIntegration", reads: "one integration's settings", call: () => platform.getGroupIntegration({ group: "acme", slug: "slack" }) },
    { name: "getPipelineSchedules", reads: `${ITEMS} schedules`, call: () => platform.getPipelineSchedules({ project }) },
    { name: "getPipelineSchedule", reads: "one schedule with variables", call: () => platform.getPipelineSchedule({ project, scheduleId }) },
    { name: "getPipelineSchedulePipelines", reads: `${ITEMS} pipelines of a schedule`, call: () => platform.getPipelineSchedulePipelines({ project, scheduleId }) },
    { name: "getVirtualRegistries", reads: "a group's registries", call: () => platform.getVirtualRegistries({ group: "acme" }) },
    { name: "getVirtualRegistry", reads: "one registry", call: () => platform.getVirtualRegistry({ id: registryId }) },
    { name: "getUpstreams", reads: `a group's ${ITEMS} upstreams`, call: () => platform.getUpstreams({ group: "acme" }) },
    { name: "getUpstream", reads: "one upstream", call: () => platform.getUpstream({ id: upstreamId }) },
  ];
}

/** The SAML lookups: acme's 254 identities (seeded), and 250 group links made through the API (they have no seed section). */
async function samlCalls(): Promise<Call[]> {
  const api = new platform.PlatformClient({ url: process.env.PLATFORM_URL!, token: process.env.PLATFORM_TOKEN! });
  for (let i = 0; i < ITEMS; i++) await api.post("/groups/acme/saml_group_links", { saml_group_name: `team-${i}`, access_level: 30 });
  return [
    { name: "getSamlIdentities", reads: `a group's ${ITEMS + 4} SAML identities`, call: () => platform.getSamlIdentities({ group: "acme" }) },
    { name: "getSamlIdentity", reads: "one identity by uid", call: () => platform.getSamlIdentity({ group: "acme", uid: "idp-1003-dev" }) },
    { name: "getSamlGroupLinks", reads: `a group's ${ITEMS} SAML group links`, call: () => platform.getSamlGroupLinks({ group: "acme" }) },
    { name: "getSamlGroupLink", reads: "one link by name", call: () => platform.getSamlGroupLink({ group: "acme", samlGroupName: "team-100" }) },
  ];
}

/** The group lookups: one group, 250 groups in three pages, acme's 257 inventory tokens. */
function groupRequests(): Call[] {
  return [
    { name: "getGroup", reads: "one group, without its projects", call: () => platform.getGroup({ group: "acme" }) },
    { name: "getGroups", reads: `${ITEMS} groups`, call: () => platform.getGroups({ search: "bulk" }) },
    { name: "getGroups (limit 10)", reads: "the first 10 groups by name", call: () => platform.getGroups({ limit: 10 }) },
    { name: "getGroupPersonalAccessTokens", reads: `a group's ${ITEMS + 7} enterprise tokens`, call: () => platform.getGroupPersonalAccessTokens({ group: "acme" }) },
  ];
}

/**
 * getApplicationSettings on a self-managed emulator of its own (the hosted
 * offering has no instance settings).
 */
async function measureApplicationSettings() {
  const selfManaged = await startEmulator({ port: 0, seed: selfManagedSeed });
  const saved = { url: process.env.PLATFORM_URL, token: process.env.PLATFORM_TOKEN };
  try {
    process.env.PLATFORM_URL = selfManaged.url;
    process.env.PLATFORM_TOKEN = selfManaged.tokens.root!;
    return await measureCall(selfManaged, { name: "getApplicationSettings", reads: "the instance's settings", call: () => platform.getApplicationSettings() });
  } finally {
    process.env.PLATFORM_URL = saved.url;
    process.env.PLATFORM_TOKEN = saved.token;
    await selfManaged.stop();
  }
}

/** A port free now, for an emulator that names its own address in its seed. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * getRegistryCatalog on an emulator of its own, whose API names its own
 * address as the registry's host, with 250 more repositories (three pages):
 * besides the pages, the registry token and the registry's address (the
 * groups, then the first group's projects).
 */
async function measureRegistryCatalog() {
  const port = await freePort();
  const registry = seed.containerRegistry as { repositories: Record<string, unknown[]> };
  const images = Array.from({ length: ITEMS }, (_, i) => ({ name: `image-${String(i).padStart(3, "0")}` }));
  const catalogSeed: Seed = { ...seed, containerRegistry: { ...registry, host: `127.0.0.1:${port}`, repositories: { ...registry.repositories, "acme/api": [...(registry.repositories["acme/api"] ?? []), ...images] } } };
  const own = await startEmulator({ port, seed: catalogSeed });
  const saved = { url: process.env.PLATFORM_URL, token: process.env.PLATFORM_TOKEN };
  try {
    process.env.PLATFORM_URL = own.url;
    process.env.PLATFORM_TOKEN = own.tokens.root!;
    return await measureCall(own, { name: "getRegistryCatalog", reads: "every repository of the instance (+3 besides the pages: the registry token, the groups, a group)", call: () => platform.getRegistryCatalog(), fixed: 3 });
  } finally {
    process.env.PLATFORM_URL = saved.url;
    process.env.PLATFORM_TOKEN = saved.token;
    await own.stop();
  }
}

/** One page per 100 items, at least one request. */
const expectedRequests = (result: unknown): number => (Array.isArray(result) ? Math.max(1, Math.ceil(result.length / 100)) : 1);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function measureCall(emulator: Emulator, { name, reads, call, fixed = 0 }: Call) {
  let requests = 0;
  let expected = 0;
  let items = 0;
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const before = emulator.requestLog.length;
    const start = performance.now();
    const result = await call();
    times.push(performance.now() - start);
    requests = Math.max(requests, emulator.requestLog.length - before);
    expected = expectedRequests(result) + fixed;
    items = Array.isArray(result) ? result.length : 1;
  }
  return { name, reads, items, requests, expected, ms: median(times) };
}

export async function measureFunctions(): Promise<{ table: string; over: string[] }> {
  const emulator = await startEmulator({ port: 0, seed });
  const saved = { url: process.env.PLATFORM_URL, token: process.env.PLATFORM_TOKEN };
  try {
    // Functions outside a program read the environment (the provider's configuration would win: clear it).
    await platform.providers.Badge.configure({ config: { get: () => undefined, require: () => "" } as never });
    process.env.PLATFORM_URL = emulator.url;
    process.env.PLATFORM_TOKEN = emulator.tokens.root!;
    const builds = (await platform.getRegistryRepositories({ project: "acme/api" })).find((repository) => repository.name === "builds")!;
    const rows = [];
    for (const call of calls(builds.id)) rows.push(await measureCall(emulator, call));
    for (const call of await lookupCalls()) rows.push(await measureCall(emulator, call));
    for (const call of await samlCalls()) rows.push(await measureCall(emulator, call));
    for (const call of groupRequests()) rows.push(await measureCall(emulator, call));
    rows.push(await measureApplicationSettings());
    rows.push(await measureRegistryCatalog());
    const lines = rows.map((r) => `| ${r.name} | ${r.reads} | ${r.items} | ${r.requests} | ${r.expected} | ${r.ms.toFixed(3)} |`);
    const table = ["| function | reads | items | requests sent | one page per 100 items | median ms |", "|---|---|---:|---:|---:|---:|", ...lines].join("\n");
    return { table, over: rows.filter((r) => r.requests > r.expected).map((r) => r.name) };
  } finally {
    process.env.PLATFORM_URL = saved.url;
    process.env.PLATFORM_TOKEN = saved.token;
    if (saved.url === undefined) delete process.env.PLATFORM_URL;
    if (saved.token === undefined) delete process.env.PLATFORM_TOKEN;
    await emulator.stop();
  }
}
