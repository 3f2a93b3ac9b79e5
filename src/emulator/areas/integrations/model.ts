/**
 * Group integrations: their list, set-up, settings and removal, with the
 * per-event switches.
 *
 * As real servers answer:
 * - every route needs a signed-in user (401) who can see the group (404) and
 *   is at least a Maintainer of it (403);
 * - slugs that exist only for projects answer 400 `400 Integration not available`;
 * - PUT is one route per slug whose settings are declared with Grape
 *   `requires`/`optional` (so a required secret must come every time); it
 *   creates or overwrites the integration and sets it active; 200 with the
 *   integration;
 * - settings that are secrets (password-type fields: names with
 *   token/key/password/secret, bar a few text fields such as Jira's
 *   project_keys; the webhook, and the per-event webhook overrides) are never returned; an
 *   optional secret left out of a PUT keeps its value, except when a URL that
 *   exposes secrets changes in that PUT (ResetSecretFields);
 * - `use_inherited_settings: true` takes the settings of the closest ancestor
 *   group's own integration of that slug, else 400 `Default integration not found.`;
 * - GET or DELETE of one never configured: 404 `404 Integration Not Found`;
 *   an unknown slug there: 400 `slug does not have a valid value`;
 * - DELETE keeps the record, resets every setting and switch to its default
 *   and sets `active` false (204); the list shows active integrations only.
 *
 * The slugs (KINDS below) are every one real servers accept at group level,
 * with the parameters `API::Helpers::IntegrationsHelpers` declares and the
 * models' validations; test/emulator/integrations.test.ts holds this table to
 * the resource's (src/resources/group-integration-catalogue.ts).
 *
 * The `integrations` seed section (seed.ts) configures integrations from the start;
 * the routes are group.ts (a group's) and project.ts (a project's reads).
 */
import { type ParamRule, type ParamSpec } from "../../params";
import { defineStore } from "../../state";

export interface IntegrationRecord {
  id: number;
  groupId: number;
  slug: string;
  active: boolean;
  /** Id of the ancestor integration whose settings this one inherits. */
  inheritFromId: number | null;
  properties: Record<string, unknown>;
  events: Record<string, boolean>;
  commentOnEventEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export const integrationStore = defineStore("integrations", (): { integrations: IntegrationRecord[] } => ({ integrations: [] }));

// ---------------------------------------------------------------------------
// The catalogue

/** Column defaults of the event switches (Integrations::Base::Integration). */
export const EVENT_DEFAULTS: Record<string, boolean> = {
  commit_events: true,
  push_events: true,
  issues_events: true,
  incident_events: false,
  alert_events: true,
  confidential_issues_events: true,
  merge_requests_events: true,
  tag_push_events: true,
  deployment_events: false,
  note_events: true,
  confidential_note_events: true,
  pipeline_events: true,
  wiki_page_events: true,
  job_events: true,
  vulnerability_events: false,
  group_mentions_events: false,
  group_confidential_mentions_events: false,
};

/**
 * Which settings the server never returns: password-type fields (their names
 * hold token, key, password or secret), the webhook and the per-event
 * overrides; a kind lists the exceptions (`shown`, `hidden`).
 */
/** The `<event>_events` switches of the entity (IntegrationBasic). */
export const EVENT_SWITCHES: readonly string[] = Object.keys(EVENT_DEFAULTS);

const SECRET_NAME = /token|key|password|passphrase|secret/;
const looksSecret = (name: string) => SECRET_NAME.test(name) || name === "webhook" || name.endsWith("_channel");

export interface IntegrationKind {
  title: string;
  params: ParamSpec;
  /** The `<event>_events` switches it takes (the model's `supported_events`). */
  events: readonly string[];
  /** Event switches Grape `requires` (the messaging bots). */
  requiredEvents?: boolean;
  /** Takes `comment_on_event_enabled` (only Jira declares it). */
  commentOnEvent?: boolean;
  /** URL settings whose change resets the secrets not sent with it. */
  exposesSecrets?: readonly string[];
  /** Settings that must hold an http(s) URL. */
  urls?: readonly string[];
  /** Text fields whose names look secret but which the server returns. */
  shown?: readonly string[];
  /** Password-type fields whose names do not look secret. */
  hidden?: readonly string[];
  /** Required by Grape but not by the model: an empty value is accepted. */
  blankAllowed?: readonly string[];
  validate?(properties: Record<string, unknown>): Record<string, string[]>;
  projectOnly?: boolean;
}

/** A setting the server never returns (see IntegrationKind.shown and hidden). */
export function isSecretOf(kind: IntegrationKind, name: string): boolean {
  if (kind.shown?.includes(name)) return false;
  return kind.hidden?.includes(name) === true || looksSecret(name);
}

const str = (required = false): ParamRule => ({ type: "string", required });
export const bool: ParamRule = { type: "boolean" };

const CHAT_EVENTS = [
  "push_events",
  "issues_events",
  "confidential_issues_events",
  "merge_requests_events",
  "tag_push_events",
  "note_events",
  "confidential_note_events",
  "pipeline_events",
  "wiki_page_events",
  "deployment_events",
  "group_mentions_events",
  "group_confidential_mentions_events",
];
/** Slack notifications (doc/api/group_integrations.md): alerts, commits, incidents, jobs and (EE) vulnerabilities too. */
const SLACK_EVENTS = [...CHAT_EVENTS, "commit_events", "alert_events", "incident_events", "job_events", "vulnerability_events"];
const BOT_EVENTS = CHAT_EVENTS.slice(0, 9);
const CHANNELS = Object.fromEntries(
  [
    "push",
    "issue",
    "confidential_issue",
    "merge_request",
    "note",
    "confidential_note",
    "tag_push",
    "pipeline",
    "wiki_page",
    "deployment",
    "group_mentions",
    "group_confidential_mentions",
    "alert",
    "incident",
  ].map((e) => [`${e}_channel`, str()]),
);
const BRANCHES = ["all", "default", "protected", "default_and_protected"];

function branchesValid(properties: Record<string, unknown>): Record<string, string[]> {
  const value = properties.branches_to_be_notified;
  return value === undefined || value === null || BRANCHES.includes(String(value)) ? {} : { branches_to_be_notified: ["is not included in the list"] };
}

const chatParams = {
  webhook: str(true),
  username: str(),
  channel: str(),
  notify_only_broken_pipelines: bool,
  branches_to_be_notified: str(),
  labels_to_be_notified: str(),
  labels_to_be_notified_behavior: str(),
};
const chat = (title: string, channels: boolean, events: readonly string[] = CHAT_EVENTS): IntegrationKind => ({
  title,
  params: channels ? { ...chatParams, ...CHANNELS } : chatParams,
  events,
  urls: ["webhook"],
  validate: branchesValid,
});
const tracker = (title: string, newIssueUrl: "required" | "optional" | "none"): IntegrationKind => ({
  title,
  params: { project_url: str(true), issues_url: str(true), ...(newIssueUrl === "none" ? {} : { new_issue_url: str(newIssueUrl === "required") }) },
  events: ["push_events"],
  urls: ["project_url", "issues_url", "new_issue_url"],
});
const bot = (title: string, thread: boolean): IntegrationKind => ({
  title,
  params: {
    token: str(true),
    room: str(true),
    hostname: str(),
    ...(thread ? { thread: { type: "integer" } as ParamRule } : {}),
    notify_only_broken_pipelines: bool,
    branches_to_be_notified: str(),
  },
  events: BOT_EVENTS,
  requiredEvents: true,
  urls: ["hostname"],
  validate: branchesValid,
});
const ci = (title: string, urlName: string, extra: ParamSpec): IntegrationKind => ({
  title,
  params: { [urlName]: str(true), enable_ssl_verification: bool, ...extra },
  events: ["push_events", "merge_requests_events", "tag_push_events"],
  exposesSecrets: [urlName],
  urls: [urlName],
});
const slashCommands = (title: string): IntegrationKind => ({ title, params: { token: str(true) }, events: [] });

function datadogTagsValid(properties: Record<string, unknown>): Record<string, string[]> {
  const tags = properties.datadog_tags;
  if (typeof tags !== "string") return {};
  const bad = tags.split(/\r?\n/).some((line) => line.trim() !== "" && !/^[^:\s][^:]*:\S.*$/.test(line.trim()));
  return bad ? { datadog_tags: ["must be one tag per line, as key:value"] } : {};
}

/** Integrations::Jira: a username unless personal access token authorization (jira_auth_type 1); the type is 0 or 1. */
function jiraValid(properties: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const authType = properties.jira_auth_type ?? 0;
  if (authType !== 0 && authType !== 1) errors.jira_auth_type = ["is not included in the list"];
  if (authType !== 1 && (properties.username === undefined || properties.username === "")) errors.username = ["can't be blank"];
  return errors;
}

/** Integrations::Harbor: the project name's format and the masked-variable rule for the password. */
function harborValid(properties: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const project = properties.project_name;
  if (typeof project === "string" && (project.length > 255 || !/^[a-z0-9]+(?:[._-][a-z0-9]+)*$/.test(project))) errors.project_name = ["is invalid"];
  const password = properties.password;
  if (typeof password === "string" && !/^[A-Za-z0-9_+=/@:.~-]{8,}$/.test(password)) errors.password = ["is invalid"];
  return errors;
}

/** Integrations::Confluence#validate_confluence_url_is_cloud. */
function confluenceValid(properties: Record<string, unknown>): Record<string, string[]> {
  try {
    return new URL(String(properties.confluence_url)).hostname.endsWith(".atlassian.net")
      ? {}
      : { confluence_url: ["URL must be to a Confluence Cloud Workspace hosted on atlassian.net"] };
  } catch {
    return {}; // the URL rule reports it
  }
}

export const KINDS: Record<string, IntegrationKind> = {
  "custom-issue-tracker": tracker("Custom issue tracker", "required"),
  redmine: tracker("Redmine", "required"),
  bugzilla: tracker("Bugzilla", "optional"),
  ewm: tracker("EWM", "optional"),
  youtrack: tracker("YouTrack", "none"),
  phorge: tracker("Phorge", "none"),
  clickup: tracker("ClickUp", "none"),
  // Jira's settings as the server declares them; supported_events: commit, merge_request.
  jira: {
    title: "Jira",
    params: {
      url: str(true),
      api_url: str(),
      jira_auth_type: { type: "integer" },
      username: str(),
      password: str(true),
      jira_issue_transition_automatic: bool,
      jira_issue_transition_id: str(),
      jira_issue_prefix: str(),
      jira_issue_regex: str(),
      issues_enabled: bool,
      project_keys: { type: "string[]" },
    },
    events: ["commit_events", "merge_requests_events"],
    commentOnEvent: true,
    exposesSecrets: ["url", "api_url"],
    urls: ["url", "api_url"],
    shown: ["project_keys"],
    validate: jiraValid,
  },
  zentao: {
    title: "ZenTao",
    params: { url: str(true), api_url: str(), api_token: str(true), zentao_product_xid: str(true) },
    events: [],
    exposesSecrets: ["url", "api_url"],
    urls: ["url", "api_url"],
  },
  slack: chat("Slack notifications", true, SLACK_EVENTS),
  mattermost: chat("Mattermost notifications", true),
  discord: chat("Discord Notifications", true),
  "microsoft-teams": chat("Microsoft Teams notifications", false),
  "hangouts-chat": chat("Google Chat", false),
  "webex-teams": chat("Webex Teams", false),
  "unify-circuit": chat("Unify Circuit", false),
  pumble: chat("Pumble", false),
  telegram: bot("Telegram", true),
  matrix: bot("Matrix notifications", false),
  "mattermost-slash-commands": slashCommands("Mattermost slash commands"),
  "slack-slash-commands": slashCommands("Slack slash commands"),
  "emails-on-push": {
    title: "Emails on push",
    params: { recipients: str(true), disable_diffs: bool, send_from_committer_email: bool, branches_to_be_notified: str() },
    events: ["push_events", "tag_push_events"],
    validate: branchesValid,
  },
  "pipelines-email": {
    title: "Pipeline status emails",
    params: { recipients: str(true), notify_only_broken_pipelines: bool, branches_to_be_notified: str() },
    events: ["pipeline_events"],
    validate: branchesValid,
  },
  irker: {
    title: "irker (IRC gateway)",
    params: { recipients: str(true), default_irc_uri: str(), server_host: str(), server_port: { type: "integer" }, colorize_messages: bool },
    events: ["push_events"],
  },
  // The helper declares all five with `required: true` (the documentation says device and sound are optional).
  pushover: {
    title: "Pushover",
    params: { api_key: str(true), user_key: str(true), priority: str(true), device: str(true), sound: str(true) },
    events: ["push_events"],
    // Blank device: every active device; blank sound: the user's default.
    blankAllowed: ["device", "sound"],
  },
  bamboo: ci("Atlassian Bamboo", "bamboo_url", { build_key: str(true), username: str(true), password: str(true) }),
  teamcity: ci("JetBrains TeamCity", "teamcity_url", { build_type: str(true), username: str(true), password: str(true) }),
  "drone-ci": ci("Drone", "drone_url", { token: str(true) }),
  buildkite: ci("Buildkite", "project_url", { token: str(true) }),
  "diffblue-cover": {
    title: "Diffblue Cover",
    params: { diffblue_license_key: str(true), diffblue_access_token_name: str(true), diffblue_access_token_secret: str(true) },
    events: [],
    shown: ["diffblue_access_token_name"],
  },
  "squash-tm": {
    title: "Squash TM",
    params: { url: str(true), token: str() },
    events: ["issues_events", "confidential_issues_events"],
    exposesSecrets: ["url"],
    urls: ["url"],
  },
  harbor: {
    title: "Harbor",
    params: { url: str(true), project_name: str(true), username: str(true), password: str(true) },
    events: [],
    exposesSecrets: ["url"],
    urls: ["url"],
    validate: harborValid,
  },
  packagist: {
    title: "Packagist",
    params: { username: str(true), token: str(true), server: str() },
    events: ["push_events", "merge_requests_events", "tag_push_events"],
    exposesSecrets: ["server"],
    urls: ["server"],
  },
  confluence: { title: "Confluence Workspace", params: { confluence_url: str(true) }, events: [], urls: ["confluence_url"], validate: confluenceValid },
  "external-wiki": { title: "External wiki", params: { external_wiki_url: str(true) }, events: [], urls: ["external_wiki_url"] },
  datadog: {
    title: "Datadog",
    params: {
      api_key: str(true),
      datadog_site: str(),
      api_url: str(),
      datadog_env: str(),
      datadog_service: str(),
      datadog_tags: str(),
      archive_trace_events: bool,
    },
    events: ["pipeline_events", "job_events"],
    exposesSecrets: ["datadog_site", "api_url"],
    urls: ["api_url"],
    validate: datadogTagsValid,
  },
  // The server requires api_url and both Google IAP settings.
  prometheus: {
    title: "Prometheus",
    params: { manual_configuration: bool, api_url: str(true), google_iap_audience_client_id: str(true), google_iap_service_account_json: str(true) },
    events: [],
    urls: ["api_url"],
    hidden: ["google_iap_service_account_json"],
  },
  asana: { title: "Asana", params: { api_key: str(true), restrict_to_branch: str() }, events: ["push_events"] },
  pivotaltracker: { title: "Pivotal Tracker", params: { token: str(true), restrict_to_branch: str() }, events: ["push_events"] },
  campfire: { title: "Campfire", params: { token: str(true), subdomain: str(), room: str() }, events: ["push_events"] },
  assembla: { title: "Assembla", params: { token: str(true), subdomain: str() }, events: ["push_events"] },
  jenkins: { ...ci("Jenkins", "jenkins_url", { project_name: str(true), username: str(), password: str() }), projectOnly: true },
  "apple-app-store": { title: "Apple App Store Connect", params: { app_store_issuer_id: str(true), app_store_key_id: str(true) }, events: [], projectOnly: true },
  "google-play": { title: "Google Play", params: { package_name: str(true), service_account_key: str(true) }, events: [], projectOnly: true },
};

/** What a group integration slug takes, as the server declares it: for the test that holds the resource's table to this one. */
export interface IntegrationParams {
  settings: string[];
  required: string[];
  secrets: string[];
  events: string[];
  requiredEvents: boolean;
  commentOnEvent: boolean;
}

/** The group-level slugs and their parameters (project-only slugs left out). */
export function groupIntegrationParams(): Record<string, IntegrationParams> {
  return Object.fromEntries(
    Object.entries(KINDS)
      .filter(([, kind]) => !kind.projectOnly)
      .map(([slug, kind]) => {
        const settings = Object.keys(kind.params);
        return [
          slug,
          {
            settings,
            required: settings.filter((name) => kind.params[name]!.required),
            secrets: settings.filter((name) => isSecretOf(kind, name)),
            events: [...kind.events],
            requiredEvents: kind.requiredEvents === true,
            commentOnEvent: kind.commentOnEvent === true,
          },
        ];
      }),
  );
}

export const INTEGRATION_SEQUENCE = "integrations";
