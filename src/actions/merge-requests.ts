/**
 * Merge requests: create a merge request pipeline (the pipeline of the
 * merge request's head ref, `refs/merge-requests/<iid>/head`), for an open
 * merge request only (405 otherwise). Jobs are created only when the CI
 * configuration has a merge request rule; without one the server refuses
 * (`No stages / jobs for this pipeline.`).
 */
import { z } from "zod";
import { inMergeRequest, mergeRequestPipelinesPath, mergeRequestSubject, pipeline as pipelineShape } from "../api/merge-requests";
import { defineAction, projectNeeds } from "./core";

const noJobs = () => "The server creates one only when the project's CI configuration has jobs with a merge request rule.";

/**
 * Creates a pipeline for a merge request and answers it (id, ref, status, web URL).
 *
 * ```ts
 * const pipeline = await createMergeRequestPipeline({ project: "acme/web", iid: 12 });
 * ```
 */
export const createMergeRequestPipeline = defineAction({
  name: "createMergeRequestPipeline",
  verb: "create a pipeline for",
  args: z.object(inMergeRequest),
  subject: mergeRequestSubject,
  needs: projectNeeds("Developer", { phrase: "at least the Developer role (permission to run pipelines)" }),
  refusals: {
    400: noJobs,
    405: () => "The server creates a merge request pipeline only for an open merge request (not a closed or merged one).",
    422: noJobs,
  },
  async run(call, args) {
    return call.checked(pipelineShape, await call.client.post<unknown>(mergeRequestPipelinesPath(args.project, args.iid), {}));
  },
});
