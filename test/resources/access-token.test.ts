/**
 * GroupAccessToken and ProjectAccessToken through the provider, as the
 * engine calls it, against the emulator: the token a secret output, rotation
 * as an update (planned by the clock with rotateBeforeDays, or by a moved
 * expiresAt), a token revoked outside the program, replacement, delete,
 * import, and the refusals at preview.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers, type ClientClock } from "pulumi-platform";
import { credentialsStore } from "pulumi-platform/emulator";
import { useClientClock, useEmulator } from "../support";

/** One clock for the clients and the emulator, moved by the tests. */
const at = { now: Date.parse("2026-12-06T12:00:00.000Z") };
const clock: ClientClock = { now: () => at.now, sleep: async (ms) => void (at.now += Math.max(0, ms)) };
const server = useEmulator({ clock: () => at.now });
useClientClock(clock);
const DAY = 86_400_000;

const projectToken = providers.ProjectAccessToken;
const groupToken = providers.GroupAccessToken;
type Props = Record<string, unknown>;
type Provider = typeof projectToken;

interface LiveToken {
  id: number;
  name: string;
  active: boolean;
  revoked: boolean;
  expires_at: string | null;
  access_level: number;
  scopes: string[];
}

const authenticates = async (token: unknown) => (await fetch(`${server.emulator.apiUrl}/user`, { headers: { "PRIVATE-TOKEN": String(token) } })).status === 200;

/** The engine's preview then apply of one resource: check (with the recorded inputs), create. */
async function create(provider: Provider, inputs: Props) {
  const checked = await provider.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await provider.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Props, outs: created.outs as Props };
}

/** The engine's next run: check against the recorded inputs, diff against the recorded state, the update when there is one. */
async function nextRun(provider: Provider, state: { id: string; inputs: Props; outs: Props }, declared: Props) {
  const checked = await provider.check(state.inputs, declared);
  expect(checked.failures ?? []).toEqual([]);
  const diff = await provider.diff(state.id, state.outs, checked.inputs);
  return { checked: checked.inputs as Props, diff };
}

async function reasonsOf(provider: Provider, declared: Props): Promise<string> {
  return ((await provider.check({}, declared)).failures ?? []).map((failure) => failure.reason).join("\n");
}

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

describe("create", () => {
  it("makes the token: a secret output, known from the create, that authenticates as a bot with the token's role", async () => {
    const made = await create(projectToken, { project: "acme/web", name: "ci", scopes: ["api"], accessLevel: "developer", expiresAt: "2027-03-01" });
    expect(made.id).toMatch(/^projects\/acme%2Fweb\/access_tokens\/\d+$/);
    expect(made.outs).toMatchObject({ active: true, revoked: false, tokenExpiresAt: "2027-03-01" });
    expect(String(made.outs.token)).toMatch(/^glpat-/);
    expect(await authenticates(made.outs.token)).toBe(true);
    const { definitions } = await import("../../dist/resources/index.js");
    expect((definitions.ProjectAccessToken.outputs as Record<string, { secret?: boolean }>).token?.secret).toBe(true);
    // A refresh keeps the recorded token (the server never shows it again).
    const read = await projectToken.read(made.id, made.outs);
    expect(read.props).toMatchObject({ token: made.outs.token, tokenId: made.outs.tokenId, active: true });
    expect(await projectToken.diff(made.id, made.outs, made.inputs)).toMatchObject({ changes: false });
    await projectToken.delete(made.id, made.outs);
    expect(await authenticates(made.outs.token)).toBe(false);
  });

  it("with rotateBeforeDays, the token lives the longest the server allows; a group token too", async () => {
    const made = await server.actingAs("alice", () => create(groupToken, { group: "acme", name: "registry", scopes: ["read_registry"], rotateBeforeDays: 30 }));
    expect(made.inputs.plannedExpiresAt).toBe("2027-12-06");
    expect(made.outs.tokenExpiresAt).toBe("2027-12-06");
    await server.actingAs("alice", () => groupToken.delete(made.id, made.outs));
  });
});

describe("rotation", () => {
  it("rotateBeforeDays: no change until the clock reaches the rotation point, then an update that rotates: the old token revoked, a new one known", async () => {
    const start = at.now;
    try {
      const declared = { project: "acme/web", name: "deploy", scopes: ["api"], rotateBeforeDays: 14 };
      const made = await create(projectToken, declared);
      // 15 days before the expiry: nothing to do.
      at.now = Date.parse("2027-11-21T12:00:00.000Z");
      const early = await nextRun(projectToken, made, declared);
      expect(early.diff).toMatchObject({ changes: false });
      expect(early.checked.plannedExpiresAt).toBe("2027-12-06");
      // 14 days before: the preview plans a rotation, an update, not a replacement.
      at.now += DAY;
      const due = await nextRun(projectToken, made, declared);
      expect(due.diff).toMatchObject({ changes: true, replaces: [] });
      expect(due.checked.plannedExpiresAt).toBe("2028-11-21");
      const updated = (await projectToken.update(made.id, made.outs, due.checked)).outs as Props;
      expect(updated.token).not.toBe(made.outs.token);
      expect(updated.tokenId).not.toBe(made.outs.tokenId);
      expect(updated.tokenExpiresAt).toBe("2028-11-21");
      expect(await authenticates(made.outs.token)).toBe(false);
      expect(await authenticates(updated.token)).toBe(true);
      // The next preview has nothing to do.
      const after = { id: made.id, inputs: due.checked, outs: { ...made.outs, ...updated } };
      expect((await nextRun(projectToken, after, declared)).diff).toMatchObject({ changes: false });
      await projectToken.delete(after.id, after.outs);
    } finally {
      at.now = start;
    }
  });

  it("a moved expiresAt rotates the token to the new date", async () => {
    const made = await create(projectToken, { project: "acme/web", name: "moved", scopes: ["read_api"], expiresAt: "2027-01-10" });
    const moved = { project: "acme/web", name: "moved", scopes: ["read_api"], expiresAt: "2027-06-10" };
    const run = await nextRun(projectToken, made, moved);
    expect(run.diff).toMatchObject({ changes: true, replaces: [] });
    const updated = (await projectToken.update(made.id, made.outs, run.checked)).outs as Props;
    expect(updated).toMatchObject({ tokenExpiresAt: "2027-06-10", active: true });
    expect(await authenticates(made.outs.token)).toBe(false);
    await projectToken.delete(made.id, { ...made.outs, ...updated });
  });

  it("a token revoked outside the program is gone: the refresh drops it (drift), and the next up creates a new one", async () => {
    const declared = { project: "acme/web", name: "revoked-outside", scopes: ["api"], expiresAt: "2027-02-01" };
    const made = await create(projectToken, declared);
    await server.as().delete(apiPath`/projects/${"acme/web"}/access_tokens/${String(made.outs.tokenId)}`);
    expect(await projectToken.read(made.id, made.outs)).toEqual({ id: "" });
  });

  it("a token the server no longer has (its bot deleted) is gone: the 404 names the token by its id, not its owner", async () => {
    const declared = { project: "acme/web", name: "bot-deleted", scopes: ["api"], expiresAt: "2027-02-01" };
    const made = await create(projectToken, declared);
    const store = credentialsStore.of(server.emulator.state);
    store.tokens = store.tokens.filter((token) => token.id !== made.outs.tokenId);
    expect(await projectToken.read(made.id, made.outs)).toEqual({ id: "" });
    await expect(projectToken.delete(made.id, made.outs)).resolves.toBeUndefined();
  });

  it("a token expired outside the program: the refresh reads it inactive (drift), and the next up rotates it", async () => {
    const start = at.now;
    try {
      const declared = { project: "acme/web", name: "expired", scopes: ["api"], expiresAt: "2026-12-20" };
      const made = await create(projectToken, declared);
      at.now = Date.parse("2026-12-21T12:00:00.000Z");
      expect(await authenticates(made.outs.token)).toBe(false);
      const refreshed = await projectToken.read(made.id, made.outs);
      expect(refreshed.props).toMatchObject({ active: false, revoked: false });
      // The program moves the date (an expiry in the past is refused at preview): the update rotates.
      const moved = { ...declared, expiresAt: "2027-03-01" };
      const state = { id: made.id, inputs: made.inputs, outs: refreshed.props as Props };
      const run = await nextRun(projectToken, state, moved);
      expect(run.diff).toMatchObject({ changes: true, replaces: [] });
      const updated = (await projectToken.update(made.id, state.outs, run.checked)).outs as Props;
      expect(updated).toMatchObject({ active: true, tokenExpiresAt: "2027-03-01" });
      expect(await authenticates(updated.token)).toBe(true);
      await projectToken.delete(made.id, { ...state.outs, ...updated });
    } finally {
      at.now = start;
    }
  });

  it("a new name, scopes or role make a new token (a replacement)", async () => {
    const declared = { project: "acme/web", name: "replaced", scopes: ["api"], expiresAt: "2027-02-01" };
    const made = await create(projectToken, declared);
    for (const change of [{ name: "renamed" }, { scopes: ["read_api"] }, { accessLevel: "reporter" }]) {
      const run = await nextRun(projectToken, made, { ...declared, ...change });
      expect(run.diff.replaces).toEqual(Object.keys(change));
    }
    // The same scopes in another order are no change.
    expect((await nextRun(projectToken, made, { ...declared, scopes: ["api"] })).diff).toMatchObject({ changes: false });
    await projectToken.delete(made.id, made.outs);
  });
});

describe("import", () => {
  it("takes over a token by its id; its value cannot be known, so token stays empty", async () => {
    const existing = await server.as("maintainer").post<LiveToken>(apiPath`/projects/${"acme/web"}/access_tokens`, { name: "by-hand", scopes: ["api"], expires_at: "2027-04-01" });
    const id = `projects/acme%2Fweb/access_tokens/${existing.id}`;
    const checked = await projectToken.check({}, { project: "acme/web", name: "by-hand", scopes: ["api"], expiresAt: "2027-04-01", __import: id });
    expect(checked.failures ?? []).toEqual([]);
    const created = await projectToken.create(checked.inputs);
    expect(created.id).toBe(id);
    expect(created.outs).toMatchObject({ tokenId: existing.id, active: true });
    expect(created.outs).not.toHaveProperty("token");
    // The outputs cross the engine's wire as a protobuf Struct, which has no undefined.
    expect(() => Struct.fromJavaScript(created.outs as never)).not.toThrow();
    await projectToken.delete(created.id, created.outs);
  });
});

describe("the lifetime is judged for a date the server is sent", () => {
  it("a recorded date, or one an import takes over, is not judged again; a date in the past always is", async () => {
    const far = { project: "acme/web", name: "far", scopes: ["api"], expiresAt: "2030-01-01" };
    expect(await reasonsOf(projectToken, far)).toMatch(/expiresAt: must be at most 365 days/);
    expect((await projectToken.check({ ...far }, far)).failures ?? []).toEqual([]);
    expect((await projectToken.check({}, { ...far, __import: "projects/acme%2Fweb/access_tokens/1" })).failures ?? []).toEqual([]);
    const past = { ...far, expiresAt: "2026-01-01" };
    expect(((await projectToken.check({ ...past }, past)).failures ?? []).map((failure) => failure.reason).join("\n")).toMatch(/expiresAt: must be after today/);
  });
});

describe("refused at preview", () => {
  it("bad input names the property and the rule, before any request", async () => {
    const base = { project: "acme/web", name: "x", scopes: ["api"] };
    expect(await reasonsOf(projectToken, base)).toMatch(/expiresAt: set exactly one of expiresAt .* and rotateBeforeDays/);
    expect(await reasonsOf(projectToken, { ...base, expiresAt: "2027-01-01", rotateBeforeDays: 7 })).toMatch(/set exactly one of expiresAt/);
    expect(await reasonsOf(projectToken, { ...base, expiresAt: "2027-12-07" })).toMatch(/expiresAt: must be at most 365 days from today \(2026-12-06\): no later than 2027-12-06/);
    expect(await reasonsOf(projectToken, { ...base, expiresAt: "2026-12-06" })).toMatch(/expiresAt: must be after today/);
    expect(await reasonsOf(projectToken, { ...base, expiresAt: "2027-02-30" })).toMatch(/expiresAt: must be a date in the form YYYY-MM-DD/);
    expect(await reasonsOf(projectToken, { ...base, scopes: ["sudo"], expiresAt: "2027-01-01" })).toMatch(/scopes.*must be among api, read_api/);
    expect(await reasonsOf(projectToken, { ...base, accessLevel: "admin", expiresAt: "2027-01-01" })).toMatch(/accessLevel: must be a role/);
    expect(await reasonsOf(projectToken, { ...base, rotateBeforeDays: 365 })).toMatch(/rotateBeforeDays: must be less than 365/);
  });

  it("with verification: a Developer may not create a project token, a Maintainer not one with the Owner role, nor a Maintainer a group token", async () => {
    const declared = { project: "acme/web", name: "x", scopes: ["api"], expiresAt: "2027-01-01" };
    try {
      await server.configureProviders("dev", { "platform:verifyAtPreview": "true" });
      expect(await reasonsOf(projectToken, declared)).toMatch(/Maintainer role/);
      await server.configureProviders("maintainer", { "platform:verifyAtPreview": "true" });
      expect(await reasonsOf(projectToken, declared)).toBe("");
      expect(await reasonsOf(projectToken, { ...declared, accessLevel: "owner" })).toMatch(/needs the Owner role on project acme\/web for ProjectAccessToken, and is Maintainer there/);
      expect(await reasonsOf(groupToken, { group: "acme", name: "x", scopes: ["api"], expiresAt: "2027-01-01" })).toMatch(/Owner role/);
    } finally {
      await server.configureProviders("maintainer");
    }
  });
});
