/**
 * A group's life: `POST /groups` (a group or a subgroup), `POST
 * /groups/:id/transfer`, `DELETE /groups/:id` (marked for deletion, or removed
 * at once) and `POST /groups/:id/restore`. What the real server does is in
 * src/emulator/README.md ("Groups: creation, transfer and deletion").
 */
import { hasGroupAccess } from "../../access";
import { ApiError, forbidden, routeNotFound } from "../../errors";
import { findGroup, findGroupNamed } from "../../lookup";
import { created, requireUser, route, type RouteDefinition } from "../../router";
import { AccessLevel, Sequence, type EmulatorState, type Group, type Visibility } from "../../state";
import { applicationSettingsValues } from "../application-settings";
import { deletionIsDelayed, detailsOf, groupDeletionsStore, groupSettingsStore, markForDeletion, mayCreateSubgroup, mayCreateTopLevelGroup, removeGroup, restoreGroup } from "./model";
import { groupParams, pathTaken, presentGroupDetail, VISIBILITY_RANK, writeGroupParams } from "./routes";

/** `render_api_error!(message, status)`. */
const apiError = (status: number, message: string) => new ApiError(status, { message });

/** The model's errors as `Failed to save group {...}` (Ruby's `errors.messages` inspected), 400. */
function failedToSave(errors: Record<string, string[]>): ApiError {
  const inspected = Object.entries(errors)
    .map(([field, messages]) => `:${field}=>[${messages.map((message) => JSON.stringify(message)).join(", ")}]`)
    .join(", ");
  return apiError(400, `Failed to save group {${inspected}}`);
}

// The update's parameters, without the group's own id (a new group has none yet).
const { id: _id, ...settingsParams } = groupParams;
const createParams = {
  ...settingsParams,
  name: { type: "string", required: true },
  path: { type: "string", required: true },
  parent_id: { type: "integer" },
  organization_id: { type: "integer" },
} as const;

const createGroup = route("POST", "/groups", { params: createParams }, (ctx) => {
  const { state } = ctx;
  const user = requireUser(ctx);
  const params = ctx.params as Record<string, unknown>;
  const parent = params.parent_id !== undefined && params.parent_id !== null ? findGroupNamed(ctx, "parent_id", params.parent_id as number) : undefined;
  if (parent ? !mayCreateSubgroup(state, user, parent) : !mayCreateTopLevelGroup(state, user)) throw forbidden();
  const group: Group = {
    id: state.nextId(Sequence.namespaces),
    name: "",
    path: "",
    parentId: parent?.id ?? null,
    visibility: "private",
    description: "",
    createdAt: state.now(),
    tier: null,
    members: { [String(user.id)]: AccessLevel.Owner },
    formerPaths: [],
  };
  const errors = writeGroupParams(ctx, group, { visibility: "private", description: "", ...params });
  if (errors) {
    delete groupSettingsStore.of(state)[String(group.id)];
    throw failedToSave(errors);
  }
  state.groups.push(group);
  return created(presentGroupDetail(ctx, group, false));
});

// ---------------------------------------------------------------------------
// Transfer

/** `Groups::TransferService`'s refusals, as the API words them (400). */
const transferFailed = (reason: string) => apiError(400, `Transfer failed: ${reason}`);

const transferGroup = route("POST", "/groups/:id/transfer", { params: { id: { type: "string", required: true }, group_id: { type: "integer" } } }, (ctx) => {
  const { state } = ctx;
  const user = requireUser(ctx);
  const group = findGroup(ctx);
  if (!hasGroupAccess(state, user, group, AccessLevel.Owner)) throw forbidden();
  const target = ctx.params.group_id !== undefined ? findGroupNamed(ctx, "group_id", ctx.params.group_id) : undefined;
  if (target === undefined) {
    if (group.parentId === null) throw transferFailed("Group is already root.");
    if (!mayCreateTopLevelGroup(state, user)) throw transferFailed("You don't have enough permissions.");
  } else {
    if (target.id === group.parentId) throw transferFailed("Group is already associated to the parent group.");
    if (target.id === group.id || state.descendants(group).some((below) => below.id === target.id)) throw transferFailed("Cannot transfer group to one of its subgroup.");
    if (!mayCreateSubgroup(state, user, target)) throw transferFailed("You don't have enough permissions.");
  }
  if (pathTaken(state, target, group.path, group.id)) throw transferFailed("The parent group already has a subgroup or a project with the same path.");
  moveGroup(state, group, target);
  return created(presentGroupDetail(ctx, group, false));
});

/**
 * Moves the group under `target` (none: to the top level). Its old path and
 * those of its projects redirect; what is more visible than the new parent
 * becomes as visible as the parent, below it too.
 */
function moveGroup(state: EmulatorState, group: Group, target: Group | undefined): void {
  group.formerPaths.push(state.groupFullPath(group));
  group.parentId = target?.id ?? null;
  if (!target) return;
  const ceiling = VISIBILITY_RANK[target.visibility];
  const lowered = (visibility: Visibility): Visibility => (VISIBILITY_RANK[visibility] > ceiling ? target.visibility : visibility);
  for (const below of [group, ...state.descendants(group)]) below.visibility = lowered(below.visibility);
  for (const project of state.projectsIn(group, { includeSubgroups: true })) project.visibility = lowered(project.visibility);
}

// ---------------------------------------------------------------------------
// Deletion and restore

const accepted = () => ({ status: 202, body: { message: "202 Accepted" } });

const deleteParams = {
  id: { type: "string", required: true },
  permanently_remove: { type: "boolean" },
  full_path: { type: "string" },
} as const;

const deleteGroup = route("DELETE", "/groups/:id", { params: deleteParams }, (ctx) => {
  const { state } = ctx;
  const user = requireUser(ctx);
  const group = findGroup(ctx);
  if (!hasGroupAccess(state, user, group, AccessLevel.Owner)) throw forbidden();
  if (!deletionIsDelayed(state)) {
    removeGroup(state, group);
    return accepted();
  }
  const marked = detailsOf(state, group).markedForDeletionOn !== null;
  if (ctx.params.permanently_remove === true) {
    if (ctx.params.full_path !== state.groupFullPath(group)) throw apiError(400, "`full_path` is incorrect. You must enter the complete path for the group.");
    if (!marked) throw apiError(400, "Group must be marked for deletion first.");
    removeGroup(state, group);
    return accepted();
  }
  if (marked) throw apiError(400, "Group has been already marked for deletion");
  markForDeletion(state, group, Number(applicationSettingsValues(state).deletion_adjourned_period ?? 30));
  return accepted();
});

const restoreRoute = route("POST", "/groups/:id/restore", { params: { id: { type: "string", required: true } } }, (ctx) => {
  const { state } = ctx;
  const user = requireUser(ctx);
  const group = findGroup(ctx);
  if (!hasGroupAccess(state, user, group, AccessLevel.Owner)) throw forbidden();
  if (!deletionIsDelayed(state)) throw routeNotFound();
  if (detailsOf(state, group).markedForDeletionOn === null) throw apiError(400, "Group has not been marked for deletion");
  restoreGroup(state, group);
  return created(presentGroupDetail(ctx, group, false));
});

/** Removes the groups marked for deletion through the API whose deletion period (`deletion_adjourned_period` days then) has passed. */
export function runDueDeletions(state: EmulatorState): void {
  const today = state.now().slice(0, 10);
  for (const [id, due] of Object.entries(groupDeletionsStore.of(state))) {
    const group = state.groupById(Number(id));
    if (group && due <= today) removeGroup(state, group);
  }
}

export const groupLifecycleRoutes: readonly RouteDefinition[] = [createGroup, transferGroup, deleteGroup, restoreRoute];
