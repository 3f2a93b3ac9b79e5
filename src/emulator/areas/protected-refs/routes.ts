/**
 * `/projects/:id/protected_branches` and `/projects/:id/protected_tags`
 * (lib/api/protected_branches.rb, lib/api/protected_tags.rb): reading a
 * project's protected branches needs to read its code, every other route
 * `admin_project` (Maintainer); what each answers and refuses is in the
 * emulator's README ("Protected branches and tags").
 */
import { hasProjectAccess, projectAccessLevel } from "../../access";
import { ApiError, forbidden, paramError, recordNotFound } from "../../errors";
import { applyNestedAttributes, integerOf } from "../../nested-attributes";
import { findProject } from "../../lookup";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Project } from "../../state";
import { keyPushesTo } from "../deploy-keys/model";
import { canReadCode } from "../repository/access";
import { presentBranchRule, presentTagRule } from "./present";
import {
  REF_ACCESS_LEVELS,
  SEQUENCES,
  accessAllows,
  branchRulesOf,
  protectedRefsStore,
  roleAccess,
  tagRulesOf,
  usersAndGroupsLicensed,
  type BranchAccessKind,
  type ProtectedBranchRecord,
  type ProtectedTagRecord,
  type RefAccessRecord,
} from "./model";

const idParam = { id: { type: "string", required: true } } as const;
const nameParam = { name: { type: "string", required: true } } as const;
const level = { type: "integer", values: REF_ACCESS_LEVELS } as const;
/** `No access` is not a level that may unprotect. */
const unprotectLevel = { type: "integer", values: REF_ACCESS_LEVELS.filter((value) => value !== 0) } as const;
const entries = { type: "hash[]" } as const;

/** `render_api_error!(errors.full_messages, 422)`. */
const invalid = (messages: string[]): ApiError => new ApiError(422, { message: messages });

/** The project, if the caller administers it (`authorize_admin_project`): 404 when hidden, 403 below Maintainer. */
function administeredProject(ctx: RequestContext<unknown>): Project {
  const user = requireUser(ctx);
  const project = findProject(ctx);
  if (!hasProjectAccess(ctx.state, user, project, AccessLevel.Maintainer)) throw forbidden();
  return project;
}

/** The project, if the caller may read its code (`authorize_read_code!`): 404 when hidden, 403 otherwise. */
function readableProject(ctx: RequestContext<unknown>): Project {
  requireUser(ctx);
  const project = findProject(ctx);
  if (!canReadCode(ctx.state, ctx.user, project)) throw forbidden();
  return project;
}

// ---------------------------------------------------------------------------
// Access entries: `allowed_to_push: [{access_level}, {user_id}, {group_id}, {id, _destroy}]`

const ENTITY: Record<BranchAccessKind | "create", string> = { push: "Push access levels", merge: "Merge access levels", unprotect: "Unprotect access levels", create: "Create access levels" };

/** One entry of an `allowed_to_*` list, as Grape declares it. */
interface EntryParams {
  id?: number;
  destroy: boolean;
  accessLevel?: number;
  userId?: number;
  groupId?: number;
  deployKeyId?: number;
}

function readEntries(list: Record<string, unknown>[] | undefined, param: string, allowed: readonly number[]): EntryParams[] {
  return (list ?? []).map((raw) => {
    const accessLevel = integerOf(raw, "access_level", param);
    if (accessLevel !== undefined && !allowed.includes(accessLevel)) throw paramError(`${param}[access_level] does not have a valid value`);
    const destroy = raw["_destroy"] === true || ["true", "1"].includes(String(raw["_destroy"]));
    return {
      ...(integerOf(raw, "id", param) === undefined ? {} : { id: integerOf(raw, "id", param)! }),
      destroy,
      ...(accessLevel === undefined ? {} : { accessLevel }),
      ...(integerOf(raw, "user_id", param) === undefined ? {} : { userId: integerOf(raw, "user_id", param)! }),
      ...(integerOf(raw, "group_id", param) === undefined ? {} : { groupId: integerOf(raw, "group_id", param)! }),
      ...(integerOf(raw, "deploy_key_id", param) === undefined ? {} : { deployKeyId: integerOf(raw, "deploy_key_id", param)! }),
    };
  });
}

/**
 * The list after the entries are applied (accepts_nested_attributes_for,
 * allow_destroy): an entry with an `id` changes or destroys that one, one
 * without adds one. Users and groups are dropped below Premium; the list's
 * validations (a role, user or group once; a user a member of the project, a
 * group one of its ancestors) are collected into `errors`.
 */
function applyEntries(
  state: EmulatorState,
  project: Project,
  current: readonly RefAccessRecord[],
  changes: readonly EntryParams[],
  kind: BranchAccessKind | "create",
  sequence: string,
  errors: string[],
): RefAccessRecord[] {
  const licensed = usersAndGroupsLicensed(state, project);
  const next = applyNestedAttributes(
    current,
    changes.filter((change) => licensed || (change.userId === undefined && change.groupId === undefined)),
    {
      change(entry, change) {
        if (change.accessLevel !== undefined) Object.assign(entry, { accessLevel: change.accessLevel, userId: null, groupId: null, deployKeyId: null });
        if (change.userId !== undefined) Object.assign(entry, { accessLevel: AccessLevel.Developer, userId: change.userId, groupId: null, deployKeyId: null });
        if (change.groupId !== undefined) Object.assign(entry, { accessLevel: AccessLevel.Developer, userId: null, groupId: change.groupId, deployKeyId: null });
      },
      add(change) {
        if (change.userId !== undefined) return { id: state.nextId(sequence), accessLevel: AccessLevel.Developer, userId: change.userId, groupId: null, deployKeyId: null };
        if (change.groupId !== undefined) return { id: state.nextId(sequence), accessLevel: AccessLevel.Developer, userId: null, groupId: change.groupId, deployKeyId: null };
        if (change.deployKeyId !== undefined) return { id: state.nextId(sequence), accessLevel: AccessLevel.Developer, userId: null, groupId: null, deployKeyId: change.deployKeyId };
        return change.accessLevel !== undefined ? roleAccess(state, sequence, change.accessLevel) : undefined;
      },
    },
  );
  const entity = ENTITY[kind];
  const seen = new Set<string>();
  for (const entry of next) {
    const key = entry.userId !== null ? `user ${entry.userId}` : entry.groupId !== null ? `group ${entry.groupId}` : entry.deployKeyId !== null ? `deploy key ${entry.deployKeyId}` : `access level ${entry.accessLevel}`;
    if (seen.has(key)) errors.push(`${entity} ${key.replace(/ \d+$/, "")} has already been taken`);
    seen.add(key);
    if (entry.userId !== null) {
      const user = state.userById(entry.userId);
      if (!user || projectAccessLevel(state, user, project) === AccessLevel.NoAccess) errors.push(`${entity} user is not a member of the project`);
    }
    if (entry.groupId !== null && !state.selfAndAncestors(state.namespaceOf(project)).some((group) => group.id === entry.groupId)) {
      errors.push(`${entity} group does not have access to the project`);
    }
    if (entry.deployKeyId !== null) {
      const reach = keyPushesTo(state, entry.deployKeyId, project);
      if (reach === "missing") errors.push(`${entity} deploy key can't be blank`);
      if (reach === "read-only") errors.push(`${entity} deploy key is not enabled for this project`);
    }
  }
  return next;
}

// ---------------------------------------------------------------------------
// Protected branches

const BRANCHES = "/projects/:id/protected_branches";
const ONE_BRANCH = `${BRANCHES}/:name`;

function findBranchRule(state: EmulatorState, project: Project, name: string): ProtectedBranchRecord {
  const rule = branchRulesOf(state, project).find((found) => found.name === name);
  if (!rule) throw recordNotFound();
  return rule;
}

const branchAccessParams = {
  allowed_to_push: entries,
  allowed_to_merge: entries,
  allowed_to_unprotect: entries,
  allow_force_push: { type: "boolean" },
  code_owner_approval_required: { type: "boolean" },
} as const;

/** `code_owner_approval_required` takes effect on Premium and Ultimate (`code_owner_approval_required` licence). */
const codeOwnersLicensed = usersAndGroupsLicensed;

/**
 * A PATCH's `allowed_to_push`, `allowed_to_merge` and `allowed_to_unprotect`
 * are Premium and Ultimate only (doc/api/protected_branches.md; the
 * Community Edition does not declare them): below, they are not read, and the
 * rule keeps its levels.
 */
const levelsInPlaceLicensed = usersAndGroupsLicensed;

const protectedBranchRoutes: readonly RouteDefinition[] = [
  route("GET", BRANCHES, { params: { ...idParam, search: { type: "string" } }, paginated: true }, (ctx) => {
    const project = readableProject(ctx);
    const search = ctx.params.search?.toLowerCase();
    const rules = branchRulesOf(ctx.state, project).filter((rule) => search === undefined || rule.name.toLowerCase().includes(search));
    return paginate(ctx, rules, { present: (rule) => presentBranchRule(ctx.state, project, rule) });
  }),

  route("GET", ONE_BRANCH, { params: { ...idParam, ...nameParam } }, (ctx) => {
    const project = readableProject(ctx);
    return ok(presentBranchRule(ctx.state, project, findBranchRule(ctx.state, project, ctx.params.name)));
  }),

  route(
    "POST",
    BRANCHES,
    { params: { ...idParam, ...nameParam, push_access_level: level, merge_access_level: level, unprotect_access_level: unprotectLevel, ...branchAccessParams } },
    (ctx) => {
      const project = administeredProject(ctx);
      const { params, state } = ctx;
      if (branchRulesOf(state, project).some((rule) => rule.name === params.name)) {
        throw new ApiError(409, { message: `Protected branch '${params.name}' already exists` });
      }
      const push = readEntries(params.allowed_to_push, "allowed_to_push", REF_ACCESS_LEVELS);
      const merge = readEntries(params.allowed_to_merge, "allowed_to_merge", REF_ACCESS_LEVELS);
      const unprotect = readEntries(params.allowed_to_unprotect, "allowed_to_unprotect", unprotectLevel.values);
      // ProtectedBranches::AccessLevelParams: the level given, else Maintainer when the list names none.
      const withLevel = (list: EntryParams[], given: number | undefined): EntryParams[] =>
        given !== undefined ? [{ destroy: false, accessLevel: given }, ...list] : list.length > 0 ? list : [{ destroy: false, accessLevel: AccessLevel.Maintainer }];
      const errors: string[] = [];
      if (params.name.trim() === "") errors.push("Name can't be blank");
      const record: ProtectedBranchRecord = {
        id: 0,
        projectId: project.id,
        name: params.name,
        push: applyEntries(state, project, [], withLevel(push, params.push_access_level), "push", SEQUENCES.push, errors),
        merge: applyEntries(state, project, [], withLevel(merge, params.merge_access_level), "merge", SEQUENCES.merge, errors),
        unprotect: applyEntries(state, project, [], withLevel(unprotect, params.unprotect_access_level), "unprotect", SEQUENCES.unprotect, errors),
        allowForcePush: params.allow_force_push ?? false,
        codeOwnerApprovalRequired: codeOwnersLicensed(state, project) ? (params.code_owner_approval_required ?? false) : false,
      };
      if (errors.length > 0) throw invalid(errors);
      record.id = state.nextId(SEQUENCES.branch);
      protectedRefsStore.of(state).branches.push(record);
      return created(presentBranchRule(state, project, record));
    },
  ),

  route("PATCH", ONE_BRANCH, { params: { ...idParam, ...nameParam, ...branchAccessParams } }, (ctx) => {
    const project = administeredProject(ctx);
    const { params, state } = ctx;
    const rule = findBranchRule(state, project, params.name);
    const errors: string[] = [];
    const licensed = levelsInPlaceLicensed(state, project);
    const entriesOf = (list: Record<string, unknown>[] | undefined, param: string, allowed: readonly number[]) => (licensed ? readEntries(list, param, allowed) : []);
    const push = applyEntries(state, project, rule.push, entriesOf(params.allowed_to_push, "allowed_to_push", REF_ACCESS_LEVELS), "push", SEQUENCES.push, errors);
    const merge = applyEntries(state, project, rule.merge, entriesOf(params.allowed_to_merge, "allowed_to_merge", REF_ACCESS_LEVELS), "merge", SEQUENCES.merge, errors);
    const unprotect = applyEntries(state, project, rule.unprotect, entriesOf(params.allowed_to_unprotect, "allowed_to_unprotect", unprotectLevel.values), "unprotect", SEQUENCES.unprotect, errors);
    if (errors.length > 0) throw invalid(errors);
    // One update: the rule is never without its protection in between.
    Object.assign(rule, { push, merge, unprotect });
    if (params.allow_force_push !== undefined) rule.allowForcePush = params.allow_force_push;
    if (params.code_owner_approval_required !== undefined && codeOwnersLicensed(state, project)) rule.codeOwnerApprovalRequired = params.code_owner_approval_required;
    return ok(presentBranchRule(state, project, rule));
  }),

  route("DELETE", ONE_BRANCH, { params: { ...idParam, ...nameParam } }, (ctx) => {
    const project = administeredProject(ctx);
    const { state } = ctx;
    const rule = findBranchRule(state, project, ctx.params.name);
    // `destroy_protected_branch`: on Premium and Ultimate, only whom the rule's unprotect levels let in.
    const user = requireUser(ctx);
    if (usersAndGroupsLicensed(state, project) && !rule.unprotect.some((entry) => accessAllows(state, user, project, entry))) throw forbidden();
    const store = protectedRefsStore.of(state);
    store.branches = store.branches.filter((found) => found !== rule);
    return noContent();
  }),
];

// ---------------------------------------------------------------------------
// Protected tags

const TAGS = "/projects/:id/protected_tags";
const ONE_TAG = `${TAGS}/:name`;

function findTagRule(state: EmulatorState, project: Project, name: string): ProtectedTagRecord {
  const rule = tagRulesOf(state, project).find((found) => found.name === name);
  if (!rule) throw recordNotFound();
  return rule;
}

const protectedTagRoutes: readonly RouteDefinition[] = [
  route("GET", TAGS, { params: idParam, paginated: true }, (ctx) => {
    const project = administeredProject(ctx);
    return paginate(ctx, tagRulesOf(ctx.state, project), { present: (rule) => presentTagRule(ctx.state, project, rule) });
  }),

  route("GET", ONE_TAG, { params: { ...idParam, ...nameParam } }, (ctx) => {
    const project = administeredProject(ctx);
    return ok(presentTagRule(ctx.state, project, findTagRule(ctx.state, project, ctx.params.name)));
  }),

  route("POST", TAGS, { params: { ...idParam, ...nameParam, create_access_level: level, allowed_to_create: entries } }, (ctx) => {
    const project = administeredProject(ctx);
    const { params, state } = ctx;
    if (tagRulesOf(state, project).some((rule) => rule.name === params.name)) throw new ApiError(409, { message: `Protected tag '${params.name}' already exists` });
    const listed = readEntries(params.allowed_to_create, "allowed_to_create", REF_ACCESS_LEVELS);
    const wanted: EntryParams[] =
      params.create_access_level !== undefined ? [{ destroy: false, accessLevel: params.create_access_level }, ...listed] : listed.length > 0 ? listed : [{ destroy: false, accessLevel: AccessLevel.Maintainer }];
    const errors: string[] = [];
    if (params.name.trim() === "") errors.push("Name can't be blank");
    const create = applyEntries(state, project, [], wanted, "create", SEQUENCES.create, errors);
    if (errors.length > 0) throw invalid(errors);
    const record: ProtectedTagRecord = { id: state.nextId(SEQUENCES.tag), projectId: project.id, name: params.name, create };
    protectedRefsStore.of(state).tags.push(record);
    return created(presentTagRule(state, project, record));
  }),

  route("DELETE", ONE_TAG, { params: { ...idParam, ...nameParam } }, (ctx) => {
    const project = administeredProject(ctx);
    const rule = findTagRule(ctx.state, project, ctx.params.name);
    const store = protectedRefsStore.of(ctx.state);
    store.tags = store.tags.filter((found) => found !== rule);
    return noContent();
  }),
];

export const protectedRefRoutes: readonly RouteDefinition[] = [...protectedBranchRoutes, ...protectedTagRoutes];
