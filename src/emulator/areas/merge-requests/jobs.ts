/**
 * Reading merge requests made from branches of the repository: when made
 * (their preparation shows it) and, in the background work, whenever the
 * source or target branch moved since, a new version of the diff (head, merge base, target head, files, whether
 * the branches merge cleanly), as MergeRequests::RefreshService and the
 * diff creation do on a real server. The rest of the work is
 * `runMergeRequestWork` (./model.ts).
 */
import * as git from "isomorphic-git";
import type { EmulatorState, Project } from "../../state";
import { mergeBaseOf } from "../repository/commits";
import { diffCommits } from "../repository/diff";
import { repositoryOf, type ProjectRepository } from "../repository/model";
import { applyReading, mergeRequestStore, runMergeRequestWork, type MergeRequestRecord, type RepositoryReading } from "./model";

/** Whether `theirs` merges into `ours` without a conflict (a dry run of a three-way merge). */
export async function mergesCleanly(repo: ProjectRepository, ours: string, theirs: string): Promise<boolean> {
  try {
    await git.merge({ fs: repo.fs, gitdir: repo.gitdir, ours, theirs, dryRun: true, abortOnConflict: true, author: { name: "check", email: "check@example.test" } });
    return true;
  } catch {
    return false;
  }
}

/** The merge request's diff as the repository has it now; undefined when a branch is not in the repository. */
export async function readFromRepository(state: EmulatorState, project: Project): Promise<(branches: Pick<MergeRequestRecord, "sourceBranch" | "targetBranch">) => Promise<RepositoryReading | undefined>> {
  const repo = await repositoryOf(state, project);
  return async ({ sourceBranch, targetBranch }) => {
    const head = project.branchHeads?.[sourceBranch];
    const start = project.branchHeads?.[targetBranch];
    if (head === undefined || start === undefined) return undefined;
    const base = (await mergeBaseOf(repo, [start, head])) ?? start;
    return { head, base, start, files: await diffCommits(repo, base, head), conflicts: !(await mergesCleanly(repo, start, head)) };
  };
}

/** A new version of the diff when a branch moved since the last one. */
export async function refreshFromRepository(state: EmulatorState, project: Project, mr: MergeRequestRecord): Promise<void> {
  const moved = mr.sha !== project.branchHeads?.[mr.sourceBranch] || (mr.startSha ?? mr.baseSha) !== project.branchHeads?.[mr.targetBranch];
  if (mr.preparedAt === null || !moved) return;
  const reading = await (await readFromRepository(state, project))(mr);
  if (reading) applyReading(state, mr, reading);
}

/** Background work in flight per state, so a timer's run never overlaps the previous one's reading of the repository. */
const inFlight = new WeakMap<EmulatorState, Promise<void>>();

/** The area's background work: the synchronous part at once, the repository's reading after it. */
export function runMergeRequestJobs(state: EmulatorState): Promise<void> {
  runMergeRequestWork(state);
  const previous = inFlight.get(state) ?? Promise.resolve();
  const next = previous.then(async () => {
    for (const mr of mergeRequestStore.of(state).mergeRequests) {
      const project = state.projectById(mr.projectId);
      if (project && mr.fromRepository && (mr.state === "opened" || mr.state === "locked")) await refreshFromRepository(state, project, mr);
    }
  });
  inFlight.set(state, next);
  return next;
}
