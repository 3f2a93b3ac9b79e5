import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const integration = providers.GroupIntegration;
const WEBHOOK = "https://chat.example.test/hooks/secret-abc123";

/** Each test uses its own slug on acme, so tests never see each other's integrations. */
const chat = (overrides: Record<string, unknown> = {}) => ({
  group: "acme",
  slug: "mattermost",
  webhook: WEBHOOK,
  channel: "ci",
  branchesToBeNotified: "protected",
  pushEvents: false,
  pipelineEvents: true,
  ...overrides,
});

async function create(inputs: Record<string, unknown>) {
  const checked = await integration.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await integration.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (path: string) => server.as().get<Record<string, any>>(path);

beforeAll(async () => {
  await server.configureProviders();
});

describe("lifecycle", () => {
  it("create looks first, then sets it up with one PUT; the webhook is never in the outputs' server values", async () => {
    let created: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => (created = await create(chat())));
    expect(requests).toEqual([
      { method: "GET", path: "/api/v4/groups/acme/integrations/mattermost", status: 404 },
      { method: "PUT", path: "/api/v4/groups/acme/integrations/mattermost", status: 200 },
    ]);
    const { id, outs, inputs } = created!;
    expect(id).toBe("groups/acme/integrations/mattermost");
    expect(outs).toMatchObject({ slug: "mattermost", channel: "ci", branchesToBeNotified: "protected", pushEvents: false, title: "Mattermost notifications", active: true });
    expect(outs.webhook).toBe(WEBHOOK); // kept as applied, marked secret by the class
    expect(JSON.stringify(await live(apiPath`/groups/${"acme"}/integrations/${"mattermost"}`))).not.toContain("secret-abc123");
    // A second preview shows nothing, and sends nothing.
    const diffRequests = await server.requestsDuring(async () => expect(await integration.diff(id, outs, inputs)).toMatchObject({ changes: false, replaces: [] }));
    expect(diffRequests).toEqual([]);
  });

  it("a settings change updates in place; an unchanged webhook is sent only because the server requires it", async () => {
    const { id, outs, inputs } = await create(chat({ slug: "slack" }));
    const changed = { ...inputs, channel: "deployments", pushEvents: true };
    expect(await integration.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(async () => {
      const updated = await integration.update(id, outs, changed);
      expect(updated.outs).toMatchObject({ channel: "deployments", pushEvents: true });
    });
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/groups/acme/integrations/slack", status: 200 }]);
    expect((await live("/groups/acme/integrations/slack")).properties.channel).toBe("deployments");
  });

  it("an unchanged optional secret is not resent, a changed one is", async () => {
    const { id, outs, inputs } = await create(chat({ slug: "discord", pipelineChannel: "https://chat.example.test/hooks/pipeline-1" }));
    // The server never shows it: look at the emulator's own record.
    type Stored = { integrations: { slug: string; properties: Record<string, unknown> }[] };
    const stored = () => (server.emulator.state.toJSON().stores.integrations as Stored).integrations.find((i) => i.slug === "discord")!.properties;
    const renamed = { ...inputs, channel: "renamed" };
    const afterRename = (await integration.update(id, outs, renamed)).outs;
    expect(stored().pipeline_channel).toBe("https://chat.example.test/hooks/pipeline-1");
    await integration.update(id, afterRename, { ...renamed, pipelineChannel: "https://chat.example.test/hooks/pipeline-2" });
    expect(stored().pipeline_channel).toBe("https://chat.example.test/hooks/pipeline-2");
  });

  it("a different group or slug replaces it", async () => {
    const { id, outs, inputs } = await create(chat({ slug: "pumble" }));
    expect(await integration.diff(id, outs, { ...inputs, group: "beta" })).toMatchObject({ changes: true, replaces: ["group"], deleteBeforeReplace: false });
    expect(await integration.diff(id, outs, { ...inputs, slug: "hangouts-chat" })).toMatchObject({ replaces: ["slug"] });
  });

  it("refresh shows an out-of-band change, and an out-of-band delete (reset) as gone", async () => {
    const { id, outs, inputs } = await create(chat({ slug: "webex-teams" }));
    await server.as().put("/groups/acme/integrations/webex-teams", { webhook: WEBHOOK, channel: "elsewhere" });
    const requests = await server.requestsDuring(async () => {
      const refreshed = await integration.read(id, outs);
      expect(refreshed.props).toMatchObject({ channel: "elsewhere", webhook: WEBHOOK });
      expect(await integration.diff(id, refreshed.props!, inputs)).toMatchObject({ changes: true, replaces: [] });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/groups/acme/integrations/webex-teams", status: 200 }]);
    await server.as().delete("/groups/acme/integrations/webex-teams");
    expect(await integration.read(id, outs)).toEqual({ id: "" });
  });

  it("delete disables and resets it with one request; deleting again succeeds", async () => {
    const { id, outs } = await create(chat({ slug: "unify-circuit" }));
    const requests = await server.requestsDuring(() => integration.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: "/api/v4/groups/acme/integrations/unify-circuit", status: 204 }]);
    expect(await live("/groups/acme/integrations/unify-circuit")).toMatchObject({ active: false, properties: {} });
    await expect(integration.delete(id, outs)).resolves.toBeUndefined();
  });

  it("an issue tracker and a CI server work the same way", async () => {
    const tracker = await create({ group: "acme", slug: "custom-issue-tracker", projectUrl: "https://t.example.test/p", issuesUrl: "https://t.example.test/i/:id", newIssueUrl: "https://t.example.test/new" });
    expect(tracker.outs).toMatchObject({ issuesUrl: "https://t.example.test/i/:id", active: true });
    const ci = await create({ group: "acme", slug: "bamboo", bambooUrl: "https://bamboo.example.test", buildKey: "KEY", username: "ci", password: "pw-1234" });
    // The server never returns build_key (its name looks secret to it): the applied value is kept. An undefined
    // output would make the engine fail the create after the PUT ("Unexpected struct type"), orphaning the integration.
    expect(ci.outs.buildKey).toBe("KEY");
    // The server resets secrets when the URL changes: the password goes with the new URL.
    const body = await server.requestsDuring(() => integration.update(ci.id, ci.outs, { ...ci.inputs, bambooUrl: "https://bamboo2.example.test" }));
    expect(body).toEqual([{ method: "PUT", path: "/api/v4/groups/acme/integrations/bamboo", status: 200 }]);
  });
});

describe("adoption and errors", () => {
  it("create of an integration already active outside the stack fails and suggests adoptExisting", async () => {
    await server.as().put("/groups/acme/integrations/microsoft-teams", { webhook: "https://teams.example.test/old" });
    const checked = await integration.check({}, chat({ slug: "microsoft-teams" }));
    await expect(integration.create(checked.inputs)).rejects.toThrow(/already active on group acme.*adoptExisting: true/);
  });

  it("adoptExisting takes it over with one GET and one PUT that carries the secrets", async () => {
    await server.as().put("/groups/acme/integrations/hangouts-chat", { webhook: "https://chat.example.test/old", channel: "old" });
    let adopted: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => (adopted = await create(chat({ slug: "hangouts-chat", adoptExisting: true }))));
    expect(requests.map((r) => r.method)).toEqual(["GET", "PUT"]);
    expect(adopted!.id).toBe("groups/acme/integrations/hangouts-chat");
    expect((await live("/groups/acme/integrations/hangouts-chat")).properties.channel).toBe("ci");
    expect(await integration.diff(adopted!.id, adopted!.outs, adopted!.inputs)).toMatchObject({ changes: false });
  });
});
