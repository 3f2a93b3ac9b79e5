/**
 * The full example (examples/platform-team) as the emulator must hold it: a
 * summary of every object the example can touch, read straight from the
 * emulator's state (not through the API, so it is exact while faults are
 * injected and sees what the API hides: duplicates, stored secrets, upstreams
 * left without a registry), and the summary the example's declarations imply.
 *
 *     const before = platformTeamObjects(emulator);          // before the first `up`
 *     ...pulumi up...
 *     expectExactlyDeclared(emulator, before);                // no duplicate, no orphan, nothing missing
 *     ...pulumi destroy...
 *     expectAsBefore(emulator, before);                       // nothing left, prior settings given back
 *
 * Used by the example's end-to-end test and by the fault-injection tests.
 */
import { expect } from "vitest";
import { selfManagedSeed, type Emulator, type Seed } from "pulumi-platform/emulator";
// From the build, like the emulator the tests start (a store is found by name in that emulator's state).
import { applicationSettingsValues } from "../../dist/emulator/areas/application-settings";
import { badgeStore } from "../../dist/emulator/areas/badges";
import { settingsOf } from "../../dist/emulator/areas/groups/model";
import { integrationStore } from "../../dist/emulator/areas/integrations/model";
import { pipelineScheduleStore } from "../../dist/emulator/areas/pipeline-schedules/model";
import { samlGroupLinkStore } from "../../dist/emulator/areas/saml/group-links";
import { virtualRegistryStore } from "../../dist/emulator/areas/virtual-registries/model";
import { cleanupPolicyStore } from "../../dist/emulator/areas/virtual-registries/cleanup";

/** The example's directory under examples/. */
export const PLATFORM_TEAM_EXAMPLE = "platform-team";

/** What the example needs: ApplicationSettings exists on self-managed instances only; root (an administrator) runs it. */
export const platformTeamSeed: Seed = selfManagedSeed;

/** The secret stack config the tests set (the example has placeholders for each). */
export const platformTeamSecrets = {
  chatWebhook: "https://chat.example.com/hooks/e2e-platform-team-7d1c",
  datadogApiKey: "dd-e2e-platform-team-9f3a",
  deployToken: "deploy-e2e-platform-team-2b8e",
  dockerHubToken: "dckr_pat_e2e-platform-team-5c4d",
};

/** The example's config that shapes what it declares, with the example's defaults. */
export interface PlatformTeamConfig {
  developerRole: "developer" | "maintainer";
  ciHost: string;
  docsHost: string;
  chatChannel: string;
  trackerHost: string;
  nightlyCron: string;
  cleanupCadence: number;
  gracePeriodHours: number;
  termsText: string;
}

export const platformTeamDefaults: PlatformTeamConfig = {
  developerRole: "developer",
  ciHost: "ci.example.com",
  docsHost: "docs.example.com",
  chatChannel: "ci",
  trackerHost: "tracker.example.com",
  nightlyCron: "0 2 * * *",
  cleanupCadence: 7,
  gracePeriodHours: 48,
  termsText: "Use this instance for company work only.",
};

/** The stack config for a set of values (numbers as the strings `pulumi config set` takes). */
export function platformTeamConfig(config: Partial<PlatformTeamConfig>): Record<string, string> {
  return Object.fromEntries(Object.entries(config).map(([key, value]) => [key, String(value)]));
}

interface IntegrationSummary {
  group: string;
  slug: string;
  properties: Record<string, unknown>;
  events: Record<string, boolean>;
}
interface ScheduleSummary {
  project: string;
  description: string;
  ref: string;
  cron: string;
  cronTimezone: string;
  active: boolean;
  owner: string;
  variables: string[];
  inputs: unknown[];
}
interface UpstreamSummary {
  position: number;
  name: string;
  url: string;
  description: string | null;
  cacheValidityHours: number;
  username: string | null;
  password: string | null;
}
interface RegistrySummary {
  group: string;
  name: string;
  description: string | null;
  upstreams: UpstreamSummary[];
}
interface CleanupPolicySummary {
  group: string;
  cadence: number;
  enabled: boolean;
  keepNDaysAfterDownload: number;
  notifyOnSuccess: boolean;
  notifyOnFailure: boolean;
}

/**
 * Every object the example can touch, on the whole instance (so an object made
 * in the wrong place is an orphan here, not invisible): settings whole, and
 * every collection in full, sorted, without server ids and times.
 */
export interface PlatformTeamObjects {
  /** The settings of group acme, whole. */
  groupSettings: Record<string, unknown>;
  /** The instance's settings, whole. */
  applicationSettings: Record<string, unknown>;
  /** `<kind> <owner> <name> <link> <image>`, one per badge. */
  badges: string[];
  /** Active integrations, with their stored settings (secrets included: proof they reached the server). */
  integrations: IntegrationSummary[];
  /** `<group> <name> <access level> <provider>`, one per link. */
  samlLinks: string[];
  schedules: ScheduleSummary[];
  registries: RegistrySummary[];
  /** Upstreams no registry uses any more (an orphan the API cannot show). */
  unattachedUpstreams: string[];
  cleanupPolicies: CleanupPolicySummary[];
}

const byJson = <T>(items: T[]): T[] => [...items].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** What the emulator holds now, read from its state. */
export function platformTeamObjects(emulator: Emulator): PlatformTeamObjects {
  const { state } = emulator;
  const groupPath = (id: number) => {
    const group = state.groupById(id);
    return group ? state.groupFullPath(group) : `group ${id} (missing)`;
  };
  const projectPath = (id: number) => {
    const project = state.projectById(id);
    return project ? state.projectFullPath(project) : `project ${id} (missing)`;
  };
  const acme = state.groupByFullPath("acme")!;

  const badges = badgeStore
    .of(state)
    .badges.map((b) => `${b.kind} ${b.kind === "project" ? projectPath(b.sourceId) : groupPath(b.sourceId)} ${b.name} ${b.linkUrl} ${b.imageUrl}`);

  const integrations = integrationStore
    .of(state)
    .integrations.filter((i) => i.active)
    .map((i) => ({ group: groupPath(i.groupId), slug: i.slug, properties: i.properties, events: i.events }));

  const samlLinks = samlGroupLinkStore.of(state).links.map((l) => `${groupPath(l.groupId)} ${l.name} ${l.accessLevel} ${l.provider}`);

  const schedules = pipelineScheduleStore.of(state).schedules.map((s) => ({
    project: projectPath(s.projectId),
    description: s.description,
    ref: s.ref,
    cron: s.cron,
    cronTimezone: s.cronTimezone,
    active: s.active,
    owner: state.userById(s.ownerId)?.username ?? `user ${s.ownerId}`,
    variables: s.variables.map((v) => `${v.key}=${v.value}`).sort(),
    inputs: s.inputs,
  }));

  const store = virtualRegistryStore.of(state);
  const upstreamById = new Map(store.upstreams.map((u) => [u.id, u]));
  const registries = store.registries.map((r) => ({
    group: groupPath(r.groupId),
    name: r.name,
    description: r.description,
    upstreams: store.registryUpstreams
      .filter((link) => link.registryId === r.id)
      .sort((a, b) => a.position - b.position)
      .map((link) => {
        const u = upstreamById.get(link.upstreamId)!;
        return { position: link.position, name: u.name, url: u.url, description: u.description, cacheValidityHours: u.cacheValidityHours, username: u.username, password: u.password };
      }),
  }));
  const linked = new Set(store.registryUpstreams.map((link) => link.upstreamId));
  const unattachedUpstreams = store.upstreams.filter((u) => !linked.has(u.id)).map((u) => `${groupPath(u.groupId)} ${u.name} ${u.url}`);

  const cleanupPolicies = cleanupPolicyStore.of(state).policies.map((p) => ({
    group: groupPath(p.groupId),
    cadence: p.cadence,
    enabled: p.enabled,
    keepNDaysAfterDownload: p.keepNDaysAfterDownload,
    notifyOnSuccess: p.notifyOnSuccess,
    notifyOnFailure: p.notifyOnFailure,
  }));

  return {
    groupSettings: structuredClone(settingsOf(state, acme)) as unknown as Record<string, unknown>,
    applicationSettings: applicationSettingsValues(state),
    badges: badges.sort(),
    integrations: byJson(integrations),
    samlLinks: samlLinks.sort(),
    schedules: byJson(schedules),
    registries: byJson(registries),
    unattachedUpstreams: unattachedUpstreams.sort(),
    cleanupPolicies: byJson(cleanupPolicies),
  };
}

/**
 * What the emulator must hold after `up` of the example with this config and
 * these secrets: the settings as they were `before` with the declared ones
 * changed, and in every collection exactly the declared objects (the seed has
 * none of them; an object made by hand before is adopted, so it is one of them).
 */
export function declaredPlatformTeamObjects(
  before: PlatformTeamObjects,
  config: Partial<PlatformTeamConfig> = {},
  secrets: typeof platformTeamSecrets = platformTeamSecrets,
  user = "root",
): PlatformTeamObjects {
  const c = { ...platformTeamDefaults, ...config };
  const levels = { developer: 30, maintainer: 40 };
  return {
    groupSettings: {
      ...before.groupSettings,
      require_two_factor_authentication: true,
      two_factor_grace_period: c.gracePeriodHours,
      project_creation_level: "maintainer",
      subgroup_creation_level: "owner",
      request_access_enabled: false,
    },
    applicationSettings: {
      ...before.applicationSettings,
      signup_enabled: false,
      default_project_visibility: "private",
      default_group_visibility: "private",
      enforce_terms: true,
      terms: c.termsText,
    },
    badges: [
      `group acme docs https://${c.docsHost}/%{project_path} https://img.shields.io/badge/docs-online-blue`,
      `project acme/web pipeline https://${c.ciHost}/%{project_path}/-/pipelines?ref=%{default_branch} https://${c.ciHost}/%{project_path}/badges/%{default_branch}/pipeline.svg`,
    ].sort(),
    integrations: byJson<IntegrationSummary>([
      {
        group: "acme",
        slug: "mattermost",
        properties: { webhook: secrets.chatWebhook, channel: c.chatChannel, branches_to_be_notified: "protected", notify_only_broken_pipelines: true },
        events: { pipeline_events: true, push_events: false },
      },
      {
        group: "acme",
        slug: "custom-issue-tracker",
        properties: {
          project_url: `https://${c.trackerHost}/projects/platform`,
          issues_url: `https://${c.trackerHost}/issues/:id`,
          new_issue_url: `https://${c.trackerHost}/issues/new`,
        },
        events: {},
      },
      {
        group: "acme",
        slug: "datadog",
        properties: { api_key: secrets.datadogApiKey, datadog_site: "datadoghq.eu", datadog_env: "ci", datadog_tags: "team:platform" },
        events: { pipeline_events: true, job_events: true },
      },
    ]),
    samlLinks: [`acme platform-developers ${levels[c.developerRole]} null`, "acme platform-leads 40 null"],
    schedules: [
      {
        project: "acme/web",
        description: "Nightly build and deploy",
        ref: "refs/heads/main",
        cron: c.nightlyCron,
        cronTimezone: "Europe/Berlin",
        active: true,
        owner: user,
        variables: ["DEPLOY_ENVIRONMENT=staging", `DEPLOY_TOKEN=${secrets.deployToken}`],
        inputs: [{ name: "run_e2e", value: true }],
      },
    ],
    registries: [
      {
        group: "acme",
        name: "containers",
        description: "Pull-through cache for CI images",
        upstreams: [
          {
            position: 1,
            name: "Docker Hub",
            url: "https://registry-1.docker.io",
            description: null,
            cacheValidityHours: 24,
            username: "platform-puller",
            password: secrets.dockerHubToken,
          },
          { position: 2, name: "Team mirror", url: "https://mirror.example.com", description: null, cacheValidityHours: 24, username: null, password: null },
        ],
      },
    ],
    unattachedUpstreams: [],
    cleanupPolicies: [{ group: "acme", cadence: c.cleanupCadence, enabled: true, keepNDaysAfterDownload: 30, notifyOnSuccess: false, notifyOnFailure: true }],
  };
}

/** After `up`: the emulator holds exactly the declared objects (no duplicate, no orphan, nothing missing) and no other change. */
export function expectExactlyDeclared(
  emulator: Emulator,
  before: PlatformTeamObjects,
  config: Partial<PlatformTeamConfig> = {},
  secrets: typeof platformTeamSecrets = platformTeamSecrets,
): void {
  expect(platformTeamObjects(emulator)).toEqual(declaredPlatformTeamObjects(before, config, secrets));
}

/** After `destroy`: nothing the example made is left, and the settings it managed have their prior values back. */
export function expectAsBefore(emulator: Emulator, before: PlatformTeamObjects): void {
  expect(platformTeamObjects(emulator)).toEqual(before);
}

/** The number of objects the example declares (for reports: "objects checked"). */
export function declaredObjectCount(objects: PlatformTeamObjects): number {
  const settings = 2; // the group's and the instance's
  const upstreams = objects.registries.reduce((sum, registry) => sum + registry.upstreams.length, 0);
  return (
    settings +
    objects.badges.length +
    objects.integrations.length +
    objects.samlLinks.length +
    objects.schedules.length +
    objects.registries.length +
    upstreams +
    objects.cleanupPolicies.length
  );
}
