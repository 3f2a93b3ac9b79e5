/**
 * `platform-import` with the real Pulumi CLI, on one stack for every kind it
 * imports from groups and projects (issue 33): the emulator (the hosted
 * offering, where SAML identities are) is seeded with an object of each kind,
 * the command (its bin, a child process with an administrator's read_api
 * token) writes the program, and then the first preview, read through
 * platform-review's data (`--json`), shows only takeovers that overwrite
 * nothing but the secrets they must send, each compared at preview (an
 * upstream's registry too, though it is the imported registry's output);
 * `up`; the next preview is clean; a second run writes the same bytes; no
 * token or secret value is in what was written. The instance's application
 * settings exist only off the hosted offering: a second, self-managed emulator
 * and a one-resource stack, whose CLI runs go beside the first's.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { defaultSeed, selfManagedSeed, startEmulator, type Emulator, type Seed } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram, repoRoot } from "../../scripts/pulumi-workspace.mts";
import type { Change, Review } from "../../src/review/changes";
import { main as reviewMain } from "../../src/review/cli";

const run = promisify(execFile);
const READ_TOKEN = "glpat-root-read-only";
const SECRETS = { webhook: "https://hooks.slack.example/services/T0/B0/imported-hook-secret", password: "upstream-password-secret-1" };

/** Every file under `dir` (the manifest included), by relative path. */
function filesOf(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub))) {
      const relative = sub === "" ? name : `${sub}/${name}`;
      if (statSync(path.join(dir, relative)).isDirectory()) walk(relative);
      else files[relative] = readFileSync(path.join(dir, relative), "utf8");
    }
  };
  walk("");
  return files;
}

/** A seed whose administrator also holds a read_api token: what the import reads with. */
function withReadToken(seed: Seed): Seed {
  const users = (seed.users ?? []).map((user) => (user.username === "root" ? { ...user, tokens: ["glpat-root-token", READ_TOKEN], tokenScopes: { [READ_TOKEN]: ["read_api"] } } : user));
  return { ...seed, users };
}

/** One imported program: its server, where it is written, the command's arguments, and its stack. */
interface Imported {
  emulator: Emulator;
  out: string;
  args: string[];
  summary: string;
  files: Record<string, string>;
  program: PulumiProgram;
}

/** `platform-import` (its bin, a child process) of `imported.emulator` with the read_api token. */
const importRun = (imported: Imported) =>
  run(process.execPath, [path.join(repoRoot, "bin/platform-import.js"), ...imported.args, "--out", imported.out, "--name", "imported"], {
    env: { ...process.env, PLATFORM_URL: imported.emulator.url, PLATFORM_TOKEN: READ_TOKEN },
  });

/** The resource names a program declares, sorted. */
const declaredNames = (files: Record<string, string>) => [...Object.values(files).join("\n").matchAll(/new \w+\("([^"]+)"/g)].map((match) => match[1]).sort();

/**
 * A stack of an imported program, its secrets set: the first preview, read
 * through platform-review's data (`--json`, as CI writes it), shows every
 * resource as a takeover compared at preview (never "read at apply") that
 * overwrites nothing but the write-only secrets it must send; then `up` (its
 * writes returned, as method and path); then the next preview is clean.
 */
async function takeoversOnly(imported: Imported, work: string, secrets: Record<string, string>): Promise<{ resources: Change[]; writes: string[] }> {
  const { emulator } = imported;
  const program = (imported.program = await PulumiProgram.create({
    programDir: imported.out,
    transpileOnly: true,
    config: { "platform:url": emulator.url },
    secrets: { "platform:token": emulator.tokens.root!, ...secrets },
  }));
  const preview = await program.previewJson();
  const previewFile = path.join(work, "preview.json");
  const reviewFile = path.join(work, "review.json");
  writeFileSync(previewFile, JSON.stringify(preview));
  expect(await reviewMain(["--preview", previewFile, "--json", reviewFile, "--quiet"])).toBe(0);
  const review = JSON.parse(readFileSync(reviewFile, "utf8")) as Review;
  expect(review.ok).toBe(true);
  // The stack itself is new too; every resource of the program is a takeover.
  const resources = review.changes.filter((change) => !change.urn.includes("::pulumi:pulumi:Stack::"));
  expect(resources.map((change) => change.name).sort()).toEqual(declaredNames(imported.files));
  expect(resources.filter((change) => change.kind !== "takeover")).toEqual([]);
  for (const change of resources) {
    expect(change.note ?? "", `${change.name} is compared at preview`).not.toMatch(/read at apply/);
    for (const field of change.fields) {
      expect(["webhook", "password"], `${change.name} overwrites ${field.path}`).toContain(field.path);
      expect(field.before, `${change.name}: ${field.path}`).toEqual({ secret: true });
    }
  }
  for (const step of preview.steps) {
    if (step.urn.includes("::pulumi:pulumi:Stack::")) continue;
    const takeover = step.newState?.inputs?.takeover as { overwrites?: Record<string, unknown> } | undefined;
    // Read at preview: the object and what the takeover overwrites of it, only the write-only secrets.
    expect(takeover, step.urn).toBeDefined();
    expect(Object.keys(takeover!.overwrites ?? {}).filter((name) => !["webhook", "password"].includes(name)), step.urn).toEqual([]);
  }
  // The CLI's text: one row per takeover that overwrites nothing (no warning of its own); the others warn, naming what they overwrite.
  const text = (await program.preview()).stdout;
  expect(text).not.toContain("overwrites nothing");
  for (const change of resources) {
    const rows = text.split("\n").filter((line) => new RegExp(`[ (]${change.name.replace(/[-.]/g, "\\$&")}[ )]|[ (]${change.name.replace(/[-.]/g, "\\$&")}$`).test(line));
    if (change.fields.length === 0) expect(rows, change.name).toEqual([expect.stringMatching(/^ \+ +pulumi-nodejs:dynamic\/platform:\w+ \S+ create\s*$/)]);
    else expect(rows.filter((line) => line.includes("takes over this existing object")).length, change.name).toBeGreaterThan(0);
  }
  const beforeUp = emulator.mark();
  await program.up();
  const writes = emulator.requestsSince(beforeUp).filter((entry) => entry.method !== "GET");
  await program.preview("--expect-no-changes");
  return { resources, writes: writes.map((entry) => `${entry.method} ${entry.path}`).sort() };
}

describe.sequential("platform-import with the real Pulumi CLI: one stack for every kind", { timeout: 5 * 60_000 }, () => {
  let api: PlatformClient;
  let work: string;
  // The groups and projects on the hosted offering (SAML identities), and the instance's settings (self-managed).
  const estate = { args: ["--group", "acme", "--project", "acme/web", "--exclusive"] } as Imported;
  const instance = { args: ["--instance"] } as Imported;
  const both = [estate, instance];
  let firstRun: Record<string, string>;

  beforeAll(async () => {
    ensurePulumiCli();
    // Epics with parents: acme's roadmap with its children, and a subgroup's epic whose parent is in acme.
    const seeded = defaultSeed.epics as Record<string, object[]>;
    const epics = { ...seeded, "acme/platform": [...seeded["acme/platform"]!, { iid: 4, title: "Shared CI runners", parent: "acme&1" }] };
    // The hosted offering with acme's SAML SSO and its members' identities (the default seed); the administrator's read_api token reads it all.
    estate.emulator = await startEmulator({ port: 0, seed: withReadToken({ ...defaultSeed, epics }) });
    instance.emulator = await startEmulator({ port: 0, seed: withReadToken(selfManagedSeed) });
    api = new PlatformClient({ url: estate.emulator.url, token: estate.emulator.tokens.root!, retryBaseDelayMs: 10 });
    // One object of every kind the import reads, made by hand.
    await api.post(apiPath`/groups/${"acme"}/badges`, { name: "coverage", link_url: "https://ci.example.com/%{project_path}", image_url: "https://ci.example.com/%{project_path}/coverage.svg" });
    await api.post(apiPath`/projects/${"acme/web"}/badges`, { name: 'release "notes" */ ${x}', link_url: "https://docs.example.com/web", image_url: "https://docs.example.com/web.svg" });
    await api.post(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: "Nightly build", ref: "main", cron: "0 4 * * 1-5", cron_timezone: "Europe/Berlin", active: false });
    await api.put(apiPath`/groups/${"acme"}/integrations/slack`, { webhook: SECRETS.webhook, channel: "ops", push_events: false, branches_to_be_notified: "protected" });
    await api.post(apiPath`/groups/${"acme"}/saml_group_links`, { saml_group_name: "platform-developers", access_level: 30 });
    const registry = await api.post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name: "containers", description: "Pull-through cache" });
    await api.post(apiPath`/virtual_registries/container/registries/${registry.id}/upstreams`, { name: "Docker Hub", url: "https://registry-1.docker.io", username: "puller", password: SECRETS.password, cache_validity_hours: 48 });
    await api.post(apiPath`/virtual_registries/container/registries/${registry.id}/upstreams`, { name: "Mirror", url: "https://mirror.example.com" });
    await api.post(apiPath`/groups/${"acme"}/-/virtual_registries/cleanup/policy`, { enabled: true, cadence: 7, keep_n_days_after_download: 30 });
    await api.put(apiPath`/projects/${"acme/web"}`, { container_registry_access_level: "private" });
    await api.post(apiPath`/projects/${"acme/web"}/error_tracking/client_keys`, {});
    work = mkdtempSync(path.join(tmpdir(), "platform-import-e2e-"));
    for (const [name, imported] of [["estate", estate], ["instance", instance]] as const) imported.out = path.join(work, name, "imported");
  }, 10 * 60_000);

  afterAll(async () => {
    for (const imported of both) imported.program?.dispose();
    await closeAllPools();
    for (const imported of both) await imported.emulator?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("reads with a read_api token and sends the server no write", async () => {
    const marks = both.map((imported) => imported.emulator.mark());
    await Promise.all(
      both.map(async (imported) => {
        imported.summary = (await importRun(imported)).stdout;
        imported.files = filesOf(imported.out);
      }),
    );
    both.forEach((imported, index) => expect([...new Set(imported.emulator.requestsSince(marks[index]!).map((entry) => entry.method))]).toEqual(["GET"]));
    firstRun = estate.files;
    // Subgroups and projects recursively: one module each.
    expect(Object.keys(firstRun).filter((file) => /^(groups|projects)\//.test(file)).sort()).toEqual(["groups/acme-platform.ts", "groups/acme.ts", "projects/acme-api.ts", "projects/acme-platform-infra.ts", "projects/acme-web.ts"]);
    expect(estate.summary).not.toMatch(/subgroups:|: projects:/);
    // Every kind but the trigger resources, merge requests and stars (and ContainerRegistryCleanup, a rule with nothing on the server).
    const kinds = ["Badge", "PipelineSchedule", "GroupIntegration", "SamlGroupLink", "SamlIdentity", "VirtualRegistry", "Upstream", "CleanupPolicy", "GroupSettings", "ContainerRegistryVisibility", "ErrorTrackingClientKey", "EpicLink"];
    for (const kind of [...kinds, "ExclusiveBadges", "ExclusivePipelineSchedules", "ExclusiveGroupIntegrations", "ExclusiveSamlGroupLinks", "ExclusiveUpstreams"]) {
      expect(estate.summary, kind).toMatch(new RegExp(`^  ${kind}: \\d+$`, "m"));
    }
    expect(instance.summary).toMatch(/^  ApplicationSettings: 1$/m);
    // The template's review pipeline, as it is.
    expect(firstRun[".gitlab-ci.yml"]).toBe(readFileSync(path.join(repoRoot, "templates/platform/.gitlab-ci.yml"), "utf8"));
    expect(Object.keys(instance.files).filter((file) => file.endsWith(".ts")).sort()).toEqual(["index.ts", "instance.ts"]);
  });

  it("writes no token and no secret value, and lists a config entry for each write-only secret", () => {
    const text = both.flatMap((imported) => Object.values(imported.files)).join("\n");
    for (const secret of [READ_TOKEN, ...both.flatMap((imported) => Object.values(imported.emulator.tokens)), ...Object.values(SECRETS)]) expect(text.includes(secret), "a secret in the written files").toBe(false);
    expect(estate.summary).toContain("pulumi config set --secret acmeIntegrationSlackWebhook");
    expect(firstRun["index.ts"]).toContain("pulumi config set --secret acmeIntegrationSlackWebhook");
    expect(firstRun["groups/acme.ts"]).toContain('webhook: config.requireSecret("acmeIntegrationSlackWebhook")');
    // References as references: the upstream's registry and the only-these set's are the registry resource's output.
    expect(firstRun["groups/acme.ts"]).toMatch(/new Upstream\("[^"]+", \{\n  registry: acmeRegistryContainers\.registryId,/);
    expect(firstRun["groups/acme.ts"]).toMatch(/new ExclusiveUpstreams\("[^"]+", \{\n  registry: acmeRegistryContainers\.registryId,/);
    // An epic's link is declared under its parent's group, by the resource's id form, wherever the child is.
    expect(firstRun["groups/acme.ts"]).toMatch(/new EpicLink\("acme-epic-link-shared-ci-runners", \{\n  group: 1,\n  epicIid: 1,\n  childEpicId: 10,\n\}, \{ import: "groups\/1\/epics\/1\/epics\/10" \}\);/);
    // A name the server holds stays a string literal.
    expect(firstRun["projects/acme-web.ts"]).toContain('name: "release \\"notes\\" */ ${x}",');
  });

  it("the first preview shows only takeovers, each compared, that overwrite nothing but the secrets they send; up; the next preview is clean", async () => {
    const secretKeys = [...estate.summary.matchAll(/pulumi config set --secret (\w+)/g)].map((match) => match[1]!);
    const secretValues: Record<string, string> = {};
    for (const key of secretKeys) secretValues[key] = key.endsWith("Webhook") ? SECRETS.webhook : SECRETS.password;
    // The two stacks' CLI runs side by side: the instance's is one resource.
    const [ofEstate, ofInstance] = await Promise.all([takeoversOnly(estate, path.join(work, "estate"), secretValues), takeoversOnly(instance, path.join(work, "instance"), {})]);
    const kinds = new Set([...ofEstate.resources, ...ofInstance.resources].map((change) => change.type));
    for (const kind of ["Upstream", "ExclusiveUpstreams", "SamlIdentity", "ApplicationSettings"]) expect(kinds, kind).toContain(kind);
    // Each child of an epic in the scope, the cross-group child under its parent's group.
    expect(ofEstate.resources.filter((change) => change.type === "EpicLink").map((change) => change.name).sort()).toEqual([
      "acme-epic-link-public-api-v2",
      "acme-epic-link-self-serve-onboarding",
      "acme-epic-link-shared-ci-runners",
      "acme-epic-link-usage-based-billing",
      "acme-platform-epic-link-kubernetes-1-31-upgrade",
    ]);
    // The up writes only the write-only secrets: the integration's webhook and the upstream's password (with its username).
    const upstream = (await api.list<{ id: number; name: string }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/upstreams`)).find((one) => one.name === "Docker Hub")!;
    expect(ofEstate.writes).toEqual(["PATCH /api/v4/virtual_registries/container/upstreams/" + upstream.id, "PUT /api/v4/groups/1/integrations/slack"]);
    expect(ofInstance.writes).toEqual([]);
  });

  it("a second run writes the same bytes", async () => {
    for (const { stdout } of await Promise.all(both.map(importRun))) expect(stdout).not.toMatch(/^written:/m);
    for (const imported of both) expect(filesOf(imported.out)).toEqual(imported.files);
  });

  it("after a change on the server, a second run's diff is that change, under the same names", async () => {
    const badges = await api.list<{ id: number; name: string; kind: string }>(apiPath`/groups/${"acme"}/badges`);
    const coverage = badges.find((badge) => badge.name === "coverage")!;
    await api.put(apiPath`/groups/${"acme"}/badges/${coverage.id}`, { name: "test coverage" });
    await importRun(estate);
    const after = filesOf(estate.out);
    const changed = Object.keys(after).filter((file) => after[file] !== firstRun[file]);
    expect(changed.sort()).toEqual(["groups/acme.ts", "platform-import.json"]);
    const lines = (text: string) => new Set(text.split("\n"));
    const before = lines(firstRun["groups/acme.ts"]!);
    const now = lines(after["groups/acme.ts"]!);
    expect([...now].filter((line) => !before.has(line))).toEqual(['  name: "test coverage",']);
    expect([...before].filter((line) => !now.has(line))).toEqual(['  name: "coverage",']);
  });
});
