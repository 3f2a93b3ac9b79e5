/**
 * The vulnerability findings through GraphQL, the stated replacement of the
 * deprecated REST list: a pipeline's `securityReportFindings`, read a page of
 * 100 at a time, each node given back in the REST list's form (lower case
 * values, `name` for `title`, the location variant as `file`, `startLine`,
 * `class`, `method`), so a caller gets the same findings either way. Fields
 * only the REST list has (`project`, `scan`, `blobPath`, the feedback paths,
 * `details`, `assets`) are absent.
 */
import { z } from "zod";
import { apiPath, missingOrHidden, type GraphqlAnswer } from "../client";
import { ExplainedError } from "../engine/errors";
import type { Reader } from "./core";

const FINDINGS_PAGE = /* GraphQL */ `
        securityReportFindings(reportType: $reportType, severity: $severity, state: $state, first: $first, after: $after) {
          nodes {
            uuid title description severity state reportType falsePositive solution
            vulnerability { id }
            scanner { externalId name vendor }
            identifiers { externalType externalId name url }
            location {
              __typename
              ... on VulnerabilityLocationSast { file startLine vulnerableClass vulnerableMethod }
              ... on VulnerabilityLocationDependencyScanning { file }
              ... on VulnerabilityLocationDast { hostname }
              ... on VulnerabilityLocationContainerScanning { image }
            }
            remediations { summary diff }
            evidence { summary }
            links { name url }
          }
          pageInfo { hasNextPage endCursor }
        }`;

/** A page of one pipeline's findings. */
const FINDINGS_QUERY = /* GraphQL */ `
  query PipelineFindings($path: ID!, $pipeline: CiPipelineID!, $reportType: [String!], $severity: [String!], $state: [VulnerabilityState!], $first: Int, $after: String) {
    project(fullPath: $path) {
      pipeline(id: $pipeline) {${FINDINGS_PAGE}
      }
    }
  }
`;

/**
 * The last pipeline of a ref with the first page of its findings: the
 * pipeline's own id then names it for the next pages. `pipelines(ref:)` is
 * there on every server with this query, where `pipeline(ref:)` is recent.
 */
const LATEST_FINDINGS_QUERY = /* GraphQL */ `
  query LatestPipelineFindings($path: ID!, $ref: String!, $reportType: [String!], $severity: [String!], $state: [VulnerabilityState!], $first: Int, $after: String) {
    project(fullPath: $path) {
      pipelines(ref: $ref, first: 1) {
        nodes {
          id${FINDINGS_PAGE}
        }
      }
    }
  }
`;

const ALL_STATES = ["DETECTED", "CONFIRMED", "RESOLVED", "DISMISSED"];
const PAGE = 100;

export interface FindingsQuery {
  project: string | number;
  reportTypes?: readonly string[];
  severities?: readonly string[];
  scope?: "all" | "dismissed";
  pipelineId?: string | number;
  limit?: number;
}

interface FindingNode {
  uuid: string;
  title: string;
  description: string | null;
  severity: string;
  state: string;
  reportType: string;
  falsePositive: boolean | null;
  solution: string | null;
  vulnerability: { id: string } | null;
  scanner: { externalId: string; name: string; vendor: string | null } | null;
  identifiers: { externalType: string; externalId: string; name: string; url: string | null }[];
  location: ({ __typename: string } & Record<string, string | null>) | null;
  remediations: { summary: string; diff: string }[] | null;
  evidence: { summary: string } | null;
  links: { name: string | null; url: string }[] | null;
}

interface FindingsConnection {
  nodes: FindingNode[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

interface FindingsPage {
  project: { pipeline: { securityReportFindings: FindingsConnection | null } | null } | null;
}

interface LatestFindingsPage {
  project: { pipelines: { nodes: { id: string; securityReportFindings: FindingsConnection | null }[] } | null } | null;
}

/** The REST list's location: every variant's place as `file`, SAST's line, class and method. */
function restLocation(location: FindingNode["location"]) {
  const file = location?.["file"] ?? location?.["hostname"] ?? location?.["image"] ?? null;
  const startLine = location?.["startLine"];
  return {
    file,
    startLine: startLine === undefined || startLine === null ? null : Number(startLine),
    class: location?.["vulnerableClass"] ?? null,
    method: location?.["vulnerableMethod"] ?? null,
  };
}

/** One node in the REST list's form (camelCased, as the data functions give every answer). */
function restFinding(node: FindingNode) {
  return {
    id: node.vulnerability ? Number(node.vulnerability.id.split("/").at(-1)) : null,
    reportType: node.reportType.toLowerCase(),
    name: node.title,
    severity: node.severity.toLowerCase(),
    scanner: node.scanner,
    identifiers: node.identifiers,
    uuid: node.uuid,
    falsePositive: node.falsePositive,
    description: node.description,
    links: (node.links ?? []).map((link) => (link.name === null ? { url: link.url } : { url: link.url, name: link.name })),
    location: restLocation(node.location),
    remediations: node.remediations ?? [],
    solution: node.solution,
    evidence: node.evidence,
    state: node.state.toLowerCase(),
  };
}

export type GraphqlFinding = ReturnType<typeof restFinding>;

/**
 * What the query needs of the project: its full path (GraphQL names projects
 * by path) and, without a pipeline, its default branch; read through REST
 * only when the arguments do not give them.
 */
async function projectFacts(read: Reader, args: FindingsQuery): Promise<{ path: string; defaultBranch?: string | null }> {
  if (typeof args.project === "string" && args.pipelineId !== undefined) return { path: args.project };
  const project = await read.object(apiPath`/projects/${args.project}`, undefined, projectShape);
  return { path: project.pathWithNamespace, defaultBranch: project.defaultBranch };
}

const projectShape = z.looseObject({ path_with_namespace: z.string(), default_branch: z.string().nullable().optional() });

/**
 * Every finding of the pipeline (or the first `limit`), one request per 100:
 * the pipeline given, else the last of the default branch, which the first
 * request finds with the first page.
 */
export async function findingsThroughGraphql(read: Reader, args: FindingsQuery, subject: string): Promise<GraphqlFinding[]> {
  const project = await projectFacts(read, args);
  const filters = {
    path: project.path,
    reportType: args.reportTypes ?? null,
    severity: args.severities ?? null,
    state: args.scope === "all" ? ALL_STATES : null,
  };
  const limit = args.limit ?? Infinity;
  const findings: GraphqlFinding[] = [];
  const ask = async <T>(query: string, variables: Record<string, unknown>): Promise<NonNullable<T extends { project: infer P } ? P : never>> => {
    const answer: GraphqlAnswer<T> = await read.client.graphql<T>(query, { ...filters, ...variables, first: Math.min(PAGE, limit - findings.length) });
    if (answer.errors?.length) {
      throw new ExplainedError(`getVulnerabilityFindings: the server refused the findings query for ${subject}: ${answer.errors.map((error) => error.message).join("; ")}.`);
    }
    const found = (answer.data as { project?: unknown } | undefined)?.project;
    if (!found) {
      throw new ExplainedError(`getVulnerabilityFindings: could not read ${subject}: the GraphQL query answered project null: ${missingOrHidden(`project ${project.path}`)}. Check the names and ids.`);
    }
    return found as never;
  };
  let pipeline = args.pipelineId === undefined ? undefined : `gid://gitlab/Ci::Pipeline/${args.pipelineId}`;
  let connection: FindingsConnection | null | undefined;
  if (pipeline === undefined) {
    // A project with an empty repository has no default branch, and so no such pipeline.
    if (!project.defaultBranch) return [];
    const latest = (await ask<LatestFindingsPage>(LATEST_FINDINGS_QUERY, { ref: project.defaultBranch, after: null })).pipelines?.nodes[0];
    if (!latest) return [];
    pipeline = latest.id;
    connection = latest.securityReportFindings;
  } else {
    connection = (await ask<FindingsPage>(FINDINGS_QUERY, { pipeline, after: null })).pipeline?.securityReportFindings;
  }
  while (connection) {
    findings.push(...connection.nodes.map(restFinding));
    const after = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
    if (after === null || findings.length >= limit) break;
    connection = (await ask<FindingsPage>(FINDINGS_QUERY, { pipeline, after })).pipeline?.securityReportFindings;
  }
  return findings.slice(0, limit);
}
