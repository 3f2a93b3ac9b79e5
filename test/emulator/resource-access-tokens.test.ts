/**
 * Group and project access tokens (`/groups/:id/access_tokens`,
 * `/projects/:id/access_tokens`) and deploy tokens
 * (`/projects/:id/deploy_tokens`, `/groups/:id/deploy_tokens`): who may list,
 * create, rotate and revoke, the limits of a new token, and that a revoked,
 * rotated-away or expired token stops authenticating.
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, startEmulator, type Emulator } from "../../src/emulator";
import { call } from "./helpers";

const TODAY = "2026-12-06";

/** A fresh emulator whose clock the test moves (`at.now`). */
async function withEmulator(test: (emulator: Emulator, at: { now: number }) => Promise<void>): Promise<void> {
  const at = { now: Date.parse(`${TODAY}T12:00:00.000Z`) };
  const emulator = await startEmulator({ seed: defaultSeed, clock: () => at.now });
  try {
    await test(emulator, at);
  } finally {
    await emulator.stop();
  }
}

const path = (source: "groups" | "projects", id: string, rest = "") => `/${source}/${encodeURIComponent(id)}/access_tokens${rest}`;
const createToken = (emulator: Emulator, source: "groups" | "projects", id: string, body: object, as = "alice") => call(emulator, path(source, id), { as, method: "POST", body });

describe("group and project access tokens", () => {
  it("create answers the token once; the bot is a member with the token's role; list and get never show it", () =>
    withEmulator(async (emulator) => {
      const made = await createToken(emulator, "projects", "acme/web", { name: "ci", scopes: ["api"], access_level: 30, expires_at: "2027-06-01" }, "maintainer");
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ name: "ci", scopes: ["api"], access_level: 30, resource_type: "project", active: true, revoked: false, expires_at: "2027-06-01" });
      expect(made.body.token).toMatch(/^glpat-/);
      const bot = await call(emulator, "/user", { token: made.body.token });
      expect(bot.status).toBe(200);
      expect(emulator.state.projectByFullPath("acme/web")!.members[String(made.body.user_id)]).toBe(30);
      const one = await call(emulator, path("projects", "acme/web", `/${made.body.id}`), { as: "maintainer" });
      expect(one.status).toBe(200);
      expect(one.body).not.toHaveProperty("token");
      const listed = await call(emulator, path("projects", "acme/web"), { as: "maintainer" });
      expect(listed.body.map((token: { name: string }) => token.name)).toContain("ci");
      expect(JSON.stringify(listed.body)).not.toContain(made.body.token);
    }));

  it("without expires_at the token gets the maximum lifetime (expiry enforced)", () =>
    withEmulator(async (emulator) => {
      const made = await createToken(emulator, "groups", "acme", { name: "ci", scopes: ["read_api"] });
      expect(made.body).toMatchObject({ access_level: 40, expires_at: "2027-12-06" });
    }));

  it("the limits: role to create, scopes, access level above the creator's, lifetime, the past", () =>
    withEmulator(async (emulator) => {
      expect(await createToken(emulator, "groups", "acme", { name: "x", scopes: ["api"] }, "maintainer")).toMatchObject({
        status: 400,
        body: { message: "400 Bad request - User does not have permission to create group access token" },
      });
      expect(await createToken(emulator, "projects", "acme/web", { name: "x", scopes: ["api"] }, "dev")).toMatchObject({
        status: 400,
        body: { message: "400 Bad request - User does not have permission to create project access token" },
      });
      expect(await createToken(emulator, "projects", "acme/web", { name: "x", scopes: ["sudo"] }, "maintainer")).toMatchObject({ status: 400, body: { error: "scopes does not have a valid value" } });
      expect(await createToken(emulator, "projects", "acme/web", { name: "x", scopes: ["api"], access_level: 50 }, "maintainer")).toMatchObject({
        status: 400,
        body: { message: "400 Bad request - Access level of the token contains permissions not held by the creating user" },
      });
      expect(await createToken(emulator, "projects", "acme/web", { name: "x", scopes: ["api"], expires_at: "2027-12-07" }, "maintainer")).toMatchObject({
        status: 400,
        body: { message: { expires_at: ["must be before 2027-12-06"] } },
      });
      expect(await createToken(emulator, "projects", "acme/web", { name: "x", scopes: ["api"], expires_at: "2026-12-05" }, "maintainer")).toMatchObject({
        status: 400,
        body: { message: { expires_at: ["cannot be in the past"] } },
      });
      expect((await call(emulator, path("groups", "acme"), { as: "maintainer" })).status).toBe(401);
      expect((await call(emulator, path("groups", "acme"), { as: null })).status).toBe(401);
    }));

  it("rotate revokes the old token and answers a new one with the same name, scopes and role; the old one stops authenticating", () =>
    withEmulator(async (emulator) => {
      const made = await createToken(emulator, "projects", "acme/web", { name: "ci", scopes: ["api"], access_level: 30, expires_at: "2027-01-01" }, "maintainer");
      const rotated = await call(emulator, path("projects", "acme/web", `/${made.body.id}/rotate`), { as: "maintainer", method: "POST", body: { expires_at: "2027-06-01" } });
      expect(rotated.status).toBe(200);
      expect(rotated.body).toMatchObject({ name: "ci", scopes: ["api"], access_level: 30, expires_at: "2027-06-01", active: true, user_id: made.body.user_id });
      expect(rotated.body.id).not.toBe(made.body.id);
      expect(rotated.body.token).not.toBe(made.body.token);
      expect((await call(emulator, "/user", { token: made.body.token })).status).toBe(401);
      expect((await call(emulator, "/user", { token: rotated.body.token })).status).toBe(200);
      const old = await call(emulator, path("projects", "acme/web", `/${made.body.id}`), { as: "maintainer" });
      expect(old.body).toMatchObject({ revoked: true, active: false });
      // Again: the old token is revoked.
      expect(await call(emulator, path("projects", "acme/web", `/${made.body.id}/rotate`), { as: "maintainer", method: "POST" })).toMatchObject({
        status: 400,
        body: { message: "400 Bad request - Token already revoked" },
      });
      // Without expires_at: a week from today.
      const again = await call(emulator, path("projects", "acme/web", `/${rotated.body.id}/rotate`), { as: "maintainer", method: "POST" });
      expect(again.body.expires_at).toBe("2026-12-13");
      // Below Maintainer: 401, as for an unknown token.
      expect((await call(emulator, path("projects", "acme/web", `/${again.body.id}/rotate`), { as: "dev", method: "POST" })).status).toBe(401);
    }));

  it("a token whose role is above the caller's cannot be rotated by that caller", () =>
    withEmulator(async (emulator) => {
      const made = await createToken(emulator, "projects", "acme/web", { name: "owner-bot", scopes: ["api"], access_level: 50 }, "alice");
      expect(await call(emulator, path("projects", "acme/web", `/${made.body.id}/rotate`), { as: "maintainer", method: "POST" })).toMatchObject({
        status: 400,
        body: { message: "400 Bad request - Not eligible to rotate token with access level higher than the user" },
      });
    }));

  it("revoke: 204, the token refused from then on, the bot no longer a member; again 400", () =>
    withEmulator(async (emulator) => {
      const made = await createToken(emulator, "groups", "acme", { name: "ci", scopes: ["api"], access_level: 20 });
      const revoked = await call(emulator, path("groups", "acme", `/${made.body.id}`), { as: "alice", method: "DELETE" });
      expect(revoked.status).toBe(204);
      expect((await call(emulator, "/user", { token: made.body.token })).status).toBe(401);
      expect(emulator.state.groupByFullPath("acme")!.members).not.toHaveProperty(String(made.body.user_id));
      expect(await call(emulator, path("groups", "acme", `/${made.body.id}`), { as: "alice", method: "DELETE" })).toMatchObject({
        status: 400,
        body: { message: "400 Bad request - Failed to find bot user" },
      });
      expect(await call(emulator, path("groups", "acme", "/999"), { as: "alice" })).toMatchObject({ status: 404, body: { message: "404 Could not find group access token with token_id: 999 Not Found" } });
    }));

  it("an expired token stops authenticating when its date comes", () =>
    withEmulator(async (emulator, at) => {
      const made = await createToken(emulator, "groups", "acme", { name: "ci", scopes: ["api"], expires_at: "2026-12-08" });
      expect((await call(emulator, "/user", { token: made.body.token })).status).toBe(200);
      at.now = Date.parse("2026-12-08T00:00:01.000Z");
      expect((await call(emulator, "/user", { token: made.body.token })).status).toBe(401);
      const one = await call(emulator, path("groups", "acme", `/${made.body.id}`), { as: "alice" });
      expect(one.body).toMatchObject({ active: false, revoked: false });
    }));
});

describe("deploy tokens", () => {
  const deployPath = (source: "groups" | "projects", id: string, rest = "") => `/${source}/${encodeURIComponent(id)}/deploy_tokens${rest}`;

  it("create answers the token once; list and get do not show it; delete destroys it", () =>
    withEmulator(async (emulator) => {
      const made = await call(emulator, deployPath("projects", "acme/web"), { as: "maintainer", method: "POST", body: { name: "pull", scopes: ["read_registry"], expires_at: "2027-01-01T00:00:00Z" } });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ name: "pull", scopes: ["read_registry"], username: `gitlab+deploy-token-${made.body.id}`, expires_at: "2027-01-01T00:00:00.000Z", revoked: false, expired: false });
      expect(made.body.token).toMatch(/^gldt-/);
      const one = await call(emulator, deployPath("projects", "acme/web", `/${made.body.id}`), { as: "maintainer" });
      expect(one.body).not.toHaveProperty("token");
      const listed = await call(emulator, deployPath("projects", "acme/web"), { as: "maintainer" });
      expect(listed.body.map((token: { name: string }) => token.name)).toEqual(["web-clone", "pull"]);
      expect((await call(emulator, deployPath("projects", "acme/web", `/${made.body.id}`), { as: "maintainer", method: "DELETE" })).status).toBe(204);
      expect(await call(emulator, deployPath("projects", "acme/web", `/${made.body.id}`), { as: "maintainer" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    }));

  it("roles (Maintainer of a project, Owner of a group), scopes, a username taken", () =>
    withEmulator(async (emulator) => {
      expect((await call(emulator, deployPath("projects", "acme/web"), { as: "dev" })).status).toBe(403);
      expect((await call(emulator, deployPath("groups", "acme"), { as: "maintainer", method: "POST", body: { name: "x", scopes: ["read_registry"] } })).status).toBe(403);
      expect(await call(emulator, deployPath("groups", "acme"), { as: "alice", method: "POST", body: { name: "x", scopes: ["api"] } })).toMatchObject({ status: 400, body: { error: "scopes does not have a valid value" } });
      expect((await call(emulator, deployPath("groups", "acme"), { as: "alice", method: "POST", body: { name: "x", scopes: ["read_registry"], username: "puller" } })).status).toBe(201);
      expect(await call(emulator, deployPath("groups", "acme"), { as: "alice", method: "POST", body: { name: "y", scopes: ["read_registry"], username: "puller" } })).toMatchObject({
        status: 400,
        body: { message: "400 Bad request - Username has already been taken" },
      });
    }));
});
