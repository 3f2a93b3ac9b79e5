/**
 * Groups. For now only `GET /groups/:id` with the fields every other area
 * relies on (spec document 2, part 2.1); the full group API comes later.
 */
import { findGroup } from "../lookup";
import { route, ok, type RouteModule } from "../router";
import type { EmulatorState, Group } from "../state";

export function presentGroup(state: EmulatorState, group: Group): Record<string, unknown> {
  const fullPath = state.groupFullPath(group);
  return {
    id: group.id,
    web_url: `https://${state.instance.host}/groups/${fullPath}`,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    avatar_url: null,
    full_name: state.groupFullName(group),
    full_path: fullPath,
    parent_id: group.parentId,
    created_at: group.createdAt,
    default_branch: null,
  };
}

const getGroup = route(
  "GET",
  "/groups/:id",
  { params: { id: { type: "string", required: true } } },
  (ctx) => ok(presentGroup(ctx.state, findGroup(ctx))),
);

export const groupRoutes: RouteModule = { name: "groups", routes: [getGroup] };
