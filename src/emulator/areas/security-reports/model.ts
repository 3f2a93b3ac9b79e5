/**
 * The model behind the security report endpoints: security pipelines with their vulnerability findings, and each
 * project's dependency list (the `securityReports` seed section that
 * fills them is read in seed.ts), and the presenters that turn records into API answers.
 *
 * Seed section (keys are project full paths):
 *
 *     "securityReports": {
 *       "acme/web": {
 *         "pipelines": [
 *           { "id": 501, "ref": "main", "findings": [
 *             { "reportType": "sast", "name": "SQL injection", "severity": "high",
 *               "location": { "file": "app/db.js", "startLine": 12 },
 *               "identifiers": [{ "externalType": "cwe", "externalId": "89", "name": "CWE-89" }],
 *               "dismissed": true, "dismissedBy": "alice", "dismissalReason": "false_positive" },
 *             { "reportType": "dependency_scanning", "name": "Prototype pollution", "severity": "high",
 *               "state": "confirmed", "remediations": [{ "summary": "Upgrade", "diff": "<base64>" }],
 *               "evidence": { "summary": "lodash 4.17.20 is resolved" } } ] } ],
 *         "dependencies": [
 *           { "name": "lodash", "version": "4.17.20", "packageManager": "npm", "path": "package-lock.json",
 *             "licenses": [{ "name": "MIT", "url": "https://opensource.org/licenses/MIT" }],
 *             "vulnerabilities": [{ "name": "Prototype pollution", "severity": "high" }] } ]
 *       }
 *     }
 *
 * Pipelines are listed oldest first; ids are optional (taken from the same
 * `ci_pipelines` sequence as the pipeline-schedules area, so they never clash).
 */
import { defineStore, type EmulatorState, type Project, type User } from "../../state";

/** The four report types of the REST API. */
export const REPORT_TYPES = ["sast", "dast", "dependency_scanning", "container_scanning"] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Vulnerabilities::Finding.severities, lowest first (the real finder sorts by severity, highest first). */
export const SEVERITIES = ["info", "unknown", "low", "medium", "high", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The package managers a dependency list may be filtered by (Sbom::DependenciesFinder::FILTER_PACKAGE_MANAGERS_VALUES). */
export const PACKAGE_MANAGERS = [
  "bundler", "composer", "conan", "go", "gradle", "maven", "npm",
  "nuget", "pip", "pipenv", "pnpm", "yarn", "sbt", "setuptools",
] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

/** States of a finding besides `dismissed` (which the dismissal record says). */
export const FINDING_STATES = ["detected", "confirmed", "resolved"] as const;
export type FindingState = (typeof FINDING_STATES)[number];

export interface Scanner {
  externalId: string;
  name: string;
  vendor: string;
}

export interface Identifier {
  externalType: string;
  externalId: string;
  name: string;
  url: string | null;
}

export interface FindingLocation {
  file: string | null;
  startLine: number | null;
  class: string | null;
  method: string | null;
}

export interface SecurityPipelineRecord {
  id: number;
  projectId: number;
  ref: string;
  sha: string;
  createdAt: string;
}

export interface FindingRecord {
  pipelineId: number;
  projectId: number;
  /** The vulnerability record's id once the finding was ingested on the default branch; null before (the API documentation's "integer or null"). */
  vulnerabilityId: number | null;
  uuid: string;
  reportType: ReportType;
  name: string;
  severity: Severity;
  scanner: Scanner;
  identifiers: Identifier[];
  location: FindingLocation;
  description: string | null;
  solution: string | null;
  falsePositive: boolean;
  /** The state of a finding not dismissed (`detected` unless the seed says `confirmed` or `resolved`). */
  state: FindingState;
  links: { url: string; name?: string }[];
  remediations: { summary: string; diff: string }[];
  evidence: { summary: string } | null;
  /** Present for a dismissed finding. */
  dismissal: { id: number; authorId: number | null; reason: string | null; comment: string | null; createdAt: string } | null;
}

export interface DependencyRecord {
  projectId: number;
  name: string;
  version: string;
  packageManager: PackageManager;
  path: string;
  licenses: { name: string; url: string | null }[];
  vulnerabilities: { id: number; name: string; severity: Severity }[];
}

export interface SecurityReportsStore {
  pipelines: SecurityPipelineRecord[];
  findings: FindingRecord[];
  dependencies: DependencyRecord[];
}

export const securityReportsStore = defineStore(
  "securityReports",
  (): SecurityReportsStore => ({ pipelines: [], findings: [], dependencies: [] }),
);

/** Shared with ../pipeline-schedules/model.ts: pipeline ids are global on the real server. */
export const PIPELINE_SEQUENCE = "ci_pipelines";
export const VULNERABILITY_SEQUENCE = "vulnerabilities";
export const FEEDBACK_SEQUENCE = "vulnerability_feedback";

export type Json = Record<string, unknown>;

/** Scanners GitLab's own analyzers report, used when a seeded finding names none. */
export const DEFAULT_SCANNERS: Record<ReportType, Scanner> = {
  sast: { externalId: "semgrep", name: "Semgrep", vendor: "GitLab" },
  dast: { externalId: "zaproxy", name: "OWASP Zed Attack Proxy (ZAP)", vendor: "GitLab" },
  dependency_scanning: { externalId: "gemnasium", name: "Gemnasium", vendor: "GitLab" },
  container_scanning: { externalId: "trivy", name: "Trivy", vendor: "GitLab" },
};


// ---------------------------------------------------------------------------
// Presenters

const webBase = (state: EmulatorState): string => `https://${state.instance.host}`;

/** The finding entity's `project`: `full_path` with a leading slash, as in the documentation's example. */
function presentFindingProject(state: EmulatorState, project: Project): Json {
  const group = state.namespaceOf(project);
  return {
    id: project.id,
    name: project.name,
    full_path: `/${state.projectFullPath(project)}`,
    full_name: `${state.groupFullName(group)} / ${project.name}`,
  };
}

function presentAuthor(state: EmulatorState, user: User | undefined): Json | null {
  if (!user) return null;
  return { id: user.id, username: user.username, name: user.name, state: "active", web_url: `${webBase(state)}/${user.username}` };
}

function presentDismissal(state: EmulatorState, finding: FindingRecord, pipeline: SecurityPipelineRecord, projectPath: string): Json | null {
  const { dismissal } = finding;
  if (!dismissal) return null;
  const author = dismissal.authorId === null ? undefined : state.userById(dismissal.authorId);
  return {
    id: dismissal.id,
    created_at: dismissal.createdAt,
    project_id: finding.projectId,
    author: presentAuthor(state, author),
    comment_details: dismissal.comment === null
      ? null
      : { comment: dismissal.comment, comment_timestamp: dismissal.createdAt, comment_author: presentAuthor(state, author) },
    finding_uuid: finding.uuid,
    pipeline: { id: pipeline.id, path: `/${projectPath}/-/pipelines/${pipeline.id}` },
    category: finding.reportType,
    feedback_type: "dismissal",
    branch: null,
    dismissal_reason: dismissal.reason,
  };
}

/** Every field of the API documentation (Vulnerabilities::FindingEntity). */
/** A finding's state as the REST API names it; GraphQL names it in capitals. */
export const findingState = (finding: FindingRecord): string => (finding.dismissal ? "dismissed" : finding.state);

/** Where a finding's file is shown on the web: empty without a file. */
export const findingBlobPath = (finding: FindingRecord, pipeline: SecurityPipelineRecord, projectPath: string): string =>
  finding.location.file === null ? "" : `/${projectPath}/-/blob/${pipeline.sha}/${finding.location.file}`;

export function presentFinding(state: EmulatorState, finding: FindingRecord, pipeline: SecurityPipelineRecord): Json {
  const project = state.projectById(finding.projectId);
  if (!project) throw new Error(`finding of missing project ${finding.projectId}`);
  const projectPath = state.projectFullPath(project);
  const feedbackPath = `/${projectPath}/-/vulnerability_feedback`;
  const scanEnd = new Date(Date.parse(pipeline.createdAt) + 5 * 60_000).toISOString();
  return {
    id: finding.vulnerabilityId,
    report_type: finding.reportType,
    name: finding.name,
    severity: finding.severity,
    scanner: { external_id: finding.scanner.externalId, name: finding.scanner.name, vendor: finding.scanner.vendor },
    identifiers: finding.identifiers.map((i) => ({ external_type: i.externalType, external_id: i.externalId, name: i.name, url: i.url })),
    uuid: finding.uuid,
    create_jira_issue_url: null,
    false_positive: finding.falsePositive,
    create_vulnerability_feedback_issue_path: feedbackPath,
    create_vulnerability_feedback_merge_request_path: feedbackPath,
    create_vulnerability_feedback_dismissal_path: feedbackPath,
    project: presentFindingProject(state, project),
    dismissal_feedback: presentDismissal(state, finding, pipeline, projectPath),
    issue_feedback: null,
    merge_request_feedback: null,
    description: finding.description,
    links: finding.links,
    location: { file: finding.location.file, start_line: finding.location.startLine, class: finding.location.class, method: finding.location.method },
    remediations: finding.remediations,
    solution: finding.solution,
    evidence: finding.evidence,
    request: null,
    response: null,
    evidence_source: null,
    supporting_messages: [],
    assets: [],
    details: {},
    state: findingState(finding),
    scan: { type: finding.reportType, status: "success", start_time: pipeline.createdAt, end_time: scanEnd },
    blob_path: findingBlobPath(finding, pipeline, projectPath),
  };
}

/** `vulnerabilities` only for users who may read them (the entity's condition). */
export function presentDependency(state: EmulatorState, dependency: DependencyRecord, showVulnerabilities: boolean): Json {
  const project = state.projectById(dependency.projectId);
  const vulnerabilityBase = project ? `${webBase(state)}/${state.projectFullPath(project)}/-/security/vulnerabilities` : "";
  return {
    name: dependency.name,
    version: dependency.version,
    package_manager: dependency.packageManager,
    dependency_file_path: dependency.path,
    ...(showVulnerabilities
      ? {
          vulnerabilities: dependency.vulnerabilities.map((v) => ({
            name: v.name,
            severity: v.severity,
            id: v.id,
            url: `${vulnerabilityBase}/${v.id}`,
          })),
        }
      : {}),
    licenses: dependency.licenses.map((license) => ({ name: license.name, url: license.url })),
  };
}
