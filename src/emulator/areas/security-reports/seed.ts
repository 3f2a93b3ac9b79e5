/** The `securityReports` seed section: pipelines with their findings, and dependencies, per project. */
import { createHash } from "node:crypto";
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import { type EmulatorState, type Project } from "../../state";
import {
  DEFAULT_SCANNERS,
  FEEDBACK_SEQUENCE,
  FINDING_STATES,
  PACKAGE_MANAGERS,
  PIPELINE_SEQUENCE,
  REPORT_TYPES,
  SEVERITIES,
  VULNERABILITY_SEQUENCE,
  securityReportsStore,
  type DependencyRecord,
  type Json,
  type FindingLocation,
  type FindingRecord,
  type Identifier,
  type ReportType,
  type Scanner,
  type SecurityPipelineRecord,
} from "./model";


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
