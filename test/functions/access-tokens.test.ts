/** getGroupAccessTokens, getProjectAccessTokens, getDeployTokens and getDeployKeys against the emulator: never a token's value. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, getDeployKeys, getDeployTokens, getGroupAccessTokens, getProjectAccessTokens, getProjectAccessTokensOutput } from "pulumi-platform";
import { sshPublicKey, useEmulator } from "../support";

const server = useEmulator();
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  await server.configureProviders("alice");
});

describe("access tokens", () => {
  it("a project's and a group's, in camelCase, never their values; state filters", async () => {
    const expiresAt = inDays(20);
    const made = await server.as("alice").post<{ id: number; token: string }>(apiPath`/projects/${"acme/web"}/access_tokens`, { name: "listed", scopes: ["read_api"], expires_at: expiresAt });
    const tokens = await getProjectAccessTokens({ project: "acme/web" });
    expect(tokens.map((token) => token.name)).toEqual(expect.arrayContaining(["web-deploy", "listed"]));
    expect(tokens.find((token) => token.name === "listed")).toMatchObject({ id: made.id, scopes: ["read_api"], accessLevel: 40, active: true, revoked: false, expiresAt, resourceType: "project" });
    expect(JSON.stringify(tokens)).not.toContain(made.token);
    await server.as("alice").delete(apiPath`/projects/${"acme/web"}/access_tokens/${String(made.id)}`);
    expect((await getProjectAccessTokens({ project: "acme/web", state: "active" })).map((token) => token.name)).not.toContain("listed");
    expect((await getProjectAccessTokens({ project: "acme/web", state: "inactive" })).map((token) => token.name)).toContain("listed");
    expect((await getGroupAccessTokens({ group: "acme" })).map((token) => token.name)).toEqual(["acme-ci"]);
  });

  it("the Output form", async () => {
    const names = await new Promise<string[]>((resolve) => getProjectAccessTokensOutput({ project: "acme/web", state: "active" }).apply((tokens) => resolve(tokens.map((token) => token.name))));
    expect(names).toContain("web-deploy");
    expect(pulumi.Output.isInstance(getProjectAccessTokensOutput({ project: "acme/web" }))).toBe(true);
  });

  it("a Maintainer may not list a group's, and is told what is needed", async () => {
    await server.configureProviders("maintainer");
    try {
      const error = (await getGroupAccessTokens({ group: "acme" }).catch((caught: Error) => caught)) as Error;
      expect(error.message).toMatch(/getGroupAccessTokens: GET \/groups\/acme\/access_tokens answered 401 .*: either the token's user needs the Owner role on group acme and lacks it, or the server refused the token/);
    } finally {
      await server.configureProviders("alice");
    }
  });

  it("a state that is none is refused before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      await expect(getProjectAccessTokens({ project: "acme/web", state: "revoked" as "active" })).rejects.toThrow(/state: must be "active" or "inactive"/);
    });
    expect(requests).toEqual([]);
  });
});

describe("deploy tokens and keys", () => {
  it("a project's and a group's deploy tokens, never their values; active only", async () => {
    const made = await server.as("alice").post<{ id: number; token: string }>(apiPath`/projects/${"acme/web"}/deploy_tokens`, { name: "listed", scopes: ["read_repository"] });
    const tokens = await getDeployTokens({ project: "acme/web", active: true });
    expect(tokens.map((token) => token.name)).toEqual(["web-clone", "listed"]);
    expect(tokens[1]).toMatchObject({ id: made.id, username: `gitlab+deploy-token-${made.id}`, scopes: ["read_repository"], revoked: false, expired: false });
    expect(JSON.stringify(tokens)).not.toContain(made.token);
    expect((await getDeployTokens({ group: "acme" })).map((token) => token.name)).toEqual(["acme-registry-pull"]);
    await expect(getDeployTokens({ project: "acme/web", group: "acme" })).rejects.toThrow(/set exactly one of project and group/);
  });

  it("a project's deploy keys", async () => {
    const key = sshPublicKey("listed");
    await server.as("alice").post(apiPath`/projects/${"acme/web"}/deploy_keys`, { title: "listed", key, can_push: true });
    expect(await getDeployKeys({ project: "acme/web" })).toEqual([expect.objectContaining({ title: "listed", key, canPush: true, fingerprintSha256: expect.stringMatching(/^SHA256:/) })]);
  });
});
