/**
 * The full example (all nine resources) through the end-to-end steps, the
 * engine's own behaviours included (see scenario.ts). What the server must hold is stated once, in
 * ./platform-team.ts, which the fault-injection tests use too: after each
 * `up` the emulator holds exactly the declared objects, and after `destroy`
 * exactly what it held before.
 */
import { expect } from "vitest";
import { apiPath } from "pulumi-platform";
import {
  expectExactlyDeclared,
  PLATFORM_TEAM_EXAMPLE,
  platformTeamConfig,
  platformTeamObjects,
  platformTeamSecrets,
  platformTeamSeed,
  type PlatformTeamConfig,
  type PlatformTeamObjects,
} from "./platform-team";
import { describeExample } from "./scenario";

const POLICY = apiPath`/groups/${"acme"}/-/virtual_registries/cleanup/policy`;
/** The config step 3 changes, and what the server holds from then on. */
const changed: Partial<PlatformTeamConfig> = { ciHost: "ci.next.example.com", chatChannel: "deploys", cleanupCadence: 14, developerRole: "maintainer", termsText: "Company work only. Read the handbook first." };

let before: PlatformTeamObjects;
let handMadePolicy: { created_at: string };

describeExample({
  example: PLATFORM_TEAM_EXAMPLE,
  seed: platformTeamSeed,
  secrets: platformTeamSecrets,
  // Nine kinds of resource: the engine's own behaviours are checked here, once for every example.
  engineBehaviours: true,

  async snapshot({ emulator }) {
    return platformTeamObjects(emulator);
  },

  async prepare({ api, emulator }) {
    before = platformTeamObjects(emulator);
    // A cleanup policy set up by hand before the program existed: the program adopts it.
    handMadePolicy = await api.post(POLICY, { cadence: 1, enabled: false, keep_n_days_after_download: 5 });
  },

  async verifyCreated({ emulator }) {
    expectExactlyDeclared(emulator, before);
  },

  async verifyAdopted({ emulator, api }) {
    // The hand-made policy (one per group), taken over rather than deleted and made anew.
    expect(await api.get(POLICY)).toMatchObject({ created_at: handMadePolicy.created_at, enabled: true });
    expect(platformTeamObjects(emulator).cleanupPolicies).toHaveLength(1);
  },

  change: {
    config: platformTeamConfig(changed),
    expect: {
      "pipeline-badge": { op: "update", changed: ["imageUrl", "linkUrl"] },
      chat: { op: "update", changed: ["channel"] },
      "cache-cleanup": { op: "update", changed: ["cadence"] },
      // The API has no update: a new role replaces the link (deleted first: same name and provider).
      developers: { op: "replace", changed: ["accessLevel"] },
      instance: { op: "update", changed: ["terms"] },
    },
    async verify({ emulator }) {
      expectExactlyDeclared(emulator, before, changed);
    },
  },

  drift: {
    async apply({ api }) {
      // Hands on the server: a group rule relaxed, the chat repointed, a badge and an upstream deleted, sign-up opened.
      await api.put(apiPath`/groups/${"acme"}`, { request_access_enabled: true });
      await api.put(apiPath`/groups/${"acme"}/integrations/mattermost`, { webhook: platformTeamSecrets.chatWebhook, channel: "town-square" });
      const [docs] = await api.get<{ id: number }[]>(apiPath`/groups/${"acme"}/badges`);
      await api.delete(apiPath`/groups/${"acme"}/badges/${docs!.id}`);
      const [registry] = await api.get<{ id: number }[]>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`);
      const upstreams = await api.get<{ id: number; name: string }[]>(apiPath`/virtual_registries/container/registries/${registry!.id}/upstreams`);
      await api.delete(apiPath`/virtual_registries/container/upstreams/${upstreams.find((u) => u.name === "Team mirror")!.id}`);
      await api.put("/application/settings", { signup_enabled: true });
    },
    expect: {
      "group-settings": { op: "update", changed: ["requestAccessEnabled"] },
      chat: { op: "update", changed: ["channel"] },
      "docs-badge": { op: "create" },
      mirror: { op: "create" },
      instance: { op: "update", changed: ["signupEnabled"] },
    },
    async verify({ emulator }) {
      expectExactlyDeclared(emulator, before, changed);
    },
  },
});
