/**
 * Project and group webhooks: list, get, add, edit, delete, a test event,
 * custom headers one by one, and each hook's events log. Both owners share
 * one implementation, as `API::Helpers::WebHooksHelpers` serves both.
 */
import { hasGroupAccess, hasProjectAccess } from "../../access";
import { ApiError, forbidden, paramError, recordNotFound } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import type { ParamSpec } from "../../params";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Group, type Project } from "../../state";
import { deliver } from "./deliver";
import {
  alertStatus,
  BLANK_SHA,
  EVENT_HEADER,
  HOOK_SEQUENCE,
  hooksStore,
  MAX_CUSTOM_TEMPLATE,
  projectData,
  pushData,
  switchesOf,
  validBranchFilter,
  validCustomHeaders,
  validHookUrl,
  type BranchFilterStrategy,
  type EventSwitch,
  type HookOwnerKind,
  type HookRecord,
} from "./model";

interface HookOwner<S> {
  kind: HookOwnerKind;
  collection: string;
  find(ctx: RequestContext<unknown>): S;
  id(owner: S): number;
  /** `admin_web_hook` / `read_web_hook`: Maintainer of a project; Owner of a group on a tier with group webhooks. */
  allowed(state: EmulatorState, ctx: RequestContext<unknown>, owner: S): boolean;
  /** The project whose commits a test push event shows. */
  projectFor(state: EmulatorState, owner: S): Project | undefined;
}

const projectOwner: HookOwner<Project> = {
  kind: "project",
  collection: "/projects",
  find: (ctx) => findProject(ctx),
  id: (project) => project.id,
  allowed: (state, ctx, project) => hasProjectAccess(state, ctx.user, project, AccessLevel.Maintainer),
  projectFor: (_state, project) => project,
};

const groupOwner: HookOwner<Group> = {
  kind: "group",
  collection: "/groups",
  find: (ctx) => findGroup(ctx),
  id: (group) => group.id,
  allowed: (state, ctx, group) => state.tierOf(group) !== "free" && hasGroupAccess(state, ctx.user, group, AccessLevel.Owner),
  projectFor: (state, group) => state.projectsIn(group, { includeSubgroups: true }).find((project) => project.lastCommitSha !== null),
};

// ---------------------------------------------------------------------------
// Answers (`API::Entities::ProjectHook`, `EE::API::Entities::GroupHook`)

function presentHook(state: EmulatorState, hook: HookRecord, options: { headers: boolean }): Record<string, unknown> {
  const switches = Object.fromEntries(switchesOf(hook.kind).map((name) => [name, hook.events[name] === true]));
  return {
    id: hook.id,
    url: hook.url,
    name: hook.name,
    description: hook.description,
    created_at: hook.createdAt,
    push_events: switches["push_events"],
    tag_push_events: switches["tag_push_events"],
    merge_requests_events: switches["merge_requests_events"],
    repository_update_events: false,
    enable_ssl_verification: hook.enableSslVerification,
    alert_status: alertStatus(state, hook),
    disabled_until: hook.disabledUntil,
    ...(options.headers ? { url_variables: [] } : {}),
    push_events_branch_filter: hook.pushEventsBranchFilter,
    branch_filter_strategy: hook.branchFilterStrategy,
    custom_webhook_template: hook.customWebhookTemplate,
    ...(options.headers ? { custom_headers: Object.keys(hook.customHeaders).map((key) => ({ key })) } : {}),
    [hook.kind === "project" ? "project_id" : "group_id"]: hook.ownerId,
    ...switches,
  };
}

// ---------------------------------------------------------------------------
// Parameters

const idParam = { id: { type: "string", required: true } } as const;
const hookIdParam = { hook_id: { type: "integer", required: true } } as const;

function propertyParams(kind: HookOwnerKind): ParamSpec {
  return {
    url: { type: "string" },
    name: { type: "string" },
    description: { type: "string" },
    token: { type: "string" },
    enable_ssl_verification: { type: "boolean" },
    push_events_branch_filter: { type: "string" },
    branch_filter_strategy: { type: "string", values: ["wildcard", "regex", "all_branches"] },
    custom_webhook_template: { type: "string" },
    custom_headers: { type: "hash[]" },
    url_variables: { type: "hash[]" },
    ...Object.fromEntries(switchesOf(kind).map((name) => [name, { type: "boolean" }])),
  };
}

/** `custom_headers[]` as Grape reads it: each entry requires `key` and `value`. */
function customHeadersOf(entries: readonly Record<string, unknown>[] | undefined): Record<string, string> | undefined {
  if (entries === undefined) return undefined;
  return Object.fromEntries(
    entries.map((entry, index) => {
      for (const part of ["key", "value"]) {
        if (entry[part] === undefined || entry[part] === null) throw paramError(`custom_headers[${index}][${part}] is missing`);
      }
      return [String(entry["key"]), String(entry["value"])];
    }),
  );
}

/** The model's validations, as `save_hook` answers them: Grape's `error!(text, 422)` (key `error`), else `render_validation_error!`. */
function validate(hook: HookRecord): void {
  const invalid = (text: string) => new ApiError(422, { error: text });
  if (!validHookUrl(hook.url)) throw invalid("Invalid url given");
  if (!validBranchFilter(hook.pushEventsBranchFilter ?? "", hook.branchFilterStrategy)) throw invalid("Invalid branch filter given");
  if (!validCustomHeaders(hook.customHeaders)) throw invalid("Custom headers validation failed");
  if (hook.token !== null && hook.token.includes("\n")) throw new ApiError(422, { message: { token: ["is invalid"] } });
  if ((hook.customWebhookTemplate ?? "").length > MAX_CUSTOM_TEMPLATE) {
    throw new ApiError(422, { message: { custom_webhook_template: [`is too long (maximum is ${MAX_CUSTOM_TEMPLATE} characters)`] } });
  }
}

/** Writes the declared parameters into the hook (an edit merges custom headers into those it has). */
function assign(hook: HookRecord, params: Record<string, unknown>, kind: HookOwnerKind): void {
  const text = (name: string) => params[name] as string | undefined;
  const urlChanged = text("url") !== undefined && text("url") !== hook.url;
  if (text("url") !== undefined) hook.url = text("url")!.trim();
  if (text("name") !== undefined) hook.name = text("name")!;
  if (text("description") !== undefined) hook.description = text("description")!;
  if (text("custom_webhook_template") !== undefined) hook.customWebhookTemplate = text("custom_webhook_template")!;
  if (params["enable_ssl_verification"] !== undefined) hook.enableSslVerification = params["enable_ssl_verification"] as boolean;
  if (text("branch_filter_strategy") !== undefined) hook.branchFilterStrategy = text("branch_filter_strategy") as BranchFilterStrategy;
  if (text("push_events_branch_filter") !== undefined) hook.pushEventsBranchFilter = text("push_events_branch_filter")!;
  for (const name of switchesOf(kind)) {
    if (params[name] !== undefined) hook.events[name] = params[name] as boolean;
  }
  const headers = customHeadersOf(params["custom_headers"] as Record<string, unknown>[] | undefined);
  // A changed URL resets the token and the custom headers the same request does not send again (`reset_token`, `reset_custom_headers`).
  if (text("token") !== undefined) hook.token = text("token") === "" ? null : text("token")!;
  else if (urlChanged) hook.token = null;
  if (urlChanged && headers === undefined) hook.customHeaders = {};
  if (headers !== undefined) hook.customHeaders = { ...hook.customHeaders, ...headers };
  if (hook.branchFilterStrategy === "all_branches") hook.pushEventsBranchFilter = null;
}

// ---------------------------------------------------------------------------
// Test events

/** What a test of `trigger` sends, or why none can be made (`TestHooks::ProjectService`). */
function testData(state: EmulatorState, project: Project | undefined, trigger: EventSwitch, user: { id: number; name: string; username: string }): Record<string, unknown> | string {
  if (trigger === "push_events" || trigger === "tag_push_events") {
    const sha = project?.lastCommitSha ?? null;
    if (!project || sha === null) return "Ensure the project has at least one commit.";
    const tag = trigger === "tag_push_events";
    const ref = tag ? `refs/tags/${project.latestTag ?? "v1.0.0"}` : `refs/heads/${project.defaultBranch}`;
    const fullUser = state.userById(user.id)!;
    return pushData(state, project, fullUser, {
      ref,
      before: BLANK_SHA,
      after: sha,
      tag,
      commits: tag ? [] : [{ id: sha, message: "Test commit", timestamp: state.now(), author: { name: user.name, email: "" }, added: [], modified: [], removed: [] }],
    });
  }
  // The other events carry the emulator's sample: the kind of event and where it happened.
  const kind = trigger.replace(/_events$/, "").replace(/s$/, "");
  return {
    object_kind: kind,
    event_type: kind,
    user: { id: user.id, name: user.name, username: user.username },
    ...(project ? { project: projectData(state, project) } : {}),
    object_attributes: {},
  };
}

// ---------------------------------------------------------------------------
// Routes

function hookRoutes<S>(owner: HookOwner<S>): RouteDefinition[] {
  const base = `${owner.collection}/:id/hooks`;
  const one = `${base}/:hook_id`;
  const params = propertyParams(owner.kind);

  const administered = (ctx: RequestContext<unknown>): S => {
    requireUser(ctx);
    const found = owner.find(ctx);
    if (!owner.allowed(ctx.state, ctx, found)) throw forbidden();
    return found;
  };
  const hooksOf = (state: EmulatorState, found: S) => hooksStore.of(state).hooks.filter((hook) => hook.kind === owner.kind && hook.ownerId === owner.id(found));
  const findHook = (ctx: RequestContext<unknown>, found: S, id: number): HookRecord => {
    const hook = hooksOf(ctx.state, found).find((candidate) => candidate.id === id);
    if (!hook) throw recordNotFound();
    return hook;
  };

  return [
    route("GET", base, { params: idParam, paginated: true }, (ctx) => {
      const found = administered(ctx);
      // A project's list leaves out URL variables and custom headers (`with_custom_headers: false`); a group's shows them.
      return paginate(ctx, hooksOf(ctx.state, found), { present: (hook) => presentHook(ctx.state, hook, { headers: owner.kind === "group" }) });
    }),

    route("GET", one, { params: { ...idParam, ...hookIdParam } }, (ctx) => {
      const found = administered(ctx);
      return ok(presentHook(ctx.state, findHook(ctx, found, ctx.params.hook_id), { headers: true }));
    }),

    route("POST", base, { params: { ...idParam, ...params, url: { type: "string", required: true } } }, (ctx) => {
      const found = administered(ctx);
      const hook: HookRecord = {
        id: 0,
        kind: owner.kind,
        ownerId: owner.id(found),
        url: "",
        token: null,
        name: null,
        description: null,
        // The column defaults: push events on, the rest off.
        events: { push_events: true },
        enableSslVerification: true,
        pushEventsBranchFilter: null,
        branchFilterStrategy: "wildcard",
        customWebhookTemplate: null,
        customHeaders: {},
        recentFailures: 0,
        disabledUntil: null,
        createdAt: ctx.state.now(),
      };
      assign(hook, ctx.params, owner.kind);
      validate(hook);
      hook.id = ctx.state.nextId(HOOK_SEQUENCE);
      hooksStore.of(ctx.state).hooks.push(hook);
      return created(presentHook(ctx.state, hook, { headers: true }));
    }),

    route("PUT", one, { params: { ...idParam, ...hookIdParam, ...params } }, (ctx) => {
      const found = administered(ctx);
      const hook = findHook(ctx, found, ctx.params.hook_id);
      if (!Object.keys(params).some((name) => ctx.params[name as keyof typeof ctx.params] !== undefined)) throw paramError("No parameters provided");
      const updated = structuredClone(hook);
      assign(updated, ctx.params, owner.kind);
      validate(updated);
      Object.assign(hook, updated);
      return ok(presentHook(ctx.state, hook, { headers: true }));
    }),

    route("DELETE", one, { params: { ...idParam, ...hookIdParam } }, (ctx) => {
      const found = administered(ctx);
      const hook = findHook(ctx, found, ctx.params.hook_id);
      const store = hooksStore.of(ctx.state);
      store.hooks.splice(store.hooks.indexOf(hook), 1);
      store.queued = store.queued.filter((queued) => queued.hookId !== hook.id);
      return noContent();
    }),

    route(
      "POST",
      `${one}/test/:trigger`,
      { params: { ...idParam, ...hookIdParam, trigger: { type: "string", required: true, values: switchesOf(owner.kind) } } },
      async (ctx) => {
        const found = administered(ctx);
        const hook = findHook(ctx, found, ctx.params.hook_id);
        const data = testData(ctx.state, owner.projectFor(ctx.state, found), ctx.params.trigger as EventSwitch, ctx.user!);
        if (typeof data === "string") throw new ApiError(422, { message: data });
        // A test is delivered at once, disabled or not (`force: true`), and its answer says how it went.
        const result = await deliver(ctx.state, hook, ctx.params.trigger as EventSwitch, data);
        if (result.status !== undefined && result.status >= 200 && result.status < 300) return created({ message: "201 Created" });
        throw new ApiError(422, { message: result.message });
      },
    ),

    route(
      "PUT",
      `${one}/custom_headers/:key`,
      { params: { ...idParam, ...hookIdParam, key: { type: "string", required: true }, value: { type: "string", required: true } } },
      (ctx) => {
        const found = administered(ctx);
        const hook = findHook(ctx, found, ctx.params.hook_id);
        const headers = { ...hook.customHeaders, [ctx.params.key]: ctx.params.value };
        if (!validCustomHeaders(headers)) throw new ApiError(422, { error: "Illegal key or value" });
        hook.customHeaders = headers;
        return noContent();
      },
    ),

    route("DELETE", `${one}/custom_headers/:key`, { params: { ...idParam, ...hookIdParam, key: { type: "string", required: true } } }, (ctx) => {
      const found = administered(ctx);
      const hook = findHook(ctx, found, ctx.params.hook_id);
      if (!(ctx.params.key in hook.customHeaders)) throw new ApiError(404, { message: "404 Custom header Not Found" });
      const { [ctx.params.key]: _removed, ...rest } = hook.customHeaders;
      hook.customHeaders = rest;
      return noContent();
    }),

    route("GET", `${one}/events`, { params: { ...idParam, ...hookIdParam }, paginated: true }, (ctx) => {
      const found = administered(ctx);
      const hook = findHook(ctx, found, ctx.params.hook_id);
      const entries = hooksStore.of(ctx.state).log.filter((entry) => entry.hookId === hook.id);
      return paginate(ctx, entries, {
        present: (entry) => ({
          id: entry.id,
          url: entry.url,
          // The hook name the event went out under (`push_hooks`, `merge_request_hooks`).
          trigger: `${EVENT_HEADER[entry.trigger].toLowerCase().replace(/ /g, "_")}s`,
          request_headers: entry.requestHeaders,
          request_data: entry.requestData,
          response_headers: {},
          response_body: entry.responseBody,
          execution_duration: entry.executionDuration,
          response_status: entry.responseStatus,
        }),
      });
    }),
  ];
}

export const hookRoutesOfOwners: readonly RouteDefinition[] = [...hookRoutes(projectOwner), ...hookRoutes(groupOwner)];
