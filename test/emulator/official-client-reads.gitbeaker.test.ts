/**
 * The real endpoints next to the specification's, driven by @gitbeaker/rest:
 * Epics.show, GroupAccessTokens.all, ProjectVulnerabilities.all,
 * ErrorTrackingSettings.show, Integrations.all/show, with a refusal each.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { call } from "./helpers";
import { freshEmulator } from "./registry-fixtures";

async function clients() {
  const server = await freshEmulator();
  return { server, as: (username: string) => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens[username]! }) };
}

const status = (code: number) => ({ cause: { response: { status: code } } });

describe("@gitbeaker/rest on the real endpoints", () => {
  it("Epics.show", async () => {
    const { as } = await clients();
    expect(await as("guest").Epics.show("acme", 2)).toMatchObject({ iid: 2, parent_id: 1, group_id: expect.any(Number) });
    await expect(as("guest").Epics.show("acme", 99)).rejects.toMatchObject(status(404));
  });

  it("GroupAccessTokens.all", async () => {
    const { as } = await clients();
    const tokens = await as("alice").GroupAccessTokens.all("acme");
    expect(tokens.map((t) => t.name)).toEqual(["acme-ci"]);
    await expect(as("maintainer").GroupAccessTokens.all("acme")).rejects.toMatchObject(status(401));
  });

  it("ProjectVulnerabilities.all", async () => {
    const { as } = await clients();
    const vulnerabilities = await as("dev").ProjectVulnerabilities.all("acme/web");
    expect(vulnerabilities.map((v) => v.id)).toEqual(expect.arrayContaining([7001, 7002]));
    await expect(as("alice").ProjectVulnerabilities.all("beta/site")).rejects.toMatchObject(status(403));
  });

  it("ErrorTrackingSettings.show", async () => {
    const { as } = await clients();
    expect(await as("maintainer").ErrorTrackingSettings.show("acme/web")).toMatchObject({ active: true, integrated: true });
    await expect(as("maintainer").ErrorTrackingSettings.show("acme/api")).rejects.toMatchObject(status(404));
  });

  it("Integrations.all and show: what the project inherits", async () => {
    const { server, as } = await clients();
    // gitbeaker has no group integrations: the group's is set up over plain HTTP.
    await call(server.emulator, "/groups/acme/integrations/slack", { as: "alice", method: "PUT", body: { webhook: "https://hooks.slack.test/T0/B0/x" } });
    const all = await as("maintainer").Integrations.all("acme/web");
    expect(all).toEqual([expect.objectContaining({ slug: "slack", inherited: true })]);
    expect(await as("maintainer").Integrations.show("acme/web", "slack")).toMatchObject({ slug: "slack", active: true });
    await expect(as("maintainer").Integrations.show("acme/web", "mattermost")).rejects.toMatchObject(status(404));
    await expect(as("dev").Integrations.all("acme/web")).rejects.toMatchObject(status(403));
  });
});
