/**
 * Vulnerability findings and project dependencies. The model and the seed
 * section are in security-reports-model.ts.
 *
 * Where the specification is silent, as real servers answer (and as the
 * vulnerability findings and dependencies API documentation describes):
 * - Order of checks, as Grape runs them: `authenticate!` (401 anonymous) →
 *   parameter validation (400 `{"error":"report_type does not have a valid
 *   value"}`) → the project lookup (404 for a private project the caller
 *   cannot see) → `authorize!` (403 `{"message":"403 Forbidden"}`).
 * - The licence: both features are Ultimate. Below Ultimate the policy's
 *   licensed-feature condition is false, so `authorize!` fails: 403, not 404.
 * - Findings need `read_vulnerability` (security_dashboard licensed and
 *   Developer or above; administrators too).
 * - Dependencies need `read_dependency` = dependency_scanning licensed and
 *   `download_code`: Reporter or above on any project, and any user who can
 *   see a public or internal project. `vulnerabilities` is in each dependency
 *   only for callers with `read_vulnerability` (the key is left out for others).
 * - `scope`: the documentation and the finder agree that the default,
 *   `dismissed`, HIDES dismissed findings ("dismissed" names what is
 *   filtered out) and `all` shows them; the emulator does the same.
 * - Array parameters are comma-separated (`CommaSeparatedToArray`) or
 *   repeated `report_type[]=`; each item is checked against the values.
 * - `pipeline_id` names any pipeline of the project; an unknown one gives an
 *   empty list, not a 404 (`all_pipelines.for_id(...).first` is nil). Without
 *   it, the latest pipeline of the default branch with security reports.
 * - Findings come sorted by severity, highest first, as the real
 *   PipelineVulnerabilitiesFinder sorts them; then in report order.
 */
import { canReadProject, hasProjectAccess } from "../../access";
import { forbidden, paramError } from "../../errors";
import { findProject } from "../../lookup";
import { presentBasicProject } from "../projects";
import { readOffsetPageRequest } from "../../pagination";
import type { RawParams } from "../../params";
import { paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Project, type User } from "../../state";
import {
  PACKAGE_MANAGERS,
  presentDependency,
  presentFinding,
  REPORT_TYPES,
  securityReportsStore,
  SEVERITIES,
  type FindingRecord,
  type SecurityPipelineRecord,
} from "./model";

// ---------------------------------------------------------------------------
// Permissions

const isUltimate = (state: EmulatorState, project: Project): boolean =>
  state.tierOf(state.namespaceOf(project)) === "ultimate";

/** `read_vulnerability` / `read_security_resource`: Ultimate, and Developer+ (or an administrator). */
export function canReadVulnerabilities(state: EmulatorState, user: User | null, project: Project): boolean {
  return isUltimate(state, project) && hasProjectAccess(state, user, project, AccessLevel.Developer);
}

/** `download_code`: Reporter+ anywhere; on a public or internal project, whoever may see it. */
function canDownloadCode(state: EmulatorState, user: User | null, project: Project): boolean {
  if (hasProjectAccess(state, user, project, AccessLevel.Reporter)) return true;
  return project.visibility !== "private" && canReadProject(state, user, project);
}

/** `read_dependency`: Ultimate, and `download_code`. */
export function canReadDependencies(state: EmulatorState, user: User | null, project: Project): boolean {
  return isUltimate(state, project) && canDownloadCode(state, user, project);
}

// ---------------------------------------------------------------------------
// Parameters

/**
 * Grape's `Array[String]` with `coerce_with: CommaSeparatedToArray` and
 * `values:`: undefined when absent, otherwise the items, or a problem text.
 */
function readListParam(raw: RawParams, name: string, allowed: readonly string[]): string[] | undefined | { problem: string } {
  const value = raw[name];
  if (value === undefined || value === null) return undefined;
  const parts = typeof value === "string" ? [value] : Array.isArray(value) ? value : undefined;
  if (!parts || !parts.every((part) => typeof part === "string" || typeof part === "number")) {
    return { problem: `${name} is invalid` };
  }
  const items = parts.flatMap((part) => String(part).split(",")).map((item) => item.trim()).filter((item) => item !== "");
  if (!items.every((item) => allowed.includes(item))) return { problem: `${name} does not have a valid value` };
  return items;
}

interface FindingFilters {
  reportTypes: readonly string[];
  severities: readonly string[];
  includeDismissed: boolean;
  pipelineId: string | undefined;
}

/** All of the route's parameter problems at once, joined as Grape joins them. */
function readFindingFilters(raw: RawParams): FindingFilters {
  const problems: string[] = [];
  const list = (name: string, allowed: readonly string[]): readonly string[] => {
    const result = readListParam(raw, name, allowed);
    if (result === undefined) return allowed;
    if ("problem" in result) {
      problems.push(result.problem);
      return allowed;
    }
    return result;
  };
  const reportTypes = list("report_type", REPORT_TYPES);
  const scope = raw["scope"] ?? "dismissed";
  if (scope !== "all" && scope !== "dismissed") {
    problems.push(typeof scope === "string" ? "scope does not have a valid value" : "scope is invalid");
  }
  const severities = list("severity", SEVERITIES);
  const pipelineId = raw["pipeline_id"];
  if (pipelineId !== undefined && typeof pipelineId !== "string" && typeof pipelineId !== "number") {
    problems.push("pipeline_id is invalid");
  }
  if (problems.length > 0) throw paramError(problems.join(", "));
  return {
    reportTypes,
    severities,
    includeDismissed: scope === "all",
    pipelineId: pipelineId === undefined ? undefined : String(pipelineId),
  };
}

// ---------------------------------------------------------------------------
// Routes

/** `pipeline_id` when given (any ref), else `latest_pipeline_with_security_reports` of the default branch. */
export function pipelineFor(state: EmulatorState, project: Project, pipelineId: string | undefined): SecurityPipelineRecord | undefined {
  const pipelines = securityReportsStore.of(state).pipelines.filter((p) => p.projectId === project.id);
  if (pipelineId !== undefined) return pipelines.find((p) => String(p.id) === pipelineId.trim());
  return pipelines
    .filter((p) => p.ref === project.defaultBranch)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id)[0];
}

const severityRank = (finding: FindingRecord): number => SEVERITIES.indexOf(finding.severity);

/** Highest severity first, then in report order (PipelineVulnerabilitiesFinder's order). */
export const sortedBySeverity = (findings: readonly FindingRecord[]): FindingRecord[] =>
  findings
    .map((finding, order) => ({ finding, order }))
    .sort((a, b) => severityRank(b.finding) - severityRank(a.finding) || a.order - b.order)
    .map(({ finding }) => finding);

/** Authentication, then parameters, then the project: the order Grape checks them in. */
function authenticatedProject<T>(ctx: RequestContext<unknown>, readParams: () => T): { project: Project; params: T } {
  requireUser(ctx);
  const params = readParams();
  readOffsetPageRequest(ctx.rawParams);
  return { project: findProject(ctx), params };
}

const idParam = { id: { type: "string", required: true } } as const;

const listFindings = route("GET", "/projects/:id/vulnerability_findings", { params: idParam }, (ctx) => {
  const { project, params: filters } = authenticatedProject(ctx, () => readFindingFilters(ctx.rawParams));
  if (!canReadVulnerabilities(ctx.state, ctx.user, project)) throw forbidden();
  const pipeline = pipelineFor(ctx.state, project, filters.pipelineId);
  const findings = pipeline
    ? sortedBySeverity(
        securityReportsStore
          .of(ctx.state)
          .findings.filter(
            (finding) =>
              finding.pipelineId === pipeline.id &&
              filters.reportTypes.includes(finding.reportType) &&
              filters.severities.includes(finding.severity) &&
              (filters.includeDismissed || finding.dismissal === null),
          ),
      )
    : [];
  return paginate(ctx, findings, { present: (finding) => presentFinding(ctx.state, finding, pipeline!) });
});

const listDependencies = route("GET", "/projects/:id/dependencies", { params: idParam }, (ctx) => {
  const { project, params: packageManagers } = authenticatedProject(ctx, () => {
    const result = readListParam(ctx.rawParams, "package_manager", PACKAGE_MANAGERS);
    if (result !== undefined && "problem" in result) throw paramError(result.problem);
    return result;
  });
  if (!canReadDependencies(ctx.state, ctx.user, project)) throw forbidden();
  const showVulnerabilities = canReadVulnerabilities(ctx.state, ctx.user, project);
  const dependencies = securityReportsStore
    .of(ctx.state)
    .dependencies.filter(
      (dependency) =>
        dependency.projectId === project.id &&
        (packageManagers === undefined || packageManagers.includes(dependency.packageManager)),
    );
  return paginate(ctx, dependencies, { present: (dependency) => presentDependency(ctx.state, dependency, showVulnerabilities) });
});

// ---------------------------------------------------------------------------
// GET /projects/:id/vulnerabilities

const IDENTITY_FIELDS = ["id", "description", "name", "name_with_namespace", "path", "path_with_namespace", "created_at"];

/**
 * `EE::API::Entities::Vulnerability` of a vulnerability, from its findings
 * (oldest first): detected by the first, dismissed when its latest finding was.
 */
function presentVulnerability(state: EmulatorState, project: Project, id: number, findings: FindingRecord[]): Record<string, unknown> {
  const pipelines = securityReportsStore.of(state).pipelines;
  const createdAt = (finding: FindingRecord) => pipelines.find((p) => p.id === finding.pipelineId)?.createdAt ?? project.createdAt;
  const first = findings[0]!;
  const latest = findings[findings.length - 1]!;
  const dismissal = latest.dismissal;
  const updatedAt = dismissal?.createdAt ?? createdAt(latest);
  const identity = presentBasicProject(state, project);
  return {
    id,
    title: latest.name,
    description: latest.description,
    state: dismissal ? "dismissed" : "detected",
    severity: latest.severity,
    confidence: "unknown",
    report_type: latest.reportType,
    project: Object.fromEntries(IDENTITY_FIELDS.map((field) => [field, identity[field]])),
    project_default_branch: project.defaultBranch,
    author_id: null,
    updated_by_id: null,
    last_edited_by_id: null,
    closed_by_id: null,
    start_date: null,
    due_date: null,
    created_at: createdAt(first),
    updated_at: updatedAt,
    last_edited_at: null,
    closed_at: null,
    resolved_by_id: null,
    resolved_at: null,
    resolved_on_default_branch: false,
    dismissed_by_id: dismissal?.authorId ?? null,
    dismissed_at: dismissal?.createdAt ?? null,
    confirmed_by_id: null,
    confirmed_at: null,
  };
}

/**
 * The project's vulnerabilities: one per
 * vulnerability id its findings were ingested as, highest severity first,
 * then newest id; 401, 404 project, 403 without `read_security_resource`
 * (Ultimate, Developer+), as the findings.
 */
const listVulnerabilities = route("GET", "/projects/:id/vulnerabilities", { params: idParam, paginated: true }, (ctx) => {
  const { project } = authenticatedProject(ctx, () => undefined);
  if (!canReadVulnerabilities(ctx.state, ctx.user, project)) throw forbidden();
  const byId = new Map<number, FindingRecord[]>();
  for (const finding of securityReportsStore.of(ctx.state).findings) {
    if (finding.projectId !== project.id || finding.vulnerabilityId === null) continue;
    byId.set(finding.vulnerabilityId, [...(byId.get(finding.vulnerabilityId) ?? []), finding]);
  }
  const ordered = [...byId.entries()].sort(([idA, a], [idB, b]) => severityRank(b[b.length - 1]!) - severityRank(a[a.length - 1]!) || idB - idA);
  return paginate(ctx, ordered, { present: ([id, findings]) => presentVulnerability(ctx.state, project, id, findings) });
});

export const securityReportRoutes: readonly RouteDefinition[] = [listFindings, listDependencies, listVulnerabilities];
