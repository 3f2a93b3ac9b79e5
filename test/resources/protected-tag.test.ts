/**
 * ProtectedTag through the provider objects Pulumi calls, against the
 * emulator over HTTP: create, refresh, a new level (a replacement: the API
 * changes no rule in place), delete, takeover, and the preview's refusals.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const rule = providers.ProtectedTag;
const TAGS = "/api/v4/projects/acme%2Fweb/protected_tags";

interface LiveRule {
  name: string;
  create_access_levels: { id: number; access_level: number }[];
}

const unique = () => Math.random().toString(36).slice(2, 8);
const inputs = (overrides: Record<string, unknown> = {}) => ({ project: "acme/web", name: `v${unique()}-*`, createAccessLevel: "maintainer", ...overrides });

async function createRule(overrides: Record<string, unknown> = {}) {
  const checked = await rule.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await rule.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (id: string) => server.as().get<LiveRule>("/" + id);

beforeAll(async () => {
  await server.configureProviders();
});

describe("lifecycle", () => {
  it("create sends one POST; the state records the level as declared; its own state shows no change", async () => {
    let created: Awaited<ReturnType<typeof createRule>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createRule({ createAccessLevel: 30 });
    });
    expect(requests).toEqual([{ method: "POST", path: TAGS, status: 201 }]);
    const { id, inputs: declared, outs } = created!;
    expect(id).toBe(`projects/acme%2Fweb/protected_tags/${encodeURIComponent(declared.name as string)}`);
    expect(await live(id)).toMatchObject({ name: declared.name, create_access_levels: [{ access_level: 30 }] });
    expect(outs).toMatchObject({ createAccessLevel: 30, createAccessLevels: [{ access_level: 30 }] });
    expect(await rule.diff(id, outs, declared)).toMatchObject({ changes: false });
  });

  it("a new level replaces the rule, the old one removed first (two rules of one name cannot exist)", async () => {
    const { id, inputs: declared, outs } = await createRule();
    expect(await rule.diff(id, outs, { ...declared, createAccessLevel: "developer" })).toMatchObject({ changes: true, replaces: ["createAccessLevel"], deleteBeforeReplace: true });
    expect(await rule.diff(id, outs, { ...declared, createAccessLevel: 40 })).toMatchObject({ changes: false });
    expect(await rule.diff(id, outs, { ...declared, name: "other-*" })).toMatchObject({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
  });

  it("refresh shows a rule changed out of band; one removed out of band is gone", async () => {
    const { id, inputs: declared, outs } = await createRule();
    await server.as().delete("/" + id);
    await server.as().post(apiPath`/projects/${"acme/web"}/protected_tags`, { name: declared.name, create_access_level: 0 });
    const refreshed = await rule.read(id, outs);
    expect(refreshed.props).toMatchObject({ createAccessLevel: 0 });
    expect(await rule.diff(id, refreshed.props, declared)).toMatchObject({ changes: true, replaces: ["createAccessLevel"] });
    await server.as().delete("/" + id);
    expect(await rule.read(id, outs)).toEqual({ id: "" });
  });

  it("delete unprotects with one request; again, it is gone already", async () => {
    const { id, outs } = await createRule();
    const requests = await server.requestsDuring(() => rule.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: "/api/v4/" + id, status: 204 }]);
    await expect(rule.delete(id, outs)).resolves.toBeUndefined();
  });

  it("adoptExisting takes over a rule of the name that matches; the import option by its id", async () => {
    await server.as().post(apiPath`/projects/${"acme/web"}/protected_tags`, { name: "adopt-*", create_access_level: 40 });
    const checked = await rule.check({}, inputs({ name: "adopt-*", adoptExisting: true }));
    const requests = await server.requestsDuring(async () => {
      expect((await rule.create(checked.inputs)).id).toBe("projects/acme%2Fweb/protected_tags/adopt-*");
    });
    expect(requests.map((request) => request.method)).toEqual(["GET"]);
    await server.as().post(apiPath`/projects/${"acme/web"}/protected_tags`, { name: "import-*", create_access_level: 40 });
    const imported = await rule.check({}, { ...inputs({ name: "import-*" }), __import: "projects/acme%2Fweb/protected_tags/import-*" });
    expect((await rule.create(imported.inputs)).id).toBe("projects/acme%2Fweb/protected_tags/import-*");
  });
});

describe("at preview", () => {
  const reasonsOf = async (declared: Record<string, unknown>) => ((await rule.check({}, declared)).failures ?? []).map((failure) => failure.reason);

  it("a level that is not one is refused naming the property, before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await reasonsOf(inputs({ createAccessLevel: "reporter" }))).toEqual([expect.stringMatching(/^createAccessLevel: must be one of no_one, developer, maintainer, admin/)]);
      expect(await reasonsOf(inputs({ name: "" }))).toEqual([expect.stringMatching(/^name: must not be empty/)]);
    });
    expect(requests).toEqual([]);
  });

  it("a Developer is refused naming the Maintainer role; a rule of the name is named with the id to import it by", async () => {
    await server.verifyingAs("dev", async () => {
    expect((await reasonsOf(inputs())).join("\n")).toMatch(/at least the Maintainer role on project acme\/web/);
    });
    await server.as().post(apiPath`/projects/${"acme/web"}/protected_tags`, { name: "taken-*" });
    await server.verifyingAs("root", async () => {
    expect(await reasonsOf(inputs({ name: "taken-*" }))).toEqual([expect.stringMatching(/protected tag taken-\* already exists in project acme\/web .*import: "projects\/acme%2Fweb\/protected_tags\/taken-\*"/)]);
    });
  });
});
