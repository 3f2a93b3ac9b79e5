/**
 * "Commit then fail" on every create: the server applies the write, then the
 * answer is lost (`commit-then-reset`: the connection drops; `commit-then-error`:
 * a 5xx replaces it). For every resource, each write of its create (the POST,
 * or the PUT of integrations and settings; every POST of the creates that send
 * several) is hit once, and the provider's create must still succeed, leave no
 * duplicate, and record the one object the server holds.
 *
 * Last, the rare case where the write was applied and every answer lost until
 * the client gave up: the engine runs the create again on the next `up`, and
 * that must converge too (the object taken over, the prior values kept).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { virtualRegistryStore, type FaultKind } from "pulumi-platform/emulator";
import { SkippingClock, sshPublicKey, useClientClock, useEmulator } from "../support";
import { checked, EngineRun, everythingSeed, sorted, type Managed, type Props, type Provider } from "./harness";

// Backoff and the retry budget pass at once on a clock the clients and the emulator share.
const clock = new SkippingClock();
const server = useEmulator({ seed: everythingSeed, clock: clock.now });
useClientClock(clock);
const api = () => server.as("root");

beforeAll(async () => {
  await server.configureProviders("root");
});

afterEach(() => {
  server.emulator.setFaultPlan(undefined);
});

interface Write {
  method: "POST" | "PUT" | "PATCH";
  path: RegExp;
  /** How many requests of the create match (one per variable, say). Default 1. */
  count?: number;
}

interface CommitCase {
  name: string;
  provider: Provider;
  /** Out-of-band set-up the declaration needs; returns the declaration. */
  declare(): Promise<Props>;
  /** The writes of the create, each of which gets the fault once. */
  writes: Write[];
  /** Out of band: the server holds the declared object once, and the recorded state is that object. */
  verify(created: Managed, declared: Props): Promise<void>;
  /** Out-of-band clean-up after the provider's delete. */
  cleanup?(): Promise<void>;
}

const LEVEL_DEVELOPER = 30;
let unique = 0;
const next = (prefix: string) => `${prefix}-${++unique}`;

/** Runs with faults off; every case leaves the server as it found it. */
async function deleteAndClean(testCase: CommitCase, created: Managed | undefined): Promise<void> {
  if (created) await testCase.provider.delete(created.id, created.outs);
  await testCase.cleanup?.();
}

let registries: number[] = [];
const newRegistry = async (name: string) => {
  const { id } = await api().post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name });
  registries.push(id);
  return id;
};
const deleteRegistries = async () => {
  for (const id of registries) await api().delete(`/virtual_registries/container/registries/${id}`);
  registries = [];
};

/** For settings: the values of some API fields, to record before and compare after. */
const pick = (live: Props, fields: string[]) => Object.fromEntries(fields.map((field) => [field, live[field] ?? null]));

const cases: CommitCase[] = [
  (() => {
    let name = "";
    return {
      name: "Badge",
      provider: providers.Badge,
      async declare() {
        name = next("badge");
        return { project: "acme/web", name, linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}/b.svg" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/[^/]+\/badges$/ }],
      async verify(created) {
        const badges = await api().list<{ id: number; name: string; kind: string }>(apiPath`/projects/${"acme/web"}/badges`);
        const ids = badges.filter((b) => b.kind === "project" && b.name === name).map((b) => b.id);
        expect(ids).toEqual([created.outs.badgeId]);
        expect(created.id).toBe(`projects/acme%2Fweb/badges/${ids[0]}`);
      },
    };
  })(),

  {
    name: "GroupIntegration",
    provider: providers.GroupIntegration,
    async declare() {
      return { group: "acme", slug: "mattermost", webhook: "https://chat.example.test/hooks/commit", channel: "ci", pipelineEvents: true };
    },
    writes: [{ method: "PUT", path: /^\/api\/v4\/groups\/acme\/integrations\/mattermost$/ }],
    async verify(created) {
      const active = await api().get<{ id: number; slug: string }[]>(apiPath`/groups/${"acme"}/integrations`);
      expect(active.filter((i) => i.slug === "mattermost").map((i) => i.id)).toEqual([created.outs.integrationId]);
      const live = await api().get<{ properties: Props; pipeline_events: boolean }>(apiPath`/groups/${"acme"}/integrations/${"mattermost"}`);
      expect([live.properties.channel, live.pipeline_events]).toEqual(["ci", true]);
      expect(created.id).toBe("groups/acme/integrations/mattermost");
    },
  },

  (() => {
    let name = "";
    return {
      name: "SamlGroupLink",
      provider: providers.SamlGroupLink,
      async declare() {
        name = next("idp-group");
        return { group: "acme", samlGroupName: name, accessLevel: "developer" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/groups\/acme\/saml_group_links$/ }],
      async verify(created) {
        const links = await api().get<{ name: string; access_level: number }[]>(apiPath`/groups/${"acme"}/saml_group_links`);
        expect(links.filter((l) => l.name === name).map((l) => l.access_level)).toEqual([LEVEL_DEVELOPER]);
        expect(created.id).toBe(`groups/acme/saml_group_links/${name}`);
      },
    };
  })(),

  (() => {
    let description = "";
    return {
      name: "PipelineSchedule (the schedule and each of its variables)",
      provider: providers.PipelineSchedule,
      async declare() {
        description = next("nightly");
        return {
          project: "acme/web",
          description,
          ref: "main",
          cron: "0 2 * * *",
          variables: [
            { key: "DEPLOY_TOKEN", value: "token-value" },
            { key: "TARGET", value: "staging", variableType: "file" },
          ],
        };
      },
      writes: [
        { method: "POST", path: /^\/api\/v4\/projects\/[^/]+\/pipeline_schedules$/ },
        { method: "POST", path: /^\/api\/v4\/projects\/[^/]+\/pipeline_schedules\/\d+\/variables$/, count: 2 },
      ],
      async verify(created) {
        const collection = apiPath`/projects/${"acme/web"}/pipeline_schedules`;
        const ids = (await api().list<{ id: number; description: string }>(collection)).filter((s) => s.description === description).map((s) => s.id);
        expect(ids).toEqual([created.outs.scheduleId]);
        expect(created.id).toBe(`projects/acme%2Fweb/pipeline_schedules/${ids[0]}`);
        const live = await api().get<{ variables: { key: string; value: string; variable_type: string }[] }>(`${collection}/${ids[0]}`);
        expect(sorted(live.variables.map((v) => `${v.key}=${v.value}:${v.variable_type}`))).toEqual(["DEPLOY_TOKEN=token-value:env_var", "TARGET=staging:file"]);
        // Recorded by key, each value secret on its own (the engine's per-variable diff).
        expect(Object.keys(created.outs.variables as object).sort()).toEqual(["DEPLOY_TOKEN", "TARGET"]);
      },
    };
  })(),

  (() => {
    let description = "";
    let colleagues = 0;
    return {
      name: "PipelineSchedule adopted from a colleague (take_ownership, the new variable, the PUT)",
      provider: providers.PipelineSchedule,
      async declare() {
        description = next("handed over");
        colleagues = (await server.as("maintainer").post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description, ref: "main", cron: "0 5 * * *" })).id;
        return { project: "acme/web", description, ref: "main", cron: "0 6 * * *", variables: [{ key: "NEW", value: "y" }], adoptExisting: true, takeOwnership: true };
      },
      writes: [
        { method: "POST", path: /\/pipeline_schedules\/\d+\/take_ownership$/ },
        { method: "POST", path: /\/pipeline_schedules\/\d+\/variables$/ },
        { method: "PUT", path: /^\/api\/v4\/projects\/[^/]+\/pipeline_schedules\/\d+$/ },
      ],
      async verify(created) {
        const collection = apiPath`/projects/${"acme/web"}/pipeline_schedules`;
        const ids = (await api().list<{ id: number; description: string }>(collection)).filter((s) => s.description === description).map((s) => s.id);
        expect(ids).toEqual([colleagues]);
        expect(created.id).toBe(`projects/acme%2Fweb/pipeline_schedules/${colleagues}`);
        const live = await api().get<{ cron: string; owner: { username: string }; variables: { key: string; value: string }[] }>(`${collection}/${colleagues}`);
        expect([live.cron, live.owner.username, live.variables.map((v) => `${v.key}=${v.value}`)]).toEqual(["0 6 * * *", "root", ["NEW=y"]]);
      },
    };
  })(),

  (() => {
    let name = "";
    return {
      name: "VirtualRegistry",
      provider: providers.VirtualRegistry,
      async declare() {
        name = next("registry");
        return { group: "acme", name, description: "Images" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/groups\/acme\/-\/virtual_registries\/container\/registries$/ }],
      async verify(created) {
        const all = await api().get<{ id: number; name: string }[]>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`);
        expect(all.filter((r) => r.name === name).map((r) => String(r.id))).toEqual([created.id]);
        expect(created.outs.registryId).toBe(Number(created.id));
      },
    };
  })(),

  (() => {
    let main = 0;
    let other = 0;
    let first = 0;
    return {
      name: "Upstream (the upstream, its move to position 1, its association with another registry)",
      provider: providers.Upstream,
      async declare() {
        main = await newRegistry(next("main"));
        other = await newRegistry(next("other"));
        first = (await api().post<{ id: number }>(`/virtual_registries/container/registries/${main}/upstreams`, { url: "https://first.example.com", name: "First" })).id;
        return { registry: main, name: "Mirror", url: "https://mirror.example.com", username: "puller", password: "pull-secret", position: 1, otherRegistries: [{ registry: other }] };
      },
      writes: [
        { method: "POST", path: /^\/api\/v4\/virtual_registries\/container\/registries\/\d+\/upstreams$/ },
        { method: "PATCH", path: /^\/api\/v4\/virtual_registries\/container\/registry_upstreams\/\d+$/ },
        { method: "POST", path: /^\/api\/v4\/virtual_registries\/container\/registry_upstreams$/ },
      ],
      async verify(created) {
        const upstreams = virtualRegistryStore.of(server.emulator.state).upstreams.filter((u) => u.url === "https://mirror.example.com");
        expect(upstreams.map((u) => String(u.id))).toEqual([created.id]);
        expect(upstreams[0]!.password).toBe("pull-secret");
        const live = await api().get<{ registry_upstreams: { registry_id: number; position: number }[] }>(`/virtual_registries/container/upstreams/${created.id}`);
        expect(sorted(live.registry_upstreams.map((l) => `${l.registry_id}@${l.position}`))).toEqual(sorted([`${main}@1`, `${other}@1`]));
        const positions = await api().get<{ registry_upstreams: { upstream_id: number; position: number }[] }>(`/virtual_registries/container/registries/${main}`);
        expect(positions.registry_upstreams.map((l) => [l.upstream_id, l.position])).toEqual([
          [Number(created.id), 1],
          [first, 2],
        ]);
      },
      cleanup: deleteRegistries,
    };
  })(),

  {
    name: "CleanupPolicy",
    provider: providers.CleanupPolicy,
    async declare() {
      return { group: "acme", enabled: true, cadence: 14, keepNDaysAfterDownload: 45 };
    },
    writes: [{ method: "POST", path: /^\/api\/v4\/groups\/acme\/-\/virtual_registries\/cleanup\/policy$/ }],
    async verify(created) {
      const live = await api().get<Props>(apiPath`/groups/${"acme"}/-/virtual_registries/cleanup/policy`);
      expect(pick(live, ["enabled", "cadence", "keep_n_days_after_download"])).toEqual({ enabled: true, cadence: 14, keep_n_days_after_download: 45 });
      expect([created.id, created.outs.groupId]).toEqual(["acme", live.group_id]);
    },
  },

  (() => {
    const fields = ["request_access_enabled", "project_creation_level", "description"];
    let prior: Props = {};
    return {
      name: "GroupSettings",
      provider: providers.GroupSettings,
      async declare() {
        prior = pick(await api().get<Props>(apiPath`/groups/${"beta"}`), fields);
        return { group: "beta", requestAccessEnabled: !prior.request_access_enabled, projectCreationLevel: "noone", description: next("Beta") };
      },
      writes: [{ method: "PUT", path: /^\/api\/v4\/groups\/\d+$/ }],
      async verify(created, declared) {
        const live = await api().get<Props>(apiPath`/groups/${"beta"}`);
        expect(pick(live, fields)).toEqual({ request_access_enabled: declared.requestAccessEnabled, project_creation_level: "noone", description: declared.description });
        expect(created.id).toBe(`groups/${live.id}`);
        // The values it had before are recorded, not the ones the lost answer had already applied.
        expect(created.outs.restoreValues).toEqual({ requestAccessEnabled: prior.request_access_enabled, projectCreationLevel: prior.project_creation_level, description: prior.description });
      },
      async cleanup() {
        expect(pick(await api().get<Props>(apiPath`/groups/${"beta"}`), fields)).toEqual(prior);
      },
    };
  })(),

  {
    name: "Group",
    provider: providers.Group,
    async declare() {
      return { parent: "acme", path: next("team"), name: "Team", description: "made once" };
    },
    writes: [{ method: "POST", path: /^\/api\/v4\/groups$/ }],
    async verify(created, declared) {
      const subgroups = await api().get<Props[]>(apiPath`/groups/${"acme"}/subgroups`, { search: String(declared.path) });
      expect(subgroups.filter((group) => group.path === declared.path)).toHaveLength(1);
      expect(created.id).toBe(`groups/${subgroups[0]!.id}`);
    },
  },

  (() => {
    const fields = ["signup_enabled", "terms", "enforce_terms"];
    let prior: Props = {};
    return {
      name: "ApplicationSettings",
      provider: providers.ApplicationSettings,
      async declare() {
        prior = pick(await api().get<Props>("/application/settings"), fields);
        return { signupEnabled: !prior.signup_enabled, enforceTerms: true, terms: next("Company work only") };
      },
      writes: [{ method: "PUT", path: /^\/api\/v4\/application\/settings$/ }],
      async verify(created, declared) {
        expect(pick(await api().get<Props>("/application/settings"), fields)).toEqual({ signup_enabled: declared.signupEnabled, terms: declared.terms, enforce_terms: true });
        expect(created.id).toBe("application/settings");
        expect(created.outs.restoreValues).toEqual({ signupEnabled: prior.signup_enabled, terms: prior.terms, enforceTerms: prior.enforce_terms });
      },
      async cleanup() {
        expect(pick(await api().get<Props>("/application/settings"), fields)).toEqual(prior);
      },
    };
  })(),

  (() => {
    let prior: Props = {};
    return {
      name: "ContainerRegistryVisibility",
      provider: providers.ContainerRegistryVisibility,
      async declare() {
        prior = pick(await api().get<Props>(apiPath`/projects/${"acme/api"}`), ["container_registry_access_level"]);
        return { project: "acme/api", accessLevel: prior.container_registry_access_level === "private" ? "disabled" : "private" };
      },
      writes: [{ method: "PUT", path: /^\/api\/v4\/projects\/\d+$/ }],
      async verify(created, declared) {
        const live = await api().get<Props & { id: number }>(apiPath`/projects/${"acme/api"}`);
        expect(live.container_registry_access_level).toBe(declared.accessLevel);
        expect(created.id).toBe(`projects/${live.id}`);
        expect(created.outs.restoreValues).toEqual({ accessLevel: prior.container_registry_access_level });
      },
      async cleanup() {
        expect(pick(await api().get<Props>(apiPath`/projects/${"acme/api"}`), ["container_registry_access_level"])).toEqual(prior);
      },
    };
  })(),

  (() => {
    let before: number[] = [];
    const keys = async () => (await api().list<{ id: number }>(apiPath`/projects/${"acme/api"}/error_tracking/client_keys`)).map((key) => key.id);
    return {
      name: "ErrorTrackingClientKey",
      provider: providers.ErrorTrackingClientKey,
      async declare() {
        before = await keys();
        return { project: "acme/api" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/\d+\/error_tracking\/client_keys$/ }],
      async verify(created) {
        const added = (await keys()).filter((id) => !before.includes(id));
        expect(added).toEqual([created.outs.keyId]);
        expect(created.id).toMatch(new RegExp(`^projects/\\d+/error_tracking/client_keys/${added[0]}$`));
        expect(String(created.outs.dsn)).toMatch(/^https?:\/\//);
      },
      async cleanup() {
        expect(await keys()).toEqual(before);
      },
    };
  })(),

  (() => {
    // Group SAML identities exist on the hosted offering only: the case switches the instance for its run.
    const instance = () => server.emulator.state.instance;
    let offering: ReturnType<typeof instance>["offering"] | undefined;
    let wanted = "";
    const identitiesOfDev = async () =>
      (await api().list<{ extern_uid: string; user_id: number }>(apiPath`/groups/${"acme"}/saml/identities`)).filter((identity) => identity.user_id === 4);
    return {
      name: "SamlIdentity (the PATCH moves the identity to its new uid: the client's retry meets a 404 at the old one)",
      provider: providers.SamlIdentity,
      async declare() {
        offering = instance().offering;
        instance().offering = "hosted";
        wanted = next("dev-uid");
        return { group: "acme", user: "dev", externUid: wanted };
      },
      writes: [{ method: "PATCH", path: /^\/api\/v4\/groups\/acme\/saml\/idp-1003-dev$/ }],
      async verify(created) {
        expect((await identitiesOfDev()).map((identity) => identity.extern_uid)).toEqual([wanted]);
        expect(created.id).toBe("groups/acme/saml/users/4");
        expect(created.outs).toMatchObject({ externUid: wanted, restoreValues: { externUid: "idp-1003-dev" } });
      },
      async cleanup() {
        try {
          expect((await identitiesOfDev()).map((identity) => identity.extern_uid)).toEqual(["idp-1003-dev"]);
        } finally {
          if (offering) instance().offering = offering;
        }
      },
    };
  })(),
  (() => {
    // root (the provider's user here) has starred nothing in the seed.
    const rootStars = async () =>
      (await api().list<{ user: { username: string }; starred_since: string }>(apiPath`/projects/${"acme/api"}/starrers`)).filter((entry) => entry.user.username === "root");
    return {
      name: "ProjectStar (the star's answer lost: found in the starrers list, no error, one star)",
      provider: providers.ProjectStar,
      async declare() {
        expect(await rootStars()).toEqual([]);
        return { project: "acme/api" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fapi\/star$/ }],
      async verify(created) {
        const stars = await rootStars();
        expect(stars).toHaveLength(1);
        expect(created.id).toMatch(/^projects\/\d+\/starrers\/1$/);
        // Made by this create, not found from before: destroy removes it.
        expect(created.outs).toMatchObject({ username: "root", starredSince: stars[0]!.starred_since, starredBefore: false, starCount: expect.any(Number) });
      },
      async cleanup() {
        expect(await rootStars()).toEqual([]);
      },
    };
  })(),
  (() => {
    // The assignment's answer lost: the retried POST would be a 409 (already this parent's child); the child is found in the list instead.
    const roadmap = async () => (await api().list<{ id: number }>(apiPath`/groups/${"acme"}/epics/1/epics`)).map((epic) => epic.id);
    return {
      name: "EpicLink (the assignment's answer lost: found among the parent's children, assigned once, placed)",
      provider: providers.EpicLink,
      async declare() {
        expect(await roadmap()).toEqual([2, 3, 4]);
        return { group: "acme", epicIid: 1, childEpicId: 6, moveBeforeId: 2 };
      },
      writes: [
        { method: "POST", path: /^\/api\/v4\/groups\/acme\/epics\/1\/epics\/6$/ },
        { method: "PUT", path: /^\/api\/v4\/groups\/acme\/epics\/1\/epics\/6$/ },
      ],
      async verify(created) {
        expect(await roadmap()).toEqual([2, 6, 3, 4]);
        expect(created.id).toBe("groups/acme/epics/1/epics/6");
        expect(created.outs).toMatchObject({ parentEpicId: 1, moveBeforeId: 2, title: "Accessibility audit" });
      },
      async cleanup() {
        expect(await roadmap()).toEqual([2, 3, 4]);
      },
    };
  })(),
  (() => {
    // The POST's answer lost: the server would refuse a second open merge request of these branches (409);
    // the open one is found in the list instead. The discussion lock is the PUT after it.
    const openOnes = async () =>
      (await api().list<{ iid: number; project_id: number; references: { full: string } }>("/merge_requests", { scope: "all", state: "opened", source_branch: "release/1.x", target_branch: "main" }))
        .filter((mr) => mr.references.full.startsWith("acme/web!"))
        .map((mr) => mr.iid);
    return {
      name: "MergeRequest (the POST's answer lost: found as the open merge request of its branches, created once)",
      provider: providers.MergeRequest,
      async declare() {
        expect(await openOnes()).toEqual([]);
        return { project: "acme/web", sourceBranch: "release/1.x", targetBranch: "main", title: next("Release"), discussionLocked: true };
      },
      writes: [
        { method: "POST", path: /^\/api\/v4\/projects\/acme%2Fweb\/merge_requests$/ },
        { method: "PUT", path: /^\/api\/v4\/projects\/acme%2Fweb\/merge_requests\/\d+$/ },
      ],
      async verify(created, declared) {
        const open = await openOnes();
        expect(open).toHaveLength(1);
        expect(created.id).toBe(`projects/acme%2Fweb/merge_requests/${open[0]}`);
        expect(await api().get(`/${created.id}`)).toMatchObject({ title: declared.title, discussion_locked: true });
      },
      async cleanup() {
        // Destroy closes it: no open one is left.
        expect(await openOnes()).toEqual([]);
      },
    };
  })(),  (() => {
    let name = "";
    return {
      name: "ProtectedBranch (the POST's answer lost: found by its name, protected once)",
      provider: providers.ProtectedBranch,
      async declare() {
        name = `${next("release")}/*`;
        return { project: "acme/web", name, pushAccessLevel: "no_one", mergeAccessLevel: LEVEL_DEVELOPER };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fweb\/protected_branches$/ }],
      async verify(created) {
        const rules = (await api().list<{ id: number; name: string }>(apiPath`/projects/${"acme/web"}/protected_branches`)).filter((rule) => rule.name === name);
        expect(rules.map((rule) => rule.id)).toEqual([created.outs.protectedBranchId]);
        expect(await api().get(`/${created.id}`)).toMatchObject({ push_access_levels: [{ access_level: 0 }], merge_access_levels: [{ access_level: LEVEL_DEVELOPER }] });
      },
    };
  })(),  (() => {
    let name = "";
    return {
      name: "ProtectedTag (the POST's answer lost: found by its name, protected once)",
      provider: providers.ProtectedTag,
      async declare() {
        name = `${next("v")}-*`;
        return { project: "acme/web", name, createAccessLevel: LEVEL_DEVELOPER };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fweb\/protected_tags$/ }],
      async verify(created) {
        const rules = (await api().list<{ name: string }>(apiPath`/projects/${"acme/web"}/protected_tags`)).filter((rule) => rule.name === name);
        expect(rules).toHaveLength(1);
        expect(created.id).toBe(`projects/acme%2Fweb/protected_tags/${encodeURIComponent(name)}`);
      },
    };
  })(),  (() => {
    let name = "";
    return {
      name: "ApprovalRule (the POST's answer lost: found by its name, made once)",
      provider: providers.ApprovalRule,
      async declare() {
        name = next("review");
        return { project: "acme/web", name, approvalsRequired: 1 };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fweb\/approval_rules$/ }],
      async verify(created) {
        const rules = (await api().list<{ id: number; name: string }>(apiPath`/projects/${"acme/web"}/approval_rules`)).filter((rule) => rule.name === name);
        expect(rules.map((rule) => rule.id)).toEqual([created.outs.approvalRuleId]);
      },
    };
  })(),
  (() => {
    let prior: Props = {};
    return {
      name: "ProjectApprovalSettings (the POST's answer lost: written again, the same values)",
      provider: providers.ProjectApprovalSettings,
      async declare() {
        prior = pick(await api().get<Props>(apiPath`/projects/${"acme/api"}/approvals`), ["merge_requests_disable_committers_approval"]);
        return { project: "acme/api", mergeRequestsDisableCommittersApproval: prior.merge_requests_disable_committers_approval !== true };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/\d+\/approvals$/ }],
      async verify(created, declared) {
        const live = await api().get<Props>(apiPath`/projects/${"acme/api"}/approvals`);
        expect(live.merge_requests_disable_committers_approval).toBe(declared.mergeRequestsDisableCommittersApproval);
        expect(created.outs.restoreValues).toEqual({ mergeRequestsDisableCommittersApproval: prior.merge_requests_disable_committers_approval });
      },
    };
  })(),
  (() => {
    let key = "";
    return {
      name: "ProjectVariable",
      provider: providers.ProjectVariable,
      async declare() {
        key = next("variable").toUpperCase().replace(/[^A-Z0-9_]/g, "_");
        return { project: "acme/web", key, value: "committed-once", environmentScope: "production" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/[^/]+\/variables$/ }],
      async verify(created) {
        const variables = await api().list<{ key: string; environment_scope: string }>(apiPath`/projects/${"acme/web"}/variables`);
        expect(variables.filter((v) => v.key === key).map((v) => v.environment_scope)).toEqual(["production"]);
        expect(created.id).toBe(`projects/acme%2Fweb/variables/${key}/production`);
      },
    };
  })(),
  (() => {
    let name = "";
    return {
      name: "ProjectHook",
      provider: providers.ProjectHook,
      async declare() {
        name = next("hook");
        return { project: "acme/web", name, url: "https://ci.example.test/hooks/commit", token: "commit-token" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/[^/]+\/hooks$/ }],
      async verify(created) {
        const hooks = await api().list<{ id: number; name: string }>(apiPath`/projects/${"acme/web"}/hooks`);
        const ids = hooks.filter((hook) => hook.name === name).map((hook) => hook.id);
        expect(ids).toEqual([created.outs.hookId]);
        expect(created.id).toBe(`projects/acme%2Fweb/hooks/${ids[0]}`);
      },
    };
  })(),

  (() => {
    let name = "";
    return {
      name: "Label",
      provider: providers.Label,
      async declare() {
        name = next("label");
        return { group: "acme", name, color: "teal", description: "lost answer" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/groups\/acme\/labels$/ }],
      async verify(created) {
        const labels = await api().list<{ id: number; name: string }>(apiPath`/groups/${"acme"}/labels`, { include_ancestor_groups: false });
        const ids = labels.filter((label) => label.name === name).map((label) => label.id);
        expect(ids).toEqual([created.outs.labelId]);
        expect(created.id).toBe(`groups/acme/labels/${ids[0]}`);
      },
    };
  })(),

  (() => {
    let user = "";
    return {
      name: "ProjectMember",
      provider: providers.ProjectMember,
      async declare() {
        const { state } = server.emulator;
        user = next("member");
        state.users.push({ id: state.nextId("users"), username: user, name: user, email: `${user}@example.test`, isAdmin: false, tokens: [], createdAt: "2024-01-01T00:00:00.000Z" });
        return { project: "acme/web", user, accessLevel: "developer" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fweb\/members$/ }],
      async verify(created) {
        const members = await api().list<{ id: number; username: string; access_level: number }>(apiPath`/projects/${"acme/web"}/members`);
        const mine = members.filter((member) => member.username === user);
        expect(mine.map((member) => member.access_level)).toEqual([30]);
        expect(created.id).toBe(`projects/acme%2Fweb/members/${mine[0]!.id}`);
      },
    };
  })(),

  {
    name: "ProjectShare",
    provider: providers.ProjectShare,
    async declare() {
      return { project: "acme/api", sharedWith: "beta", groupAccess: "reporter" };
    },
    writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fapi\/share$/ }],
    async verify(created) {
      const project = await api().get<{ shared_with_groups: { group_full_path: string; group_access_level: number }[] }>(apiPath`/projects/${"acme/api"}`);
      expect(project.shared_with_groups.filter((share) => share.group_full_path === "beta").map((share) => share.group_access_level)).toEqual([20]);
      expect(created.id).toMatch(/^projects\/acme%2Fapi\/share\/\d+$/);
    },
  },
  (() => {
    // The POST's answer lost: the project is found by its name in the group, made once.
    let name = "";
    const named = async () => (await api().list<{ id: number; name: string }>(apiPath`/groups/${"acme"}/projects`, { search: name })).filter((one) => one.name === name);
    return {
      name: "Project (the POST's answer lost: found by its name in the group, created once)",
      provider: providers.Project,
      async declare() {
        name = next("Lost answer");
        expect(await named()).toEqual([]);
        return { group: "acme", name };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects$/ }],
      async verify(created) {
        const found = await named();
        expect(found).toHaveLength(1);
        expect(created.id).toBe(String(found[0]!.id));
      },
    };
  })(),

  (() => {
    let name = "";
    const active = async () =>
      (await api().list<{ id: number; name: string; active: boolean }>(apiPath`/projects/${"acme/api"}/access_tokens`)).filter((token) => token.name === name && token.active).map((token) => token.id);
    return {
      name: "ProjectAccessToken",
      provider: providers.ProjectAccessToken,
      async declare() {
        name = next("token");
        return { project: "acme/api", name, scopes: ["read_api"], expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fapi\/access_tokens$/ }],
      async verify(created) {
        // One token in force, the one recorded; its value known (a lost answer's token is rotated to learn it).
        expect(await active()).toEqual([created.outs.tokenId]);
        const user = await fetch(`${server.emulator.apiUrl}/user`, { headers: { "PRIVATE-TOKEN": String(created.outs.token) } });
        expect(user.status).toBe(200);
      },
      async cleanup() {
        expect(await active()).toEqual([]);
      },
    };
  })(),
  (() => {
    let name = "";
    return {
      name: "ProjectHook",
      provider: providers.ProjectHook,
      async declare() {
        name = next("hook");
        return { project: "acme/web", name, url: "https://ci.example.test/hooks/commit", token: "commit-token" };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/[^/]+\/hooks$/ }],
      async verify(created) {
        const hooks = await api().list<{ id: number; name: string }>(apiPath`/projects/${"acme/web"}/hooks`);
        const ids = hooks.filter((hook) => hook.name === name).map((hook) => hook.id);
        expect(ids).toEqual([created.outs.hookId]);
        expect(created.id).toBe(`projects/acme%2Fweb/hooks/${ids[0]}`);
      },
    };
  })(),

  (() => {
    let name = "";
    const named = async () => (await api().list<{ id: number; name: string }>(apiPath`/projects/${"acme/api"}/deploy_tokens`)).filter((token) => token.name === name).map((token) => token.id);
    return {
      name: "DeployToken",
      provider: providers.DeployToken,
      async declare() {
        name = next("deploy");
        return { project: "acme/api", name, scopes: ["read_repository"] };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fapi\/deploy_tokens$/ }],
      async verify(created) {
        // One token, the one recorded, its value known (a lost answer's token is deleted and made again).
        expect(await named()).toEqual([created.outs.tokenId]);
        expect(String(created.outs.token)).toMatch(/^gldt-/);
      },
      async cleanup() {
        expect(await named()).toEqual([]);
      },
    };
  })(),

  (() => {
    const key = sshPublicKey("commit-then-fail");
    const enabled = async () => (await api().list<{ id: number; key: string }>(apiPath`/projects/${"acme/api"}/deploy_keys`)).filter((one) => one.key === key).map((one) => one.id);
    return {
      name: "DeployKey",
      provider: providers.DeployKey,
      async declare() {
        return { project: "acme/api", title: "ci", key };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fapi\/deploy_keys$/ }],
      async verify(created) {
        expect(await enabled()).toEqual([created.outs.keyId]);
      },
      async cleanup() {
        expect(await enabled()).toEqual([]);
      },
    };
  })(),

  (() => {
    const protectedNames = async () => (await api().list<{ name: string }>(apiPath`/projects/${"acme/api"}/protected_environments`)).map((rule) => rule.name).filter((name) => name === "commit-then-fail");
    return {
      name: "ProtectedEnvironment",
      provider: providers.ProtectedEnvironment,
      async declare() {
        return { project: "acme/api", name: "commit-then-fail", deployAccessLevels: [{ accessLevel: "maintainer" }], approvalRules: [{ accessLevel: "maintainer", requiredApprovals: 2 }] };
      },
      writes: [{ method: "POST", path: /^\/api\/v4\/projects\/acme%2Fapi\/protected_environments$/ }],
      async verify() {
        expect(await protectedNames()).toEqual(["commit-then-fail"]);
      },
      async cleanup() {
        expect(await protectedNames()).toEqual([]);
      },
    };
  })(),
];

/** The fault plan that hits each write of the create once with `kind`. */
function everyWriteOnce(testCase: CommitCase, kind: FaultKind) {
  return { rules: testCase.writes.map(({ method, path, count = 1 }) => ({ method, path, sequence: Array<FaultKind>(count).fill(kind) })) };
}

const totalWrites = (testCase: CommitCase) => testCase.writes.reduce((sum, write) => sum + (write.count ?? 1), 0);

describe.each(["commit-then-reset", "commit-then-error"] as const)("%s on every write of a create: no duplicate, and the state records the object", (kind) => {
  for (const testCase of cases) {
    it(testCase.name, async () => {
      const declared = await testCase.declare();
      const inputs = await checked(testCase.provider, declared);
      const mark = server.emulator.mark();
      server.emulator.setFaultPlan(everyWriteOnce(testCase, kind));
      let created: Managed | undefined;
      try {
        const result = await testCase.provider.create(inputs);
        created = { provider: testCase.provider, label: testCase.name, id: result.id, inputs, outs: result.outs ?? {} };
      } finally {
        server.emulator.setFaultPlan(undefined);
        // Every write of the create was applied and its answer lost: the test cannot pass on a quiet plan.
        const hit = server.emulator.requestsSince(mark).filter((entry) => entry.fault === kind);
        expect(hit.map((entry) => `${entry.method} ${entry.path} handled=${entry.handled}`)).toHaveLength(totalWrites(testCase));
        expect(hit.every((entry) => entry.handled)).toBe(true);
      }
      try {
        await testCase.verify(created, declared);
      } finally {
        await deleteAndClean(testCase, created);
      }
    });
  }
});

describe("the write was applied and every answer lost until the client gave up: the next up converges", () => {
  // The creates whose write is a PUT: a lost answer is sent again, and here every answer is lost.
  const putCases = cases.filter((testCase) => testCase.writes.every((write) => write.method === "PUT"));

  beforeAll(async () => {
    // A short retry budget, so that the client gives up within seconds.
    await server.configureProviders("root", { "platform:retryTimeout": "1.5" });
  });

  for (const testCase of putCases) {
    it(testCase.name, async () => {
      const run = new EngineRun();
      // By the next `up` the server answers again.
      run.beforeRerun = () => server.emulator.setFaultPlan(undefined);
      const declared = await testCase.declare();
      const mark = server.emulator.mark();
      server.emulator.setFaultPlan({ rules: testCase.writes.map(({ method, path }) => ({ method, path, sequence: Array<FaultKind>(20).fill("commit-then-error") })) });
      let created: Managed | undefined;
      try {
        created = await run.create(testCase.provider, testCase.name, declared);
      } finally {
        server.emulator.setFaultPlan(undefined);
      }
      const applied = server.emulator.requestsSince(mark).filter((entry) => entry.fault === "commit-then-error" && entry.handled);
      expect(applied.length).toBeGreaterThan(1);
      expect(run.reruns.map((r) => r.operation)).toEqual([`create ${testCase.name}`]);
      expect(run.reruns[0]!.reason).toMatch(/Gave up after \d+ attempts/);
      try {
        await testCase.verify(created, declared);
      } finally {
        await deleteAndClean(testCase, created);
      }
    });
  }
});
