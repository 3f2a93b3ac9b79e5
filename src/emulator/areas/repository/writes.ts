/**
 * A project's branches and tags read one by one (what a client checks before
 * naming a ref), and writing to its repository through the API: creating a branch, and
 * a commit of file actions (create, update, delete, move, chmod) on a branch,
 * new or existing. Both write real git objects and refs (./model.ts, ./trees.ts);
 * the project's branches and head follow at once. What each answers and
 * refuses is in the emulator's README ("Repository writes").
 */
import * as git from "isomorphic-git";
import { BLANK_SHA, pushData, queueProjectEvent, type PushedCommit } from "../hooks/model";
import { ApiError, forbidden, notFound, paramError } from "../../errors";
import { findProject } from "../../lookup";
import type { RawParams } from "../../params";
import { created, ok, requireUser, route, type RouteDefinition } from "../../router";
import type { EmulatorState, Project, User } from "../../state";
import { canForcePush, canPushTo, canPushCode } from "./access";
import { developersCan, matchingBranchRules, matchingTagRules } from "../protected-refs/model";
import { presentCommit, readCommitRecord } from "./commits";
import { readableRepository } from "./content";
import { diffCommits } from "./diff";
import { repositoryOf, type FileAction, type ProjectRepository } from "./model";
import { isRefName } from "./refs";

const idParam = { id: { type: "string", required: true } } as const;

/** `render_api_error!(message, 400)`: a service's refusal. */
const refused = (message: string): ApiError => new ApiError(400, { message });

/**
 * Gitlab::GitRefValidator: git's check-ref-format rules (`isRefName`), and no
 * name that starts with a ref prefix, or is `HEAD`.
 */
export function validBranchName(name: string): boolean {
  if (name === "HEAD" || ["refs/heads/", "refs/tags/", "refs/remotes/"].some((prefix) => name.startsWith(prefix))) return false;
  return isRefName(name);
}

/** `API::Entities::Branch` of a branch whose head is `sha`. */
async function presentBranch(state: EmulatorState, project: Project, repo: ProjectRepository, user: User | null, name: string, sha: string): Promise<Record<string, unknown>> {
  const commit = presentCommit(state, project, await readCommitRecord(repo, sha));
  const rules = matchingBranchRules(state, project, name);
  return {
    name,
    commit,
    merged: false,
    protected: rules.length > 0,
    developers_can_push: developersCan(rules, "push"),
    developers_can_merge: developersCan(rules, "merge"),
    can_push: canPushTo(state, user, project, name),
    default: name === project.defaultBranch,
    web_url: `https://${state.instance.host}/${state.projectFullPath(project)}/-/tree/${name}`,
  };
}

/** `GET /projects/:id/repository/branches/:branch`: the branch, or 404 `Branch Not Found`. */
const getBranch = route("GET", "/projects/:id/repository/branches/:branch", { params: { ...idParam, branch: { type: "string", required: true } } }, async (ctx) => {
  const { project, repo } = await readableRepository(ctx);
  const name = String(ctx.params.branch);
  const sha = isRefName(name) ? await repo.resolveRef(`refs/heads/${name}`) : undefined;
  if (sha === undefined) throw notFound("Branch");
  return ok(await presentBranch(ctx.state, project, repo, ctx.user, name, sha));
});

/** `GET /projects/:id/repository/tags/:tag_name`: `API::Entities::Tag`, or 404 `Tag Not Found`. */
const getTag = route("GET", "/projects/:id/repository/tags/:tag_name", { params: { ...idParam, tag_name: { type: "string", required: true } } }, async (ctx) => {
  const { project, repo } = await readableRepository(ctx);
  const name = String(ctx.params.tag_name);
  const sha = isRefName(name) ? await repo.resolveRef(`refs/tags/${name}`) : undefined;
  if (sha === undefined) throw notFound("Tag");
  const commit = presentCommit(ctx.state, project, await readCommitRecord(repo, sha));
  return ok({ name, message: "", target: sha, commit, release: null, protected: matchingTagRules(ctx.state, project, name).length > 0, created_at: null });
});

const createBranch = route(
  "POST",
  "/projects/:id/repository/branches",
  { params: { ...idParam, branch: { type: "string", required: true }, ref: { type: "string", required: true } } },
  async (ctx) => {
    const user = requireUser(ctx);
    const project = findProject(ctx);
    if (!canPushCode(ctx.state, user, project)) throw forbidden();
    const { branch, ref } = ctx.params;
    if (!validBranchName(branch)) throw refused("Branch name is invalid");
    const repo = await repositoryOf(ctx.state, project);
    if (await repo.resolveRef(`refs/heads/${branch}`)) throw refused("Branch already exists");
    // The pre-receive check of a new ref: a protected name only for who may push to it.
    if (!canPushTo(ctx.state, user, project, branch)) throw refused("You are not allowed to create protected branches on this project.");
    const sha = await repo.resolveRef(ref);
    if (sha === undefined) throw refused(`Invalid reference name: ${ref}`);
    await git.writeRef({ fs: repo.fs, gitdir: repo.gitdir, ref: `refs/heads/${branch}`, value: sha });
    await repo.syncProject();
    // A new branch is a push that creates it: the hooks that take push events hear of it.
    queueProjectEvent(ctx.state, project, "push_events", pushData(ctx.state, project, user, { ref: `refs/heads/${branch}`, before: BLANK_SHA, after: sha, commits: [] }), branch);
    return created(await presentBranch(ctx.state, project, repo, user, branch, sha));
  },
);

// ---------------------------------------------------------------------------
// Commits

const ACTIONS = ["create", "update", "delete", "move", "chmod"] as const;

/** One entry of `actions[]`, checked as Grape declares it; its content decoded. */
function readAction(raw: Record<string, unknown>, index: number): FileAction {
  const text = (name: string): string | undefined => (raw[name] === undefined || raw[name] === null ? undefined : String(raw[name]));
  const action = text("action");
  const filePath = text("file_path");
  if (action === undefined) throw paramError(`actions[${index}][action] is missing`);
  if (!(ACTIONS as readonly string[]).includes(action)) throw paramError(`actions[${index}][action] does not have a valid value`);
  if (filePath === undefined || filePath === "") throw paramError(`actions[${index}][file_path] is missing`);
  const encoding = text("encoding") ?? "text";
  if (encoding !== "text" && encoding !== "base64") throw paramError(`actions[${index}][encoding] does not have a valid value`);
  const content = text("content");
  const executable = raw["execute_filemode"] === undefined ? undefined : ["true", "1", "yes"].includes(String(raw["execute_filemode"]).toLowerCase());
  if (action === "move" && text("previous_path") === undefined) throw refused("You must provide a previous_path for the move action");
  return {
    action: action as FileAction["action"],
    filePath: filePath.replace(/^\/+/, ""),
    ...(text("previous_path") === undefined ? {} : { previousPath: text("previous_path")!.replace(/^\/+/, "") }),
    ...(content === undefined ? {} : { content: encoding === "base64" ? Buffer.from(content, "base64") : content }),
    ...(action === "chmod" || executable !== undefined ? { executable: executable ?? false } : {}),
  };
}

function readActions(raw: RawParams): FileAction[] {
  const actions = raw["actions"];
  if (actions === undefined) throw paramError("actions is missing");
  if (!Array.isArray(actions) || actions.length === 0 || !actions.every((entry) => typeof entry === "object" && entry !== null && !Array.isArray(entry))) {
    throw paramError("actions is invalid");
  }
  return actions.map((entry, index) => readAction(entry as Record<string, unknown>, index));
}

/** `stats` of `Entities::CommitDetail`: lines added and removed against the first parent. */
async function statsOf(repo: ProjectRepository, sha: string, parent: string | undefined): Promise<Record<string, number>> {
  let additions = 0;
  let deletions = 0;
  if (parent !== undefined) {
    for (const file of await diffCommits(repo, parent, sha)) {
      for (const line of file.diff.split("\n")) {
        if (line.startsWith("+")) additions++;
        else if (line.startsWith("-")) deletions++;
      }
    }
  }
  return { additions, deletions, total: additions + deletions };
}

const createCommit = route(
  "POST",
  "/projects/:id/repository/commits",
  {
    params: {
      ...idParam,
      branch: { type: "string", required: true },
      commit_message: { type: "string", required: true },
      start_branch: { type: "string" },
      start_sha: { type: "string" },
      author_email: { type: "string" },
      author_name: { type: "string" },
      stats: { type: "boolean" },
      force: { type: "boolean" },
    },
  },
  async (ctx) => {
    const user = requireUser(ctx);
    const actions = readActions(ctx.rawParams);
    const { params } = ctx;
    if (params.start_branch !== undefined && params.start_sha !== undefined) throw paramError("start_branch, start_sha are mutually exclusive");
    const project = findProject(ctx);
    if (!canPushTo(ctx.state, user, project, params.branch)) throw new ApiError(403, { message: "403 Forbidden - You are not allowed to push into this branch" });
    if (!validBranchName(params.branch)) throw refused("Branch name is invalid");
    const repo = await repositoryOf(ctx.state, project);
    const start = await startOf(repo, params);
    const rewrites = start !== undefined && params.force === true && (await repo.resolveRef(`refs/heads/${params.branch}`)) !== undefined;
    if (rewrites && !canForcePush(ctx.state, project, params.branch)) {
      throw new ApiError(403, { message: "403 Forbidden - You are not allowed to force push code to a protected branch on this project." });
    }
    const before = (await repo.resolveRef(`refs/heads/${params.branch}`)) ?? BLANK_SHA;
    let sha: string;
    try {
      sha = await repo.commit({
        branch: params.branch,
        ...(start === undefined ? {} : { startRef: start }),
        message: params.commit_message,
        author: { name: params.author_name ?? user.name, email: params.author_email ?? user.email },
        committer: { name: user.name, email: user.email },
        actions,
        replaceBranch: start !== undefined && params.force === true,
      });
    } catch (error) {
      throw refused((error as Error).message);
    }
    const record = await readCommitRecord(repo, sha);
    const pushed: PushedCommit = { id: sha, message: params.commit_message, timestamp: ctx.state.now(), author: { name: params.author_name ?? user.name, email: params.author_email ?? user.email }, ...changedPaths(actions) };
    queueProjectEvent(ctx.state, project, "push_events", pushData(ctx.state, project, user, { ref: `refs/heads/${params.branch}`, before, after: sha, commits: [pushed] }), params.branch);
    return created({
      ...presentCommit(ctx.state, project, record),
      ...(params.stats === false ? {} : { stats: await statsOf(repo, sha, record.commit.parent[0]) }),
      status: null,
      project_id: project.id,
      last_pipeline: null,
    });
  },
);

/** The paths a commit's actions add, change and remove, as a push event lists them. */
function changedPaths(actions: readonly FileAction[]): Pick<PushedCommit, "added" | "modified" | "removed"> {
  const added: string[] = [];
  const modified: string[] = [];
  const removed: string[] = [];
  for (const action of actions) {
    if (action.action === "create") added.push(action.filePath);
    else if (action.action === "delete") removed.push(action.filePath);
    else if (action.action === "move") {
      added.push(action.filePath);
      if (action.previousPath !== undefined) removed.push(action.previousPath);
    } else modified.push(action.filePath);
  }
  return { added, modified, removed };
}

/**
 * Where the commit starts, as Commits::CreateService validates it: without
 * `start_branch` or `start_sha` the branch itself, which must exist (unless
 * the repository is empty); a start on another branch makes a new branch,
 * which must not exist unless `force`.
 */
async function startOf(
  repo: ProjectRepository,
  params: { branch: string; start_branch?: string; start_sha?: string; force?: boolean },
): Promise<string | undefined> {
  const empty = (await git.listBranches({ fs: repo.fs, gitdir: repo.gitdir })).length === 0;
  const branchHead = await repo.resolveRef(`refs/heads/${params.branch}`);
  if (params.start_sha !== undefined) {
    const sha = /^[0-9a-f]{7,40}$/.test(params.start_sha) ? await repo.resolveRef(params.start_sha) : undefined;
    if (sha === undefined) throw refused(`Cannot find start_sha '${params.start_sha}'`);
    if (branchHead !== undefined && !params.force) throw refused(`A branch called '${params.branch}' already exists. Switch to that branch in order to make changes`);
    return sha;
  }
  const startBranch = params.start_branch ?? params.branch;
  if (empty) return undefined;
  const startHead = await repo.resolveRef(`refs/heads/${startBranch}`);
  if (startHead === undefined) throw refused("You can only create or edit files when you are on a branch");
  if (startBranch === params.branch) return undefined;
  if (branchHead !== undefined && !params.force) throw refused(`A branch called '${params.branch}' already exists. Switch to that branch in order to make changes`);
  return startHead;
}

export const repositoryWriteRoutes: readonly RouteDefinition[] = [getBranch, getTag, createBranch, createCommit];
