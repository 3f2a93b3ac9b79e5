/**
 * `GET /projects/:id/repository/commits/:sha/merge_requests`: the merge
 * requests a commit belongs to. A real endpoint outside the specification;
 * the review's apply job uses it to find the merge request a commit of the
 * default branch came from (src/emulator/README.md says what it follows).
 */
import { forbidden, notFound } from "../../errors";
import { paginate, route, type RouteDefinition } from "../../router";
import { canReadMergeRequests, type MergeRequestRecord, mergeRequestStore } from "./model";
import { presentBasic } from "./present";
import { commitsInRange } from "../repository/commits";
import { readableRepository } from "../repository/content";

const commitMergeRequests = route(
  "GET",
  "/projects/:id/repository/commits/:sha/merge_requests",
  { params: { id: { type: "string", required: true }, sha: { type: "string", required: true }, state: { type: "string" } }, paginated: true },
  async (ctx) => {
    const { project, repo } = await readableRepository(ctx);
    if (!canReadMergeRequests(ctx.state, ctx.user, project)) throw forbidden();
    const mergeRequests = mergeRequestStore.of(ctx.state).mergeRequests.filter((mr) => mr.projectId === project.id && (ctx.params.state === undefined || mr.state === ctx.params.state));
    // The merge requests' own commits are known by their records (a source branch's head is not always in the repository here).
    const ownCommit = (mr: MergeRequestRecord, sha: string) => mr.mergeCommitSha === sha || mr.squashCommitSha === sha || mr.sha === sha;
    const sha = (await repo.resolveRef(ctx.params.sha)) ?? (mergeRequests.some((mr) => ownCommit(mr, ctx.params.sha)) ? ctx.params.sha : undefined);
    if (sha === undefined) throw notFound("Commit");
    const holding: MergeRequestRecord[] = [];
    for (const mr of mergeRequests) {
      if (ownCommit(mr, sha)) holding.push(mr);
      else if (mr.sha !== null && (await repo.resolveRef(mr.sha)) !== undefined && (await commitsInRange(repo, mr.sha, mr.baseSha ? [mr.baseSha] : [])).some((commit) => commit.oid === sha)) holding.push(mr);
    }
    // Newest first, as MergeRequestsFinder orders by default.
    holding.sort((a, b) => b.id - a.id);
    return paginate(ctx, holding, { present: (mr) => presentBasic(ctx.state, project, mr, { user: ctx.user }) });
  },
);

export const mergeRequestsOfCommitRoutes: readonly RouteDefinition[] = [commitMergeRequests];
