/**
 * Deploy keys (`/projects/:id/deploy_keys`): roles, the key's validation,
 * a key enabled on a second project (by POST with the same key, or by
 * `enable`), update of title and can_push, and delete.
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, startEmulator, type Emulator } from "../../src/emulator";
import { sshPublicKey } from "../support";
import { call } from "./helpers";

async function withEmulator(test: (emulator: Emulator) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ seed: defaultSeed, clock: () => Date.parse("2026-12-06T12:00:00.000Z") });
  try {
    await test(emulator);
  } finally {
    await emulator.stop();
  }
}

const keysOf = (project: string, rest = "") => `/projects/${encodeURIComponent(project)}/deploy_keys${rest}`;

describe("deploy keys", () => {
  it("create, read, update, enable on another project, delete", () =>
    withEmulator(async (emulator) => {
      const key = sshPublicKey("deploy@ci");
      const made = await call(emulator, keysOf("acme/web"), { as: "maintainer", method: "POST", body: { title: "ci", key, can_push: true, expires_at: "2027-01-01T00:00:00Z" } });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ title: "ci", key, can_push: true, expires_at: "2027-01-01T00:00:00.000Z" });
      expect(made.body.fingerprint_sha256).toMatch(/^SHA256:/);
      // The same key posted again on the project: answered as it is.
      const again = await call(emulator, keysOf("acme/web"), { as: "maintainer", method: "POST", body: { title: "other", key } });
      expect(again.body).toMatchObject({ id: made.body.id, title: "ci" });
      const updated = await call(emulator, keysOf("acme/web", `/${made.body.id}`), { as: "maintainer", method: "PUT", body: { title: "ci-2", can_push: false } });
      expect(updated.body).toMatchObject({ title: "ci-2", can_push: false });
      const enabled = await call(emulator, keysOf("acme/api", `/${made.body.id}/enable`), { as: "alice", method: "POST" });
      expect(enabled.status).toBe(201);
      expect(enabled.body).not.toHaveProperty("can_push");
      expect((await call(emulator, keysOf("acme/api"), { as: "alice" })).body.map((k: { id: number }) => k.id)).toEqual([made.body.id]);
      expect((await call(emulator, keysOf("acme/web", `/${made.body.id}`), { as: "maintainer", method: "DELETE" })).status).toBe(204);
      expect((await call(emulator, keysOf("acme/web", `/${made.body.id}`), { as: "maintainer" })).status).toBe(404);
      // Still enabled on acme/api.
      expect((await call(emulator, keysOf("acme/api", `/${made.body.id}`), { as: "alice" })).status).toBe(200);
    }));

  it("refuses a key that is no SSH public key, an expiry in the past, and members below Maintainer", () =>
    withEmulator(async (emulator) => {
      expect(await call(emulator, keysOf("acme/web"), { as: "maintainer", method: "POST", body: { title: "x", key: "ssh-ed25519 bm90IGEga2V5" } })).toMatchObject({
        status: 400,
        body: { message: { key: ["is invalid"], fingerprint_sha256: ["cannot be generated"] } },
      });
      expect(await call(emulator, keysOf("acme/web"), { as: "maintainer", method: "POST", body: { title: "x", key: sshPublicKey(), expires_at: "2026-01-01" } })).toMatchObject({
        status: 400,
        body: { message: { expires_at: ["must be in the future"] } },
      });
      expect((await call(emulator, keysOf("acme/web"), { as: "dev" })).status).toBe(403);
      expect((await call(emulator, keysOf("acme/web"), { as: null })).status).toBe(401);
    }));

  it("enable: a key of a project the caller does not maintain is not found", () =>
    withEmulator(async (emulator) => {
      const made = await call(emulator, keysOf("acme/web"), { as: "alice", method: "POST", body: { title: "ci", key: sshPublicKey() } });
      // dev maintains acme/platform/infra but is a Developer of acme/web, where the key is.
      expect(await call(emulator, keysOf("acme/platform/infra", `/${made.body.id}/enable`), { as: "dev", method: "POST" })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
      expect((await call(emulator, keysOf("acme/platform/infra", `/${made.body.id}/enable`), { as: "alice", method: "POST" })).status).toBe(201);
    }));
});
