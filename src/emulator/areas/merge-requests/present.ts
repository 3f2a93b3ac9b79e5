/**
 * How merge requests, their diffs and pipelines are answered (the real entities API::Entities::MergeRequestSimple,
 * MergeRequestBasic, MergeRequest, Diff, Ci::PipelineBasic and Ci::Pipeline).
 *
 * - A list answers MergeRequestBasic (MergeRequestSimple with `view=simple`:
 *   id, iid, project_id, title, description, state, created_at, updated_at,
 *   web_url); a single merge request adds the single-MR extras.
 * - `pipeline` and `head_pipeline` are exposed only to callers who may read
 *   the project's pipelines (the keys are absent otherwise).
 * - `merge_status` shows `preparing` and `checking` both as `checking`
 *   (`public_merge_status`); `has_conflicts` is true only for `cannot_be_merged`.
 * - Diff limits (Gitlab::Git::Diff and DiffCollection with the default
 *   application settings): a file diff over 204,800 bytes is `too_large`
 *   (diff ""), over 20,480 bytes `collapsed` (diff ""; raw_diffs has it); once
 *   1,000 files or 50,000 lines were shown, the rest are `collapsed`.
 */
import { presentPipelineBasic } from "../pipeline-schedules/pipelines-present";
import type { EmulatorState, Project, User } from "../../state";
import {
  DIFF_COLLAPSE_BYTES,
  DIFF_MAX_FILES,
  DIFF_MAX_LINES,
  DIFF_TOO_LARGE_BYTES,
  humanDuration,
  isDraft,
  labelsOf,
  labelTextColor,
  mergeRequestStore,
  type DiffFileRecord,
  type LabelRecord,
  type MergeRequestPipelineRecord,
  type MergeRequestRecord,
} from "./model";

type Body = Record<string, unknown>;

const webBase = (state: EmulatorState): string => `https://${state.instance.host}`;

/** The user reference embedded in merge requests. */
export function presentUserReference(state: EmulatorState, userId: number | null): Body | null {
  const user = userId === null ? undefined : state.userById(userId);
  if (!user) return null;
  return {
    id: user.id,
    username: user.username,
    public_email: "",
    name: user.name,
    state: user.blocked ? "blocked" : "active",
    locked: false,
    avatar_url: null,
    web_url: `${webBase(state)}/${user.username}`,
  };
}

export const userList = (state: EmulatorState, ids: readonly number[]): Body[] =>
  ids.map((id) => presentUserReference(state, id)).filter((user): user is Body => user !== null);

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A plain rendering of Markdown paragraphs, enough for clients that show `*_html`. */
export function renderMarkdown(text: string): string {
  if (text.trim() === "") return "";
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p dir="auto">${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
}

export function presentLabel(label: Omit<LabelRecord, "projectId">): Body {
  return {
    id: label.id,
    name: label.name,
    color: label.color,
    description: label.description,
    description_html: label.description ? renderMarkdown(label.description) : "",
    text_color: labelTextColor(label.color),
    archived: label.archived,
  };
}

export function presentMilestone(state: EmulatorState, project: Project, milestoneId: number | null): Body | null {
  const milestone = mergeRequestStore.of(state).milestones.find((m) => m.id === milestoneId);
  if (!milestone) return null;
  const today = new Date(state.clock()).toISOString().slice(0, 10);
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.projectId,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.createdAt,
    updated_at: milestone.updatedAt,
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    expired: milestone.dueDate !== null && milestone.dueDate < today,
    web_url: `${webBase(state)}/${state.projectFullPath(project)}/-/milestones/${milestone.iid}`,
  };
}

/** `- [ ]` and `- [x]` items of the description (TaskList). */
export function taskCompletion(description: string): Body {
  const tasks = [...description.matchAll(/^\s*(?:[-*+]|\d+\.)\s+\[([ xX~])\]/gm)];
  return { count: tasks.length, completed_count: tasks.filter((task) => task[1] !== " ").length };
}

const mrWebUrl = (state: EmulatorState, project: Project, mr: MergeRequestRecord): string =>
  `${webBase(state)}/${state.projectFullPath(project)}/-/merge_requests/${mr.iid}`;

export const isOpen = (mr: MergeRequestRecord): boolean => mr.state === "opened" || mr.state === "locked";

export function publicMergeStatus(mr: MergeRequestRecord): string {
  return mr.mergeStatus === "preparing" ? "checking" : mr.mergeStatus;
}

/**
 * DetailedMergeStatusService: not_open, preparing, checking, unchecked, then
 * the first failed mergeability check in the real order (draft, conflict,
 * unresolved discussions), else mergeable.
 */
export function detailedMergeStatus(mr: MergeRequestRecord): string {
  if (!isOpen(mr)) return "not_open";
  if (mr.mergeStatus === "preparing") return "preparing";
  if (mr.mergeStatus === "checking") return "checking";
  if (mr.mergeStatus === "unchecked") return "unchecked";
  if (isDraft(mr.title)) return "draft_status";
  if (mr.mergeStatus === "cannot_be_merged") return "conflict";
  if (!mr.blockingDiscussionsResolved) return "discussions_not_resolved";
  return "mergeable";
}

export interface PresentOptions {
  user: User | null;
  renderHtml?: boolean;
  withLabelsDetails?: boolean;
}

export function presentSimple(state: EmulatorState, project: Project, mr: MergeRequestRecord, options: PresentOptions): Body {
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.projectId,
    title: mr.title,
    ...(options.renderHtml ? { title_html: escapeHtml(mr.title) } : {}),
    description: mr.description,
    ...(options.renderHtml ? { description_html: renderMarkdown(mr.description) } : {}),
    state: mr.state,
    created_at: mr.createdAt,
    updated_at: mr.updatedAt,
    web_url: mrWebUrl(state, project, mr),
  };
}

/** MergeRequestBasic: what lists answer. */
export function presentBasic(state: EmulatorState, project: Project, mr: MergeRequestRecord, options: PresentOptions): Body {
  const author = presentUserReference(state, mr.authorId);
  const assignees = userList(state, mr.assigneeIds);
  const mergeUser = presentUserReference(state, mr.mergeUserId);
  const draft = isDraft(mr.title);
  const labels = labelsOf(state, mr);
  const fullPath = state.projectFullPath(project);
  return {
    ...presentSimple(state, project, mr, options),
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    user_notes_count: mr.userNotesCount,
    upvotes: mr.upvotes,
    downvotes: mr.downvotes,
    author,
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: userList(state, mr.reviewerIds),
    source_project_id: mr.projectId,
    target_project_id: mr.projectId,
    labels: options.withLabelsDetails ? labels.map(presentLabel) : labels.map((label) => label.name),
    draft,
    work_in_progress: draft,
    milestone: presentMilestone(state, project, mr.milestoneId),
    merge_when_pipeline_succeeds: mr.mergeWhenPipelineSucceeds,
    merge_status: publicMergeStatus(mr),
    detailed_merge_status: detailedMergeStatus(mr),
    merge_after: mr.mergeAfter,
    sha: mr.sha,
    merge_commit_sha: mr.mergeCommitSha,
    squash_commit_sha: mr.squashCommitSha,
    discussion_locked: mr.discussionLocked,
    should_remove_source_branch: null,
    force_remove_source_branch: mr.forceRemoveSourceBranch,
    prepared_at: mr.preparedAt,
    allow_collaboration: mr.allowCollaboration,
    allow_maintainer_to_push: mr.allowCollaboration,
    reference: `!${mr.iid}`,
    references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${fullPath}!${mr.iid}` },
    time_stats: {
      time_estimate: mr.timeEstimate,
      total_time_spent: mr.totalTimeSpent,
      human_time_estimate: humanDuration(mr.timeEstimate),
      human_total_time_spent: humanDuration(mr.totalTimeSpent),
    },
    squash: mr.squash,
    squash_on_merge: mr.squash,
    task_completion_status: taskCompletion(mr.description),
    has_conflicts: mr.mergeStatus === "cannot_be_merged",
    blocking_discussions_resolved: mr.blockingDiscussionsResolved,
    approvals_before_merge: mr.approvalsBeforeMerge,
    imported: mr.imported,
    imported_from: mr.importedFrom,
    merged_by: mergeUser,
    merge_user: mergeUser,
    merged_at: mr.mergedAt,
    closed_by: presentUserReference(state, mr.closedById),
    closed_at: mr.closedAt,
  };
}

export function pipelinesOf(state: EmulatorState, mr: MergeRequestRecord): MergeRequestPipelineRecord[] {
  return mergeRequestStore
    .of(state)
    .pipelines.filter((pipeline) => pipeline.mergeRequestId === mr.id)
    .sort((a, b) => b.id - a.id);
}


const STATUS_TEXT: Record<string, string> = { success: "passed", failed: "failed", running: "running", pending: "pending", created: "created", canceled: "canceled", skipped: "skipped", manual: "manual", scheduled: "scheduled", preparing: "preparing", waiting_for_resource: "waiting" };

/** Ci::Pipeline: the fuller object of `head_pipeline` and of a created pipeline. */
export function presentPipeline(state: EmulatorState, project: Project, pipeline: MergeRequestPipelineRecord): Body {
  const text = STATUS_TEXT[pipeline.status] ?? pipeline.status;
  return {
    ...presentPipelineBasic(state, pipeline),
    before_sha: pipeline.beforeSha,
    tag: false,
    yaml_errors: null,
    user: presentUserReference(state, pipeline.userId),
    started_at: pipeline.startedAt,
    finished_at: pipeline.finishedAt,
    committed_at: null,
    duration: pipeline.duration,
    queued_duration: pipeline.queuedDuration,
    coverage: pipeline.coverage,
    archived: false,
    detailed_status: {
      icon: `status_${pipeline.status}`,
      text,
      label: text,
      group: pipeline.status,
      tooltip: text,
      has_details: true,
      details_path: `/${state.projectFullPath(project)}/-/pipelines/${pipeline.id}`,
      illustration: null,
      favicon: `/assets/ci_favicons/favicon_status_${pipeline.status}.png`,
    },
  };
}

export interface SingleOptions extends PresentOptions {
  canReadPipelines: boolean;
  /** Whether the caller may push to the target branch (Developer+). */
  canMerge: boolean;
  includeDivergedCommitsCount?: boolean;
  includeRebaseInProgress?: boolean;
}

/** API::Entities::MergeRequest: the single merge request with its extras. */
export function presentSingle(state: EmulatorState, project: Project, mr: MergeRequestRecord, options: SingleOptions): Body {
  const [latest] = pipelinesOf(state, mr);
  const production = mr.deployments.filter((d) => d.environment === "production").sort((a, b) => a.deployedAt.localeCompare(b.deployedAt))[0];
  const involved = options.user !== null && [mr.authorId, ...mr.assigneeIds, ...mr.reviewerIds].includes(options.user.id);
  const body: Body = {
    ...presentBasic(state, project, mr, options),
    subscribed: involved,
    changes_count: mr.changesCount,
    latest_build_started_at: latest?.startedAt ?? null,
    latest_build_finished_at: latest?.finishedAt ?? null,
    first_deployed_to_production_at: production?.deployedAt ?? null,
    diff_refs: mr.preparedAt === null || mr.sha === null ? null : { base_sha: mr.baseSha, head_sha: mr.sha, start_sha: mr.startSha ?? mr.baseSha },
    merge_error: null,
    first_contribution: mr.firstContribution,
    user: { can_merge: options.canMerge },
  };
  if (options.canReadPipelines) {
    body["pipeline"] = latest ? presentPipelineBasic(state, latest) : null;
    body["head_pipeline"] = latest ? presentPipeline(state, project, latest) : null;
  }
  if (options.includeDivergedCommitsCount) body["diverged_commits_count"] = mr.divergedCommitsCount;
  if (options.includeRebaseInProgress) body["rebase_in_progress"] = mr.rebaseInProgress;
  return body;
}

// ---------------------------------------------------------------------------
// Diffs

/** The `---`/`+++` header a unified diff needs (`unidiff=true`; repository/compare uses it too). */
export function unidiffHeader(file: DiffFileRecord): string {
  const from = file.newFile ? "/dev/null" : `a/${file.oldPath}`;
  const to = file.deletedFile ? "/dev/null" : `b/${file.newPath}`;
  return `--- ${from}\n+++ ${to}\n`;
}

const lineCount = (diff: string): number => (diff === "" ? 0 : diff.split("\n").length);

/** Every file's entry with the diff limits applied, in order. */
export function presentDiffs(files: readonly DiffFileRecord[], unidiff: boolean): Body[] {
  let shownLines = 0;
  return files.map((file, index) => {
    const bytes = Buffer.byteLength(file.diff, "utf8");
    const tooLarge = bytes > DIFF_TOO_LARGE_BYTES;
    const overflow = index >= DIFF_MAX_FILES || shownLines >= DIFF_MAX_LINES;
    const collapsed = !tooLarge && (bytes > DIFF_COLLAPSE_BYTES || overflow);
    if (!tooLarge && !collapsed) shownLines += lineCount(file.diff);
    const diff = tooLarge || collapsed ? "" : unidiff && file.diff !== "" ? unidiffHeader(file) + file.diff : file.diff;
    return {
      diff,
      new_path: file.newPath,
      old_path: file.oldPath,
      a_mode: file.aMode,
      b_mode: file.bMode,
      new_file: file.newFile,
      renamed_file: file.renamedFile,
      deleted_file: file.deletedFile,
      generated_file: file.generatedFile,
      collapsed,
      too_large: tooLarge,
    };
  });
}

/** The whole change as `git diff` prints it (raw_diffs): every file, no limits. */
export function rawDiff(files: readonly DiffFileRecord[]): string {
  return files
    .map((file) => {
      const lines = [`diff --git a/${file.oldPath} b/${file.newPath}`];
      if (file.newFile) lines.push(`new file mode ${file.bMode}`);
      if (file.deletedFile) lines.push(`deleted file mode ${file.aMode}`);
      if (file.renamedFile) lines.push(`rename from ${file.oldPath}`, `rename to ${file.newPath}`);
      const body = file.diff === "" ? "" : unidiffHeader(file) + file.diff;
      return `${lines.join("\n")}\n${body}${body !== "" && !body.endsWith("\n") ? "\n" : ""}`;
    })
    .join("");
}
