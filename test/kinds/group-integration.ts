import { FAMILY_OF, INTEGRATION_SLUGS, integrationSettings, type IntegrationSlug } from "../../src/resources/group-integration";
import type { KindTests, SecretsDeclaration } from "./index.mts";

const BOT_EVENTS = ["pushEvents", "issuesEvents", "confidentialIssuesEvents", "mergeRequestsEvents", "tagPushEvents", "noteEvents", "confidentialNoteEvents", "pipelineEvents", "wikiPageEvents"];

/** The non-secret settings each slug needs; its secrets are planted. */
function integrationArgs(slug: IntegrationSlug): Record<string, unknown> {
  const ci: Partial<Record<IntegrationSlug, Record<string, unknown>>> = {
    bamboo: { bambooUrl: "https://bamboo.example.com", buildKey: "PLAT-BUILD", username: "ci-bot" },
    teamcity: { teamcityUrl: "https://teamcity.example.com", buildType: "Platform_Build", username: "ci-bot" },
    "drone-ci": { droneUrl: "https://drone.example.com" },
    buildkite: { projectUrl: "https://buildkite.com/acme/platform" },
  };
  // The slugs of the other families that take a secret: their required settings besides it.
  const others: Partial<Record<IntegrationSlug, Record<string, unknown>>> = {
    jira: { url: "https://jira.example.com", username: "ci-bot" },
    zentao: { url: "https://zentao.example.com", zentaoProductXid: "7" },
    harbor: { url: "https://harbor.example.com", projectName: "platform", username: "robot" },
    packagist: { username: "acme" },
    pushover: { priority: "0", device: "", sound: "" },
    "diffblue-cover": { diffblueAccessTokenName: "cover-bot" },
    "squash-tm": { url: "https://squash.example.com/hook" },
  };
  switch (FAMILY_OF[slug]) {
    case "chat notifier":
      return { channel: "ci", pushEvents: false };
    case "messaging bot":
      return { room: "ops", ...Object.fromEntries(BOT_EVENTS.map((name) => [name, name === "pipelineEvents"])) };
    case "CI server":
      return ci[slug]!;
    case "monitoring":
      return slug === "prometheus" ? { apiUrl: "https://prometheus.example.com", googleIapAudienceClientId: "platform.apps.example.com" } : { datadogEnv: "ci" };
    default:
      return others[slug] ?? {};
  }
}

/** One declaration per slug, planted with the secret settings of its slug: the plan leaves out a slug that takes none (issue trackers). */
const perSlug = (): SecretsDeclaration[] =>
  INTEGRATION_SLUGS.map((slug) => ({ name: `integration-${slug}`, label: `GroupIntegration ${slug}`, args: { group: "acme", slug, ...integrationArgs(slug) }, fields: integrationSettings(slug) }));

export default {
  kind: "GroupIntegration",
  matrix: () => [
    {
      create: () => ({ group: "acme/platform", slug: "mattermost", webhook: "https://chat.example.test/hooks/m" }),
      update: { webhook: "https://chat.example.test/hooks/n" },
      without: { replace: "a group's integration of a slug exists once: moving it is a create elsewhere, as create rows" },
    },
  ],
  secrets: { declarations: perSlug() },
} satisfies KindTests;
