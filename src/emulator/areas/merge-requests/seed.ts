/** The `mergeRequests` seed section: merge requests, their labels, milestones, pipelines and notes, read as the API would have made them. */
import { createHash } from "node:crypto";
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
  type DeploymentRecord,
  type DiffFileRecord,
  type MergeRequestNoteRecord,
  type MergeRequestPipelineRecord,
  type MergeRequestRecord,
  type MergeRequestState,
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

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

class SeedReader {
  constructor(
    readonly state: EmulatorState,
    readonly where: string,
  ) {}

  object(value: unknown, where = this.where): Json {
    if (!isObject(value)) throw new SeedError(`${where} must be an object`);
    return value;
  }

  array(value: unknown, where: string): unknown[] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new SeedError(`${where} must be an array`);
    return value;
  }

  string(entry: Json, key: string, fallback?: string): string {
    const value = entry[key];
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value !== "string") throw new SeedError(`${this.where}.${key} must be a string`);
    return value;
  }

  optionalString(entry: Json, key: string): string | null {
    const value = entry[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== "string") throw new SeedError(`${this.where}.${key} must be a string`);
    return value;
  }

  time(entry: Json, key: string): string | null {
    const text = this.optionalString(entry, key);
    if (text === null) return null;
    const parsed = Date.parse(text);
    if (Number.isNaN(parsed)) throw new SeedError(`${this.where}.${key} must be an ISO 8601 time`);
    return new Date(parsed).toISOString();
  }

  number(entry: Json, key: string, fallback: number): number {
    const value = entry[key];
    if (value === undefined) return fallback;
    if (typeof value !== "number" || !Number.isFinite(value)) throw new SeedError(`${this.where}.${key} must be a number`);
    return value;
  }

  boolean(entry: Json, key: string, fallback: boolean): boolean {
    const value = entry[key];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") throw new SeedError(`${this.where}.${key} must be a boolean`);
    return value;
  }

  user(username: unknown, where: string): User {
    if (typeof username !== "string") throw new SeedError(`${where} must be a username`);
    const user = this.state.userByUsername(username);
    if (!user) throw new SeedError(`${where}: unknown user ${username}`);
    return user;
  }

  users(entry: Json, key: string): number[] {
    return this.array(entry[key], `${this.where}.${key}`).map((name, i) => this.user(name, `${this.where}.${key}[${i}]`).id);
  }
}

function readFile(reader: SeedReader, value: unknown, where: string): DiffFileRecord {
  const entry = reader.object(value, where);
  const r = new SeedReader(reader.state, where);
  const newFile = r.boolean(entry, "newFile", false);
  const deletedFile = r.boolean(entry, "deletedFile", false);
  const newPath = entry["newPath"] ?? entry["path"];
  if (typeof newPath !== "string" || newPath === "") throw new SeedError(`${where}.newPath (or path) must be a file path`);
  const oldPath = r.string(entry, "oldPath", newPath);
  return {
    oldPath,
    newPath,
    aMode: r.string(entry, "aMode", newFile ? "0" : "100644"),
    bMode: r.string(entry, "bMode", deletedFile ? "0" : "100644"),
    diff: r.string(entry, "diff", ""),
    newFile,
    renamedFile: r.boolean(entry, "renamedFile", oldPath !== newPath),
    deletedFile,
    generatedFile: r.boolean(entry, "generatedFile", false),
  };
}

const readFiles = (reader: SeedReader, value: unknown, where: string): DiffFileRecord[] =>
  reader.array(value, where).map((file, i) => readFile(reader, file, `${where}[${i}]`));

function readMilestone(reader: SeedReader, project: Project, value: unknown, index: number, where: string): MilestoneRecord {
  const entry = reader.object(value, where);
  const r = new SeedReader(reader.state, where);
  const state = r.string(entry, "state", "active");
  if (state !== "active" && state !== "closed") throw new SeedError(`${where}.state must be active or closed`);
  const id = r.number(entry, "id", 0) || reader.state.nextId(MILESTONE_SEQUENCE);
  reader.state.reserveId(MILESTONE_SEQUENCE, id);
  return {
    id,
    iid: index + 1,
    projectId: project.id,
    title: r.string(entry, "title"),
    description: r.string(entry, "description", ""),
    state,
    dueDate: r.optionalString(entry, "dueDate"),
    startDate: r.optionalString(entry, "startDate"),
    createdAt: project.createdAt,
    updatedAt: project.createdAt,
  };
}

const SEED_STATES: readonly MergeRequestState[] = ["opened", "closed", "locked", "merged"];

function readPipelines(reader: SeedReader, project: Project, mr: MergeRequestRecord, value: unknown, where: string): MergeRequestPipelineRecord[] {
  return reader.array(value, where).map((item, i) => {
    const entry = reader.object(item, `${where}[${i}]`);
    const r = new SeedReader(reader.state, `${where}[${i}]`);
    const id = r.number(entry, "id", 0) || reader.state.nextId(PIPELINE_SEQUENCE);
    reader.state.reserveId(PIPELINE_SEQUENCE, id);
    const createdAt = r.time(entry, "createdAt") ?? mr.createdAt;
    const status = r.string(entry, "status", "success");
    const finished = ["success", "failed", "canceled", "skipped"].includes(status);
    const finishedAt = finished ? new Date(Date.parse(createdAt) + 300_000).toISOString() : null;
    return {
      id,
      iid: 0,
      projectId: project.id,
      mergeRequestId: mr.id,
      sha: r.string(entry, "sha", mr.sha ?? branchSha(reader.state, project, mr.sourceBranch)),
      beforeSha: "0000000000000000000000000000000000000000",
      ref: r.string(entry, "ref", mr.sourceBranch),
      status,
      source: r.string(entry, "source", "push"),
      userId: mr.authorId,
      createdAt,
      updatedAt: finishedAt ?? createdAt,
      startedAt: status === "created" || status === "pending" ? null : new Date(Date.parse(createdAt) + 10_000).toISOString(),
      finishedAt,
      duration: finished ? 290 : null,
      queuedDuration: status === "created" ? null : 10,
      coverage: r.optionalString(entry, "coverage"),
    };
  });
}

/** `"awardEmoji": { "alice": ["thumbsup"] }`: reactions by username, kept by user id. */
function readAwardEmoji(r: SeedReader, entry: Json, where: string): Record<string, string[]> {
  const awardEmoji: Record<string, string[]> = {};
  for (const [username, emoji] of Object.entries(r.object(entry["awardEmoji"] ?? {}, `${where}.awardEmoji`))) {
    awardEmoji[String(r.user(username, `${where}.awardEmoji`).id)] = r.array(emoji, `${where}.awardEmoji.${username}`).map(String);
  }
  return awardEmoji;
}

function readDeployments(r: SeedReader, entry: Json, where: string, createdAt: string): DeploymentRecord[] {
  return r.array(entry["deployments"], `${where}.deployments`).map((d, i) => {
    const deployment = r.object(d, `${where}.deployments[${i}]`);
    return { environment: r.string(deployment, "environment"), deployedAt: r.time(deployment, "deployedAt") ?? createdAt };
  });
}

/** `"notes": [{ "author": "alice", "body": "...", "createdAt": "...", "system": false }]`, oldest first. */
function readNotes(reader: SeedReader, mr: MergeRequestRecord, value: unknown, where: string): MergeRequestNoteRecord[] {
  return reader.array(value, where).map((item, i) => {
    const entry = reader.object(item, `${where}[${i}]`);
    const r = new SeedReader(reader.state, `${where}[${i}]`);
    const createdAt = r.time(entry, "createdAt") ?? mr.createdAt;
    const id = r.number(entry, "id", 0) || reader.state.nextId(NOTE_SEQUENCE);
    reader.state.reserveId(NOTE_SEQUENCE, id);
    return {
      id,
      mergeRequestId: mr.id,
      projectId: mr.projectId,
      authorId: r.user(entry["author"], `${where}[${i}].author`).id,
      body: r.string(entry, "body"),
      system: r.boolean(entry, "system", false),
      createdAt,
      updatedAt: r.time(entry, "updatedAt") ?? createdAt,
    };
  });
}

function readMergeRequest(reader: SeedReader, project: Project, value: unknown, iid: number, where: string): { mr: MergeRequestRecord; pipelines: unknown; notes: unknown } {
  const entry = reader.object(value, where);
  const r = new SeedReader(reader.state, where);
  const { state } = reader;
  const mrState = r.string(entry, "state", "opened") as MergeRequestState;
  if (!SEED_STATES.includes(mrState)) throw new SeedError(`${where}.state must be one of ${SEED_STATES.join(", ")}`);
  const createdAt = r.time(entry, "createdAt") ?? project.createdAt;
  const author = r.user(entry["author"], `${where}.author`);
  const milestoneTitle = r.optionalString(entry, "milestone");
  const milestone = milestoneTitle === null ? undefined : mergeRequestStore.of(state).milestones.find((m) => m.projectId === project.id && m.title === milestoneTitle);
  if (milestoneTitle !== null && !milestone) throw new SeedError(`${where}.milestone: no milestone ${milestoneTitle} in ${state.projectFullPath(project)}`);
  const sourceBranch = r.string(entry, "sourceBranch");
  const targetBranch = r.string(entry, "targetBranch", project.defaultBranch);
  const merged = mrState === "merged";
  const closedAt = mrState === "closed" ? (r.time(entry, "closedAt") ?? r.time(entry, "updatedAt") ?? createdAt) : null;
  const mergedAt = merged ? (r.time(entry, "mergedAt") ?? r.time(entry, "updatedAt") ?? createdAt) : null;
  const id = r.number(entry, "id", 0) || state.nextId(MR_SEQUENCE);
  state.reserveId(MR_SEQUENCE, id);
  const mr: MergeRequestRecord = {
    id,
    iid,
    projectId: project.id,
    title: r.string(entry, "title"),
    description: r.string(entry, "description", ""),
    sourceBranch,
    targetBranch,
    state: mrState,
    authorId: author.id,
    assigneeIds: r.users(entry, "assignees"),
    reviewerIds: r.users(entry, "reviewers"),
    labelIds: r.array(entry["labels"], `${where}.labels`).map((name) => findOrCreateLabel(state, project.id, String(name)).id),
    milestoneId: milestone?.id ?? null,
    createdAt,
    updatedAt: r.time(entry, "updatedAt") ?? mergedAt ?? closedAt ?? createdAt,
    closedAt,
    closedById: closedAt === null ? null : r.user(entry["closedBy"] ?? entry["author"], `${where}.closedBy`).id,
    mergedAt,
    mergeUserId: merged ? r.user(entry["mergedBy"] ?? entry["author"], `${where}.mergedBy`).id : null,
    mergeAfter: r.time(entry, "mergeAfter"),
    preparedAt: createdAt,
    sha: r.string(entry, "sha", branchSha(state, project, sourceBranch)),
    baseSha: branchSha(state, project, targetBranch),
    changesCount: null,
    mergeStatus: "can_be_merged",
    conflicts: r.boolean(entry, "conflicts", false),
    mergeCommitSha: merged ? createHash("sha1").update(`merge ${state.projectFullPath(project)}!${iid}`).digest("hex") : null,
    squashCommitSha: null,
    discussionLocked: entry["discussionLocked"] === undefined ? null : r.boolean(entry, "discussionLocked", false),
    forceRemoveSourceBranch: r.boolean(entry, "removeSourceBranch", false),
    squash: r.boolean(entry, "squash", false),
    allowCollaboration: r.boolean(entry, "allowCollaboration", false),
    mergeWhenPipelineSucceeds: r.boolean(entry, "mergeWhenPipelineSucceeds", false),
    upvotes: r.number(entry, "upvotes", 0),
    downvotes: r.number(entry, "downvotes", 0),
    userNotesCount: r.number(entry, "userNotesCount", 0),
    blockingDiscussionsResolved: r.boolean(entry, "blockingDiscussionsResolved", true),
    timeEstimate: r.number(entry, "timeEstimate", 0),
    totalTimeSpent: r.number(entry, "timeSpent", 0),
    imported: r.optionalString(entry, "importedFrom") !== null,
    importedFrom: r.optionalString(entry, "importedFrom") ?? "none",
    approvalsBeforeMerge: entry["approvalsBeforeMerge"] === undefined ? null : r.number(entry, "approvalsBeforeMerge", 0),
    approverIds: r.users(entry, "approvers"),
    approvedByIds: r.users(entry, "approvedBy"),
    awardEmoji: readAwardEmoji(r, entry, where),
    deployments: readDeployments(r, entry, where, createdAt),
    files: readFiles(reader, entry["files"], `${where}.files`),
    divergedCommitsCount: r.number(entry, "divergedCommitsCount", 0),
    rebaseInProgress: r.boolean(entry, "rebaseInProgress", false),
    firstContribution: r.boolean(entry, "firstContribution", false),
    lockConflicts: r.number(entry, "lockConflicts", 0),
  };
  mr.changesCount = changesCountOf(mr.files);
  if (mr.conflicts) mr.mergeStatus = "cannot_be_merged";
  return { mr, pipelines: entry["pipelines"], notes: entry["notes"] };
}

function applyProjectSection(state: EmulatorState, project: Project, section: Json, where: string): void {
  const reader = new SeedReader(state, where);
  const store = mergeRequestStore.of(state);
  const settings = settingsOf(state, project);
  settings.publicPipelines = reader.boolean(section, "publicPipelines", true);
  settings.mergeRequestPipelines = reader.boolean(section, "mergeRequestPipelines", true);
  for (const [branch, files] of Object.entries(reader.object(section["branches"] ?? {}, `${where}.branches`))) {
    settings.branches[branch] = readFiles(reader, files, `${where}.branches["${branch}"]`);
  }
  reader.array(section["labels"], `${where}.labels`).forEach((value, i) => {
    const entry = reader.object(value, `${where}.labels[${i}]`);
    const r = new SeedReader(state, `${where}.labels[${i}]`);
    findOrCreateLabel(state, project.id, r.string(entry, "name"), r.string(entry, "color", DEFAULT_LABEL_COLOR), r.optionalString(entry, "description"));
  });
  reader.array(section["milestones"], `${where}.milestones`).forEach((value, i) => {
    store.milestones.push(readMilestone(reader, project, value, i, `${where}.milestones[${i}]`));
  });
  const entries = reader.array(section["mergeRequests"], `${where}.mergeRequests`);
  entries.forEach((value, i) => {
    const { mr, pipelines, notes } = readMergeRequest(reader, project, value, i + 1, `${where}.mergeRequests[${i}]`);
    store.mergeRequests.push(mr);
    const seededNotes = readNotes(reader, mr, notes, `${where}.mergeRequests[${i}].notes`);
    notesOf(state).push(...seededNotes);
    // user_notes_count counts the comments, not the system notes.
    if (notes !== undefined) mr.userNotesCount = seededNotes.filter((note) => !note.system).length;
    for (const pipeline of readPipelines(reader, project, mr, pipelines, `${where}.mergeRequests[${i}].pipelines`)) {
      pipeline.iid = store.pipelines.filter((p) => p.projectId === project.id).length + 1;
      store.pipelines.push(pipeline);
    }
  });
}

export function applyMergeRequestSeed(state: EmulatorState, section: Record<string, unknown> | undefined): void {
  if (section === undefined) return;
  for (const [fullPath, entry] of Object.entries(section)) {
    const where = `mergeRequests["${fullPath}"]`;
    const project = state.projectByFullPath(fullPath);
    if (!project) throw new SeedError(`${where}: unknown project ${fullPath}`);
    if (!isObject(entry)) throw new SeedError(`${where} must be an object`);
    applyProjectSection(state, project, entry, where);
  }
}
