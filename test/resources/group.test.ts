import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();
const group = providers.Group;

interface LiveGroup {
  id: number;
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  visibility: string;
  description: string;
  request_access_enabled: boolean;
  marked_for_deletion_on?: string | null;
}

let counter = 0;
const inputs = (overrides: Record<string, unknown> = {}) => {
  counter += 1;
  return { parent: "acme", path: `team-${counter}`, name: `Team ${counter}`, ...overrides };
};

async function createGroup(overrides: Record<string, unknown> = {}) {
  const checked = await group.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await group.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (ref: string | number) => server.as().get<LiveGroup>(apiPath`/groups/${ref}`);

/** Check with verification at preview on, as `username`. */
async function previewAs<T>(username: string, action: () => Promise<T>): Promise<T> {
  await server.configureProviders(username, { "platform:verifyAtPreview": "true" });
  try {
    return await action();
  } finally {
    await server.configureProviders();
  }
}

beforeAll(async () => {
  await server.configureProviders();
});

describe("check (preview), before any request", () => {
  it("refuses a path the server refuses: its characters, .git, and the reserved names", async () => {
    const requests = await server.requestsDuring(async () => {
      for (const [path, rule] of [
        ["-team", /path: may contain only letters/],
        ["team.git", /path: must not end in \.git or \.atom/],
      ] as const) {
        const result = await group.check({}, inputs({ path }));
        expect(result.failures?.[0]?.reason).toMatch(rule);
      }
      const reserved = await group.check({}, inputs({ parent: undefined, path: "admin" }));
      expect(reserved.failures?.[0]?.reason).toMatch(/^path: admin is reserved for the server's own pages at the top level/);
      // `admin` is a fine subgroup path; `-` is reserved everywhere.
      expect((await group.check({}, inputs({ path: "admin" }))).failures ?? []).toEqual([]);
    });
    expect(requests).toEqual([]);
  });

  it("refuses a top-level-only setting on a subgroup, naming it", async () => {
    const result = await group.check({}, inputs({ preventSharingGroupsOutsideHierarchy: true }));
    expect(result.failures?.[0]?.reason).toMatch(/^preventSharingGroupsOutsideHierarchy: only top-level groups have this setting, and group acme\/team-\d+ is a subgroup/);
  });

  it("refuses a name the server refuses", async () => {
    const result = await group.check({}, inputs({ name: "-dash first" }));
    expect(result.failures?.[0]?.reason).toMatch(/^name: may contain only letters/);
  });
});

describe("check (preview), what the server would refuse", () => {
  it("a subgroup where the parent's subgroup_creation_level asks more than the token's user has", async () => {
    await server.as().put(apiPath`/groups/${"acme"}`, { subgroup_creation_level: "owner" });
    try {
      const result = await previewAs("maintainer", () => group.check({}, inputs()));
      expect(result.failures?.map((failure) => failure.reason)).toEqual([
        expect.stringMatching(/^parent: the token's user \(maintainer\) needs the Owner role on group acme for a subgroup \(its subgroup_creation_level is owner\), and is Maintainer there/),
      ]);
      // The server says the same.
      await expect(server.as("maintainer").post("/groups", { name: "X", path: "x-refused", parent_id: (await live("acme")).id })).rejects.toMatchObject({ status: 403 });
    } finally {
      await server.as().put(apiPath`/groups/${"acme"}`, { subgroup_creation_level: "maintainer" });
    }
    expect((await previewAs("maintainer", () => group.check({}, inputs()))).failures ?? []).toEqual([]);
  });

  it("a subgroup more visible than its parent", async () => {
    const result = await previewAs("alice", () => group.check({}, inputs({ visibility: "public" })));
    expect(result.failures?.map((failure) => failure.reason)).toEqual([expect.stringMatching(/^visibility: public is more visible than group acme, which is private/)]);
  });

  it("a transfer under a less visible parent where the declared visibility is wider than it", async () => {
    const { id, inputs: olds } = await createGroup({ parent: "beta", visibility: "public" });
    const result = await previewAs("root", () => group.check(olds, { ...olds, parent: "acme" }));
    expect(result.failures?.map((failure) => failure.reason)).toEqual([
      expect.stringMatching(/^parent: the transfer makes the group no more visible than its new parent, and the declared visibility public is more visible than group acme, which is private/),
    ]);
    expect((await previewAs("root", () => group.check(olds, { ...olds, parent: "acme", visibility: "private" }))).failures ?? []).toEqual([]);
    await group.delete(id, {});
  });

  it("a top-level group through the hosted offering's API, with the reason", async () => {
    const result = await previewAs("alice", () => group.check({}, inputs({ parent: undefined })));
    expect(result.failures?.map((failure) => failure.reason)).toEqual([expect.stringMatching(/^parent: the hosted offering's API creates subgroups only/)]);
    await expect(server.as("alice").post("/groups", { name: "Top", path: "top-refused" })).rejects.toMatchObject({ status: 403 });
  });

  it("a top-level group on a self-managed instance that lets only administrators create them", async () => {
    const instance = server.emulator.state.instance;
    instance.offering = "self-managed";
    try {
      expect((await previewAs("alice", () => group.check({}, inputs({ parent: undefined })))).failures ?? []).toEqual([]);
      await server.as().put("/application/settings", { top_level_group_creation_enabled: false });
      const result = await previewAs("alice", () => group.check({}, inputs({ parent: undefined })));
      expect(result.failures?.map((failure) => failure.reason)).toEqual([expect.stringMatching(/^parent: only administrators may create top-level groups on this instance .* the token's user \(alice\) is not one/)]);
      await expect(server.as("alice").post("/groups", { name: "Top", path: "top-refused" })).rejects.toMatchObject({ status: 403 });
      // An administrator may.
      expect((await previewAs("root", () => group.check({}, inputs({ parent: undefined })))).failures ?? []).toEqual([]);
    } finally {
      await server.as().put("/application/settings", { top_level_group_creation_enabled: true });
      instance.offering = "hosted";
    }
  });
});

describe("lifecycle", () => {
  it("creates a subgroup with its settings; the token's user owns it", async () => {
    // The hosted offering's deletion period is not readable (no /application/settings): null, the instance's.
    const { id, outs } = await createGroup({ description: "The team", requestAccessEnabled: false });
    expect(id).toMatch(/^groups\/\d+$/);
    const created = await live(Number(id.split("/")[1]));
    expect(created).toMatchObject({ parent_id: (await live("acme")).id, description: "The team", request_access_enabled: false, visibility: "private" });
    expect(outs).toMatchObject({ groupId: created.id, fullPath: created.full_path, deletionMode: { delayed: true, periodDays: null }, subgroupCount: 0, projectCount: 0, markedForDeletionOn: null });
    await group.delete(id, {});
  });

  it("a new path is an update that renames in place; the groups API answers the old path 404, as real servers do", async () => {
    const { id, inputs: olds, outs } = await createGroup();
    const news = (await group.check(olds, { ...olds, path: `${olds.path}-renamed` })).inputs;
    const diff = await group.diff(id, { ...olds, ...outs }, news);
    expect(diff.replaces ?? []).toEqual([]);
    expect(diff.changes).toBe(true);
    const updated = await group.update(id, { ...olds, ...outs }, news);
    expect(updated.outs).toMatchObject({ fullPath: `acme/${olds.path}-renamed` });
    await expect(live(`acme/${olds.path}`)).rejects.toThrow(/404 Group Not Found/);
    expect((await live(`acme/${olds.path}-renamed`)).id).toBe(outs.groupId);
    await group.delete(id, {});
  });

  it("a new parent is an update that transfers the group", async () => {
    const { id, inputs: olds, outs } = await createGroup();
    const news = (await group.check(olds, { ...olds, parent: "beta" })).inputs;
    const diff = await group.diff(id, { ...olds, ...outs }, news);
    expect(diff.replaces ?? []).toEqual([]);
    const requests = await server.requestsDuring(() => group.update(id, { ...olds, ...outs }, news));
    expect(requests.filter((request) => request.method !== "GET")).toEqual([{ method: "POST", path: expect.stringMatching(/\/groups\/\d+\/transfer$/), status: 201 }]);
    expect((await live(Number(id.split("/")[1]))).full_path).toBe(`beta/${olds.path}`);
    await group.delete(id, {});
  });

  it("delete marks the group for deletion where the server delays it; restore and permanent removal follow the server", async () => {
    const { id } = await createGroup();
    const groupId = Number(id.split("/")[1]);
    await group.delete(id, {});
    const marked = await live(groupId);
    expect(marked.marked_for_deletion_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Deleting it again (an apply whose answer was lost) is done already.
    await group.delete(id, {});
    await server.as().post(apiPath`/groups/${groupId}/restore`, {});
    expect((await live(groupId)).marked_for_deletion_on).toBeNull();
    await group.delete(id, {});
    await expect(server.as().delete(apiPath`/groups/${groupId}`, { permanently_remove: true, full_path: "wrong/path" })).rejects.toMatchObject({ status: 400 });
    await server.as().delete(apiPath`/groups/${groupId}`, { permanently_remove: true, full_path: marked.full_path });
    await expect(live(groupId)).rejects.toMatchObject({ status: 404 });
  });

  it("delete removes the group at once where the server does not delay deletion", async () => {
    const instance = server.emulator.state.instance;
    instance.enterprise = false;
    try {
      const { id, outs } = await createGroup();
      expect(outs.deletionMode).toEqual({ delayed: false });
      await group.delete(id, {});
      await expect(live(Number(id.split("/")[1]))).rejects.toMatchObject({ status: 404 });
    } finally {
      instance.enterprise = true;
    }
  });

  it("read counts what a deletion would take with it", async () => {
    const { id, inputs: args } = await createGroup();
    const groupId = Number(id.split("/")[1]);
    await server.as().post("/groups", { name: "Inner", path: "inner", parent_id: groupId });
    const read = await group.read(id, args);
    expect(read.props).toMatchObject({ subgroupCount: 1, projectCount: 0 });
    await group.delete(id, {});
  });

  it("takes over an existing group with adoptExisting, and reads it by the id the import option takes", async () => {
    const platform = await live("acme/platform");
    const checked = await group.check({}, { parent: "acme", path: "platform", name: "Platform", adoptExisting: true });
    const created = await group.create(checked.inputs);
    expect(created.id).toBe(`groups/${platform.id}`);
    const read = await group.read(`groups/${platform.id}`, {});
    expect(read.props).toMatchObject({ fullPath: "acme/platform", groupId: platform.id });
  });
});
