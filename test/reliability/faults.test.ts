/**
 * Convergence under faults, through the providers Pulumi calls: for each of
 * the nine resources, a program's life cycle (create several objects, refresh,
 * change the program, delete; for the settings resources: take over, change,
 * give back) runs while 20% of API requests fail, in every form the fault plan
 * has (5xx pages, both 429s, 408, resets, requests held past the client's
 * timeout, writes applied whose answer is lost). Where an operation still
 * fails after the client's retries, it is run once more, as the next
 * `pulumi up` would (see EngineRun). Between the stretches of faults, the
 * server is read out of band with the faults off: it must hold exactly the
 * declared objects (no duplicate, no orphan, nothing missing) with the
 * declared values, and after delete exactly what it held before.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers, type PlatformClient } from "pulumi-platform";
import { FAULT_KINDS, virtualRegistryStore } from "pulumi-platform/emulator";
import { repoRoot } from "../../scripts/pulumi-workspace.mts";
import { SkippingClock, useClientClock, useEmulator } from "../support";
import { EngineRun, everythingSeed, FaultWindows, type Managed, type Props, type Provider } from "./harness";

/**
 * How long a `slow` fault holds a request: longer than the providers' request
 * timeout, so the attempt times out and the held request is never handled.
 * (The HTTP client's timers round a timeout up to the next whole second, so
 * 0.5 s acts as 1 s: still shorter.)
 */
const SLOW_MS = 1_500;
const REQUEST_TIMEOUT_SECONDS = "0.5";

// Backoff, throttles' Retry-After and deadlines pass at once on a clock the clients and the emulator share;
// a `slow` fault still holds its request in real time, as the attempt's timeout is a real timer.
const clock = new SkippingClock();
const server = useEmulator({ seed: everythingSeed, clock: clock.now });
useClientClock(clock);
const api = (): PlatformClient => server.as("root");
const run = new EngineRun();
const faults = new FaultWindows(() => server.emulator, { seed: 20_250_701, slowMs: SLOW_MS, rules: [{ rate: 0.2 }] });

beforeAll(async () => {
  await server.configureProviders("root", { "platform:requestTimeout": REQUEST_TIMEOUT_SECONDS });
});

type Program = Record<string, Props>;
type State = Record<string, Managed>;

interface LifecycleSpec {
  provider: Provider;
  /** The program before and after its change; a name only in the second is added, one only in the first removed. */
  programs: [Program, Program];
  /** What the server holds of this resource's kind, one line per object (or per setting), read out of band. */
  onServer(): Promise<string[]>;
  /** The lines the server must hold for a program and the state the provider recorded for it. */
  expected(before: string[], program: Program, state: State): string[];
  /** How many objects one check covers. */
  objects(program: Program): number;
  /** More checks of the recorded state, after create and after the change. */
  verifyState?(state: State): void;
}

/**
 * The life cycle under faults, with out-of-band checks after each step:
 * create everything in the first program; refresh; apply the second program
 * (updates, replacements, additions, removals); delete everything.
 */
async function lifecycle(spec: LifecycleSpec): Promise<void> {
  const before = await spec.onServer();
  const [first, second] = spec.programs;
  const expectServer = async (step: string, program: Program, state: State, objects = spec.objects(program)) =>
    run.expectExactly(`${step}: the server holds exactly what the program declares`, await spec.onServer(), spec.expected(before, program, state), objects);

  let state: State = {};
  await faults.during(async () => {
    for (const [name, declared] of Object.entries(first)) state[name] = await run.create(spec.provider, name, declared);
  });
  await expectServer("after create", first, state);
  spec.verifyState?.(state);

  await faults.during(async () => {
    for (const name of Object.keys(state)) state[name] = await run.refresh(state[name]!);
    const next: State = {};
    for (const [name, declared] of Object.entries(second)) {
      next[name] = state[name] ? await run.update(state[name]!, declared) : await run.create(spec.provider, name, declared);
    }
    for (const name of Object.keys(state).filter((name) => !(name in second)).reverse()) await run.delete(state[name]!);
    state = next;
  });
  await expectServer("after the program's change", second, state);
  spec.verifyState?.(state);

  await faults.during(async () => {
    for (const resource of Object.values(state).reverse()) await run.delete(resource);
  });
  await expectServer("after delete", {}, {}, spec.objects(second));
}

/**
 * For resources that create objects: each line starts with the object's id as
 * the provider records it. The server holds what it held before (except
 * objects the program took over) and one line per declared object.
 */
function objectsExpected(line: (declared: Props, resource: Managed) => string) {
  const everManaged = new Set<string>();
  return (before: string[], program: Program, state: State): string[] => {
    for (const resource of Object.values(state)) everManaged.add(resource.id);
    return [
      ...before.filter((existing) => !everManaged.has(existing.split(" ")[0]!)),
      ...Object.entries(program).map(([name, declared]) => line(declared, state[name]!)),
    ];
  };
}

/**
 * For settings resources: lines `<object> <api_field>=<value>`. The declared
 * fields hold the declared values (as the API writes them, `toApi`); every
 * other line is as it was before the program.
 */
function settingsExpected(objectOf: (declared: Props) => string, toApi: (name: string, value: unknown) => unknown = (_name, value) => value) {
  return (before: string[], program: Program): string[] => {
    const lines = new Map(before.map((line) => [line.slice(0, line.indexOf("=")), line]));
    for (const declared of Object.values(program)) {
      for (const [name, value] of Object.entries(declared)) {
        const key = `${objectOf(declared)} ${snake(name)}`;
        if (lines.has(key)) lines.set(key, `${key}=${JSON.stringify(toApi(name, value))}`);
      }
    }
    return [...lines.values()];
  };
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (letter) => "_" + letter.toLowerCase());
const count = (program: Program) => Object.keys(program).length;
const settingLines = (owner: string, live: Props, fields: readonly string[]) => fields.map((field) => `${owner} ${field}=${JSON.stringify(live[field] ?? null)}`);

/**
 * Three rounds: each returns the server to where it started, and its faults fall
 * on other requests (every fault window draws from a seed of its own). About
 * 600 requests in all, so that each of the eleven kinds is drawn about ten times.
 */
const ROUNDS = [1, 2, 3];

for (const round of ROUNDS) describe.sequential(`round ${round}: the life cycle of every resource converges while 20% of requests fail`, { timeout: 120_000 }, () => {
  it("Badge: badges of projects and groups", async () => {
    const owners = [
      ["project", "acme/web"],
      ["project", "acme/api"],
      ["group", "acme"],
      ["group", "beta"],
    ] as const;
    const badge = (owner: Props, name: string | undefined, host: string) => ({
      ...owner,
      ...(name ? { name } : {}),
      linkUrl: `https://${host}/%{project_path}/-/${name ?? "home"}`,
      imageUrl: `https://${host}/%{project_path}/${name ?? "home"}.svg`,
    });
    const program = (host: string): Program => ({
      pipeline: badge({ project: "acme/web" }, "pipeline", host),
      coverage: badge({ project: "acme/web" }, host === "ci.example.com" ? "coverage" : "coverage-report", host),
      unnamed: badge({ project: "acme/api" }, undefined, host),
      docs: badge({ group: "acme" }, "docs", host),
      ...(host === "ci.example.com" ? { chat: badge({ group: "beta" }, "chat", host) } : { release: badge({ group: "beta" }, "release", host) }),
    });
    const ownerId = (kind: string, path: string) => `${kind}s/${encodeURIComponent(path)}`;
    await lifecycle({
      provider: providers.Badge,
      programs: [program("ci.example.com"), program("ci.next.example.com")],
      async onServer() {
        const lines: string[] = [];
        for (const [kind, path] of owners) {
          const all = await api().list<Props>(kind === "project" ? apiPath`/projects/${path}/badges` : apiPath`/groups/${path}/badges`);
          // A project's list also shows its groups' badges: only its own are its objects.
          for (const b of all.filter((b) => b.kind === kind)) lines.push(`${ownerId(kind, path)}/badges/${b.id} ${b.name ?? "-"} ${b.link_url} ${b.image_url}`);
        }
        return lines;
      },
      expected: objectsExpected((d, r) => `${r.id} ${d.name ?? "-"} ${d.linkUrl} ${d.imageUrl}`),
      objects: count,
    });
  });

  it("GroupIntegration: chat notifiers and a monitoring integration on two groups", async () => {
    const program = (channel: string): Program => ({
      mattermost: { group: "acme", slug: "mattermost", webhook: "https://chat.example.test/hooks/mm-1", channel, branchesToBeNotified: "protected", pipelineEvents: true, pushEvents: false },
      slack: { group: "acme", slug: "slack", webhook: "https://hooks.slack.example.test/s-1", channel: `#${channel}`, notifyOnlyBrokenPipelines: channel === "ci" },
      datadog: { group: "acme", slug: "datadog", apiKey: "dd-key-1", datadogEnv: channel === "ci" ? "production" : "staging", datadogService: "platform" },
      ...(channel === "ci"
        ? { teams: { group: "beta", slug: "microsoft-teams", webhook: "https://teams.example.test/hook-1", notifyOnlyBrokenPipelines: true } }
        : { discord: { group: "beta", slug: "discord", webhook: "https://discord.example.test/hook-1", pipelineEvents: true } }),
    });
    // The settings shown per integration: the non-secret ones the programs declare.
    const shown = ["channel", "branches_to_be_notified", "notify_only_broken_pipelines", "datadog_env", "datadog_service", "pipeline_events", "push_events"];
    const settingsOf = (values: Props) =>
      shown
        .filter((field) => values[field] !== undefined)
        .map((field) => `${field}=${JSON.stringify(values[field])}`)
        .join(" ");
    await lifecycle({
      provider: providers.GroupIntegration,
      programs: [program("ci"), program("releases")],
      async onServer() {
        const lines: string[] = [];
        for (const group of ["acme", "beta"]) {
          for (const { slug } of await api().get<{ slug: string }[]>(apiPath`/groups/${group}/integrations`)) {
            const live = await api().get<Props & { properties: Props }>(apiPath`/groups/${group}/integrations/${slug}`);
            // Only the settings a program of this test declares for this slug are compared.
            const declared = Object.values(program("ci")).concat(Object.values(program("releases"))).filter((d) => d.slug === slug);
            const names = new Set(declared.flatMap((d) => Object.keys(d).map(snake)));
            const values = Object.fromEntries(Object.entries({ ...live, ...live.properties }).filter(([field]) => names.has(field)));
            lines.push(`groups/${group}/integrations/${slug} ${settingsOf(values)}`);
          }
        }
        return lines;
      },
      expected: objectsExpected((d, r) => `${r.id} ${settingsOf(Object.fromEntries(Object.entries(d).map(([name, value]) => [snake(name), value])))}`),
      objects: count,
    });
  });

  it("SamlGroupLink: links on two groups; a new role replaces delete-first, a new name create-first", async () => {
    const levels: Record<string, number> = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 };
    const program = (changed: boolean): Program => ({
      developers: { group: "acme", samlGroupName: "idp-developers", accessLevel: changed ? "reporter" : "developer" },
      maintainers: { group: "acme", samlGroupName: "idp-maintainers", accessLevel: "maintainer" },
      owners: { group: "acme", samlGroupName: "idp-owners", accessLevel: "owner", provider: "okta" },
      guests: { group: "acme", samlGroupName: changed ? "idp-visitors" : "idp-guests", accessLevel: "guest" },
      beta: { group: "beta", samlGroupName: "beta-reporters", accessLevel: "reporter" },
    });
    const idOf = (group: string, name: string, provider: unknown) =>
      `groups/${encodeURIComponent(group)}/saml_group_links/${encodeURIComponent(name)}${provider ? `?provider=${encodeURIComponent(String(provider))}` : ""}`;
    await lifecycle({
      provider: providers.SamlGroupLink,
      programs: [program(false), program(true)],
      async onServer() {
        const lines: string[] = [];
        for (const group of ["acme", "beta"]) {
          for (const link of await api().get<Props[]>(apiPath`/groups/${group}/saml_group_links`)) {
            lines.push(`${idOf(group, String(link.name), link.provider)} ${link.access_level}`);
          }
        }
        return lines;
      },
      expected: objectsExpected((d, r) => {
        expect(r.id).toBe(idOf(String(d.group), String(d.samlGroupName), d.provider));
        return `${r.id} ${levels[String(d.accessLevel)]}`;
      }),
      objects: count,
    });
  });

  it("PipelineSchedule: schedules with variables and inputs, one made by a colleague and taken over", async () => {
    // A schedule a colleague made: the program adopts it and takes ownership to change it.
    const colleagues = await server.as("maintainer").post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, {
      description: "handed over",
      ref: "main",
      cron: "0 5 * * *",
    });
    await server.as("maintainer").post(`/projects/acme%2Fweb/pipeline_schedules/${colleagues.id}/variables`, { key: "OLD", value: "x" });
    const variable = (key: string, value: string, variableType?: string) => ({ key, value, ...(variableType ? { variableType } : {}) });
    const program = (changed: boolean): Program => ({
      nightly: {
        project: "acme/web",
        description: "nightly build",
        ref: "main",
        cron: changed ? "30 2 * * *" : "0 2 * * *",
        cronTimezone: "Europe/Berlin",
        variables: [variable("DEPLOY_TOKEN", changed ? "token-2" : "token-1"), variable("TARGET", "staging", "env_var")],
        inputs: [{ name: "replicas", value: 3 }],
      },
      weekly: {
        project: "acme/web",
        description: "weekly clean-up",
        ref: "main",
        cron: "0 4 * * 0",
        variables: changed ? [variable("SCOPE", "all"), variable("DRY_RUN", "false")] : [variable("SCOPE", "all"), variable("KEEP", "10", "file")],
      },
      hourly: {
        project: "acme/web",
        description: "hourly smoke test",
        ref: "release/1.x",
        cron: "15 * * * *",
        active: !changed,
        inputs: changed ? [{ name: "suite", value: "full" }] : [{ name: "suite", value: "smoke" }, { name: "retries", value: 2 }],
      },
      api: { project: "acme/api", description: changed ? "api nightly (renamed)" : "api nightly", ref: "develop", cron: "0 1 * * *", variables: [] },
      handedOver: {
        project: "acme/web",
        description: "handed over",
        ref: "main",
        cron: changed ? "0 7 * * *" : "0 6 * * *",
        variables: [variable("NEW", changed ? "z" : "y")],
        adoptExisting: true,
        takeOwnership: true,
      },
    });
    const fullRef = (ref: unknown) => (String(ref).startsWith("refs/") ? String(ref) : `refs/heads/${String(ref)}`);
    const variablesOf = (variables: unknown) =>
      ((variables as { key: string; value: string; variable_type?: string; variableType?: string }[] | undefined) ?? [])
        .map((v) => `${v.key}=${v.value}:${v.variable_type ?? v.variableType ?? "env_var"}`)
        .sort()
        .join(",");
    const inputsOf = (inputs: unknown) => JSON.stringify(((inputs as { name: string; value: unknown }[] | undefined) ?? []).map((i) => [i.name, i.value]).sort());
    await lifecycle({
      provider: providers.PipelineSchedule,
      programs: [program(false), program(true)],
      async onServer() {
        const lines: string[] = [];
        for (const project of ["acme/web", "acme/api"]) {
          const collection = apiPath`/projects/${project}/pipeline_schedules`;
          for (const { id } of await api().list<{ id: number }>(collection)) {
            const s = await api().get<Props & { owner: { username: string } }>(`${collection}/${id}`);
            lines.push(
              `${collection.slice(1)}/${id} ${s.description} ${s.ref} ${s.cron} ${s.cron_timezone} active=${s.active} owner=${s.owner.username} ` +
                `variables=${variablesOf(s.variables)} inputs=${inputsOf(s.inputs)}`,
            );
          }
        }
        return lines;
      },
      expected: objectsExpected(
        (d, r) =>
          `${r.id} ${d.description} ${fullRef(d.ref)} ${d.cron} ${d.cronTimezone ?? "UTC"} active=${d.active ?? true} owner=root ` +
          `variables=${variablesOf(d.variables)} inputs=${inputsOf(d.inputs)}`,
      ),
      objects: count,
      // The colleague's schedule was taken over, not duplicated (destroy then deletes it with the rest).
      verifyState: (state) => expect(state.handedOver!.id).toBe(`projects/acme%2Fweb/pipeline_schedules/${colleagues.id}`),
    });
  });

  it("VirtualRegistry: registries in two top-level groups", async () => {
    const program = (changed: boolean): Program => ({
      containers: { group: "acme", name: "containers", description: changed ? "All images" : "Images" },
      mirrors: { group: "acme", name: changed ? "mirrors-eu" : "mirrors" },
      ...(changed ? { edge: { group: "acme", name: "edge", description: "Edge builds" } } : { staging: { group: "acme", name: "staging" } }),
      beta: { group: "beta", name: "beta-containers", description: "Beta images" },
    });
    await lifecycle({
      provider: providers.VirtualRegistry,
      programs: [program(false), program(true)],
      async onServer() {
        const lines: string[] = [];
        for (const group of ["acme", "beta"]) {
          for (const r of await api().get<Props[]>(apiPath`/groups/${group}/-/virtual_registries/container/registries`)) {
            lines.push(`${r.id} ${group} ${r.name} ${r.description ?? "-"}`);
          }
        }
        return lines;
      },
      expected: objectsExpected((d, r) => `${r.id} ${d.group} ${d.name} ${d.description ?? "-"}`),
      objects: count,
    });
  });

  it("Upstream: three upstreams in two registries, with positions and credentials", async () => {
    const registries = apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`;
    const main = (await api().post<{ id: number }>(registries, { name: "pull-through" })).id;
    const secondary = (await api().post<{ id: number }>(registries, { name: "secondary" })).id;
    const registryName = (id: unknown) => (id === main ? "main" : id === secondary ? "secondary" : `registry-${String(id)}`);
    const program = (changed: boolean): Program => ({
      dockerHub: {
        registry: main,
        name: "Docker Hub",
        url: changed ? "https://registry-2.docker.example.com" : "https://registry-1.docker.example.com",
        username: "puller",
        password: "hub-password",
        position: changed ? 2 : 1,
      },
      quay: { registry: main, name: "Quay", url: "https://quay.example.com", position: changed ? 1 : 2, cacheValidityHours: changed ? 48 : 24 },
      ghcr: {
        registry: main,
        name: "GHCR",
        url: "https://ghcr.example.com",
        username: "bot",
        password: changed ? "ghcr-password-2" : "ghcr-password-1",
        position: 3,
        otherRegistries: changed ? [] : [{ registry: secondary, position: 1 }],
      },
    });
    const storedPassword = (id: unknown) => virtualRegistryStore.of(server.emulator.state).upstreams.find((u) => u.id === Number(id))?.password ?? null;
    try {
      await lifecycle({
        provider: providers.Upstream,
        programs: [program(false), program(true)],
        async onServer() {
          const lines: string[] = [];
          // The group's list: an upstream in no registry (an orphan) shows here too.
          for (const { id } of await api().list<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/upstreams`)) {
            const u = await api().get<Props & { registry_upstreams: { registry_id: number; position: number }[] }>(`/virtual_registries/container/upstreams/${id}`);
            const links = u.registry_upstreams.map((l) => `${registryName(l.registry_id)}@${l.position}`).sort();
            lines.push(`${id} ${u.name} ${u.url} hours=${u.cache_validity_hours} user=${u.username ?? "-"} password=${storedPassword(id) ?? "-"} in=${links.join(",")}`);
          }
          return lines;
        },
        expected: objectsExpected((d, r) => {
          const others = (d.otherRegistries as { registry: number; position: number }[] | undefined) ?? [];
          const links = [`${registryName(d.registry)}@${d.position}`, ...others.map((o) => `${registryName(o.registry)}@${o.position}`)].sort();
          return `${r.id} ${d.name} ${d.url} hours=${d.cacheValidityHours ?? 24} user=${d.username ?? "-"} password=${d.password ?? "-"} in=${links.join(",")}`;
        }),
        objects: count,
      });
    } finally {
      for (const id of [main, secondary]) await api().delete(`/virtual_registries/container/registries/${id}`);
    }
  });

  it("CleanupPolicy: the policies of two top-level groups", async () => {
    const program = (changed: boolean): Program => ({
      acme: { group: "acme", enabled: true, cadence: changed ? 14 : 7, keepNDaysAfterDownload: changed ? 60 : 30, notifyOnFailure: true },
      beta: { group: "beta", enabled: !changed, cadence: 30, keepNDaysAfterDownload: 90, notifyOnSuccess: changed },
    });
    const shown = ["enabled", "cadence", "keep_n_days_after_download", "notify_on_success", "notify_on_failure"];
    await lifecycle({
      provider: providers.CleanupPolicy,
      programs: [program(false), program(true)],
      async onServer() {
        const lines: string[] = [];
        for (const group of ["acme", "beta"]) {
          const policy = await api()
            .get<Props>(apiPath`/groups/${group}/-/virtual_registries/cleanup/policy`)
            .catch((error: { status?: number }) => (error.status === 404 ? undefined : Promise.reject(error)));
          if (policy) lines.push(`${group} ${shown.map((field) => `${field}=${policy[field]}`).join(" ")}`);
        }
        return lines;
      },
      expected: objectsExpected((d, r) => {
        // Undeclared notify flags keep the server's default, false.
        const values: Props = { notify_on_success: false, notify_on_failure: false, ...Object.fromEntries(Object.entries(d).map(([name, value]) => [snake(name), value])) };
        return `${r.id} ${shown.map((field) => `${field}=${values[field]}`).join(" ")}`;
      }),
      objects: count,
    });
  });

  it("GroupSettings: two groups' settings and an avatar taken over, changed and given back", async () => {
    const avatar = path.join(repoRoot, "examples/group-settings/avatar.png");
    const fields = ["require_two_factor_authentication", "two_factor_grace_period", "project_creation_level", "subgroup_creation_level", "request_access_enabled", "lfs_enabled", "description", "avatar"];
    const program = (changed: boolean): Program => ({
      acme: {
        group: "acme",
        requireTwoFactorAuthentication: true,
        twoFactorGracePeriod: changed ? 24 : 48,
        ...(changed ? { subgroupCreationLevel: "owner" } : { projectCreationLevel: "noone" }),
        requestAccessEnabled: false,
        avatar,
      },
      beta: { group: "beta", lfsEnabled: changed, description: changed ? "Beta, managed" : "Beta" },
    });
    const avatarBytes = readFileSync(avatar);
    await lifecycle({
      provider: providers.GroupSettings,
      programs: [program(false), program(true)],
      async onServer() {
        const lines: string[] = [];
        for (const group of ["acme", "beta"]) {
          const live = await api().get<Props>(apiPath`/groups/${group}`, { with_projects: false });
          // The avatar as its bytes: ours, or what the group had.
          const bytes = live.avatar_url ? await api().download(apiPath`/groups/${group}/avatar`) : undefined;
          const shownAvatar = bytes === undefined ? null : bytes.content.equals(avatarBytes) ? "ours" : `other (${bytes.content.length} bytes)`;
          lines.push(...settingLines(group, { ...live, avatar: shownAvatar }, fields));
        }
        return lines;
      },
      expected: settingsExpected(
        (declared) => String(declared.group),
        (name, value) => (name === "avatar" ? "ours" : value),
      ),
      objects: count,
    });
  });

  it("ApplicationSettings: the instance's settings taken over, changed and given back", async () => {
    const fields = ["signup_enabled", "default_project_visibility", "enforce_terms", "terms", "asciidoc_max_includes", "default_projects_limit"];
    const program = (changed: boolean): Program => ({
      instance: {
        signupEnabled: false,
        enforceTerms: true,
        terms: changed ? "Company work only, v2." : "Company work only.",
        ...(changed ? { asciidocMaxIncludes: 16 } : { defaultProjectVisibility: "internal" }),
        defaultProjectsLimit: changed ? 50 : 20,
      },
    });
    await lifecycle({
      provider: providers.ApplicationSettings,
      programs: [program(false), program(true)],
      async onServer() {
        return settingLines("instance", await api().get<Props>("/application/settings"), fields);
      },
      expected: settingsExpected(() => "instance"),
      objects: count,
    });
  });
});

afterAll(async () => {
  // A request a `slow` fault held is logged when its hold ends.
  await sleep(SLOW_MS + 200);
  const injected = faults.counts();
  const total = Object.values(injected).reduce((sum, n) => sum + (n ?? 0), 0);
  console.log(
    [
      `faults: ${total} injected in ${faults.requests().length} requests: ${JSON.stringify(injected)}`,
      `writes applied whose answer was lost (or failed): ${JSON.stringify(faults.committed())}`,
      `provider operations: ${run.operations}; re-run once as the next pulumi up would: ${run.reruns.length}` +
        (run.reruns.length ? ` (${run.reruns.map((r) => r.operation).join("; ")})` : ""),
      `objects checked out of band: ${run.objectsChecked}`,
      `waits skipped on the shared clock: ${(clock.skippedMs / 1000).toFixed(1)} s`,
    ].join("\n"),
  );
});

describe("the run was not quiet", () => {
  it("every fault kind was injected at least once across the run", async () => {
    await sleep(SLOW_MS + 200);
    const injected = faults.counts();
    expect(FAULT_KINDS.filter((kind) => !injected[kind])).toEqual([]);
  });
});
