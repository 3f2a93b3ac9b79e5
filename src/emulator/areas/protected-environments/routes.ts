/**
 * `/projects/:id/protected_environments` and `/groups/:id/protected_environments`
 * (ee/lib/api/protected_environments.rb): every route needs
 * `admin_protected_environments` (Maintainer on a project, Owner on a group)
 * and the Premium tier; what each answers and refuses is in the emulator's
 * README ("Protected environments").
 */
import { hasGroupAccess, hasProjectAccess } from "../../access";
import { ApiError, forbidden, paramError, recordNotFound } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import { applyNestedAttributes, integerOf, type NestedChange } from "../../nested-attributes";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState } from "../../state";
import {
  DEPLOYMENT_TIERS,
  ENVIRONMENT_ACCESS_LEVELS,
  GROUP_INHERITANCE_TYPES,
  MAX_REQUIRED_APPROVALS,
  SEQUENCES,
  environmentRulesOf,
  environmentsLicensed,
  protectedEnvironmentsStore,
  qualifiedGroup,
  qualifiedUser,
  type EnvironmentAccessRecord,
  type EnvironmentContainer,
  type ProtectedEnvironmentRecord,
} from "./model";

const HUMAN_LEVELS: Record<number, string> = { 30: "Developers + Maintainers", 40: "Maintainers" };

/** `Authorizable#humanize`: the user's or group's name, or the role's words (none for Reporter and administrator). */
function describe(state: EmulatorState, entry: EnvironmentAccessRecord): string | null {
  if (entry.userId !== null) return state.userById(entry.userId)?.name ?? null;
  if (entry.groupId !== null) return state.groupById(entry.groupId)?.name ?? null;
  return HUMAN_LEVELS[entry.accessLevel ?? 0] ?? null;
}

/** `Entities::ProtectedEnvironments::DeployAccessLevel`. */
const presentDeploy = (state: EmulatorState, entry: EnvironmentAccessRecord): Record<string, unknown> => ({
  id: entry.id,
  access_level: entry.accessLevel,
  access_level_description: describe(state, entry),
  user_id: entry.userId,
  group_id: entry.groupId,
  group_inheritance_type: entry.groupInheritanceType,
});

/** `Entities::ProtectedEnvironments::ApprovalRule`. */
const presentApproval = (state: EmulatorState, entry: EnvironmentAccessRecord): Record<string, unknown> => ({
  id: entry.id,
  user_id: entry.userId,
  group_id: entry.groupId,
  access_level: entry.accessLevel,
  access_level_description: describe(state, entry),
  required_approvals: entry.requiredApprovals ?? 1,
  group_inheritance_type: entry.groupInheritanceType,
});

/** `Entities::ProtectedEnvironment`: `required_approval_count` is always 0 here (a count above 0 is refused as deprecated). */
const presentRule = (state: EmulatorState, rule: ProtectedEnvironmentRecord): Record<string, unknown> => ({
  name: rule.name,
  deploy_access_levels: rule.deploy.map((entry) => presentDeploy(state, entry)),
  required_approval_count: 0,
  approval_rules: rule.approvals.map((entry) => presentApproval(state, entry)),
});

/** The container, if the caller administers its protected environments: 404 when hidden, 403 below the role or the tier. */
function administered(ctx: RequestContext<unknown>, kind: "project" | "group"): EnvironmentContainer {
  const user = requireUser(ctx);
  let container: EnvironmentContainer;
  if (kind === "project") {
    const project = findProject(ctx);
    if (!hasProjectAccess(ctx.state, user, project, AccessLevel.Maintainer)) throw forbidden();
    container = { kind, project };
  } else {
    const group = findGroup(ctx);
    if (!hasGroupAccess(ctx.state, user, group, AccessLevel.Owner)) throw forbidden();
    container = { kind, group };
  }
  if (!environmentsLicensed(ctx.state, container)) throw forbidden();
  return container;
}

function findRule(state: EmulatorState, container: EnvironmentContainer, name: string): ProtectedEnvironmentRecord {
  const rule = environmentRulesOf(state, container).find((found) => found.name === name);
  if (!rule) throw recordNotFound();
  return rule;
}

// ---------------------------------------------------------------------------
// Entries: `deploy_access_levels: [{access_level}, {user_id}, {group_id, group_inheritance_type}, {id, _destroy}]`

interface EntryParams extends NestedChange {
  accessLevel?: number;
  userId?: number;
  groupId?: number;
  groupInheritanceType?: number;
  requiredApprovals?: number;
}

/** One list's entries as Grape declares them: the values each key takes; an approval rule names a role, a user or a group (`at_least_one_of`). */
function readEntries(list: Record<string, unknown>[] | undefined, param: string): EntryParams[] {
  return (list ?? []).map((raw) => {
    const entry: EntryParams = { destroy: raw["_destroy"] === true || ["true", "1"].includes(String(raw["_destroy"])) };
    for (const [key, name] of [["id", "id"], ["access_level", "accessLevel"], ["user_id", "userId"], ["group_id", "groupId"], ["group_inheritance_type", "groupInheritanceType"], ["required_approvals", "requiredApprovals"]] as const) {
      const value = integerOf(raw, key, param);
      if (value !== undefined) entry[name] = value;
    }
    if (entry.accessLevel !== undefined && !(ENVIRONMENT_ACCESS_LEVELS as readonly number[]).includes(entry.accessLevel)) throw paramError(`${param}[access_level] does not have a valid value`);
    if (entry.groupInheritanceType !== undefined && !(GROUP_INHERITANCE_TYPES as readonly number[]).includes(entry.groupInheritanceType)) throw paramError(`${param}[group_inheritance_type] does not have a valid value`);
    if (param === "approval_rules" && entry.accessLevel === undefined && entry.userId === undefined && entry.groupId === undefined) {
      throw paramError(`${param}[access_level], ${param}[user_id], ${param}[group_id] are missing, at least one parameter must be provided`);
    }
    return entry;
  });
}

/**
 * The list after the entries are applied (BaseService#sanitized_params, then
 * accepts_nested_attributes_for with allow_destroy): an entry that does not
 * name exactly one of a role, a user or a group is dropped, and so is one
 * that adds a user or group the container does not qualify; an entry with an
 * `id` changes or destroys that one (404 when the rule has none of that id),
 * one without adds one.
 */
function applyEntries(state: EmulatorState, container: EnvironmentContainer, current: readonly EnvironmentAccessRecord[], changes: readonly EntryParams[], approvals: boolean): EnvironmentAccessRecord[] {
  const kept = changes.filter((change) => {
    if ([change.accessLevel, change.userId, change.groupId].filter((value) => value !== undefined).length !== 1) return false;
    if (change.destroy) return true;
    return (change.groupId === undefined || qualifiedGroup(state, container, change.groupId)) && (change.userId === undefined || qualifiedUser(state, container, change.userId));
  });
  const who = (change: EntryParams) => ({ accessLevel: change.accessLevel ?? null, userId: change.userId ?? null, groupId: change.groupId ?? null });
  return applyNestedAttributes(current, kept, {
    change(entry, change) {
      Object.assign(entry, who(change));
      if (change.groupInheritanceType !== undefined) entry.groupInheritanceType = change.groupInheritanceType;
      if (approvals && change.requiredApprovals !== undefined) entry.requiredApprovals = change.requiredApprovals;
    },
    add: (change) => ({
      id: state.nextId(approvals ? SEQUENCES.approval : SEQUENCES.deploy),
      ...who(change),
      groupInheritanceType: change.groupInheritanceType ?? 0,
      ...(approvals ? { requiredApprovals: change.requiredApprovals ?? 1 } : {}),
    }),
  });
}

/** The model's validations, as `errors.full_messages`. */
function validationErrors(container: EnvironmentContainer, name: string, deploy: readonly EnvironmentAccessRecord[], approvals: readonly EnvironmentAccessRecord[]): string[] {
  const errors: string[] = [];
  if (name.trim() === "") errors.push("Name can't be blank");
  else if (container.kind === "group" && !(DEPLOYMENT_TIERS as readonly string[]).includes(name)) errors.push(`Name must be one of environment tiers: ${DEPLOYMENT_TIERS.join(", ")}.`);
  if (deploy.length === 0) errors.push("Deploy access levels is too short (minimum is 1 character)");
  for (const rule of approvals) {
    const count = rule.requiredApprovals ?? 1;
    if (count < 1) errors.push("Approval rules required approvals must be greater than or equal to 1");
    if (count > MAX_REQUIRED_APPROVALS) errors.push(`Approval rules required approvals must be less than or equal to ${MAX_REQUIRED_APPROVALS}`);
  }
  return errors;
}

const DEPRECATED_COUNT = "Parameter 'required_approval_count' is deprecated and shouldn't be used. See https://gitlab.com/groups/gitlab-org/-/epics/9662";

const idParam = { id: { type: "string", required: true } } as const;
const nameParam = { name: { type: "string", required: true } } as const;
const ruleParams = { required_approval_count: { type: "integer" }, deploy_access_levels: { type: "hash[]" }, approval_rules: { type: "hash[]" } } as const;

function routesOf(kind: "project" | "group"): RouteDefinition[] {
  const base = kind === "project" ? "/projects/:id/protected_environments" : "/groups/:id/protected_environments";
  const one = `${base}/:name`;
  return [
    route("GET", base, { params: idParam, paginated: true }, (ctx) => {
      const container = administered(ctx, kind);
      return paginate(ctx, environmentRulesOf(ctx.state, container), { present: (rule) => presentRule(ctx.state, rule) });
    }),

    route("GET", one, { params: { ...idParam, ...nameParam } }, (ctx) => {
      const container = administered(ctx, kind);
      return ok(presentRule(ctx.state, findRule(ctx.state, container, ctx.params.name)));
    }),

    route("POST", base, { params: { ...idParam, ...nameParam, ...ruleParams, deploy_access_levels: { type: "hash[]", required: true } } }, (ctx) => {
      const container = administered(ctx, kind);
      const { params, state } = ctx;
      if ((params.required_approval_count ?? 0) > 0) throw new ApiError(422, { message: DEPRECATED_COUNT });
      if (environmentRulesOf(state, container).some((rule) => rule.name === params.name)) {
        throw new ApiError(409, { message: kind === "project" ? `Environment '${params.name}' is already protected` : `Protected environment '${params.name}' already exists` });
      }
      const deploy = applyEntries(state, container, [], readEntries(params.deploy_access_levels, "deploy_access_levels"), false);
      const approvals = applyEntries(state, container, [], readEntries(params.approval_rules, "approval_rules"), true);
      const errors = validationErrors(container, params.name, deploy, approvals);
      if (errors.length > 0) throw new ApiError(422, { message: errors });
      const record: ProtectedEnvironmentRecord = {
        id: state.nextId(SEQUENCES.rule),
        projectId: container.kind === "project" ? container.project.id : null,
        groupId: container.kind === "group" ? container.group.id : null,
        name: params.name,
        deploy,
        approvals,
      };
      protectedEnvironmentsStore.of(state).rules.push(record);
      return created(presentRule(state, record));
    }),

    route("PUT", one, { params: { ...idParam, ...nameParam, ...ruleParams } }, (ctx) => {
      const container = administered(ctx, kind);
      const { params, state } = ctx;
      const rule = findRule(state, container, params.name);
      if ((params.required_approval_count ?? 0) > 0) throw new ApiError(422, { message: DEPRECATED_COUNT });
      const deploy = applyEntries(state, container, rule.deploy, readEntries(params.deploy_access_levels, "deploy_access_levels"), false);
      const approvals = applyEntries(state, container, rule.approvals, readEntries(params.approval_rules, "approval_rules"), true);
      const errors = validationErrors(container, rule.name, deploy, approvals);
      if (errors.length > 0) throw new ApiError(422, { message: errors });
      // One update: the environment stays protected throughout.
      Object.assign(rule, { deploy, approvals });
      return ok(presentRule(state, rule));
    }),

    route("DELETE", one, { params: { ...idParam, ...nameParam } }, (ctx) => {
      const container = administered(ctx, kind);
      const rule = findRule(ctx.state, container, ctx.params.name);
      const store = protectedEnvironmentsStore.of(ctx.state);
      store.rules = store.rules.filter((found) => found !== rule);
      return noContent();
    }),
  ];
}

export const protectedEnvironmentRoutes: readonly RouteDefinition[] = [...routesOf("project"), ...routesOf("group")];
