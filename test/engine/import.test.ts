/**
 * The `import` option as the engine runs it (src/engine/import.ts): the
 * resource class passes the id in the engine's envelope (`__engine`,
 * src/engine/envelope.ts), check hands it on, and create takes over that object. Through `providers.<Name>` against the emulator.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { resourceOptions, resourceProps } from "../../dist/engine/resource";
import { badgeDefinition } from "../../dist/resources/badge";
import { definitions } from "../../dist/resources";
import { importedObject } from "../../dist/engine/import";
import { useEmulator } from "../support";

const server = useEmulator();

beforeAll(async () => {
  await server.configureProviders();
});

/** check, as the engine does, with the id an `import` option gives: the inputs create gets. */
async function checkedImport(kind: keyof typeof providers, inputs: Record<string, unknown>, id: string) {
  const checked = await providers[kind].check({}, { ...inputs, __engine: { importId: id } });
  expect(checked.failures ?? []).toEqual([]);
  expect((checked.inputs as Record<string, unknown>).__engine).toEqual({ importId: id });
  return checked.inputs;
}

/** check, then create. */
async function importAs(kind: keyof typeof providers, inputs: Record<string, unknown>, id: string) {
  return providers[kind].create(await checkedImport(kind, inputs, id));
}

/** The requests create sends for an import (check's own reads at preview left out). */
async function requestsOfImport(kind: keyof typeof providers, inputs: Record<string, unknown>, id: string) {
  const checked = await checkedImport(kind, inputs, id);
  return (await server.requestsDuring(() => providers[kind].create(checked))).map((request) => `${request.method} ${request.path}`);
}

const badgeInputs = { group: "acme", name: "imported", linkUrl: "https://ci.example.com/new", imageUrl: "https://ci.example.com/badge.svg" };

describe("the resource class", () => {
  it("takes import out of the options (the engine cannot import a dynamic resource) and passes the id in the envelope", () => {
    const opts: pulumi.CustomResourceOptions = { import: "groups/acme/badges/7", protect: true };
    expect(resourceOptions(badgeDefinition, opts)).not.toHaveProperty("import");
    expect(resourceOptions(badgeDefinition, opts).protect).toBe(true);
    expect(resourceProps(badgeDefinition, badgeInputs, opts).__engine).toEqual({ importId: "groups/acme/badges/7" });
    expect(resourceProps(badgeDefinition, badgeInputs, {})).not.toHaveProperty("__engine");
  });
});

describe("inputs written by earlier versions", () => {
  it("an id under the earlier `__import` key is read: check hands it on in the envelope, and create takes that object over", async () => {
    const made = await server.as().post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, { name: "earlier", link_url: "https://ci.example.com/old", image_url: badgeInputs.imageUrl });
    const id = `groups/acme/badges/${made.id}`;
    const checked = (await providers.Badge.check({}, { ...badgeInputs, name: "earlier", __import: id })).inputs;
    expect(checked).not.toHaveProperty("__import");
    expect(checked.__engine).toEqual({ importId: id });
    // A create the earlier version left pending, run again with its recorded inputs.
    const requests = await server.requestsDuring(() => providers.Badge.create({ ...badgeInputs, name: "earlier", __import: id }));
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /api/v4/${id}`, `PUT /api/v4/${id}`]);
  });
});

describe("create with an import id", () => {
  it("reads the object by id and updates only what differs: no POST", async () => {
    const made = await server.as().post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, { ...badgeInputs, link_url: "https://ci.example.com/old", image_url: badgeInputs.imageUrl });
    const id = `groups/acme/badges/${made.id}`;
    expect(await requestsOfImport("Badge", badgeInputs, id)).toEqual([`GET /api/v4/${id}`, `PUT /api/v4/${id}`]);
    expect((await server.as().get<{ link_url: string }>(`/${id}`)).link_url).toBe("https://ci.example.com/new");
  });

  it("an object already as declared is taken over with one GET", async () => {
    const made = await server.as().post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, { name: "as-declared", link_url: badgeInputs.linkUrl, image_url: badgeInputs.imageUrl });
    const id = `groups/acme/badges/${made.id}`;
    expect(await requestsOfImport("Badge", { ...badgeInputs, name: "as-declared" }, id)).toEqual([`GET /api/v4/${id}`]);
  });

  it("an id with no object behind it is refused, saying where the id forms are", async () => {
    await expect(importAs("Badge", badgeInputs, "groups/acme/badges/99999")).rejects.toThrow(
      'Badge: cannot import "groups/acme/badges/99999": there is no such object, or the token\'s user cannot see it. The import option takes the id of an existing Badge, as docs/resources.md ("Taking over an object by id") gives its form.',
    );
  });

  it("an id not of the kind's form is refused with the form", async () => {
    await expect(importAs("Badge", badgeInputs, "42")).rejects.toThrow('Badge: cannot import "42": Badge id "42" is not of the form projects/<project>/badges/<id> or groups/<group>/badges/<id>.');
  });

  it("every kind that declares its id form refuses an id not of it before any request, in the form's words", async () => {
    const withForm = Object.values(definitions).filter((definition) => definition.idForm !== undefined);
    expect(withForm.map((definition) => definition.name)).toEqual(expect.arrayContaining(["Badge", "MergeRequest", "PipelineSchedule", "Upstream", "VirtualRegistry", "SamlIdentity"]));
    for (const definition of withForm) {
      const requests = await server.requestsDuring(async () => {
        await expect(importedObject(definition, { client: {} as never }, "not/an id", {})).rejects.toThrow(
          `${definition.name}: cannot import "not/an id": ${definition.name} id "not/an id" is not ${definition.idForm!.says}.`,
        );
      });
      expect(requests).toEqual([]);
    }
  });

  it("a settings resource imports the object its declaration names, and refuses an id naming another", async () => {
    const beta = await server.as().get<{ id: number }>(apiPath`/groups/${"beta"}`);
    await expect(importAs("GroupSettings", { group: "beta", description: "Imported" }, "groups/1")).rejects.toThrow(
      `GroupSettings: cannot import "groups/1": the declared properties name the object "groups/${beta.id}".`,
    );
    const created = await importAs("GroupSettings", { group: "beta", description: "Imported" }, `groups/${beta.id}`);
    expect(created.id).toBe(`groups/${beta.id}`);
    expect((await server.as().get<{ description: string }>(apiPath`/groups/${"beta"}`)).description).toBe("Imported");
  });

  it("a SAML identity is imported by its create, which records the prior extern_uid, once the id names the declared member", async () => {
    const uidOfDev = async () => (await server.as("alice").list<{ user_id: number; extern_uid: string }>("/groups/acme/saml/identities")).find((identity) => identity.user_id === 4)?.extern_uid;
    const before = await uidOfDev();
    await server.actingAs("alice", async () => {
      const declared = { group: "acme", user: "dev", externUid: "dev@idp.example" };
      await expect(importAs("SamlIdentity", declared, "groups/acme/saml/users/3")).rejects.toThrow(
        'SamlIdentity: cannot import "groups/acme/saml/users/3": the declared properties name the object "groups/acme/saml/users/4".',
      );
      expect(await uidOfDev()).toBe(before);
      const created = await importAs("SamlIdentity", declared, "groups/acme/saml/users/4");
      expect(created.outs).toMatchObject({ restoreValues: { externUid: before } });
    });
    expect(await uidOfDev()).toBe("dev@idp.example");
  });

  it("an exclusive set imports by its ordinary create: nothing is removed", async () => {
    await server.as().post(apiPath`/groups/${"beta"}/badges`, { name: "stray", link_url: "https://x.example.com", image_url: "https://x.example.com/b.svg" });
    const requests = await requestsOfImport("ExclusiveBadges", { group: "beta", keep: [] }, "groups/beta/badges");
    expect(requests.every((request) => request.startsWith("GET "))).toBe(true);
    expect((await server.as().list<{ name: string }>(apiPath`/groups/${"beta"}/badges`)).map((badge) => badge.name)).toContain("stray");
  });
});

describe("check of a resource to import, at preview", () => {
  beforeAll(() => server.configureProviders("root", { "platform:verifyAtPreview": "true" }));
  afterAll(() => server.configureProviders());

  const failuresOf = async (kind: keyof typeof providers, inputs: Record<string, unknown>, id: string) =>
    ((await providers[kind].check({}, { ...inputs, __engine: { importId: id } })).failures ?? []).map((failure) => failure.reason);

  it("a missing object, a malformed id, or a settings id naming another object fails the preview", async () => {
    expect(await failuresOf("Badge", badgeInputs, "groups/acme/badges/99999")).toEqual([expect.stringContaining('Badge: cannot import "groups/acme/badges/99999": there is no such object')]);
    expect(await failuresOf("Badge", badgeInputs, "42")).toEqual([expect.stringContaining('Badge id "42" is not of the form')]);
    expect(await failuresOf("GroupSettings", { group: "beta", description: "x" }, "groups/1")).toEqual([expect.stringContaining("the declared properties name the object")]);
  });

  it("an object that differs passes as a takeover: the `takeover` input and a warning name each value it overwrites", async () => {
    const made = await server.as().post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, { name: "to-preview", link_url: "https://ci.example.com/old", image_url: badgeInputs.imageUrl });
    const id = `groups/acme/badges/${made.id}`;
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const checked = await providers.Badge.check({}, { ...badgeInputs, name: "to-preview", __engine: { importId: id } });
      expect(checked.failures ?? []).toEqual([]);
      // The value each field has now; the new one is the input beside it.
      expect(checked.inputs.takeover).toEqual({ id, overwrites: { linkUrl: "https://ci.example.com/old" } });
      expect(warnings.mock.calls.map((call) => String(call[0]))).toEqual([
        `warning: Badge ${id}: the import option takes over this existing object; it overwrites linkUrl: "https://ci.example.com/old" → "https://ci.example.com/new".`,
      ]);
      // create takes the checked inputs as they are: the takeover is no property of the badge.
      const created = await providers.Badge.create(checked.inputs);
      expect(created.outs).not.toHaveProperty("takeover");
      // The next check (the badge in the state) takes over nothing again: it keeps the takeover recorded, so the
      // recorded and new inputs do not differ, and warns no more; its diff is none.
      const next = await providers.Badge.check(checked.inputs, { ...badgeInputs, name: "to-preview", __engine: { importId: id } });
      expect(next.inputs.takeover).toEqual(checked.inputs.takeover);
      expect(warnings).toHaveBeenCalledTimes(1);
      expect((await providers.Badge.diff(created.id, created.outs, next.inputs)).changes).toBe(false);
    } finally {
      warnings.mockRestore();
    }
  });

  it("an object as declared passes as a takeover that overwrites nothing: its `takeover` input says so, and no warning adds rows to the CLI's text", async () => {
    const made = await server.as().post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, { name: "as-declared", link_url: badgeInputs.linkUrl, image_url: badgeInputs.imageUrl });
    const id = `groups/acme/badges/${made.id}`;
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const checked = await providers.Badge.check({}, { ...badgeInputs, name: "as-declared", __engine: { importId: id } });
      expect(checked.failures ?? []).toEqual([]);
      expect(checked.inputs.takeover).toEqual({ id, overwrites: {} });
      expect(warnings).not.toHaveBeenCalled();
    } finally {
      warnings.mockRestore();
    }
  });

  it("adoptExisting that finds an object is a takeover too; a secret it overwrites is named, never shown", async () => {
    const group = "acme";
    await server.as().post(apiPath`/groups/${group}/integrations/mattermost`, { webhook: "https://chat.example.test/hooks/old-secret-value", channel: "old" }).catch(() => undefined);
    await server.as().put(apiPath`/groups/${group}/integrations/mattermost`, { webhook: "https://chat.example.test/hooks/old-secret-value", channel: "old" });
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const inputs = { group, slug: "mattermost", webhook: "https://chat.example.test/hooks/new-secret-value", channel: "ci", adoptExisting: true };
      const checked = await providers.GroupIntegration.check({}, inputs);
      expect(checked.failures ?? []).toEqual([]);
      const takeover = checked.inputs.takeover as { id: string; overwrites: Record<string, unknown> };
      expect(takeover.overwrites).toMatchObject({ channel: "old", webhook: "[secret]" });
      expect(String(warnings.mock.calls[0]![0])).toContain('channel: "old" → "ci"');
      expect(String(warnings.mock.calls[0]![0])).toContain("webhook (secret, not shown)");
      const text = JSON.stringify(takeover) + warnings.mock.calls.map((call) => String(call[0])).join("\n");
      expect(text).not.toMatch(/secret-value/);
      expect(String(warnings.mock.calls[0]![0])).toMatch(/adoptExisting takes over this existing object; it overwrites/);
      // Nothing to take over: an ordinary create.
      const other = await providers.Badge.check({}, { ...badgeInputs, name: "nothing-to-adopt", adoptExisting: true });
      expect(other.inputs).not.toHaveProperty("takeover");
    } finally {
      warnings.mockRestore();
    }
  });

  describe("an address field not known yet (another resource's output, before its first up)", () => {
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    let registry: number;
    let other: number;
    let upstreamId: number;
    const declared = { url: "https://quay.example.com", name: "Quay", username: "puller", password: "upstream-secret-value", cacheValidityHours: 48 };
    beforeAll(async () => {
      const admin = server.as();
      const make = (name: string) => admin.post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name });
      registry = (await make("takeover-at-preview")).id;
      other = (await make("takeover-at-preview-2")).id;
      upstreamId = (await admin.post<{ id: number }>(apiPath`/virtual_registries/container/registries/${registry}/upstreams`, { ...declared, cache_validity_hours: 48, password: "old-secret-value" })).id;
    });
    const check = (kind: keyof typeof providers, inputs: Record<string, unknown>, id: string) => providers[kind].check({}, { ...inputs, __engine: { importId: id } });

    it("is taken as the object has it, and every other field is compared: an upstream's registry", async () => {
      const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
      try {
        const same = await check("Upstream", { ...declared, registry: UNKNOWN }, String(upstreamId));
        expect(same.failures ?? []).toEqual([]);
        // Only the write-only password, which every takeover sends; the registry stays unknown in the inputs.
        expect(same.inputs.takeover).toEqual({ id: String(upstreamId), overwrites: { password: "[secret]" } });
        expect(same.inputs.registry).toBe(UNKNOWN);
        expect(String(warnings.mock.calls.at(-1)![0])).toBe(
          `warning: Upstream ${upstreamId}: the import option takes over this existing object; it overwrites password (secret, not shown); registry, known after the up, taken as the object's: ${registry}.`,
        );
        const renamed = await check("Upstream", { ...declared, name: "Quay mirror", registry: UNKNOWN }, String(upstreamId));
        expect(renamed.inputs.takeover).toEqual({ id: String(upstreamId), overwrites: { name: "Quay", password: "[secret]" } });
        // Once known (the up's check), the same takeover.
        expect((await check("Upstream", { ...declared, registry }, String(upstreamId))).inputs.takeover).toEqual(same.inputs.takeover);
        expect(JSON.stringify(warnings.mock.calls)).not.toContain("secret-value");
      } finally {
        warnings.mockRestore();
      }
    });

    it("an exclusive set's owner is the one its collection path names", async () => {
      const id = `virtual_registries/container/registries/${registry}/upstreams`;
      const checked = await check("ExclusiveUpstreams", { registry: UNKNOWN, keep: [UNKNOWN] }, id);
      expect(checked.failures ?? []).toEqual([]);
      expect(checked.inputs.takeover).toEqual({ id, overwrites: {} });
    });

    it("an object that does not fix it, or another unknown input, leaves the comparison to the up", async () => {
      // An upstream serving two registries: the id does not say which one it was declared in.
      const shared = (await server.as().post<{ id: number }>(apiPath`/virtual_registries/container/registries/${registry}/upstreams`, { url: "https://shared.example.com", name: "Shared" })).id;
      await server.as().post("/virtual_registries/container/registry_upstreams", { registry_id: other, upstream_id: shared });
      const twice = await check("Upstream", { url: "https://shared.example.com", name: "Shared", registry: UNKNOWN }, String(shared));
      expect(twice.failures ?? []).toEqual([]);
      expect(twice.inputs).not.toHaveProperty("takeover");
      const unknownUrl = await check("Upstream", { ...declared, url: UNKNOWN, registry: UNKNOWN }, String(upstreamId));
      expect(unknownUrl.failures ?? []).toEqual([]);
      expect(unknownUrl.inputs).not.toHaveProperty("takeover");
      // A missing object still fails the preview, whatever is unknown.
      expect((await check("Upstream", { ...declared, registry: UNKNOWN }, "999999")).failures?.map((failure) => failure.reason)).toEqual([
        expect.stringContaining('Upstream: cannot import "999999": there is no such object'),
      ]);
    });
  });

  it("a resource already in the state is not read again", async () => {
    const requests = await server.requestsDuring(() => providers.Badge.check({ ...badgeInputs }, { ...badgeInputs, __engine: { importId: "groups/acme/badges/99999" } }));
    expect(requests.filter((request) => request.path.includes("/badges/"))).toEqual([]);
  });
});
