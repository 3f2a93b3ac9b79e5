/**
 * The merge requests' model:
 * merge requests per project with their diffs (files changed), labels,
 * milestones, pipelines and deployments (the `mergeRequests` seed section is read in seed.ts);
 * who may read and write them; the state machine and the background
 * preparation and mergeability checks.
 *
 * Where the specification is silent, as the real server behaves:
 * - `iid` counts per project from 1; `id` is global.
 * - `draft` is read from the title (`Draft:`, `[Draft]`, `(Draft)` at its start).
 * - Read (`read_merge_request`): anyone who can see a public or internal
 *   project, Reporter+ on a private one, administrators. Create
 *   (`create_merge_request_from`: push access) and pipelines: Developer+.
 *   Update: Developer+, or the author while they can read it; only Developer+
 *   (`admin_merge_request`) may change labels, milestone, assignees and
 *   reviewers: the update service drops those fields for others.
 *   Pipelines (`read_pipeline`): Reporter+, or anyone who can see a public or
 *   internal project while its pipelines are public (the project setting
 *   `public_builds`, seeded as `publicPipelines`).
 * - Merge status: a new merge request is `preparing` (shown as `checking`)
 *   until the background preparation (`runDue`) fills sha, diff_refs and
 *   changes_count and leaves it `unchecked`; presenting it (a single GET, or a
 *   list with `with_merge_status_recheck`) asks for an asynchronous check
 *   (`checking`), which the next `runDue` resolves to `can_be_merged` or,
 *   for a seeded conflict, `cannot_be_merged`. A new target branch or a
 *   reopen makes it `unchecked` again.
 * - Labels are project labels, created on first use with `#6699cc`
 *   (Label::DEFAULT_COLOR); `text_color` is `#FFFFFF` on dark colours and
 *   `#1F1E24` on light ones.
 */
import { createHash } from "node:crypto";
import { canReadProject, projectAccessLevel } from "../../access";
import { AccessLevel, defineStore, type EmulatorState, type Project, type User } from "../../state";

export type MergeRequestState = "opened" | "closed" | "locked" | "merged";
export type MergeStatus = "preparing" | "unchecked" | "checking" | "can_be_merged" | "cannot_be_merged";

export interface DiffFileRecord {
  oldPath: string;
  newPath: string;
  aMode: string;
  bMode: string;
  /** The hunks of the unified diff, without the `---`/`+++` header. */
  diff: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
  generatedFile: boolean;
}

export interface LabelRecord {
  id: number;
  projectId: number;
  name: string;
  color: string;
  description: string | null;
  archived: boolean;
}

export interface MilestoneRecord {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: "active" | "closed";
  dueDate: string | null;
  startDate: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MergeRequestPipelineRecord {
  id: number;
  iid: number;
  projectId: number;
  mergeRequestId: number;
  sha: string;
  beforeSha: string;
  ref: string;
  status: string;
  source: string;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  duration: number | null;
  queuedDuration: number | null;
  coverage: string | null;
}

export interface DeploymentRecord {
  environment: string;
  deployedAt: string;
}

export interface MergeRequestRecord {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  sourceBranch: string;
  targetBranch: string;
  state: MergeRequestState;
  authorId: number;
  assigneeIds: number[];
  reviewerIds: number[];
  labelIds: number[];
  milestoneId: number | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedById: number | null;
  mergedAt: string | null;
  mergeUserId: number | null;
  mergeAfter: string | null;
  /** Set once, when the background preparation is done; null before. */
  preparedAt: string | null;
  sha: string | null;
  baseSha: string | null;
  /** The target branch's head the diff was taken against (`diff_refs.start_sha`); absent: `baseSha`. */
  startSha?: string | null;
  /**
   * Made through the API on a branch of the repository: its head, base and
   * files are read from the repository by the background work (./jobs.ts),
   * again whenever the source branch moves, and each reading is a version.
   */
  fromRepository?: boolean;
  /** The diffs' versions (`GET .../versions`), oldest first; absent: one version, the prepared diff. */
  versions?: MergeRequestVersionRecord[];
  /** What was read from the repository when it was made, which its preparation shows. */
  pendingReading?: RepositoryReading;
  changesCount: string | null;
  mergeStatus: MergeStatus;
  /** What a mergeability check finds: a seeded conflict with the target branch. */
  conflicts: boolean;
  mergeCommitSha: string | null;
  squashCommitSha: string | null;
  discussionLocked: boolean | null;
  forceRemoveSourceBranch: boolean;
  squash: boolean;
  allowCollaboration: boolean;
  mergeWhenPipelineSucceeds: boolean;
  upvotes: number;
  downvotes: number;
  userNotesCount: number;
  blockingDiscussionsResolved: boolean;
  timeEstimate: number;
  totalTimeSpent: number;
  imported: boolean;
  importedFrom: string;
  approvalsBeforeMerge: number | null;
  /** Eligible approvers and the users who approved (Premium+ filters). */
  approverIds: number[];
  approvedByIds: number[];
  /** Emoji reactions by user id. */
  awardEmoji: Record<string, string[]>;
  deployments: DeploymentRecord[];
  files: DiffFileRecord[];
  divergedCommitsCount: number;
  rebaseInProgress: boolean;
  firstContribution: boolean;
  /**
   * The next this-many updates meet a concurrent write and fail with 409
   * `Resource lock` (ActiveRecord::StaleObjectError); seeded as `lockConflicts`,
   * or set on the record by a test.
   */
  lockConflicts: number;
}

/** A merge request's diff as read from the repository (./jobs.ts). */
export interface RepositoryReading {
  head: string;
  base: string;
  start: string;
  files: DiffFileRecord[];
  conflicts: boolean;
}

/** One version of a merge request's diff (`MergeRequestDiff`). */
export interface MergeRequestVersionRecord {
  id: number;
  headCommitSha: string;
  baseCommitSha: string;
  startCommitSha: string;
  createdAt: string;
  realSize: string;
}

/** A comment on a merge request (a plain `Note`: not a diff note, never resolvable). */
export interface MergeRequestNoteRecord extends NoteFields {
  mergeRequestId: number;
}

/** What every kind of note record has (merge requests', issues'). */
export interface NoteFields {
  id: number;
  projectId: number;
  authorId: number;
  body: string;
  /** System notes (the noteable's own activity) are listed with `activity_filter`, never edited. */
  system: boolean;
  createdAt: string;
  updatedAt: string;
  /** An internal note (issues only): shown to the project's Reporters and above. */
  internal?: boolean;
}

export interface ProjectMergeRequestSettings {
  /** `public_builds`: non-members of a public or internal project may see pipelines. */
  publicPipelines: boolean;
  /** Whether the CI configuration has a merge-request rule: without one, POST .../pipelines is 400. */
  mergeRequestPipelines: boolean;
  /** Files changed on branches that have no merge request yet: a new merge request's diff. */
  branches: Record<string, DiffFileRecord[]>;
}

export interface SearchRateLimit {
  /** Searches per minute for a signed-in user (`search_rate_limit`, default 30). */
  authenticated: number;
  /** Searches per minute per anonymous caller (`search_rate_limit_unauthenticated`, default 10). */
  unauthenticated: number;
}

export interface MergeRequestStore {
  mergeRequests: MergeRequestRecord[];
  labels: LabelRecord[];
  milestones: MilestoneRecord[];
  pipelines: MergeRequestPipelineRecord[];
  /** Absent in state files written before notes were served: read it through `notesOf`. */
  notes?: MergeRequestNoteRecord[];
  /** Per project id. */
  settings: Record<string, ProjectMergeRequestSettings>;
  searchRateLimit: SearchRateLimit;
  /** Times (ms) of recent searches per caller key, for the application rate limiter. */
  searches: Record<string, number[]>;
}

export const mergeRequestStore = defineStore(
  "mergeRequests",
  (): MergeRequestStore => ({
    mergeRequests: [],
    labels: [],
    milestones: [],
    pipelines: [],
    notes: [],
    settings: {},
    searchRateLimit: { authenticated: 30, unauthenticated: 10 },
    searches: {},
  }),
);

export const MR_SEQUENCE = "merge_requests";
export const LABEL_SEQUENCE = "labels";
export const MILESTONE_SEQUENCE = "milestones";
/** Shared with the pipeline schedules and security reports: one id space for pipelines. */
export const PIPELINE_SEQUENCE = "ci_pipelines";
export const NOTE_SEQUENCE = "notes";
export const DIFF_VERSION_SEQUENCE = "merge_request_diffs";

export const DEFAULT_LABEL_COLOR = "#6699cc";
export const MAX_DESCRIPTION = 1_048_576;
/** Gitlab::Git::Diff: above `diff_max_patch_bytes` (default 200 KiB) a file's diff is too large to show at all. */
export const DIFF_TOO_LARGE_BYTES = 204_800;
/** A tenth of it (`patch_safe_limit_bytes`): above this a file's diff is collapsed (raw_diffs still has it). */
export const DIFF_COLLAPSE_BYTES = 20_480;
/** `diff_max_files` (default 1000): files past it are collapsed, and changes_count reads `1000+`. */
export const DIFF_MAX_FILES = 1000;
/** `diff_max_lines` (default 50,000): files once this many lines were shown are collapsed. */
export const DIFF_MAX_LINES = 50_000;

export function notesOf(state: EmulatorState): MergeRequestNoteRecord[] {
  return (mergeRequestStore.of(state).notes ??= []);
}

export function settingsOf(state: EmulatorState, project: Project): ProjectMergeRequestSettings {
  const { settings } = mergeRequestStore.of(state);
  return (settings[String(project.id)] ??= { publicPipelines: true, mergeRequestPipelines: true, branches: {} });
}

// ---------------------------------------------------------------------------
// Derived values

const DRAFT_PREFIX = /^\s*(\[draft\]|\(draft\)|draft:)/i;
export const isDraft = (title: string): boolean => DRAFT_PREFIX.test(title);

/** A branch's head in the repository; for a branch only the merge requests' seed names, a stable 40-hex sha. */
export function branchSha(state: EmulatorState, project: Project, branch: string): string {
  const head = project.branchHeads?.[branch];
  if (head !== undefined) return head;
  if (branch === project.defaultBranch && project.lastCommitSha) return project.lastCommitSha;
  return createHash("sha1").update(`${state.projectFullPath(project)}@${branch}`).digest("hex");
}

export function labelTextColor(color: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return "#FFFFFF";
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  // Perceived luminance, as the real label helper's light/dark test.
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 160 ? "#1F1E24" : "#FFFFFF";
}

/** ChronicDuration as GitLab formats time tracking: 8-hour days, 5-day weeks, months of 4 weeks. */
export function humanDuration(seconds: number): string | null {
  if (seconds <= 0) return null;
  const units: [string, number][] = [["mo", 4 * 5 * 8 * 3600], ["w", 5 * 8 * 3600], ["d", 8 * 3600], ["h", 3600], ["m", 60], ["s", 1]];
  let rest = seconds;
  const parts: string[] = [];
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return parts.join(" ");
}

export function changesCountOf(files: readonly DiffFileRecord[]): string {
  return files.length > DIFF_MAX_FILES ? `${DIFF_MAX_FILES}+` : String(files.length);
}

/** The work the background preparation does (MergeRequests::AfterCreateService and the diff creation). */
export function prepare(state: EmulatorState, mr: MergeRequestRecord): void {
  const project = state.projectById(mr.projectId);
  if (!project) return;
  mr.sha = branchSha(state, project, mr.sourceBranch);
  mr.baseSha = branchSha(state, project, mr.targetBranch);
  mr.changesCount = changesCountOf(mr.files);
  mr.preparedAt = state.now();
  if (mr.mergeStatus === "preparing") mr.mergeStatus = "unchecked";
}

/** Shows a reading of the repository as the merge request's diff: a new version, its head, base and files. */
export function applyReading(state: EmulatorState, mr: MergeRequestRecord, reading: RepositoryReading): void {
  const now = state.now();
  const changesCount = changesCountOf(reading.files);
  Object.assign(mr, {
    sha: reading.head,
    baseSha: reading.base,
    startSha: reading.start,
    files: reading.files,
    changesCount,
    conflicts: reading.conflicts,
    preparedAt: mr.preparedAt ?? now,
    mergeStatus: "unchecked",
  });
  delete mr.pendingReading;
  (mr.versions ??= []).push({ id: state.nextId(DIFF_VERSION_SEQUENCE), headCommitSha: reading.head, baseCommitSha: reading.base, startCommitSha: reading.start, createdAt: now, realSize: changesCount });
}

/** `check_mergeability(async: true)`: an unchecked open merge request is queued for a check. */
export function requestMergeabilityCheck(mr: MergeRequestRecord): void {
  if (mr.state === "opened" && mr.mergeStatus === "unchecked") mr.mergeStatus = "checking";
}

/** Background work: preparations, then queued mergeability checks (./jobs.ts prepares those made from the repository). */
export function runMergeRequestWork(state: EmulatorState): void {
  for (const mr of mergeRequestStore.of(state).mergeRequests) {
    if (mr.preparedAt === null) {
      if (mr.pendingReading) applyReading(state, mr, mr.pendingReading);
      else if (!mr.fromRepository) prepare(state, mr);
    } else if (mr.mergeStatus === "checking") mr.mergeStatus = mr.conflicts ? "cannot_be_merged" : "can_be_merged";
  }
}

// ---------------------------------------------------------------------------
// Permissions

const levelOf = (state: EmulatorState, user: User | null, project: Project): number =>
  user === null ? AccessLevel.NoAccess : user.isAdmin ? AccessLevel.Owner : projectAccessLevel(state, user, project);

const openToReaders = (state: EmulatorState, user: User | null, project: Project): boolean =>
  project.visibility !== "private" && canReadProject(state, user, project);

export const canReadMergeRequests = (state: EmulatorState, user: User | null, project: Project): boolean =>
  openToReaders(state, user, project) || levelOf(state, user, project) >= AccessLevel.Reporter;

export const canCreateMergeRequests = (state: EmulatorState, user: User | null, project: Project): boolean =>
  levelOf(state, user, project) >= AccessLevel.Developer;

/** `admin_merge_request`: labels, milestone, assignees and reviewers. */
export const canAdminMergeRequests = canCreateMergeRequests;

export const canUpdateMergeRequest = (state: EmulatorState, user: User | null, project: Project, mr: MergeRequestRecord): boolean =>
  canCreateMergeRequests(state, user, project) || (user !== null && user.id === mr.authorId && canReadMergeRequests(state, user, project));

export const canReadPipelines = (state: EmulatorState, user: User | null, project: Project): boolean =>
  levelOf(state, user, project) >= AccessLevel.Reporter || (settingsOf(state, project).publicPipelines && openToReaders(state, user, project));

export const canCreatePipelines = canCreateMergeRequests;

// ---------------------------------------------------------------------------
// Labels

export function labelsOf(state: EmulatorState, mr: { readonly labelIds: readonly number[] }): LabelRecord[] {
  const { labels } = mergeRequestStore.of(state);
  return mr.labelIds.flatMap((id) => labels.filter((label) => label.id === id)).sort((a, b) => a.name.localeCompare(b.name));
}

/** The project's label of that name (case-insensitive), created with the default colour if there is none. */
export function findOrCreateLabel(state: EmulatorState, projectId: number, name: string, color = DEFAULT_LABEL_COLOR, description: string | null = null): LabelRecord {
  const { labels } = mergeRequestStore.of(state);
  const found = labels.find((label) => label.projectId === projectId && label.name.toLowerCase() === name.toLowerCase());
  if (found) return found;
  const label: LabelRecord = { id: state.nextId(LABEL_SEQUENCE), projectId, name, color, description, archived: false };
  labels.push(label);
  return label;
}

/** Comma-separated names as the API takes them: trimmed, empty ones dropped, repeats once. */
export function splitLabelNames(text: string | string[]): string[] {
  const parts = (Array.isArray(text) ? text : [text]).flatMap((part) => part.split(","));
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ""))];
}


/** Whether a branch exists: the project's branches, its seeded branches, and seeded merge requests' source branches. */
export function branchExists(state: EmulatorState, project: Project, branch: string): boolean {
  const known = project.branches ?? [project.defaultBranch];
  if (known.includes(branch)) return true;
  if (branch in settingsOf(state, project).branches) return true;
  return mergeRequestStore.of(state).mergeRequests.some((mr) => mr.projectId === project.id && mr.sourceBranch === branch);
}
