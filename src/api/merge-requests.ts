/**
 * Merge requests: the instance-wide list (`/merge_requests`, the only list
 * that filters by branches across projects), a project's merge requests
 * (`/projects/:id/merge_requests/:iid`), their diffs, raw diffs and pipelines.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { requestsOf } from "./core";
import { ownerReference } from "./owner";
import { idForm } from "./id-form";

const nullableText = z.string().nullable().optional();

const userReference = z.looseObject({
  id: z.number(),
  username: z.string(),
  /** May be redacted depending on the caller's permissions. */
  name: z.string(),
  state: z.string().optional(),
  locked: z.boolean().nullable().optional(),
  avatar_url: nullableText,
  web_url: z.string().optional(),
  public_email: nullableText,
});

const labelDetail = z.looseObject({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  text_color: z.string().optional(),
  description: nullableText,
  description_html: nullableText,
  archived: z.boolean().nullable().optional(),
});

const milestone = z.looseObject({
  id: z.number(),
  iid: z.number(),
  project_id: z.number().optional(),
  group_id: z.number().optional(),
  title: z.string(),
  description: nullableText,
  /** `active` or `closed`. */
  state: z.string(),
  created_at: nullableText,
  updated_at: nullableText,
  due_date: nullableText,
  start_date: nullableText,
  expired: z.boolean().nullable().optional(),
  web_url: z.string().optional(),
});

export const pipelineBasic = z.looseObject({
  id: z.number(),
  iid: z.number().optional(),
  project_id: z.number().optional(),
  sha: z.string(),
  ref: z.string().nullable(),
  /** created, waiting_for_resource, preparing, pending, running, success, failed, canceled, skipped, manual, scheduled. */
  status: z.string(),
  source: z.string().optional(),
  created_at: nullableText,
  updated_at: nullableText,
  web_url: z.string().optional(),
});

/** A pipeline in full: a merge request's head pipeline, and the one `createMergeRequestPipeline` creates. */
export const pipeline = pipelineBasic.extend({
  before_sha: nullableText,
  tag: z.boolean().optional(),
  yaml_errors: nullableText,
  user: userReference.nullable().optional(),
  started_at: nullableText,
  finished_at: nullableText,
  committed_at: nullableText,
  duration: z.number().nullable().optional(),
  queued_duration: z.number().nullable().optional(),
  coverage: nullableText,
  detailed_status: z.looseObject({}).nullable().optional(),
});

/** What `view: "simple"` answers; every other field is absent then. */
export const mergeRequestSimple = z.looseObject({
  id: z.number(),
  iid: z.number(),
  project_id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  /** opened, closed, locked or merged. */
  state: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  web_url: z.string(),
  /** Only with `renderHtml`. */
  title_html: z.string().optional(),
  description_html: z.string().optional(),
});

export const listedMergeRequest = mergeRequestSimple.extend({
  source_branch: z.string().optional(),
  target_branch: z.string().optional(),
  source_project_id: z.number().optional(),
  target_project_id: z.number().optional(),
  author: userReference.optional(),
  assignees: z.array(userReference).optional(),
  reviewers: z.array(userReference).optional(),
  closed_by: userReference.nullable().optional(),
  merge_user: userReference.nullable().optional(),
  closed_at: nullableText,
  merged_at: nullableText,
  merge_after: nullableText,
  prepared_at: nullableText,
  /** Names, or objects with `withLabelsDetails`. */
  labels: z.array(z.union([z.string(), labelDetail])).optional(),
  milestone: milestone.nullable().optional(),
  draft: z.boolean().optional(),
  imported: z.boolean().nullable().optional(),
  imported_from: nullableText,
  upvotes: z.number().optional(),
  downvotes: z.number().optional(),
  user_notes_count: z.number().optional(),
  merge_when_pipeline_succeeds: z.boolean().nullable().optional(),
  /** Deprecated: prefer `detailed_merge_status`. */
  merge_status: z.string().optional(),
  detailed_merge_status: z.string().optional(),
  has_conflicts: z.boolean().nullable().optional(),
  blocking_discussions_resolved: z.boolean().nullable().optional(),
  /** Empty until the server has prepared a new merge request. */
  sha: nullableText,
  merge_commit_sha: nullableText,
  squash_commit_sha: nullableText,
  discussion_locked: z.boolean().nullable().optional(),
  should_remove_source_branch: z.boolean().nullable().optional(),
  force_remove_source_branch: z.boolean().nullable().optional(),
  squash: z.boolean().nullable().optional(),
  allow_collaboration: z.boolean().nullable().optional(),
  references: z.looseObject({ short: z.string(), relative: z.string(), full: z.string() }).optional(),
  time_stats: z
    .looseObject({ time_estimate: z.number(), total_time_spent: z.number(), human_time_estimate: nullableText, human_total_time_spent: nullableText })
    .optional(),
  task_completion_status: z.looseObject({ count: z.number(), completed_count: z.number() }).optional(),
});

/** One merge request: the list's fields and the single-MR extras. */
export const mergeRequest = listedMergeRequest.extend({
  /** A string (`1000+` when capped); empty until the server has prepared a new merge request. */
  changes_count: nullableText,
  diff_refs: z.looseObject({ base_sha: nullableText, head_sha: nullableText, start_sha: nullableText }).nullable().optional(),
  diverged_commits_count: z.number().nullable().optional(),
  rebase_in_progress: z.boolean().nullable().optional(),
  first_contribution: z.boolean().nullable().optional(),
  first_deployed_to_production_at: nullableText,
  subscribed: z.boolean().nullable().optional(),
  latest_build_started_at: nullableText,
  latest_build_finished_at: nullableText,
  merge_error: nullableText,
  /** Only for callers who may see the project's pipelines. */
  pipeline: pipelineBasic.nullable().optional(),
  head_pipeline: pipeline.nullable().optional(),
});

export const mergeRequestDiff = z.looseObject({
  old_path: z.string(),
  new_path: z.string(),
  a_mode: nullableText,
  b_mode: nullableText,
  /** Empty when the diff is collapsed or too large (the raw diff still has a collapsed one). */
  diff: z.string(),
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
  generated_file: z.boolean().nullable().optional(),
  collapsed: z.boolean().nullable().optional(),
  too_large: z.boolean().nullable().optional(),
});

export type ListedMergeRequest = z.output<typeof listedMergeRequest>;
export type MergeRequest = z.output<typeof mergeRequest>;

export const listedMergeRequestRequests = requestsOf(listedMergeRequest);
export const mergeRequestRequests = requestsOf(mergeRequest);

/** The instance-wide list. */
export const ALL_MERGE_REQUESTS = "/merge_requests";
/** `/projects/acme%2Fweb/merge_requests`. */
export const mergeRequestsPath = (project: string | number): string => apiPath`/projects/${project}/merge_requests`;
/** `/projects/acme%2Fweb/merge_requests/3`. */
export const mergeRequestPath = (project: string | number, iid: number): string => `${mergeRequestsPath(project)}/${iid}`;

/** A merge request's notes (comments): `/projects/acme%2Fweb/merge_requests/3/notes`. */
/** A merge request's pipelines: listed by `getMergeRequestPipelines`, created by `createMergeRequestPipeline`. */
export const mergeRequestPipelinesPath = (project: string | number, iid: number): string => `${mergeRequestPath(project, iid)}/pipelines`;
/** The notes of a merge request. */
export const mergeRequestNotesPath = (project: string | number, iid: number): string => `${mergeRequestPath(project, iid)}/notes`;
/** The merge requests a commit belongs to. */
export const commitMergeRequestsPath = (project: string | number, sha: string): string => apiPath`/projects/${project}/repository/commits/${sha}/merge_requests`;

/** A merge request's recorded id: its API path without the leading slash (`projects/acme%2Fweb/merge_requests/3`). */
export const mergeRequestId = (project: string | number, iid: number): string => mergeRequestPath(project, iid).slice(1);

/** A recorded merge request id read back; undefined when it is not one. */
export function parseMergeRequestId(id: string): { path: string; project: string; iid: number } | undefined {
  const match = /^projects\/([^/]+)\/merge_requests\/(\d+)$/.exec(id);
  return match ? { path: "/" + id, project: decodeURIComponent(match[1]!), iid: Number(match[2]) } : undefined;
}

/** A merge request id as resources record it. */
export const mergeRequestIdForm = idForm("of the form projects/<project>/merge_requests/<iid>", parseMergeRequestId);

/** The arguments naming one merge request, as the calls on it take them. */
export const inMergeRequest = {
  /** The project (id or full path). */
  project: ownerReference,
  /** The merge request's internal id in the project (`!iid`). */
  iid: z.number().int().positive(),
};
export const mergeRequestSubject = (args: { project: string | number; iid: number }) => `merge request !${args.iid} of project ${args.project}`;
