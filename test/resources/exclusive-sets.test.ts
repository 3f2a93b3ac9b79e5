/**
 * The exclusive sets through `providers.<Name>`, as the engine calls them,
 * against the emulator over HTTP: create removes nothing; a refresh (read)
 * records, by name, exactly the objects neither kept nor ignored, as outputs
 * and as inputs (so the next preview names them); update removes exactly the
 * recorded ones and never one made after the refresh; delete removes nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers, type PlatformClient } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();

type Kind = "ExclusiveBadges" | "ExclusiveSamlGroupLinks" | "ExclusivePipelineSchedules" | "ExclusiveGroupIntegrations" | "ExclusiveUpstreams" | "ExclusiveLabels";

/** One object made out of band: its key as the collection knows it, and how a program's `keep` names it. */
interface Made {
  key: string;
  keepValue: string | number;
}

interface CollectionCase {
  kind: Kind;
  /** The owner inputs (made in `setUp` when the owner must be created first). */
  owner(): Record<string, unknown>;
  setUp?(api: PlatformClient): Promise<void>;
  /** Makes an object named after `label` (labels starting `legacy-` match the ignore pattern). */
  make(api: PlatformClient, label: string): Promise<Made>;
  /** The keys of the collection's objects as they stand. */
  present(api: PlatformClient): Promise<string[]>;
  ignore: string[];
  /** How the refresh names the object made with `label` (what the preview shows). */
  entry(made: Made, label: string): Record<string, unknown>;
}

let registry = 0;
let secondRegistry = 0;
let upstreams = 0;
const slugs: Record<string, string> = { kept: "redmine", "legacy-tracker": "youtrack", "stray-before": "custom-issue-tracker", "stray-after": "bugzilla" };

const cases: CollectionCase[] = [
  {
    kind: "ExclusiveBadges",
    owner: () => ({ group: "acme" }),
    async make(api, label) {
      const badge = await api.post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, {
        name: label,
        link_url: `https://ci.example.com/${label}`,
        image_url: `https://ci.example.com/${label}.svg`,
      });
      return { key: String(badge.id), keepValue: label === "kept" ? `groups/acme/badges/${badge.id}` : badge.id };
    },
    present: async (api) => (await api.list<{ id: number; kind: string }>(apiPath`/groups/${"acme"}/badges`)).map((b) => String(b.id)),
    ignore: ["legacy-*"],
    entry: (made, label) => ({ badgeId: Number(made.key), name: label, linkUrl: `https://ci.example.com/${label}` }),
  },
  {
    kind: "ExclusiveSamlGroupLinks",
    owner: () => ({ group: "acme" }),
    async make(api, label) {
      // The stray made before the refresh has a provider: it is removed by name and provider.
      const provider = label === "stray-before" ? "okta" : undefined;
      await api.post(apiPath`/groups/${"acme"}/saml_group_links`, { saml_group_name: label, access_level: 30, ...(provider ? { provider } : {}) });
      const key = provider ? `${label}?provider=${provider}` : label;
      return { key, keepValue: `groups/acme/saml_group_links/${key}` };
    },
    present: async (api) =>
      (await api.list<{ name: string; provider: string | null }>(apiPath`/groups/${"acme"}/saml_group_links`)).map((l) => (l.provider ? `${l.name}?provider=${l.provider}` : l.name)),
    ignore: ["LEGACY-*"],
    entry: (made, label) => ({ name: label, ...(made.key.includes("?provider=") ? { provider: "okta" } : {}), accessLevel: 30 }),
  },
  {
    kind: "ExclusivePipelineSchedules",
    owner: () => ({ project: "acme/web" }),
    async make(api, label) {
      const schedule = await api.post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: label, ref: "main", cron: "0 1 * * *" });
      return { key: String(schedule.id), keepValue: label === "kept" ? `projects/acme%2Fweb/pipeline_schedules/${schedule.id}` : schedule.id };
    },
    present: async (api) => (await api.list<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`)).map((s) => String(s.id)),
    ignore: ["legacy-*"],
    entry: (made, label) => ({ scheduleId: Number(made.key), description: label, ref: "refs/heads/main", cron: "0 1 * * *" }),
  },
  {
    kind: "ExclusiveGroupIntegrations",
    owner: () => ({ group: "acme" }),
    async make(api, label) {
      const slug = slugs[label]!;
      await api.put(apiPath`/groups/${"acme"}/integrations/${slug}`, {
        project_url: "https://tracker.example.com/acme",
        issues_url: "https://tracker.example.com/acme/issues/:id",
        new_issue_url: "https://tracker.example.com/acme/issues/new",
      });
      return { key: slug, keepValue: label === "kept" ? `groups/acme/integrations/${slug}` : slug };
    },
    present: async (api) => (await api.get<{ slug: string; active: boolean }[]>(apiPath`/groups/${"acme"}/integrations`)).filter((i) => i.active).map((i) => i.slug),
    ignore: ["youtrack"],
    entry: (made) => ({ slug: made.key, title: { redmine: "Redmine", "custom-issue-tracker": "Custom issue tracker", bugzilla: "Bugzilla" }[made.key] }),
  },
  {
    kind: "ExclusiveUpstreams",
    owner: () => ({ registry }),
    async setUp(api) {
      const make = async (name: string) => (await api.post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name })).id;
      registry = await make("exclusive-main");
      secondRegistry = await make("exclusive-second");
    },
    async make(api, label) {
      const upstream = await api.post<{ id: number; registry_upstream: { id: number } }>(apiPath`/virtual_registries/container/registries/${registry}/upstreams`, {
        name: label,
        url: `https://registry-${++upstreams}.example.com`,
      });
      return { key: String(upstream.id), keepValue: label === "kept" ? String(upstream.id) : upstream.id };
    },
    present: async (api) => (await api.get<{ id: number }[]>(apiPath`/virtual_registries/container/registries/${registry}/upstreams`)).map((u) => String(u.id)),
    ignore: ["legacy-*"],
    entry: (made, label) => ({ upstreamId: Number(made.key), name: label, url: expect.stringMatching(/^https:\/\/registry-\d+\.example\.com$/), registryUpstreamId: expect.any(Number) }),
  },  {
    kind: "ExclusiveLabels",
    owner: () => ({ group: "acme/platform" }),
    async make(api, label) {
      const made = await api.post<{ id: number }>(apiPath`/groups/${"acme/platform"}/labels`, { name: label, color: "#336699" });
      return { key: String(made.id), keepValue: label === "kept" ? `groups/acme%2Fplatform/labels/${made.id}` : made.id };
    },
    // The group's own labels (its ancestors' are never the set's).
    present: async (api) => (await api.list<{ id: number }>(apiPath`/groups/${"acme/platform"}/labels`, { include_ancestor_groups: false })).map((l) => String(l.id)),
    ignore: ["legacy-*"],
    entry: (made, label) => ({ labelId: Number(made.key), name: label, color: "#336699" }),
  },
];

beforeAll(async () => {
  await server.configureProviders();
});

for (const collection of cases) {
  describe(collection.kind, () => {
    const provider = providers[collection.kind];
    const api = () => server.as();
    const made: Record<string, Made> = {};
    let id = "";
    let checked: Record<string, unknown> = {};
    let created: Record<string, unknown> = {};
    let refreshed: Record<string, unknown> = {};
    let refreshedInputs: Record<string, unknown> = {};

    beforeAll(async () => {
      await collection.setUp?.(api());
      for (const label of ["kept", "legacy-tracker", "stray-before"]) made[label] = await collection.make(api(), label);
      const result = await provider.check({}, { ...collection.owner(), keep: [made.kept!.keepValue], ignore: collection.ignore });
      expect(result.failures ?? []).toEqual([]);
      checked = result.inputs;
    });

    it("check adds `unexpected: []` to the program's inputs, so a recorded list shows as a change", () => {
      expect(checked.unexpected).toEqual([]);
    });

    it("create lists once (to fail early), removes nothing (its preview named nothing) and records nothing yet", async () => {
      const requests = await server.requestsDuring(async () => {
        const result = await provider.create(checked);
        id = result.id;
        created = result.outs;
      });
      expect(requests.map((r) => r.method)).toEqual(["GET"]);
      expect(created.unexpected).toEqual([]);
      expect((await collection.present(api())).sort()).toEqual(Object.values(made).map((m) => m.key).sort());
    });

    it("refresh records, by name, exactly the objects neither kept nor ignored, as outputs and as inputs", async () => {
      const result = await provider.read(id, created);
      expect(result.id).toBe(id);
      refreshed = result.props!;
      refreshedInputs = result.inputs!;
      const expected = [collection.entry(made["stray-before"]!, "stray-before")];
      expect(refreshed.unexpected).toEqual(expected);
      expect(result.inputs!.unexpected).toEqual(expected);
      expect(result.inputs!.keep).toEqual(checked.keep);
    });

    it("the next diff is a change (the engine shows `unexpected` going from the recorded list to [])", async () => {
      const diff = await provider.diff(id, refreshed, checked);
      expect(diff.changes).toBe(true);
      expect(diff.replaces ?? []).toEqual([]);
    });

    it("the next check names each object the update will delete in `deletes`; once applied, none", async () => {
      const program = { ...collection.owner(), keep: [made.kept!.keepValue], ignore: collection.ignore };
      const next = await provider.check(refreshedInputs, program);
      expect(next.failures ?? []).toEqual([]);
      const deletes = next.inputs.deletes as string[];
      expect(deletes).toHaveLength(1);
      expect(deletes[0]).toMatch(/^(badge|SAML group link|pipeline schedule|integration|upstream|label) /);
      expect(deletes[0]).toContain(made["stray-before"]!.key.replace("?provider=", "` of provider "));
      if (collection.kind === "ExclusiveBadges") expect(deletes[0]).toBe(`badge ${made["stray-before"]!.key} \`stray-before\``);
      // After the `up`, the recorded inputs are these (`unexpected: []`): the next check names nothing, and the diff is none.
      const after = await provider.check(next.inputs, program);
      expect(after.inputs).not.toHaveProperty("deletes");
      expect((await provider.diff(id, { ...refreshed, unexpected: [] }, after.inputs)).changes).toBe(false);
    });

    it("update removes exactly what the refresh recorded, not an object made after it", async () => {
      made["stray-after"] = await collection.make(api(), "stray-after");
      const result = await provider.update(id, refreshed, checked);
      expect(result.outs!.unexpected).toEqual([]);
      const left = await collection.present(api());
      expect(left.sort()).toEqual([made.kept!.key, made["legacy-tracker"]!.key, made["stray-after"]!.key].sort());
      // The next refresh finds the late one.
      const again = await provider.read(id, result.outs!);
      expect(again.props!.unexpected).toEqual([collection.entry(made["stray-after"]!, "stray-after")]);
      refreshed = again.props!;
    });

    it("an object the program keeps by the time of the update is not removed, even if the refresh recorded it", async () => {
      const keeping = { ...checked, keep: [made.kept!.keepValue, made["stray-after"]!.keepValue] };
      await provider.update(id, refreshed, keeping);
      expect(await collection.present(api())).toContain(made["stray-after"]!.key);
    });

    it("delete removes nothing", async () => {
      const before = (await collection.present(api())).sort();
      const requests = await server.requestsDuring(() => provider.delete(id, refreshed));
      expect(requests).toEqual([]);
      expect((await collection.present(api())).sort()).toEqual(before);
    });
  });
}

describe("ExclusiveUpstreams: an upstream other registries use leaves only this registry", () => {
  it("the association goes, the upstream stays in the other registry; an unshared one is deleted", async () => {
    const api = server.as();
    const shared = await api.post<{ id: number }>(apiPath`/virtual_registries/container/registries/${secondRegistry}/upstreams`, { name: "shared", url: "https://shared.example.com" });
    await api.post(apiPath`/virtual_registries/container/registry_upstreams`, { registry_id: registry, upstream_id: shared.id });
    const checked = (await providers.ExclusiveUpstreams.check({}, { registry, keep: [] })).inputs;
    const { id, outs } = await providers.ExclusiveUpstreams.create(checked);
    const { props } = await providers.ExclusiveUpstreams.read(id, outs);
    const recorded = (props!.unexpected as { upstreamId: number }[]).map((entry) => entry.upstreamId);
    expect(recorded).toContain(shared.id);
    await providers.ExclusiveUpstreams.update(id, props!, checked);
    expect(await api.get(apiPath`/virtual_registries/container/registries/${registry}/upstreams`)).toEqual([]);
    const kept = await api.get<{ registry_upstreams: { registry_id: number }[] }>(apiPath`/virtual_registries/container/upstreams/${shared.id}`);
    expect(kept.registry_upstreams.map((l) => l.registry_id)).toEqual([secondRegistry]);
    // The others served this registry only: they are gone altogether.
    for (const other of recorded.filter((upstream) => upstream !== shared.id)) {
      await expect(api.get(apiPath`/virtual_registries/container/upstreams/${other}`)).rejects.toMatchObject({ status: 404 });
    }
  });
});

describe("an owner change replaces the set; ignore and keep changes update it", () => {
  it("diff", async () => {
    const olds = { group: "acme", keep: [1], unexpected: [] };
    expect((await providers.ExclusiveBadges.diff("groups/acme/badges", olds, { group: "beta", keep: [1], unexpected: [] })).replaces).toEqual(["group"]);
    const changedKeep = await providers.ExclusiveBadges.diff("groups/acme/badges", olds, { group: "acme", keep: [1, 2], unexpected: [] });
    expect([changedKeep.changes, changedKeep.replaces]).toEqual([true, []]);
    const same = await providers.ExclusiveBadges.diff("groups/acme/badges", olds, { group: "acme", keep: [1], unexpected: [] });
    expect(same.changes).toBe(false);
  });
});
