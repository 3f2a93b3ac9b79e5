/**
 * getGroupIntegrations and getGroupIntegration against the emulator. The list
 * is not paginated on real servers (lib/api/integrations.rb presents
 * `integrations.active` without `paginate`) and a group has at most one
 * integration per slug, a few dozen: it is one request, never several pages.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { getGroupIntegration, getGroupIntegrationOutput, getGroupIntegrations, getGroupIntegrationsOutput } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const WEBHOOK = "https://hooks.slack.example.test/services/T000/B000/planted-secret";
const seed: Seed = {
  ...defaultSeed,
  integrations: {
    acme: [
      { slug: "slack", properties: { webhook: WEBHOOK, channel: "#deploys", branches_to_be_notified: "protected" }, events: { push_events: false, pipeline_events: true } },
      { slug: "datadog", properties: { api_key: "dd-planted-key", datadog_site: "datadoghq.eu", datadog_env: "prod" } },
      { slug: "custom-issue-tracker", properties: { project_url: "https://issues.example.test/acme", issues_url: "https://issues.example.test/acme/:id", new_issue_url: "https://issues.example.test/acme/new" } },
      // Configured once, then disabled: found, inactive, settings reset.
      { slug: "redmine", active: false },
    ],
  },
};
const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await new Promise<T>((resolve) => output.apply((inner) => resolve(inner)));
  return { value, secret: await pulumi.isSecret(output) };
}

describe("getGroupIntegrations", () => {
  it("the group's active integrations with their switches, in one request", async () => {
    let list: Awaited<ReturnType<typeof getGroupIntegrations>> = [];
    const requests = await server.requestsDuring(async () => {
      list = await getGroupIntegrations({ group: "acme" });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/groups/acme/integrations", status: 200 }]);
    expect(list.map((integration) => integration.slug)).toEqual(["slack", "datadog", "custom-issue-tracker"]);
    const slack = list[0]!;
    expect(slack).toMatchObject({ id: expect.any(Number), title: "Slack notifications", active: true, pushEvents: false, pipelineEvents: true, inherited: false, commentOnEventEnabled: false });
    expect(slack).toHaveProperty("createdAt");
    expect(slack).toHaveProperty("vulnerabilityEvents");
    expect(slack).not.toHaveProperty("properties");
  });

  it("a group with none is an empty list; the Output form holds no secret", async () => {
    expect(await getGroupIntegrations({ group: "acme/platform" })).toEqual([]);
    const { value, secret } = await settle(getGroupIntegrationsOutput({ group: "acme" }));
    expect(value).toHaveLength(3);
    expect(secret).toBe(false);
  });

  it("a Developer is refused, and told the role it needs", async () => {
    await server.configureProviders("dev");
    try {
      await expect(getGroupIntegrations({ group: "acme" })).rejects.toThrow(/getGroupIntegrations: could not read the integrations of group acme: .*403.*at least the Maintainer role/);
    } finally {
      await server.configureProviders("maintainer");
    }
  });

  it("a bad group sends nothing", async () => {
    const mark = server.emulator.mark();
    await expect(getGroupIntegrations({ group: "acme group" as never })).rejects.toThrow(/getGroupIntegrations: invalid arguments: group: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("getGroupIntegration", () => {
  it("one integration with its settings camelCased; the server keeps the webhook to itself", async () => {
    const slack = await getGroupIntegration({ group: "acme", slug: "slack" });
    expect(slack).toMatchObject({ slug: "slack", active: true, properties: { channel: "#deploys", branchesToBeNotified: "protected" } });
    expect(JSON.stringify(slack)).not.toContain("planted-secret");
    const { secret } = await settle(getGroupIntegrationOutput({ group: "acme", slug: "datadog" }));
    expect(secret).toBe(false);
  });

  it("a server that shows a webhook or a key makes the Output form secret", async () => {
    const real = await getGroupIntegration({ group: "acme", slug: "slack" });
    server.emulator.inject({ method: "GET", path: "/api/v4/groups/acme/integrations/slack", status: 200, body: { ...(toWire(real) as object), properties: { webhook: WEBHOOK, channel: "#deploys" } } });
    const { value, secret } = await settle(getGroupIntegrationOutput({ group: "acme", slug: "slack" }));
    expect(value.properties).toEqual({ webhook: WEBHOOK, channel: "#deploys" });
    expect(secret).toBe(true);
  });

  it("each credential the resource keeps secret makes the Output form secret too, when a server shows it", async () => {
    const real = await getGroupIntegration({ group: "acme", slug: "slack" });
    // Every secret setting of the GroupIntegration resource, as its definition derives them.
    const { definitions } = await import("../../dist/resources/index.js");
    const fields = (definitions as Record<string, { fields: Record<string, { secret?: boolean }> }>).GroupIntegration!.fields;
    const credentials = Object.keys(fields).filter((name) => fields[name]!.secret);
    expect(credentials).toEqual(expect.arrayContaining(["webhook", "alertChannel", "incidentChannel", "apiToken", "userKey", "googleIapServiceAccountJson"]));
    for (const name of credentials) {
      const snake = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      server.emulator.inject({ method: "GET", path: "/api/v4/groups/acme/integrations/slack", status: 200, body: { ...(toWire(real) as object), properties: { [snake]: "planted" } } });
      expect((await settle(getGroupIntegrationOutput({ group: "acme", slug: "slack" }))).secret, name).toBe(true);
    }
  });

  it("a disabled integration is found, inactive, its settings reset", async () => {
    expect(await getGroupIntegration({ group: "acme", slug: "redmine" })).toMatchObject({ slug: "redmine", active: false, properties: {} });
  });

  it("one never configured is a 404 that names it and says what to do", async () => {
    await expect(getGroupIntegration({ group: "acme", slug: "mattermost" })).rejects.toThrow(
      /getGroupIntegration: could not read the mattermost integration of group acme: GET \/groups\/acme\/integrations\/mattermost answered 404 \(404 Integration Not Found\): .*never configured on this group/,
    );
  });

  it("a slug the server does not know is its 400; a malformed one is refused before any request", async () => {
    await expect(getGroupIntegration({ group: "acme", slug: "no-such-thing" })).rejects.toThrow(/getGroupIntegration: could not read the no-such-thing integration of group acme\..*slug does not have a valid value/);
    const mark = server.emulator.mark();
    await expect(getGroupIntegration({ group: "acme", slug: "Slack Notifications" })).rejects.toThrow(/slug: must be an integration's slug/);
    await expect(getGroupIntegration({ group: "acme" } as never)).rejects.toThrow(/slug: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("a Developer is refused", async () => {
    await server.configureProviders("dev");
    try {
      await expect(getGroupIntegration({ group: "acme", slug: "slack" })).rejects.toThrow(/403.*at least the Maintainer role/);
    } finally {
      await server.configureProviders("maintainer");
    }
  });
});

/** An integration as the API sends it (snake_case), from a camelCased result. */
function toWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toWire);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), toWire(inner)]));
}
