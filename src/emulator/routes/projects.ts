/** Projects. For now only `GET /projects/:id`, with the fields other areas rely on. */
import { findProject } from "../lookup";
import { route, ok, type RouteModule } from "../router";
import type { EmulatorState, Project } from "../state";

export function presentProject(state: EmulatorState, project: Project): Record<string, unknown> {
  const namespace = state.namespaceOf(project);
  const namespacePath = state.groupFullPath(namespace);
  const fullPath = state.projectFullPath(project);
  const webBase = `https://${state.instance.host}`;
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${state.groupFullName(namespace)} / ${project.name}`,
    path: project.path,
    path_with_namespace: fullPath,
    created_at: project.createdAt,
    default_branch: project.defaultBranch,
    visibility: project.visibility,
    web_url: `${webBase}/${fullPath}`,
    http_url_to_repo: `${webBase}/${fullPath}.git`,
    ssh_url_to_repo: `git@${state.instance.host}:${fullPath}.git`,
    namespace: {
      id: namespace.id,
      name: namespace.name,
      path: namespace.path,
      kind: "group",
      full_path: namespacePath,
      parent_id: namespace.parentId,
      avatar_url: null,
      web_url: `${webBase}/groups/${namespacePath}`,
    },
    archived: false,
    last_activity_at: project.createdAt,
  };
}

const getProject = route(
  "GET",
  "/projects/:id",
  { params: { id: { type: "string", required: true } } },
  (ctx) => ok(presentProject(ctx.state, findProject(ctx))),
);

export const projectRoutes: RouteModule = { name: "projects", routes: [getProject] };
