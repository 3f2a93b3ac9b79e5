/** The group-integrations example through the end-to-end steps (see scenario.ts). */
import { expect } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import type { Emulator } from "pulumi-platform/emulator";
// From the build, like the emulator the scenario starts (a store is found by name in that emulator's state).
import { integrationStore } from "../../dist/emulator/areas/integrations/model";
import { describeExample } from "./scenario";

interface LiveIntegration {
  id: number;
  slug: string;
  active: boolean;
  inherited: boolean;
  push_events: boolean;
  tag_push_events: boolean;
  pipeline_events: boolean;
  merge_requests_events: boolean;
  properties: Record<string, unknown>;
}

const MATTERMOST_WEBHOOK = "https://chat.example.com/hooks/e2e-mattermost-secret";
const SLACK_WEBHOOK = "https://hooks.slack.com/services/T000/B000/e2e-slack-secret";
const HAND_MADE_SLACK_WEBHOOK = "https://hooks.slack.com/services/T000/B000/hand-made";

/** The active integrations of a group, each with its settings (the list shows active ones only, without settings). */
async function integrations(api: PlatformClient, group = "acme"): Promise<Record<string, LiveIntegration>> {
  const active = await api.list<{ slug: string }>(apiPath`/groups/${group}/integrations`);
  const entries = await Promise.all(active.map(async ({ slug }) => [slug, await api.get<LiveIntegration>(apiPath`/groups/${group}/integrations/${slug}`)] as const));
  return Object.fromEntries(entries);
}

/** The webhook the server holds (the API never shows it): proves the write-only secret reached the server. */
const storedWebhook = (emulator: Emulator, slug: string) =>
  integrationStore.of(emulator.state).integrations.find((i) => i.groupId === emulator.state.groupByFullPath("acme")!.id && i.slug === slug)?.properties.webhook;

let handMade: LiveIntegration;

describeExample({
  example: "group-integrations",
  secrets: { mattermostWebhook: MATTERMOST_WEBHOOK, slackWebhook: SLACK_WEBHOOK },

  async snapshot({ api }) {
    return { acme: await integrations(api), beta: await integrations(api, "beta") };
  },

  async prepare({ api }) {
    // A Slack notifier set up by hand before the program existed; the program declares it with adoptExisting.
    handMade = await api.put<LiveIntegration>(apiPath`/groups/${"acme"}/integrations/slack`, {
      webhook: HAND_MADE_SLACK_WEBHOOK,
      channel: "#general",
      push_events: true,
      tag_push_events: false,
    });
  },

  async verifyCreated({ api, emulator }) {
    const live = await integrations(api);
    expect(Object.keys(live).sort()).toEqual(["custom-issue-tracker", "external-wiki", "mattermost", "slack"]);
    expect(live.mattermost).toMatchObject({
      inherited: false,
      pipeline_events: true,
      push_events: false,
      merge_requests_events: true,
      properties: { channel: "ci", branches_to_be_notified: "protected", notify_only_broken_pipelines: true },
    });
    // Secrets are never shown by the server.
    expect(live.mattermost!.properties).not.toHaveProperty("webhook");
    expect(storedWebhook(emulator, "mattermost")).toBe(MATTERMOST_WEBHOOK);
    expect(live["custom-issue-tracker"]!.properties).toEqual({
      project_url: "https://tracker.example.com/projects/platform",
      issues_url: "https://tracker.example.com/issues/:id",
      new_issue_url: "https://tracker.example.com/issues/new",
    });
    expect(live["external-wiki"]).toMatchObject({ title: "External wiki", properties: { external_wiki_url: "https://wiki.example.com/platform" } });
    expect(await integrations(api, "beta")).toEqual({});
  },

  async verifyAdopted({ api, emulator }) {
    // Taken over, not reset and set up again: the same record, now with the declared settings and webhook.
    const slack = await api.get<LiveIntegration>(apiPath`/groups/${"acme"}/integrations/slack`);
    expect(slack).toMatchObject({ id: handMade.id, active: true, push_events: false, tag_push_events: true, properties: { channel: "#releases" } });
    expect(storedWebhook(emulator, "slack")).toBe(SLACK_WEBHOOK);
  },

  change: {
    config: { chatChannel: "deploys", notifyBranches: "all", trackerHost: "issues.example.com" },
    expect: {
      mattermost: { op: "update", changed: ["branchesToBeNotified", "channel"] },
      tracker: { op: "update", changed: ["issuesUrl", "newIssueUrl", "projectUrl"] },
    },
    async verify({ api, emulator }) {
      const live = await integrations(api);
      expect(Object.keys(live).sort()).toEqual(["custom-issue-tracker", "external-wiki", "mattermost", "slack"]);
      expect(live.mattermost!.properties).toMatchObject({ channel: "deploys", branches_to_be_notified: "all" });
      // The update resent the required webhook; the adopted Slack notifier kept its own.
      expect([storedWebhook(emulator, "mattermost"), storedWebhook(emulator, "slack")]).toEqual([MATTERMOST_WEBHOOK, SLACK_WEBHOOK]);
      expect(live["custom-issue-tracker"]!.properties).toEqual({
        project_url: "https://issues.example.com/projects/platform",
        issues_url: "https://issues.example.com/issues/:id",
        new_issue_url: "https://issues.example.com/issues/new",
      });
    },
  },

  drift: {
    async apply({ api }) {
      // Someone repoints the notifier by hand (the webhook is required on every PUT) and disables the tracker.
      await api.put(apiPath`/groups/${"acme"}/integrations/mattermost`, { webhook: MATTERMOST_WEBHOOK, channel: "town-square", pipeline_events: false });
      await api.delete(apiPath`/groups/${"acme"}/integrations/custom-issue-tracker`);
    },
    expect: {
      mattermost: { op: "update", changed: ["channel", "pipelineEvents"] },
      tracker: { op: "create" },
    },
    async verify({ api }) {
      const live = await integrations(api);
      expect(Object.keys(live).sort()).toEqual(["custom-issue-tracker", "external-wiki", "mattermost", "slack"]);
      expect(live.mattermost).toMatchObject({ pipeline_events: true, properties: { channel: "deploys", branches_to_be_notified: "all" } });
      expect(live["custom-issue-tracker"]!.properties.project_url).toBe("https://issues.example.com/projects/platform");
    },
  },
});
