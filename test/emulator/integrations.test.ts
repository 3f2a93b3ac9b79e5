import { describe, expect, it } from "vitest";
import { EVENT_SWITCHES, groupIntegrationParams, integrationStore } from "../../src/emulator/areas/integrations/model";
import { INTEGRATION_SLUGS, integrationSettings, requiredSettings, SECRET_SETTINGS } from "../../src/resources/group-integration-catalogue";
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

// ---------------------------------------------------------------------------
// The slugs real servers accept at group level beyond the first families
// (doc/api/group_integrations.md, API::Helpers::IntegrationsHelpers, the models' validations).

/** A complete PUT body of each slug added with issue 14, and the settings its GET must show (secrets never). */
const NEW_SLUGS: Record<string, { body: Record<string, unknown>; shows: Record<string, unknown>; secrets: string[] }> = {
  jira: {
    body: { url: "https://jira.example.test", username: "bot", password: "jira-secret-1", project_keys: ["OPS", "WEB"], jira_auth_type: 0, commit_events: false },
    shows: { url: "https://jira.example.test", username: "bot", project_keys: ["OPS", "WEB"], jira_auth_type: 0 },
    secrets: ["jira-secret-1"],
  },
  zentao: {
    body: { url: "https://zentao.example.test", api_token: "zentao-secret-1", zentao_product_xid: "3" },
    shows: { url: "https://zentao.example.test", zentao_product_xid: "3" },
    secrets: ["zentao-secret-1"],
  },
  harbor: {
    body: { url: "https://harbor.example.test", project_name: "platform", username: "robot", password: "harbor-secret-1" },
    shows: { url: "https://harbor.example.test", project_name: "platform", username: "robot" },
    secrets: ["harbor-secret-1"],
  },
  "emails-on-push": { body: { recipients: "a@example.test b@example.test", disable_diffs: true }, shows: { recipients: "a@example.test b@example.test", disable_diffs: true }, secrets: [] },
  "pipelines-email": { body: { recipients: "a@example.test", branches_to_be_notified: "all" }, shows: { recipients: "a@example.test", branches_to_be_notified: "all" }, secrets: [] },
  confluence: { body: { confluence_url: "https://acme.atlassian.net/wiki" }, shows: { confluence_url: "https://acme.atlassian.net/wiki" }, secrets: [] },
  "external-wiki": { body: { external_wiki_url: "https://wiki.example.test" }, shows: { external_wiki_url: "https://wiki.example.test" }, secrets: [] },
  irker: { body: { recipients: "#ops", server_port: 6659 }, shows: { recipients: "#ops", server_port: 6659 }, secrets: [] },
  packagist: { body: { username: "acme", token: "packagist-secret-1" }, shows: { username: "acme" }, secrets: ["packagist-secret-1"] },
  pushover: {
    body: { api_key: "pushover-secret-1", user_key: "pushover-secret-2", priority: "0", device: "", sound: "" },
    shows: { priority: "0", device: "", sound: "" },
    secrets: ["pushover-secret-1", "pushover-secret-2"],
  },
  prometheus: {
    body: { api_url: "https://prometheus.example.test", google_iap_audience_client_id: "client.apps.example.test", google_iap_service_account_json: '{"secret":"prom-secret-1"}' },
    shows: { api_url: "https://prometheus.example.test", google_iap_audience_client_id: "client.apps.example.test" },
    secrets: ["prom-secret-1"],
  },
  "squash-tm": { body: { url: "https://squash.example.test/hook", token: "squash-secret-1" }, shows: { url: "https://squash.example.test/hook" }, secrets: ["squash-secret-1"] },
  "diffblue-cover": {
    body: { diffblue_license_key: "diffblue-secret-1", diffblue_access_token_name: "cover-bot", diffblue_access_token_secret: "diffblue-secret-2" },
    // The token's name is a text field: shown, although its name looks like a secret's.
    shows: { diffblue_access_token_name: "cover-bot" },
    secrets: ["diffblue-secret-1", "diffblue-secret-2"],
  },
  "mattermost-slash-commands": { body: { token: "mm-slash-secret-1" }, shows: {}, secrets: ["mm-slash-secret-1"] },
  "slack-slash-commands": { body: { token: "slack-slash-secret-1" }, shows: {}, secrets: ["slack-slash-secret-1"] },
};

describe("every slug real servers accept at group level", () => {
  for (const [slug, { body, shows, secrets }] of Object.entries(NEW_SLUGS)) {
    it(`${slug}: set up with 200, its settings shown and its secrets never, each required setting demanded, disabled with 204`, async () => {
      const put = await call(server.emulator, `${ACME}/${slug}`, { method: "PUT", body });
      expect(put.status, put.text).toBe(200);
      const got = await call(server.emulator, `${ACME}/${slug}`);
      expect(got.body).toMatchObject({ slug, active: true });
      expect(got.body.properties).toEqual(shows);
      for (const secret of secrets) expect(got.text).not.toContain(secret);
      for (const name of groupIntegrationParams()[slug]!.required) {
        const { [name]: _left, ...without } = body;
        const missing = await call(server.emulator, `${ACME}/${slug}`, { method: "PUT", body: without });
        expect(missing.body, name).toEqual({ error: `${name} is missing` });
      }
      expect((await call(server.emulator, `${ACME}/${slug}`, { method: "DELETE" })).status).toBe(204);
      expect((await call(server.emulator, `${ACME}/${slug}`)).body).toMatchObject({ active: false, properties: {} });
    });
  }

  it("the models' rules: Jira's username with basic authentication and its auth type, Harbor's project name and password, Confluence Cloud only", async () => {
    const jira = await call(server.emulator, `${ACME}/jira`, { method: "PUT", body: { url: "https://jira.example.test", password: "p" } });
    expect(jira.status, jira.text).toBe(400);
    expect(jira.body.message).toMatch(/^Failed to update integration\. \{username: \["can't be blank"\]\}/);
    const pat = await call(server.emulator, `${ACME}/jira`, { method: "PUT", body: { url: "https://jira.example.test", password: "p", jira_auth_type: 1 } });
    expect(pat.status).toBe(200);
    const authType = await call(server.emulator, `${ACME}/jira`, { method: "PUT", body: { url: "https://jira.example.test", password: "p", jira_auth_type: 2 } });
    expect(authType.body.message).toMatch(/jira_auth_type: \["is not included in the list"\]/);
    const harbor = await call(server.emulator, `${ACME}/harbor`, {
      method: "PUT",
      body: { url: "https://harbor.example.test", project_name: "Platform Team", username: "robot", password: "short" },
    });
    expect(harbor.body.message).toMatch(/project_name: \["is invalid"\].*password: \["is invalid"\]/);
    const confluence = await call(server.emulator, `${ACME}/confluence`, { method: "PUT", body: { confluence_url: "https://wiki.example.test" } });
    expect(confluence.body.message).toMatch(/confluence_url: \["URL must be to a Confluence Cloud Workspace hosted on atlassian.net"\]/);
    const url = await call(server.emulator, `${ACME}/external-wiki`, { method: "PUT", body: { external_wiki_url: "wiki" } });
    expect(url.body.message).toMatch(/external_wiki_url: \["must be a valid URL"\]/);
    const branches = await call(server.emulator, `${ACME}/emails-on-push`, { method: "PUT", body: { recipients: "a@example.test", branches_to_be_notified: "nightly" } });
    expect(branches.body.message).toMatch(/branches_to_be_notified/);
  });

  it("a URL that exposes secrets resets them: Harbor's url without the password is refused, Packagist's server drops the kept token", async () => {
    await call(server.emulator, `${ACME}/packagist`, { method: "PUT", body: { username: "acme", token: "t-1", server: "https://p1.example.test" } });
    const moved = await call(server.emulator, `${ACME}/packagist`, { method: "PUT", body: { username: "acme", server: "https://p2.example.test" } });
    expect(moved.body).toEqual({ error: "token is missing" }); // required on every PUT anyway
    await call(server.emulator, `${ACME}/squash-tm`, { method: "PUT", body: { url: "https://s1.example.test", token: "t-2" } });
    await call(server.emulator, `${ACME}/squash-tm`, { method: "PUT", body: { url: "https://s2.example.test" } });
    const squash = integrationStore.of(server.emulator.state).integrations.find((i) => i.slug === "squash-tm")!;
    expect(squash.properties.token).toBeUndefined();
  });

  it("the event switches each slug takes: Slack's commit, alert, job and vulnerability events, Jira's commit events and comment_on_event_enabled", async () => {
    const slack = await call(server.emulator, `${ACME}/slack`, {
      method: "PUT",
      body: { webhook: WEBHOOK, commit_events: false, alert_events: false, job_events: false, vulnerability_events: true, comment_on_event_enabled: true },
    });
    // comment_on_event_enabled is declared for Jira only: Grape drops it from Slack's PUT.
    expect(slack.body).toMatchObject({ commit_events: false, alert_events: false, job_events: false, vulnerability_events: true, comment_on_event_enabled: false });
    const jira = await call(server.emulator, `${ACME}/jira`, {
      method: "PUT",
      body: { url: "https://jira.example.test", username: "bot", password: "p", commit_events: false, merge_requests_events: false, comment_on_event_enabled: true },
    });
    expect(jira.body).toMatchObject({ commit_events: false, merge_requests_events: false, comment_on_event_enabled: true });
    // Switches a slug does not take are not its parameters: ignored, the column default stays.
    const mattermost = await call(server.emulator, `${ACME}/mattermost`, { method: "PUT", body: { webhook: WEBHOOK, alert_events: false } });
    expect(mattermost.body).toMatchObject({ alert_events: true });
  });
});

describe("the resource's slug table and the emulator's agree", () => {
  const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const params = groupIntegrationParams();

  it("on the slugs", () => {
    expect(Object.keys(params).sort()).toEqual([...INTEGRATION_SLUGS].sort());
  });

  for (const slug of INTEGRATION_SLUGS) {
    it(`${slug}: the settings, which are required, which are secret, and the event switches`, () => {
      const server = params[slug]!;
      const declared = integrationSettings(slug);
      const isEvent = (name: string) => EVENT_SWITCHES.includes(snake(name));
      const settings = declared.filter((name) => !isEvent(name) && name !== "commentOnEventEnabled");
      const events = declared.filter(isEvent);
      expect(settings.map(snake).sort()).toEqual([...server.settings].sort());
      expect(events.map(snake).sort()).toEqual([...server.events].sort());
      expect(declared.includes("commentOnEventEnabled")).toBe(server.commentOnEvent);
      const required = [...requiredSettings(slug)];
      expect(required.filter((name) => !isEvent(name)).map(snake).sort()).toEqual([...server.required].sort());
      expect(required.some(isEvent)).toBe(server.requiredEvents);
      // What the server never returns the resource keeps as applied (write-only): its secrets, and Bamboo's build key.
      const writeOnly = settings.filter((name) => SECRET_SETTINGS.includes(name) || name === "buildKey");
      expect(writeOnly.map(snake).sort()).toEqual([...server.secrets].sort());
    });
  }
});
