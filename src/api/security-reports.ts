/**
 * Security reports of a project (Ultimate): its vulnerability findings
 * (`/projects/:id/vulnerability_findings`) and dependencies
 * (`/projects/:id/dependencies`).
 */
import { z } from "zod";
import { apiPath } from "../client";

const nullableText = z.string().nullable().optional();

export const vulnerabilityFinding = z.looseObject({
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

export const dependency = z.looseObject({
  name: z.string(),
  version: z.string(),
  package_manager: z.string(),
  dependency_file_path: z.string(),
  /** Only for callers who may read the security dashboard. */
  vulnerabilities: z.array(z.looseObject({ name: z.string(), severity: z.string(), id: z.number(), url: z.string() })).optional(),
  licenses: z.array(z.looseObject({ name: z.string(), url: z.string().nullable().optional() })).optional(),
});

export const vulnerabilityFindingsPath = (project: string | number): string => apiPath`/projects/${project}/vulnerability_findings`;
export const dependenciesPath = (project: string | number): string => apiPath`/projects/${project}/dependencies`;
