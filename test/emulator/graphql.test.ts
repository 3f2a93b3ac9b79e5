/**
 * `POST /api/graphql`: the pipeline security report findings query over real
 * HTTP: its fields (uppercase states, scanner, identifiers, location variants,
 * remediations, evidence), filters, paging and permissions, and GraphQL's
 * error format (200 with `errors` for query errors, 401 for an unknown token).
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, type Seed } from "../../src/emulator";
import { useEmulator } from "./helpers";

const seed: Seed = {
  ...defaultSeed,
  users: [...(defaultSeed.users ?? []), { username: "reporter", token: "glpat-reporter-token" }],
  projects: (defaultSeed.projects ?? []).map((p) => (p.path === "web" ? { ...p, members: { reporter: 20 } } : p)),
};
const server = useEmulator({ seed });

async function graphql(query: string, variables?: Record<string, unknown>, token: string | null = "glpat-dev-token") {
  const response = await fetch(`${server.emulator.url}/api/graphql`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const FINDINGS = /* GraphQL */ `
  query Findings($path: ID!, $pipeline: CiPipelineID, $ref: String, $state: [VulnerabilityState!], $first: Int, $after: String, $severity: [String!]) {
    project(fullPath: $path) {
      pipeline(id: $pipeline, ref: $ref) {
        securityReportFindings(state: $state, first: $first, after: $after, severity: $severity) {
          nodes {
            uuid title description severity state reportType falsePositive solution
            scanner { externalId name vendor }
            identifiers { externalType externalId name url }
            location {
              __typename
              ... on VulnerabilityLocationSast { file startLine vulnerableClass vulnerableMethod blobPath }
              ... on VulnerabilityLocationDependencyScanning { file blobPath }
              ... on VulnerabilityLocationDast { hostname }
              ... on VulnerabilityLocationContainerScanning { image }
            }
            remediations { summary diff }
            evidence { summary }
          }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }
`;

const nodesOf = (body: any) => body.data.project.pipeline.securityReportFindings.nodes as any[];

describe("the pipeline security report findings query", () => {
  it("answers the last default-branch pipeline's findings with the specified fields, highest severity first, dismissed ones left out", async () => {
    const { status, body } = await graphql(FINDINGS, { path: "acme/web", ref: "HEAD" });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const nodes = nodesOf(body);
    expect(nodes.map((n) => n.severity)).toEqual(["CRITICAL", "HIGH", "HIGH", "MEDIUM", "LOW", "UNKNOWN", "INFO"]);
    const sha = server.emulator.state.projectByFullPath("acme/web")!.lastCommitSha;
    expect(nodes.find((n) => n.title === "Cross-site scripting in comment view")).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: "Cross-site scripting in comment view",
      description: "User input is rendered without escaping.",
      severity: "HIGH",
      state: "DETECTED",
      reportType: "SAST",
      falsePositive: false,
      solution: "Escape the comment body.",
      scanner: { externalId: "semgrep", name: "Semgrep", vendor: "GitLab" },
      identifiers: [{ externalType: "cwe", externalId: "79", name: "CWE-79", url: "https://cwe.mitre.org/data/definitions/79.html" }],
      location: {
        __typename: "VulnerabilityLocationSast",
        file: "src/views/comment.js",
        startLine: "17",
        vulnerableClass: "CommentView",
        vulnerableMethod: "render",
        blobPath: `/acme/web/-/blob/${sha}/src/views/comment.js`,
      },
      remediations: [],
      evidence: null,
    });
    const lodash = nodes.find((n) => n.title === "Prototype pollution in lodash");
    expect(lodash).toMatchObject({
      state: "CONFIRMED",
      location: { __typename: "VulnerabilityLocationDependencyScanning", file: "package-lock.json" },
      remediations: [{ summary: "Upgrade lodash to 4.17.21", diff: expect.any(String) }],
      evidence: { summary: "lodash 4.17.20 is resolved in package-lock.json" },
    });
    expect(nodes.find((n) => n.reportType === "DAST")?.location).toEqual({ __typename: "VulnerabilityLocationDast", hostname: "https://web.acme.example/" });
    expect(nodes.find((n) => n.reportType === "CONTAINER_SCANNING")?.location).toEqual({
      __typename: "VulnerabilityLocationContainerScanning",
      image: "registry.example.test/acme/web:latest",
    });
  });

  it("filters by state and severity, names a pipeline by global id, and pages with cursors", async () => {
    const dismissed = nodesOf((await graphql(FINDINGS, { path: "acme/web", ref: "HEAD", state: ["DISMISSED"] })).body);
    expect(dismissed.map((n) => [n.title, n.state])).toEqual([["Hard-coded password", "DISMISSED"]]);
    const older = nodesOf((await graphql(FINDINGS, { path: "acme/web", pipeline: "gid://gitlab/Ci::Pipeline/1001", severity: ["critical"] })).body);
    expect(older.map((n) => n.title)).toEqual(["SQL injection in report query"]);

    const first = (await graphql(FINDINGS, { path: "acme/web", ref: "main", first: 3 })).body.data.project.pipeline.securityReportFindings;
    expect(first.nodes).toHaveLength(3);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = (await graphql(FINDINGS, { path: "acme/web", ref: "main", first: 100, after: first.pageInfo.endCursor })).body.data.project.pipeline.securityReportFindings;
    expect(rest.nodes).toHaveLength(4);
    expect(rest.pageInfo.hasNextPage).toBe(false);
  });

  it("a pipeline needs one of id, iid, sha or ref; one given as null finds none; pipelines(ref:) lists newest first", async () => {
    const none = await graphql(`query { project(fullPath: "acme/web") { pipeline { id } } }`);
    expect(none.body.data).toEqual({ project: { pipeline: null } });
    expect(none.body.errors).toEqual([expect.objectContaining({ message: "Provide one of ID, IID or SHA", path: ["project", "pipeline"] })]);
    expect((await graphql(`query { project(fullPath: "acme/web") { pipeline(id: null) { id } } }`)).body).toEqual({ data: { project: { pipeline: null } } });
    const listed = (await graphql(`query { project(fullPath: "acme/web") { pipelines(ref: "main") { nodes { id ref } } } }`)).body.data.project.pipelines.nodes as { id: string; ref: string }[];
    const ids = listed.map((node) => Number(node.id.split("/").at(-1)));
    expect(ids.length).toBeGreaterThan(1);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(listed.every((node) => node.ref === "main")).toBe(true);
    const latest = (await graphql(`query { project(fullPath: "acme/web") { pipeline(ref: "HEAD") { id } } }`)).body.data.project.pipeline;
    expect(latest).toEqual({ id: listed[0]!.id });
  });

  it("hides what the caller may not read: no project for an outsider, no findings for a Reporter", async () => {
    expect((await graphql(FINDINGS, { path: "acme/web", ref: "HEAD" }, "glpat-outsider-token")).body).toEqual({ data: { project: null } });
    expect((await graphql(FINDINGS, { path: "acme/web", ref: "HEAD" }, null)).body).toEqual({ data: { project: null } });
    expect(nodesOf((await graphql(FINDINGS, { path: "acme/web", ref: "HEAD" }, "glpat-reporter-token")).body)).toEqual([]);
  });
});

describe("GraphQL's error format", () => {
  it("a query that does not parse: 200 with the error and its location, no data", async () => {
    const { status, body } = await graphql("query { project(fullPath: \"acme/web\") { name ");
    expect(status).toBe(200);
    expect(body).toEqual({ errors: [{ message: expect.stringMatching(/^Syntax Error/), locations: [{ line: 1, column: 46 }] }] });
  });

  it("a field the schema does not have: 200 with a validation error naming it", async () => {
    const { status, body } = await graphql("{ project(fullPath: \"acme/web\") { nope } }");
    expect(status).toBe(200);
    expect(body).toEqual({ errors: [{ message: 'Cannot query field "nope" on type "Project". Did you mean "name"?', locations: [{ line: 1, column: 35 }] }] });
  });

  it("a field that fails: 200 with data null there and the error's path", async () => {
    const { status, body } = await graphql(FINDINGS, { path: "acme/web", ref: "HEAD", first: 1, after: "not-a-cursor" });
    expect(status).toBe(200);
    expect(body.data).toEqual({ project: { pipeline: { securityReportFindings: null } } });
    expect(body.errors).toEqual([
      { message: "Please provide a valid cursor", locations: [expect.any(Object)], path: ["project", "pipeline", "securityReportFindings"] },
    ]);
  });

  it("an unknown token is 401; no query is 200 with its error", async () => {
    expect(await graphql("{ project(fullPath: \"acme/web\") { name } }", undefined, "glpat-nobody")).toEqual({ status: 401, body: { errors: [{ message: "Invalid token" }] } });
    expect(await graphql("")).toEqual({ status: 200, body: { errors: [{ message: "No query string was present" }] } });
  });

  it("GET with ?query= answers the same", async () => {
    const url = `${server.emulator.url}/api/graphql?query=${encodeURIComponent('{ project(fullPath: "acme/web") { fullPath name } }')}`;
    const response = await fetch(url, { headers: { "PRIVATE-TOKEN": "glpat-dev-token" } });
    expect(await response.json()).toEqual({ data: { project: { fullPath: "acme/web", name: "Web" } } });
  });
});
