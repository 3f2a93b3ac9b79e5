/**
 * The hooks area's model: project and group webhooks, the events waiting to
 * be delivered, and the rules a hook's settings and its failures follow.
 * Kept apart from the routes because the areas that produce events (the
 * repository's commits and branches, merge requests) queue them here
 * (`queueProjectEvent`); it imports no other area.
 */
import { defineStore, type EmulatorState, type Group, type Project, type User } from "../../state";

export type HookOwnerKind = "project" | "group";

/** The event switches a project hook has (`API::Entities::ProjectHook`), in the entity's order. */
export const PROJECT_EVENT_SWITCHES = [
  "push_events",
  "tag_push_events",
  "merge_requests_events",
  "issues_events",
  "confidential_issues_events",
  "note_events",
  "confidential_note_events",
  "pipeline_events",
  "wiki_page_events",
  "deployment_events",
  "feature_flag_events",
  "job_events",
  "releases_events",
  "milestone_events",
  "emoji_events",
  "resource_access_token_events",
  "resource_deploy_token_events",
  "vulnerability_events",
] as const;

/** A group hook has a project hook's switches and these (`EE::API::Entities::GroupHook`). */
export const GROUP_ONLY_EVENT_SWITCHES = ["subgroup_events", "member_events", "project_events"] as const;

export type EventSwitch = (typeof PROJECT_EVENT_SWITCHES)[number] | (typeof GROUP_ONLY_EVENT_SWITCHES)[number];

export const switchesOf = (kind: HookOwnerKind): readonly EventSwitch[] =>
  kind === "project" ? PROJECT_EVENT_SWITCHES : [...PROJECT_EVENT_SWITCHES, ...GROUP_ONLY_EVENT_SWITCHES];

/** `X-Gitlab-Event` of each switch: its hook name (`push_hooks`) singularized and titleized. */
export const EVENT_HEADER: Readonly<Record<EventSwitch, string>> = {
  push_events: "Push Hook",
  tag_push_events: "Tag Push Hook",
  merge_requests_events: "Merge Request Hook",
  issues_events: "Issue Hook",
  confidential_issues_events: "Confidential Issue Hook",
  note_events: "Note Hook",
  confidential_note_events: "Confidential Note Hook",
  pipeline_events: "Pipeline Hook",
  wiki_page_events: "Wiki Page Hook",
  deployment_events: "Deployment Hook",
  feature_flag_events: "Feature Flag Hook",
  job_events: "Job Hook",
  releases_events: "Release Hook",
  milestone_events: "Milestone Hook",
  emoji_events: "Emoji Hook",
  resource_access_token_events: "Resource Access Token Hook",
  resource_deploy_token_events: "Resource Deploy Token Hook",
  vulnerability_events: "Vulnerability Hook",
  subgroup_events: "Subgroup Hook",
  member_events: "Member Hook",
  project_events: "Project Hook",
};

export type BranchFilterStrategy = "wildcard" | "regex" | "all_branches";

export interface HookRecord {
  id: number;
  kind: HookOwnerKind;
  /** The project's or the group's id. */
  ownerId: number;
  url: string;
  /** Write-only: never in an answer. */
  token: string | null;
  name: string | null;
  description: string | null;
  events: Partial<Record<EventSwitch, boolean>>;
  enableSslVerification: boolean;
  pushEventsBranchFilter: string | null;
  branchFilterStrategy: BranchFilterStrategy;
  customWebhookTemplate: string | null;
  /** Header name → value; answers show the names only. */
  customHeaders: Record<string, string>;
  /** Consecutive failed deliveries (`recent_failures`), as WebHooks::AutoDisabling counts them. */
  recentFailures: number;
  disabledUntil: string | null;
  createdAt: string;
}

/** One event waiting for the background work to deliver it. */
export interface QueuedDelivery {
  hookId: number;
  trigger: EventSwitch;
  data: Record<string, unknown>;
}

/** One delivery made: what the hook's events log (`GET .../hooks/:hook_id/events`) lists. */
export interface DeliveryLog {
  id: number;
  hookId: number;
  trigger: EventSwitch;
  url: string;
  requestHeaders: Record<string, string>;
  requestData: Record<string, unknown>;
  responseStatus: string;
  responseBody: string;
  executionDuration: number;
  createdAt: string;
}

export interface HooksStore {
  hooks: HookRecord[];
  queued: QueuedDelivery[];
  log: DeliveryLog[];
}

export const hooksStore = defineStore("hooks", (): HooksStore => ({ hooks: [], queued: [], log: [] }));
export const HOOK_SEQUENCE = "web_hooks";
export const HOOK_LOG_SEQUENCE = "web_hook_logs";

/** Events waiting at once at most: a burst beyond it drops the oldest (a real queue is bounded by its workers' memory). */
export const MAX_QUEUED = 1000;
/** Deliveries kept in the events log, each hook's newest. */
export const MAX_LOG_PER_HOOK = 50;

// ---------------------------------------------------------------------------
// Validation (WebHooks::Hook's validations)

/** `web_hooks_custom_headers.json`: at most 20, names of this form, values of 1 to 2,048 characters. */
export const CUSTOM_HEADER_NAME = /^[A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*$/;
export const MAX_CUSTOM_HEADERS = 20;
export const MAX_CUSTOM_HEADER_VALUE = 2048;
export const MAX_CUSTOM_TEMPLATE = 4096;

export function validCustomHeaders(headers: Record<string, string>): boolean {
  const entries = Object.entries(headers);
  return entries.length <= MAX_CUSTOM_HEADERS && entries.every(([key, value]) => CUSTOM_HEADER_NAME.test(key) && value.length >= 1 && value.length <= MAX_CUSTOM_HEADER_VALUE);
}

/** An http(s) URL with a host. (Local addresses are allowed: receivers under test listen on 127.0.0.1.) */
export function validHookUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * A wildcard filter is a branch name where `*` stands for any characters
 * (`web_hooks/wildcard_branch_filter`); a regex one must compile.
 */
export function validBranchFilter(filter: string, strategy: BranchFilterStrategy): boolean {
  if (filter === "" || strategy === "all_branches") return true;
  if (strategy === "regex") {
    try {
      new RegExp(filter);
      return true;
    } catch {
      return false;
    }
  }
  return !/[\s~^:?[\\]|\.\.|@\{|^\/|\/$|\.lock$/.test(filter);
}

/** Whether a push to `branch` passes the hook's filter (`ActiveHookFilter`): only push events are filtered. */
export function branchMatches(hook: HookRecord, branch: string): boolean {
  const filter = hook.pushEventsBranchFilter ?? "";
  if (hook.branchFilterStrategy === "all_branches" || filter === "") return true;
  if (hook.branchFilterStrategy === "regex") {
    try {
      return new RegExp(filter).test(branch);
    } catch {
      return false;
    }
  }
  const pattern = new RegExp(`^${filter.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  return pattern.test(branch);
}

// ---------------------------------------------------------------------------
// Auto-disabling (WebHooks::AutoDisabling)

/** Failures allowed before the hook backs off. */
export const TEMPORARILY_DISABLED_FAILURE_THRESHOLD = 3;
/** Past this count of failures, the hook is disabled until someone enables it (a successful test, or an edit). */
export const PERMANENTLY_DISABLED_FAILURE_THRESHOLD = 39;
const INITIAL_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 86_400_000;

/** The flag real servers gate auto-disabling with; on unless set off (`instance.featureFlags`). */
export const AUTO_DISABLING_FLAG = "auto_disabling_web_hooks";

const autoDisabling = (state: EmulatorState): boolean => state.featureEnabled(AUTO_DISABLING_FLAG);

export function temporarilyDisabled(state: EmulatorState, hook: HookRecord): boolean {
  if (!autoDisabling(state) || hook.disabledUntil === null) return false;
  return (
    Date.parse(hook.disabledUntil) >= Date.parse(state.now()) &&
    hook.recentFailures > TEMPORARILY_DISABLED_FAILURE_THRESHOLD &&
    hook.recentFailures <= PERMANENTLY_DISABLED_FAILURE_THRESHOLD
  );
}

export const permanentlyDisabled = (state: EmulatorState, hook: HookRecord): boolean =>
  autoDisabling(state) && hook.recentFailures > PERMANENTLY_DISABLED_FAILURE_THRESHOLD;

export const executable = (state: EmulatorState, hook: HookRecord): boolean => !temporarilyDisabled(state, hook) && !permanentlyDisabled(state, hook);

export function alertStatus(state: EmulatorState, hook: HookRecord): "executable" | "temporarily_disabled" | "disabled" {
  if (temporarilyDisabled(state, hook)) return "temporarily_disabled";
  return permanentlyDisabled(state, hook) ? "disabled" : "executable";
}

/** A delivery that succeeded (2xx or 3xx): the hook is enabled again. */
export function enable(hook: HookRecord): void {
  hook.recentFailures = 0;
  hook.disabledUntil = null;
}

/** A delivery that failed: past the grace count, the hook backs off for twice as long each time, up to a day. */
export function backoff(state: EmulatorState, hook: HookRecord): void {
  if (!autoDisabling(state) || !executable(state, hook)) return;
  const backoffCount = hook.recentFailures - TEMPORARILY_DISABLED_FAILURE_THRESHOLD;
  const next = Math.min(Math.max(hook.recentFailures + 1, 1), PERMANENTLY_DISABLED_FAILURE_THRESHOLD + 1);
  if (next > TEMPORARILY_DISABLED_FAILURE_THRESHOLD) {
    const delay = Math.min(Math.max(INITIAL_BACKOFF_MS * 2 ** backoffCount, INITIAL_BACKOFF_MS), MAX_BACKOFF_MS);
    hook.disabledUntil = new Date(Date.parse(state.now()) + delay).toISOString();
  }
  hook.recentFailures = next;
}

// ---------------------------------------------------------------------------
// Events

/** The hooks an event of `project` goes to: its own, then its groups' (self and ancestors), those whose switch is on. */
export function hooksFor(state: EmulatorState, project: Project, trigger: EventSwitch): HookRecord[] {
  const groupIds = new Set(state.selfAndAncestors(state.namespaceOf(project)).filter((group) => state.tierOf(group) !== "free").map((group) => group.id));
  return hooksStore
    .of(state)
    .hooks.filter((hook) => (hook.kind === "project" ? hook.ownerId === project.id : groupIds.has(hook.ownerId)) && hook.events[trigger] === true);
}

function enqueue(state: EmulatorState, delivery: QueuedDelivery): void {
  const { queued } = hooksStore.of(state);
  queued.push(delivery);
  if (queued.length > MAX_QUEUED) queued.splice(0, queued.length - MAX_QUEUED);
}

/**
 * Queues an event of `project` for each hook that takes it (a push only
 * where the branch passes the hook's filter, and only while the hook is not
 * disabled): the background work delivers it, never the request that caused it.
 */
export function queueProjectEvent(state: EmulatorState, project: Project, trigger: EventSwitch, data: Record<string, unknown>, branch?: string): void {
  for (const hook of hooksFor(state, project, trigger)) {
    if (!executable(state, hook)) continue;
    if (trigger === "push_events" && branch !== undefined && !branchMatches(hook, branch)) continue;
    enqueue(state, { hookId: hook.id, trigger, data });
  }
}

// ---------------------------------------------------------------------------
// Event data (Gitlab::DataBuilder), the parts the emulator knows

export const BLANK_SHA = "0000000000000000000000000000000000000000";

/** The `project` object of every event. */
export function projectData(state: EmulatorState, project: Project): Record<string, unknown> {
  const fullPath = state.projectFullPath(project);
  const web = `https://${state.instance.host}/${fullPath}`;
  const ssh = `git@${state.instance.host}:${fullPath}.git`;
  return {
    id: project.id,
    name: project.name,
    description: project.description ?? null,
    web_url: web,
    avatar_url: null,
    git_ssh_url: ssh,
    git_http_url: `${web}.git`,
    namespace: state.namespaceOf(project).name,
    visibility_level: { private: 0, internal: 10, public: 20 }[project.visibility],
    path_with_namespace: fullPath,
    default_branch: project.defaultBranch,
    ci_config_path: null,
    homepage: web,
    url: ssh,
    ssh_url: ssh,
    http_url: `${web}.git`,
  };
}

function repositoryData(state: EmulatorState, project: Project): Record<string, unknown> {
  const data = projectData(state, project);
  return {
    name: project.name,
    url: data["ssh_url"],
    description: data["description"],
    homepage: data["homepage"],
    git_http_url: data["git_http_url"],
    git_ssh_url: data["git_ssh_url"],
    visibility_level: data["visibility_level"],
  };
}

export const userData = (user: User): Record<string, unknown> => ({
  id: user.id,
  name: user.name,
  username: user.username,
  avatar_url: null,
  email: "[REDACTED]",
});

export interface PushedCommit {
  id: string;
  message: string;
  timestamp: string;
  author: { name: string; email: string };
  added: string[];
  modified: string[];
  removed: string[];
}

/** At most this many commits are listed in a push event (`total_commits_count` counts them all). */
const PUSH_COMMITS_LIMIT = 20;

/** A push event (`Gitlab::DataBuilder::Push`): a branch or tag moved from `before` to `after`. */
export function pushData(
  state: EmulatorState,
  project: Project,
  user: User,
  push: { ref: string; before: string; after: string; commits: readonly PushedCommit[]; tag?: boolean },
): Record<string, unknown> {
  const web = `https://${state.instance.host}/${state.projectFullPath(project)}`;
  return {
    object_kind: push.tag ? "tag_push" : "push",
    event_name: push.tag ? "tag_push" : "push",
    before: push.before,
    after: push.after,
    ref: push.ref,
    ref_protected: false,
    checkout_sha: push.after === BLANK_SHA ? null : push.after,
    message: null,
    user_id: user.id,
    user_name: user.name,
    user_username: user.username,
    user_email: null,
    user_avatar: null,
    project_id: project.id,
    project: projectData(state, project),
    commits: push.commits.slice(0, PUSH_COMMITS_LIMIT).map((commit) => ({
      id: commit.id,
      message: commit.message,
      title: commit.message.split("\n")[0],
      timestamp: commit.timestamp,
      url: `${web}/-/commit/${commit.id}`,
      author: { name: commit.author.name, email: "[REDACTED]" },
      added: commit.added,
      modified: commit.modified,
      removed: commit.removed,
    })),
    total_commits_count: push.commits.length,
    push_options: {},
    repository: repositoryData(state, project),
  };
}

/** A merge request event (`Gitlab::DataBuilder::... hook_attrs`), with the attributes the emulator keeps. */
export function mergeRequestData(
  state: EmulatorState,
  project: Project,
  user: User,
  attributes: Record<string, unknown>,
  action: "open" | "update" | "close" | "reopen",
): Record<string, unknown> {
  return {
    object_kind: "merge_request",
    event_type: "merge_request",
    user: userData(user),
    project: projectData(state, project),
    object_attributes: { ...attributes, action },
    labels: [],
    changes: {},
    repository: repositoryData(state, project),
  };
}

/** The owner a hook belongs to, for the answers. */
export function ownerOfHook(state: EmulatorState, hook: HookRecord): Project | Group | undefined {
  return hook.kind === "project" ? state.projectById(hook.ownerId) : state.groupById(hook.ownerId);
}
