/** Merge requests: listing and filters, diffs, notes, merge request pipelines, a commit's merge requests. */
import { areaSeed, type EmulatorArea } from "../../area";
import { runMergeRequestJobs } from "./jobs";
import { mergeRoutes } from "./merge";
import { mergeRequestsOfCommitRoutes } from "./of-commit";
import { mergeRequestRoutes } from "./routes";
import { applyMergeRequestSeed, mergeRequestsSeedSchema } from "./seed";

export const mergeRequestsArea: EmulatorArea = {
  name: "merge-requests",
  routes: [...mergeRequestRoutes, ...mergeRoutes, ...mergeRequestsOfCommitRoutes],
  // Seeded merge requests point at branches and commits of the seeded repositories.
  after: ["repository"],
  seed: areaSeed({ key: "mergeRequests", schema: mergeRequestsSeedSchema, apply: applyMergeRequestSeed }),
  runDue: runMergeRequestJobs,
};
