/**
 * `platform-import` with the real Pulumi CLI, on one stack for every kind it
 * imports (issue 33): the emulator is seeded with an object of each kind, the
 * command (its bin, a child process with an administrator's read_api token) writes the
 * program, and then the first preview, read through platform-review's data
 * (`--json`),
 * shows only takeovers that overwrite nothing but the secrets they must send;
 * `up`; the next preview is clean; a second run writes the same bytes; no
 * token or secret value is in what was written.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { selfManagedSeed, startEmulator, type Emulator } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram, repoRoot } from "../../scripts/pulumi-workspace.mts";
import type { Review } from "../../src/review/changes";
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

describe.sequential("platform-import with the real Pulumi CLI: one stack for every kind", { timeout: 5 * 60_000 }, () => {
  let emulator: Emulator;
  let api: PlatformClient;
  let work: string;
  let out: string;
  let program: PulumiProgram;
  let firstRun: Record<string, string>;
  let summary: string;

  const importRun = () =>
    run(process.execPath, [path.join(repoRoot, "bin/platform-import.js"), "--group", "acme", "--project", "acme/web", "--instance", "--exclusive", "--out", out, "--name", "imported"], {
      env: { ...process.env, PLATFORM_URL: emulator.url, PLATFORM_TOKEN: READ_TOKEN },
    });

  beforeAll(async () => {
    ensurePulumiCli();
    // A self-managed instance, so the instance's settings are there to import; the administrator's read_api token reads it all.
    const users = (selfManagedSeed.users ?? []).map((user) => (user.username === "root" ? { ...user, tokens: ["glpat-root-token", READ_TOKEN], tokenScopes: { [READ_TOKEN]: ["read_api"] } } : user));
    // Epics with parents: acme's roadmap with its children, and a subgroup's epic whose parent is in acme.
    const seeded = selfManagedSeed.epics as Record<string, object[]>;
    const epics = { ...seeded, "acme/platform": [...seeded["acme/platform"]!, { iid: 4, title: "Shared CI runners", parent: "acme&1" }] };
    emulator = await startEmulator({ port: 0, seed: { ...selfManagedSeed, users, epics } });
    api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
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
    out = path.join(work, "imported");
  }, 10 * 60_000);

  afterAll(async () => {
    program?.dispose();
    await closeAllPools();
    await emulator?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("reads with a read_api token and sends the server no write", async () => {
    const mark = emulator.mark();
    const { stdout } = await importRun();
    summary = stdout;
    const methods = new Set(emulator.requestsSince(mark).map((entry) => entry.method));
    expect([...methods]).toEqual(["GET"]);
    firstRun = filesOf(out);
    // Subgroups and projects recursively: one module each.
    expect(Object.keys(firstRun).filter((file) => /^(groups|projects)\//.test(file)).sort()).toEqual(["groups/acme-platform.ts", "groups/acme.ts", "projects/acme-api.ts", "projects/acme-platform-infra.ts", "projects/acme-web.ts"]);
    expect(summary).not.toMatch(/subgroups:|: projects:/);
    for (const kind of ["Badge", "PipelineSchedule", "GroupIntegration", "SamlGroupLink", "VirtualRegistry", "Upstream", "CleanupPolicy", "GroupSettings", "ContainerRegistryVisibility", "ErrorTrackingClientKey", "ExclusiveBadges", "ExclusivePipelineSchedules", "ExclusiveGroupIntegrations", "ExclusiveSamlGroupLinks", "ExclusiveUpstreams", "ApplicationSettings", "EpicLink"]) {
      expect(summary, kind).toMatch(new RegExp(`^  ${kind}: \\d+$`, "m"));
    }
  });

  it("writes no token and no secret value, and lists a config entry for each write-only secret", () => {
    const text = Object.values(firstRun).join("\n");
    for (const secret of [READ_TOKEN, ...Object.values(emulator.tokens), ...Object.values(SECRETS)]) expect(text.includes(secret), "a secret in the written files").toBe(false);
    expect(summary).toContain("pulumi config set --secret acmeIntegrationSlackWebhook");
    expect(firstRun["index.ts"]).toContain("pulumi config set --secret acmeIntegrationSlackWebhook");
    expect(firstRun["groups/acme.ts"]).toContain('webhook: config.requireSecret("acmeIntegrationSlackWebhook")');
    // References as references: the upstream's registry is the registry resource's output.
    expect(firstRun["groups/acme.ts"]).toMatch(/registry: acmeRegistryContainers\.registryId/);
    // An epic's link is declared under its parent's group, by the resource's id form, wherever the child is.
    expect(firstRun["groups/acme.ts"]).toMatch(/new EpicLink\("acme-epic-link-shared-ci-runners", \{\n  group: 1,\n  epicIid: 1,\n  childEpicId: 10,\n\}, \{ import: "groups\/1\/epics\/1\/epics\/10" \}\);/);
    // A name the server holds stays a string literal.
    expect(firstRun["projects/acme-web.ts"]).toContain('name: "release \\"notes\\" */ ${x}",');
  });

  it("the first preview shows only takeovers that overwrite nothing but the secrets they send; up; the next preview is clean", async () => {
    const secretKeys = [...summary.matchAll(/pulumi config set --secret (\w+)/g)].map((match) => match[1]!);
    const secretValues: Record<string, string> = {};
    for (const key of secretKeys) secretValues[key] = key.endsWith("Webhook") ? SECRETS.webhook : SECRETS.password;
    program = await PulumiProgram.create({
      programDir: out,
      transpileOnly: true,
      config: { "platform:url": emulator.url },
      secrets: { "platform:token": emulator.tokens.root!, ...secretValues },
    });
    const preview = await program.previewJson();
    // platform-review's data of that preview, as CI writes it (--json).
    writeFileSync(path.join(work, "preview.json"), JSON.stringify(preview));
    expect(await reviewMain(["--preview", path.join(work, "preview.json"), "--json", path.join(work, "review.json"), "--quiet"])).toBe(0);
    const review = JSON.parse(readFileSync(path.join(work, "review.json"), "utf8")) as Review;
    expect(review.ok).toBe(true);
    const declared = [...Object.values(firstRun).join("\n").matchAll(/new \w+\("([^"]+)"/g)].map((match) => match[1]).sort();
    // The stack itself is new too; every resource of the program is a takeover.
    const resources = review.changes.filter((change) => !change.urn.includes("::pulumi:pulumi:Stack::"));
    expect(resources.map((change) => change.name).sort()).toEqual(declared);
    expect(resources.filter((change) => change.kind !== "takeover")).toEqual([]);
    // Each child of an epic in the scope, the cross-group child under its parent's group.
    expect(resources.filter((change) => change.type === "EpicLink").map((change) => change.name).sort()).toEqual([
      "acme-epic-link-public-api-v2",
      "acme-epic-link-self-serve-onboarding",
      "acme-epic-link-shared-ci-runners",
      "acme-epic-link-usage-based-billing",
      "acme-platform-epic-link-kubernetes-1-31-upgrade",
    ]);
    // A takeover whose inputs name another object the program imports (an upstream's registry) is read at
    // apply: that object's outputs are not known before the first up. Only these; the up changes nothing of them.
    const readAtApply = resources.filter((change) => change.note?.includes("read at apply"));
    expect([...new Set(readAtApply.map((change) => change.type))].sort()).toEqual(["ExclusiveUpstreams", "Upstream"]);
    for (const change of resources.filter((one) => !readAtApply.includes(one))) {
      for (const field of change.fields) {
        expect(["webhook", "password"], `${change.name} overwrites ${field.path}`).toContain(field.path);
        expect(field.before, `${change.name}: ${field.path}`).toEqual({ secret: true });
      }
    }
    for (const step of preview.steps) {
      const takeover = step.newState?.inputs?.takeover as { overwrites?: Record<string, unknown> } | undefined;
      if (!takeover) continue;
      // Only the write-only secrets, which the server never shows and every takeover sends.
      expect(Object.keys(takeover.overwrites ?? {}).filter((name) => !["webhook", "password"].includes(name)), step.urn).toEqual([]);
    }
    const beforeUp = emulator.mark();
    await program.up();
    const writes = emulator.requestsSince(beforeUp).filter((entry) => entry.method !== "GET");
    // The up writes only the write-only secrets: the integration's webhook and the upstream's password (with its username).
    const upstream = (await api.list<{ id: number; name: string }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/upstreams`)).find((one) => one.name === "Docker Hub")!;
    expect(writes.map((entry) => `${entry.method} ${entry.path}`).sort()).toEqual(["PATCH /api/v4/virtual_registries/container/upstreams/" + upstream.id, "PUT /api/v4/groups/1/integrations/slack"]);
    await program.preview("--expect-no-changes");
  });

  it("a second run writes the same bytes", async () => {
    const { stdout } = await importRun();
    expect(stdout).not.toMatch(/^written:/m);
    expect(filesOf(out)).toEqual(firstRun);
  });

  it("after a change on the server, a second run's diff is that change, under the same names", async () => {
    const badges = await api.list<{ id: number; name: string; kind: string }>(apiPath`/groups/${"acme"}/badges`);
    const coverage = badges.find((badge) => badge.name === "coverage")!;
    await api.put(apiPath`/groups/${"acme"}/badges/${coverage.id}`, { name: "test coverage" });
    await importRun();
    const after = filesOf(out);
    const changed = Object.keys(after).filter((file) => after[file] !== firstRun[file]);
    expect(changed.sort()).toEqual(["groups/acme.ts", "platform-import.json"]);
    const lines = (text: string) => new Set(text.split("\n"));
    const before = lines(firstRun["groups/acme.ts"]!);
    const now = lines(after["groups/acme.ts"]!);
    expect([...now].filter((line) => !before.has(line))).toEqual(['  name: "test coverage",']);
    expect([...before].filter((line) => !now.has(line))).toEqual(['  name: "coverage",']);
  });
});
