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
  type FindingRecord,
  type SecurityPipelineRecord,
} from "./model";

const named = z.string({ error: "must be a non-empty string" }).min(1, "must be a non-empty string");
const text = z.string({ error: "must be a string" });
const optionalText = text.nullable().default(null);
const integer = z.number({ error: "must be an integer" }).int("must be an integer");
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(", ")}` });
const entry = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, { error: "must be an object" });
const listOf = <T extends z.ZodType>(item: T) => z.array(item, { error: "must be an array" }).default([]);

const seedFinding = entry({
  reportType: oneOf(REPORT_TYPES),
  name: named,
  severity: oneOf(SEVERITIES),
  /** Default derived from the project, report type, name and location. */
  uuid: text.optional(),
  identifiers: listOf(entry({ externalType: named, externalId: named, name: named, url: optionalText })),
  location: entry({ file: optionalText, startLine: integer.nullable().default(null), class: optionalText, method: optionalText }).prefault({}),
  /** Default the report type's own scanner. */
  scanner: entry({ externalId: named, name: named, vendor: named.default("GitLab") }).optional(),
  vulnerabilityId: z.number({ error: "must be an integer or null" }).int("must be an integer or null").nullable().default(null),
  description: optionalText,
  solution: optionalText,
  falsePositive: z.boolean({ error: "must be a boolean" }).default(false),
  state: oneOf(FINDING_STATES).default("detected"),
  links: listOf(entry({ url: named, name: optionalText }).transform(({ url, name }) => (name === null ? { url } : { url, name }))),
  remediations: listOf(entry({ summary: named, diff: named })),
  evidence: entry({ summary: named }).nullable().default(null),
  dismissed: z.boolean({ error: "must be a boolean" }).default(false),
  /** A username. */
  dismissedBy: optionalText,
  dismissalReason: optionalText,
  dismissalComment: optionalText,
});
type SeedFinding = z.output<typeof seedFinding>;

const seedPipeline = entry({
  id: integer.optional(),
  /** Default the project's default branch. */
  ref: named.optional(),
  /** Default the project's last commit. */
  sha: named.optional(),
  /** Default: a day apart, the first a day after the project's creation. */
  createdAt: named.refine((time) => !Number.isNaN(Date.parse(time)), "must be an ISO 8601 time").optional(),
  findings: listOf(seedFinding),
});
type SeedPipeline = z.output<typeof seedPipeline>;

const seedDependency = entry({
  name: named,
  version: named,
  packageManager: oneOf(PACKAGE_MANAGERS),
  path: named,
  licenses: listOf(entry({ name: named, url: optionalText })),
  vulnerabilities: listOf(entry({ id: integer.optional(), name: named, severity: oneOf(SEVERITIES) })),
});
type SeedDependency = z.output<typeof seedDependency>;

/** The section: per project, its security-report pipelines with their findings, and its dependencies. */
export const securityReportsSeedSchema = keyedSection(
  "project full path",
  z.strictObject({ pipelines: listOf(seedPipeline), dependencies: listOf(seedDependency) }, { error: "must be an object" }),
);

/** A stable UUID (version 5 layout) from the finding's identity, as the real server derives it from its fingerprint. */
export function findingUuid(...parts: string[]): string {
  const hex = createHash("sha1").update(parts.join("\u0000")).digest("hex");
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function dismissalOf(state: EmulatorState, finding: SeedFinding, createdAt: string, where: string): FindingRecord["dismissal"] {
  if (!finding.dismissed) return null;
  const username = finding.dismissedBy;
  const author = username === null ? undefined : state.userByUsername(username);
  if (username !== null && !author) throw new SeedError(`${where}.dismissedBy names unknown user ${username}`);
  return { id: state.nextId(FEEDBACK_SEQUENCE), authorId: author?.id ?? null, reason: finding.dismissalReason, comment: finding.dismissalComment, createdAt };
}

function findingOf(state: EmulatorState, finding: SeedFinding, pipeline: SecurityPipelineRecord, where: string): FindingRecord {
  const { reportType, name, location, vulnerabilityId } = finding;
  if (vulnerabilityId !== null) state.reserveId(VULNERABILITY_SEQUENCE, vulnerabilityId);
  return {
    pipelineId: pipeline.id,
    projectId: pipeline.projectId,
    vulnerabilityId,
    uuid: finding.uuid ?? findingUuid(String(pipeline.projectId), reportType, name, location.file ?? "", String(location.startLine ?? "")),
    reportType,
    name,
    severity: finding.severity,
    scanner: finding.scanner ?? DEFAULT_SCANNERS[reportType],
    identifiers: finding.identifiers,
    location,
    description: finding.description,
    solution: finding.solution,
    falsePositive: finding.falsePositive,
    state: finding.state,
    links: finding.links,
    remediations: finding.remediations,
    evidence: finding.evidence,
    dismissal: dismissalOf(state, finding, pipeline.createdAt, where),
  };
}

function addPipeline(state: EmulatorState, project: Project, seed: SeedPipeline, index: number, where: string): void {
  const store = securityReportsStore.of(state);
  if (seed.id !== undefined && store.pipelines.some((p) => p.id === seed.id)) throw new SeedError(`${where}.id ${seed.id} is used twice`);
  const id = seed.id ?? state.nextId(PIPELINE_SEQUENCE);
  if (seed.id !== undefined) state.reserveId(PIPELINE_SEQUENCE, seed.id);
  // Seeded pipelines ran a day apart, the last one a day after the project's creation.
  const fallbackCreatedAt = new Date(Date.parse(project.createdAt) + (index + 1) * 86_400_000).toISOString();
  const pipeline: SecurityPipelineRecord = {
    id,
    projectId: project.id,
    ref: seed.ref ?? project.defaultBranch,
    sha: seed.sha ?? project.lastCommitSha ?? "0".repeat(40),
    createdAt: new Date(seed.createdAt ?? fallbackCreatedAt).toISOString(),
  };
  store.pipelines.push(pipeline);
  seed.findings.forEach((finding, findingIndex) => store.findings.push(findingOf(state, finding, pipeline, `${where}.findings[${findingIndex}]`)));
}

function dependencyOf(state: EmulatorState, project: Project, seed: SeedDependency): DependencyRecord {
  const vulnerabilities = seed.vulnerabilities.map(({ id, name, severity }) => {
    if (id !== undefined) state.reserveId(VULNERABILITY_SEQUENCE, id);
    return { id: id ?? state.nextId(VULNERABILITY_SEQUENCE), name, severity };
  });
  return { projectId: project.id, name: seed.name, version: seed.version, packageManager: seed.packageManager, path: seed.path, licenses: seed.licenses, vulnerabilities };
}

/** Fills the store from the `securityReports` section. */
export function applySecurityReportsSeed(state: EmulatorState, section: z.output<typeof securityReportsSeedSchema> | undefined): void {
  if (section === undefined) return;
  for (const [fullPath, entry] of Object.entries(section)) {
    const where = `securityReports["${fullPath}"]`;
    const project = state.projectByFullPath(fullPath);
    if (!project) throw new SeedError(`${where}: unknown project ${fullPath}`);
    entry.pipelines.forEach((pipeline, index) => addPipeline(state, project, pipeline, index, `${where}.pipelines[${index}]`));
    const dependencies = entry.dependencies.map((dependency) => dependencyOf(state, project, dependency));
    securityReportsStore.of(state).dependencies.push(...dependencies);
  }
}
