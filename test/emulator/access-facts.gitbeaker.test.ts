/**
 * The emulator's access facts (routes/access-facts.ts), the reads of the
 * provider's verification at preview, driven by a real client:
 * @gitbeaker/rest's `GroupMembers.show` / `ProjectMembers.show` with
 * `includeInherited`, `Namespaces.show` and `License.show`. `GET /features`
 * and `GET /features/definitions` have no call in @gitbeaker/rest (its
 * `FeatureFlags` are a project's), so our own client reads them.
 */
import { Gitlab } from "@gitbeaker/rest";
import { PlatformClient } from "pulumi-platform";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const server = useEmulator();
const as = (username: string) => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens[username]! });
const idOf = async (username: string) => (await as(username).Users.showCurrentUser()).id;
const status = (error: unknown) => (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;

describe("@gitbeaker/rest access facts", () => {
  it("a member's effective role, inherited from the parent group; 404 for a non-member", async () => {
    const api = as("maintainer");
    const member = await api.GroupMembers.show("acme/platform", await idOf("maintainer"), { includeInherited: true });
    expect(member).toMatchObject({ username: "maintainer", access_level: 40 });
    // dev: Developer of acme, Maintainer of the project acme/platform/infra: the higher counts there.
    expect(await api.ProjectMembers.show("acme/platform/infra", await idOf("dev"), { includeInherited: true })).toMatchObject({ username: "dev", access_level: 40 });
    const outsider = await idOf("outsider");
    const missing = await api.GroupMembers.show("acme", outsider, { includeInherited: true }).catch((error: unknown) => error);
    expect(status(missing)).toBe(404);
  });

  it("a namespace shows its plan to its Owners and administrators only", async () => {
    expect(await as("alice").Namespaces.show("beta")).toMatchObject({ full_path: "beta", kind: "group", plan: "free" });
    expect(await as("root").Namespaces.show("acme")).toMatchObject({ plan: "ultimate" });
    const seenByMaintainer = await as("maintainer").Namespaces.show("acme");
    expect(seenByMaintainer).toMatchObject({ full_path: "acme" });
    expect(seenByMaintainer).not.toHaveProperty("plan");
    expect(status(await as("outsider").Namespaces.show("acme").catch((error: unknown) => error))).toBe(404);
  });

  it("the licence and the feature flags, for administrators only", async () => {
    expect(await as("root").License.show()).toMatchObject({ plan: "free" });
    expect(status(await as("alice").License.show().catch((error: unknown) => error))).toBe(403);
    const client = (username: string) => new PlatformClient({ url: server.emulator.url, token: server.emulator.tokens[username]! });
    const flags = await client("root").get<unknown[]>("/features");
    expect(flags).toContainEqual({ name: "container_virtual_registries", state: "on", gates: [{ key: "boolean", value: true }] });
    const acme = await as("root").Groups.show("acme");
    expect(flags).toContainEqual({ name: "group_agnostic_token_revocation", state: "conditional", gates: [{ key: "boolean", value: false }, { key: "actors", value: [`Group:${acme.id}`] }] });
    await expect(client("alice").get("/features")).rejects.toMatchObject({ status: 403 });
  });

  it("the flags' definitions: the default a flag never set runs on; a removed flag in neither list", async () => {
    const client = (username: string) => new PlatformClient({ url: server.emulator.url, token: server.emulator.tokens[username]! });
    const definitions = await client("root").get<{ name: string; default_enabled: boolean }[]>("/features/definitions");
    expect(definitions).toContainEqual(expect.objectContaining({ name: "container_virtual_registries", default_enabled: false, type: "beta" }));
    expect(definitions).toContainEqual(expect.objectContaining({ name: "confidential_epics", default_enabled: true }));
    const instance = server.emulator.state.instance;
    const saved = instance.featureFlagDefaults;
    instance.featureFlagDefaults = { confidential_epics: null };
    try {
      expect((await client("root").get<{ name: string }[]>("/features/definitions")).map((definition) => definition.name)).not.toContain("confidential_epics");
      expect(server.emulator.state.featureEnabled("confidential_epics")).toBe(true);
    } finally {
      instance.featureFlagDefaults = saved;
    }
    await expect(client("alice").get("/features/definitions")).rejects.toMatchObject({ status: 403 });
  });
});
