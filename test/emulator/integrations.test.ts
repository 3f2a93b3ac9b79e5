import { describe, expect, it } from "vitest";
import { integrationStore } from "../../src/emulator/routes/integrations";
import { call, useEmulator } from "./helpers";

const server = useEmulator();
const ACME = "/groups/acme/integrations";
const WEBHOOK = "https://chat.example.test/hooks/abc";

describe("setting up an integration (PUT)", () => {
  it("creates it active, returns 200 with the settings and never the secrets", async () => {
    const result = await call(server.emulator, `${ACME}/mattermost`, {
      method: "PUT",
      body: { webhook: WEBHOOK, channel: "ci", branches_to_be_notified: "protected", push_events: false, pipeline_channel: "https://chat.example.test/hooks/p" },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ slug: "mattermost", active: true, inherited: false, push_events: false, pipeline_events: true });
    expect(result.body.properties).toEqual({ channel: "ci", branches_to_be_notified: "protected" });
    expect(result.text).not.toContain("hooks/abc");
    expect(result.text).not.toContain("hooks/p");
  });

  it("requires the slug's required settings, secrets included, on every PUT", async () => {
    const result = await call(server.emulator, `${ACME}/mattermost`, { method: "PUT", body: { channel: "other" } });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: "webhook is missing" });
  });

  it("rejects invalid settings with UpdateService's 400", async () => {
    const bad = await call(server.emulator, `${ACME}/slack`, { method: "PUT", body: { webhook: "not a url", branches_to_be_notified: "nightly" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Failed to update integration\. .*webhook.*must be a valid URL.*branches_to_be_notified/);
    const tags = await call(server.emulator, `${ACME}/datadog`, { method: "PUT", body: { api_key: "k", datadog_tags: "team:platform\nbroken" } });
    expect(tags.body.message).toMatch(/datadog_tags/);
  });

  it("keeps an optional secret a PUT leaves out, but resets secrets when a URL that exposes them changes", async () => {
    await call(server.emulator, `${ACME}/slack`, { method: "PUT", body: { webhook: WEBHOOK, push_channel: "https://chat.example.test/p" } });
    await call(server.emulator, `${ACME}/slack`, { method: "PUT", body: { webhook: WEBHOOK, channel: "x" } });
    const slack = () => integrationStore.of(server.emulator.state).integrations.find((i) => i.slug === "slack")!;
    expect(slack().properties.push_channel).toBe("https://chat.example.test/p");
    await call(server.emulator, `${ACME}/drone-ci`, { method: "PUT", body: { drone_url: "https://drone.example.test", token: "t1" } });
    const changed = await call(server.emulator, `${ACME}/drone-ci`, { method: "PUT", body: { drone_url: "https://drone2.example.test" } });
    expect(changed.status).toBe(400);
    expect(changed.body).toEqual({ error: "token is missing" });
  });

  it("refuses slugs that exist only for projects with 400 Integration not available", async () => {
    const result = await call(server.emulator, `${ACME}/jenkins`, { method: "PUT", body: { jenkins_url: "https://j.example.test", project_name: "x" } });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ message: "400 Integration not available" });
  });

  it("use_inherited_settings takes the closest ancestor's settings, or fails when there is none", async () => {
    const none = await call(server.emulator, "/groups/beta/integrations/pumble", { method: "PUT", body: { webhook: WEBHOOK, use_inherited_settings: true } });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: "Default integration not found." });
    await call(server.emulator, `${ACME}/pumble`, { method: "PUT", body: { webhook: WEBHOOK, channel: "parent" } });
    const child = await call(server.emulator, "/groups/acme%2Fplatform/integrations/pumble", { method: "PUT", body: { webhook: WEBHOOK, use_inherited_settings: true } });
    expect(child.status).toBe(200);
    expect(child.body).toMatchObject({ inherited: true, properties: { channel: "parent" } });
  });
});

describe("reading, listing, deleting", () => {
  it("GET of one never configured is 404 Integration Not Found; an unknown slug is 400", async () => {
    const missing = await call(server.emulator, `${ACME}/asana`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Integration Not Found" });
    const unknown = await call(server.emulator, `${ACME}/nope`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: "slug does not have a valid value" });
  });

  it("DELETE resets the integration and leaves it inactive: still readable, no longer listed", async () => {
    await call(server.emulator, `${ACME}/redmine`, {
      method: "PUT",
      body: { project_url: "https://r.example.test/p", issues_url: "https://r.example.test/i/:id", new_issue_url: "https://r.example.test/new", push_events: false },
    });
    expect((await call(server.emulator, ACME)).body.map((i: { slug: string }) => i.slug)).toContain("redmine");
    const deleted = await call(server.emulator, `${ACME}/redmine`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const after = await call(server.emulator, `${ACME}/redmine`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ active: false, push_events: true, properties: {} });
    expect((await call(server.emulator, ACME)).body.map((i: { slug: string }) => i.slug)).not.toContain("redmine");
    expect((await call(server.emulator, `${ACME}/clickup`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("permissions", () => {
  it("needs a signed-in Maintainer of the group", async () => {
    expect((await call(server.emulator, ACME, { as: null })).status).toBe(401);
    expect((await call(server.emulator, ACME, { as: "dev" })).status).toBe(403);
    expect((await call(server.emulator, `${ACME}/pumble`, { as: "dev", method: "PUT", body: { webhook: WEBHOOK } })).status).toBe(403);
    expect((await call(server.emulator, ACME, { as: "maintainer" })).status).toBe(200);
    const outsider = await call(server.emulator, ACME, { as: "outsider" });
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ message: "404 Group Not Found" });
  });
});
