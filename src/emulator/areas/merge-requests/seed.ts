/** The `mergeRequests` seed section: merge requests, their labels, milestones, pipelines and notes, read as the API would have made them. */
import { createHash } from "node:crypto";
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import { type EmulatorState, type Project, type User } from "../../state";
import {
  DEFAULT_LABEL_COLOR,
  MILESTONE_SEQUENCE,
  MR_SEQUENCE,
  NOTE_SEQUENCE,
  PIPELINE_SEQUENCE,
  branchSha,
  changesCountOf,
  findOrCreateLabel,
  mergeRequestStore,
  notesOf,
  settingsOf,
  type DiffFileRecord,
  type MergeRequestNoteRecord,
  type MergeRequestPipelineRecord,
  type MergeRequestRecord,
  type MilestoneRecord,
} from "./model";

//// "mergeRequests": {
//   "acme/web": {
//     "publicPipelines": true, "mergeRequestPipelines": true,
//     "labels": [{ "name": "bug", "color": "#d9534f", "description": "..." }],
//     "milestones": [{ "title": "v1.5", "state": "active", "dueDate": "2024-07-01", "startDate": "2024-05-01" }],
//     "branches": { "feature/search": [<file>] },
//     "mergeRequests": [{ "title": "...", "sourceBranch": "...", "targetBranch": "...", "author": "dev", ... }]
//   }
// }

const text = z.string({ error: "must be a string" });
const optionalText = text.nullable().default(null);
const filePath = z.string({ error: "must be a file path" }).min(1, "must be a file path");
const flag = z.boolean({ error: "must be a boolean" });
const count = z.number({ error: "must be a number" });
const seededId = z.number({ error: "must be a positive integer" }).int("must be a positive integer").positive("must be a positive integer").optional();
/** A time as the API writes it; absent or null: a default the entry derives. */
const optionalTime = z
  .string({ error: "must be an ISO 8601 time" })
  .refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 time")
  .transform((value) => new Date(value).toISOString())
  .nullable()
  .default(null);
const usernames = z.array(text, { error: "must be a list of usernames" }).default([]);
const entry = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, { error: "must be an object" });
const listOf = <T extends z.ZodType>(item: T) => z.array(item, { error: "must be an array" }).default([]);

/** A changed file; its modes and renamed flag follow from its paths and new/deleted flags unless given. */
const seedFile = entry({
  newPath: filePath.optional(),
  /** Another name for `newPath`. */
  path: filePath.optional(),
  oldPath: text.optional(),
  aMode: text.optional(),
  bMode: text.optional(),
  diff: text.default(""),
  newFile: flag.default(false),
  renamedFile: flag.optional(),
  deletedFile: flag.default(false),
  generatedFile: flag.default(false),
})
  .refine((file) => (file.newPath ?? file.path) !== undefined, { message: "must be a file path (newPath or path)", path: ["newPath"] })
  .transform((file): DiffFileRecord => {
    const newPath = (file.newPath ?? file.path)!;
    const oldPath = file.oldPath ?? newPath;
    return {
      oldPath,
      newPath,
      aMode: file.aMode ?? (file.newFile ? "0" : "100644"),
      bMode: file.bMode ?? (file.deletedFile ? "0" : "100644"),
      diff: file.diff,
      newFile: file.newFile,
      renamedFile: file.renamedFile ?? oldPath !== newPath,
      deletedFile: file.deletedFile,
      generatedFile: file.generatedFile,
    };
  });

const seedMilestone = entry({
  id: seededId,
  title: text,
  description: text.default(""),
  state: z.enum(["active", "closed"], { error: "must be active or closed" }).default("active"),
  dueDate: optionalText,
  startDate: optionalText,
});

const seedPipeline = entry({
  id: seededId,
  /** Default: the merge request's creation. */
  createdAt: optionalTime,
  status: text.default("success"),
  /** Default: the merge request's head. */
  sha: text.optional(),
  /** Default: the source branch. */
  ref: text.optional(),
  source: text.default("push"),
  coverage: optionalText,
});

/** A note, oldest first. */
const seedNote = entry({
  id: seededId,
  author: text,
  body: text,
  system: flag.default(false),
  createdAt: optionalTime,
  updatedAt: optionalTime,
});

const seedMergeRequest = entry({
  id: seededId,
  title: text,
  description: text.default(""),
  state: z.enum(["opened", "closed", "locked", "merged"], { error: "must be one of opened, closed, locked, merged" }).default("opened"),
  author: text,
  sourceBranch: text,
  /** Default: the project's default branch. */
  targetBranch: text.optional(),
  /** Default: the source branch's head. */
  sha: text.optional(),
  milestone: optionalText,
  labels: z.array(text, { error: "must be a list of label names" }).default([]),
  assignees: usernames,
  reviewers: usernames,
  approvers: usernames,
  approvedBy: usernames,
  /** Default: the author. */
  closedBy: text.optional(),
  mergedBy: text.optional(),
  createdAt: optionalTime,
  updatedAt: optionalTime,
  closedAt: optionalTime,
  mergedAt: optionalTime,
  mergeAfter: optionalTime,
  conflicts: flag.default(false),
  discussionLocked: flag.nullable().default(null),
  removeSourceBranch: flag.default(false),
  squash: flag.default(false),
  allowCollaboration: flag.default(false),
  mergeWhenPipelineSucceeds: flag.default(false),
  upvotes: count.default(0),
  downvotes: count.default(0),
  userNotesCount: count.default(0),
  blockingDiscussionsResolved: flag.default(true),
  timeEstimate: count.default(0),
  timeSpent: count.default(0),
  importedFrom: optionalText,
  approvalsBeforeMerge: count.nullable().default(null),
  /** Reactions by username: `{ "alice": ["thumbsup"] }`. */
  awardEmoji: z.record(z.string(), z.array(text, { error: "must be a list of emoji names" }), { error: "must be an object keyed by username" }).default({}),
  deployments: listOf(entry({ environment: text, deployedAt: optionalTime })),
  files: listOf(seedFile),
  divergedCommitsCount: count.default(0),
  rebaseInProgress: flag.default(false),
  firstContribution: flag.default(false),
  lockConflicts: count.default(0),
  pipelines: listOf(seedPipeline),
  /** Given, they set the count of user notes. */
  notes: z.array(seedNote, { error: "must be an array" }).optional(),
});
type SeedMergeRequest = z.output<typeof seedMergeRequest>;

const seedProjectSection = entry({
  publicPipelines: flag.default(true),
  mergeRequestPipelines: flag.default(true),
  /** Branch → its changed files, for merge requests made later from it. */
  branches: z.record(z.string(), z.array(seedFile, { error: "must be an array" }), { error: "must be an object keyed by branch name" }).default({}),
  labels: listOf(entry({ name: text, color: text.default(DEFAULT_LABEL_COLOR), description: optionalText })),
  milestones: listOf(seedMilestone),
  mergeRequests: listOf(seedMergeRequest),
});
type SeedProjectSection = z.output<typeof seedProjectSection>;

export const mergeRequestsSeedSchema = keyedSection("project full path", seedProjectSection);

/** The given id, reserved, or the sequence's next. */
function idFor(state: EmulatorState, sequence: string, given: number | undefined): number {
  const id = given ?? state.nextId(sequence);
  state.reserveId(sequence, id);
  return id;
}

function userAt(state: EmulatorState, username: string, where: string): User {
  const user = state.userByUsername(username);
  if (!user) throw new SeedError(`${where}: unknown user ${username}`);
  return user;
}

const userIds = (state: EmulatorState, names: string[], where: string): number[] => names.map((name, i) => userAt(state, name, `${where}[${i}]`).id);

function milestoneOf(state: EmulatorState, project: Project, seed: SeedProjectSection["milestones"][number], index: number): MilestoneRecord {
  const { id, ...fields } = seed;
  return { id: idFor(state, MILESTONE_SEQUENCE, id), iid: index + 1, projectId: project.id, ...fields, createdAt: project.createdAt, updatedAt: project.createdAt };
}

const FINISHED = ["success", "failed", "canceled", "skipped"];

function pipelinesOf(state: EmulatorState, project: Project, mr: MergeRequestRecord, seeds: SeedMergeRequest["pipelines"]): MergeRequestPipelineRecord[] {
  return seeds.map((seed) => {
    const id = idFor(state, PIPELINE_SEQUENCE, seed.id);
    const createdAt = seed.createdAt ?? mr.createdAt;
    const { status } = seed;
    const finished = FINISHED.includes(status);
    const finishedAt = finished ? new Date(Date.parse(createdAt) + 300_000).toISOString() : null;
    return {
      id,
      iid: 0,
      projectId: project.id,
      mergeRequestId: mr.id,
      sha: seed.sha ?? mr.sha ?? branchSha(state, project, mr.sourceBranch),
      beforeSha: "0000000000000000000000000000000000000000",
      ref: seed.ref ?? mr.sourceBranch,
      status,
      source: seed.source,
      userId: mr.authorId,
      createdAt,
      updatedAt: finishedAt ?? createdAt,
      startedAt: status === "created" || status === "pending" ? null : new Date(Date.parse(createdAt) + 10_000).toISOString(),
      finishedAt,
      duration: finished ? 290 : null,
      queuedDuration: status === "created" ? null : 10,
      coverage: seed.coverage,
    };
  });
}

function notesOfSeed(state: EmulatorState, mr: MergeRequestRecord, seeds: NonNullable<SeedMergeRequest["notes"]>, where: string): MergeRequestNoteRecord[] {
  return seeds.map((seed, i) => {
    const createdAt = seed.createdAt ?? mr.createdAt;
    const id = idFor(state, NOTE_SEQUENCE, seed.id);
    return {
      id,
      mergeRequestId: mr.id,
      projectId: mr.projectId,
      authorId: userAt(state, seed.author, `${where}[${i}].author`).id,
      body: seed.body,
      system: seed.system,
      createdAt,
      updatedAt: seed.updatedAt ?? createdAt,
    };
  });
}

/** `"awardEmoji": { "alice": ["thumbsup"] }`: reactions by username, kept by user id. */
function awardEmojiOf(state: EmulatorState, seed: SeedMergeRequest, where: string): Record<string, string[]> {
  const awardEmoji: Record<string, string[]> = {};
  for (const [username, emoji] of Object.entries(seed.awardEmoji)) awardEmoji[String(userAt(state, username, `${where}.awardEmoji`).id)] = emoji;
  return awardEmoji;
}

function mergeRequestOf(state: EmulatorState, project: Project, seed: SeedMergeRequest, iid: number, where: string): MergeRequestRecord {
  const createdAt = seed.createdAt ?? project.createdAt;
  const author = userAt(state, seed.author, `${where}.author`);
  const milestoneTitle = seed.milestone;
  const milestone = milestoneTitle === null ? undefined : mergeRequestStore.of(state).milestones.find((m) => m.projectId === project.id && m.title === milestoneTitle);
  if (milestoneTitle !== null && !milestone) throw new SeedError(`${where}.milestone: no milestone ${milestoneTitle} in ${state.projectFullPath(project)}`);
  const { sourceBranch } = seed;
  const targetBranch = seed.targetBranch ?? project.defaultBranch;
  const merged = seed.state === "merged";
  const closedAt = seed.state === "closed" ? (seed.closedAt ?? seed.updatedAt ?? createdAt) : null;
  const mergedAt = merged ? (seed.mergedAt ?? seed.updatedAt ?? createdAt) : null;
  const id = idFor(state, MR_SEQUENCE, seed.id);
  const mr: MergeRequestRecord = {
    id,
    iid,
    projectId: project.id,
    title: seed.title,
    description: seed.description,
    sourceBranch,
    targetBranch,
    state: seed.state,
    authorId: author.id,
    assigneeIds: userIds(state, seed.assignees, `${where}.assignees`),
    reviewerIds: userIds(state, seed.reviewers, `${where}.reviewers`),
    labelIds: seed.labels.map((name) => findOrCreateLabel(state, project.id, name).id),
    milestoneId: milestone?.id ?? null,
    createdAt,
    updatedAt: seed.updatedAt ?? mergedAt ?? closedAt ?? createdAt,
    closedAt,
    closedById: closedAt === null ? null : userAt(state, seed.closedBy ?? seed.author, `${where}.closedBy`).id,
    mergedAt,
    mergeUserId: merged ? userAt(state, seed.mergedBy ?? seed.author, `${where}.mergedBy`).id : null,
    mergeAfter: seed.mergeAfter,
    preparedAt: createdAt,
    sha: seed.sha ?? branchSha(state, project, sourceBranch),
    baseSha: branchSha(state, project, targetBranch),
    changesCount: changesCountOf(seed.files),
    mergeStatus: seed.conflicts ? "cannot_be_merged" : "can_be_merged",
    conflicts: seed.conflicts,
    mergeCommitSha: merged ? createHash("sha1").update(`merge ${state.projectFullPath(project)}!${iid}`).digest("hex") : null,
    // A squashed merge leaves its squash commit besides the merge commit.
    squashCommitSha: merged && seed.squash ? createHash("sha1").update(`squash ${state.projectFullPath(project)}!${iid}`).digest("hex") : null,
    discussionLocked: seed.discussionLocked,
    forceRemoveSourceBranch: seed.removeSourceBranch,
    squash: seed.squash,
    allowCollaboration: seed.allowCollaboration,
    mergeWhenPipelineSucceeds: seed.mergeWhenPipelineSucceeds,
    upvotes: seed.upvotes,
    downvotes: seed.downvotes,
    userNotesCount: seed.userNotesCount,
    blockingDiscussionsResolved: seed.blockingDiscussionsResolved,
    timeEstimate: seed.timeEstimate,
    totalTimeSpent: seed.timeSpent,
    imported: seed.importedFrom !== null,
    importedFrom: seed.importedFrom ?? "none",
    approvalsBeforeMerge: seed.approvalsBeforeMerge,
    approverIds: userIds(state, seed.approvers, `${where}.approvers`),
    approvedByIds: userIds(state, seed.approvedBy, `${where}.approvedBy`),
    awardEmoji: awardEmojiOf(state, seed, where),
    deployments: seed.deployments.map((deployment) => ({ environment: deployment.environment, deployedAt: deployment.deployedAt ?? createdAt })),
    files: seed.files,
    divergedCommitsCount: seed.divergedCommitsCount,
    rebaseInProgress: seed.rebaseInProgress,
    firstContribution: seed.firstContribution,
    lockConflicts: seed.lockConflicts,
  };
  return mr;
}

function applyProjectSection(state: EmulatorState, project: Project, section: SeedProjectSection, where: string): void {
  const store = mergeRequestStore.of(state);
  const settings = settingsOf(state, project);
  settings.publicPipelines = section.publicPipelines;
  settings.mergeRequestPipelines = section.mergeRequestPipelines;
  Object.assign(settings.branches, section.branches);
  for (const label of section.labels) findOrCreateLabel(state, project.id, label.name, label.color, label.description);
  section.milestones.forEach((seed, i) => store.milestones.push(milestoneOf(state, project, seed, i)));
  section.mergeRequests.forEach((seed, i) => {
    const at = `${where}.mergeRequests[${i}]`;
    const mr = mergeRequestOf(state, project, seed, i + 1, at);
    store.mergeRequests.push(mr);
    const seededNotes = notesOfSeed(state, mr, seed.notes ?? [], `${at}.notes`);
    notesOf(state).push(...seededNotes);
    // user_notes_count counts the comments, not the system notes.
    if (seed.notes !== undefined) mr.userNotesCount = seededNotes.filter((note) => !note.system).length;
    for (const pipeline of pipelinesOf(state, project, mr, seed.pipelines)) {
      pipeline.iid = store.pipelines.filter((p) => p.projectId === project.id).length + 1;
      store.pipelines.push(pipeline);
    }
  });
}

export function applyMergeRequestSeed(state: EmulatorState, section: z.output<typeof mergeRequestsSeedSchema> | undefined): void {
  if (section === undefined) return;
  for (const [fullPath, entry] of Object.entries(section)) {
    const where = `mergeRequests["${fullPath}"]`;
    const project = state.projectByFullPath(fullPath);
    if (!project) throw new SeedError(`${where}: unknown project ${fullPath}`);
    applyProjectSection(state, project, entry, where);
  }
}
