/**
 * A group's tokens: POST /groups/:id/tokens/revoke rule by rule,
 * POST /groups/:id/ldap_sync and its gates, and the credentials inventory
 * GET /groups/:id/manage/personal_access_tokens with each filter and sort;
 * the seed section `credentials`.
 */
import { describe, expect, it } from "vitest";
import { credentialsStore, defaultSeed, selfManagedSeed, startEmulator, stateFromSeed, type Emulator, type Seed } from "../../src/emulator";
import { call } from "./helpers";

/** A fresh emulator for one test (revocation changes the state for good). */
async function withEmulator(seed: Seed, test: (emulator: Emulator) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ seed, backgroundWork: "manual" });
  try {
    await test(emulator);
  } finally {
    await emulator.stop();
  }
}

const revoke = (emulator: Emulator, group: string, token: string | undefined, as: string | null = "alice") =>
  call(emulator, `/groups/${encodeURIComponent(group)}/tokens/revoke`, { as, method: "POST", body: token === undefined ? {} : { token } });

const UNPROCESSABLE = { status: 422, body: { message: "422 Unprocessable Entity" } };

describe("POST /groups/:id/tokens/revoke: who may call it", () => {
  it("401 anonymous, 400 without a token, 404 a hidden group, 404 without the feature flag, 400 a subgroup, 403 below Owner", () =>
    withEmulator(defaultSeed, async (emulator) => {
      expect(await revoke(emulator, "acme", "glpat-dev-laptop-0001", null)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      expect(await revoke(emulator, "acme", undefined)).toMatchObject({ status: 400, body: { error: "token is missing" } });
      expect(await revoke(emulator, "acme", "glpat-dev-laptop-0001", "outsider")).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
      // The flag is on for acme only (the default seed).
      expect(await revoke(emulator, "beta", "glpat-dev-laptop-0001")).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
      expect(await revoke(emulator, "acme/platform", "glpat-dev-laptop-0001")).toMatchObject({ status: 400, body: { message: "400 Bad request - Must be a top-level group" } });
      expect(await revoke(emulator, "acme", "glpat-dev-laptop-0001", "maintainer")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
      // Nothing was revoked by the refused calls.
      expect((await call(emulator, "/user", { token: "glpat-dev-laptop-0001" })).status).toBe(200);
    }));

  it("the flag may be on for the whole instance", () =>
    withEmulator({ ...defaultSeed, instance: { ...defaultSeed.instance, featureFlags: { group_agnostic_token_revocation: true } } }, async (emulator) => {
      expect((await revoke(emulator, "beta", "glft-alice-feed-0010")).status).toBe(200);
    }));
});

describe("POST /groups/:id/tokens/revoke: each kind of token", () => {
  it("a member's personal access token: revoked, answered as a personal access token, then refused with 401", () =>
    withEmulator(defaultSeed, async (emulator) => {
      expect((await call(emulator, "/user", { token: "glpat-dev-laptop-0001" })).body.username).toBe("dev");
      const revoked = await revoke(emulator, "acme", "glpat-dev-laptop-0001");
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({
        id: expect.any(Number), name: "laptop", revoked: true, created_at: "2024-02-01T09:00:00.000Z", description: "",
        scopes: ["api"], user_id: expect.any(Number), last_used_at: "2024-05-01T08:30:00.000Z", active: false, expires_at: "2030-01-01",
      });
      expect(await call(emulator, "/user", { token: "glpat-dev-laptop-0001" })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      // The user's other tokens still work; an already revoked token is answered again.
      expect((await call(emulator, "/user", { as: "dev" })).status).toBe(200);
      expect(await revoke(emulator, "acme", "glpat-dev-laptop-0001")).toMatchObject({ status: 200, body: { revoked: true } });
    }));

  it("an administrator may revoke; a seed user's own token has a record too", () =>
    withEmulator(defaultSeed, async (emulator) => {
      const revoked = await revoke(emulator, "acme", "glpat-maintainer-token", "root");
      expect(revoked).toMatchObject({ status: 200, body: { name: "maintainer-token-1", revoked: true, active: false } });
      expect((await call(emulator, "/user", { token: "glpat-maintainer-token" })).status).toBe(401);
    }));

  it("an expired token, a token of a non-member, an unknown token and an unknown prefix: the same 422", () =>
    withEmulator(defaultSeed, async (emulator) => {
      expect(await revoke(emulator, "acme", "glpat-dev-old-ci-0002")).toMatchObject(UNPROCESSABLE);
      expect(await revoke(emulator, "acme", "glpat-outsider-scratch-0005")).toMatchObject(UNPROCESSABLE);
      expect((await call(emulator, "/user", { token: "glpat-outsider-scratch-0005" })).status).toBe(200);
      expect(await revoke(emulator, "acme", "glpat-no-such-token")).toMatchObject(UNPROCESSABLE);
      expect(await revoke(emulator, "acme", "ghp_github-token")).toMatchObject(UNPROCESSABLE);
    }));

  it("a group access token and a project access token (their bots are members): revoked, then 401", () =>
    withEmulator(defaultSeed, async (emulator) => {
      expect((await call(emulator, "/groups/acme", { token: "glpat-acme-group-bot-0006" })).status).toBe(200);
      expect(await revoke(emulator, "acme", "glpat-acme-group-bot-0006")).toMatchObject({ status: 200, body: { name: "acme-ci", scopes: ["read_api"], revoked: true } });
      expect((await call(emulator, "/groups/acme", { token: "glpat-acme-group-bot-0006" })).status).toBe(401);
      expect(await revoke(emulator, "acme", "glpat-acme-web-bot-0007")).toMatchObject({ status: 200, body: { name: "web-deploy", revoked: true } });
      expect((await call(emulator, "/projects/acme%2Fweb", { token: "glpat-acme-web-bot-0007" })).status).toBe(401);
      // Another group's Owner cannot reach acme's bots.
      expect(await revoke(emulator, "beta", "glpat-acme-group-bot-0006")).toMatchObject({ status: 404 });
    }));

  it("a group deploy token: the deploy token shape; a project's deploy token is refused", () =>
    withEmulator(defaultSeed, async (emulator) => {
      const revoked = await revoke(emulator, "acme", "gldt-acme-registry-0008");
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ id: 1, name: "acme-registry-pull", username: "gitlab+deploy-token-1", expires_at: null, scopes: ["read_registry"], revoked: true, expired: false });
      expect(await revoke(emulator, "acme", "gldt-acme-web-clone-0009")).toMatchObject(UNPROCESSABLE);
    }));

  it("a member's feed token is rotated (answered as the user); a non-member's is refused", () =>
    withEmulator(defaultSeed, async (emulator) => {
      const alice = (await call(emulator, "/user", { as: "alice" })).body;
      expect(await revoke(emulator, "acme", "glft-alice-feed-0010")).toMatchObject({ status: 200, body: { id: alice.id, username: "alice", name: "Alice Owner" } });
      // The old value is gone: a second revocation does not find it.
      expect(await revoke(emulator, "acme", "glft-alice-feed-0010")).toMatchObject(UNPROCESSABLE);
      const record = credentialsStore.of(emulator.state).tokens.find((token) => token.kind === "feed_token" && token.userId === alice.id)!;
      expect(record.token).toMatch(/^glft-/);
      expect(record.token).not.toBe("glft-alice-feed-0010");
      expect(await revoke(emulator, "acme", "glft-outsider-feed-0011")).toMatchObject(UNPROCESSABLE);
    }));
});

describe("POST /groups/:id/ldap_sync", () => {
  const ldap = (emulator: Emulator, group: string, as: string | null = "alice") => call(emulator, `/groups/${encodeURIComponent(group)}/ldap_sync`, { as, method: "POST" });

  it("self-managed Premium+: 202 to Owners and administrators; 403 below Owner; 404 a hidden group; 401 anonymous", () =>
    withEmulator(selfManagedSeed, async (emulator) => {
      const accepted = await ldap(emulator, "acme");
      expect(accepted.status).toBe(202);
      expect(accepted.text).toBe("202");
      expect((await ldap(emulator, "acme", "root")).status).toBe(202);
      expect(await ldap(emulator, "acme", "maintainer")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
      expect(await ldap(emulator, "acme", "outsider")).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
      expect(await ldap(emulator, "nope")).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
      expect((await ldap(emulator, "acme", null)).status).toBe(401);
    }));

  it("one sync is queued until the background work runs it", () =>
    withEmulator(selfManagedSeed, async (emulator) => {
      await ldap(emulator, "acme");
      const acmeId = (await call(emulator, "/groups/acme")).body.id;
      const sync = () => credentialsStore.of(emulator.state).ldapSync[String(acmeId)]!;
      const requestedAt = sync().requestedAt;
      expect(sync()).toMatchObject({ status: "pending", lastSyncAt: null });
      await ldap(emulator, "acme");
      expect(sync().requestedAt).toBe(requestedAt);
      emulator.runDueWork();
      expect(sync()).toMatchObject({ status: "ready", lastSyncAt: expect.any(String) });
    }));

  it("404 Not Found on the hosted offering and on a Free instance, before the group is looked up", async () => {
    await withEmulator(defaultSeed, async (emulator) => {
      expect(await ldap(emulator, "acme", "root")).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
      expect(await ldap(emulator, "nope", "root")).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    });
    await withEmulator({ ...selfManagedSeed, instance: { ...selfManagedSeed.instance, tier: "free" } }, async (emulator) => {
      expect(await ldap(emulator, "acme", "root")).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    });
  });
});

describe("GET /groups/:id/manage/personal_access_tokens", () => {
  const inventory = (emulator: Emulator, query = "", group = "acme", as: string | null = "alice") =>
    call(emulator, `/groups/${encodeURIComponent(group)}/manage/personal_access_tokens${query}`, { as });
  const names = (result: { body: { name: string }[] }) => result.body.map((token) => token.name);
  const ALL_BY_ID_DESC = ["dev-token-1", "maintainer-token-1", "alice-token-1", "release-script", "leaked", "old-ci", "laptop"];

  it("the enterprise users' personal access tokens (not bots', not other users'), newest id first, in the real record shape", () =>
    withEmulator(defaultSeed, async (emulator) => {
      const listed = await inventory(emulator);
      expect(listed.status).toBe(200);
      expect(names(listed)).toEqual(ALL_BY_ID_DESC);
      expect(Object.keys(listed.body[0]).sort()).toEqual(["active", "created_at", "description", "expires_at", "id", "last_used_at", "name", "revoked", "scopes", "user_id"]);
      expect(listed.body.find((token: { name: string }) => token.name === "release-script")).toMatchObject({ description: "Tags releases", scopes: ["read_api", "write_repository"], expires_at: "2030-06-30", active: true });
      expect(listed.headers.get("x-total")).toBe("7");
    }));

  it("filters: revoked, state, search, created and last used dates; bad values refused", () =>
    withEmulator(defaultSeed, async (emulator) => {
      expect(names(await inventory(emulator, "?revoked=true"))).toEqual(["leaked"]);
      expect(names(await inventory(emulator, "?revoked=false"))).not.toContain("leaked");
      expect(names(await inventory(emulator, "?state=active"))).toEqual(["dev-token-1", "maintainer-token-1", "alice-token-1", "release-script", "laptop"]);
      expect(names(await inventory(emulator, "?state=inactive"))).toEqual(["leaked", "old-ci"]);
      expect(names(await inventory(emulator, "?search=SCRIPT"))).toEqual(["release-script"]);
      expect(names(await inventory(emulator, "?created_after=2024-03-01"))).toEqual(["release-script", "leaked"]);
      expect(names(await inventory(emulator, "?created_before=2024-01-01T12:00:00Z"))).toEqual(["dev-token-1", "maintainer-token-1", "alice-token-1", "old-ci"]);
      expect(names(await inventory(emulator, "?last_used_after=2024-04-01"))).toEqual(["release-script", "laptop"]);
      expect(names(await inventory(emulator, "?last_used_before=2024-02-01"))).toEqual(["old-ci"]);
      expect(await inventory(emulator, "?state=expired")).toMatchObject({ status: 400, body: { error: "state does not have a valid value" } });
      expect(await inventory(emulator, "?created_after=yesterday")).toMatchObject({ status: 400, body: { error: "created_after is invalid" } });
    }));

  it("sorts by creation, expiry, last use or name; an unknown sort keeps the default; pages", () =>
    withEmulator(defaultSeed, async (emulator) => {
      expect(names(await inventory(emulator, "?sort=created_asc"))).toEqual(["old-ci", "alice-token-1", "maintainer-token-1", "dev-token-1", "laptop", "leaked", "release-script"]);
      expect(names(await inventory(emulator, "?sort=created_at_desc"))).toEqual(["release-script", "leaked", "laptop", "dev-token-1", "maintainer-token-1", "alice-token-1", "old-ci"]);
      expect(names(await inventory(emulator, "?sort=name_asc"))).toEqual(["alice-token-1", "dev-token-1", "laptop", "leaked", "maintainer-token-1", "old-ci", "release-script"]);
      // Descending puts tokens never used first, as PostgreSQL orders nulls.
      expect(names(await inventory(emulator, "?sort=last_used_desc"))).toEqual(["dev-token-1", "maintainer-token-1", "alice-token-1", "leaked", "laptop", "release-script", "old-ci"]);
      expect(names(await inventory(emulator, "?sort=expires_asc")).slice(0, 3)).toEqual(["old-ci", "laptop", "release-script"]);
      expect(names(await inventory(emulator, "?sort=sideways"))).toEqual(ALL_BY_ID_DESC);
      const second = await inventory(emulator, "?per_page=3&page=2");
      expect(names(second)).toEqual(ALL_BY_ID_DESC.slice(3, 6));
      expect(second.headers.get("x-total-pages")).toBe("3");
    }));

  it("a revoked token shows as revoked", () =>
    withEmulator(defaultSeed, async (emulator) => {
      await revoke(emulator, "acme", "glpat-dev-laptop-0001");
      expect((await inventory(emulator, "?search=laptop")).body[0]).toMatchObject({ revoked: true, active: false });
    }));

  it("refusals: 401 anonymous, 404 hidden, 403 below Owner, 400 a subgroup, 403 a Free group, 404 off the hosted offering", async () => {
    await withEmulator(defaultSeed, async (emulator) => {
      expect((await inventory(emulator, "", "acme", null)).status).toBe(401);
      expect(await inventory(emulator, "", "acme", "outsider")).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
      expect(await inventory(emulator, "", "acme", "maintainer")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
      expect(await inventory(emulator, "", "acme/platform")).toMatchObject({ status: 400, body: { message: "400 Bad request - Must be a top-level group" } });
      expect(await inventory(emulator, "", "beta")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
      expect((await inventory(emulator, "", "acme", "root")).status).toBe(200);
    });
    await withEmulator(selfManagedSeed, async (emulator) => {
      expect(await inventory(emulator, "", "acme", "root")).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    });
  });
});

describe("the seed section credentials", () => {
  it("is checked, naming the place", () => {
    const bad = (credentials: unknown) => () => stateFromSeed({ ...defaultSeed, credentials });
    expect(bad({ personalAccessTokens: [{ user: "nobody", token: "glpat-x" }] })).toThrow(/credentials.personalAccessTokens\[0\].user: unknown user nobody/);
    expect(bad({ personalAccessTokens: [{ user: "dev", token: "tok" }] })).toThrow("credentials.personalAccessTokens[0].token: must be a string starting with glpat-");
    expect(bad({ personalAccessTokens: [{ user: "dev", token: "glpat-x", expiresAt: "soon" }] })).toThrow("credentials.personalAccessTokens[0].expiresAt: must be a date (YYYY-MM-DD) or null");
    expect(bad({ deployTokens: [{ token: "gldt-x" }] })).toThrow("credentials.deployTokens[0]: give exactly one of group and project");
    expect(bad({ groupAccessTokens: [{ group: "acme", token: "glpat-group-x", accessLevel: 35 }] })).toThrow(
      "credentials.groupAccessTokens[0].accessLevel: must be 10, 15, 20, 30, 40 or 50",
    );
    expect(bad({ groupAccessTokens: [{ group: "nowhere", token: "glpat-group-x" }] })).toThrow("credentials.groupAccessTokens[0]: unknown group nowhere");
    expect(bad({ feedTokens: { alice: "glpat-x" } })).toThrow('credentials.feedTokens["alice"]: must be a string starting with glft-');
    expect(bad({ enterpriseUsers: { "acme/platform": ["dev"] } })).toThrow(/acme\/platform is not a top-level group/);
    expect(bad({ personalAccessTokens: [{ user: "dev", token: "glpat-alice-token" }] })).toThrow(/already alice's/);
    expect(bad({ sshKeys: [] })).toThrow(/credentials: unknown key\(s\) sshKeys/);
  });

  it("revoked and expired tokens do not authenticate; active ones do", () =>
    withEmulator(defaultSeed, async (emulator) => {
      expect((await call(emulator, "/user", { token: "glpat-dev-leaked-0003" })).status).toBe(401);
      expect((await call(emulator, "/user", { token: "glpat-dev-old-ci-0002" })).status).toBe(401);
      expect((await call(emulator, "/user", { token: "glpat-maintainer-release-0004" })).body.username).toBe("maintainer");
      // Deploy and feed tokens open Git, the registry and feeds, not the REST API.
      expect((await call(emulator, "/user", { token: "gldt-acme-registry-0008" })).status).toBe(401);
      expect((await call(emulator, "/user", { token: "glft-alice-feed-0010" })).status).toBe(401);
    }));
});

describe("DELETE /groups/:id/manage/personal_access_tokens/:id", () => {
  const inventory = (emulator: Emulator, query = "") => call(emulator, `/groups/acme/manage/personal_access_tokens${query}`, { as: "alice" });
  const remove = (emulator: Emulator, id: number | string, as = "alice", group = "acme") =>
    call(emulator, `/groups/${encodeURIComponent(group)}/manage/personal_access_tokens/${id}`, { as, method: "DELETE" });

  it("revokes an enterprise user's token: 204, then it no longer authenticates and shows as revoked", () =>
    withEmulator(defaultSeed, async (emulator) => {
      const laptop = (await inventory(emulator, "?search=laptop")).body[0];
      expect((await call(emulator, "/user", { token: "glpat-dev-laptop-0001" })).status).toBe(200);
      const answer = await remove(emulator, laptop.id);
      expect(answer.status).toBe(204);
      expect(answer.text).toBe("");
      expect((await inventory(emulator, "?search=laptop")).body[0]).toMatchObject({ revoked: true, active: false });
      expect((await call(emulator, "/user", { token: "glpat-dev-laptop-0001" })).status).toBe(401);
      // Revoked already: the revoke service fails.
      expect(await remove(emulator, laptop.id)).toMatchObject({ status: 400, body: { message: "400 Bad request" } });
    }));

  it("refusals: unknown id 404, another group's or a non-enterprise user's token 403, below Owner 403, `self` the caller's own", () =>
    withEmulator(defaultSeed, async (emulator) => {
      expect(await remove(emulator, 999_999)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
      const outsiders = credentialsStore.of(emulator.state).tokens.find((record) => record.name === "scratch")!;
      expect((await remove(emulator, outsiders.id)).status).toBe(403);
      const laptop = (await inventory(emulator, "?search=laptop")).body[0];
      expect((await remove(emulator, laptop.id, "maintainer")).status).toBe(403);
      expect((await remove(emulator, laptop.id, "outsider")).status).toBe(404);
      expect((await call(emulator, `/groups/acme/manage/personal_access_tokens/${laptop.id}`, { as: null, method: "DELETE" })).status).toBe(401);
      expect((await remove(emulator, "self")).status).toBe(204);
      expect((await call(emulator, "/user", { token: "glpat-alice-token" })).status).toBe(401);
    }));
});
