/**
 * `Ci::PipelineBasic`, the pipeline summary that the lists of a schedule's and
 * of a merge request's pipelines show, and a merge request's `pipeline`: one
 * presenter for both areas' pipeline records.
 */
import type { EmulatorState } from "../../state";

/** What both areas' pipeline records have in common. */
export interface PipelineBasicFields {
  id: number;
  iid: number;
  projectId: number;
  sha: string;
  ref: string;
  status: string;
  source: string;
  createdAt: string;
  updatedAt: string;
}

export function presentPipelineBasic(state: EmulatorState, pipeline: PipelineBasicFields): Record<string, unknown> {
  const project = state.projectById(pipeline.projectId);
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    project_id: pipeline.projectId,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    source: pipeline.source,
    created_at: pipeline.createdAt,
    updated_at: pipeline.updatedAt,
    web_url: project ? `https://${state.instance.host}/${state.projectFullPath(project)}/-/pipelines/${pipeline.id}` : null,
  };
}
