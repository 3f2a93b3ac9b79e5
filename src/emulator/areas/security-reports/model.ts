/**
 * The model behind the security report endpoints: security pipelines with their vulnerability findings, and each
 * project's dependency list, plus the `securityReports` seed section that
 * fills them and the presenters that turn records into API answers.
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
import { createHash } from "node:crypto";
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
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

/** Shared with routes/pipeline-schedules.ts: pipeline ids are global on the real server. */
const PIPELINE_SEQUENCE = "ci_pipelines";
const VULNERABILITY_SEQUENCE = "vulnerabilities";
const FEEDBACK_SEQUENCE = "vulnerability_feedback";

/** Scanners GitLab's own analyzers report, used when a seeded finding names none. */
const DEFAULT_SCANNERS: Record<ReportType, Scanner> = {
  sast: { externalId: "semgrep", name: "Semgrep", vendor: "GitLab" },
  dast: { externalId: "zaproxy", name: "OWASP Zed Attack Proxy (ZAP)", vendor: "GitLab" },
  dependency_scanning: { externalId: "gemnasium", name: "Gemnasium", vendor: "GitLab" },
  container_scanning: { externalId: "trivy", name: "Trivy", vendor: "GitLab" },
};

// ---------------------------------------------------------------------------
// Seed reading

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function objectAt(value: unknown, where: string): Json {
  if (!isObject(value)) throw new SeedError(`${where} must be an object`);
  return value;
}

function listAt(value: unknown, where: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new SeedError(`${where} must be an array`);
  return value;
}

function stringAt(record: Json, key: string, where: string, fallback?: string): string {
  const value = record[key];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== "string" || value === "") throw new SeedError(`${where}.${key} must be a non-empty string`);
  return value;
}

function nullableStringAt(record: Json, key: string, where: string): string | null {
  const value = record[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new SeedError(`${where}.${key} must be a string`);
  return value;
}

function oneOf<T extends string>(allowed: readonly T[], record: Json, key: string, where: string, fallback?: T): T {
  const value = record[key] ?? fallback;
  if (!allowed.includes(value as T)) throw new SeedError(`${where}.${key} must be one of ${allowed.join(", ")}`);
  return value as T;
}

/** A stable UUID (version 5 layout) from the finding's identity, as the real server derives it from its fingerprint. */
export function findingUuid(...parts: string[]): string {
  const hex = createHash("sha1").update(parts.join("\u0000")).digest("hex");
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function readIdentifiers(value: unknown, where: string): Identifier[] {
  return listAt(value, where).map((item, index) => {
    const at = `${where}[${index}]`;
    const record = objectAt(item, at);
    return {
      externalType: stringAt(record, "externalType", at),
      externalId: stringAt(record, "externalId", at),
      name: stringAt(record, "name", at),
      url: nullableStringAt(record, "url", at),
    };
  });
}

function readLocation(value: unknown, where: string): FindingLocation {
  const record = value === undefined ? {} : objectAt(value, where);
  const startLine = record["startLine"];
  if (startLine !== undefined && !Number.isInteger(startLine)) throw new SeedError(`${where}.startLine must be an integer`);
  return {
    file: nullableStringAt(record, "file", where),
    startLine: (startLine as number | undefined) ?? null,
    class: nullableStringAt(record, "class", where),
    method: nullableStringAt(record, "method", where),
  };
}

function readScanner(value: unknown, reportType: ReportType, where: string): Scanner {
  if (value === undefined) return DEFAULT_SCANNERS[reportType];
  const record = objectAt(value, where);
  return {
    externalId: stringAt(record, "externalId", where),
    name: stringAt(record, "name", where),
    vendor: stringAt(record, "vendor", where, "GitLab"),
  };
}

function readDismissal(state: EmulatorState, record: Json, createdAt: string, where: string): FindingRecord["dismissal"] {
  if (record["dismissed"] === undefined || record["dismissed"] === false) return null;
  if (record["dismissed"] !== true) throw new SeedError(`${where}.dismissed must be a boolean`);
  const username = nullableStringAt(record, "dismissedBy", where);
  const author = username === null ? undefined : state.userByUsername(username);
  if (username !== null && !author) throw new SeedError(`${where}.dismissedBy names unknown user ${username}`);
  return {
    id: state.nextId(FEEDBACK_SEQUENCE),
    authorId: author?.id ?? null,
    reason: nullableStringAt(record, "dismissalReason", where),
    comment: nullableStringAt(record, "dismissalComment", where),
    createdAt,
  };
}

function readRemediations(value: unknown, where: string): FindingRecord["remediations"] {
  return listAt(value, where).map((remediation, index) => {
    const at = `${where}[${index}]`;
    const record = objectAt(remediation, at);
    return { summary: stringAt(record, "summary", at), diff: stringAt(record, "diff", at) };
  });
}

function readFinding(state: EmulatorState, value: unknown, pipeline: SecurityPipelineRecord, where: string): FindingRecord {
  const record = objectAt(value, where);
  const reportType = oneOf(REPORT_TYPES, record, "reportType", where);
  const name = stringAt(record, "name", where);
  const identifiers = readIdentifiers(record["identifiers"], `${where}.identifiers`);
  const location = readLocation(record["location"], `${where}.location`);
  const vulnerabilityId = record["vulnerabilityId"];
  if (vulnerabilityId !== undefined && vulnerabilityId !== null && !Number.isInteger(vulnerabilityId)) {
    throw new SeedError(`${where}.vulnerabilityId must be an integer or null`);
  }
  if (typeof vulnerabilityId === "number") state.reserveId(VULNERABILITY_SEQUENCE, vulnerabilityId);
  const links = listAt(record["links"], `${where}.links`).map((link, index) => {
    const at = `${where}.links[${index}]`;
    const linkRecord = objectAt(link, at);
    const linkName = nullableStringAt(linkRecord, "name", at);
    return { url: stringAt(linkRecord, "url", at), ...(linkName === null ? {} : { name: linkName }) };
  });
  return {
    pipelineId: pipeline.id,
    projectId: pipeline.projectId,
    vulnerabilityId: (vulnerabilityId as number | null | undefined) ?? null,
    uuid: typeof record["uuid"] === "string"
      ? record["uuid"]
      : findingUuid(String(pipeline.projectId), reportType, name, location.file ?? "", String(location.startLine ?? "")),
    reportType,
    name,
    severity: oneOf(SEVERITIES, record, "severity", where),
    scanner: readScanner(record["scanner"], reportType, `${where}.scanner`),
    identifiers,
    location,
    description: nullableStringAt(record, "description", where),
    solution: nullableStringAt(record, "solution", where),
    falsePositive: record["falsePositive"] === true,
    state: oneOf(FINDING_STATES, record, "state", where, "detected"),
    links,
    remediations: readRemediations(record["remediations"], `${where}.remediations`),
    evidence: record["evidence"] === undefined ? null : { summary: stringAt(objectAt(record["evidence"], `${where}.evidence`), "summary", `${where}.evidence`) },
    dismissal: readDismissal(state, record, pipeline.createdAt, where),
  };
}

function readPipeline(state: EmulatorState, project: Project, value: unknown, index: number, where: string): void {
  const record = objectAt(value, where);
  const store = securityReportsStore.of(state);
  const givenId = record["id"];
  if (givenId !== undefined && !Number.isInteger(givenId)) throw new SeedError(`${where}.id must be an integer`);
  if (typeof givenId === "number" && store.pipelines.some((p) => p.id === givenId)) {
    throw new SeedError(`${where}.id ${givenId} is used twice`);
  }
  const id = typeof givenId === "number" ? givenId : state.nextId(PIPELINE_SEQUENCE);
  if (typeof givenId === "number") state.reserveId(PIPELINE_SEQUENCE, givenId);
  // Seeded pipelines ran a day apart, the last one a day after the project's creation.
  const fallbackCreatedAt = new Date(Date.parse(project.createdAt) + (index + 1) * 86_400_000).toISOString();
  const pipeline: SecurityPipelineRecord = {
    id,
    projectId: project.id,
    ref: stringAt(record, "ref", where, project.defaultBranch),
    sha: stringAt(record, "sha", where, project.lastCommitSha ?? "0".repeat(40)),
    createdAt: new Date(stringAt(record, "createdAt", where, fallbackCreatedAt)).toISOString(),
  };
  store.pipelines.push(pipeline);
  listAt(record["findings"], `${where}.findings`).forEach((finding, findingIndex) => {
    store.findings.push(readFinding(state, finding, pipeline, `${where}.findings[${findingIndex}]`));
  });
}

function readDependency(state: EmulatorState, project: Project, value: unknown, where: string): DependencyRecord {
  const record = objectAt(value, where);
  const licenses = listAt(record["licenses"], `${where}.licenses`).map((license, index) => {
    const at = `${where}.licenses[${index}]`;
    const licenseRecord = objectAt(license, at);
    return { name: stringAt(licenseRecord, "name", at), url: nullableStringAt(licenseRecord, "url", at) };
  });
  const vulnerabilities = listAt(record["vulnerabilities"], `${where}.vulnerabilities`).map((vulnerability, index) => {
    const at = `${where}.vulnerabilities[${index}]`;
    const vulnerabilityRecord = objectAt(vulnerability, at);
    const givenId = vulnerabilityRecord["id"];
    if (givenId !== undefined && !Number.isInteger(givenId)) throw new SeedError(`${at}.id must be an integer`);
    if (typeof givenId === "number") state.reserveId(VULNERABILITY_SEQUENCE, givenId);
    return {
      id: typeof givenId === "number" ? givenId : state.nextId(VULNERABILITY_SEQUENCE),
      name: stringAt(vulnerabilityRecord, "name", at),
      severity: oneOf(SEVERITIES, vulnerabilityRecord, "severity", at),
    };
  });
  return {
    projectId: project.id,
    name: stringAt(record, "name", where),
    version: stringAt(record, "version", where),
    packageManager: oneOf(PACKAGE_MANAGERS, record, "packageManager", where),
    path: stringAt(record, "path", where),
    licenses,
    vulnerabilities,
  };
}

/** The section's shape; a pipeline's and a dependency's fields are read above, where their rules live. */
export const securityReportsSeedSchema = keyedSection(
  "project full path",
  z.strictObject(
    {
      pipelines: z.array(z.unknown(), { error: "must be an array" }).default([]),
      dependencies: z.array(z.unknown(), { error: "must be an array" }).default([]),
    },
    { error: "must be an object" },
  ),
);

/** Fills the store from the `securityReports` section. */
export function applySecurityReportsSeed(state: EmulatorState, section: z.infer<typeof securityReportsSeedSchema> | undefined): void {
  if (section === undefined) return;
  for (const [fullPath, entry] of Object.entries(section)) {
    const where = `securityReports["${fullPath}"]`;
    const project = state.projectByFullPath(fullPath);
    if (!project) throw new SeedError(`${where}: unknown project ${fullPath}`);
    entry.pipelines.forEach((pipeline, index) => readPipeline(state, project, pipeline, index, `${where}.pipelines[${index}]`));
    const dependencies = entry.dependencies.map((dependency, index) => readDependency(state, project, dependency, `${where}.dependencies[${index}]`));
    securityReportsStore.of(state).dependencies.push(...dependencies);
  }
}

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
