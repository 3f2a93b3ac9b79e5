/**
 * Project and group access tokens, deploy tokens and deploy keys driven by
 * @gitbeaker/rest (`ProjectAccessTokens`, `GroupAccessTokens`, `DeployTokens`,
 * `DeployKeys`): its calls reach the emulator's routes with the parameters it
 * sends, and the answers decode into its types.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { sshPublicKey } from "../support";
import { useEmulator } from "./helpers";

const server = useEmulator();
const api = (user = "alice") => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens[user]! });
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const status = (error: unknown) => (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;

describe("@gitbeaker/rest access tokens", () => {
  it("creates, shows, lists, rotates and revokes a project access token", async () => {
    const made = await api("maintainer").ProjectAccessTokens.create("acme/web", "gitbeaker", ["read_api"], inDays(30), { accessLevel: 30 });
    expect(made).toMatchObject({ name: "gitbeaker", scopes: ["read_api"], access_level: 30, active: true });
    expect(made.token).toMatch(/^glpat-/);
    expect(await api("maintainer").ProjectAccessTokens.show("acme/web", made.id)).toMatchObject({ id: made.id, name: "gitbeaker" });
    expect((await api("maintainer").ProjectAccessTokens.all("acme/web")).map((token) => token.id)).toContain(made.id);
    const later = inDays(60);
    const rotated = await api("maintainer").ProjectAccessTokens.rotate("acme/web", made.id, { expiresAt: later });
    expect(rotated).toMatchObject({ name: "gitbeaker", expires_at: later, active: true });
    expect(rotated.token).not.toBe(made.token);
    expect((await api("maintainer").ProjectAccessTokens.show("acme/web", made.id)).revoked).toBe(true);
    await api("maintainer").ProjectAccessTokens.revoke("acme/web", rotated.id);
    expect((await api("maintainer").ProjectAccessTokens.show("acme/web", rotated.id)).active).toBe(false);
  });

  it("a group access token; a Maintainer may not list the group's (401)", async () => {
    const made = await api().GroupAccessTokens.create("acme", "gitbeaker-group", ["read_registry"], inDays(10));
    expect(made.token).toMatch(/^glpat-/);
    expect(status(await api("maintainer").GroupAccessTokens.all("acme").catch((error: unknown) => error))).toBe(401);
    await api().GroupAccessTokens.revoke("acme", made.id);
  });
});

describe("@gitbeaker/rest deploy tokens and deploy keys", () => {
  it("creates, shows, lists and removes a project deploy token and a group one", async () => {
    const made = await api("maintainer").DeployTokens.create("gitbeaker", ["read_repository"], { projectId: "acme/web", expires_at: `${inDays(30)}T00:00:00Z` });
    expect(made.token).toMatch(/^gldt-/);
    expect(await api("maintainer").DeployTokens.show(made.id, { projectId: "acme/web" })).toMatchObject({ id: made.id, name: "gitbeaker", revoked: false });
    expect((await api("maintainer").DeployTokens.all({ projectId: "acme/web", active: true })).map((token) => token.id)).toContain(made.id);
    await api("maintainer").DeployTokens.remove(made.id, { projectId: "acme/web" });
    const group = await api().DeployTokens.create("gitbeaker-group", ["read_registry"], { groupId: "acme", username: "gitbeaker-puller" });
    expect(group.username).toBe("gitbeaker-puller");
    await api().DeployTokens.remove(group.id, { groupId: "acme" });
  });

  it("creates, edits, enables on another project and removes a deploy key", async () => {
    const key = sshPublicKey("gitbeaker");
    const made = await api().DeployKeys.create("acme/web", "gitbeaker", key, { canPush: true });
    expect(made).toMatchObject({ title: "gitbeaker", key, can_push: true });
    expect(await api().DeployKeys.edit("acme/web", made.id, { title: "renamed", canPush: false })).toMatchObject({ title: "renamed", can_push: false });
    expect(await api().DeployKeys.enable("acme/api", made.id)).toMatchObject({ id: made.id });
    expect((await api().DeployKeys.all({ projectId: "acme/api" })).map((one) => one.id)).toEqual([made.id]);
    await api().DeployKeys.remove("acme/web", made.id);
    await api().DeployKeys.remove("acme/api", made.id);
    expect(status(await api().DeployKeys.show("acme/api", made.id).catch((error: unknown) => error))).toBe(404);
  });
});
