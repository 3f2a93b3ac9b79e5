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
import { apiPath, type GraphqlAnswer } from "../client";
import { ExplainedError } from "../engine/errors";
import type { Reader } from "./core";

const FINDINGS_QUERY = /* GraphQL */ `
  query PipelineFindings($path: ID!, $pipeline: CiPipelineID, $reportType: [String!], $severity: [String!], $state: [VulnerabilityState!], $first: Int, $after: String) {
    project(fullPath: $path) {
      pipeline(id: $pipeline) {
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

interface FindingsPage {
  project: { pipeline: { securityReportFindings: { nodes: FindingNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } | null } | null } | null;
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

/** The project's full path: GraphQL names projects by path, so a numeric id is read once through REST. */
async function fullPathOf(read: Reader, project: string | number): Promise<string> {
  if (typeof project === "string") return project;
  const { pathWithNamespace } = await read.object(apiPath`/projects/${project}`, undefined, projectShape);
  return pathWithNamespace;
}

const projectShape = z.looseObject({ path_with_namespace: z.string() });

/** Every finding the query answers (or the first `limit`), one request per 100. */
export async function findingsThroughGraphql(read: Reader, args: FindingsQuery, subject: string): Promise<GraphqlFinding[]> {
  const variables = {
    path: await fullPathOf(read, args.project),
    pipeline: args.pipelineId === undefined ? null : `gid://gitlab/Ci::Pipeline/${args.pipelineId}`,
    reportType: args.reportTypes ?? null,
    severity: args.severities ?? null,
    state: args.scope === "all" ? ALL_STATES : null,
  };
  const limit = args.limit ?? Infinity;
  const findings: GraphqlFinding[] = [];
  let after: string | null = null;
  do {
    const answer: GraphqlAnswer<FindingsPage> = await read.client.graphql<FindingsPage>(FINDINGS_QUERY, { ...variables, first: Math.min(PAGE, limit - findings.length), after });
    if (answer.errors?.length) {
      throw new ExplainedError(`getVulnerabilityFindings: the server refused the findings query for ${subject}: ${answer.errors.map((error) => error.message).join("; ")}.`);
    }
    const project = answer.data?.project;
    if (!project) {
      throw new ExplainedError(`getVulnerabilityFindings: ${subject} was not found through GraphQL (project ${variables.path} is null): check the path, and that the token's user can see it.`);
    }
    const connection = project.pipeline?.securityReportFindings;
    if (!connection) return findings;
    findings.push(...connection.nodes.map(restFinding));
    after = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
  } while (after !== null && findings.length < limit);
  return findings.slice(0, limit);
}
