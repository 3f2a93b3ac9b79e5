/**
 * Repository history (the repository content endpoints): compare, contributors,
 * merge base and changelog, over each project's real git repository
 * (./model.ts). The work is in ./compare.ts,
 * ./commits.ts, ./diff.ts and ./changelog.ts;
 * this module reads the parameters and answers as real servers do:
 *
 * - Every endpoint first does `authorize_read_code!` (readableRepository,
 *   shared with ./content.ts): a project the caller cannot see is
 *   404 `Project Not Found` (anonymous callers read public projects); one they
 *   see without the right to read its code (a Guest of a private project) is 403.
 * - compare: `from_project_id` must name a project of the same fork network
 *   (MergeRequestTargetProjectFinder); the emulator has no forks, so it is the
 *   project itself or 400 `Target project id:<x> is not a fork of project id:<id>`.
 *   An unknown `from` or `to` is 404 `Ref Not Found`.
 * - contributors: `git log ref` (at most 2,000 commits, merges skipped)
 *   grouped by author email, the name from the newest commit; `order_by`
 *   email, name or commits (default `commits`: by commit count), `sort` asc
 *   (default) or desc; `additions` and `deletions` are 0, as the real API has
 *   answered since 13.4 (documented as deprecated). An unknown ref is 404.
 * - merge_base: `refs[]` (or one comma-separated value); fewer than two is 400
 *   `Provide at least 2 refs`; unknown ones 400 `Could not find ref(s): a, b`;
 *   unrelated histories 404 `Merge Base Not Found`.
 * - changelog: `version` must contain a semantic version (400 `version is
 *   invalid`, `version is empty`); generation errors are 422 `Failed to
 *   generate the changelog: …`. POST needs push access to the branch
 *   (Developer; on the default branch the group's default branch protection
 *   `allowed_to_push`, Maintainer by default): 403 `You are not allowed to
 *   commit a changelog on this branch`; it answers 200 with the body `200`.
 *   Both are limited to 5 requests a minute per user and project
 *   (`project_repositories_changelog`, in Gitlab::ApplicationRateLimiter's
 *   fixed one-minute windows, shared with ./content.ts): 429
 *   `{"error": "This changelog has been requested too many times. Try again later."}`.
 */
import { ApiError, notFound, paramError } from "../../errors";
import { paginate, ok, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import type { Project } from "../../state";
import type { ProjectRepository } from "./model";
import { canPushTo } from "./access";
import { limiterKey, overRateLimit, readableRepository } from "./content";
import {
  commitRelease,
  DEFAULT_CHANGELOG_FILE,
  DEFAULT_CONFIG_FILE,
  DEFAULT_TRAILER,
  generateRelease,
  insertRelease,
  UNBOUNDED_SEMVER,
} from "./changelog";
import { compare } from "./compare";
import { commitsInRange, mergeBaseOf, presentCommit, readCommitRecord } from "./commits";

const idParam = { id: { type: "string", required: true } } as const;

// ---------------------------------------------------------------------------
// Compare

const compareRoute = route(
  "GET",
  "/projects/:id/repository/compare",
  {
    params: {
      ...idParam,
      from: { type: "string", required: true },
      to: { type: "string", required: true },
      from_project_id: { type: "integer" },
      straight: { type: "boolean" },
      unidiff: { type: "boolean" },
    },
  },
  async (ctx) => {
    const { project, repo } = await readableRepository(ctx);
    const targetId = ctx.params.from_project_id;
    if (targetId !== undefined && targetId !== project.id) {
      // No fork network in the emulator: only the project itself is a valid target (so the
      // real 403 "You don't have access to this fork's parent project" cannot arise).
      throw new ApiError(400, { message: `Target project id:${targetId} is not a fork of project id:${ctx.pathParams["id"]}` });
    }
    return ok(
      await compare({
        state: ctx.state,
        project,
        repo,
        from: ctx.params.from,
        to: ctx.params.to,
        straight: ctx.params.straight ?? false,
        unidiff: ctx.params.unidiff ?? false,
      }),
    );
  },
);

// ---------------------------------------------------------------------------
// Contributors

/** Gitlab::Git::Repository#contributors reads at most this many commits. */
const CONTRIBUTOR_COMMITS = 2_000;

interface Contributor {
  name: string;
  email: string;
  commits: number;
  additions: number;
  deletions: number;
}

const contributorsRoute = route(
  "GET",
  "/projects/:id/repository/contributors",
  {
    params: {
      ...idParam,
      ref: { type: "string" },
      order_by: { type: "string", values: ["email", "name", "commits"] },
      sort: { type: "string", values: ["asc", "desc"] },
    },
    paginated: true,
  },
  async (ctx) => {
    const { project, repo } = await readableRepository(ctx);
    const tip = await repo.resolveRef(ctx.params.ref ?? project.defaultBranch);
    if (!tip) {
      if (ctx.params.ref !== undefined) throw notFound();
      return paginate(ctx, []);
    }
    const byEmail = new Map<string, Contributor>();
    const history = (await commitsInRange(repo, tip)).filter(({ commit }) => commit.parent.length <= 1); // skip_merges
    for (const { commit } of history.slice(0, CONTRIBUTOR_COMMITS)) {
      const contributor = byEmail.get(commit.author.email) ?? { name: "", email: commit.author.email, commits: 0, additions: 0, deletions: 0 };
      if (contributor.name.trim() === "") contributor.name = commit.author.name;
      contributor.commits += 1;
      byEmail.set(commit.author.email, contributor);
    }
    const key = (ctx.params.order_by ?? "commits") as "email" | "name" | "commits";
    const direction = ctx.params.sort === "desc" ? -1 : 1;
    const contributors = [...byEmail.values()].sort((a, b) => {
      const [x, y] = [a[key], b[key]];
      return (x < y ? -1 : x > y ? 1 : 0) * direction;
    });
    return paginate(ctx, contributors);
  },
);

// ---------------------------------------------------------------------------
// Merge base

/** `refs` as Grape's CommaSeparatedToArray reads it: an array, or one string, each split on commas. */
function refsParam(ctx: RequestContext<unknown>): string[] {
  const raw = ctx.rawParams["refs"];
  if (raw === undefined || raw === null) throw paramError("refs is missing");
  const list = Array.isArray(raw) ? raw : [raw];
  if (!list.every((item) => typeof item === "string" || typeof item === "number")) throw paramError("refs is invalid");
  return list.flatMap((item) => String(item).split(",")).filter((ref) => ref !== "");
}

const mergeBaseRoute = route("GET", "/projects/:id/repository/merge_base", { params: idParam }, async (ctx) => {
  const { project, repo } = await readableRepository(ctx);
  const refs = refsParam(ctx);
  if (refs.length < 2) throw new ApiError(400, { message: "Provide at least 2 refs" });
  const commits = await Promise.all(refs.map((ref) => repo.resolveRef(ref)));
  const unknown = refs.filter((_, index) => commits[index] === undefined);
  if (unknown.length > 0) {
    throw new ApiError(400, { message: `Could not find ${unknown.length === 1 ? "ref" : "refs"}: ${unknown.join(", ")}` });
  }
  const base = await mergeBaseOf(repo, commits as string[]);
  if (!base) throw notFound("Merge Base");
  return ok(presentCommit(ctx.state, project, await readCommitRecord(repo, base)));
});

// ---------------------------------------------------------------------------
// Changelog

const releaseParams = {
  ...idParam,
  version: { type: "string", required: true },
  from: { type: "string" },
  to: { type: "string" },
  date: { type: "string" },
  trailer: { type: "string" },
  config_file: { type: "string" },
  config_file_ref: { type: "string" },
} as const;

/** The checks Grape's `regexp:`, `allow_blank: false` and `type: DateTime` make. */
function checkReleaseParams(params: { version: string; date?: string | undefined }): void {
  if (params.version.trim() === "") throw paramError("version is empty");
  if (!UNBOUNDED_SEMVER.test(params.version)) throw paramError("version is invalid");
  if (params.date !== undefined && Number.isNaN(Date.parse(params.date))) throw paramError("date is invalid");
}

/** `check_rate_limit!(:project_repositories_changelog, scope: [current_user, user_project])`: 5 a minute. */
function checkChangelogRate(ctx: RequestContext<unknown>, project: Project): void {
  if (overRateLimit(ctx.state, limiterKey(ctx, "project_repositories_changelog", project))) {
    throw new ApiError(429, { error: "This changelog has been requested too many times. Try again later." });
  }
}

type ReleaseParams = {
  version: string;
  from?: string | undefined;
  to?: string | undefined;
  date?: string | undefined;
  trailer?: string | undefined;
  config_file?: string | undefined;
  config_file_ref?: string | undefined;
};

function releaseRequest(ctx: RequestContext<ReleaseParams>, project: Project, repo: ProjectRepository, branch: string) {
  const p = ctx.params;
  return {
    state: ctx.state,
    project,
    repo,
    version: p.version,
    from: p.from,
    to: p.to,
    date: p.date,
    trailer: p.trailer ?? DEFAULT_TRAILER,
    configFile: p.config_file ?? DEFAULT_CONFIG_FILE,
    configFileRef: p.config_file_ref,
    branch,
  };
}

const changelogGetRoute = route("GET", "/projects/:id/repository/changelog", { params: releaseParams }, async (ctx) => {
  const { project, repo } = await readableRepository(ctx);
  checkReleaseParams(ctx.params);
  checkChangelogRate(ctx, project);
  const release = await generateRelease(releaseRequest(ctx, project, repo, project.defaultBranch));
  return ok({ notes: insertRelease("", release) });
});

const changelogPostRoute = route(
  "POST",
  "/projects/:id/repository/changelog",
  { params: { ...releaseParams, branch: { type: "string" }, file: { type: "string" }, message: { type: "string" } } },
  async (ctx) => {
    const user = requireUser(ctx);
    const { project, repo } = await readableRepository(ctx);
    checkReleaseParams(ctx.params);
    checkChangelogRate(ctx, project);
    const branch = ctx.params.branch ?? project.defaultBranch;
    if (!canPushTo(ctx.state, user, project, branch)) throw new ApiError(403, { message: "403 Forbidden - You are not allowed to commit a changelog on this branch" });
    if (!(await repo.resolveRef(`refs/heads/${branch}`))) throw changelogBranchMissing(branch);
    const release = await generateRelease(releaseRequest(ctx, project, repo, branch));
    await commitRelease(repo, release, {
      branch,
      file: ctx.params.file ?? DEFAULT_CHANGELOG_FILE,
      message: ctx.params.message ?? `Add changelog for version ${ctx.params.version}`,
      author: user,
    });
    // The endpoint ends with `status(200)`, whose value (200) Grape renders as the JSON body.
    return { status: 200, body: 200 };
  },
);

/**
 * The branch must exist (ChangelogService: "The branch must already exist").
 * The real failure surfaces from Files::MultiService; the emulator answers it
 * as a changelog error, 422 [inferred wording].
 */
const changelogBranchMissing = (branch: string): ApiError =>
  new ApiError(422, { message: `Failed to generate the changelog: the branch ${branch} does not exist` });

export const repositoryHistoryRoutes: readonly RouteDefinition[] = [compareRoute, contributorsRoute, mergeBaseRoute, changelogGetRoute, changelogPostRoute];
