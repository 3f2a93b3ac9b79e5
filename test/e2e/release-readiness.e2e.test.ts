/**
 * The release-readiness example through the end-to-end steps (see scenario.ts):
 * a registry visibility and an error-tracking key managed, the rest read with
 * data functions, as a project Maintainer. Beyond the common steps: a key
 * rotation creates and confirms the new key before the old one goes, and
 * destroy gives the registry its level back. (That no DSN the server made
 * reaches the state or the logs, secrets.e2e.test.ts shows.)
 */
import { expect } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import type { RequestLogEntry } from "pulumi-platform/emulator";
import { describeExample } from "./scenario";

interface LiveKey {
  id: number;
}

const PROJECT = "acme/web";
const level = async (api: PlatformClient) => (await api.get<{ container_registry_access_level: string }>(apiPath`/projects/${PROJECT}`)).container_registry_access_level;
const keys = (api: PlatformClient) => api.list<LiveKey>(apiPath`/projects/${PROJECT}/error_tracking/client_keys`);

let seededKeys: number[] = [];
let ourKey = 0;

/** The requests on the key list of acme/web, in order, as `METHOD path`. */
const keyRequests = (log: readonly RequestLogEntry[]) =>
  log.filter((entry) => /\/error_tracking\/client_keys(\/\d+)?$/.test(entry.path) && entry.status < 400).map((entry) => `${entry.method} ${entry.path.replace(/^.*\/client_keys/, "keys")}`);

let changeMark = 0;

describeExample({
  example: "release-readiness",
  user: "maintainer",

  async snapshot({ api }) {
    return { level: await level(api), keys: (await keys(api)).map((key) => key.id).sort() };
  },

  async prepare({ api }) {
    seededKeys = (await keys(api)).map((key) => key.id);
    expect(seededKeys).toHaveLength(1);
  },

  async verifyCreated({ api, emulator }) {
    expect(await level(api)).toBe("private");
    const added = (await keys(api)).filter((key) => !seededKeys.includes(key.id));
    expect(added).toHaveLength(1);
    ourKey = added[0]!.id;
    // The rotation's requests are read from here on.
    changeMark = emulator.mark();
  },

  change: {
    config: { keyRotation: "2026-12", registryAccess: "disabled" },
    expect: {
      "error-tracking-key": { op: "replace", changed: ["rotation"] },
      "registry-visibility": { op: "update", changed: ["accessLevel"] },
    },
    async verify({ api, emulator }) {
      expect(await level(api)).toBe("disabled");
      const live = (await keys(api)).filter((key) => !seededKeys.includes(key.id));
      expect(live).toHaveLength(1);
      const rotated = live[0]!.id;
      expect(rotated).not.toBe(ourKey);
      // No moment without a key: the new key is created and confirmed in the list before the old one is deleted.
      const sequence = keyRequests(emulator.requestsSince(changeMark));
      const created = sequence.indexOf("POST keys");
      const confirmed = sequence.indexOf("GET keys", created);
      const deleted = sequence.indexOf(`DELETE keys/${ourKey}`);
      expect(created, sequence.join(", ")).toBeGreaterThanOrEqual(0);
      expect(confirmed, sequence.join(", ")).toBeGreaterThan(created);
      expect(deleted, sequence.join(", ")).toBeGreaterThan(confirmed);
      ourKey = rotated;
    },
  },

  drift: {
    async apply({ api }) {
      // Someone deletes the key and opens the registry again.
      await api.delete(apiPath`/projects/${PROJECT}/error_tracking/client_keys/${ourKey}`);
      await api.put(apiPath`/projects/${PROJECT}`, { container_registry_access_level: "enabled" });
    },
    expect: {
      "error-tracking-key": { op: "create" },
      "registry-visibility": { op: "update", changed: ["accessLevel"] },
    },
    async verify({ api }) {
      expect(await level(api)).toBe("disabled");
      expect((await keys(api)).filter((key) => !seededKeys.includes(key.id))).toHaveLength(1);
    },
  },
});
