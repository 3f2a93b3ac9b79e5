/**
 * Security reports of a project: vulnerability findings and dependencies. Both are Ultimate only and
 * need a signed-in caller; findings need permission on the project's security
 * dashboard, and dependencies show their vulnerabilities only to callers who have it.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { ownerReference } from "../api/owner";
import { defineListFunction, type Camelized } from "./core";

export const REPORT_TYPES = ["sast", "dast", "dependency_scanning", "container_scanning"] as const;
export const SEVERITIES = ["info", "unknown", "low", "medium", "high", "critical"] as const;
export const PACKAGE_MANAGERS = [
  "bundler", "composer", "conan", "go", "gradle", "maven", "npm", "nuget", "pip", "pipenv", "pnpm", "yarn", "sbt", "setuptools",
] as const;

const nullableText = z.string().nullable().optional();

const findingShape = z.looseObject({
  id: z.number().nullable(),
  report_type: z.string(),
  name: z.string(),
  severity: z.string(),
  scanner: z.looseObject({ external_id: z.string(), name: z.string(), vendor: z.string().nullable().optional() }).nullable().optional(),
  identifiers: z.array(z.looseObject({ external_type: z.string(), external_id: z.string(), name: z.string(), url: z.string().nullable().optional() })).optional(),
  uuid: z.string(),
  false_positive: z.boolean().nullable().optional(),
  project: z.looseObject({ id: z.number(), name: z.string(), full_path: z.string(), full_name: z.string() }).optional(),
  description: nullableText,
  solution: nullableText,
  evidence: z.unknown().optional(),
  request: z.unknown().optional(),
  response: z.unknown().optional(),
  evidence_source: z.unknown().optional(),
  links: z.array(z.unknown()).optional(),
  remediations: z.array(z.unknown()).optional(),
  supporting_messages: z.array(z.unknown()).optional(),
  assets: z.array(z.unknown()).optional(),
  /** Scanner-specific details: their keys are kept as the scanner wrote them. */
  details: z.record(z.string(), z.unknown()).nullable().optional(),
  location: z.looseObject({ file: nullableText, start_line: z.number().nullable().optional(), class: nullableText, method: nullableText }).nullable().optional(),
  state: z.string().optional(),
  scan: z.looseObject({ type: z.string(), status: z.string(), start_time: nullableText, end_time: nullableText }).nullable().optional(),
  blob_path: nullableText,
  dismissal_feedback: z.unknown().optional(),
  issue_feedback: z.unknown().optional(),
  merge_request_feedback: z.unknown().optional(),
  create_vulnerability_feedback_issue_path: nullableText,
  create_vulnerability_feedback_merge_request_path: nullableText,
  create_vulnerability_feedback_dismissal_path: nullableText,
});

const dependencyShape = z.looseObject({
  name: z.string(),
  version: z.string(),
  package_manager: z.string(),
  dependency_file_path: z.string(),
  /** Only for callers who may read the security dashboard. */
  vulnerabilities: z.array(z.looseObject({ name: z.string(), severity: z.string(), id: z.number(), url: z.string() })).optional(),
  licenses: z.array(z.looseObject({ name: z.string(), url: z.string().nullable().optional() })).optional(),
});

export type VulnerabilityFinding = Camelized<z.output<typeof findingShape>>;
export type Dependency = Camelized<z.output<typeof dependencyShape>>;

const project = ownerReference;
/** The API documentation's arrays travel comma-separated (`report_type=sast,dast`). */
const commaSeparated = (values: readonly string[] | undefined) => (values === undefined ? undefined : values.join(","));
const tierNote = "Security reports need the Ultimate tier on the project's group (or instance).";
const signedInOnly = () => "this API needs a signed-in caller: check platform:token (or PLATFORM_TOKEN).";

const vulnerabilityFindings = defineListFunction({
  name: "getVulnerabilityFindings",
  args: z.object({
    /** The project (id or full path). */
    project,
    /** Default: all four. */
    reportTypes: z.array(z.enum(REPORT_TYPES)).min(1).optional(),
    /** `dismissed` (the server's default) leaves dismissed findings out; `all` includes them. */
    scope: z.enum(["all", "dismissed"]).optional(),
    /** Default: all severities. */
    severities: z.array(z.enum(SEVERITIES)).min(1).optional(),
    /** One pipeline's findings (default: the latest pipeline of the default branch). */
    pipelineId: z.union([z.number().int().positive(), z.string().regex(/^\d+$/, { message: "must be a pipeline id (digits)" })]).optional(),
  }),
  path: (args) => apiPath`/projects/${args.project}/vulnerability_findings`,
  query: (args) => ({
    report_type: commaSeparated(args.reportTypes),
    scope: args.scope,
    severity: commaSeparated(args.severities),
    pipeline_id: args.pipelineId,
  }),
  subject: (args) => `the vulnerability findings of project ${args.project}`,
  opaque: ["details"],
  refusals: {
    403: () => `The token's user has no access to the project's security dashboard (it needs at least the Developer role), or the project is not on the Ultimate tier. ${tierNote}`,
    401: signedInOnly,
  },
  item: findingShape,
});

/**
 * A project's vulnerability findings, filtered by report type, severity, scope and pipeline.
 *
 * ```ts
 * const critical = await getVulnerabilityFindings({ project: "acme/web", severities: ["critical", "high"] });
 * ```
 */
export const getVulnerabilityFindings = vulnerabilityFindings;
/** `getVulnerabilityFindings` as an Output. */
export const getVulnerabilityFindingsOutput = vulnerabilityFindings.output;

const dependencies = defineListFunction({
  name: "getDependencies",
  args: z.object({
    project,
    /** Only these package managers (default: all). */
    packageManagers: z.array(z.enum(PACKAGE_MANAGERS)).min(1).optional(),
  }),
  path: (args) => apiPath`/projects/${args.project}/dependencies`,
  query: (args) => ({ package_manager: commaSeparated(args.packageManagers) }),
  subject: (args) => `the dependencies of project ${args.project}`,
  refusals: {
    403: () => `The token's user may not read the project's dependency list (it needs access to the repository), or the project is not on the Ultimate tier. ${tierNote}`,
    401: signedInOnly,
  },
  item: dependencyShape,
});

/**
 * A project's dependencies as the dependency scanner found them, with their
 * licences and (for callers with security dashboard access) vulnerabilities.
 *
 * ```ts
 * const npm = await getDependencies({ project: "acme/web", packageManagers: ["npm", "yarn"] });
 * ```
 */
export const getDependencies = dependencies;
/** `getDependencies` as an Output. */
export const getDependenciesOutput = dependencies.output;
