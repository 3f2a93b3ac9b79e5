/** The security report lookups against the emulator: filters, gates, pagination, failures. */
import { beforeAll, describe, expect, it } from "vitest";
import { getDependencies, getVulnerabilityFindings, getVulnerabilityFindingsOutput } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// The default seed, and acme/api with 150 findings and 130 dependencies: two pages each.
const SEVERITIES = ["info", "unknown", "low", "medium", "high", "critical"] as const;
const seed: Seed = {
  ...defaultSeed,
  securityReports: {
    ...(defaultSeed.securityReports as object),
    "acme/api": {
      pipelines: [
        {
          ref: "develop",
          findings: Array.from({ length: 150 }, (_, i) => ({ reportType: "sast", name: `finding ${i}`, severity: SEVERITIES[i % SEVERITIES.length] })),
        },
      ],
      dependencies: Array.from({ length: 130 }, (_, i) => ({ name: `package-${i}`, version: `1.0.${i}`, packageManager: i % 2 ? "npm" : "pip", path: i % 2 ? "package-lock.json" : "requirements.txt" })),
    },
  },
};

const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("dev");
});

/** Runs `action` as another seed user, then as the file's user again. */
const as = <T>(username: string, action: () => Promise<T>): Promise<T> => server.actingAs(username, action);

describe("getVulnerabilityFindings", () => {
  it("the latest pipeline's findings in camelCase, dismissed ones left out by default", async () => {
    const findings = await getVulnerabilityFindings({ project: "acme/web" });
    expect(findings.map((finding) => finding.name)).not.toContain("Hard-coded password");
    expect(findings.length).toBe(7);
    const xss = findings.find((finding) => finding.name === "Cross-site scripting in comment view")!;
    expect(xss).toMatchObject({
      reportType: "sast",
      severity: "high",
      solution: "Escape the comment body.",
      location: { file: "src/views/comment.js", startLine: 17, class: "CommentView", method: "render" },
      identifiers: [{ externalType: "cwe", externalId: "79", name: "CWE-79" }],
      project: { fullPath: expect.stringContaining("acme/web") },
    });
    expect(xss.uuid).toEqual(expect.any(String));
    expect(xss).toHaveProperty("createVulnerabilityFeedbackIssuePath");
  });

  it("scope all includes dismissed findings; report types and severities filter, comma-separated on the wire", async () => {
    expect((await getVulnerabilityFindings({ project: "acme/web", scope: "all" })).map((finding) => finding.name)).toContain("Hard-coded password");
    const picked = await getVulnerabilityFindings({ project: "acme/web", reportTypes: ["sast", "container_scanning"], severities: ["critical"] });
    expect(picked.map((finding) => `${finding.reportType} ${finding.severity}`).sort()).toEqual(["container_scanning critical"]);
    const query = server.emulator.requestLog.at(-1)!.query;
    expect(decodeURIComponent(query)).toContain("report_type=sast,container_scanning");
    expect(decodeURIComponent(query)).toContain("severity=critical");
  });

  it("one pipeline's findings", async () => {
    const first = await getVulnerabilityFindings({ project: "acme/web", pipelineId: 1001 });
    expect(first.map((finding) => finding.name).sort()).toEqual(["Prototype pollution in lodash", "SQL injection in report query"]);
  });

  it("every finding across pages, 100 a request", async () => {
    let count = 0;
    const requests = await server.requestsDuring(async () => {
      count = (await getVulnerabilityFindings({ project: "acme/api" })).length;
    });
    expect(count).toBe(150);
    expect(requests).toHaveLength(2);
  });

  it("a filter that matches nothing is an empty list", async () => {
    expect(await getVulnerabilityFindings({ project: "acme/api", reportTypes: ["dast"] })).toEqual([]);
  });

  it("bad arguments are refused before any request", async () => {
    const mark = server.emulator.mark();
    await expect(getVulnerabilityFindings({ project: "acme/web", severities: ["severe" as never] })).rejects.toThrow(/severities\.0: must be one of .*"critical"/);
    await expect(getVulnerabilityFindings({ project: "acme/web", reportTypes: [] })).rejects.toThrow(/reportTypes: /);
    await expect(getVulnerabilityFindings({ project: "acme/web", scope: "open" as never })).rejects.toThrow(/scope: /);
    await expect(getVulnerabilityFindings({ project: "acme/web", pipelineId: "latest" })).rejects.toThrow(/pipelineId: must be a pipeline id/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("a caller without the security dashboard is told so", async () => {
    const error = (await as("guest", () => getVulnerabilityFindings({ project: "acme/web" }).catch((caught: Error) => caught))) as Error;
    expect(error.message).toMatch(/getVulnerabilityFindings: could not read the vulnerability findings of project acme\/web: .*403.*: the token's user needs at least the Developer role \(for the security dashboard\) on project acme\/web, and project acme\/web needs the Ultimate tier/);
  });

  it("below Ultimate the API refuses, and the message names the tier", async () => {
    const error = (await as("alice", () => getVulnerabilityFindings({ project: "beta/site" }).catch((caught: Error) => caught))) as Error;
    expect(error.message).toMatch(/403.*Ultimate tier/);
  });

  it("a missing project is named", async () => {
    await expect(getVulnerabilityFindings({ project: "acme/nope" })).rejects.toThrow(/could not read the vulnerability findings of project acme\/nope/);
  });

  it("the Output form", async () => {
    const names = await new Promise<string[]>((resolve) =>
      getVulnerabilityFindingsOutput({ project: "acme/web", severities: ["critical"] }).apply((findings) => resolve(findings.map((finding) => finding.name))),
    );
    // The critical SQL injection was fixed by the latest pipeline: only the glibc one is left.
    expect(names).toEqual(["CVE-2023-4911 in glibc"]);
  });
});

describe("getVulnerabilityFindings through the GraphQL query (via)", () => {
  /** The REST findings with only the fields the GraphQL query gives (the REST list has more: project, scan, blobPath, ...). */
  const sameFieldsAs = (rest: Record<string, unknown>[], graphql: Record<string, unknown>[]) =>
    rest.map((finding, index) => Object.fromEntries(Object.keys(graphql[index] ?? {}).map((key) => [key, finding[key]])));

  const cases: [string, Parameters<typeof getVulnerabilityFindings>[0]][] = [
    ["the default pipeline", { project: "acme/web" }],
    ["scope all (dismissed included)", { project: "acme/web", scope: "all" }],
    ["report types and severities", { project: "acme/web", reportTypes: ["sast", "dependency_scanning"], severities: ["high", "medium"] }],
    ["one pipeline by id", { project: "acme/web", pipelineId: 1001 }],
    ["a project by numeric id, across two pages", { project: 0 }],
    ["the first 120", { project: "acme/api", limit: 120 }],
  ];
  for (const [title, args] of cases) {
    it(`same findings either way: ${title}`, async () => {
      const given = args.project === 0 ? { ...args, project: server.emulator.state.projectByFullPath("acme/api")!.id } : args;
      const rest = await getVulnerabilityFindings({ ...given, via: "rest" });
      const graphql = await getVulnerabilityFindings({ ...given, via: "graphql" });
      expect(graphql.length).toBe(rest.length);
      expect(graphql.length).toBeGreaterThan(0);
      expect(graphql).toEqual(sameFieldsAs(rest as never, graphql as never));
    });
  }

  it("gives every field the specification lists for the query, in the REST list's form", async () => {
    const [lodash] = await getVulnerabilityFindings({ project: "acme/web", via: "graphql", reportTypes: ["dependency_scanning"], severities: ["high"] });
    expect(Object.keys(lodash!).sort()).toEqual(
      ["description", "evidence", "falsePositive", "id", "identifiers", "links", "location", "name", "remediations", "reportType", "scanner", "severity", "solution", "state", "uuid"],
    );
    expect(lodash).toMatchObject({
      id: 7002,
      state: "confirmed",
      remediations: [{ summary: "Upgrade lodash to 4.17.21", diff: expect.any(String) }],
      evidence: { summary: "lodash 4.17.20 is resolved in package-lock.json" },
      location: { file: "package-lock.json", startLine: null, class: null, method: null },
    });
  });

  it("reads one page per 100 findings: two POSTs for 150, after the project's default branch when no pipeline is named", async () => {
    const requests = await server.requestsDuring(() => getVulnerabilityFindings({ project: "acme/api", via: "graphql" }));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v4/projects/acme%2Fapi", "POST /api/graphql", "POST /api/graphql"]);
    const named = await server.requestsDuring(() => getVulnerabilityFindings({ project: "acme/web", pipelineId: 1001, via: "graphql" }));
    expect(named.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/graphql"]);
  });

  it("auto: where the REST list is gone (410, or 404 for the route) the query answers, with the same findings", async () => {
    const rest = await getVulnerabilityFindings({ project: "acme/web" });
    for (const gone of [
      { status: 410, body: { message: "410 Gone" } },
      { status: 404, body: { error: "404 Not Found" } },
    ]) {
      server.emulator.inject({ method: "GET", path: /vulnerability_findings/, ...gone });
      let findings: Awaited<ReturnType<typeof getVulnerabilityFindings>> = [];
      const requests = await server.requestsDuring(async () => {
        findings = await getVulnerabilityFindings({ project: "acme/web" });
      });
      expect(requests.map((r) => `${r.method} ${r.status}`)).toEqual([`GET ${gone.status}`, "GET 200", "POST 200"]);
      expect(findings).toEqual(sameFieldsAs(rest as never, findings as never));
    }
  });

  it("auto does not take a missing project for a missing list; rest never falls back", async () => {
    await expect(getVulnerabilityFindings({ project: "acme/nope" })).rejects.toThrow(/project acme\/nope does not exist, or the token's user cannot see it/);
    server.emulator.inject({ method: "GET", path: /vulnerability_findings/, status: 410, body: { message: "410 Gone" } });
    await expect(getVulnerabilityFindings({ project: "acme/web", via: "rest" })).rejects.toThrow(/410/);
  });

  it("a project the token's user cannot see is explained; a caller without the security dashboard gets no findings", async () => {
    await expect(getVulnerabilityFindings({ project: "acme/nope", via: "graphql" })).rejects.toThrow(/404.*project acme\/nope does not exist, or the token's user cannot see it/);
    await expect(getVulnerabilityFindings({ project: "acme/nope", pipelineId: 1001, via: "graphql" })).rejects.toThrow(/project null: project acme\/nope does not exist, or the token's user cannot see it/);
    // Through GraphQL the server hides findings from a caller without the security dashboard: an empty list, not a 403.
    expect(await as("guest", () => getVulnerabilityFindings({ project: "acme/web", via: "graphql" }))).toEqual([]);
  });
});

describe("getDependencies", () => {
  it("every dependency, with licences and, for a Developer, vulnerabilities", async () => {
    const dependencies = await getDependencies({ project: "acme/web" });
    expect(dependencies).toHaveLength(10);
    const lodash = dependencies.find((dependency) => dependency.name === "lodash")!;
    expect(lodash).toMatchObject({ version: "4.17.20", packageManager: "npm", dependencyFilePath: "package-lock.json", licenses: [{ name: "MIT" }] });
    expect(lodash.vulnerabilities).toEqual([expect.objectContaining({ id: 7002, severity: "high" })]);
  });

  it("an administrator sees the vulnerabilities too; a Guest of a private project may not read the list", async () => {
    const seen = await as("root", async () => getDependencies({ project: "acme/web" }));
    expect(seen.some((dependency) => dependency.vulnerabilities !== undefined)).toBe(true);
    const guest = (await as("guest", () => getDependencies({ project: "acme/web" }).catch((caught: Error) => caught))) as Error;
    expect(guest.message).toMatch(/getDependencies: could not read the dependencies of project acme\/web/);
  });

  it("filtered by package manager", async () => {
    const go = await getDependencies({ project: "acme/web", packageManagers: ["go"] });
    expect(go.map((dependency) => dependency.name).sort()).toEqual(["github.com/gorilla/mux", "golang.org/x/net", "gopkg.in/yaml.v3"]);
    expect(await getDependencies({ project: "acme/web", packageManagers: ["maven"] })).toEqual([]);
  });

  it("every dependency across pages, 100 a request; limit stops early", async () => {
    const all = await server.requestsDuring(async () => expect(await getDependencies({ project: "acme/api" })).toHaveLength(130));
    expect(all).toHaveLength(2);
    const some = await server.requestsDuring(async () => expect(await getDependencies({ project: "acme/api", limit: 30 })).toHaveLength(30));
    expect(some).toHaveLength(1);
  });

  it("an unknown package manager is refused before any request", async () => {
    const mark = server.emulator.mark();
    await expect(getDependencies({ project: "acme/web", packageManagers: ["cargo" as never] })).rejects.toThrow(/packageManagers\.0: must be one of/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});
