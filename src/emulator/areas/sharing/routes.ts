/**
 * Sharing a group or a project with a group: `POST /groups/:id/share`,
 * `DELETE /groups/:id/share/:group_id`, `POST /projects/:id/share`,
 * `DELETE /projects/:id/share/:group_id`. What it follows is in the
 * emulator's README.
 */
import { canReadGroup, hasGroupAccess, hasProjectAccess, projectAccessLevel } from "../../access";
import { ApiError, forbidden, notFound } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import { created, noContent, requireUser, route, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Group, type GroupLink, type Project, type User } from "../../state";
import { settingsOf } from "../groups/model";
import { inHierarchy, presentSharedWithGroups } from "./model";

const ROLE_VALUES = [10, 15, 20, 30, 40, 50] as const;
const shareParams = {
  id: { type: "string", required: true },
  group_id: { type: "integer", required: true },
  group_access: { type: "integer", required: true, values: ROLE_VALUES },
  expires_at: { type: "string" },
  member_role_id: { type: "integer" },
} as const;

/** `expires_at` as a date; a date in the past is refused as the link's validation refuses it. */
function expiryOf(value: string | undefined, state: EmulatorState): string | null {
  if (value === undefined || value === "") return null;
  const date = /^(\d{4}-\d{2}-\d{2})/.exec(value)?.[1];
  if (!date || Number.isNaN(Date.parse(date))) throw new ApiError(400, { error: "expires_at is invalid" });
  if (date < state.now().slice(0, 10)) throw new ApiError(400, { message: { expires_at: ["cannot be a date in the past"] } });
  return date;
}

/** The invited group, when the user may see it: otherwise the service's `Not Found`. */
function invitedGroup(state: EmulatorState, user: User, id: number): Group {
  const group = state.groupById(id);
  if (!group || !canReadGroup(state, user, group)) throw new ApiError(404, { message: "Not Found" });
  return group;
}

/** `prevent_sharing_groups_outside_hierarchy` of the sharer's top-level group. */
function outsideHierarchyRefused(state: EmulatorState, sharer: Group, invited: Group): boolean {
  const root = state.topLevelGroup(sharer);
  return settingsOf(state, root).prevent_sharing_groups_outside_hierarchy && !inHierarchy(state, root, invited);
}

/** `share_with_group_lock` of the group or one above it. */
const sharingLocked = (state: EmulatorState, group: Group): boolean => state.selfAndAncestors(group).some((g) => settingsOf(state, g).share_with_group_lock);

const shareGroup = route("POST", "/groups/:id/share", { params: shareParams }, (ctx) => {
  const user = requireUser(ctx);
  const { state } = ctx;
  const group = findGroup(ctx);
  const invited = invitedGroup(state, user, ctx.params.group_id);
  // `Groups::GroupLinks::CreateService#valid_to_create?`: the Owner role, the invited group visible, sharing allowed: else Not Found.
  if (!hasGroupAccess(state, user, group, AccessLevel.Owner) || outsideHierarchyRefused(state, group, invited) || invited.id === group.id) {
    throw new ApiError(404, { message: "Not Found" });
  }
  if (sharingLocked(state, group)) throw new ApiError(400, { message: "400 Bad request - The group sharing with group is disabled" });
  const links = (group.sharedWith ??= []);
  if (links.some((link) => link.groupId === invited.id)) throw new ApiError(409, { message: "Group already shared with this group" });
  links.push({ groupId: invited.id, access: ctx.params.group_access, expiresAt: expiryOf(ctx.params.expires_at, state) });
  // The group as `Entities::GroupDetail` shows it, its identity and its shares (the rest is `GET /groups/:id`'s).
  return created({
    id: group.id,
    name: group.name,
    path: group.path,
    full_path: state.groupFullPath(group),
    parent_id: group.parentId,
    visibility: group.visibility,
    shared_with_groups: presentSharedWithGroups(state, group.sharedWith),
  });
});

function presentProjectLink(projectId: number, link: GroupLink): Record<string, unknown> {
  return { id: projectId * 100_000 + link.groupId, project_id: projectId, group_id: link.groupId, group_access: link.access, expires_at: link.expiresAt };
}

const shareProject = route("POST", "/projects/:id/share", { params: shareParams }, (ctx) => {
  const user = requireUser(ctx);
  const { state } = ctx;
  const project = findProject(ctx);
  if (!hasProjectAccess(state, user, project, AccessLevel.Maintainer)) throw forbidden();
  const namespace = state.namespaceOf(project);
  if (sharingLocked(state, namespace)) throw new ApiError(400, { message: "400 Bad request - The project sharing with group is disabled" });
  const invited = invitedGroup(state, user, ctx.params.group_id);
  if (outsideHierarchyRefused(state, namespace, invited)) throw new ApiError(404, { message: "Not Found" });
  // A share gives no higher role than the sharer's own.
  if (!user.isAdmin && ctx.params.group_access > projectAccessLevel(state, user, project)) throw forbidden();
  const links = (project.sharedWith ??= []);
  if (links.some((link) => link.groupId === invited.id)) throw new ApiError(409, { message: "Project already shared with this group" });
  const link: GroupLink = { groupId: invited.id, access: ctx.params.group_access, expiresAt: expiryOf(ctx.params.expires_at, state) };
  links.push(link);
  return created(presentProjectLink(project.id, link));
});

/** `DELETE /:source/:id/share/:group_id`: the role that shares (Owner of a group, Maintainer of a project); `404 Group Link Not Found` for no such share. */
function unshareRoute(kind: "group" | "project"): RouteDefinition {
  return route("DELETE", `/${kind}s/:id/share/:group_id`, { params: { id: { type: "string", required: true }, group_id: { type: "integer", required: true } } }, (ctx) => {
    const user = requireUser(ctx);
    const { state } = ctx;
    const owner = kind === "group" ? findGroup(ctx) : findProject(ctx);
    const allowed = kind === "group" ? hasGroupAccess(state, user, owner as Group, AccessLevel.Owner) : hasProjectAccess(state, user, owner as Project, AccessLevel.Maintainer);
    if (!allowed) throw forbidden();
    const index = (owner.sharedWith ?? []).findIndex((link) => link.groupId === ctx.params.group_id);
    if (index < 0) throw notFound("Group Link");
    owner.sharedWith!.splice(index, 1);
    return noContent();
  });
}

export const sharingRoutes: RouteDefinition[] = [shareGroup, unshareRoute("group"), shareProject, unshareRoute("project")];
