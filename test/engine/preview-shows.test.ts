/**
 * What check adds to the preview for its reviewer, through `providers.<Name>`
 * against the emulator with verification at preview on: the settings a
 * settings resource's create overwrites (the `takeover` input, `byNature`),
 * and the path of an owner the program names by numeric id (`ownerPath`,
 * src/engine/envelope.ts); and the report of a preview step made of what
 * check returned (src/review/changes.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { defaultSeed } from "pulumi-platform/emulator";
import { reviewOf } from "../../src/review/changes";
import { markdownOf } from "../../src/review/markdown";
import type { PreviewOutput } from "../../src/review/preview";
import { useEmulator } from "../support";

// Self-managed, for the instance's settings too.
const server = useEmulator({ seed: { ...defaultSeed, instance: { ...defaultSeed.instance, offering: "self-managed", tier: "free" } } });

beforeAll(() => server.configureProviders("root", { "platform:verifyAtPreview": "true" }));
afterAll(() => server.configureProviders());

const type = (kind: string) => `pulumi-nodejs:dynamic/platform:${kind}`;
const urn = (kind: string, name: string) => `urn:pulumi:dev::infra::${type(kind)}::${name}`;
const review = (steps: unknown[]) => reviewOf({ steps } as PreviewOutput);

describe("a settings resource's create: each declared setting before and after", () => {
  it("check reads the settings it overwrites (no warning: settings are taken over by nature); the report shows 48 → 72", async () => {
    const group = await server.as().get<{ id: number }>(apiPath`/groups/${"beta"}`);
    await server.as().put(apiPath`/groups/${"beta"}`, { two_factor_grace_period: 48, description: "Beta team" });
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const declared = { group: "beta", twoFactorGracePeriod: 72, description: "Beta team" };
      let checked!: Awaited<ReturnType<typeof providers.GroupSettings.check>>;
      const reads = await server.requestsDuring(async () => {
        checked = await providers.GroupSettings.check({}, declared);
      });
      // The group's settings are the group: the preview's one read of the owner shows them.
      expect(reads.filter((request) => request.path === "/api/v4/groups/beta")).toHaveLength(1);
      expect(checked.failures ?? []).toEqual([]);
      expect(checked.inputs.takeover).toEqual({ id: `groups/${group.id}`, overwrites: { twoFactorGracePeriod: 48 }, byNature: true });
      expect(warnings).not.toHaveBeenCalled();
      const [change] = review([{ op: "create", urn: urn("GroupSettings", "beta"), newState: { type: type("GroupSettings"), inputs: checked.inputs } }]).changes;
      expect(change!.kind).toBe("create");
      expect(change!.fields).toEqual([
        { path: "group", before: { value: "beta" }, after: { value: "beta" } },
        { path: "description", before: { value: "Beta team" }, after: { value: "Beta team" } },
        { path: "twoFactorGracePeriod", before: { value: "48" }, after: { value: "72" } },
      ]);
      const report = markdownOf(review([{ op: "create", urn: urn("GroupSettings", "beta"), newState: { type: type("GroupSettings"), inputs: checked.inputs } }]));
      expect(report).toContain("| field | before | after |");
      expect(report).toContain("| <code>twoFactorGracePeriod</code> | <code>48</code> | <code>72</code> |");
      // In the state (its create's inputs), the next check keeps it: no change, and no read of the settings again.
      const created = await providers.GroupSettings.create(checked.inputs);
      const requests = await server.requestsDuring(async () => {
        const next = await providers.GroupSettings.check(checked.inputs, declared);
        expect(next.inputs.takeover).toEqual(checked.inputs.takeover);
        expect((await providers.GroupSettings.diff(created.id, created.outs, next.inputs)).changes).toBe(false);
      });
      expect(requests).toEqual([]);
    } finally {
      warnings.mockRestore();
    }
  });

  it("a secret setting it overwrites is named, never shown", async () => {
    await server.as().put("/application/settings", { akismet_enabled: true, akismet_api_key: "old-secret-value" });
    const checked = await providers.ApplicationSettings.check({}, { akismetApiKey: "new-secret-value", akismetEnabled: true });
    expect(checked.failures ?? []).toEqual([]);
    const takeover = checked.inputs.takeover as { overwrites: Record<string, unknown> };
    expect(takeover.overwrites).toEqual({ akismetApiKey: "[secret]" });
    expect(JSON.stringify(takeover)).not.toContain("secret-value");
    const inputs = { ...checked.inputs, akismetApiKey: "[secret]" };
    const [change] = review([{ op: "create", urn: urn("ApplicationSettings", "instance"), newState: { type: type("ApplicationSettings"), inputs } }]).changes;
    expect(change!.fields.find((field) => field.path === "akismetApiKey")).toEqual({ path: "akismetApiKey", before: { secret: true }, after: { secret: true } });
  });
});

describe("an owner the program names by numeric id is shown by its path", () => {
  const badge = { name: "by-id", linkUrl: "https://ci.example.com/by-id", imageUrl: "https://ci.example.com/by-id.svg" };

  it("check adds the path from the run's one read of the owner; create and a refresh keep it among the outputs", async () => {
    const acme = await server.as().get<{ id: number }>(apiPath`/groups/${"acme"}`);
    const requests = await server.requestsDuring(async () => {
      const checked = await providers.Badge.check({}, { ...badge, group: acme.id });
      expect(checked.failures ?? []).toEqual([]);
      expect(checked.inputs.ownerPath).toBe("acme");
      const second = await providers.Badge.check({}, { ...badge, name: "by-id-2", group: String(acme.id) });
      expect(second.inputs.ownerPath).toBe("acme");
    });
    expect(requests.filter((request) => request.method === "GET" && request.path === `/api/v4/groups/${acme.id}`)).toHaveLength(1);
    // Named by path: nothing added.
    expect((await providers.Badge.check({}, { ...badge, group: "acme" })).inputs).not.toHaveProperty("ownerPath");

    const checked = await providers.Badge.check({}, { ...badge, group: acme.id });
    const created = await providers.Badge.create(checked.inputs);
    expect(created.outs).toMatchObject({ ownerPath: "acme" });
    const refreshed = await providers.Badge.read(created.id, created.outs);
    expect(refreshed.props).toMatchObject({ ownerPath: "acme" });
    // Kept among the inputs too, as check gave it: after a refresh, the next preview's inputs show no change of it.
    expect(refreshed.inputs).toMatchObject({ ownerPath: "acme" });
    // The path is no property: diff compares none of it.
    expect((await providers.Badge.diff(created.id, { ...created.outs, ownerPath: "renamed" }, checked.inputs)).changes).toBe(false);
    await providers.Badge.delete(created.id, created.outs);

    const report = review([
      { op: "create", urn: urn("Badge", "new"), newState: { type: type("Badge"), inputs: checked.inputs } },
      // A delete, its state refreshed: the path from the outputs the refresh kept.
      { op: "delete", urn: urn("Badge", "old"), oldState: { type: type("Badge"), id: created.id, inputs: refreshed.inputs, outputs: refreshed.props } },
    ]);
    expect(report.changes.map((change) => [change.kind, change.owner])).toEqual([
      ["delete", "group acme"],
      ["create", "group acme"],
    ]);
    expect(report.changes[1]!.fields.map((field) => field.path)).not.toContain("ownerPath");
  });

  it("an object in the state that the run leaves as it is keeps the recorded path, and costs no read", async () => {
    const recorded = { ...badge, group: 1, ownerPath: "recorded" };
    const requests = await server.requestsDuring(async () => {
      const checked = await providers.Badge.check(recorded, { ...badge, group: 1 });
      expect(checked.inputs.ownerPath).toBe("recorded");
    });
    expect(requests).toEqual([]);
  });
});
