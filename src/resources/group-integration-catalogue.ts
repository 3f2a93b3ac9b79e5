/**
 * The slugs GroupIntegration manages, each with exactly the settings and event
 * switches it takes: data, one `kind(slug, shape)` per slug. The resource
 * (./group-integration.ts) builds its schema, its per-slug validation and its
 * request bodies from these declarations; the emulator's table
 * (../emulator/areas/integrations/model.ts) declares the same slugs from the
 * server's side, and test/emulator/integrations.test.ts holds the two to each
 * other (names, required settings, secrets, event switches).
 *
 * Sources: the group integrations API documentation (doc/api/group_integrations.md)
 * and `API::Helpers::IntegrationsHelpers.integrations` in gitlabhq (the
 * settings Grape declares per slug, and which are required), the integration
 * models for the model rules (`validates`) and `supported_events` (which
 * `<event>_events` switches each slug takes), and the API documentation. Where the
 * documentation and the source disagree the source wins
 * (Pushover's device and sound are `requires` there).
 */
import { z } from "zod";
import { field } from "../api/fields";
import { CHANNEL_OVERRIDES, INTEGRATION_CREDENTIALS } from "../api/integrations";
import { adoptExisting, httpUrl as httpUrlRule, ownerInput } from "./common";
import { ownerReference } from "../api/owner";

// ---------------------------------------------------------------------------
// Setting rules (property names are the camelCase API names)

const httpUrl = (what: string) => httpUrlRule(`(${what})`);
const secret = (what: string) => z.string().min(1, { message: `must not be empty (${what})` });
const text = z.string();
const required = (what: string) => z.string().min(1, { message: `must not be empty (${what})` });

/** Datadog tags: one `key:value` per line. */
const tagLines = z.string().refine((value) => value.split(/\r?\n/).every((line) => line.trim() === "" || /^[^:\s][^:]*:\S.*$/.test(line.trim())), {
  message: "must hold one key:value tag per line (e.g. team:platform)",
});

/** Harbor passwords follow the masked-variable rule (Ci::Maskable::REGEX): the server exposes them to CI jobs. */
const maskable = z.string().regex(/^[A-Za-z0-9_+=/@:.~-]{8,}$/, {
  message: "must be at least 8 characters of letters, digits and _+=/@:.~- (Harbor passwords become masked CI variables)",
});

/** Harbor project names (Integrations::Harbor::PROJECT_NAME_REGEXP). */
const harborProject = z
  .string()
  .max(255)
  .regex(/^[a-z0-9]+(?:[._-][a-z0-9]+)*$/, { message: "must be lowercase letters and digits, separated by single . _ or - (a Harbor project name)" });

/** Confluence Workspace must be a Confluence Cloud site (Integrations::Confluence#validate_confluence_url_is_cloud). */
const confluenceUrl = httpUrl("the Confluence Cloud workspace").refine(
  (value) => {
    try {
      return new URL(value).hostname.endsWith(".atlassian.net");
    } catch {
      return true; // the URL rule reports it
    }
  },
  { message: "must be a Confluence Cloud workspace hosted on atlassian.net" },
);

export const BRANCHES_TO_BE_NOTIFIED = ["all", "default", "protected", "default_and_protected"] as const;
const branches = z.enum(BRANCHES_TO_BE_NOTIFIED).optional();

/** Pushover priorities, lowest to emergency (the integration's select). */
export const PUSHOVER_PRIORITIES = ["-2", "-1", "0", "1", "2"] as const;

const chatSettings = {
  webhook: httpUrl("the chat's incoming webhook"),
  username: text.optional(),
  channel: text.optional(),
  branchesToBeNotified: branches,
  notifyOnlyBrokenPipelines: z.boolean().optional(),
  labelsToBeNotified: text.optional(),
  labelsToBeNotifiedBehavior: z.enum(["match_any", "match_all"]).optional(),
};

const channelOverrides = Object.fromEntries(CHANNEL_OVERRIDES.map((name) => [name, text.optional()])) as Record<
  (typeof CHANNEL_OVERRIDES)[number],
  z.ZodOptional<z.ZodString>
>;

const event = z.boolean().optional();
const chatEvents = {
  pushEvents: event,
  issuesEvents: event,
  confidentialIssuesEvents: event,
  mergeRequestsEvents: event,
  tagPushEvents: event,
  noteEvents: event,
  confidentialNoteEvents: event,
  pipelineEvents: event,
  wikiPageEvents: event,
  deploymentEvents: event,
  groupMentionsEvents: event,
  groupConfidentialMentionsEvents: event,
};
/** Slack notifications take more switches than the other chat notifiers (doc/api/group_integrations.md, Slack). */
const slackEvents = {
  ...chatEvents,
  commitEvents: event,
  alertEvents: event,
  incidentEvents: event,
  jobEvents: event,
  /** Enterprise edition, Ultimate: vulnerability notifications. */
  vulnerabilityEvents: event,
};
/** The messaging bot needs all nine of these, stated. */
const botEvents = {
  pushEvents: z.boolean(),
  issuesEvents: z.boolean(),
  confidentialIssuesEvents: z.boolean(),
  mergeRequestsEvents: z.boolean(),
  tagPushEvents: z.boolean(),
  noteEvents: z.boolean(),
  confidentialNoteEvents: z.boolean(),
  pipelineEvents: z.boolean(),
  wikiPageEvents: z.boolean(),
};
const ciEvents = { pushEvents: event, mergeRequestsEvents: event, tagPushEvents: event };

const trackerUrls = { projectUrl: httpUrl("the tracker's project page"), issuesUrl: httpUrl("an issue, with :id for its number") };
const newIssueUrl = httpUrl("the tracker's new-issue page");

/** What every integration takes besides its own settings. */
export const common = {
  /** The group (numeric id or full path); changing it replaces the integration. */
  group: ownerInput(ownerReference),
  /** Take the settings of the closest ancestor group (or the instance) that configures this integration. */
  useInheritedSettings: field(z.boolean().optional(), { fromApi: (live) => live.inherited }),
  adoptExisting,
};

function kind<Slug extends string, Shape extends z.ZodRawShape>(slug: Slug, shape: Shape) {
  return z.strictObject({ slug: z.literal(slug), ...common, ...shape });
}

// ---------------------------------------------------------------------------
// The table

/** Every slug this resource manages, by family, each with exactly the settings it takes. */
export const kinds = [
  // Issue trackers
  kind("custom-issue-tracker", { ...trackerUrls, newIssueUrl, pushEvents: event }),
  kind("redmine", { ...trackerUrls, newIssueUrl, pushEvents: event }),
  kind("bugzilla", { ...trackerUrls, newIssueUrl: newIssueUrl.optional(), pushEvents: event }),
  kind("ewm", { ...trackerUrls, newIssueUrl: newIssueUrl.optional(), pushEvents: event }),
  kind("youtrack", { ...trackerUrls, pushEvents: event }),
  kind("phorge", { ...trackerUrls, pushEvents: event }),
  kind("clickup", { ...trackerUrls, pushEvents: event }),
  kind("jira", {
    url: httpUrl("the Jira web interface"),
    apiUrl: httpUrl("the Jira API, when not the web URL").optional(),
    /** 0: basic authentication (username and API token or password); 1: a Jira personal access token. */
    jiraAuthType: z.union([z.literal(0), z.literal(1)], { error: "must be 0 (basic authentication) or 1 (Jira personal access token)" }).optional(),
    username: text.optional(),
    password: secret("the Jira API token, password or personal access token"),
    jiraIssueTransitionAutomatic: z.boolean().optional(),
    jiraIssueTransitionId: text.optional(),
    jiraIssuePrefix: text.optional(),
    jiraIssueRegex: text.optional(),
    issuesEnabled: z.boolean().optional(),
    projectKeys: z.array(z.string().min(1, { message: "must not be empty (a Jira project key)" })).optional(),
    commitEvents: event,
    mergeRequestsEvents: event,
    /** Comment on the Jira issue for each commit or merge request that mentions it (Jira only). */
    commentOnEventEnabled: event,
  }),
  kind("zentao", {
    url: httpUrl("the ZenTao web interface"),
    apiUrl: httpUrl("the ZenTao API, when not the web URL").optional(),
    apiToken: secret("the ZenTao API token"),
    zentaoProductXid: required("the ZenTao product id"),
  }),
  // Chat notifiers
  kind("slack", { ...chatSettings, ...channelOverrides, ...slackEvents }),
  kind("mattermost", { ...chatSettings, ...channelOverrides, ...chatEvents }),
  kind("discord", { ...chatSettings, ...channelOverrides, ...chatEvents }),
  kind("microsoft-teams", { ...chatSettings, ...chatEvents }),
  kind("hangouts-chat", { ...chatSettings, ...chatEvents }),
  kind("webex-teams", { ...chatSettings, ...chatEvents }),
  kind("unify-circuit", { ...chatSettings, ...chatEvents }),
  kind("pumble", { ...chatSettings, ...chatEvents }),
  // Messaging bots
  kind("telegram", {
    token: secret("the bot's token"),
    room: z.string().min(1, { message: "must not be empty (a chat id or channel name)" }),
    thread: z.number().int().positive().optional(),
    hostname: httpUrl("the bot API's address").optional(),
    branchesToBeNotified: branches,
    notifyOnlyBrokenPipelines: chatSettings.notifyOnlyBrokenPipelines,
    ...botEvents,
  }),
  kind("matrix", {
    token: secret("the bot's token"),
    room: z.string().min(1, { message: "must not be empty (a room id)" }),
    hostname: httpUrl("the Matrix server").optional(),
    branchesToBeNotified: branches,
    notifyOnlyBrokenPipelines: chatSettings.notifyOnlyBrokenPipelines,
    ...botEvents,
  }),
  // Slash commands: the token the chat server sends with each command.
  kind("mattermost-slash-commands", { token: secret("the Mattermost slash command's token") }),
  kind("slack-slash-commands", { token: secret("the Slack slash command's token") }),
  // Email and IRC notifiers
  kind("emails-on-push", {
    recipients: required("email addresses separated by whitespace"),
    disableDiffs: z.boolean().optional(),
    sendFromCommitterEmail: z.boolean().optional(),
    branchesToBeNotified: branches,
    pushEvents: event,
    tagPushEvents: event,
  }),
  kind("pipelines-email", {
    recipients: required("comma-separated email addresses"),
    notifyOnlyBrokenPipelines: z.boolean().optional(),
    branchesToBeNotified: branches,
    pipelineEvents: event,
  }),
  kind("irker", {
    recipients: required("recipients or channels separated by whitespace"),
    defaultIrcUri: text.optional(),
    serverHost: text.optional(),
    serverPort: z.number().int().min(1).max(65535).optional(),
    colorizeMessages: z.boolean().optional(),
    pushEvents: event,
  }),
  kind("pushover", {
    apiKey: secret("the Pushover application key"),
    userKey: secret("the Pushover user key"),
    priority: z.enum(PUSHOVER_PRIORITIES),
    /** Required by the server; an empty string sends to all the user's active devices. */
    device: text,
    /** Required by the server; an empty string uses the user's default sound. */
    sound: text,
    pushEvents: event,
  }),
  // CI servers
  kind("bamboo", {
    bambooUrl: httpUrl("the Bamboo server"),
    buildKey: z.string().min(1),
    username: z.string().min(1),
    password: secret("the Bamboo user's password"),
    enableSslVerification: z.boolean().optional(),
    ...ciEvents,
  }),
  kind("teamcity", {
    teamcityUrl: httpUrl("the TeamCity server"),
    buildType: z.string().min(1),
    username: z.string().min(1),
    password: secret("the TeamCity user's password"),
    enableSslVerification: z.boolean().optional(),
    ...ciEvents,
  }),
  kind("drone-ci", { droneUrl: httpUrl("the Drone server"), token: secret("the Drone token"), enableSslVerification: z.boolean().optional(), ...ciEvents }),
  kind("buildkite", { projectUrl: httpUrl("the Buildkite pipeline"), token: secret("the Buildkite token"), enableSslVerification: z.boolean().optional(), ...ciEvents }),
  kind("diffblue-cover", {
    diffblueLicenseKey: secret("the Diffblue Cover license key"),
    diffblueAccessTokenName: required("the name of the access token Diffblue Cover uses"),
    diffblueAccessTokenSecret: secret("the access token Diffblue Cover uses"),
  }),
  kind("squash-tm", {
    url: httpUrl("the Squash TM webhook"),
    token: z.string().max(255).optional(),
    issuesEvents: event,
    confidentialIssuesEvents: event,
  }),
  // Registries and wikis
  kind("harbor", {
    url: httpUrl("the Harbor instance"),
    projectName: harborProject,
    username: required("the Harbor user"),
    password: maskable,
  }),
  kind("packagist", {
    username: required("the Packagist account"),
    token: secret("the Packagist API token"),
    server: httpUrl("the Packagist server; leave out for packagist.org").optional(),
    ...ciEvents,
  }),
  kind("confluence", { confluenceUrl }),
  kind("external-wiki", { externalWikiUrl: httpUrl("the external wiki") }),
  // Monitoring
  kind("datadog", {
    apiKey: secret("the Datadog API key"),
    datadogSite: z.string().min(1).optional(),
    apiUrl: httpUrl("the Datadog intake").optional(),
    datadogEnv: text.optional(),
    datadogService: text.optional(),
    datadogTags: tagLines.optional(),
    archiveTraceEvents: z.boolean().optional(),
    pipelineEvents: event,
    jobEvents: event,
  }),
  kind("prometheus", {
    manualConfiguration: z.boolean().optional(),
    apiUrl: httpUrl("the Prometheus API"),
    googleIapAudienceClientId: text,
    /** The service account's credentials.json: a secret (it holds a private key). */
    googleIapServiceAccountJson: text,
  }),
  // Simple credential
  kind("asana", { apiKey: secret("the Asana API key"), restrictToBranch: text.optional(), pushEvents: event }),
  kind("pivotaltracker", { token: secret("the Pivotal Tracker token"), restrictToBranch: text.optional(), pushEvents: event }),
  kind("campfire", { token: secret("the Campfire token"), subdomain: text.optional(), room: text.optional(), pushEvents: event }),
  kind("assembla", { token: secret("the Assembla token"), subdomain: text.optional(), pushEvents: event }),
] as const;

export type IntegrationSlug = (typeof kinds)[number]["shape"]["slug"]["value"];
export const INTEGRATION_SLUGS = kinds.map((k) => k.shape.slug.value) as IntegrationSlug[];

/** Slugs real servers refuse on groups (Integration::PROJECT_LEVEL_ONLY_INTEGRATION_NAMES). */
export const PROJECT_ONLY_SLUGS = ["apple-app-store", "google-play", "jenkins"] as const;

/** The family of each slug, for documentation and error messages. */
export const FAMILY_OF: Record<IntegrationSlug, string> = {
  "custom-issue-tracker": "issue tracker",
  redmine: "issue tracker",
  bugzilla: "issue tracker",
  ewm: "issue tracker",
  youtrack: "issue tracker",
  phorge: "issue tracker",
  clickup: "issue tracker",
  jira: "issue tracker",
  zentao: "issue tracker",
  slack: "chat notifier",
  mattermost: "chat notifier",
  discord: "chat notifier",
  "microsoft-teams": "chat notifier",
  "hangouts-chat": "chat notifier",
  "webex-teams": "chat notifier",
  "unify-circuit": "chat notifier",
  pumble: "chat notifier",
  telegram: "messaging bot",
  matrix: "messaging bot",
  "mattermost-slash-commands": "slash commands",
  "slack-slash-commands": "slash commands",
  "emails-on-push": "email notifier",
  "pipelines-email": "email notifier",
  irker: "IRC notifier",
  pushover: "push notifier",
  bamboo: "CI server",
  teamcity: "CI server",
  "drone-ci": "CI server",
  buildkite: "CI server",
  "diffblue-cover": "test tool",
  "squash-tm": "test tool",
  harbor: "registry",
  packagist: "registry",
  confluence: "wiki",
  "external-wiki": "wiki",
  datadog: "monitoring",
  prometheus: "monitoring",
  asana: "simple credential",
  pivotaltracker: "simple credential",
  campfire: "simple credential",
  assembla: "simple credential",
};

/**
 * Secret settings, by property name: the credentials of ../api/integrations.ts,
 * kept secret in state and, since the server never returns password-type
 * fields, kept as last applied.
 */
export const SECRET_SETTINGS: readonly string[] = INTEGRATION_CREDENTIALS;

/** URL settings whose change makes real servers reset every secret not sent with it (`exposes_secrets: true`). */
export const EXPOSES_SECRETS: Partial<Record<IntegrationSlug, readonly string[]>> = {
  bamboo: ["bambooUrl"],
  teamcity: ["teamcityUrl"],
  "drone-ci": ["droneUrl"],
  buildkite: ["projectUrl"],
  datadog: ["apiUrl", "datadogSite"],
  jira: ["url", "apiUrl"],
  zentao: ["url", "apiUrl"],
  harbor: ["url"],
  packagist: ["server"],
  "squash-tm": ["url"],
};

/** Rules across the settings of one slug (the models' conditional validations). */
export const CROSS_SETTING_RULES: Partial<Record<IntegrationSlug, (args: Record<string, unknown>) => { property: string; reason: string }[]>> = {
  // Integrations::Jira: `validates :username, presence: true` unless personal access token authorization.
  jira: (args) =>
    args.jiraAuthType !== 1 && (args.username === undefined || args.username === "")
      ? [{ property: "username", reason: "username: required by the jira integration with basic authentication (jiraAuthType 0, the default); set jiraAuthType: 1 for a personal access token" }]
      : [],
};

/** The settings a slug takes (besides `group`, `slug` and the options every slug takes), by property name. */
export function integrationSettings(slug: IntegrationSlug): string[] {
  return Object.keys(kindOf(slug)!.shape).filter((name) => name !== "slug" && !(name in common));
}

/** Required settings of a slug: what every PUT must carry. Worked out once per slug: every create and update asks. */
export function requiredSettings(slug: string): ReadonlySet<string> {
  let required = requiredBySlug.get(slug);
  if (required === undefined) {
    const k = kindOf(slug);
    const names = k ? Object.entries(k.shape).filter(([name, s]) => name !== "slug" && !(name in common) && !(s instanceof z.ZodOptional)) : [];
    requiredBySlug.set(slug, (required = new Set(names.map(([name]) => name))));
  }
  return required;
}

const requiredBySlug = new Map<string, ReadonlySet<string>>();

function kindOf(slug: string) {
  return kinds.find((candidate) => candidate.shape.slug.value === slug);
}
