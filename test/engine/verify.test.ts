/**
 * Verification at preview (src/engine/verify.ts): `check`, as the engine calls
 * it through `providers.<Name>.check`, reads the emulator and reports what the
 * server would refuse at `up` as check failures naming the property, the
 * object and the requirement, with one read per owner per run.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { configOf, tokenOf, useEmulator } from "../support";

const server = useEmulator();

type Name = keyof typeof providers;

const BADGE = { linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}/badge.svg" };
const SCHEDULE = { description: "Nightly", ref: "main", cron: "0 2 * * *" };

/** The failures' reasons of a check of new inputs (a create) as the engine sends it. */
async function failuresOf(resource: Name, inputs: Record<string, unknown>, olds: Record<string, unknown> = {}): Promise<string[]> {
  const result = await providers[resource].check(olds, inputs);
  return (result.failures ?? []).map((failure) => failure.reason);
}

/** A new run (configure) as `user`, verifying at preview (the tests' support turns it off by default), with extra stack config. */
async function runAs(user: string, config: Record<string, string> = {}): Promise<void> {
  await server.configureProviders(user, { "platform:verifyAtPreview": "true", ...config });
}

/** The API requests (method and path, query left out) the emulator saw during `action`. */
async function requestsOf(action: () => Promise<unknown>): Promise<string[]> {
  const requests = await server.requestsDuring(action);
  return requests.map(({ method, path }) => `${method} ${path.split("?")[0]}`);
}

let savedFlags: Record<string, boolean | string[]> | undefined;
beforeEach(() => {
  savedFlags = { ...(server.emulator.state.instance.featureFlags ?? {}) };
});
afterEach(() => {
  server.emulator.state.instance.featureFlags = savedFlags;
});

describe("what the server would refuse is a check failure at preview", () => {
  it("a group or project that does not exist, or that the token's user cannot see", async () => {
    await runAs("alice");
    expect(await failuresOf("Badge", { group: "acme/nope", ...BADGE })).toEqual([`group: group acme/nope does not exist, or the token's user (alice) cannot see it (private groups and projects are hidden from non-members)`]);
    expect(await failuresOf("PipelineSchedule", { project: "acme/missing", ...SCHEDULE })).toEqual([
      `project: project acme/missing does not exist, or the token's user (alice) cannot see it (private groups and projects are hidden from non-members)`,
    ]);
    await runAs("outsider");
    // Private and invisible look the same to the server (404), and so to the preview.
    expect(await failuresOf("GroupIntegration", { group: "acme", slug: "mattermost", webhook: "https://chat.example.test/hooks/x" })).toEqual([
      `group: group acme does not exist, or the token's user (outsider) cannot see it (private groups and projects are hidden from non-members)`,
    ]);
  });

  it("a role too low, on a group (inherited membership) and on a project (its permissions)", async () => {
    await runAs("maintainer");
    expect(await failuresOf("SamlGroupLink", { group: "acme", samlGroupName: "devs", accessLevel: "developer" })).toEqual([
      "group: the token's user (maintainer) needs the Owner role on group acme for SamlGroupLink, and is Maintainer there",
    ]);
    // Maintainer of acme through the parent group: enough for an integration of the subgroup.
    expect(await failuresOf("GroupIntegration", { group: "acme/platform", slug: "mattermost", webhook: "https://chat.example.test/hooks/x" })).toEqual([]);
    await runAs("dev");
    expect(await failuresOf("Badge", { project: "acme/web", ...BADGE })).toEqual(["project: the token's user (dev) needs at least the Maintainer role on project acme/web for Badge, and is Developer there"]);
    // Maintainer of this project directly, Developer of its group.
    expect(await failuresOf("Badge", { project: "acme/platform/infra", ...BADGE, name: "dev-infra" })).toEqual([]);
    await runAs("guest");
    expect(await failuresOf("PipelineSchedule", { project: "acme/web", ...SCHEDULE })).toEqual([
      "project: the token's user (guest) needs at least the Developer role on project acme/web for PipelineSchedule, and is Guest there",
    ]);
  });

  it("instance settings need an administrator", async () => {
    await runAs("alice");
    expect(await failuresOf("ApplicationSettings", { signupEnabled: false })).toEqual(["the token's user (alice) needs administrator rights on the instance for ApplicationSettings, and is a regular user there"]);
    await runAs("root");
    expect(await failuresOf("ApplicationSettings", { signupEnabled: false })).toEqual([]);
  });

  it("a tier too low: the top-level group's plan (hosted), read by its Owner or an administrator", async () => {
    await runAs("alice");
    expect(await failuresOf("SamlGroupLink", { group: "beta", samlGroupName: "devs", accessLevel: "developer" })).toEqual([
      "group: group beta needs the Premium or Ultimate tier for SamlGroupLink, and it is on Free",
    ]);
    expect(await failuresOf("SamlGroupLink", { group: "acme", samlGroupName: "devs", accessLevel: "developer" })).toEqual([]);
  });

  it("a tier too low on a self-managed instance: its licence, read by an administrator", async () => {
    const instance = server.emulator.state.instance;
    const saved = { offering: instance.offering, tier: instance.tier };
    Object.assign(instance, { offering: "self-managed", tier: "free" });
    try {
      await runAs("root");
      expect(await failuresOf("VirtualRegistry", { group: "acme", name: "licensed" })).toEqual(["group: group acme needs the Premium or Ultimate tier for VirtualRegistry, and the instance is licensed for Free"]);
      // A non-administrator cannot read the licence: the tier is left to the server.
      await runAs("alice");
      expect(await failuresOf("SamlGroupLink", { group: "acme", samlGroupName: "devs", accessLevel: "developer" })).toEqual([]);
    } finally {
      Object.assign(instance, saved);
    }
  });

  it("a feature flag off, for the instance or for the group (read by administrators)", async () => {
    server.emulator.state.instance.featureFlags = { ...savedFlags, container_virtual_registries: false };
    await runAs("root");
    expect(await failuresOf("VirtualRegistry", { group: "acme", name: "flagged" })).toEqual([
      "group: feature flag container_virtual_registries is off for group acme; VirtualRegistry needs it (an administrator can enable it)",
    ]);
    server.emulator.state.instance.featureFlags = { ...savedFlags, container_virtual_registries: ["acme"] };
    await runAs("root");
    expect(await failuresOf("VirtualRegistry", { group: "acme", name: "flagged" })).toEqual([]);
    expect(await failuresOf("VirtualRegistry", { group: "beta", name: "flagged" })).toEqual([
      "group: group beta needs the Premium or Ultimate tier for VirtualRegistry, and it is on Free",
      "group: feature flag container_virtual_registries is off for group beta; VirtualRegistry needs it (an administrator can enable it)",
    ]);
  });

  it("an object that already exists: named with its id for the import option; adoption and import pass", async () => {
    const admin = server.as();
    const existing = await admin.post<{ id: number }>(apiPath`/projects/${"acme/web"}/badges`, { name: "existing", link_url: BADGE.linkUrl, image_url: BADGE.imageUrl });
    await runAs("root");
    const id = `projects/acme%2Fweb/badges/${existing.id}`;
    expect(await failuresOf("Badge", { project: "acme/web", name: "existing", ...BADGE })).toEqual([
      `a badge with this link and image named existing already exists in project acme/web (id ${id}): adopt it with the import option (import: "${id}") or remove it`,
    ]);
    expect(await failuresOf("Badge", { project: "acme/web", name: "existing", ...BADGE, adoptExisting: true })).toEqual([]);
    expect(await failuresOf("Badge", { project: "acme/web", name: "existing", ...BADGE, __engine: { importId: id } })).toEqual([]);
    // Another name on the same link and image is another badge.
    expect(await failuresOf("Badge", { project: "acme/web", name: "other", ...BADGE })).toEqual([]);

    const registry = await admin.post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name: "taken" });
    expect(await failuresOf("VirtualRegistry", { group: "acme", name: "taken" })).toEqual([
      `a container virtual registry named taken already exists in group acme (id ${registry.id}): adopt it with the import option (import: "${registry.id}") or remove it`,
    ]);
  });
});

describe("GroupSettings: the settings that need a tier, an administrator or a top-level group", () => {
  it("a gated setting is refused where the server shows the need unmet, with one plan read per top-level group", async () => {
    await runAs("alice");
    const requests = await requestsOf(async () => {
      expect(await failuresOf("GroupSettings", { group: "beta", membershipLock: true, fileTemplateProjectId: 7, description: "Beta" })).toEqual([
        "fileTemplateProjectId: group beta needs the Premium or Ultimate tier for this setting, and it is on Free",
        "membershipLock: group beta needs the Premium or Ultimate tier for this setting, and it is on Free",
      ]);
      // A subgroup (by id, which the static rules cannot tell) is judged by its top-level group's plan.
      const labs = server.emulator.state.groupByFullPath("beta/labs")!;
      expect(await failuresOf("GroupSettings", { group: labs.id, autoBanUserOnExcessiveProjectsDownload: true })).toEqual([
        "autoBanUserOnExcessiveProjectsDownload: group beta/labs needs the Ultimate tier for this setting, and group beta is on Free",
      ]);
    });
    expect(requests.filter((request) => request.includes("/namespaces/"))).toEqual(["GET /api/v4/namespaces/beta"]);
    expect(await failuresOf("GroupSettings", { group: "acme", membershipLock: true, uniqueProjectDownloadLimit: 10 })).toEqual([]);
    expect(await failuresOf("GroupSettings", { group: "acme", sharedRunnersMinutesLimit: 100 })).toEqual([
      "sharedRunnersMinutesLimit: the token's user (alice) needs administrator rights on the instance for this setting, and is a regular user there",
    ]);
    await runAs("root");
    expect(await failuresOf("GroupSettings", { group: "acme", sharedRunnersMinutesLimit: 100 })).toEqual([]);
  });

  it("an update verifies the gated settings it changes, and no others", async () => {
    await runAs("alice");
    const recorded = { group: "beta", membershipLock: true, description: "Beta" };
    const requests = await requestsOf(async () => expect(await failuresOf("GroupSettings", { ...recorded, description: "Renamed" }, recorded)).toEqual([]));
    expect(requests.filter((request) => request.includes("/namespaces/"))).toEqual([]);
    expect(await failuresOf("GroupSettings", { ...recorded, preventForkingOutsideGroup: true }, recorded)).toEqual([
      "preventForkingOutsideGroup: group beta needs the Premium or Ultimate tier for this setting, and it is on Free",
    ]);
  });

  it("a plan the token's user may not read is not judged", async () => {
    // maintainer is no Owner of acme: the namespace's plan is hidden, and so is the licence.
    await runAs("maintainer");
    const instance = server.emulator.state.instance;
    const savedTier = instance.tier;
    instance.tier = "free";
    const acme = server.emulator.state.groupByFullPath("acme")!;
    const savedGroupTier = acme.tier;
    acme.tier = "free";
    try {
      expect(await failuresOf("GroupSettings", { group: "acme", membershipLock: true })).toEqual([
        "group: the token's user (maintainer) needs the Owner role on group acme for GroupSettings, and is Maintainer there",
      ]);
    } finally {
      instance.tier = savedTier;
      acme.tier = savedGroupTier;
    }
  });
});

describe("a fact the server does not tell is no refusal", () => {
  let savedDefaults: Record<string, boolean | null> | undefined;
  beforeEach(() => {
    savedDefaults = server.emulator.state.instance.featureFlagDefaults;
  });
  afterEach(() => {
    server.emulator.state.instance.featureFlagDefaults = savedDefaults;
  });

  /** The flags as an instance that never set container_virtual_registries has them. */
  function neverSet(defaults: Record<string, boolean | null> = {}): void {
    const { container_virtual_registries: _unset, ...others } = savedFlags ?? {};
    server.emulator.state.instance.featureFlags = others;
    server.emulator.state.instance.featureFlagDefaults = defaults;
  }

  it("a flag never set runs on its default: on passes, off is refused (GET /features/definitions)", async () => {
    neverSet({ container_virtual_registries: true });
    await runAs("root");
    const requests = await requestsOf(async () => expect(await failuresOf("VirtualRegistry", { group: "acme", name: "by-default" })).toEqual([]));
    expect(requests).toContain("GET /api/v4/features/definitions");
    neverSet({ container_virtual_registries: false });
    await runAs("root");
    expect(await failuresOf("VirtualRegistry", { group: "acme", name: "by-default" })).toEqual([
      "group: feature flag container_virtual_registries is off for group acme (never set, and off by default); VirtualRegistry needs it (an administrator can enable it)",
    ]);
  });

  it("a flag removed (its feature generally available), or definitions refused: the preview goes on and says so once", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      neverSet({ container_virtual_registries: null });
      await runAs("root");
      expect(await failuresOf("VirtualRegistry", { group: "acme", name: "removed-flag" })).toEqual([]);
      expect(await failuresOf("VirtualRegistry", { group: "acme", name: "removed-flag-2" })).toEqual([]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/could not tell whether feature flag container_virtual_registries is on \(the server neither lists nor defines it/);

      neverSet({ container_virtual_registries: false });
      server.emulator.inject({ method: "GET", path: /\/features\/definitions$/, status: 404, body: { error: "404 Not Found" } });
      await runAs("root");
      expect(await failuresOf("VirtualRegistry", { group: "acme", name: "older-server" })).toEqual([]);
      expect(warn).toHaveBeenCalledTimes(2);
      expect(String(warn.mock.calls[1]![0])).toMatch(/it is not set, and GET \/features\/definitions was refused/);
    } finally {
      warn.mockRestore();
    }
  });

  it("a flag conditional on a percentage may be on for the group: not refused", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const flags = [{ name: "container_virtual_registries", state: "conditional", gates: [{ key: "boolean", value: false }, { key: "actors", value: [] }, { key: "percentage_of_actors", value: 50 }] }];
      server.emulator.inject({ method: "GET", path: /\/features$/, status: 200, body: flags });
      await runAs("root");
      expect(await failuresOf("VirtualRegistry", { group: "acme", name: "percentage" })).toEqual([]);
      expect(String(warn.mock.calls[0]![0])).toMatch(/it is enabled by percentage_of_actors/);
    } finally {
      warn.mockRestore();
    }
  });

  it("a licence not installed (null) or refused, and a membership the server will not show, are not judged", async () => {
    const instance = server.emulator.state.instance;
    const saved = { offering: instance.offering, tier: instance.tier };
    Object.assign(instance, { offering: "self-managed", tier: "free" });
    try {
      server.emulator.inject({ method: "GET", path: /\/license$/, status: 200, headers: { "Content-Type": "application/json" }, body: "null" });
      await runAs("root");
      expect(await failuresOf("SamlGroupLink", { group: "acme", samlGroupName: "devs", accessLevel: "developer" })).toEqual([]);
      server.emulator.inject({ method: "GET", path: /\/license$/, status: 403, body: { message: "403 Forbidden" } });
      await runAs("root");
      expect(await failuresOf("SamlGroupLink", { group: "acme", samlGroupName: "devs", accessLevel: "developer" })).toEqual([]);
    } finally {
      Object.assign(instance, saved);
    }
    server.emulator.inject({ method: "GET", path: /\/members\/all\/\d+$/, status: 403, body: { message: "403 Forbidden" } });
    await runAs("maintainer");
    expect(await failuresOf("SamlGroupLink", { group: "acme", samlGroupName: "devs", accessLevel: "developer" })).toEqual([]);
  });
});

describe("the branches and tags a resource names exist", () => {
  it("a schedule's ref that is no branch or tag of the project fails at preview, naming the default branch", async () => {
    await runAs("alice");
    // acme/api's default branch is develop.
    expect(await failuresOf("PipelineSchedule", { project: "acme/api", ...SCHEDULE, ref: "main" })).toEqual([`ref: project acme/api has no branch or tag "main" (its default branch is develop)`]);
    expect(await failuresOf("PipelineSchedule", { project: "acme/web", ...SCHEDULE, ref: "mian" })).toEqual([`ref: project acme/web has no branch or tag "mian" (its default branch is main)`]);
    expect(await failuresOf("PipelineSchedule", { project: "acme/web", ...SCHEDULE, ref: "refs/heads/v1.4.0" })).toEqual([`ref: project acme/web has no branch "v1.4.0" (its default branch is main)`]);
    expect(await failuresOf("PipelineSchedule", { project: "acme/web", ...SCHEDULE, ref: "stable" })).toEqual([
      `ref: "stable" is both a branch and a tag of project acme/web, which the server refuses as ambiguous: name one in full (refs/heads/stable or refs/tags/stable)`,
    ]);
    for (const ref of ["main", "v1.4.0", "release/1.x", "refs/heads/stable", "refs/tags/stable"]) {
      expect(await failuresOf("PipelineSchedule", { project: "acme/web", ...SCHEDULE, ref }), ref).toEqual([]);
    }
  });

  it("an update is verified only when the ref changes; a merge request's branches and a changelog's branch too", async () => {
    await runAs("alice");
    const recorded = { project: "acme/api", ...SCHEDULE, ref: "gone" };
    expect(await failuresOf("PipelineSchedule", { ...recorded, cron: "0 3 * * *" }, recorded)).toEqual([]);
    expect(await failuresOf("PipelineSchedule", { ...recorded, ref: "mian" }, recorded)).toEqual([`ref: project acme/api has no branch or tag "mian" (its default branch is develop)`]);
    expect(await failuresOf("MergeRequest", { project: "acme/web", sourceBranch: "feature/none", targetBranch: "mian", title: "A change" })).toEqual([
      `sourceBranch: project acme/web has no branch "feature/none" (its default branch is main)`,
      `targetBranch: project acme/web has no branch "mian" (its default branch is main)`,
    ]);
    expect(await failuresOf("ChangelogCommit", { project: "acme/web", version: "1.5.0", branch: "mian" })).toEqual([`branch: project acme/web has no branch "mian" (its default branch is main)`]);
  });
});

describe("reads: one per owner and run", () => {
  it("several resources of one owner share the user, the owner, the role and the list", async () => {
    await runAs("maintainer");
    const requests = await requestsOf(() =>
      Promise.all([
        failuresOf("Badge", { project: "acme/web", ...BADGE, name: "one" }),
        failuresOf("Badge", { project: "acme/web", ...BADGE, name: "two" }),
        failuresOf("Badge", { project: "acme/web", ...BADGE, name: "three" }),
        failuresOf("PipelineSchedule", { project: "acme/web", ...SCHEDULE }),
        failuresOf("GroupIntegration", { group: "acme", slug: "mattermost", webhook: "https://chat.example.test/hooks/x" }),
        failuresOf("GroupSettings", { group: "acme", description: "Acme" }),
      ]),
    );
    const user = (await server.as("maintainer").get<{ id: number }>("/user")).id;
    const project = (await server.as().get<{ id: number }>(apiPath`/projects/${"acme/web"}`)).id;
    const group = (await server.as().get<{ id: number }>(apiPath`/groups/${"acme"}`)).id;
    expect(requests.sort()).toEqual(
      [
        "GET /api/v4/user",
        "GET /api/v4/projects/acme%2Fweb",
        `GET /api/v4/projects/${project}/badges`,
        "GET /api/v4/groups/acme",
        `GET /api/v4/groups/${group}/members/all/${user}`,
        // The group's integrations, once: one already active is in the way of a create.
        `GET /api/v4/groups/${group}/integrations`,
        // The schedule's ref: a short name is one branch or one tag.
        `GET /api/v4/projects/${project}/repository/branches/main`,
        `GET /api/v4/projects/${project}/repository/tags/main`,
      ].sort(),
    );
    // The same run asks nothing again.
    expect(await requestsOf(() => failuresOf("Badge", { project: "acme/web", ...BADGE, name: "four" }))).toEqual([]);
    // A new run (configure) reads afresh.
    await runAs("maintainer");
    expect(await requestsOf(() => failuresOf("Badge", { project: "acme/web", ...BADGE, name: "five" }))).toHaveLength(3);
  });

  it("an update verifies only the role, and an unchanged resource nothing", async () => {
    await runAs("dev");
    const recorded = { project: "acme/web", ...BADGE, name: "recorded" };
    expect(await requestsOf(() => failuresOf("Badge", recorded, recorded))).toEqual([]);
    const changed = await requestsOf(async () => {
      expect(await failuresOf("Badge", { ...recorded, name: "renamed" }, recorded)).toEqual([
        "project: the token's user (dev) needs at least the Maintainer role on project acme/web for Badge, and is Developer there",
      ]);
    });
    // The project's permissions fall short, so the effective role (shares included) is read once.
    const [project, user] = await Promise.all([server.as().get<{ id: number }>(apiPath`/projects/${"acme/web"}`), server.as("dev").get<{ id: number }>("/user")]);
    expect(changed).toEqual(["GET /api/v4/user", "GET /api/v4/projects/acme%2Fweb", `GET /api/v4/projects/${project.id}/members/all/${user.id}`]);
    // A new owner is a new object: verified in full.
    expect(await failuresOf("Badge", { ...recorded, project: "acme/gone" }, recorded)).toEqual([
      `project: project acme/gone does not exist, or the token's user (dev) cannot see it (private groups and projects are hidden from non-members)`,
    ]);
  });

  it("a replacement's second check (without the old inputs, as the engine sends it) is not a new object", async () => {
    const admin = server.as();
    await admin.post(apiPath`/groups/${"acme"}/saml_group_links`, { saml_group_name: "replaced", access_level: 30 });
    await runAs("alice");
    const recorded = { group: "acme", samlGroupName: "replaced", accessLevel: "developer" };
    const replacing = { ...recorded, accessLevel: "maintainer" };
    expect(await failuresOf("SamlGroupLink", replacing, recorded)).toEqual([]);
    // The engine then checks the replacement again with no olds: the link found is the one being replaced.
    expect(await requestsOf(async () => expect(await failuresOf("SamlGroupLink", replacing)).toEqual([]))).toEqual([]);
    // The same inputs in a new run, with no resource in the stack: a new link, and the existing one is named.
    await runAs("alice");
    expect(await failuresOf("SamlGroupLink", replacing)).toEqual([
      `a SAML group link named replaced already exists in group acme (id groups/acme/saml_group_links/replaced): adopt it with the import option (import: "groups/acme/saml_group_links/replaced") or remove it`,
    ]);
  });

  it("an owner not known yet at preview is not verified", async () => {
    await runAs("dev");
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    expect(await requestsOf(() => failuresOf("Badge", { project: unknown, ...BADGE }))).toEqual([]);
  });

  it("inputs that fail the static rules are not verified", async () => {
    await runAs("dev");
    const requests = await requestsOf(async () => {
      expect(await failuresOf("PipelineSchedule", { project: "acme/web", ...SCHEDULE, cron: "every day" })).toHaveLength(1);
    });
    expect(requests).toEqual([]);
  });
});

describe("turned off, or without a server", () => {
  it("platform:verifyAtPreview false, or PLATFORM_VERIFY_AT_PREVIEW=false, reads nothing", async () => {
    await runAs("dev", { "platform:verifyAtPreview": "false" });
    expect(await requestsOf(async () => expect(await failuresOf("Badge", { project: "acme/web", ...BADGE })).toEqual([]))).toEqual([]);
    process.env.PLATFORM_VERIFY_AT_PREVIEW = "false";
    try {
      // The stack config without the setting: the environment's is in force.
      await providers.Badge.configure({ config: configOf({ "platform:url": server.emulator.url, "platform:token": tokenOf(server.emulator, "dev") }) });
      expect(await requestsOf(async () => expect(await failuresOf("Badge", { project: "acme/web", ...BADGE })).toEqual([]))).toEqual([]);
    } finally {
      delete process.env.PLATFORM_VERIFY_AT_PREVIEW;
    }
    // Neither set: on.
    await providers.Badge.configure({ config: configOf({ "platform:url": server.emulator.url, "platform:token": tokenOf(server.emulator, "dev") }) });
    expect(await failuresOf("Badge", { project: "acme/web", ...BADGE, name: "verified" })).toEqual([
      "project: the token's user (dev) needs at least the Maintainer role on project acme/web for Badge, and is Developer there",
    ]);
    await runAs("dev", { "platform:verifyAtPreview": "true" });
    expect(await failuresOf("Badge", { project: "acme/web", ...BADGE, name: "verified" })).toEqual([
      "project: the token's user (dev) needs at least the Maintainer role on project acme/web for Badge, and is Developer there",
    ]);
  });

  it("a server that cannot be reached: one warning, no failure, and no further attempt in the run", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    server.emulator.setFaultPlan({ rules: [{ rate: 1, kinds: ["connection-reset"] }] });
    try {
      await runAs("dev", { "platform:retryTimeout": "1" });
      const first = await requestsOf(async () => {
        expect(await Promise.all([failuresOf("Badge", { project: "acme/web", ...BADGE }), failuresOf("Badge", { group: "acme", ...BADGE })])).toEqual([[], []]);
      });
      expect(first.length).toBeGreaterThan(0);
      expect(first.every((request) => request === "GET /api/v4/user")).toBe(true);
      const later = await requestsOf(async () => expect(await failuresOf("PipelineSchedule", { project: "acme/web", ...SCHEDULE })).toEqual([]));
      expect(later).toEqual([]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/could not verify against the server.*no answer from the server.*platform:verifyAtPreview false/s);
    } finally {
      server.emulator.setFaultPlan(undefined);
      warn.mockRestore();
    }
  });

  it("a token the server does not accept is a failure at preview", async () => {
    await providers.Badge.configure({ config: configOf({ "platform:url": server.emulator.url, "platform:token": "glpat-revoked" }) });
    // The words of every refused token: a resource's, a function's (test/functions/core.test.ts) and the client's.
    expect(await failuresOf("Badge", { project: "acme/web", ...BADGE })).toEqual([
      "GET /user failed with 401: 401 Unauthorized. The server refused the token in platform:token (or PLATFORM_TOKEN): it is mistyped, expired or revoked; set a valid one with `pulumi config set --secret platform:token <token>`.",
    ]);
  });
});
