/**
 * Project through the provider objects Pulumi calls, against the emulator:
 * create (with a README), read, update in place (settings, rename, transfer,
 * archive), delete (marked for deletion where the server delays it), the
 * takeover of a seeded project with the import option, and the preview's
 * refusals.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const project = providers.Project;

interface LiveProject {
  id: number;
  path_with_namespace: string;
  visibility: string;
  archived: boolean;
  marked_for_deletion_on: string | null;
  merge_method: string;
  topics: string[];
  description: string;
}

const unique = () => Math.random().toString(36).slice(2, 8);
const inputs = (overrides: Record<string, unknown> = {}) => {
  const name = `svc-${unique()}`;
  return { group: "acme", name, path: name, ...overrides };
};

async function createProject(overrides: Record<string, unknown> = {}) {
  const checked = await project.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await project.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (id: string | number) => server.as().get<LiveProject>(`/projects/${id}`);

beforeAll(async () => {
  await server.configureProviders("alice");
});

describe("check (preview)", () => {
  const reasons = async (declared: Record<string, unknown>) => ((await project.check({}, declared)).failures ?? []).map((failure) => failure.reason);

  it("refuses bad names, paths, reserved names and values before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      expect((await reasons(inputs({ name: "-bad" }))).join()).toMatch(/^name: .*must start with a letter/);
      expect((await reasons(inputs({ path: "web.git" }))).join()).toMatch(/^path: .*\.git/);
      expect((await reasons(inputs({ path: "tree" }))).join()).toMatch(/^path: must not be a reserved name/);
      expect((await reasons(inputs({ path: ".." }))).join()).toMatch(/^path: /);
      expect((await reasons(inputs({ visibility: "secret" }))).join()).toMatch(/^visibility: /);
      expect((await reasons(inputs({ mergeMethod: "squash" }))).join()).toMatch(/^mergeMethod: /);
      expect((await reasons(inputs({ wikiAccessLevel: "public" }))).join()).toMatch(/^wikiAccessLevel: /);
      expect((await reasons(inputs({ defaultBranch: "bad..branch" }))).join()).toMatch(/^defaultBranch: /);
    });
    expect(requests).toEqual([]);
  });

  it("verification at preview: a project of the same path in the group is named with the import that takes it over", async () => {
    const web = await live("acme%2Fweb");
    await server.configureProviders("alice", { "platform:verifyAtPreview": "true" });
    try {
      expect((await reasons(inputs({ name: "Website", path: "WEB" }))).join()).toMatch(new RegExp(`a project with the path web already exists in group acme \\(id ${web.id}\\): adopt it with the import option \\(import: "${web.id}"\\)`));
      expect(await reasons({ group: "acme", name: "Web", path: "web", __import: String(web.id) })).toEqual([]);
      expect(await reasons(inputs())).toEqual([]);
      // The server refuses a project more visible than its group: acme is private.
      expect((await reasons(inputs({ visibility: "public" }))).join()).toMatch(/visibility: a public project is not allowed in group acme, which is private/);
      expect(await reasons(inputs({ group: "beta", visibility: "public" }))).toEqual([]);
      expect(await reasons(inputs({ visibility: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" }))).toEqual([]);
    } finally {
      await server.configureProviders("alice");
    }
  });

  it("verification at preview: a Guest of the group is refused naming the role the group's project creation asks", async () => {
    await server.configureProviders("guest", { "platform:verifyAtPreview": "true" });
    try {
      expect((await reasons(inputs())).join()).toMatch(/group: .*Developer/);
    } finally {
      await server.configureProviders("alice");
    }
  });
});

describe("lifecycle", () => {
  it("creates with its settings and a README commit, and reads back with no change", async () => {
    const { id, inputs: declared, outs } = await createProject({
      description: "A service",
      defaultBranch: "trunk",
      initializeWithReadme: true,
      mergeMethod: "ff",
      squashOption: "always",
      onlyAllowMergeIfPipelineSucceeds: true,
      onlyAllowMergeIfAllDiscussionsAreResolved: true,
      removeSourceBranchAfterMerge: false,
      wikiAccessLevel: "disabled",
      buildsAccessLevel: "private",
      topics: ["web", "api"],
      ciConfigPath: "ci/main.yml",
    });
    expect(id).toMatch(/^\d+$/);
    expect(outs).toMatchObject({ projectId: Number(id), fullPath: `acme/${declared.path}`, emptyRepo: false, commitCount: expect.any(Number), deletionMode: { delayed: true, periodDays: null }, markedForDeletionOn: null });
    expect(await live(id)).toMatchObject({ merge_method: "ff", default_branch: "trunk", wiki_access_level: "disabled", builds_access_level: "private", ci_config_path: "ci/main.yml" });
    const refreshed = await project.read(id, outs);
    expect(await project.diff(id, refreshed.props!, declared)).toMatchObject({ changes: false });
  });

  it("a path change is an update (a rename): the old path still answers; a group change transfers in place", async () => {
    const { id, inputs: declared, outs } = await createProject();
    const renamed = { ...declared, path: `${declared.path}-new` };
    expect(await project.diff(id, outs, renamed)).toMatchObject({ changes: true, replaces: [] });
    const updated = await project.update(id, outs, renamed);
    expect(updated.outs).toMatchObject({ fullPath: `acme/${declared.path}-new` });
    expect((await server.as("alice").get<LiveProject>(apiPath`/projects/${`acme/${String(declared.path)}`}`)).id).toBe(Number(id));
    const moved = { ...renamed, group: "acme/platform" };
    expect(await project.diff(id, updated.outs!, moved)).toMatchObject({ changes: true, replaces: [] });
    const transferred = await project.update(id, updated.outs!, moved);
    expect(transferred.outs).toMatchObject({ fullPath: `acme/platform/${declared.path}-new`, projectId: Number(id) });
    expect(await project.diff(id, transferred.outs!, moved)).toMatchObject({ changes: false });
  });

  it("archives and unarchives; settings change in place with one PUT", async () => {
    const { id, inputs: declared, outs } = await createProject({ mergeMethod: "merge" });
    const archived = await project.update(id, outs, { ...declared, archived: true });
    expect((await live(id)).archived).toBe(true);
    const requests = await server.requestsDuring(async () => {
      await project.update(id, archived.outs!, { ...declared, archived: false, mergeMethod: "rebase_merge", topics: ["b", "a"] });
    });
    expect(requests.filter((request) => request.method !== "GET").map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST /api/v4/projects/${id}/unarchive`,
      `PUT /api/v4/projects/${id}`,
    ]);
    expect(await live(id)).toMatchObject({ archived: false, merge_method: "rebase_merge", topics: ["a", "b"] });
  });

  it("delete marks it for deletion where the server delays deletions; it is not gone, and a second delete succeeds", async () => {
    const { id, outs } = await createProject();
    expect(outs.deletionMode).toEqual({ delayed: true, periodDays: null });
    await project.delete(id, outs);
    expect((await live(id)).marked_for_deletion_on).not.toBeNull();
    await expect(project.delete(id, outs)).resolves.toBeUndefined();
  });

  it("a project removed outside the program reads as gone (the token's role in its group could see it), and its delete succeeds", async () => {
    const { id, inputs: declared, outs } = await createProject();
    await server.as().delete(`/projects/${id}`);
    await server.as().delete(`/projects/${id}?permanently_remove=true&full_path=${encodeURIComponent(`acme/${String(declared.path)}`)}`);
    expect(await project.read(id, outs)).toEqual({ id: "" });
    await expect(project.delete(id, outs)).resolves.toBeUndefined();
  });

  it("a project without a group goes to the token's user's namespace and is deleted at once", async () => {
    const { id, outs } = await createProject({ group: undefined });
    expect(outs).toMatchObject({ fullPath: expect.stringMatching(/^alice\//), deletionMode: { delayed: false } });
    await project.delete(id, outs);
    await expect(live(id)).rejects.toThrow(/404/);
  });
});

describe("takeover", () => {
  it("the import option takes over a seeded project by its id: read, then only the declared differences written", async () => {
    const seeded = await live("acme%2Fapi");
    const declared = { group: "acme", name: "API", path: "api", description: "Taken over" };
    const checked = await project.check({}, { ...declared, __import: String(seeded.id) });
    const created = await project.create(checked.inputs);
    expect(created.id).toBe(String(seeded.id));
    expect((await live(seeded.id)).description).toBe("Taken over");
    expect(await project.diff(created.id, created.outs!, checked.inputs)).toMatchObject({ changes: false });
  });

  it("an import id not of the form is refused, saying the form", async () => {
    const checked = await project.check({}, { ...inputs(), __import: "acme/web" });
    await expect(project.create(checked.inputs)).rejects.toThrow(/numeric id/);
  });
});
