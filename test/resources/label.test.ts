/**
 * Label through the provider objects Pulumi calls, against the emulator over
 * HTTP: create (a named color kept as declared), refresh, a rename and a
 * priority updated in place, replace on another owner, delete, adoption and
 * import, a lost answer, and the refusals at preview.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const label = providers.Label;

interface LiveLabel {
  id: number;
  name: string;
  color: string;
  description: string | null;
  priority?: number | null;
  is_project_label?: boolean;
}

let count = 0;
const inputs = (overrides: Record<string, unknown> = {}) => ({ project: "acme/web", name: `label-${++count}-${Math.random().toString(36).slice(2, 6)}`, color: "teal", ...overrides });

async function createLabel(overrides: Record<string, unknown> = {}) {
  const checked = await label.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await label.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (id: string) => server.as().get<LiveLabel>("/" + id);

beforeAll(async () => {
  await server.configureProviders();
});

describe("lifecycle", () => {
  it("create sends one request; a named color is stored as hex and shows no change", async () => {
    let created: Awaited<ReturnType<typeof createLabel>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createLabel({ description: "Something is broken", priority: 2 });
    });
    expect(requests).toEqual([{ method: "POST", path: "/api/v4/projects/acme%2Fweb/labels", status: 201 }]);
    const { id, inputs: declared, outs } = created!;
    const onServer = await live(id);
    expect(id).toBe(`projects/acme%2Fweb/labels/${onServer.id}`);
    expect(onServer).toMatchObject({ color: "#008080", priority: 2, is_project_label: true, description: "Something is broken" });
    expect(outs).toMatchObject({ name: declared.name, color: "teal", storedColor: "#008080", labelId: onServer.id, textColor: "#FFFFFF" });
    expect(await label.diff(id, outs, declared)).toMatchObject({ changes: false });
    const refreshed = await label.read(id, outs);
    expect(await label.diff(id, refreshed.props!, declared)).toMatchObject({ changes: false });
  });

  it("a new name renames the label in place (new_name), keeping its id; color and priority update in the same request", async () => {
    const { id, inputs: declared, outs } = await createLabel();
    const changed = { ...declared, name: `${String(declared.name)}-renamed`, color: "#ff0000", priority: 0 };
    expect(await label.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(async () => {
      const updated = await label.update(id, outs, changed);
      expect(updated.outs).toMatchObject({ name: changed.name, storedColor: "#ff0000" });
    });
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/" + id, status: 200 }]);
    expect(await live(id)).toMatchObject({ name: changed.name, color: "#ff0000", priority: 0 });
  });

  it("a priority of null removes it", async () => {
    const { id, inputs: declared, outs } = await createLabel({ priority: 3 });
    await label.update(id, outs, { ...declared, priority: null });
    expect((await live(id)).priority).toBeNull();
  });

  it("another owner replaces the label", async () => {
    const { id, inputs: declared, outs } = await createLabel();
    expect(await label.diff(id, outs, { ...declared, project: "acme/api" })).toMatchObject({ changes: true, replaces: ["project"] });
  });

  it("refresh shows an out-of-band rename; after an out-of-band delete the label is gone", async () => {
    const { id, inputs: declared, outs } = await createLabel();
    await server.as().put(`/${id}`, { new_name: "renamed-elsewhere" });
    const refreshed = await label.read(id, outs);
    expect(refreshed.inputs).toMatchObject({ name: "renamed-elsewhere" });
    expect(await label.diff(id, refreshed.props!, declared)).toMatchObject({ changes: true, replaces: [] });
    await server.as().delete(`/${id}`);
    expect(await label.read(id, outs)).toEqual({ id: "" });
  });

  it("delete removes it with one request; deleting it again succeeds", async () => {
    const { id, outs } = await createLabel();
    const requests = await server.requestsDuring(() => label.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: "/api/v4/" + id, status: 204 }]);
    await expect(label.delete(id, outs)).resolves.toBeUndefined();
  });

  it("a group label is read through its group only; a project label id never reaches a group's label", async () => {
    const { id, outs } = await createLabel({ project: undefined, group: "acme" });
    expect(id).toMatch(/^groups\/acme\/labels\/\d+$/);
    expect(await label.read(id, outs)).toMatchObject({ id });
    expect(await label.read(`projects/acme%2Fweb/labels/${String(outs.labelId)}`, {})).toEqual({ id: "" });
    // A subgroup's id of its parent's label is not the subgroup's own.
    expect(await label.read(`groups/acme%2Fplatform/labels/${String(outs.labelId)}`, {})).toEqual({ id: "" });
    await label.delete(id, outs);
  });
});

describe("adoption and import", () => {
  it("adoptExisting takes over the owner's label of the same name, never a group's label seen in the project", async () => {
    const name = inputs().name;
    const group = await server.as().post<LiveLabel>(apiPath`/groups/${"acme/platform"}/labels`, { name, color: "#000000" });
    const own = await createLabel({ project: "acme/platform/infra", name: `${name}-own`, color: "#000000" });
    const adopted = await createLabel({ project: "acme/platform/infra", name: `${name}-own`, color: "#111111", adoptExisting: true });
    expect(adopted.id).toBe(own.id);
    expect((await live(own.id)).color).toBe("#111111");
    // The group's label of that name is not the project's: creating it is refused by the server (409), never a takeover.
    const checked = await label.check({}, inputs({ project: "acme/platform/infra", name, adoptExisting: true }));
    await expect(label.create(checked.inputs)).rejects.toThrow(/409/);
    await server.as().delete(apiPath`/groups/${"acme/platform"}/labels/${group.id}`);
  });

  it("the import option takes over the label its id names: one GET when it matches", async () => {
    const existing = await server.as().post<LiveLabel>(apiPath`/projects/${"acme/web"}/labels`, { name: "imported-label", color: "#abcdef" });
    const id = `projects/acme%2Fweb/labels/${existing.id}`;
    const checked = await label.check({}, { project: "acme/web", name: "imported-label", color: "#abcdef", __import: id });
    const requests = await server.requestsDuring(async () => {
      expect((await label.create(checked.inputs)).id).toBe(id);
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/" + id, status: 200 }]);
  });

  it("an import id not of the form is refused, saying the form", async () => {
    const checked = await label.check({}, inputs({ __import: "acme/web:bug" }));
    await expect(label.create(checked.inputs)).rejects.toThrow(/projects\/<project>\/labels\/<id> or groups\/<group>\/labels\/<id>/);
  });

  it("a lost response to the POST does not create a second label", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/labels$/, sequence: ["commit-then-error"] }] });
    const { id, inputs: declared } = await createLabel();
    const all = await server.as().list<LiveLabel>(apiPath`/projects/${"acme/web"}/labels`, { search: declared.name as string });
    expect(all.filter((one) => one.name === declared.name).map((one) => one.id)).toEqual([Number(id.split("/").at(-1))]);
  });
});

describe("verification at preview", () => {
  const reasonsAs = async (user: string, declared: Record<string, unknown>, olds: Record<string, unknown> = {}) => {
    await server.configureProviders(user, { "platform:verifyAtPreview": "true" });
    try {
      return ((await label.check(olds, declared)).failures ?? []).map((failure) => failure.reason);
    } finally {
      await server.configureProviders();
    }
  };

  it("a Developer may create a label; a Guest is refused naming the role, before any write", async () => {
    expect(await reasonsAs("dev", inputs())).toEqual([]);
    const requests = await server.requestsDuring(async () => {
      const reasons = await reasonsAs("guest", inputs({ project: undefined, group: "acme" }));
      expect(reasons).toEqual(["group: the token's user (guest) needs at least the Planner role on group acme for Label, and is Guest there"]);
    });
    expect(requests.filter((request) => request.method !== "GET")).toEqual([]);
  });

  it("a label of the same name in the owner is refused with the id to import it by", async () => {
    const { id, inputs: declared } = await createLabel();
    const reasons = await reasonsAs("root", { ...declared });
    expect(reasons.join("\n")).toContain(`a label named ${String(declared.name)} already exists in project acme/web (id ${id})`);
  });

  it("a name a group above already gives a label is refused, as the server refuses it; a rename only where the project's own group has it", async () => {
    const name = inputs().name;
    const group = await server.as().post<LiveLabel>(apiPath`/groups/${"acme"}/labels`, { name, color: "#000000" });
    try {
      for (const owner of [{ project: "acme/web" }, { project: "acme/platform/infra" }, { group: "acme/platform" }]) {
        const declared = inputs({ project: undefined, ...owner, name });
        const where = "project" in owner ? `project ${owner.project}` : `group ${owner.group}`;
        expect(await reasonsAs("root", declared), where).toEqual([
          `name: ${"project" in owner ? "one of its groups" : "a group above it"} has a label named ${name}, which ${where} sees as its own: the server refuses another label of that name (Label already exists); use that label, or choose another name`,
        ]);
        const checked = await label.check({}, declared);
        await expect(label.create(checked.inputs), where).rejects.toThrow(/409: Label already exists/);
      }
      // Another letter case is another name.
      expect(await reasonsAs("root", inputs({ name: name.toUpperCase() }))).toEqual([]);
      // A rename of a project's label: refused where the project's own group has the name, taken where only a group further up has it.
      const web = await createLabel({ project: "acme/web" });
      const renamed = { ...web.inputs, name };
      expect(await reasonsAs("root", renamed, web.inputs)).toEqual([
        `name: group acme, the group of project acme/web, has a label named ${name}: the server refuses to rename a project's label to the name of a label of its group (already exists at group level); use the group's label, or choose another name`,
      ]);
      await expect(label.update(web.id, web.outs, renamed)).rejects.toThrow(/400/);
      const infra = await createLabel({ project: "acme/platform/infra" });
      const infraRenamed = { ...infra.inputs, name };
      expect(await reasonsAs("root", infraRenamed, infra.inputs)).toEqual([]);
      await label.update(infra.id, infra.outs, infraRenamed);
      expect((await live(infra.id)).name).toBe(name);
      // A group's label may take its ancestor's label's name by a rename.
      const platform = await createLabel({ project: undefined, group: "acme/platform" });
      const platformRenamed = { ...platform.inputs, name };
      expect(await reasonsAs("root", platformRenamed, platform.inputs)).toEqual([]);
      await label.update(platform.id, platform.outs, platformRenamed);
    } finally {
      await server.as().delete(apiPath`/groups/${"acme"}/labels/${group.id}`);
    }
  });

  it("a group's label moved below its group, of the same name, is deleted first: the preview passes it and the apply makes it", async () => {
    const moved = await createLabel({ project: undefined, group: "acme" });
    const below = { ...moved.inputs, group: "acme/platform" };
    expect(await reasonsAs("root", below, moved.inputs)).toEqual([]);
    // The server refuses the new label while the old stands, so the engine deletes the old one first.
    expect(await label.diff(moved.id, moved.outs, below)).toMatchObject({ changes: true, replaces: ["group"], deleteBeforeReplace: true });
    await label.delete(moved.id, moved.outs);
    const made = await label.create((await label.check(moved.inputs, below)).inputs);
    expect((await live(made.id)).name).toBe(moved.inputs.name);
    // Elsewhere the new label is made first, the old one kept until it is.
    const web = await createLabel();
    expect(await label.diff(web.id, web.outs, { ...web.inputs, project: "acme/api" })).toMatchObject({ replaces: ["project"], deleteBeforeReplace: false });
  });

  it("bad input fails at check, naming the property and the rule, before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      const checked = await label.check({}, inputs({ color: "not-a-color", name: "a,b" }));
      const reasons = (checked.failures ?? []).map((failure) => failure.reason).join("\n");
      expect(reasons).toMatch(/name: must not contain a comma/);
      expect(reasons).toMatch(/color: must be a color/);
      const onGroup = await label.check({}, inputs({ project: undefined, group: "acme", priority: 1 }));
      expect((onGroup.failures ?? []).map((failure) => failure.reason)).toEqual([expect.stringMatching(/^priority: only a project's labels have a priority/)]);
    });
    expect(requests).toEqual([]);
  });
});
