/**
 * Merging a merge request (`PUT .../merge`) and the versions of its diff
 * (`GET .../versions`, `GET .../versions/:version_id`). A merge request made
 * from branches of the repository is merged for real: a merge commit, a
 * squash commit, or a fast-forward of the target branch, as the project's
 * merge method says; one whose branches only the seed names gets the state
 * and the commit sha a merge gives, without a commit. The rules each follows
 * are in the emulator's README ("Merging, and the diff's versions").
 */
import { createHash } from "node:crypto";
import * as git from "isomorphic-git";
import { ApiError, recordNotFound } from "../../errors";
import { findProject } from "../../lookup";
import { ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import type { EmulatorState, Project, User } from "../../state";
import { projectDetails } from "../projects";
import { canMergeTo, canPushTo } from "../repository/access";
import { commitsInRange, mergeBaseOf, presentCommit } from "../repository/commits";
import { diffCommits } from "../repository/diff";
import { repositoryOf, signature, type ProjectRepository } from "../repository/model";
import { refreshFromRepository } from "./jobs";
import { changesCountOf, isDraft, DIFF_VERSION_SEQUENCE, type MergeRequestRecord, type MergeRequestVersionRecord } from "./model";
import { isOpen, presentDiffs } from "./present";
import { findMergeRequest, singleAnswer } from "./routes";

const ONE = "/projects/:id/merge_requests/:merge_request_iid";
const iidParams = { id: { type: "string", required: true }, merge_request_iid: { type: "integer", required: true } } as const;

const notAllowed = (): ApiError => new ApiError(405, { message: "405 Method Not Allowed" });
const cannotBeMerged = (): ApiError => new ApiError(422, { message: "Branch cannot be merged" });

/** MergeRequest#default_merge_commit_message with the default template. */
function defaultMergeMessage(state: EmulatorState, project: Project, mr: MergeRequestRecord): string {
  return `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\nSee merge request ${state.projectFullPath(project)}!${mr.iid}`;
}

interface MergeRequestParams {
  merge_commit_message?: string;
  squash_commit_message?: string;
  should_remove_source_branch?: boolean;
  squash?: boolean;
}

interface MergeOutcome {
  mergeCommitSha: string | null;
  squashCommitSha: string | null;
}

/** The git work of MergeRequests::MergeService: squash first when asked, then a merge commit or a fast-forward. */
async function mergeInRepository(
  state: EmulatorState,
  project: Project,
  repo: ProjectRepository,
  mr: MergeRequestRecord,
  user: User,
  params: MergeRequestParams,
): Promise<MergeOutcome> {
  const method = projectDetails(state, project).mergeMethod ?? "merge";
  const target = (await repo.resolveRef(`refs/heads/${mr.targetBranch}`))!;
  const head = mr.sha!;
  const base = (await mergeBaseOf(repo, [target, head])) ?? target;
  // Fast-forward and semi-linear merges need the source branch on top of the target branch.
  if (method !== "merge" && base !== target) throw cannotBeMerged();
  const now = state.now();
  const merger = signature(user, now);
  let theirs = head;
  let squashCommitSha: string | null = null;
  if (mr.squash) {
    const author = state.userById(mr.authorId) ?? user;
    const { commit } = await repo.readCommit(head);
    const message = params.squash_commit_message ?? mr.title;
    squashCommitSha = await git.writeCommit({
      fs: repo.fs,
      gitdir: repo.gitdir,
      commit: { message: message.endsWith("\n") ? message : `${message}\n`, tree: commit.tree, parent: [base], author: signature(author, now), committer: merger },
    });
    theirs = squashCommitSha;
  }
  if (method === "ff") {
    await git.writeRef({ fs: repo.fs, gitdir: repo.gitdir, ref: `refs/heads/${mr.targetBranch}`, value: theirs, force: true });
    return { mergeCommitSha: null, squashCommitSha };
  }
  const message = params.merge_commit_message ?? defaultMergeMessage(state, project, mr);
  try {
    const result = await git.merge({ fs: repo.fs, gitdir: repo.gitdir, ours: mr.targetBranch, theirs, fastForward: false, abortOnConflict: true, message, author: merger, committer: merger });
    return { mergeCommitSha: result.oid ?? null, squashCommitSha };
  } catch {
    throw cannotBeMerged();
  }
}

/** A merge request whose branches the repository has not got: the state and the sha a merge records. */
function mergeWithoutRepository(state: EmulatorState, project: Project, mr: MergeRequestRecord): MergeOutcome {
  const derived = (kind: string): string => createHash("sha1").update(`${kind} ${state.projectFullPath(project)}!${mr.iid} ${state.now()}`).digest("hex");
  const method = projectDetails(state, project).mergeMethod ?? "merge";
  return { mergeCommitSha: method === "ff" ? null : derived("merge"), squashCommitSha: mr.squash ? derived("squash") : null };
}

const mergeRoute = route(
  "PUT",
  `${ONE}/merge`,
  {
    params: {
      ...iidParams,
      merge_commit_message: { type: "string" },
      squash_commit_message: { type: "string" },
      should_remove_source_branch: { type: "boolean" },
      merge_when_pipeline_succeeds: { type: "boolean" },
      auto_merge: { type: "boolean" },
      sha: { type: "string" },
      squash: { type: "boolean" },
    },
  },
  async (ctx) => {
    const project = findProject(ctx);
    const user = requireUser(ctx);
    const mr = findMergeRequest(ctx, project, ctx.params.merge_request_iid);
    // `can_be_merged_by?`: what the target branch's merge levels allow, else `unauthorized!`.
    if (!canMergeTo(ctx.state, user, project, mr.targetBranch)) throw new ApiError(401, { message: "401 Unauthorized" });
    if (mr.fromRepository && isOpen(mr)) await refreshFromRepository(ctx.state, project, mr);
    // `mergeable_state?`: open, not a draft, its diff prepared.
    if (mr.state !== "opened" || isDraft(mr.title) || mr.preparedAt === null || mr.sha === null) throw notAllowed();
    if (mr.conflicts) throw cannotBeMerged();
    if (ctx.params.sha !== undefined && ctx.params.sha !== mr.sha) {
      throw new ApiError(409, { message: `SHA does not match HEAD of source branch: ${mr.sha}` });
    }
    if (ctx.params.squash) mr.squash = true;
    const repo = await repositoryOf(ctx.state, project);
    const outcome = mr.fromRepository ? await mergeInRepository(ctx.state, project, repo, mr, user, ctx.params) : mergeWithoutRepository(ctx.state, project, mr);
    const removeSource = ctx.params.should_remove_source_branch ?? mr.forceRemoveSourceBranch;
    if (mr.fromRepository && removeSource && mr.sourceBranch !== project.defaultBranch && canPushTo(ctx.state, user, project, mr.sourceBranch)) {
      await git.deleteRef({ fs: repo.fs, gitdir: repo.gitdir, ref: `refs/heads/${mr.sourceBranch}` });
    }
    if (mr.fromRepository) await repo.syncProject();
    const now = ctx.state.now();
    Object.assign(mr, { state: "merged", mergedAt: now, mergeUserId: user.id, updatedAt: now, mergeStatus: "can_be_merged", ...outcome });
    return ok(singleAnswer(ctx, project, mr));
  },
);

// ---------------------------------------------------------------------------
// Versions

/** The versions of a merge request's diff, oldest first; a prepared one has at least the one it was prepared with. */
function versionsOf(state: EmulatorState, mr: MergeRequestRecord): MergeRequestVersionRecord[] {
  if (mr.preparedAt === null || mr.sha === null) return [];
  if (!mr.versions || mr.versions.length === 0) {
    mr.versions = [
      {
        id: state.nextId(DIFF_VERSION_SEQUENCE),
        headCommitSha: mr.sha,
        baseCommitSha: mr.baseSha ?? mr.sha,
        startCommitSha: mr.startSha ?? mr.baseSha ?? mr.sha,
        createdAt: mr.preparedAt,
        realSize: changesCountOf(mr.files),
      },
    ];
  }
  return mr.versions;
}

/** `Entities::MergeRequestDiff`. */
function presentVersion(mr: MergeRequestRecord, version: MergeRequestVersionRecord): Record<string, unknown> {
  return {
    id: version.id,
    head_commit_sha: version.headCommitSha,
    base_commit_sha: version.baseCommitSha,
    start_commit_sha: version.startCommitSha,
    created_at: version.createdAt,
    merge_request_id: mr.id,
    state: "collected",
    real_size: version.realSize,
    patch_id_sha: createHash("sha1").update(`${version.baseCommitSha}..${version.headCommitSha}`).digest("hex"),
  };
}

function readableVersions(ctx: RequestContext<{ merge_request_iid: number }>): { project: Project; mr: MergeRequestRecord; versions: MergeRequestVersionRecord[] } {
  const project = findProject(ctx);
  const mr = findMergeRequest(ctx, project, ctx.params.merge_request_iid);
  return { project, mr, versions: versionsOf(ctx.state, mr) };
}

const listVersions = route("GET", `${ONE}/versions`, { params: iidParams, paginated: true }, (ctx) => {
  const { mr, versions } = readableVersions(ctx);
  return paginate(ctx, [...versions].reverse(), { present: (version) => presentVersion(mr, version) });
});

const showVersion = route(
  "GET",
  `${ONE}/versions/:version_id`,
  { params: { ...iidParams, version_id: { type: "integer", required: true }, unidiff: { type: "boolean" } } },
  async (ctx) => {
    const { project, mr, versions } = readableVersions(ctx);
    const version = versions.find((candidate) => candidate.id === ctx.params.version_id);
    if (!version) throw recordNotFound();
    const latest = version === versions[versions.length - 1];
    let files = latest ? mr.files : [];
    let commits: Record<string, unknown>[] = [];
    if (mr.fromRepository) {
      const repo = await repositoryOf(ctx.state, project);
      if (!latest) files = await diffCommits(repo, version.baseCommitSha, version.headCommitSha);
      commits = (await commitsInRange(repo, version.headCommitSha, [version.baseCommitSha])).map((record) => presentCommit(ctx.state, project, record));
    }
    return ok({ ...presentVersion(mr, version), commits, diffs: presentDiffs(files, ctx.params.unidiff ?? false) });
  },
);

export const mergeRoutes: readonly RouteDefinition[] = [mergeRoute, listVersions, showVersion];
