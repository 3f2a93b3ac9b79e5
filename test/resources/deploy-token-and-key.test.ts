/**
 * DeployToken and DeployKey through the provider, as the engine calls it,
 * against the emulator: the token a secret output known from the create,
 * every input of a token replacing it, a key validated at preview, enabled
 * on a second project as the same key, updated in place, and deleted from
 * one project only; imports and refusals.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { sshPublicKey, useEmulator } from "../support";

const server = useEmulator();
const deployToken = providers.DeployToken;
const deployKey = providers.DeployKey;
type Props = Record<string, unknown>;
type Provider = typeof deployToken;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function create(provider: Provider, inputs: Props) {
  const checked = await provider.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await provider.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Props, outs: created.outs as Props };
}

async function reasonsOf(provider: Provider, declared: Props): Promise<string> {
  return ((await provider.check({}, declared)).failures ?? []).map((failure) => failure.reason).join("\n");
}

beforeAll(async () => {
  await server.configureProviders("alice");
});

describe("DeployToken", () => {
  it("create: the token once, secret; a refresh keeps it; delete destroys it", async () => {
    const made = await create(deployToken, { project: "acme/web", name: "pull", scopes: ["read_registry", "read_repository"], expiresAt: inDays(30) });
    expect(made.id).toMatch(/^projects\/acme%2Fweb\/deploy_tokens\/\d+$/);
    expect(String(made.outs.token)).toMatch(/^gldt-/);
    expect(made.outs).toMatchObject({ tokenUsername: `gitlab+deploy-token-${made.outs.tokenId}`, expired: false });
    const { definitions } = await import("../../dist/resources/index.js");
    expect((definitions.DeployToken.outputs as Record<string, { secret?: boolean }>).token?.secret).toBe(true);
    const read = await deployToken.read(made.id, made.outs);
    expect(read.props).toMatchObject({ token: made.outs.token, tokenId: made.outs.tokenId });
    // The same scopes in another order, the same instant written otherwise: no change.
    expect(await deployToken.diff(made.id, made.outs, { ...made.inputs, scopes: ["read_repository", "read_registry"], expiresAt: `${made.inputs.expiresAt}T00:00:00.000Z` })).toMatchObject({ changes: false });
    await deployToken.delete(made.id, made.outs);
    expect(await deployToken.read(made.id, made.outs).catch(() => ({ id: "" }))).toEqual({ id: "" });
  });

  it("every input replaces it; a group's token with a username", async () => {
    const made = await create(deployToken, { group: "acme", name: "group-pull", scopes: ["read_registry"], username: "acme-puller" });
    expect(made.outs.tokenUsername).toBe("acme-puller");
    for (const change of [{ name: "other" }, { scopes: ["write_registry"] }, { expiresAt: inDays(10) }, { username: "other" }]) {
      expect((await deployToken.diff(made.id, made.outs, { ...made.inputs, ...change })).replaces).toEqual(Object.keys(change));
    }
    await deployToken.delete(made.id, made.outs);
  });

  it("import: taken over by id; its value cannot be known", async () => {
    const existing = await server.as("alice").post<{ id: number }>(apiPath`/projects/${"acme/web"}/deploy_tokens`, { name: "by-hand", scopes: ["read_repository"] });
    const id = `projects/acme%2Fweb/deploy_tokens/${existing.id}`;
    const checked = await deployToken.check({}, { project: "acme/web", name: "by-hand", scopes: ["read_repository"], __import: id });
    const created = await deployToken.create(checked.inputs);
    expect(created.id).toBe(id);
    expect(created.outs).not.toHaveProperty("token");
    // The outputs cross the engine's wire as a protobuf Struct, which has no undefined.
    expect(() => Struct.fromJavaScript(created.outs as never)).not.toThrow();
    await deployToken.delete(created.id, created.outs);
  });

  it("refused at preview: the owner, the scopes, the username, a past expiry", async () => {
    const base = { project: "acme/web", name: "x", scopes: ["read_registry"] };
    expect(await reasonsOf(deployToken, { ...base, group: "acme" })).toMatch(/set exactly one of project and group/);
    expect(await reasonsOf(deployToken, { ...base, scopes: ["api"] })).toMatch(/scopes\.0: must be among read_repository/);
    expect(await reasonsOf(deployToken, { ...base, username: "with space" })).toMatch(/username: may contain only letters/);
    expect(await reasonsOf(deployToken, { ...base, expiresAt: "2020-01-01" })).toMatch(/expiresAt: must be in the future/);
    await server.configureProviders("dev", { "platform:verifyAtPreview": "true" });
    try {
      expect(await reasonsOf(deployToken, base)).toMatch(/Maintainer role/);
    } finally {
      await server.configureProviders("alice");
    }
  });
});

describe("DeployKey", () => {
  it("create, update in place, the same key enabled on a second project, delete from one project only", async () => {
    const key = sshPublicKey("ci@acme");
    const web = await create(deployKey, { project: "acme/web", title: "ci", key, canPush: true });
    expect(web.id).toMatch(/^projects\/acme%2Fweb\/deploy_keys\/\d+$/);
    expect(web.outs).toMatchObject({ keyId: expect.any(Number), canPush: true, fingerprintSha256: expect.stringMatching(/^SHA256:/) });
    const diff = await deployKey.diff(web.id, web.outs, { ...web.inputs, canPush: false });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const updated = (await deployKey.update!(web.id, web.outs, { ...web.inputs, canPush: false })).outs as Props;
    expect(updated.canPush).toBe(false);
    // The same key on acme/api: one key, enabled on both.
    const api = await create(deployKey, { project: "acme/api", title: "ci", key, canPush: true });
    expect(api.outs.keyId).toBe(web.outs.keyId);
    expect((await server.as().get<{ can_push: boolean }>(apiPath`/projects/${"acme/api"}/deploy_keys/${String(api.outs.keyId)}`)).can_push).toBe(true);
    await deployKey.delete(web.id, web.outs);
    expect((await deployKey.read(api.id, api.outs)).id).toBe(api.id);
    await deployKey.delete(api.id, api.outs);
    // Another key is a new deploy key.
    expect((await deployKey.diff(web.id, web.outs, { ...web.inputs, key: sshPublicKey() })).replaces).toEqual(["key"]);
  });

  it("refused at preview: a key that is no SSH public key, a past expiry; a Developer, with verification", async () => {
    const base = { project: "acme/web", title: "x", key: sshPublicKey() };
    expect(await reasonsOf(deployKey, { ...base, key: "ssh-rsa not-base64!" })).toMatch(/key: must be an SSH public key/);
    expect(await reasonsOf(deployKey, { ...base, key: "ssh-ed25519 AAAAC3NzaC1yc2E= forged" })).toMatch(/key: must be an SSH public key/);
    expect(await reasonsOf(deployKey, { ...base, expiresAt: "2020-01-01" })).toMatch(/expiresAt: must be in the future/);
    await server.configureProviders("dev", { "platform:verifyAtPreview": "true" });
    try {
      expect(await reasonsOf(deployKey, base)).toMatch(/Maintainer role/);
    } finally {
      await server.configureProviders("alice");
    }
  });
});
