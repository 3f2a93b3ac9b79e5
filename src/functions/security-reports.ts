/**
 * Security reports of a project: vulnerability findings and dependencies. Both are Ultimate only and
 * need a signed-in caller; findings need permission on the project's security
 * dashboard, and dependencies show their vulnerabilities only to callers who have it.
 */
import { z } from "zod";
import { ApiError } from "../client";
import { signedInOnly } from "../calls/core";
import { ownerReference } from "../api/owner";
import { dependenciesPath, dependency as dependencyShape, vulnerabilityFinding as findingShape, vulnerabilityFindingsPath } from "../api/security-reports";
import { defineComposedFunction, defineListFunction, projectNeeds, type Camelized } from "./core";
import { findingsThroughGraphql } from "./security-findings-graphql";

export const REPORT_TYPES = ["sast", "dast", "dependency_scanning", "container_scanning"] as const;
export const SEVERITIES = ["info", "unknown", "low", "medium", "high", "critical"] as const;
export const PACKAGE_MANAGERS = [
  "bundler", "composer", "conan", "go", "gradle", "maven", "npm", "nuget", "pip", "pipenv", "pnpm", "yarn", "sbt", "setuptools",
] as const;

export type VulnerabilityFinding = Camelized<z.output<typeof findingShape>>;
export type Dependency = Camelized<z.output<typeof dependencyShape>>;

const project = ownerReference;
/** The API documentation's arrays travel comma-separated (`report_type=sast,dast`). */
const commaSeparated = (values: readonly string[] | undefined) => (values === undefined ? undefined : values.join(","));

/** The REST list is gone from this server: the route is unknown (`404 Not Found` from the router) or answers 410. */
const restListGone = (error: unknown) => error instanceof ApiError && (error.status === 410 || (error.status === 404 && error.notFoundSubject === undefined));

const findingsPath = (args: { project: string | number }) => vulnerabilityFindingsPath(args.project);

const vulnerabilityFindings = defineComposedFunction({
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
    /** At most this many findings, and only the requests they need. */
    limit: z.number().int().positive().optional(),
    /**
     * `rest`: the REST list only; `graphql`: the GraphQL query that replaces it;
     * `auto` (default): the REST list, and the query where the server no longer
     * has the list (404 for the route, or 410). Both give the same findings.
     */
    via: z.enum(["auto", "rest", "graphql"]).default("auto"),
  }),
  async run(read, args) {
    if (args.via !== "graphql") {
      const query = { report_type: commaSeparated(args.reportTypes), scope: args.scope, severity: commaSeparated(args.severities), pipeline_id: args.pipelineId };
      try {
        return (await read.list(findingsPath(args), query, findingShape, args.limit)) as VulnerabilityFinding[];
      } catch (error) {
        if (args.via === "rest" || !restListGone(error)) throw error;
      }
    }
    return (await findingsThroughGraphql(read, args, `the vulnerability findings of project ${args.project}`)) as VulnerabilityFinding[];
  },
  subject: (args) => `the vulnerability findings of project ${args.project}`,
  needs: projectNeeds("Developer", { phrase: "at least the Developer role (for the security dashboard)", tier: "ultimate" }),
  opaque: ["details"],
  refusals: {
    401: signedInOnly,
  },
});

/**
 * A project's vulnerability findings, filtered by report type, severity, scope and pipeline;
 * through the REST list, or the GraphQL query that replaces it (`via`).
 * Through GraphQL, a caller without security dashboard access gets no findings
 * (the server hides them) where the REST list answers 403; the fields only the
 * REST list has (`project`, `scan`, `blobPath`, the feedback paths, `details`) are absent.
 *
 * ```ts
 * const critical = await getVulnerabilityFindings({ project: "acme/web", severities: ["critical", "high"] });
 * const viaGraphql = await getVulnerabilityFindings({ project: "acme/web", via: "graphql" });
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
  path: (args) => dependenciesPath(args.project),
  query: (args) => ({ package_manager: commaSeparated(args.packageManagers) }),
  subject: (args) => `the dependencies of project ${args.project}`,
  needs: projectNeeds(undefined, { phrase: "access to the repository (at least the Reporter role on a private project)", tier: "ultimate" }),
  refusals: {
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
