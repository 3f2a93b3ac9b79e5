/**
 * The GraphQL query that replaces the deprecated findings list: a project's
 * pipeline and its security report findings, served at `/api/graphql` by
 * ../graphql/index.ts. Types, fields and arguments as GitLab's schema names them:
 * - `project(fullPath:)` is null for a project the caller cannot see;
 *   `pipeline(id:, iid:, sha:, ref:)` needs one of them (an error otherwise);
 *   one given as null finds nothing; `ref` is that ref's last pipeline
 *   (`HEAD`: the default branch's). `pipelines(ref:)` lists a project's
 *   pipelines newest first.
 * - `securityReportFindings(reportType:, severity:, scanner:, state:)`: lower
 *   case report types and severities as strings, states as the enum; without
 *   `state`, every state but DISMISSED. Sorted by severity, highest first.
 *   A caller without `read_security_resource` gets no nodes (the type's
 *   authorization hides them), not an error.
 * - `location` is a union by scan type: SAST (file, startLine as a string,
 *   vulnerableClass, vulnerableMethod, blobPath), dependency scanning (file,
 *   blobPath), DAST (hostname: the URL the model keeps as the file),
 *   container scanning (image: likewise).
 * - Connections page with `first`/`after` (at most 100 a page) and opaque
 *   cursors; `nodes`, `edges { cursor node }` and `pageInfo`.
 */
import { canReadProject } from "../../access";
import type { EmulatorState, Project, User } from "../../state";
import { canReadVulnerabilities, sortedBySeverity } from "./routes";
import { findingBlobPath, findingState, securityReportsStore, type FindingRecord, type SecurityPipelineRecord } from "./model";

export const securityReportsSdl = /* GraphQL */ `
  type Query {
    "A project by its full path; null when the caller cannot see it."
    project(fullPath: ID!): Project
  }

  type Project {
    id: ID!
    fullPath: ID!
    name: String!
    "A pipeline by global id, iid, sha or ref (its last pipeline); one of them is required."
    pipeline(id: CiPipelineID, iid: ID, sha: String, ref: String): Pipeline
    "The project's pipelines, newest first."
    pipelines(ref: String, sha: String, first: Int, after: String): PipelineConnection
  }

  type PipelineConnection {
    nodes: [Pipeline]
    pageInfo: PageInfo!
  }

  "A pipeline's global id: gid://gitlab/Ci::Pipeline/<id>."
  scalar CiPipelineID

  type Pipeline {
    id: ID!
    iid: String!
    sha: String
    ref: String
    securityReportFindings(
      reportType: [String!]
      severity: [String!]
      scanner: [String!]
      state: [VulnerabilityState!]
      first: Int
      after: String
    ): PipelineSecurityReportFindingConnection
  }

  enum VulnerabilityState { DETECTED CONFIRMED RESOLVED DISMISSED }
  enum VulnerabilitySeverity { INFO UNKNOWN LOW MEDIUM HIGH CRITICAL }
  enum VulnerabilityReportType { SAST DAST DEPENDENCY_SCANNING CONTAINER_SCANNING }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type PipelineSecurityReportFindingConnection {
    nodes: [PipelineSecurityReportFinding]
    edges: [PipelineSecurityReportFindingEdge]
    pageInfo: PageInfo!
  }

  type PipelineSecurityReportFindingEdge {
    cursor: String!
    node: PipelineSecurityReportFinding
  }

  type PipelineSecurityReportFinding {
    uuid: String
    title: String
    description: String
    severity: VulnerabilitySeverity
    state: VulnerabilityState
    reportType: VulnerabilityReportType
    falsePositive: Boolean
    solution: String
    scanner: VulnerabilityScanner
    identifiers: [VulnerabilityIdentifier!]!
    location: VulnerabilityLocation
    remediations: [VulnerabilityRemediationType!]
    evidence: VulnerabilityEvidence
    links: [VulnerabilityLink!]
    "The vulnerability record, once the finding was ingested on the default branch."
    vulnerability: Vulnerability
  }

  type Vulnerability {
    "gid://gitlab/Vulnerability/<id>"
    id: ID!
  }

  type VulnerabilityScanner {
    externalId: String
    name: String
    vendor: String
    reportType: VulnerabilityReportType
  }

  type VulnerabilityIdentifier {
    externalType: String
    externalId: String
    name: String
    url: String
  }

  union VulnerabilityLocation =
      VulnerabilityLocationSast
    | VulnerabilityLocationDependencyScanning
    | VulnerabilityLocationDast
    | VulnerabilityLocationContainerScanning

  type VulnerabilityLocationSast {
    file: String
    startLine: String
    endLine: String
    vulnerableClass: String
    vulnerableMethod: String
    blobPath: String
  }

  type VulnerabilityLocationDependencyScanning {
    file: String
    blobPath: String
  }

  type VulnerabilityLocationDast {
    hostname: String
    path: String
    param: String
    requestMethod: String
  }

  type VulnerabilityLocationContainerScanning {
    image: String
    operatingSystem: String
  }

  type VulnerabilityRemediationType {
    summary: String
    diff: String
  }

  type VulnerabilityEvidence {
    summary: String
  }

  type VulnerabilityLink {
    name: String
    url: String!
  }
`;

type Node = Record<string, unknown>;
const MAX_PAGE_SIZE = 100;
const cursorOf = (index: number) => Buffer.from(JSON.stringify({ index })).toString("base64");

function indexAfter(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const { index } = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { index?: unknown };
    if (typeof index === "number") return index + 1;
  } catch {
    // An unreadable cursor is refused below, as the real server refuses it.
  }
  throw new Error("Please provide a valid cursor");
}

/** A list as a GraphQL connection: `first` (at most 100, default 100) items after `after`. */
function connection(items: Node[], args: { first?: number | null; after?: string | null }): Node {
  const start = indexAfter(args.after ?? undefined);
  const size = Math.min(args.first ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
  const page = items.slice(start, start + Math.max(size, 0));
  const edges = page.map((node, offset) => ({ cursor: cursorOf(start + offset), node }));
  return {
    nodes: page,
    edges,
    pageInfo: {
      hasNextPage: start + page.length < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

function presentLocation(finding: FindingRecord, blobPath: string): Node {
  const { file, startLine, class: vulnerableClass, method } = finding.location;
  switch (finding.reportType) {
    case "sast":
      return { __typename: "VulnerabilityLocationSast", file, startLine: startLine === null ? null : String(startLine), endLine: null, vulnerableClass, vulnerableMethod: method, blobPath };
    case "dependency_scanning":
      return { __typename: "VulnerabilityLocationDependencyScanning", file, blobPath };
    case "dast":
      return { __typename: "VulnerabilityLocationDast", hostname: file, path: null, param: null, requestMethod: null };
    case "container_scanning":
      return { __typename: "VulnerabilityLocationContainerScanning", image: file, operatingSystem: null };
  }
}

const upper = (value: string) => value.toUpperCase();

function presentFindingNode(finding: FindingRecord, pipeline: SecurityPipelineRecord, projectPath: string): Node {
  return {
    uuid: finding.uuid,
    title: finding.name,
    description: finding.description,
    severity: upper(finding.severity),
    state: upper(findingState(finding)),
    reportType: upper(finding.reportType),
    falsePositive: finding.falsePositive,
    solution: finding.solution,
    scanner: { ...finding.scanner, reportType: upper(finding.reportType) },
    identifiers: finding.identifiers,
    location: presentLocation(finding, findingBlobPath(finding, pipeline, projectPath)),
    remediations: finding.remediations,
    evidence: finding.evidence,
    links: finding.links.map((link) => ({ name: link.name ?? null, url: link.url })),
    vulnerability: finding.vulnerabilityId === null ? null : { id: `gid://gitlab/Vulnerability/${finding.vulnerabilityId}` },
  };
}

interface FindingArgs {
  reportType?: string[] | null;
  severity?: string[] | null;
  scanner?: string[] | null;
  state?: string[] | null;
  first?: number | null;
  after?: string | null;
}

function findingsOf(state: EmulatorState, user: User | null, project: Project, pipeline: SecurityPipelineRecord, args: FindingArgs): Node {
  const visible = canReadVulnerabilities(state, user, project);
  const states = args.state ?? ["DETECTED", "CONFIRMED", "RESOLVED"];
  const findings = securityReportsStore
    .of(state)
    .findings.filter(
      (finding) =>
        visible &&
        finding.pipelineId === pipeline.id &&
        (!args.reportType || args.reportType.includes(finding.reportType)) &&
        (!args.severity || args.severity.includes(finding.severity)) &&
        (!args.scanner || args.scanner.includes(finding.scanner.externalId)) &&
        states.includes(upper(findingState(finding))),
    );
  const projectPath = state.projectFullPath(project);
  return connection(sortedBySeverity(findings).map((finding) => presentFindingNode(finding, pipeline, projectPath)), args);
}

function presentPipeline(state: EmulatorState, user: User | null, project: Project, pipeline: SecurityPipelineRecord): Node {
  return {
    id: `gid://gitlab/Ci::Pipeline/${pipeline.id}`,
    iid: String(pipeline.id),
    sha: pipeline.sha,
    ref: pipeline.ref,
    securityReportFindings: (args: FindingArgs) => findingsOf(state, user, project, pipeline, args),
  };
}

type PipelineArgs = { id?: string | null; iid?: string | null; sha?: string | null; ref?: string | null };

/** The pipeline the arguments name; none of them given is the error the real resolver's validation gives. */
function pipelineOf(state: EmulatorState, project: Project, args: PipelineArgs): SecurityPipelineRecord | undefined {
  if (!["id", "iid", "sha", "ref"].some((key) => key in args)) throw new Error("Provide one of ID, IID or SHA");
  const pipelines = projectPipelines(state, project);
  if (args.id) {
    const id = /^gid:\/\/gitlab\/Ci::Pipeline\/(\d+)$/.exec(args.id)?.[1];
    if (id === undefined) throw new Error(`${args.id} is not a valid ID for Ci::Pipeline.`);
    return pipelines.find((p) => String(p.id) === id);
  }
  if (args.iid) return pipelines.find((p) => String(p.id) === args.iid);
  if (args.ref) {
    const ref = args.ref === "HEAD" ? project.defaultBranch : args.ref.replace(/^refs\/heads\//, "");
    return pipelines.find((p) => p.ref === ref && (!args.sha || p.sha === args.sha));
  }
  if (args.sha) return pipelines.find((p) => p.sha === args.sha);
  return undefined;
}

/** A project's pipelines, newest first. */
const projectPipelines = (state: EmulatorState, project: Project): SecurityPipelineRecord[] =>
  securityReportsStore
    .of(state)
    .pipelines.filter((p) => p.projectId === project.id)
    .sort((a, b) => b.id - a.id);

/** The root of a query by `user` (null: anonymous). */
export function securityReportsRoot(state: EmulatorState, user: User | null): Node {
  return {
    project: ({ fullPath }: { fullPath: string }) => {
      const project = state.projectByFullPath(fullPath);
      if (!project || !canReadProject(state, user, project)) return null;
      return {
        id: `gid://gitlab/Project/${project.id}`,
        fullPath: state.projectFullPath(project),
        name: project.name,
        pipeline: (args: PipelineArgs) => {
          const pipeline = pipelineOf(state, project, args);
          return pipeline ? presentPipeline(state, user, project, pipeline) : null;
        },
        pipelines: (args: { ref?: string | null; sha?: string | null; first?: number | null; after?: string | null }) =>
          connection(
            projectPipelines(state, project)
              .filter((p) => (!args.ref || p.ref === args.ref) && (!args.sha || p.sha === args.sha))
              .map((p) => presentPipeline(state, user, project, p)),
            args,
          ),
      };
    },
  };
}
