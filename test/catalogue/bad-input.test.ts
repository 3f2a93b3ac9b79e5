/**
 * The bad-input catalogue: every rule of the spec that a declaration can
 * break, for all nine resources, in one place. Each input must be refused
 * before anything is sent:
 * - in `check` (what `pulumi preview` runs first), with a failure on the
 *   property whose message names the property and the rule;
 * - or, for the limits that only show across several declarations of one
 *   program (a sixth registry in a group, ...), by the resource class's
 *   constructor while the program runs (../../src/engine/declarations.ts).
 * The emulator's request log must stay empty throughout.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApplicationSettings, CleanupPolicy, ContainerRegistryCleanup, ContainerRegistryVisibility, EpicLink, ProjectStar, providers, resetDeclarations, SamlGroupLink, Upstream, VirtualRegistry } from "pulumi-platform";
import * as platform from "pulumi-platform";
import { sshPublicKey, useEmulator } from "../support";

const server = useEmulator();

type ResourceName = keyof typeof providers;

/** A bad input: a title, the overrides of the resource's valid inputs (undefined removes one), the property it must name, and the rule. */
type BadInput = [title: string, input: Record<string, unknown>, property: string, rule: RegExp];

interface ResourceCatalogue {
  /** Inputs that pass `check`; each case overrides some of them. */
  valid: Record<string, unknown>;
  cases: BadInput[];
}

// Secret values planted in the valid inputs: no failure may ever show them.
const WEBHOOK = "https://chat.example.test/hooks/catalogue-webhook-secret";
const TOKEN = "catalogue-token-secret";
const PASSWORD = "catalogue-password-secret";
const SECRETS = [WEBHOOK, TOKEN, PASSWORD];

const files = mkdtempSync(join(tmpdir(), "bad-input-"));
const file = (name: string, bytes: number): string => {
  const path = join(files, name);
  writeFileSync(path, Buffer.alloc(bytes, 0x50));
  return path;
};

// Integrations of each family, complete: a case removes or breaks one setting.
const MATTERMOST = { slug: "mattermost", webhook: WEBHOOK };
const NINE_EVENTS = {
  pushEvents: true,
  issuesEvents: true,
  confidentialIssuesEvents: false,
  mergeRequestsEvents: true,
  tagPushEvents: false,
  noteEvents: false,
  confidentialNoteEvents: false,
  pipelineEvents: true,
  wikiPageEvents: false,
};
const TELEGRAM = { slug: "telegram", token: TOKEN, room: "@ci", ...NINE_EVENTS };
const BAMBOO = { slug: "bamboo", bambooUrl: "https://bamboo.example.test", buildKey: "PLAN-KEY", username: "ci", password: PASSWORD };
const TRACKER = { slug: "custom-issue-tracker", projectUrl: "https://t.example.test", issuesUrl: "https://t.example.test/:id", newIssueUrl: "https://t.example.test/new" };


/** A date `days` from today (the clients' real clock, which judges a token's expiry). */
function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** What a group or project access token refuses. */
function accessTokenCases(owner: "group" | "project"): BadInput[] {
  return [
    [`no ${owner}`, { [owner]: undefined }, owner, new RegExp(`${owner}: .*(required|numeric id or a full path)`)],
    ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
    ["no scopes", { scopes: [] }, "scopes", /scopes: must name at least one scope/],
    ["a scope a token cannot have", { scopes: ["sudo"] }, "scopes", /scopes\.0: must be among api, read_api/],
    ["a role that is none", { accessLevel: "admin" }, "accessLevel", /accessLevel: must be a role \(guest, planner, reporter, developer, maintainer, owner\)/],
    ["neither expiresAt nor rotateBeforeDays", { expiresAt: undefined, rotateBeforeDays: undefined }, "expiresAt", /expiresAt: set exactly one of expiresAt .* and rotateBeforeDays/],
    ["both expiresAt and rotateBeforeDays", { expiresAt: inDays(30), rotateBeforeDays: 7 }, "rotateBeforeDays", /rotateBeforeDays: set exactly one of expiresAt/],
    // Far past the longest lifetime: the dates are made when this file loads, and a run that crosses midnight before the check still judges it past.
    ["an expiry past the longest lifetime", { expiresAt: inDays(400), rotateBeforeDays: undefined }, "expiresAt", /expiresAt: must be at most 365 days from today/],
    ["an expiry today", { expiresAt: inDays(0), rotateBeforeDays: undefined }, "expiresAt", /expiresAt: must be after today/],
    ["an expiry that is no date", { expiresAt: "2027-02-30", rotateBeforeDays: undefined }, "expiresAt", /expiresAt: must be a date in the form YYYY-MM-DD/],
    ["rotateBeforeDays of a year", { expiresAt: undefined, rotateBeforeDays: 365 }, "rotateBeforeDays", /rotateBeforeDays: must be less than 365/],
    ["plannedExpiresAt declared by the program", { plannedExpiresAt: inDays(10) }, "plannedExpiresAt", /read from the server at preview; a program cannot set it/],
  ];
}

const catalogue: Record<ResourceName, ResourceCatalogue> = {
  Badge: {
    valid: { project: "acme/web", name: "pipeline", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}/badge.svg" },
    cases: [
      ["no link URL", { linkUrl: undefined }, "linkUrl", /linkUrl: .*(required|expected string)/],
      ["no image URL", { imageUrl: undefined }, "imageUrl", /imageUrl: .*(required|expected string)/],
      ["a link URL that is not http(s)", { linkUrl: "ftp://files.example.com/x" }, "linkUrl", /http\(s\) URL/],
      ["an image URL that is not a URL", { imageUrl: "badge.svg" }, "imageUrl", /http\(s\) URL/],
      ["an empty link URL", { linkUrl: "" }, "linkUrl", /http\(s\) URL/],
      ["a javascript: image URL", { imageUrl: "javascript:alert(1)" }, "imageUrl", /http\(s\) URL/],
      ["a URL of the wrong type", { imageUrl: 42 }, "imageUrl", /expected string/],
      ["both project and group", { group: "acme" }, "group", /exactly one of project and group/],
      ["neither project nor group", { project: undefined }, "project", /exactly one of project and group/],
      ["a project that is neither an id nor a path", { project: "acme web!" }, "project", /numeric id or a full path/],
      ["an empty project", { project: "" }, "project", /numeric id or a full path/],
      ["a negative project id", { project: -4 }, "project", /numeric id or a full path|positive|>0/],
      ["a fractional project id", { project: 1.5 }, "project", /numeric id or a full path|integer|int/],
      ["a group that is neither an id nor a path", { project: undefined, group: "acme/" }, "group", /numeric id or a full path/],
      ["an empty name", { name: "" }, "name", /name: .*(empty|>=1)/],
      ["a name over 255 characters", { name: "x".repeat(256) }, "name", /name: .*255/],
      ["a name of the wrong type", { name: 7 }, "name", /expected string/],
      ["adoptExisting that is not a boolean", { adoptExisting: "yes" }, "adoptExisting", /expected boolean/],
      ["a misspelt property", { linkURL: "https://ci.example.com" }, "linkURL", /^linkURL: unknown property; did you mean linkUrl\?$/],
      ["a property nobody declares", { colour: "red" }, "colour", /^colour: unknown property$/],
    ],
  },

  GroupSettings: {
    valid: { group: "acme" },
    cases: [
      ["no group", { group: undefined }, "group", /group: .*(required|expected)/],
      ["a group id of the wrong type", { group: true }, "group", /numeric id or a full path|expected/],
      ["an empty name", { name: "" }, "name", /name: .*(empty|>=1)/],
      ["a path with a space", { path: "my group" }, "path", /letters, digits/],
      ["a path ending in .git", { path: "acme.git" }, "path", /\.git/],
      ["an unknown visibility", { visibility: "secret" }, "visibility", /private.*internal.*public/],
      ["a misspelt property", { visiblity: "private" }, "visiblity", /^visiblity: unknown property; did you mean visibility\?$/],
      ["an unknown project creation level", { projectCreationLevel: "everyone" }, "projectCreationLevel", /noone.*maintainer.*developer/],
      ["an unknown subgroup creation level", { subgroupCreationLevel: "developer" }, "subgroupCreationLevel", /owner.*maintainer/],
      ["an unknown shared runners setting", { sharedRunnersSetting: "off" }, "sharedRunnersSetting", /enabled.*disabled_and_overridable/],
      ["an unknown git access protocol", { enabledGitAccessProtocol: "ftp" }, "enabledGitAccessProtocol", /ssh.*http.*all/],
      ["an unknown wiki access level", { wikiAccessLevel: "public" }, "wikiAccessLevel", /disabled.*private.*enabled/],
      ["an unknown assistant availability", { assistantAvailability: "always" }, "assistantAvailability", /default_on.*default_off.*never_on/],
      ["a boolean setting given as a string", { lfsEnabled: "yes" }, "lfsEnabled", /expected boolean/],
      ["a negative two-factor grace period", { twoFactorGracePeriod: -1 }, "twoFactorGracePeriod", />=0/],
      ["a fractional two-factor grace period", { twoFactorGracePeriod: 1.5 }, "twoFactorGracePeriod", /integer|int/],
      ["a branch protection level out of range", { defaultBranchProtection: 5 }, "defaultBranchProtection", /<=4/],
      ["an unknown access level in the branch protection defaults", { defaultBranchProtectionDefaults: { allowedToPush: [{ accessLevel: 50 }] } }, "defaultBranchProtectionDefaults", /accessLevel|0, 30, 40|expected/],
      ["an unknown key in the branch protection defaults", { defaultBranchProtectionDefaults: { allowForcePushes: true } }, "defaultBranchProtectionDefaults", /allowForcePushes/],
      ["a deprecated field beside its replacement", { emailsDisabled: true, emailsEnabled: true }, "emailsDisabled", /emailsEnabled/],
      ["the deprecated protection level beside the defaults hash", { defaultBranchProtection: 2, defaultBranchProtectionDefaults: { allowForcePush: false } }, "defaultBranchProtection", /defaultBranchProtectionDefaults/],
      ["a negative artifact size", { maxArtifactsSize: -1 }, "maxArtifactsSize", />=0/],
      ["a template project id of 0", { fileTemplateProjectId: 0 }, "fileTemplateProjectId", />0|positive/],
      ["a download limit above 10,000", { uniqueProjectDownloadLimit: 10_001 }, "uniqueProjectDownloadLimit", /10000|10,000/],
      ["a negative download limit", { uniqueProjectDownloadLimit: -1 }, "uniqueProjectDownloadLimit", />=0/],
      ["a download interval above 864,000 s", { uniqueProjectDownloadLimitIntervalInSeconds: 864_001 }, "uniqueProjectDownloadLimitIntervalInSeconds", /864000|864,000/],
      ["an allowlist of 101 users", { uniqueProjectDownloadLimitAllowlist: Array.from({ length: 101 }, (_, i) => `u${i}`) }, "uniqueProjectDownloadLimitAllowlist", /100/],
      ["an alert list of 101 ids", { uniqueProjectDownloadLimitAlertlist: Array.from({ length: 101 }, (_, i) => i + 1) }, "uniqueProjectDownloadLimitAlertlist", /100/],
      ["an alert list holding a username instead of an id", { uniqueProjectDownloadLimitAlertlist: ["alice"] }, "uniqueProjectDownloadLimitAlertlist", /expected number/],
      ["a top-level-only field on a subgroup path", { group: "acme/platform", preventSharingGroupsOutsideHierarchy: true }, "preventSharingGroupsOutsideHierarchy", /only top-level groups.*acme\/platform is a subgroup/],
      ["an Ultimate download limit on a subgroup path", { group: "acme/platform", uniqueProjectDownloadLimit: 10 }, "uniqueProjectDownloadLimit", /only top-level groups/],
      ["merge on skipped pipelines without requiring pipelines", { allowMergeOnSkippedPipeline: true, onlyAllowMergeIfPipelineSucceeds: false }, "allowMergeOnSkippedPipeline", /only effective when onlyAllowMergeIfPipelineSucceeds is true/],
      ["an IP range that is not one", { ipRestrictionRanges: "10.0.0.0/8,example.com" }, "ipRestrictionRanges", /IP addresses or subnets/],
      ["an IP address with an octet above 255", { ipRestrictionRanges: "300.1.1.1" }, "ipRestrictionRanges", /IP addresses or subnets/],
      ["an IPv4 subnet prefix above /32", { ipRestrictionRanges: "10.0.0.0/33" }, "ipRestrictionRanges", /IP addresses or subnets/],
      ["an IPv6 subnet prefix above /128", { ipRestrictionRanges: "2001:db8::/129" }, "ipRestrictionRanges", /IP addresses or subnets/],
      ["an avatar that is not an image", { avatar: file("notes.txt", 10) }, "avatar", /image file/],
      ["an avatar file that does not exist", { avatar: join(files, "missing.png") }, "avatar", /no readable file/],
      ["an avatar above 200 KiB", { avatar: file("large.png", 200 * 1024 + 1) }, "avatar", /200 KiB/],
      ["an avatar given as a URL", { avatar: "https://example.com/logo.png" }, "avatar", /local image file, not a URL/],
      ["restoreOnDelete that is not a boolean", { restoreOnDelete: "no" }, "restoreOnDelete", /expected boolean/],
    ],
  },

  GroupIntegration: {
    valid: { group: "acme" },
    cases: [
      ["no slug", { ...MATTERMOST, slug: undefined }, "slug", /slug: .*(required|expected string)/],
      ["an unknown slug", { ...MATTERMOST, slug: "carrier-pigeon" }, "slug", /must be one of/],
      ["a misspelt property", { ...MATTERMOST, webHook: WEBHOOK }, "webHook", /^webHook: unknown property; did you mean webhook\?$/],
      ["a project-only slug", { ...MATTERMOST, slug: "jenkins" }, "slug", /exists only for projects/],
      ["another project-only slug", { ...MATTERMOST, slug: "google-play" }, "slug", /exists only for projects/],
      ["no group", { ...MATTERMOST, group: undefined }, "group", /group: .*(required|expected)/],
      ["a group that is neither an id nor a path", { ...MATTERMOST, group: "acme web!" }, "group", /numeric id or a full path/],
      ["a chat notifier without its webhook", { ...MATTERMOST, webhook: undefined }, "webhook", /required by the mattermost integration \(chat notifier\)/],
      ["a webhook that is not a URL", { ...MATTERMOST, webhook: "hooks" }, "webhook", /http\(s\) URL/],
      ["an unknown branches_to_be_notified", { ...MATTERMOST, branchesToBeNotified: "nightly" }, "branchesToBeNotified", /all.*default.*protected.*default_and_protected/],
      ["an unknown label behaviour", { ...MATTERMOST, labelsToBeNotifiedBehavior: "match_some" }, "labelsToBeNotifiedBehavior", /match_any.*match_all/],
      ["an event switch given as a string", { ...MATTERMOST, pushEvents: "true" }, "pushEvents", /expected boolean/],
      ["useInheritedSettings that is not a boolean", { ...MATTERMOST, useInheritedSettings: 1 }, "useInheritedSettings", /expected boolean/],
      ["a setting of another family", { ...MATTERMOST, buildKey: "PLAN-KEY" }, "buildKey", /mattermost integration \(chat notifier\) has no such setting/],
      ["per-event overrides on a notifier without them", { ...MATTERMOST, slug: "microsoft-teams", pipelineChannel: "https://x.example.test" }, "pipelineChannel", /microsoft-teams integration .* has no such setting/],
      ["a messaging bot without its nine event switches", { ...TELEGRAM, issuesEvents: undefined }, "issuesEvents", /required by the telegram integration \(messaging bot\)/],
      ["a messaging bot without its room", { ...TELEGRAM, room: undefined }, "room", /required by the telegram integration/],
      ["a messaging bot with an empty token", { ...TELEGRAM, token: "" }, "token", /must not be empty/],
      ["a thread that is not a positive integer", { ...TELEGRAM, thread: 0 }, "thread", />0|positive/],
      ["a Matrix server that is not a URL", { ...TELEGRAM, slug: "matrix", hostname: "matrix.example.test" }, "hostname", /http\(s\) URL/],
      ["an issue tracker without new_issue_url where it is required", { ...TRACKER, newIssueUrl: undefined }, "newIssueUrl", /required by the custom-issue-tracker integration/],
      ["redmine without new_issue_url", { ...TRACKER, slug: "redmine", newIssueUrl: undefined }, "newIssueUrl", /required by the redmine integration/],
      ["an issue tracker without issues_url", { ...TRACKER, issuesUrl: undefined }, "issuesUrl", /required by the custom-issue-tracker integration/],
      ["an issues URL that is not http(s)", { ...TRACKER, issuesUrl: "ftp://t.example.test/:id" }, "issuesUrl", /http\(s\) URL/],
      ["Bamboo without its build key", { ...BAMBOO, buildKey: undefined }, "buildKey", /required by the bamboo integration \(CI server\)/],
      ["Bamboo without its password", { ...BAMBOO, password: undefined }, "password", /required by the bamboo integration/],
      ["TeamCity without its username", { slug: "teamcity", teamcityUrl: "https://tc.example.test", buildType: "Build", password: PASSWORD }, "username", /required by the teamcity integration/],
      ["Drone CI without its token", { slug: "drone-ci", droneUrl: "https://drone.example.test" }, "token", /required by the drone-ci integration/],
      ["a Buildkite pipeline that is not a URL", { slug: "buildkite", projectUrl: "buildkite/pipeline", token: TOKEN }, "projectUrl", /http\(s\) URL/],
      ["Datadog without its API key", { slug: "datadog", datadogEnv: "prod" }, "apiKey", /required by the datadog integration \(monitoring\)/],
      ["datadog tags that are not key:value lines", { slug: "datadog", apiKey: TOKEN, datadogTags: "team:platform\nbroken" }, "datadogTags", /key:value/],
      ["Asana without its API key", { slug: "asana", restrictToBranch: "main" }, "apiKey", /required by the asana integration \(simple credential\)/],
      ["a simple credential with an empty token", { slug: "pivotaltracker", token: "" }, "token", /must not be empty/],
      ["Jira without its password", { slug: "jira", url: "https://jira.example.test", username: "bot" }, "password", /required by the jira integration \(issue tracker\)/],
      ["Jira with basic authentication and no username", { slug: "jira", url: "https://jira.example.test", password: PASSWORD }, "username", /basic authentication/],
      ["a Jira auth type other than 0 and 1", { slug: "jira", url: "https://jira.example.test", password: PASSWORD, jiraAuthType: 2 }, "jiraAuthType", /0 \(basic authentication\) or 1/],
      ["Jira project keys that are not a list", { slug: "jira", url: "https://jira.example.test", password: PASSWORD, jiraAuthType: 1, projectKeys: "OPS" }, "projectKeys", /expected array|must be a list/],
      ["comment_on_event_enabled on a slug other than Jira", { ...MATTERMOST, commentOnEventEnabled: true }, "commentOnEventEnabled", /mattermost integration \(chat notifier\) has no such setting/],
      ["an event switch the slug does not take", { ...MATTERMOST, alertEvents: false }, "alertEvents", /mattermost integration .* has no such setting/],
      ["Harbor with a project name Harbor refuses", { slug: "harbor", url: "https://harbor.example.test", projectName: "Platform Team", username: "robot", password: PASSWORD }, "projectName", /Harbor project name/],
      ["Harbor with a password that cannot be masked", { slug: "harbor", url: "https://harbor.example.test", projectName: "platform", username: "robot", password: "short" }, "password", /at least 8 characters/],
      ["Confluence outside atlassian.net", { slug: "confluence", confluenceUrl: "https://wiki.example.test" }, "confluenceUrl", /atlassian\.net/],
      ["an external wiki URL that is not http(s)", { slug: "external-wiki", externalWikiUrl: "wiki.example.test" }, "externalWikiUrl", /http\(s\) URL/],
      ["emails on push without recipients", { slug: "emails-on-push", disableDiffs: true }, "recipients", /required by the emails-on-push integration/],
      ["pipeline emails for unknown branches", { slug: "pipelines-email", recipients: "a@example.test", branchesToBeNotified: "nightly" }, "branchesToBeNotified", /default_and_protected/],
      ["an irker port out of range", { slug: "irker", recipients: "#ops", serverPort: 70000 }, "serverPort", /65535/],
      ["a Pushover priority that is not one", { slug: "pushover", apiKey: TOKEN, userKey: TOKEN, priority: "3", device: "", sound: "" }, "priority", /priority: .*"-2"/],
      ["Pushover without its device (the server requires it; blank means all)", { slug: "pushover", apiKey: TOKEN, userKey: TOKEN, priority: "0", sound: "" }, "device", /required by the pushover integration/],
      ["Prometheus without its API URL", { slug: "prometheus", googleIapAudienceClientId: "c", googleIapServiceAccountJson: TOKEN }, "apiUrl", /required by the prometheus integration \(monitoring\)/],
      ["ZenTao without its product id", { slug: "zentao", url: "https://zentao.example.test", apiToken: TOKEN }, "zentaoProductXid", /required by the zentao integration/],
      ["a Squash TM token over 255 characters", { slug: "squash-tm", url: "https://squash.example.test", token: "t".repeat(256) }, "token", /255/],
      ["Diffblue Cover without its access token secret", { slug: "diffblue-cover", diffblueLicenseKey: TOKEN, diffblueAccessTokenName: "bot" }, "diffblueAccessTokenSecret", /required by the diffblue-cover integration/],
      ["Packagist without its username", { slug: "packagist", token: TOKEN }, "username", /required by the packagist integration/],
      ["slash commands with an empty token", { slug: "slack-slash-commands", token: "" }, "token", /must not be empty/],
    ],
  },

  SamlGroupLink: {
    valid: { group: "acme", samlGroupName: "platform-developers", accessLevel: "developer" },
    cases: [
      ["no SAML group name", { samlGroupName: undefined }, "samlGroupName", /samlGroupName: .*(required|expected string)/],
      ["an empty SAML group name", { samlGroupName: "" }, "samlGroupName", /must not be empty/],
      ["a SAML group name over 255 characters", { samlGroupName: "x".repeat(256) }, "samlGroupName", /at most 255/],
      ["a SAML group name with a leading space", { samlGroupName: " developers" }, "samlGroupName", /spaces/],
      ["no access level", { accessLevel: undefined }, "accessLevel", /must be a role/],
      ["an unknown role name", { accessLevel: "admin" }, "accessLevel", /must be a role \(minimal_access, guest/],
      ["a role name in the wrong case", { accessLevel: "Developer" }, "accessLevel", /must be a role/],
      ["an access level number that is not one", { accessLevel: 11 }, "accessLevel", /access levels 5, 10, 15, 20, 30, 40, 50/],
      ["access level 0 (no access), which the SAML link API does not take", { accessLevel: 0 }, "accessLevel", /0 \(no access\) is not a role a SAML group link can grant.*access levels 5, 10/],
      ["a member role id that is not a positive integer", { memberRoleId: -3 }, "memberRoleId", />0|positive/],
      ["a member role id given as a string", { memberRoleId: "7" }, "memberRoleId", /expected number/],
      ["an empty provider", { provider: "" }, "provider", /leave provider out/],
      ["a provider over 255 characters", { provider: "p".repeat(256) }, "provider", /at most 255/],
      ["a group that is neither an id nor a path", { group: "a b" }, "group", /numeric id or a full path/],
      ["a group id of 0", { group: 0 }, "group", /numeric id or a full path|>0/],
    ],
  },

  PipelineSchedule: {
    valid: {
      project: "acme/web",
      description: "Nightly build",
      ref: "main",
      cron: "0 2 * * *",
      cronTimezone: "Europe/Berlin",
      variables: [{ key: "DEPLOY_TOKEN", value: TOKEN }],
    },
    cases: [
      ["no cron", { cron: undefined }, "cron", /cron: .*(required|expected string)/],
      ["an empty cron", { cron: "" }, "cron", /a cron expression is required/],
      ["a cron minute out of range", { cron: "61 * * * *" }, "cron", /not a valid cron expression: the minute field \("61"\) takes .* of 0-59/],
      ["a cron hour of 25", { cron: "0 25 * * *" }, "cron", /not a valid cron expression: the hour field \("25"\) takes .* of 0-23 \(or 24, midnight\)\./],
      ["a cron second of 60, with six fields", { cron: "60 0 2 * * *" }, "cron", /the second field \("60"\)/],
      ["a cron with two wrong fields", { cron: "0 2 32 13 *" }, "cron", /the day-of-month field \("32"\).*; the month field \("13"\)/],
      ["a cron with three fields", { cron: "* * *" }, "cron", /not a valid cron expression.*five fields/],
      ["a cron with seven fields", { cron: "0 0 2 * * * 2025" }, "cron", /not a valid cron expression/],
      ["a cron with an unknown weekday name", { cron: "0 2 * * FUNDAY" }, "cron", /not a valid cron expression: the day-of-week field \("FUNDAY"\)/],
      ["an unknown cron nickname", { cron: "@fortnightly" }, "cron", /not a valid cron expression/],
      ["a cron day counted too far from the month's end", { cron: "0 0 -32 * *" }, "cron", /the day-of-month field \("-32"\)/],
      ["a cron that never runs", { cron: "0 0 31 2 *" }, "cron", /no month it names has a day it names \(as the 30th of February\)/],
      ["a cron nickname in upper case", { cron: "@DAILY" }, "cron", /the nicknames are @yearly, .* in lower case/],
      ["a cron step of 0", { cron: "*/0 * * * *" }, "cron", /the minute field's "\*\/0" takes no step of 0/],
      ["a cron given as a number", { cron: 5 }, "cron", /expected string/],
      ["an unknown time zone", { cronTimezone: "Mars/Olympus" }, "cronTimezone", /not a time zone/],
      ["a time zone in the wrong case", { cronTimezone: "europe/berlin" }, "cronTimezone", /IANA identifier/],
      ["a zone abbreviation", { cronTimezone: "CEST" }, "cronTimezone", /not a time zone/],
      ["a shortened Rails zone name", { cronTimezone: "Pacific Time" }, "cronTimezone", /Rails zone name/],
      ["an empty time zone", { cronTimezone: "" }, "cronTimezone", /not a time zone/],
      ["no ref", { ref: undefined }, "ref", /ref: .*(required|expected string)/],
      ["an empty ref", { ref: "" }, "ref", /must not be empty/],
      ["a ref with a space", { ref: "my branch" }, "ref", /branch or tag name/],
      ["a ref with '..'", { ref: "release..next" }, "ref", /branch or tag name/],
      ["a ref ending in .lock", { ref: "main.lock" }, "ref", /branch or tag name/],
      ["no description", { description: undefined }, "description", /description: .*(required|expected string)/],
      ["a blank description", { description: "  " }, "description", /blank/],
      ["no project", { project: undefined }, "project", /project: .*(required|numeric id or a full path|expected)/],
      ["a project that is neither an id nor a path", { project: "acme web!" }, "project", /numeric id or a full path/],
      ["active that is not a boolean", { active: "yes" }, "active", /expected boolean/],
      ["variables that are neither a list nor a map by key", { variables: "DEPLOY_TOKEN=x" }, "variables", /must be a list of \{ key, value, variableType \}/],
      ["a misspelt property", { cronTimeZone: "UTC" }, "cronTimeZone", /^cronTimeZone: unknown property; did you mean cronTimezone\?$/],
      ["a misspelt property of a variable", { variables: [{ key: "A", value: "1", type: "file" }] }, "variables.0", /type: unknown property|unrecognized|type/],
      ["a variable key with a dash", { variables: [{ key: "DEPLOY-TOKEN", value: "x" }] }, "variables.0.key", /A-Z, a-z, 0-9 and _/],
      ["a variable key with a space", { variables: [{ key: "DEPLOY TOKEN", value: "x" }] }, "variables.0.key", /A-Z, a-z, 0-9 and _/],
      ["an empty variable key", { variables: [{ key: "", value: "x" }] }, "variables.0.key", /1 to 255/],
      ["a variable key of 256 characters", { variables: [{ key: "K".repeat(256), value: "x" }] }, "variables.0.key", /1 to 255/],
      ["two variables with one key", { variables: [{ key: "A", value: "1" }, { key: "A", value: "2" }] }, "variables", /A appears more than once/],
      ["a variable without a value", { variables: [{ key: "A" }] }, "variables.0.value", /expected string/],
      ["a variable value that is a number", { variables: [{ key: "A", value: 42 }] }, "variables.0.value", /expected string/],
      ["an unknown variable type", { variables: [{ key: "A", value: "1", variableType: "secret" }] }, "variables.0.variableType", /env_var.*file/],
      ["a misspelt variable field", { variables: [{ key: "A", value: "1", varaibleType: "file" }] }, "variables.0", /varaibleType/],
      ["two inputs with one name", { inputs: [{ name: "a", value: 1 }, { name: "a", value: 2 }] }, "inputs", /a appears more than once/],
      ["an input without a name", { inputs: [{ value: 1 }] }, "inputs.0.name", /expected string/],
      ["an input with an empty name", { inputs: [{ name: "", value: 1 }] }, "inputs.0.name", /must not be empty/],
      ["an input whose value is an object", { inputs: [{ name: "a", value: { nested: true } }] }, "inputs.0.value", /string, a number, a boolean or an array/],
      ["an input list holding an object", { inputs: [{ name: "a", value: ["x", { y: 1 }] }] }, "inputs.0.value", /string, a number, a boolean or an array/],
      ["takeOwnership that is not a boolean", { takeOwnership: "yes" }, "takeOwnership", /expected boolean/],
    ],
  },

  ApplicationSettings: {
    valid: {},
    cases: [
      ["enforceTerms without terms", { enforceTerms: true }, "terms", /required when enforceTerms is true/],
      ["enforceTerms with empty terms", { enforceTerms: true, terms: "" }, "terms", /required when enforceTerms is true/],
      ["two-factor without a grace period", { requireTwoFactorAuthentication: true }, "twoFactorGracePeriod", /required when requireTwoFactorAuthentication is true/],
      ["email restrictions without the expression", { emailRestrictionsEnabled: true }, "emailRestrictions", /required when emailRestrictionsEnabled is true/],
      ["an email restriction that is no regular expression", { emailRestrictionsEnabled: true, emailRestrictions: "([a-z" }, "emailRestrictions", /regular expression/],
      ["a unique IP limit without its time window", { uniqueIpsLimitEnabled: true, uniqueIpsLimitPerUser: 5 }, "uniqueIpsLimitTimeWindow", /required when uniqueIpsLimitEnabled is true/],
      ["a unique IP limit without its per-user count", { uniqueIpsLimitEnabled: true, uniqueIpsLimitTimeWindow: 60 }, "uniqueIpsLimitPerUser", /required when uniqueIpsLimitEnabled is true/],
      ["Akismet without its key", { akismetEnabled: true }, "akismetApiKey", /required when akismetEnabled is true/],
      ["reCAPTCHA without its private key", { recaptchaEnabled: true, recaptchaSiteKey: "site" }, "recaptchaPrivateKey", /required when recaptchaEnabled is true/],
      ["a throttle without its period", { throttleAuthenticatedApiEnabled: true, throttleAuthenticatedApiRequestsPerPeriod: 10 }, "throttleAuthenticatedApiPeriodInSeconds", /required when throttleAuthenticatedApiEnabled is true/],
      ["a git throttle without its request count", { throttleUnauthenticatedGitHttpEnabled: true, throttleUnauthenticatedGitHttpPeriodInSeconds: 60 }, "throttleUnauthenticatedGitHttpRequestsPerPeriod", /required when throttleUnauthenticatedGitHttpEnabled is true/],
      ["a throttle period of 0 s", { throttleAuthenticatedWebPeriodInSeconds: 0 }, "throttleAuthenticatedWebPeriodInSeconds", />=1/],
      ["a fractional throttle request count", { throttleUnauthenticatedApiRequestsPerPeriod: 2.5 }, "throttleUnauthenticatedApiRequestsPerPeriod", /integer|int/],
      ["a wiki page limit below 1024 bytes", { wikiPageMaxContentBytes: 1023 }, "wikiPageMaxContentBytes", />=1024/],
      ["more than 64 AsciiDoc includes", { asciidocMaxIncludes: 65 }, "asciidocMaxIncludes", /<=64/],
      ["a negative number of AsciiDoc includes", { asciidocMaxIncludes: -1 }, "asciidocMaxIncludes", />=0/],
      ["a runner token interval below 7200 s", { projectRunnerTokenExpirationInterval: 3600 }, "projectRunnerTokenExpirationInterval", />=7200/],
      ["unconfirmed users deleted after 0 days", { unconfirmedUsersDeleteAfterDays: 0 }, "unconfirmedUsersDeleteAfterDays", />=1/],
      ["a deletion delay while deletion is off", { deleteUnconfirmedUsers: false, unconfirmedUsersDeleteAfterDays: 7 }, "unconfirmedUsersDeleteAfterDays", /acts only when deleteUnconfirmedUsers is true/],
      ["a negative terminal session time", { terminalMaxSessionTime: -1 }, "terminalMaxSessionTime", />=0/],
      ["a snippet size limit of 0 bytes", { snippetSizeLimit: 0 }, "snippetSizeLimit", />=1/],
      ["a login attempt limit of 0", { maxLoginAttempts: 0 }, "maxLoginAttempts", />=1/],
      ["a boolean setting given as a string", { signupEnabled: "false" }, "signupEnabled", /expected boolean/],
      ["an unknown what's-new variant", { whatsNewVariant: "everything" }, "whatsNewVariant", /all_tiers.*current_tier.*disabled/],
      ["an unknown runner registrar", { validRunnerRegistrars: ["group", "instance"] }, "validRunnerRegistrars", /group.*project/],
      ["a runner registrar listed twice", { validRunnerRegistrars: ["group", "group"] }, "validRunnerRegistrars", /twice/],
      ["an unknown default project visibility", { defaultProjectVisibility: "secret" }, "defaultProjectVisibility", /private.*internal.*public/],
      ["an unknown restricted visibility level", { restrictedVisibilityLevels: ["hidden"] }, "restrictedVisibilityLevels", /private.*internal.*public/],
      ["a branch protection level out of range", { defaultBranchProtection: 5 }, "defaultBranchProtection", /<=4/],
      ["the deprecated protection level beside the defaults hash", { defaultBranchProtection: 2, defaultBranchProtectionDefaults: { allowForcePush: false } }, "defaultBranchProtection", /defaultBranchProtectionDefaults/],
      ["a deprecated alias beside its replacement", { signinEnabled: true, passwordAuthenticationEnabledForWeb: true }, "signinEnabled", /deprecated alias of passwordAuthenticationEnabledForWeb/],
      ["the deprecated admin email beside the abuse email", { adminNotificationEmail: "a@example.com", abuseNotificationEmail: "b@example.com" }, "adminNotificationEmail", /deprecated alias of abuseNotificationEmail/],
      ["an abuse address that is no email", { abuseNotificationEmail: "abuse" }, "abuseNotificationEmail", /email/],
      ["an allow-list of integrations while all are allowed", { allowAllIntegrations: true, allowedIntegrations: ["slack"] }, "allowedIntegrations", /only applies when allowAllIntegrations is false/],
      ["a pipeline validation service that is not http(s)", { externalPipelineValidationServiceUrl: "ftp://validate.example.com" }, "externalPipelineValidationServiceUrl", /URL/],
      ["a one-letter preferred language", { defaultPreferredLanguage: "e" }, "defaultPreferredLanguage", />=2/],
      ["restoreOnDelete that is not a boolean", { restoreOnDelete: 1 }, "restoreOnDelete", /expected boolean/],
    ],
  },

  VirtualRegistry: {
    valid: { group: "acme", name: "containers" },
    cases: [
      ["a subgroup", { group: "acme/platform" }, "group", /top-level group/],
      ["no group", { group: undefined }, "group", /group: .*(required|expected)/],
      ["a group that is neither an id nor a path", { group: "acme corp!" }, "group", /numeric id or a full path/],
      ["a negative group id", { group: -1 }, "group", /numeric id or a full path|>0/],
      ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
      ["an empty name", { name: "" }, "name", /name: .*(empty|>=1)/],
      ["a name over 255 characters", { name: "n".repeat(256) }, "name", /name: .*255/],
      ["an empty description", { description: "" }, "description", /description: .*(empty|>=1)/],
      ["a description over 1024 characters", { description: "d".repeat(1025) }, "description", /description: .*1024/],
      ["adoptExisting that is not a boolean", { adoptExisting: "yes" }, "adoptExisting", /expected boolean/],
    ],
  },

  Upstream: {
    valid: { registry: 1, name: "Docker Hub", url: "https://registry-1.docker.io", username: "puller", password: PASSWORD },
    cases: [
      ["no URL", { url: undefined }, "url", /url: .*(required|expected string)/],
      ["a misspelt property", { passwrd: PASSWORD }, "passwrd", /^passwrd: unknown property; did you mean password\?$/],
      ["a URL that is not http(s)", { url: "ftp://mirror.example.com" }, "url", /http\(s\) URL/],
      ["a URL that is not a URL", { url: "registry-1.docker.io" }, "url", /http\(s\) URL/],
      ["a URL over 255 characters", { url: `https://mirror.example.com/${"p".repeat(240)}` }, "url", /255/],
      ["a URL on localhost", { url: "http://localhost:5000" }, "url", /localhost or a local network/],
      ["a URL on a .localhost name", { url: "http://registry.localhost" }, "url", /localhost or a local network/],
      ["a URL on the loopback address", { url: "http://127.0.0.1:5000" }, "url", /localhost or a local network/],
      ["a URL on the IPv6 loopback address", { url: "http://[::1]:5000" }, "url", /localhost or a local network/],
      ["a URL on a 10.x network", { url: "https://10.1.2.3" }, "url", /localhost or a local network/],
      ["a URL on a 172.16.x network", { url: "https://172.20.0.5" }, "url", /localhost or a local network/],
      ["a URL on a 192.168.x network", { url: "https://192.168.1.20" }, "url", /localhost or a local network/],
      ["a URL on a link-local address", { url: "http://169.254.169.254" }, "url", /localhost or a local network/],
      ["a username without a password (the missing one is named)", { password: undefined }, "password", /username and password together/],
      ["a password without a username (the missing one is named)", { username: undefined }, "username", /username and password together/],
      ["an empty username", { username: "" }, "username", /username: .*(empty|>=1)/],
      ["a password over 510 characters", { password: "p".repeat(511) }, "password", /510/],
      ["position 0", { position: 0 }, "position", /position: .*>=1/],
      ["position 21", { position: 21 }, "position", /position: .*<=20/],
      ["a fractional position", { position: 1.5 }, "position", /integer|int/],
      ["negative cache validity", { cacheValidityHours: -1 }, "cacheValidityHours", />=0/],
      ["fractional cache validity", { cacheValidityHours: 0.5 }, "cacheValidityHours", /integer|int/],
      ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
      ["an empty name", { name: "" }, "name", /name: .*(empty|>=1)/],
      ["a name over 255 characters", { name: "n".repeat(256) }, "name", /name: .*255/],
      ["a description over 1024 characters", { description: "d".repeat(1025) }, "description", /description: .*1024/],
      ["no registry", { registry: undefined }, "registry", /registry: .*(required|expected number)/],
      ["a registry given by name", { registry: "main" }, "registry", /expected number/],
      ["a registry id of 0", { registry: 0 }, "registry", />0|positive/],
      ["otherRegistries listing the upstream's own registry", { otherRegistries: [{ registry: 1 }] }, "otherRegistries", /must not list `registry`/],
      ["otherRegistries listing a registry twice", { otherRegistries: [{ registry: 7 }, { registry: 7 }] }, "otherRegistries", /twice/],
      ["another registry at position 21", { otherRegistries: [{ registry: 7, position: 21 }] }, "otherRegistries.0.position", /<=20/],
      ["a misspelt field of another registry", { otherRegistries: [{ registry: 7, postion: 2 }] }, "otherRegistries.0", /postion/],
    ],
  },

  CleanupPolicy: {
    valid: { group: "acme", cadence: 7, enabled: true, keepNDaysAfterDownload: 30 },
    cases: [
      ["a cadence that is not offered", { cadence: 3 }, "cadence", /one of 1, 7, 14, 30 or 90/],
      ["a cadence of 0", { cadence: 0 }, "cadence", /one of 1, 7, 14, 30 or 90/],
      ["a yearly cadence", { cadence: 365 }, "cadence", /one of 1, 7, 14, 30 or 90/],
      ["a cadence given as a string", { cadence: "7" }, "cadence", /expected number/],
      ["keep 0 days", { keepNDaysAfterDownload: 0 }, "keepNDaysAfterDownload", />=1/],
      ["keep 366 days", { keepNDaysAfterDownload: 366 }, "keepNDaysAfterDownload", /<=365/],
      ["keep a fractional number of days", { keepNDaysAfterDownload: 1.5 }, "keepNDaysAfterDownload", /integer|int/],
      ["enabled that is not a boolean", { enabled: "yes" }, "enabled", /expected boolean/],
      ["notifyOnSuccess that is not a boolean", { notifyOnSuccess: 1 }, "notifyOnSuccess", /expected boolean/],
      ["notifyOnFailure that is not a boolean", { notifyOnFailure: "no" }, "notifyOnFailure", /expected boolean/],
      ["a subgroup", { group: "acme/platform" }, "group", /top-level group/],
      ["no group", { group: undefined }, "group", /group: .*(required|expected)/],
      ["a fractional group id", { group: 1.5 }, "group", /numeric id or a full path|int/],
    ],
  },
  ContainerRegistryVisibility: {
    valid: { project: "acme/web", accessLevel: "private" },
    cases: [
      ["no access level", { accessLevel: undefined }, "accessLevel", /accessLevel: .*(required|expected)/],
      ["an access level the API does not offer", { accessLevel: "public" }, "accessLevel", /"enabled"\|"private"\|"disabled"/],
      ["the deprecated boolean", { accessLevel: true }, "accessLevel", /"enabled"\|"private"\|"disabled"/],
      ["no project", { project: undefined }, "project", /project: .*(required|expected)/],
      ["a project path with a space", { project: "acme/my web" }, "project", /numeric id or a full path/],
      ["restoreOnDelete that is not a boolean", { restoreOnDelete: "no" }, "restoreOnDelete", /expected boolean/],
    ],
  },
  ContainerRegistryCleanup: {
    valid: { project: "acme/web", repository: "api-server", nameRegexDelete: "v.+", keepN: 10, olderThan: "30d" },
    cases: [
      ["no delete expression", { nameRegexDelete: undefined }, "nameRegexDelete", /nameRegexDelete: .*(required|expected)/],
      ["a delete expression RE2 cannot compile", { nameRegexDelete: "v(" }, "nameRegexDelete", /must be an RE2 regular expression \(missing closing \)/],
      ["a keep expression with a lookbehind (not RE2)", { nameRegexKeep: "(?<=v)1" }, "nameRegexKeep", /must be an RE2 regular expression/],
      ["a negative keepN", { keepN: -1 }, "keepN", /keepN: .*(>=0|0)/],
      ["a fractional keepN", { keepN: 2.5 }, "keepN", /keepN: .*int/],
      ["an age the server cannot read", { olderThan: "a month ago" }, "olderThan", /olderThan: must be a duration such as 1h, 30d/],
      ["wouldDelete declared by the program", { wouldDelete: ["acme/web:main"] }, "wouldDelete", /read from the server at preview; a program cannot set it/],
      ["a project path with a space", { project: "acme/my web" }, "project", /numeric id or a full path/],
    ],
  },
  ErrorTrackingClientKey: {
    valid: { project: "acme/web", rotation: "2026-11" },
    cases: [
      ["no project", { project: undefined }, "project", /project: .*(required|expected)/],
      ["a project id of 0", { project: 0 }, "project", /numeric id or a full path/],
      ["an empty rotation", { rotation: "" }, "rotation", /rotation: .*>=1/],
      ["a rotation that is not text", { rotation: 2026 }, "rotation", /expected string/],
    ],
  },

  SamlIdentity: {
    valid: { group: "acme", user: "dev", externUid: "dev@idp.example" },
    cases: [
      ["no group", { group: undefined }, "group", /group: .*(required|numeric id or a full path)/],
      ["no user", { user: undefined }, "user", /user: is required: must be a username/],
      ["a user id of 0", { user: 0 }, "user", /must be a username \(alice\) or a numeric user id/],
      ["a username with a space", { user: "dev ops" }, "user", /must be a username/],
      ["no extern UID", { externUid: undefined }, "externUid", /externUid: .*(required|expected string)/],
      ["an empty extern UID", { externUid: "" }, "externUid", /must not be empty/],
      ["a blank extern UID", { externUid: "   " }, "externUid", /must not be empty/],
      ["an extern UID with a trailing space", { externUid: "dev@idp.example " }, "externUid", /spaces/],
      ["an extern UID with a slash", { externUid: "idp/dev" }, "externUid", /must not contain a slash/],
      ["deleteIdentityOnDestroy that is not a boolean", { deleteIdentityOnDestroy: "yes" }, "deleteIdentityOnDestroy", /expected boolean/],
    ],
  },
  PipelineScheduleRun: {
    valid: { project: "acme/web", scheduleId: 1, triggers: ["0 2 * * *"] },
    cases: [
      ["no schedule", { scheduleId: undefined }, "scheduleId", /scheduleId: .*(required|expected number)/],
      ["a schedule id of 0", { scheduleId: 0 }, "scheduleId", /scheduleId: .*>0/],
      ["triggers that are not a list", { triggers: "nightly" }, "triggers", /triggers: .*expected array/],
    ],
  },
  Group: {
    valid: { parent: "acme", path: "team", name: "Team" },
    cases: [
      ["no path", { path: undefined }, "path", /path: .*(required|expected string)/],
      ["a path with a space", { path: "my team" }, "path", /path: may contain only letters, digits/],
      ["a path ending in .atom", { path: "team.atom" }, "path", /path: must not end in \.git or \.atom/],
      ["a reserved top-level path", { parent: undefined, path: "api" }, "path", /path: api is reserved for the server's own pages at the top level/],
      ["a name starting with a dash", { name: "-team" }, "name", /name: may contain only letters/],
      ["a parent that is neither an id nor a path", { parent: "acme team!" }, "parent", /numeric id or a full path/],
      ["an unknown visibility", { visibility: "secret" }, "visibility", /private.*internal.*public/],
      ["a top-level setting on a subgroup", { preventSharingGroupsOutsideHierarchy: true }, "preventSharingGroupsOutsideHierarchy", /only top-level groups have this setting, and group acme\/team is a subgroup/],
      ["a deprecated name beside its replacement", { emailsDisabled: true, emailsEnabled: false }, "emailsDisabled", /deprecated alias of emailsEnabled/],
    ],
  },
  ChangelogCommit: {
    valid: { project: "acme/web", version: "1.5.0", branch: "main" },
    cases: [
      ["a version that is not semantic", { version: "next" }, "version", /version: must be a semantic version/],
      ["a branch given as a full ref", { branch: "refs/heads/main" }, "branch", /branch: must be a branch name, without refs\/heads\//],
      ["a file with a leading slash", { file: "/CHANGELOG.md" }, "file", /file: must be a path inside the repository/],
    ],
  },
  ProjectStar: {
    valid: { project: "acme/web" },
    cases: [
      ["no project", { project: undefined }, "project", /project: .*(required|numeric id or a full path)/],
      ["a project that is neither an id nor a path", { project: "acme web!" }, "project", /numeric id or a full path/],
      ["a project id of 0", { project: 0 }, "project", /numeric id or a full path/],
      ["a project of the wrong type", { project: ["acme/web"] }, "project", /numeric id or a full path/],
    ],
  },
  EpicLink: {
    valid: { group: "acme", epicIid: 1, childEpicId: 5, moveBeforeId: 4 },
    cases: [
      ["no group", { group: undefined }, "group", /group: .*(required|numeric id or a full path)/],
      ["no parent iid", { epicIid: undefined }, "epicIid", /epicIid: is required \(expected number\)/],
      ["a parent iid of 0", { epicIid: 0 }, "epicIid", /epicIid: must be the parent epic's iid in the group: a positive integer/],
      ["a child given by reference", { childEpicId: "acme&5" }, "childEpicId", /childEpicId: must be the child epic's global id \(not its iid\)/],
      ["a fractional child id", { childEpicId: 5.5 }, "childEpicId", /childEpicId: must be the child epic's global id/],
      ["both anchors", { moveAfterId: 2 }, "moveAfterId", /set at most one of moveBeforeId and moveAfterId/],
      ["the child as its own anchor", { moveBeforeId: 5 }, "moveBeforeId", /must be another child of the parent, not the child itself/],
      ["a negative anchor", { moveBeforeId: -4 }, "moveBeforeId", /must be the global id of a sibling epic/],
    ],
  },
  ExclusiveBadges: {
    valid: { group: "acme", keep: [12, "projects/acme%2Fweb/badges/13"], ignore: ["team-*"] },
    cases: [
      ["no owner", { group: undefined }, "project", /set exactly one of project and group/],
      ["both owners", { project: "acme/web" }, "group", /set exactly one of project and group/],
      ["no keep", { keep: undefined }, "keep", /keep: is required/],
      ["a keep value that names no badge", { keep: ["coverage"] }, "keep", /keep\.0: "coverage" does not name a badge; give a Badge's badgeId or id/],
      ["another resource's id in keep", { keep: ["groups/acme/integrations/slack"] }, "keep", /does not name a badge/],
      ["an empty ignore pattern", { ignore: [""] }, "ignore", /ignore\.0: must not be empty/],
      ["unexpected declared", { unexpected: [{ badgeId: 3 }] }, "unexpected", /unexpected: is recorded by `pulumi refresh`, not declared/],
    ],
  },
  ExclusiveSamlGroupLinks: {
    valid: { group: "acme", keep: ["groups/acme/saml_group_links/devs?provider=okta", "admins"] },
    cases: [
      ["no group", { group: undefined }, "group", /group: .*(required|numeric id or a full path)/],
      ["a numeric keep value", { keep: [12] }, "keep", /keep\.0: 12 does not name a SAML group link; give a SamlGroupLink's id, or the name of a link without a provider/],
      ["another resource's id in keep", { keep: ["groups/acme/badges/12"] }, "keep", /does not name a SAML group link/],
    ],
  },
  ExclusivePipelineSchedules: {
    valid: { project: "acme/web", keep: [4, "projects/acme%2Fweb/pipeline_schedules/5"], ignore: ["Nightly*"] },
    cases: [
      ["no project", { project: undefined }, "project", /project: .*(required|numeric id or a full path)/],
      ["a keep value that names no schedule", { keep: ["nightly"] }, "keep", /keep\.0: "nightly" does not name a pipeline schedule; give a PipelineSchedule's scheduleId or id/],
      ["keep of the wrong type", { keep: "4" }, "keep", /keep: .*expected array/],
    ],
  },
  ExclusiveGroupIntegrations: {
    valid: { group: "acme", keep: ["groups/acme/integrations/slack", "jira"] },
    cases: [
      ["no group", { group: undefined }, "group", /group: .*(required|numeric id or a full path)/],
      ["a numeric keep value", { keep: [3] }, "keep", /keep\.0: 3 does not name an integration; give a GroupIntegration's id or its slug/],
      ["a slug with capitals", { keep: ["Slack"] }, "keep", /does not name an integration/],
    ],
  },
  ExclusiveUpstreams: {
    valid: { registry: 1, keep: [3, "4"] },
    cases: [
      ["no registry", { registry: undefined }, "registry", /registry: .*(required|expected number)/],
      ["a registry given by name", { registry: "cache" }, "registry", /registry: .*expected number/],
      ["an upstream given by name", { keep: ["Docker Hub"] }, "keep", /keep\.0: "Docker Hub" does not name an upstream; give an Upstream's upstreamId or id/],
    ],
  },
  MergeRequest: {
    valid: { project: "acme/web", sourceBranch: "release/1.x", targetBranch: "main", title: "Release 1.x" },
    cases: [
      ["no title", { title: undefined }, "title", /title: .*(required|expected string)/],
      ["a blank title", { title: " " }, "title", /title: must not be blank/],
      ["no source branch", { sourceBranch: undefined }, "sourceBranch", /sourceBranch: .*(required|expected string)/],
      ["a target branch with '..'", { targetBranch: "a..b" }, "targetBranch", /targetBranch: must be a branch name/],
      ["the source branch as the target", { targetBranch: "release/1.x" }, "targetBranch", /targetBranch: must differ from sourceBranch/],
      ["labels as comma-separated text", { labels: "bug,deps" }, "labels", /labels: .*expected array/],
      ["a label containing a comma", { labels: ["bug,deps"] }, "labels", /labels\.0: must not contain a comma/],
      ["an assignee given by username", { assigneeIds: ["dev"] }, "assigneeIds", /assigneeIds\.0: .*expected number/],
      ["a milestone id of 0", { milestoneId: 0 }, "milestoneId", /milestoneId: must be a milestone's numeric id/],
      ["state merged", { state: "merged" }, "state", /state: must be "opened" or "closed"/],
      ["mergeAfter that is no date", { mergeAfter: "next week" }, "mergeAfter", /mergeAfter: must be an ISO 8601/],
    ],
  },
  ProjectVariable: {
    valid: { project: "acme/web", key: "DEPLOY_TOKEN", value: "long-enough-value" },
    cases: [
      ["no key", { key: undefined }, "key", /key: .*(required|expected string)/],
      ["a key with a hyphen", { key: "DEPLOY-TOKEN" }, "key", /key: may hold only letters, digits and _/],
      ["a key over 255 characters", { key: "K".repeat(256) }, "key", /key: must be at most 255 characters/],
      ["no value", { value: undefined }, "value", /value: .*(required|expected string)/],
      ["a value over 10,000 characters", { value: "v".repeat(10_001) }, "value", /value: must be at most 10,000 characters/],
      ["a masked value under 8 characters", { value: "short", masked: true }, "value", /value: a masked value must be at least 8 characters long/],
      ["a masked value with a space", { value: "has a space", masked: true }, "value", /value: a masked value \(not raw\) may hold only/],
      ["a masked raw value with a newline", { value: "two\nlines!", masked: true, raw: true }, "value", /value: a masked raw value must be one line with no spaces/],
      ["hidden without masked", { hidden: true }, "hidden", /hidden: a hidden variable must be masked/],
      ["an unknown variable type", { variableType: "yaml" }, "variableType", /variableType: .*(env_var|file)/],
      ["an empty environment scope", { environmentScope: "" }, "environmentScope", /environmentScope: must not be empty/],
      ["an environment scope with a semicolon", { environmentScope: "prod;rm" }, "environmentScope", /environmentScope: may hold only/],
      ["a description over 255 characters", { description: "d".repeat(256) }, "description", /description: .*255/],
      ["no project", { project: undefined }, "project", /project: .*(required|numeric id or a full path)/],
    ],
  },

  GroupVariable: {
    valid: { group: "acme", key: "REGISTRY_MIRROR", value: "https://mirror.example.com" },
    cases: [
      ["a key with a dot", { key: "REGISTRY.MIRROR" }, "key", /key: may hold only letters, digits and _/],
      ["hidden without masked", { hidden: true }, "hidden", /hidden: a hidden variable must be masked/],
      ["a masked value with a space", { value: "a b c d e f g", masked: true }, "value", /value: a masked value \(not raw\) may hold only/],
      ["no group", { group: undefined }, "group", /group: .*(required|numeric id or a full path)/],
    ],
  },

  InstanceVariable: {
    valid: { key: "HTTPS_PROXY", value: "http://proxy.internal:3128" },
    cases: [
      ["a key with a space", { key: "HTTPS PROXY" }, "key", /key: may hold only letters, digits and _/],
      ["a masked value under 8 characters", { value: "short", masked: true }, "value", /value: a masked value must be at least 8 characters long/],
      ["an environment scope (instance variables have none)", { environmentScope: "production" }, "environmentScope", /^environmentScope: unknown property$/],
      ["hidden (instance variables cannot be)", { hidden: true }, "hidden", /^hidden: unknown property$/],
    ],
  },

  ProjectHook: {
    valid: { project: "acme/web", url: "https://ci.example.test/hooks", token: TOKEN, customHeaders: { "X-Receiver-Key": PASSWORD } },
    cases: [
      ["no URL", { url: undefined }, "url", /url: .*(required|expected string)/],
      ["a URL that is not http(s)", { url: "ftp://ci.example.test/hooks" }, "url", /url: must be an http\(s\) URL/],
      ["a token with a line break", { token: "two\nlines" }, "token", /token: must not contain a line break/],
      ["an event switch given as text", { pushEvents: "yes" }, "pushEvents", /expected boolean/],
      ["a group hook's switch", { memberEvents: true }, "memberEvents", /^memberEvents: unknown property/],
      ["an unknown branch filter strategy", { branchFilterStrategy: "glob" }, "branchFilterStrategy", /wildcard.*regex.*all_branches/],
      ["a branch filter with all_branches", { branchFilterStrategy: "all_branches", pushEventsBranchFilter: "main" }, "pushEventsBranchFilter", /must not be set with branchFilterStrategy all_branches/],
      ["a regex filter that does not compile", { branchFilterStrategy: "regex", pushEventsBranchFilter: "(" }, "pushEventsBranchFilter", /valid regular expression/],
      ["a wildcard filter git would refuse", { pushEventsBranchFilter: "a..b" }, "pushEventsBranchFilter", /branch name with \* wildcards/],
      ["a custom header name with a space", { customHeaders: { "X Key": "v" } }, "customHeaders", /header names are letters/],
      ["an empty custom header value", { customHeaders: { "X-Key": "" } }, "customHeaders", /customHeaders/],
      ["21 custom headers", { customHeaders: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, "v"])) }, "customHeaders", /at most 20 custom headers/],
      ["a template over 4,096 characters", { customWebhookTemplate: "x".repeat(4097) }, "customWebhookTemplate", /4096/],
    ],
  },
  GroupHook: {
    valid: { group: "acme", url: "https://ci.example.test/hooks", token: TOKEN, subgroupEvents: true },
    cases: [
      ["no group", { group: undefined }, "group", /group: .*(required|expected)/],
      ["a project instead of a group", { project: "acme/web" }, "project", /^project: unknown property/],
      ["a URL that is no URL", { url: "hooks" }, "url", /url: must be an http\(s\) URL/],
      ["a member switch given as a number", { memberEvents: 1 }, "memberEvents", /expected boolean/],
    ],
  },
  Label: {
    valid: { project: "acme/web", name: "bug", color: "#d9534f" },
    cases: [
      ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
      ["an empty name", { name: "" }, "name", /name: .*(empty|>=1)/],
      ["a name over 255 characters", { name: "x".repeat(256) }, "name", /name: .*255/],
      ["a name with a comma", { name: "bug,critical" }, "name", /name: must not contain a comma/],
      ["a name with surrounding whitespace", { name: " bug" }, "name", /name: must not start or end with whitespace/],
      ["a name with an HTML tag", { name: "<b>bug</b>" }, "name", /name: must not contain HTML tags/],
      ["no color", { color: undefined }, "color", /color: .*(required|expected string)/],
      ["a color that is neither hex nor a CSS name", { color: "reddish" }, "color", /color: must be a color in 6-digit .*hex notation/],
      ["a hex color without #", { color: "d9534f" }, "color", /color: must be a color/],
      ["a negative priority", { priority: -1 }, "priority", /priority: .*>=0/],
      ["a fractional priority", { priority: 1.5 }, "priority", /priority: .*int/],
      ["a priority on a group's label", { project: undefined, group: "acme", priority: 1 }, "priority", /priority: only a project's labels have a priority/],
      ["both project and group", { group: "acme" }, "group", /exactly one of project and group/],
      ["neither project nor group", { project: undefined }, "project", /exactly one of project and group/],
    ],
  },
  ExclusiveLabels: {
    valid: { group: "acme", keep: [12, "groups/acme/labels/13"], ignore: ["team::*"] },
    cases: [
      ["no owner", { group: undefined }, "project", /set exactly one of project and group/],
      ["both owners", { project: "acme/web" }, "group", /set exactly one of project and group/],
      ["no keep", { keep: undefined }, "keep", /keep: is required/],
      ["a keep value that names no label", { keep: ["bug"] }, "keep", /keep\.0: "bug" does not name a label; give a Label's labelId or id/],
      ["another resource's id in keep", { keep: ["groups/acme/badges/12"] }, "keep", /does not name a label/],
      ["unexpected declared", { unexpected: [{ labelId: 3 }] }, "unexpected", /unexpected: is recorded by `pulumi refresh`, not declared/],
    ],
  },
  GroupMember: {
    valid: { group: "acme", user: "outsider", accessLevel: "developer" },
    cases: [
      ["no user", { user: undefined }, "user", /user: is required: a user id or a username such as alice/],
      ["a user with a slash", { user: "a/b" }, "user", /user: must be a user id or a username such as alice/],
      ["a role by an unknown name", { accessLevel: "admin" }, "accessLevel", /accessLevel: must be a role \(guest, planner, reporter, developer, maintainer, owner\)/],
      ["no access at all", { accessLevel: 0 }, "accessLevel", /accessLevel: must be a role .* or one of the access levels 10, 15, 20, 30, 40, 50/],
      ["an expiry that is no date", { expiresAt: "2027-13-45" }, "expiresAt", /expiresAt: must be a date as YYYY-MM-DD/],
      ["a custom role of id 0", { memberRoleId: 0 }, "memberRoleId", /memberRoleId: .*(>0|positive)/],
    ],
  },
  ProjectMember: {
    valid: { project: "acme/web", user: 6, accessLevel: 30 },
    cases: [
      ["no project", { project: undefined }, "project", /project: .*(required|numeric id or a full path)/],
      ["a fractional user id", { user: 1.5 }, "user", /user: must be a user id or a username such as alice/],
      ["a role given as a level no role has", { accessLevel: 35 }, "accessLevel", /accessLevel: must be a role/],
      ["an expiry with a time", { expiresAt: "2027-01-01T00:00:00Z" }, "expiresAt", /expiresAt: must be a date as YYYY-MM-DD/],
    ],
  },
  ExclusiveGroupMembers: {
    valid: { group: "acme", keep: [7, "groups/acme/members/3"] },
    cases: [
      ["a member given by username", { keep: ["alice"] }, "keep", /keep\.0: "alice" does not name a group member; give a GroupMember's userId or id/],
      ["no keep", { keep: undefined }, "keep", /keep: .*expected array/],
    ],
  },
  ExclusiveProjectMembers: {
    valid: { project: "acme/web", keep: [] },
    cases: [["a user id of 0", { keep: [0] }, "keep", /keep\.0: 0 does not name a project member; give a ProjectMember's userId or id/]],
  },
  GroupShare: {
    valid: { group: "acme/platform", sharedWith: "beta", groupAccess: "developer" },
    cases: [
      ["no invited group", { sharedWith: undefined }, "sharedWith", /sharedWith: .*(required|numeric id or a full path)/],
      ["an invited group that is no path", { sharedWith: "be ta" }, "sharedWith", /sharedWith: must be a numeric id or a full path/],
      ["a role by an unknown name", { groupAccess: "admin" }, "groupAccess", /groupAccess: must be a role/],
    ],
  },
  ProjectShare: {
    valid: { project: "acme/web", sharedWith: 2, groupAccess: 20 },
    cases: [
      ["a role of 0", { groupAccess: 0 }, "groupAccess", /groupAccess: must be a role/],
      ["an expiry that is no date", { expiresAt: "soon" }, "expiresAt", /expiresAt: must be a date as YYYY-MM-DD/],
    ],
  },
  Project: {
    valid: { group: "acme", name: "Docs", path: "docs" },
    cases: [
      ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
      ["a name starting with a dash", { name: "-docs" }, "name", /name: .*must start with a letter, digit, emoji or '_'/],
      ["a path ending in .git", { path: "docs.git" }, "path", /path: .*not end in \.git or \.atom/],
      ["a reserved path", { path: "tree" }, "path", /path: must not be a reserved name/],
      ["a path that is a dot segment", { path: ".." }, "path", /path: /],
      ["a group that is neither an id nor a path", { group: "acme group!" }, "group", /numeric id or a full path/],
      ["a visibility of its own", { visibility: "secret" }, "visibility", /visibility: /],
      ["a merge method of its own", { mergeMethod: "squash" }, "mergeMethod", /mergeMethod: /],
      ["a feature's access level public", { wikiAccessLevel: "public" }, "wikiAccessLevel", /wikiAccessLevel: /],
      ["a default branch with '..'", { defaultBranch: "a..b" }, "defaultBranch", /defaultBranch: must be a valid branch name/],
      ["topics as text", { topics: "a,b" }, "topics", /topics: .*expected array/],
      ["merge requests more open than the repository", { repositoryAccessLevel: "private", mergeRequestsAccessLevel: "enabled" }, "mergeRequestsAccessLevel", /mergeRequestsAccessLevel: must not be more open than repositoryAccessLevel \(private\)/],
    ],
  },
  ProtectedBranch: {
    valid: { project: "acme/web", name: "release/*", pushAccessLevel: "no_one", mergeAccessLevel: 30, unprotectAccessLevel: "maintainer" },
    cases: [
      ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
      ["an empty name", { name: "" }, "name", /name: must not be empty/],
      ["a name with spaces around it", { name: " main" }, "name", /name: must not start or end with spaces/],
      ["a role below Developer", { pushAccessLevel: "reporter" }, "pushAccessLevel", /pushAccessLevel: must be one of no_one, developer, maintainer, admin or the access levels 0, 30, 40, 60/],
      ["an access level that is no level", { mergeAccessLevel: 20 }, "mergeAccessLevel", /mergeAccessLevel: must be one of no_one, developer, maintainer, admin/],
      ["no one may unprotect", { unprotectAccessLevel: "no_one" }, "unprotectAccessLevel", /unprotectAccessLevel: must be one of developer, maintainer, admin or the access levels 30, 40, 60/],
      ["a user given by username", { usersAllowedToPush: ["dev"] }, "usersAllowedToPush", /usersAllowedToPush\.0: .*expected number/],
      ["a group id of 0", { groupsAllowedToMerge: [0] }, "groupsAllowedToMerge", /groupsAllowedToMerge\.0: must be a numeric id/],
      ["allowForcePush as text", { allowForcePush: "yes" }, "allowForcePush", /allowForcePush: .*expected boolean/],
    ],
  },
  ProtectedTag: {
    valid: { project: "acme/web", name: "v*", createAccessLevel: "maintainer" },
    cases: [
      ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
      ["an empty name", { name: "" }, "name", /name: must not be empty/],
      ["a role below Developer", { createAccessLevel: "guest" }, "createAccessLevel", /createAccessLevel: must be one of no_one, developer, maintainer, admin or the access levels 0, 30, 40, 60/],
    ],
  },
  ApprovalRule: {
    valid: { project: "acme/web", name: "security review", approvalsRequired: 2, userIds: [4], protectedBranchIds: [1] },
    cases: [
      ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
      ["no count", { approvalsRequired: undefined }, "approvalsRequired", /approvalsRequired: .*(required|expected number)/],
      ["a negative count", { approvalsRequired: -1 }, "approvalsRequired", /approvalsRequired: must be at least 0/],
      ["more than 100 approvals", { approvalsRequired: 101 }, "approvalsRequired", /approvalsRequired: must be at most 100/],
      ["a user given by username", { userIds: ["dev"] }, "userIds", /userIds\.0: .*expected number/],
      ["a protected branch given by name", { protectedBranchIds: ["main"] }, "protectedBranchIds", /protectedBranchIds\.0: .*expected number/],
      ["a protected branch named by an empty name", { protectedBranchIds: undefined, protectedBranches: [""] }, "protectedBranches", /protectedBranches\.0: must not be empty/],
      ["protected branches by name and by id", { protectedBranches: ["main"] }, "protectedBranches", /protectedBranches: name the protected branches either by name or by id/],
    ],
  },
  GroupAccessToken: { valid: { group: "acme", name: "ci", scopes: ["read_api"], rotateBeforeDays: 30 }, cases: accessTokenCases("group") },
  ProjectAccessToken: { valid: { project: "acme/web", name: "ci", scopes: ["read_api"], expiresAt: inDays(30) }, cases: accessTokenCases("project") },
  DeployToken: {
    valid: { project: "acme/web", name: "pull", scopes: ["read_registry"], expiresAt: inDays(30) },
    cases: [
      ["both owners", { group: "acme" }, "group", /set exactly one of project and group/],
      ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
      ["no scopes", { scopes: [] }, "scopes", /scopes: must name at least one scope/],
      ["an access token's scope", { scopes: ["api"] }, "scopes", /scopes\.0: must be among read_repository/],
      ["an expiry in the past", { expiresAt: "2020-01-01" }, "expiresAt", /expiresAt: must be in the future/],
      ["an expiry that is no time", { expiresAt: "next year" }, "expiresAt", /expiresAt: must be a date \(YYYY-MM-DD\) or an ISO 8601 time/],
      ["a username with a space", { username: "ci puller" }, "username", /username: may contain only letters, digits/],
    ],
  },
  DeployKey: {
    valid: { project: "acme/web", title: "ci", key: sshPublicKey("catalogue") },
    cases: [
      ["no title", { title: undefined }, "title", /title: .*(required|expected string)/],
      ["an empty title", { title: "" }, "title", /title: must not be empty/],
      ["no key", { key: undefined }, "key", /key: .*(required|expected string)/],
      ["a private key's first line", { key: "-----BEGIN OPENSSH PRIVATE KEY-----" }, "key", /key: must be an SSH public key/],
      ["a key whose blob names another type", { key: "ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQAB forged" }, "key", /key: must be an SSH public key/],
      ["canPush as text", { canPush: "yes" }, "canPush", /canPush: .*expected boolean/],
      ["an expiry in the past", { expiresAt: "2020-01-01T00:00:00Z" }, "expiresAt", /expiresAt: must be in the future/],
    ],
  },
  ProtectedEnvironment: {
    valid: { project: "acme/web", name: "production", deployAccessLevels: [{ accessLevel: "maintainer" }, { groupId: 12, groupInheritanceType: 1 }], approvalRules: [{ userId: 4, requiredApprovals: 2 }] },
    cases: [
      ["no name", { name: undefined }, "name", /name: .*(required|expected string)/],
      ["a name with a slash", { name: "review/app" }, "name", /name: must not contain a slash/],
      ["no one who may deploy", { deployAccessLevels: [] }, "deployAccessLevels", /deployAccessLevels: must name at least one role, user or group who may deploy/],
      ["an entry naming a role and a user", { deployAccessLevels: [{ accessLevel: 40, userId: 4 }] }, "deployAccessLevels", /deployAccessLevels\.0: must name exactly one of accessLevel, userId or groupId/],
      ["no one as a role", { deployAccessLevels: [{ accessLevel: "no_one" }] }, "deployAccessLevels", /deployAccessLevels\.0\.accessLevel: must be one of reporter, developer, maintainer, admin or the access levels 20, 30, 40, 60/],
      ["an inheritance on a role", { deployAccessLevels: [{ accessLevel: 40, groupInheritanceType: 1 }] }, "deployAccessLevels", /deployAccessLevels\.0\.groupInheritanceType: applies to a groupId entry only/],
      ["one role twice", { deployAccessLevels: [{ accessLevel: 40 }, { accessLevel: "maintainer" }] }, "deployAccessLevels", /deployAccessLevels: must not name the same role, user or group twice/],
      ["six required approvals", { approvalRules: [{ accessLevel: 40, requiredApprovals: 6 }] }, "approvalRules", /approvalRules\.0\.requiredApprovals: must be at most 5/],
      ["an approval rule naming no one", { approvalRules: [{ requiredApprovals: 2 }] }, "approvalRules", /approvalRules\.0: must name exactly one of accessLevel, userId or groupId/],
    ],
  },
  GroupProtectedEnvironment: {
    valid: { group: "acme", name: "production", deployAccessLevels: [{ accessLevel: "developer" }] },
    cases: [
      ["a name that is no deployment tier", { name: "prod" }, "name", /name: must be a deployment tier: production, staging, testing, development, other/],
      ["an inheritance that is no type", { deployAccessLevels: [{ groupId: 12, groupInheritanceType: 2 }] }, "deployAccessLevels", /deployAccessLevels\.0\.groupInheritanceType: must be 0 \(the group's direct members\) or 1/],
    ],
  },
  ProjectApprovalSettings: {
    valid: { project: "acme/web", resetApprovalsOnPush: false },
    cases: [
      ["no project", { project: undefined }, "project", /project: .*(required|expected)/],
      ["a project path with a space", { project: "acme/my web" }, "project", /numeric id or a full path/],
      ["a setting as text", { mergeRequestsAuthorApproval: "yes" }, "mergeRequestsAuthorApproval", /mergeRequestsAuthorApproval: .*expected boolean/],
      ["selective removals while every approval is reset", { resetApprovalsOnPush: true, selectiveCodeOwnerRemovals: true }, "selectiveCodeOwnerRemovals", /selectiveCodeOwnerRemovals: can be true only while resetApprovalsOnPush is false/],
      ["both names of reauthentication", { requirePasswordToApprove: true, requireReauthenticationToApprove: true }, "requirePasswordToApprove", /requirePasswordToApprove/],
      ["restoreOnDelete that is not a boolean", { restoreOnDelete: "no" }, "restoreOnDelete", /expected boolean/],
    ],
  },
};

// ---------------------------------------------------------------------------
// Refused in check

let rejectedInCheck = 0;
let requestsSent = 0;

for (const [name, { valid, cases }] of Object.entries(catalogue) as [ResourceName, ResourceCatalogue][]) {
  describe(`${name}: check refuses the input, naming the property and the rule, and sends nothing`, () => {
    beforeAll(async () => {
      await server.configureProviders();
    });
    for (const [title, input, property, rule] of cases) {
      it(title, async () => {
        const requests = await server.requestsDuring(async () => {
          const result = await providers[name].check({}, { ...valid, ...input });
          // A secret property's failure names it in its reason only: the engine prints a named property's value.
          const failure = result.failures?.find(
            (f) => f.property === property || f.property.startsWith(`${property}.`) || (f.property === "" && f.reason.startsWith(`${property}`)),
          );
          expect(failure, JSON.stringify(result.failures)).toBeDefined();
          expect(failure!.reason).toContain(property);
          expect(failure!.reason).toMatch(rule);
          for (const secret of SECRETS) expect(JSON.stringify(result.failures)).not.toContain(secret);
        });
        requestsSent += requests.length;
        expect(requests).toEqual([]);
        rejectedInCheck++;
      });
    }
  });
}

describe("the valid inputs the catalogue starts from pass check", () => {
  for (const [name, { valid }] of Object.entries(catalogue) as [ResourceName, ResourceCatalogue][]) {
    it(name, async () => {
      if (name === "GroupIntegration") {
        for (const kind of [MATTERMOST, TELEGRAM, BAMBOO, TRACKER]) expect((await providers[name].check({}, { ...valid, ...kind })).failures ?? []).toEqual([]);
      } else {
        expect((await providers[name].check({}, valid)).failures ?? []).toEqual([]);
      }
    });
  }
});

// ---------------------------------------------------------------------------
// Refused where the program declares it: limits across the resources of one program

/** A limit across declarations: a title, the resource it belongs to, the program, and the failure it must end in. */
type ProgramLimit = [title: string, resource: ResourceName, program: () => void | Promise<void>, failure: RegExp];

/**
 * Runs `program` under Pulumi's mocks (nothing is registered anywhere) and
 * returns what it threw, or what it left unhandled (rules that wait for
 * secret values run in an `apply`, whose throw surfaces as an unhandled rejection).
 * Where a failure is expected, waits for it (on a loaded machine the apply runs
 * late); where none is, gives the program's applies 100 ms to run.
 */
async function failureOf(program: () => void | Promise<void>, expected: "a failure" | "none" = "a failure"): Promise<string> {
  const failures: string[] = [];
  const onRejection = (error: unknown) => failures.push(String(error));
  process.on("unhandledRejection", onRejection);
  try {
    await program();
    const end = Date.now() + (expected === "a failure" ? 30_000 : 100);
    while (failures.length === 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
  } catch (error) {
    failures.push(String(error));
  } finally {
    process.off("unhandledRejection", onRejection);
  }
  return failures.join("\n");
}

const programLimits: ProgramLimit[] = [
  [
    "a sixth virtual registry in one group (paths compared without case)",
    "VirtualRegistry",
    () => {
      for (let i = 0; i < 5; i++) new VirtualRegistry(`r${i}`, { group: "acme", name: `r${i}` });
      new VirtualRegistry("other-group", { group: "beta", name: "r" });
      new VirtualRegistry("sixth", { group: "ACME", name: "sixth" });
    },
    /VirtualRegistry sixth: group: the program declares more than 5 virtual registries in group ACME/,
  ],
  [
    "a sixth upstream in one registry",
    "Upstream",
    () => {
      const registry = new VirtualRegistry("reg", { group: "acme", name: "reg" });
      for (let i = 0; i < 6; i++) new Upstream(`u${i}`, { registry: registry.registryId, name: `u${i}`, url: `https://u${i}.example.com` });
    },
    /Upstream u5: registry: the program declares more than 5 upstreams in one virtual registry/,
  ],
  [
    "a sixth upstream in one registry, counting an upstream linked to it with otherRegistries",
    "Upstream",
    () => {
      for (let i = 0; i < 5; i++) new Upstream(`u${i}`, { registry: 7, name: `u${i}`, url: `https://u${i}.example.com` });
      new Upstream("linked", { registry: 8, name: "linked", url: "https://linked.example.com", otherRegistries: [{ registry: 8 + 1 }, { registry: 7 }] });
    },
    /Upstream linked: otherRegistries\[1\]: the program declares more than 5 upstreams in one virtual registry; .*otherRegistries counts in each registry it serves/,
  ],
  [
    "a sixth upstream in one registry, linked by an otherRegistries list that is an Output (counted once the ids are known)",
    "Upstream",
    () => {
      for (let i = 0; i < 5; i++) new Upstream(`u${i}`, { registry: 7, name: `u${i}`, url: `https://u${i}.example.com` });
      new Upstream("linked", { registry: 8, name: "linked", url: "https://linked.example.com", otherRegistries: pulumi.output([{ registry: 7 }]) });
    },
    /Upstream linked: otherRegistries\[0\]: the program declares more than 5 upstreams in virtual registry 7/,
  ],
  [
    "a SAML group link declared twice (same group, name and provider)",
    "SamlGroupLink",
    () => {
      new SamlGroupLink("developers", { group: "acme", samlGroupName: "devs", accessLevel: "developer", provider: "okta" });
      new SamlGroupLink("developers-again", { group: "ACME", samlGroupName: "devs", accessLevel: "maintainer", provider: "okta" });
    },
    /SamlGroupLink "developers-again": samlGroupName: SamlGroupLink "developers" of this program already declares the link "devs" of group ACME for provider okta.*declare it once/,
  ],
  [
    "a SAML group link declared twice, its group an Output (checked once the value is known)",
    "SamlGroupLink",
    () => {
      new SamlGroupLink("developers", { group: "acme", samlGroupName: "devs", accessLevel: "developer" });
      new SamlGroupLink("developers-again", { group: pulumi.output("acme"), samlGroupName: "devs", accessLevel: 30 });
    },
    /SamlGroupLink "developers-again": samlGroupName: SamlGroupLink "developers" of this program already declares the link "devs" of group acme without a provider/,
  ],
  [
    "two upstreams of one group with the same URL and credentials",
    "Upstream",
    () => {
      const first = new VirtualRegistry("first", { group: "acme", name: "first" });
      const second = new VirtualRegistry("second", { group: "acme", name: "second" });
      new Upstream("a", { registry: first.registryId, name: "a", url: "https://mirror.example.com", username: "x", password: pulumi.secret(PASSWORD) });
      new Upstream("b", { registry: second.registryId, name: "b", url: "https://mirror.example.com", username: "x", password: pulumi.secret(PASSWORD) });
    },
    /Upstream b: url: another upstream of the program in the same top-level group has the URL https:\/\/mirror.example.com with the same credentials/,
  ],
  [
    "a second cleanup policy for one group",
    "CleanupPolicy",
    () => {
      new CleanupPolicy("first", { group: "acme", cadence: 7 });
      new CleanupPolicy("second", { group: "acme", cadence: 1 });
    },
    /CleanupPolicy second: group: the program declares a second cleanup policy for group acme; a group has one/,
  ],
  [
    "a second registry visibility for one project",
    "ContainerRegistryVisibility",
    () => {
      new ContainerRegistryVisibility("web", { project: "acme/web", accessLevel: "private" });
      new ContainerRegistryVisibility("api", { project: "acme/api", accessLevel: "private" });
      new ContainerRegistryVisibility("web-again", { project: "ACME/Web", accessLevel: "disabled" });
    },
    /ContainerRegistryVisibility web-again: project: the program declares a second registry visibility for project ACME\/Web; a project has one/,
  ],
  [
    "a second cleanup rule for one registry repository",
    "ContainerRegistryCleanup",
    () => {
      new ContainerRegistryCleanup("api", { project: "acme/web", repository: "api-server", nameRegexDelete: "v.+", keepN: 10 });
      new ContainerRegistryCleanup("root", { project: "acme/web", repository: "", nameRegexDelete: ".*" });
      new ContainerRegistryCleanup("api-again", { project: "acme/web", repository: "api-server", nameRegexDelete: "main-.*" });
    },
    /ContainerRegistryCleanup api-again: project: the program declares a second cleanup rule for acme\/web repository "api-server"; keep one rule per repository/,
  ],
  [
    "one epic declared as the child of two parents",
    "EpicLink",
    () => {
      new EpicLink("dark-mode", { group: "acme", epicIid: 1, childEpicId: 5 });
      new EpicLink("search", { group: "acme", epicIid: 1, childEpicId: 6 });
      new EpicLink("dark-mode-elsewhere", { group: "acme/platform", epicIid: 1, childEpicId: 5 });
    },
    /EpicLink dark-mode-elsewhere: childEpicId: the program also declares epic 5 as the child in EpicLink dark-mode; an epic has one parent/,
  ],
  [
    "a second star on one project",
    "ProjectStar",
    () => {
      new ProjectStar("web", { project: "acme/web" });
      new ProjectStar("api", { project: "acme/api" });
      new ProjectStar("web-again", { project: "ACME/web" });
    },
    /ProjectStar web-again: project: the program declares a second star on project ACME\/web; a user stars a project once/,
  ],
  [
    "a second ApplicationSettings in one program",
    "ApplicationSettings",
    () => {
      new ApplicationSettings("instance", { signupEnabled: false });
      new ApplicationSettings("more", { enforceTerms: false });
    },
    /ApplicationSettings "more": this program already declares ApplicationSettings "instance"/,
  ],
  [
    "a label declared twice on one owner (the same name; another owner or another name is fine)",
    "Label",
    () => {
      new platform.Label("bug", { group: "acme", name: "bug", color: "red" });
      new platform.Label("web-bug", { project: "acme/web", name: "bug", color: "red" });
      new platform.Label("Bug", { group: "acme", name: "Bug", color: "red" });
      new platform.Label("bug-again", { group: pulumi.output("ACME"), name: "bug", color: "#ff0000" });
    },
    /Label "bug-again": name: Label "bug" of this program already declares the label "bug" of group ACME; declare it once/,
  ],
];

let rejectedInProgram = 0;

describe("limits across one program's declarations are refused while the program runs, before any request", () => {
  beforeEach(() => {
    pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs });
    resetDeclarations();
  });
  afterEach(() => resetDeclarations());

  for (const [title, , program, failure] of programLimits) {
    it(title, async () => {
      let message = "";
      const requests = await server.requestsDuring(async () => {
        message = await failureOf(program);
      });
      expect(message).toMatch(failure);
      for (const secret of SECRETS) expect(message).not.toContain(secret);
      requestsSent += requests.length;
      expect(requests).toEqual([]);
      rejectedInProgram++;
    });
  }

  it("the same declarations within the limits pass", async () => {
    const message = await failureOf(() => {
      const registry = new VirtualRegistry("reg", { group: "acme", name: "reg" });
      for (let i = 0; i < 5; i++) new Upstream(`u${i}`, { registry: registry.registryId, name: `u${i}`, url: `https://u${i}.example.com` });
      new CleanupPolicy("policy", { group: "acme", cadence: 7 });
      new CleanupPolicy("other", { group: "beta", cadence: 7 });
      new ApplicationSettings("instance", { signupEnabled: false });
      // Four upstreams of registry 7 and one linked to it: five.
      for (let i = 0; i < 4; i++) new Upstream(`n${i}`, { registry: 7, name: `n${i}`, url: `https://n${i}.example.com` });
      new Upstream("linked", { registry: 8, name: "linked", url: "https://linked.example.com", otherRegistries: [{ registry: 7 }] });
      // One SAML group name, for different providers or groups: different links.
      new SamlGroupLink("devs", { group: "acme", samlGroupName: "devs", accessLevel: "developer" });
      new SamlGroupLink("devs-okta", { group: "acme", samlGroupName: "devs", accessLevel: "developer", provider: "okta" });
      new SamlGroupLink("devs-beta", { group: "beta", samlGroupName: "devs", accessLevel: "developer" });
    }, "none");
    expect(message).toBe("");
  });
});

// ---------------------------------------------------------------------------
// Dot segments: every string that ends up in a request's path

/**
 * `.` and `..`, plain and encoded, alone and as a segment of a path: URL
 * parsers resolve them (`/groups/acme/saml_group_links/..` is `/groups/acme/`),
 * so a value holding one would send the request to another object.
 */
const DOT_FORMS = [".", "..", "%2e%2e", "%2E%2e", ".%2E", "%2e", "acme/..", "acme/./web", "acme%2f..", "%252e%252e", " .. ", "..\\acme"];
const DOT_RULE = /must not be "\." or "\.\." nor have one as a path segment \(plain or percent-encoded, as %2e\)/;
/** Owners take letters, digits, `_`, `-`, `.` and `/` only (usernames and a group's new path no `/`): an encoded or spaced form is refused by that rule first. */
function ruleFor(property: string, form: string, resource?: ResourceName): RegExp {
  if (property === "user" && /[^A-Za-z0-9_.-]/.test(form)) return /user id or a username/;
  if ((property === "project" || property === "group") && /[^A-Za-z0-9_./-]/.test(form)) return /numeric id or a full path/;
  if ((resource === "GroupSettings" || resource === "Group") && property === "path" && /[^A-Za-z0-9_.-]/.test(form)) return /may contain only letters, digits/;
  if (resource?.endsWith("Variable") && property === "key") return /key: may hold only letters, digits and _/;
  if (property === "parent" && /[^A-Za-z0-9_./-]/.test(form)) return /numeric id or a full path/;
  return DOT_RULE;
}

/** The properties of each resource that end up in a request's path (owners, names, uids), with inputs valid otherwise. */
const resourcePathStrings: [ResourceName, Record<string, unknown>, string[]][] = (Object.entries(catalogue) as [ResourceName, ResourceCatalogue][])
  .map(([name, { valid }]): [ResourceName, Record<string, unknown>, string[]] => {
    const inputs = name === "GroupIntegration" ? { ...valid, ...MATTERMOST } : valid;
    // A group's new path becomes its address once renamed.
    const extra =
      name === "SamlGroupLink" ? ["samlGroupName"]
      : name === "SamlIdentity" ? ["externUid"]
      : name === "GroupSettings" ? ["path"]
      : name === "Group" ? ["parent", "path"]
      : name.endsWith("Variable") ? ["key"]
      : name === "GroupMember" || name === "ProjectMember" ? ["user"]
      : name === "GroupShare" || name === "ProjectShare" ? ["sharedWith"]
      : name === "ProtectedBranch" || name === "ProtectedTag" || name === "ProtectedEnvironment" ? ["name"]
      : [];
    return [name, inputs, [...["project", "group"].filter((key) => typeof inputs[key] === "string"), ...extra]];
  })
  .filter(([, , properties]) => properties.length > 0);

let dotFormsRefused = 0;

describe("dot segments are refused in check wherever a resource's string ends up in a path, before any request", () => {
  beforeAll(async () => {
    await server.configureProviders();
  });
  for (const [name, inputs, properties] of resourcePathStrings) {
    for (const property of properties) {
      it(`${name}.${property}`, async () => {
        const requests = await server.requestsDuring(async () => {
          for (const form of DOT_FORMS) {
            const result = await providers[name].check({}, { ...inputs, [property]: form });
            // A value may break other rules of its property too (a slash, spaces): the dot rule is among them.
            const reasons = (result.failures ?? []).filter((f) => f.property === property || (f.property === "" && f.reason.startsWith(`${property}: `))).map((f) => f.reason);
            expect(reasons.some((reason) => ruleFor(property, form, name).test(reason)), `${property}: ${JSON.stringify(form)}: ${JSON.stringify(result.failures)}`).toBe(true);
            dotFormsRefused++;
          }
        });
        expect(requests).toEqual([]);
      });
    }
  }

  it("every resource that names a project or a group is tried", () => {
    const tried = new Set(resourcePathStrings.map(([name]) => name));
    const untried = (Object.keys(catalogue) as ResourceName[]).filter((name) => !tried.has(name));
    // Upstreams name their registry by number; application settings are the instance's.
    expect(untried.sort()).toEqual(["ApplicationSettings", "ExclusiveUpstreams", "Upstream"]);
  });
});

/** A data function or an action, arguments valid otherwise, and its arguments that end up in a request's path. */
type CallCase = [name: string, call: (args: never) => Promise<unknown>, valid: Record<string, unknown>, properties: string[]];

const project = { project: "acme/web" };
const group = { group: "acme" };
const callCases: CallCase[] = [
  ["getGroup", platform.getGroup, group, ["group"]],
  ["getGroupPersonalAccessTokens", platform.getGroupPersonalAccessTokens, group, ["group"]],
  ["getSamlIdentities", platform.getSamlIdentities, group, ["group"]],
  ["getSamlIdentity", platform.getSamlIdentity, { ...group, uid: "dev@idp.example" }, ["group", "uid"]],
  ["getSamlGroupLinks", platform.getSamlGroupLinks, group, ["group"]],
  ["getSamlGroupLink", platform.getSamlGroupLink, { ...group, samlGroupName: "devs" }, ["group", "samlGroupName"]],
  ["getStarredProjects", platform.getStarredProjects, { user: "alice" }, ["user"]],
  ["getStarrers", platform.getStarrers, project, ["project"]],
  ["getGroupMembers", platform.getGroupMembers, { ...group, all: true }, ["group"]],
  ["getProjectMembers", platform.getProjectMembers, project, ["project"]],
  ["getRegistryRepositories", platform.getRegistryRepositories, project, ["project"]],
  ["getRegistryRepositories of a group", platform.getRegistryRepositories, group, ["group"]],
  ["getRegistryTags", platform.getRegistryTags, { ...project, repositoryId: 1 }, ["project"]],
  ["getRegistryTag", platform.getRegistryTag, { ...project, repositoryId: 1, name: "latest" }, ["project", "name"]],
  ["getVulnerabilityFindings", platform.getVulnerabilityFindings, project, ["project"]],
  ["getDependencies", platform.getDependencies, project, ["project"]],
  ["getErrorTrackingClientKeys", platform.getErrorTrackingClientKeys, project, ["project"]],
  ["getBadges", platform.getBadges, project, ["project"]],
  ["getBadge", platform.getBadge, { group: "acme", id: 1 }, ["group"]],
  ["getGroupIntegrations", platform.getGroupIntegrations, group, ["group"]],
  ["getGroupIntegration", platform.getGroupIntegration, { ...group, slug: "slack" }, ["group"]],
  ["getPipelineSchedules", platform.getPipelineSchedules, project, ["project"]],
  ["getPipelineSchedule", platform.getPipelineSchedule, { ...project, scheduleId: 1 }, ["project"]],
  ["getPipelineSchedulePipelines", platform.getPipelineSchedulePipelines, { ...project, scheduleId: 1 }, ["project"]],
  ["getProjectMergeRequests", platform.getProjectMergeRequests, project, ["project"]],
  ["getMergeRequest", platform.getMergeRequest, { ...project, iid: 1 }, ["project"]],
  ["getMergeRequestDiffs", platform.getMergeRequestDiffs, { ...project, iid: 1 }, ["project"]],
  ["getMergeRequestRawDiffs", platform.getMergeRequestRawDiffs, { ...project, iid: 1 }, ["project"]],
  ["getMergeRequestPipelines", platform.getMergeRequestPipelines, { ...project, iid: 1 }, ["project"]],
  ["getEpic", platform.getEpic, { ...group, epicIid: 1 }, ["group"]],
  ["getEpicChildren", platform.getEpicChildren, { ...group, epicIid: 1 }, ["group"]],
  ["getVirtualRegistries", platform.getVirtualRegistries, group, ["group"]],
  ["getUpstreams", platform.getUpstreams, group, ["group"]],
  ["getCleanupPolicy", platform.getCleanupPolicy, group, ["group"]],
  ["getRepositoryTree", platform.getRepositoryTree, { ...project, path: "src", ref: "main" }, ["project", "path", "ref"]],
  ["getRepositoryBlob", platform.getRepositoryBlob, { ...project, path: "README.md", ref: "main" }, ["project", "path", "ref"]],
  ["getRepositoryArchive", platform.getRepositoryArchive, { ...project, sha: "main", path: "src" }, ["project", "sha", "path"]],
  ["getRepositoryCompare", platform.getRepositoryCompare, { ...project, from: "main", to: "feature" }, ["project", "from", "to"]],
  ["getRepositoryContributors", platform.getRepositoryContributors, { ...project, ref: "main" }, ["project", "ref"]],
  ["getRepositoryMergeBase", platform.getRepositoryMergeBase, { ...project, refs: ["main", "feature"] }, ["project"]],
  ["getRepositoryChangelog", platform.getRepositoryChangelog, { ...project, version: "1.5.0", from: "v1.4.0" }, ["project", "from"]],
  ["runPipelineSchedule", platform.runPipelineSchedule, { ...project, scheduleId: 1 }, ["project"]],
  ["commitChangelog", platform.commitChangelog, { ...project, version: "1.5.0" }, ["project"]],
  ["createMergeRequestPipeline", platform.createMergeRequestPipeline, { ...project, iid: 1 }, ["project"]],
  ["startLdapGroupSync", platform.startLdapGroupSync, group, ["group"]],
  ["revokeToken", platform.revokeToken, { ...group, token: "glpat-xxxxxxxxxxxxxxxxxxxx" }, ["group"]],
  ["createChildEpic", platform.createChildEpic, { ...group, epicIid: 1, title: "Child" }, ["group"]],
  ["deleteRegistryTag", platform.deleteRegistryTag, { ...project, repositoryId: 1, name: "latest" }, ["project", "name"]],
  ["deleteRegistryRepository", platform.deleteRegistryRepository, { ...project, repositoryId: 1 }, ["project"]],
  ["getProjectHooks", platform.getProjectHooks, project, ["project"]],
  ["getGroupHooks", platform.getGroupHooks, group, ["group"]],
  ["testHook", platform.testHook, { ...project, hookId: 1 }, ["project"]],
  ["getLabels", platform.getLabels, project, ["project"]],
  ["getProtectedBranches", platform.getProtectedBranches, project, ["project"]],
  ["getProtectedBranch", platform.getProtectedBranch, { ...project, name: "release/*" }, ["project", "name"]],
  ["getProtectedTags", platform.getProtectedTags, project, ["project"]],
  ["getProtectedTag", platform.getProtectedTag, { ...project, name: "v*" }, ["project", "name"]],
  ["getApprovalRules", platform.getApprovalRules, project, ["project"]],
  ["getGroupAccessTokens", platform.getGroupAccessTokens, group, ["group"]],
  ["getProjectAccessTokens", platform.getProjectAccessTokens, project, ["project"]],
  ["getDeployTokens", platform.getDeployTokens, project, ["project"]],
  ["getDeployTokens of a group", platform.getDeployTokens, group, ["group"]],
  ["getDeployKeys", platform.getDeployKeys, project, ["project"]],
  ["getProtectedEnvironments", platform.getProtectedEnvironments, project, ["project"]],
  ["getGroupProtectedEnvironments", platform.getGroupProtectedEnvironments, group, ["group"]],
  ["getProjectApprovalSettings", platform.getProjectApprovalSettings, project, ["project"]],
];

describe("dot segments are refused by data functions and actions before any request", () => {
  beforeAll(async () => {
    await server.configureProviders();
  });
  for (const [name, call, valid, properties] of callCases) {
    for (const property of properties) {
      it(`${name}: ${property}`, async () => {
        const requests = await server.requestsDuring(async () => {
          for (const form of DOT_FORMS) {
            const error = await call({ ...valid, [property]: form } as never).then(
              () => undefined,
              (e: unknown) => e,
            );
            expect(error, `${property}: ${JSON.stringify(form)}`).toBeInstanceOf(Error);
            const message = (error as Error).message;
            expect(message).toContain(`${property}: `);
            expect(message).toMatch(ruleFor(property, form));
            expect(message).toMatch(/No request was sent/);
            dotFormsRefused++;
          }
        });
        expect(requests).toEqual([]);
      });
    }
  }
});

afterAll(() => console.log(`dot segments: ${dotFormsRefused} values refused before any request (${DOT_FORMS.length} forms of each string that ends up in a path)`));

// ---------------------------------------------------------------------------
// The count

const total = Object.values(catalogue).reduce((sum, { cases }) => sum + cases.length, 0) + programLimits.length;

it("covers every resource, with at least 80 inputs", () => {
  for (const name of Object.keys(providers) as ResourceName[]) expect(catalogue[name].cases.length, name).toBeGreaterThan(0);
  expect(total).toBeGreaterThanOrEqual(80);
});

afterAll(() => {
  const resources = Object.keys(catalogue).length;
  const rejected = rejectedInCheck + rejectedInProgram;
  console.log(
    `bad-input catalogue: ${total} inputs across ${resources} resources; ${rejected === total ? "all" : `${rejected} of ${total}`} refused before any request ` +
      `(${rejectedInCheck} in check, ${rejectedInProgram} where the program declares them); ${requestsSent} requests sent`,
  );
});
