/**
 * The group-settings example through the end-to-end steps (see scenario.ts).
 *
 * GroupSettings is a settings resource: the groups exist before and after the
 * program, and `destroy` gives the managed settings back the values they had
 * before the first `up`. So the snapshot is each group the example touches, as
 * the API shows it, and step 7 compares it whole. The stack also uploads the
 * avatar shipped beside the program (`avatar.png`, a path relative to the
 * program directory), which destroy removes again.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { PulumiProgram, repoRoot } from "../../scripts/pulumi-workspace.mts";
import { describeExample } from "./scenario";

interface LiveGroup {
  id: number;
  full_path: string;
  visibility: string;
  lfs_enabled: boolean;
  require_two_factor_authentication: boolean;
  two_factor_grace_period: number;
  project_creation_level: string;
  subgroup_creation_level: string;
  request_access_enabled: boolean;
  default_branch_protection_defaults: Record<string, unknown>;
  avatar_url: string | null;
}

const AVATAR = readFileSync(path.join(repoRoot, "examples/group-settings/avatar.png"));
const group = (api: PlatformClient, fullPath: string) => api.get<LiveGroup>(apiPath`/groups/${fullPath}`, { with_projects: false });

describeExample({
  example: "group-settings",
  config: { avatar: "avatar.png" },

  async snapshot({ api }) {
    // Every group the example touches, whole: a setting it forgot to give back shows here.
    return { acme: await group(api, "acme"), beta: await group(api, "beta") };
  },

  async verifyCreated({ api, emulator }) {
    expect(await group(api, "acme")).toMatchObject({
      require_two_factor_authentication: true,
      two_factor_grace_period: 48,
      project_creation_level: "maintainer",
      subgroup_creation_level: "owner",
      request_access_enabled: false,
      default_branch_protection_defaults: { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }] },
      avatar_url: expect.stringMatching(/\/avatar\.png$/),
    });
    // The file was found from the program directory and its bytes reached the server.
    const served = await fetch(`${emulator.apiUrl}/groups/acme/avatar`, { headers: { "PRIVATE-TOKEN": emulator.tokens.root! } });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(AVATAR)).toBe(true);
    expect(await group(api, "beta")).toMatchObject({ visibility: "public", lfs_enabled: true });
  },

  async verifyAdopted({ api, emulator }) {
    // The sandbox group already held its declared settings: taken over as it was, it never got a write.
    const beta = await group(api, "beta");
    expect(beta).toMatchObject({ visibility: "public", lfs_enabled: true });
    const betaPaths = [`/api/v4/groups/${beta.id}`, "/api/v4/groups/beta"];
    const writes = emulator.requestLog.filter((entry) => entry.method !== "GET" && betaPaths.includes(entry.path));
    expect(writes.map((entry) => `${entry.method} ${entry.path}`)).toEqual([]);
  },

  change: {
    config: { gracePeriodHours: "24", projectCreationLevel: "developer" },
    expect: { "main-group": { op: "update", changed: ["projectCreationLevel", "twoFactorGracePeriod"] } },
    async verify({ api }) {
      expect(await group(api, "acme")).toMatchObject({ two_factor_grace_period: 24, project_creation_level: "developer", subgroup_creation_level: "owner" });
    },
  },

  drift: {
    async apply({ api }) {
      await api.put(apiPath`/groups/${"acme"}`, { request_access_enabled: true, subgroup_creation_level: "maintainer" });
    },
    expect: { "main-group": { op: "update", changed: ["requestAccessEnabled", "subgroupCreationLevel"] } },
    async verify({ api }) {
      expect(await group(api, "acme")).toMatchObject({
        request_access_enabled: false,
        subgroup_creation_level: "owner",
        two_factor_grace_period: 24,
        avatar_url: expect.stringMatching(/\/avatar\.png$/),
      });
    },
  },
});

describe("settings a Free group applies but does not show, through the real engine", () => {
  let program: PulumiProgram | undefined;
  let emulator: Emulator | undefined;
  afterAll(async () => {
    program?.dispose();
    await closeAllPools();
    await emulator?.stop();
  });

  it("a second preview is clean on beta (Free), after up and after refresh", async () => {
    emulator = await startEmulator({ port: 0 });
    program = await PulumiProgram.create({
      example: "group-settings",
      transpileOnly: true,
      config: { "platform:url": emulator.url, assistantGroup: "beta" },
      secrets: { "platform:token": emulator.tokens.alice! },
    });
    await program.up();
    const beta = await new PlatformClient({ url: emulator.url, token: emulator.tokens.root! }).get<Record<string, unknown>>(apiPath`/groups/${"beta"}`, { with_projects: false });
    expect(beta).not.toHaveProperty("experiment_features_enabled"); // applied, not shown below Premium
    await program.preview("--expect-no-changes");
    await program.refresh();
    await program.preview("--expect-no-changes");
    await program.destroy();
  }, 180_000);
});
