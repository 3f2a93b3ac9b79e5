/**
 * ProtectedBranch through the provider objects Pulumi calls, against the
 * emulator over HTTP: create, refresh, an update that changes the rule in
 * place (one PATCH with the access levels' ids, never an unprotect), delete,
 * the takeover of the default branch's rule made with the project, the
 * preview's refusals, and a lost answer.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { PlatformClient } from "../../src/client";
import { readEstate } from "../../src/import/read";
import { useEmulator } from "../support";
import { previewStepFailures } from "./membership-support";

const server = useEmulator();
const rule = providers.ProtectedBranch;
const WEB = "/api/v4/projects/acme%2Fweb/protected_branches";

interface Level {
  id: number;
  access_level: number;
  user_id?: number | null;
  group_id?: number | null;
}
interface LiveRule {
  id: number;
  name: string;
  push_access_levels: Level[];
  merge_access_levels: Level[];
  unprotect_access_levels: Level[];
  allow_force_push: boolean;
  code_owner_approval_required: boolean;
}

const unique = () => Math.random().toString(36).slice(2, 8);
const inputs = (overrides: Record<string, unknown> = {}) => ({ project: "acme/web", name: `release-${unique()}/*`, pushAccessLevel: "maintainer", mergeAccessLevel: "maintainer", ...overrides });

async function createRule(overrides: Record<string, unknown> = {}) {
  const checked = await rule.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await rule.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (id: string) => server.as().get<LiveRule>("/" + id);
const userId = async (username: string) => (await server.as().get<{ id: number }[]>("/users", { username }))[0]!.id;
const groupId = async (path: string) => (await server.as().get<{ id: number }>(apiPath`/groups/${path}`)).id;

beforeAll(async () => {
  await server.configureProviders();
});

describe("lifecycle", () => {
  it("create sends one POST and records the levels as declared and the server's rule", async () => {
    let created: Awaited<ReturnType<typeof createRule>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createRule({ pushAccessLevel: "no_one", mergeAccessLevel: 30, allowForcePush: false });
    });
    expect(requests).toEqual([{ method: "POST", path: WEB, status: 201 }]);
    const { id, inputs: declared, outs } = created!;
    const onServer = await live(id);
    expect(id).toBe(`projects/acme%2Fweb/protected_branches/${encodeURIComponent(declared.name as string)}`);
    expect(onServer).toMatchObject({ name: declared.name, push_access_levels: [{ access_level: 0 }], merge_access_levels: [{ access_level: 30 }], unprotect_access_levels: [{ access_level: 40 }] });
    expect(outs).toMatchObject({ project: "acme/web", name: declared.name, pushAccessLevel: "no_one", mergeAccessLevel: 30, unprotectAccessLevel: "maintainer", protectedBranchId: onServer.id });
    expect(await rule.diff(id, outs, declared)).toMatchObject({ changes: false });
  });

  it("changing the merge level is one PATCH of that level by its id: the rule is never unprotected, its ids stay", async () => {
    const { id, inputs: declared, outs } = await createRule();
    const before = await live(id);
    const changed = { ...declared, mergeAccessLevel: "developer" };
    expect(await rule.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    let updated: Awaited<ReturnType<typeof rule.update>> | undefined;
    const requests = await server.requestsDuring(async () => {
      updated = await rule.update(id, outs, changed);
    });
    const path = `${WEB}/${encodeURIComponent(declared.name as string)}`;
    expect(requests).toEqual([
      { method: "GET", path, status: 200 },
      { method: "PATCH", path, status: 200 },
    ]);
    expect(requests.some((request) => request.method === "DELETE" || request.method === "POST")).toBe(false);
    const after = await live(id);
    expect(after.id).toBe(before.id);
    expect(after.merge_access_levels).toEqual([{ ...before.merge_access_levels[0], access_level: 30, access_level_description: "Developers + Maintainers" }]);
    expect(after.push_access_levels).toEqual(before.push_access_levels);
    expect(await rule.diff(id, updated!.outs!, changed)).toMatchObject({ changes: false });
  });

  it("users and groups (Premium and up) are added and removed by the same one PATCH", async () => {
    const [dev, maintainer, acme] = [await userId("dev"), await userId("maintainer"), await groupId("acme")];
    const { id, inputs: declared, outs } = await createRule({ usersAllowedToPush: [dev], groupsAllowedToMerge: [acme] });
    expect((await live(id)).push_access_levels).toMatchObject([{ access_level: 40 }, { user_id: dev }]);
    const changed = { ...declared, usersAllowedToPush: [maintainer], groupsAllowedToMerge: [] };
    const requests = await server.requestsDuring(() => rule.update(id, outs, changed));
    expect(requests.map((request) => request.method)).toEqual(["GET", "PATCH"]);
    const after = await live(id);
    expect(after.push_access_levels.map((level) => level.user_id ?? null)).toEqual([null, maintainer]);
    expect(after.merge_access_levels).toMatchObject([{ access_level: 40, group_id: null }]);
  });

  it("refresh shows a level changed out of band, and the next update brings it back", async () => {
    const { id, inputs: declared, outs } = await createRule();
    const level = (await live(id)).push_access_levels[0]!;
    await server.as().patch(`/${id}`, { allowed_to_push: [{ id: level.id, access_level: 30 }], allow_force_push: true });
    const refreshed = await rule.read(id, outs);
    expect(refreshed.props).toMatchObject({ pushAccessLevel: 30, allowForcePush: true });
    expect(await rule.diff(id, refreshed.props, declared)).toMatchObject({ changes: true, replaces: [] });
    await rule.update(id, refreshed.props, declared);
    expect(await live(id)).toMatchObject({ push_access_levels: [{ id: level.id, access_level: 40 }], allow_force_push: false });
  });

  it("a new name replaces the rule (the new one is made before the old one is unprotected)", async () => {
    const { id, inputs: declared, outs } = await createRule();
    expect(await rule.diff(id, outs, { ...declared, name: "other/*" })).toMatchObject({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
  });

  it("a Maintainer refused by the rule's unprotect level (admin) is told what the unprotect needs", async () => {
    const { id, outs } = await createRule({ unprotectAccessLevel: "admin" });
    await server.configureProviders("maintainer");
    try {
      await expect(rule.delete(id, outs)).rejects.toThrow(/DELETE .* failed with 403.*the role the rule's unprotectAccessLevel names\) on project acme\/web/);
    } finally {
      await server.configureProviders();
    }
    await rule.delete(id, outs);
  });

  it("delete unprotects with one request; again, it is gone already", async () => {
    const { id, outs } = await createRule();
    const requests = await server.requestsDuring(() => rule.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: "/api/v4/" + id, status: 204 }]);
    await expect(live(id)).rejects.toThrow(/404/);
    await expect(rule.delete(id, outs)).resolves.toBeUndefined();
    expect(await rule.read(id, outs)).toEqual({ id: "" });
  });

  it("a lost answer to the POST makes one rule, found by its name", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/protected_branches$/, sequence: ["commit-then-error"] }] });
    try {
      const { id, inputs: declared } = await createRule();
      expect((await live(id)).name).toBe(declared.name);
    } finally {
      server.emulator.setFaultPlan({ rules: [] });
    }
  });
});

describe("the default branch's rule, made with the project", () => {
  it("the preview refuses a second rule for main, naming the default branch's rule and the id to import it by", async () => {
    await server.verifyingAs("root", async () => {
    const checked = await rule.check({}, inputs({ name: "main" }));
    expect(checked.failures?.map((failure) => failure.reason)).toEqual([
      expect.stringMatching(/protected branch main \(the default branch, protected when the project was made\) already exists in project acme\/web .*import: "projects\/acme%2Fweb\/protected_branches\/main"/),
    ]);
    });
  });

  it("adoptExisting takes it over: the rule is found and changed in place, never unprotected or made twice", async () => {
    const api = await server.as().get<LiveRule>(apiPath`/projects/${"acme/api"}/protected_branches/${"develop"}`);
    const checked = await rule.check({}, { project: "acme/api", name: "develop", pushAccessLevel: "no_one", mergeAccessLevel: "maintainer", adoptExisting: true });
    let created: Awaited<ReturnType<typeof rule.create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await rule.create(checked.inputs);
    });
    expect(requests.map((request) => request.method)).toEqual(["GET", "GET", "PATCH"]);
    expect(created!.id).toBe("projects/acme%2Fapi/protected_branches/develop");
    const after = await server.as().get<LiveRule>(apiPath`/projects/${"acme/api"}/protected_branches/${"develop"}`);
    expect(after).toMatchObject({ id: api.id, push_access_levels: [{ id: api.push_access_levels[0]!.id, access_level: 0 }] });
    expect(await server.as().get<LiveRule[]>(apiPath`/projects/${"acme/api"}/protected_branches`)).toHaveLength(1);
  });

  it("the import option takes it over by its id: one GET when it matches", async () => {
    const id = "projects/acme%2Fweb/protected_branches/main";
    const checked = await rule.check({}, { ...inputs({ name: "main" }), __import: id });
    const requests = await server.requestsDuring(async () => {
      expect((await rule.create(checked.inputs)).id).toBe(id);
    });
    expect(requests).toEqual([{ method: "GET", path: `${WEB}/main`, status: 200 }]);
  });

  it("an import id not of the form is refused, saying the form", async () => {
    const checked = await rule.check({}, { ...inputs(), __import: "acme/web:main" });
    await expect(rule.create(checked.inputs)).rejects.toThrow(/projects\/<project>\/protected_branches\/<name>/);
  });
});

describe("platform-import", () => {
  it("declares each rule of a project, and the declaration takes it over with reads only", async () => {
    const reader = new PlatformClient({ url: server.emulator.url, token: server.emulator.tokens.root!, retryBaseDelayMs: 10 });
    const estate = await readEstate(reader, { projects: ["acme/api"], instance: false, exclusive: false });
    const declared = estate.declarations.filter((declaration) => declaration.kind === "ProtectedBranch");
    expect(declared.map((declaration) => [declaration.importId, declaration.args.name])).toEqual([["projects/2/protected_branches/develop", "develop"]]);
    const checked = await rule.check({}, { ...declared[0]!.args, __import: declared[0]!.importId });
    expect(checked.failures ?? []).toEqual([]);
    const requests = await server.requestsDuring(() => rule.create(checked.inputs));
    expect(requests.map((request) => request.method)).toEqual(["GET"]);
  });
});

describe("at preview", () => {
  const reasonsOf = async (declared: Record<string, unknown>) => ((await rule.check({}, declared)).failures ?? []).map((failure) => failure.reason);

  it("a level that is not one, or no_one for unprotecting, is refused naming the property, before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await reasonsOf(inputs({ pushAccessLevel: "reporter" }))).toEqual([expect.stringMatching(/^pushAccessLevel: must be one of no_one, developer, maintainer, admin or the access levels 0, 30, 40, 60/)]);
      expect(await reasonsOf(inputs({ unprotectAccessLevel: 0 }))).toEqual([expect.stringMatching(/^unprotectAccessLevel: must be one of developer, maintainer, admin/)]);
      expect(await reasonsOf(inputs({ usersAllowedToPush: ["dev"] }))).toEqual([expect.stringMatching(/^usersAllowedToPush\.0: /)]);
    });
    expect(requests).toEqual([]);
  });

  it("changing a level in place is Premium and Ultimate only (the API's PATCH takes levels there only): a Free project's preview names the tier, a server that keeps the level fails the update", async () => {
    await server.configureProviders("alice");
    try {
      const { id, inputs: declared, outs } = await createRule({ project: "beta/site" });
      const merged = { ...declared, mergeAccessLevel: "developer" };
      expect((await previewStepFailures(server, rule, "alice", id, outs, merged)).join("\n")).toMatch(/^mergeAccessLevel: .*Premium.*changing a protected branch's access levels in place/);
      // Force push is the PATCH's on every tier.
      expect(await previewStepFailures(server, rule, "alice", id, outs, { ...declared, allowForcePush: true })).toEqual([]);
      await server.configureProviders("alice");
      await expect(rule.update(id, outs, merged)).rejects.toThrow(/mergeAccessLevel: the server kept Maintainers and above where Developers and above was asked/);
      expect((await live(id)).merge_access_levels).toMatchObject([{ access_level: 40 }]);
      await rule.delete(id, outs);
    } finally {
      await server.configureProviders();
    }
  });

  it("a Developer is refused naming the Maintainer role; Premium inputs on a Free project name the tier", async () => {
    await server.verifyingAs("dev", async () => {
    expect((await reasonsOf(inputs())).join("\n")).toMatch(/at least the Maintainer role on project acme\/web/);
    });
    await server.verifyingAs("alice", async () => {
    const reasons = await reasonsOf({ project: "beta/site", name: "release/*", codeOwnerApprovalRequired: true });
    expect(reasons.join("\n")).toMatch(/codeOwnerApprovalRequired: .*Premium/);
    expect(await reasonsOf({ project: "beta/site", name: "release/*" })).toEqual([]);
    });
  });
});
