/**
 * Project and group labels in the emulator: the lists (a project sees its
 * groups' labels, a group its ancestors'), one label by id or name, create
 * with the server's rules (a name the owner sees is 409, colors by name or
 * hex, names without commas), rename with `new_name`, a project's priority,
 * delete, who may do what, and the `labels` seed section.
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, SeedError, stateFromSeed, type Seed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const server = useEmulator();
const project = (path: string) => `/projects/${encodeURIComponent(path)}/labels`;
const group = (path: string) => `/groups/${encodeURIComponent(path)}/labels`;
const names = (body: { name: string }[]) => body.map((label) => label.name);

describe("labels", () => {
  it("creates a group label and a project label; the project's list shows both, in title order, told apart by is_project_label", async () => {
    const made = await call(server.emulator, group("acme"), { method: "POST", body: { name: "triage", color: "red", description: "Needs a look" } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "triage", color: "#FF0000", description: "Needs a look", subscribed: false });
    expect(made.body).not.toHaveProperty("is_project_label");
    const own = await call(server.emulator, project("acme/api"), { method: "POST", body: { name: "api-only", color: "#abc", priority: 2 } });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ name: "api-only", color: "#abc", priority: 2, is_project_label: true, description: null });
    const listed = await call(server.emulator, project("acme/api"));
    expect(listed.body.filter((label: { name: string }) => ["triage", "api-only"].includes(label.name))).toMatchObject([
      { name: "api-only", is_project_label: true, priority: 2 },
      { name: "triage", is_project_label: false, priority: null },
    ]);
    // A subgroup sees its ancestors' labels, unless asked not to.
    expect(names((await call(server.emulator, group("acme/platform"))).body)).toContain("triage");
    expect(names((await call(server.emulator, group("acme/platform") + "?include_ancestor_groups=false")).body)).not.toContain("triage");
    // And the group lists its projects' labels only when asked.
    expect(names((await call(server.emulator, group("acme") + "?only_group_labels=false")).body)).toContain("api-only");
  });

  it("reads one label by id or by name; a project reads its groups' labels too", async () => {
    const made = (await call(server.emulator, project("acme/api"), { method: "POST", body: { name: "scoped::one", color: "#112233" } })).body;
    expect((await call(server.emulator, `${project("acme/api")}/${made.id}`)).body.name).toBe("scoped::one");
    expect((await call(server.emulator, `${project("acme/api")}/${encodeURIComponent("scoped::one")}`)).body.id).toBe(made.id);
    expect((await call(server.emulator, `${project("acme/api")}/triage`)).body).toMatchObject({ name: "triage", is_project_label: false });
    expect((await call(server.emulator, `${project("acme/api")}/nothing-here`)).body).toEqual({ message: "404 Label Not Found" });
  });

  it("refuses a name the owner already sees (its own or a group's): 409", async () => {
    const again = await call(server.emulator, project("acme/api"), { method: "POST", body: { name: "triage", color: "#000000" } });
    expect(again).toMatchObject({ status: 409, body: { message: "Label already exists" } });
    expect((await call(server.emulator, group("acme/platform"), { method: "POST", body: { name: "triage", color: "#000000" } })).status).toBe(409);
    // Names are case-sensitive.
    expect((await call(server.emulator, project("acme/api"), { method: "POST", body: { name: "Triage", color: "#000000" } })).status).toBe(201);
  });

  it("checks the name and the color as the model does; a missing one is a parameter error", async () => {
    const bad = await call(server.emulator, project("acme/api"), { method: "POST", body: { name: "a,b", color: "reddish" } });
    expect(bad).toMatchObject({ status: 400, body: { message: { title: ["is invalid"], color: ["must be a valid color code"] } } });
    expect((await call(server.emulator, project("acme/api"), { method: "POST", body: { name: "x" } })).body).toEqual({ error: "color is missing" });
    const negative = await call(server.emulator, project("acme/api"), { method: "POST", body: { name: "neg", color: "#000000", priority: -1 } });
    expect(negative.status).toBe(400);
  });

  it("renames in place with new_name and keeps the id; a project label may not take its group's label's name", async () => {
    const made = (await call(server.emulator, project("acme/api"), { method: "POST", body: { name: "old-name", color: "navy" } })).body;
    const renamed = await call(server.emulator, `${project("acme/api")}/${made.id}`, { method: "PUT", body: { new_name: "new-name", description: "now" } });
    expect(renamed.body).toMatchObject({ id: made.id, name: "new-name", color: "#000080", description: "now" });
    const clash = await call(server.emulator, `${project("acme/api")}/${made.id}`, { method: "PUT", body: { new_name: "triage" } });
    expect(clash).toMatchObject({ status: 400, body: { message: { title: ["already exists at group level for Acme. Please choose another one."] } } });
    const taken = await call(server.emulator, `${project("acme/api")}/${made.id}`, { method: "PUT", body: { new_name: "api-only" } });
    expect(taken.body).toEqual({ message: { title: ["has already been taken"] } });
    const nothing = await call(server.emulator, `${project("acme/api")}/${made.id}`, { method: "PUT", body: {} });
    expect(nothing).toMatchObject({ status: 400, body: { error: "new_name, color, description, priority, archived are missing, at least one parameter must be provided" } });
    // A blank priority removes it; a description set empty clears it.
    await call(server.emulator, `${project("acme/api")}/${made.id}`, { method: "PUT", body: { priority: 5 } });
    expect((await call(server.emulator, `${project("acme/api")}/${made.id}`, { method: "PUT", body: { priority: "", description: "" } })).body).toMatchObject({ priority: null, description: null });
  });

  it("a group's label is changed and deleted through its group only; through a project it is another's (404 by id of a grandparent's)", async () => {
    const parent = (await call(server.emulator, group("acme"), { method: "POST", body: { name: "parent-only", color: "#123456" } })).body;
    expect((await call(server.emulator, `${group("acme/platform")}/${parent.id}`, { method: "PUT", body: { color: "#654321" } })).status).toBe(404);
    expect((await call(server.emulator, `${group("acme/platform")}/${parent.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await call(server.emulator, `${project("acme/platform/infra")}/${parent.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await call(server.emulator, `${group("acme")}/${parent.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(server.emulator, `${group("acme")}/${parent.id}`)).status).toBe(404);
  });

  it("managing labels needs the Planner role or above (Developers may, Guests may not); reading, only to see the owner", async () => {
    expect((await call(server.emulator, project("acme/api"), { method: "POST", as: "guest", body: { name: "g", color: "#000000" } })).status).toBe(403);
    expect((await call(server.emulator, group("acme"), { method: "POST", as: "guest", body: { name: "g", color: "#000000" } })).status).toBe(403);
    expect((await call(server.emulator, project("acme/api"), { method: "POST", as: "dev", body: { name: "by-dev", color: "#000000" } })).status).toBe(201);
    expect((await call(server.emulator, project("acme/api"), { as: "guest" })).status).toBe(200);
    expect((await call(server.emulator, project("acme/api"), { as: "outsider" })).body).toEqual({ message: "404 Project Not Found" });
    expect((await call(server.emulator, project("acme/api"), { as: null })).status).toBe(401);
  });

  it("the labels seed section adds group and project labels, checked as the API checks them", () => {
    const seed: Seed = { ...defaultSeed, labels: { groups: { acme: [{ name: "seeded", color: "green" }] }, projects: { "acme/web": [{ name: "web-seeded", color: "#fff", priority: 1 }] } } };
    expect(() => stateFromSeed(seed)).not.toThrow();
    const clash = { ...defaultSeed, labels: { groups: { acme: [{ name: "seeded", color: "green" }] }, projects: { "acme/web": [{ name: "seeded", color: "#fff" }] } } };
    expect(() => stateFromSeed(clash)).toThrow(SeedError);
    expect(() => stateFromSeed({ ...defaultSeed, labels: { groups: { acme: [{ name: "p", color: "red", priority: 1 }] } } })).toThrow(/only a project's labels have a priority/);
  });
});
