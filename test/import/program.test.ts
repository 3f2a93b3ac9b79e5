/**
 * platform-import's generation in process (src/import): names fixed in the
 * manifest, program text that keeps server text inert, deterministic files,
 * edited files never overwritten; and the reading against the emulator over
 * real HTTP (only GETs, kinds the token may not read skipped with why).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ensurePulumiCli } from "../../scripts/pulumi-workspace.mts";
import { apiPath, closeAllPools, PlatformClient } from "../../src/client";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { literalOf, programOf, slugOf } from "../../src/import/program";
import { readEstate } from "../../src/import/read";
import { main } from "../../src/import/cli";
import { digestOf, readManifest, writeProgram } from "../../src/import/write";
import type { Declaration } from "../../src/import/values";

const template = { "package.json": '{ "name": "${PROJECT}", "description": "${DESCRIPTION}" }\n', "tsconfig.json": '{ "files": ["index.ts"] }\n', ".gitignore": "node_modules/\n" };

const HOSTILE = ['"; process.exit(1); //', "`${process.exit(1)}`", "*/ process.exit(1) /*", "line\nbreak\r\u2028\u2029", "\\\"", "</script>", "\u0000nul", "..", "../../etc/passwd", "é"];

function badge(id: number, owner: { kind: "group" | "project"; id: number; fullPath: string }, name: string): Declaration {
  return {
    kind: "Badge",
    key: `Badge ${owner.kind}s/${owner.id}/badges/${id}`,
    importId: `${owner.kind}s/${owner.id}/badges/${id}`,
    owner,
    baseName: name,
    args: { [owner.kind]: owner.id, linkUrl: "https://ci.example.com", imageUrl: "https://ci.example.com/b.svg", name },
    notes: [],
  };
}

const program = (declarations: Declaration[], names = {}) => programOf(declarations, { projectName: "p", names, secrets: [], template });

describe("platform-import's program text", () => {
  it("writes every server string as a literal that reads back as the same text, whatever it holds", () => {
    for (const text of HOSTILE) {
      // One string token: a template literal, a comment or a line break cannot open inside it.
      expect(new Function(`return ${literalOf(text, new Map(), "")};`)()).toBe(text);
      expect(literalOf(text, new Map(), "")).toMatch(/^"([^"\\\n\r\u2028\u2029]|\\.)*"$/);
      const literal = literalOf({ name: text, list: [text], [text]: 1 }, new Map(), "");
      expect(new Function(`return (${literal});`)()).toEqual({ name: text, list: [text], [text]: 1 });
    }
  });

  it("writes a server's bidirectional override and line separator as their escapes, in literals and comments: each line shows what it reads", () => {
    const acme = { kind: "group" as const, id: 7, fullPath: "acme\u202E/moc.elgoog" };
    const trojan = { ...badge(1, acme, "docs\u202E // \u2066admin\u2069"), notes: ["linkUrl is left unmanaged: \u2028process.exit(1)"] };
    trojan.args.linkUrl = "https://ci.example.com/\u2028\u2029\u200B";
    const module = program([trojan]).files.get("groups/acme-moc-elgoog.ts")!;
    expect(module).toContain('export const fullPath = "acme\\u202E/moc.elgoog";');
    expect(module).toContain('name: "docs\\u202E // \\u2066admin\\u2069",');
    expect(module).toContain('linkUrl: "https://ci.example.com/\\u2028\\u2029\\u200B",');
    expect(module).toContain("// linkUrl is left unmanaged: \\u2028process.exit(1)");
    expect(module).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u2028\u2029\u200B]/);
    // TypeScript reads the escapes as the server's text.
    const literal = /name: ("[^\n]*"),/.exec(module)![1]!;
    expect(new Function(`return ${literal};`)()).toBe("docs\u202E // \u2066admin\u2069");
  });

  it("writes the server's URL into Pulumi.yaml as YAML reads it, every deceptive character an escape", () => {
    const url = "https://platform.example.com/\u202Eevil\u2028/\u{E0100}";
    const yaml = programOf([], { projectName: "p", url, names: {}, secrets: [], template }).files.get("Pulumi.yaml")!;
    expect(yaml).toContain('  platform:url: "https://platform.example.com/\\u202Eevil\\u2028/\\U000E0100"');
    expect((parseYaml(yaml) as { config: Record<string, string> }).config["platform:url"]).toBe(url);
  });

  it("derives file names and resource names from slugs only: no separator, no `..`", () => {
    const declarations = HOSTILE.map((text, index) => badge(index + 1, { kind: "group", id: 100 + index, fullPath: text }, text));
    const { files, names } = program(declarations);
    for (const file of files.keys()) expect(file).toMatch(/^((groups|projects)\/[a-z0-9-]+\.ts|index\.ts|Pulumi\.yaml|package\.json|tsconfig\.json|\.gitignore)$/);
    for (const name of Object.values(names)) expect(name).toMatch(/^[a-z0-9-]+$/);
    expect(new Set(Object.values(names)).size).toBe(Object.values(names).length);
    // No server text in a comment: every comment line is the import's own wording.
    for (const text of files.values()) for (const line of text.split("\n")) if (line.trimStart().startsWith("//")) expect(line).not.toMatch(/process|passwd|script/);
    expect(slugOf("../../etc/passwd", "x")).toBe("etc-passwd");
  });

  it("gives unique readable names, keeps them in the manifest by id, and keeps them when the server renames", () => {
    const acme = { kind: "group" as const, id: 7, fullPath: "acme" };
    const first = program([badge(1, acme, "coverage"), badge(2, acme, "Coverage"), badge(3, acme, "")]);
    expect(first.names).toEqual({ "groups/7": "acme", "Badge groups/7/badges/1": "acme-badge-coverage", "Badge groups/7/badges/2": "acme-badge-coverage-2", "Badge groups/7/badges/3": "acme-badge" });
    // The group and a badge renamed on the server: the names stay; only the values change.
    const renamed = { ...acme, fullPath: "acme-corp" };
    const second = program([badge(2, renamed, "coverage"), badge(1, renamed, "pipeline")], first.names);
    expect(second.names["Badge groups/7/badges/1"]).toBe("acme-badge-coverage");
    expect(second.files.has("groups/acme.ts")).toBe(true);
    expect(second.files.get("groups/acme.ts")).toContain('export const fullPath = "acme-corp";');
    // A new object never takes the name of one gone from the server.
    const third = program([badge(4, acme, "coverage")], first.names);
    expect(third.names["Badge groups/7/badges/4"]).toBe("acme-badge-coverage-3");
  });

  it("names a secret's config entry after the resource's fixed name: a rename on the server keeps it", () => {
    const chat = (fullPath: string): Declaration => ({
      kind: "GroupIntegration",
      key: "GroupIntegration groups/7/integrations/slack",
      importId: "groups/7/integrations/slack",
      owner: { kind: "group", id: 7, fullPath },
      baseName: "slack",
      args: { group: 7, slug: "slack", webhook: { secretConfig: "webhook" } },
      notes: [],
    });
    const secrets = [{ key: "GroupIntegration groups/7/integrations/slack", property: "webhook" }];
    const first = programOf([chat("acme")], { projectName: "p", names: {}, secrets, template });
    const renamed = programOf([chat("acme-corp")], { projectName: "p", names: first.names, secrets, template });
    for (const written of [first, renamed]) {
      expect(written.secrets).toEqual(["acmeIntegrationSlackWebhook"]);
      expect(written.files.get("groups/acme.ts")).toContain('webhook: config.requireSecret("acmeIntegrationSlackWebhook"),');
      expect(written.files.get("index.ts")).toContain("//   pulumi config set --secret acmeIntegrationSlackWebhook");
    }
  });

  it("is deterministic: the same objects in any order give the same files", () => {
    const owners = [
      { kind: "group" as const, id: 1, fullPath: "acme" },
      { kind: "project" as const, id: 2, fullPath: "acme/web" },
      { kind: "group" as const, id: 3, fullPath: "acme/platform" },
    ];
    const declarations = owners.flatMap((owner, index) => [badge(10 + index, owner, "b"), badge(20 + index, owner, "a")]);
    const one = program(declarations);
    const other = program([...declarations].reverse());
    expect([...other.files]).toEqual([...one.files]);
    expect([...one.files.keys()]).toEqual(["Pulumi.yaml", "groups/acme-platform.ts", "groups/acme.ts", "index.ts", "projects/acme-web.ts"]);
    expect([...one.starters.keys()]).toEqual([".gitignore", "package.json", "tsconfig.json"]);
    expect(one.files.get("index.ts")).toContain('import "./groups/acme-platform";\nimport "./groups/acme";\nimport "./projects/acme-web";');
  });
});

describe("platform-import's writing", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "platform-import-write-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("never overwrites an edited file: it refuses naming it, or writes beside it; unedited modules of owners gone are removed", () => {
    const acme = { kind: "group" as const, id: 7, fullPath: "acme" };
    const beta = { kind: "group" as const, id: 8, fullPath: "beta" };
    const first = program([badge(1, acme, "coverage"), badge(2, beta, "docs")]);
    const written = writeProgram(dir, first, readManifest(dir), false);
    expect(written.edited).toEqual([]);
    const module = path.join(dir, "groups/acme.ts");
    writeFileSync(module, `${readFileSync(module, "utf8")}// mine\n`);

    const second = program([badge(1, acme, "test coverage")], readManifest(dir).names);
    const refused = writeProgram(dir, second, readManifest(dir), false);
    expect(refused.edited).toEqual(["groups/acme.ts"]);
    expect(readFileSync(module, "utf8")).toContain("// mine");
    expect(existsSync(path.join(dir, "groups/beta.ts"))).toBe(true);

    const beside = writeProgram(dir, second, readManifest(dir), true);
    expect(beside.beside).toEqual(["groups/acme.ts.imported"]);
    expect(readFileSync(module, "utf8")).toContain("// mine");
    expect(readFileSync(`${module}.imported`, "utf8")).toContain('name: "test coverage"');
    expect(beside.removed).toEqual(["groups/beta.ts"]);
    // Still edited on the next run: the digest on record is the one written, not the edit.
    expect(writeProgram(dir, second, readManifest(dir), false).edited).toEqual(["groups/acme.ts"]);
  });

  it("refuses a path that would leave the out dir", () => {
    expect(() => writeProgram(dir, { files: new Map([["../outside.ts", ""]]), starters: new Map(), names: {}, configKeys: {} }, readManifest(dir), false)).toThrow(/not a path inside the out dir/);
  });

  it("refuses a manifest that gives one name, or one config key, to two objects", () => {
    const out = mkdtempSync(path.join(tmpdir(), "platform-import-manifest-"));
    try {
      const manifestFile = path.join(out, "platform-import.json");
      const manifest = { version: 1, names: { "Upstream 1": "acme-upstream-prod", "Upstream 2": "beta-upstream-evil" }, configKeys: { "Upstream 1 password": "prodPassword", "Upstream 2 password": "evilPassword" }, files: {} };
      writeFileSync(manifestFile, JSON.stringify(manifest));
      expect(readManifest(out).names).toEqual(manifest.names);
      writeFileSync(manifestFile, JSON.stringify({ ...manifest, names: { ...manifest.names, "Upstream 2": "acme-upstream-prod" } }));
      expect(() => readManifest(out)).toThrow("is not the manifest of an earlier platform-import run");
      writeFileSync(manifestFile, JSON.stringify({ ...manifest, configKeys: { ...manifest.configKeys, "Upstream 2 password": "prodPassword" } }));
      expect(() => readManifest(out)).toThrow("is not the manifest of an earlier platform-import run");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("follows no link in the out dir: a write, a removal or a read through one is refused before anything is written", () => {
    const acme = { kind: "group" as const, id: 7, fullPath: "acme" };
    const beta = { kind: "group" as const, id: 8, fullPath: "beta" };
    const out = mkdtempSync(path.join(tmpdir(), "platform-import-links-"));
    try {
      const elsewhere = path.join(out, "elsewhere");
      mkdirSync(elsewhere);
      const target = path.join(out, "program");
      writeProgram(target, program([badge(1, acme, "coverage")]), readManifest(target), false);
      // A branch's checkout: index.ts a link to a file elsewhere, whose digest the manifest gives as written.
      const victim = path.join(elsewhere, "victim.txt");
      writeFileSync(victim, "precious\n");
      const manifestFile = path.join(target, "platform-import.json");
      const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
      writeFileSync(manifestFile, JSON.stringify({ ...manifest, files: { ...manifest.files, "index.ts": digestOf("precious\n"), "groups/gone.ts": digestOf("precious\n") } }));
      rmSync(path.join(target, "index.ts"));
      symlinkSync(victim, path.join(target, "index.ts"));
      const next = program([badge(1, acme, "coverage"), badge(2, beta, "docs")], readManifest(target).names);
      expect(() => writeProgram(target, next, readManifest(target), false)).toThrow('refusing "index.ts" in the out dir: a symbolic link');
      expect(readFileSync(victim, "utf8")).toBe("precious\n");
      expect(existsSync(path.join(target, "groups/beta.ts"))).toBe(false);

      // A directory on the way linked elsewhere: the module removed as gone would be the victim.
      rmSync(path.join(target, "index.ts"));
      rmSync(path.join(target, "groups"), { recursive: true });
      symlinkSync(elsewhere, path.join(target, "groups"));
      renameSync(victim, path.join(elsewhere, "gone.ts"));
      expect(() => writeProgram(target, next, readManifest(target), false)).toThrow('refusing "groups" in the out dir: a symbolic link');
      expect(readFileSync(path.join(elsewhere, "gone.ts"), "utf8")).toBe("precious\n");

      // The manifest a link to /dev/zero: refused at once, not read until memory runs out.
      rmSync(manifestFile);
      symlinkSync("/dev/zero", manifestFile);
      expect(() => readManifest(target)).toThrow('refusing "platform-import.json" in the out dir: a symbolic link');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("platform-import reading the emulator", () => {
  let emulator: Emulator;
  let api: PlatformClient;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
    await api.post(apiPath`/groups/${"acme"}/badges`, { name: HOSTILE[0], link_url: "https://ci.example.com/a", image_url: "https://ci.example.com/a.svg" });
    await api.put(apiPath`/groups/${"acme"}/integrations/mattermost`, { webhook: "https://chat.example.com/hooks/secret-hook", pipeline_events: true });
  });
  afterAll(async () => {
    await closeAllPools();
    await emulator?.stop();
  });

  it("sends only GETs, and skips what the token may not read, saying why", async () => {
    const mark = emulator.mark();
    const guest = new PlatformClient({ url: emulator.url, token: emulator.tokens.guest!, retryBaseDelayMs: 10 });
    const estate = await readEstate(guest, { group: "acme", projects: ["acme/web"], instance: false, exclusive: false });
    expect(new Set(emulator.requestsSince(mark).map((entry) => entry.method))).toEqual(new Set(["GET"]));
    expect(estate.skipped.map((skip) => `${skip.where}: ${skip.what}`)).toEqual(expect.arrayContaining(["acme: integrations"]));
    expect(estate.skipped.find((skip) => skip.what === "integrations")?.why).toMatch(/the token may not read it \(403\)/);
  });

  it("declares a required write-only secret as a config entry, and writes the rest as the server holds it", async () => {
    const estate = await readEstate(api, { group: "acme", projects: [], instance: false, exclusive: false });
    const chat = estate.declarations.find((declaration) => declaration.kind === "GroupIntegration")!;
    expect(chat.args).toMatchObject({ group: 1, slug: "mattermost", webhook: { secretConfig: "webhook" }, pipelineEvents: true });
    expect(estate.secrets).toEqual([{ key: chat.key, property: "webhook" }]);
    const badge = estate.declarations.find((declaration) => declaration.kind === "Badge")!;
    expect(badge.args.name).toBe(HOSTILE[0]);
  });

  it("declares a hook's token as a config entry, and its URL as one only when it carries credentials", async () => {
    const made = await Promise.all([
      api.post<{ id: number }>(apiPath`/projects/${"acme/web"}/hooks`, { url: "https://ci.example.com/hooks", name: "ci", token: "never-shown", merge_requests_events: true }),
      api.post<{ id: number }>(apiPath`/projects/${"acme/web"}/hooks`, { url: "https://bot:pass-in-url@chat.example.com/hooks", name: "chat" }),
    ]);
    const estate = await readEstate(api, { group: "acme", projects: ["acme/web"], instance: false, exclusive: false });
    for (const hook of made) await api.delete(apiPath`/projects/${"acme/web"}/hooks/${hook.id}`);
    const hooks = estate.declarations.filter((declaration) => declaration.kind === "ProjectHook");
    const ci = hooks.find((declaration) => declaration.args.name === "ci")!;
    const chat = hooks.find((declaration) => declaration.args.name === "chat")!;
    expect(ci.args).toMatchObject({ url: "https://ci.example.com/hooks", token: { secretConfig: "token" }, mergeRequestsEvents: true });
    expect(chat.args).toMatchObject({ url: { secretConfig: "url" }, token: { secretConfig: "token" } });
    expect(JSON.stringify(estate.declarations)).not.toContain("pass-in-url");
    expect(estate.secrets).toEqual(expect.arrayContaining([{ key: ci.key, property: "token" }, { key: chat.key, property: "url" }]));
  });

  it("declares the gated group settings the tier it reads allows, as the preview's checks read it; leaves out the others, saying why", async () => {
    const settingsOf = (estate: { declarations: Declaration[] }, fullPath: string) => estate.declarations.find((declaration) => declaration.kind === "GroupSettings" && declaration.owner.fullPath === fullPath)!;
    // An administrator reads acme's plan (Ultimate), once for the group and its subgroup (a client is a run).
    const mark = emulator.mark();
    const admin = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
    const acme = await readEstate(admin, { group: "acme", projects: [], instance: false, exclusive: false });
    expect(emulator.requestsSince(mark).filter((entry) => entry.path.includes("/namespaces/")).map((entry) => entry.path)).toEqual(["/api/v4/namespaces/acme"]);
    const top = settingsOf(acme, "acme");
    expect(top.args).toMatchObject({ membershipLock: false, preventForkingOutsideGroup: false, wikiAccessLevel: "enabled", uniqueProjectDownloadLimit: expect.any(Number), autoBanUserOnExcessiveProjectsDownload: false });
    expect(top.notes.filter((note) => /tier|does not verify/.test(note))).toEqual([]);
    // A subgroup, declared as a Group: what only top-level groups have is left out, in the preview's words.
    expect(acme.declarations.find((declaration) => declaration.kind === "Group" && declaration.owner.fullPath === "acme/platform")!.notes).toContain("uniqueProjectDownloadLimit is left unmanaged: only top-level groups have this setting, and group acme/platform is a subgroup.");
    // A Free group: what needs Premium is left out, saying the tier it is on.
    const beta = await readEstate(api, { group: "beta", projects: [], instance: false, exclusive: false });
    expect(settingsOf(beta, "beta").notes).toContain("onlyAllowMergeIfPipelineSucceeds is left unmanaged: group beta needs the Premium or Ultimate tier for this setting, and it is on Free.");
    expect(settingsOf(beta, "beta").args).not.toHaveProperty("onlyAllowMergeIfPipelineSucceeds");
    // A Maintainer may not read the plan: the tier cannot be told, and the settings that need it stay out, saying so.
    const maintainer = new PlatformClient({ url: emulator.url, token: emulator.tokens.maintainer!, retryBaseDelayMs: 10 });
    const told = settingsOf(await readEstate(maintainer, { group: "acme", projects: [], instance: false, exclusive: false }), "acme");
    expect(told.args).not.toHaveProperty("membershipLock");
    expect(told.notes).toContain(
      "membershipLock is left unmanaged: group acme needs the Premium or Ultimate tier, which the token's user (maintainer) may not read: the plan is shown to the top-level group's Owners and to administrators.",
    );
  });

  it("finds subgroups and projects through descendant_groups and the group's projects", async () => {
    const mark = emulator.mark();
    const estate = await readEstate(api, { group: "acme", projects: [], instance: false, exclusive: false });
    const listed = emulator.requestsSince(mark).filter((entry) => /\/groups\/1\/projects$/.test(entry.path));
    expect(listed.map((entry) => new URLSearchParams(entry.query)).map((query) => [query.get("include_subgroups"), query.get("with_shared"), query.get("per_page")])).toEqual([["true", "false", "100"]]);
    const owners = [...new Set(estate.declarations.map((declaration) => `${declaration.owner.kind} ${declaration.owner.fullPath}`))].sort();
    expect(owners).toEqual(["group acme", "group acme/platform", "project acme/api", "project acme/platform/infra", "project acme/web"]);
    expect(estate.skipped.filter((skip) => skip.what === "subgroups" || skip.what === "projects")).toEqual([]);
    // Registries and the cleanup policy belong to top-level groups only: none is read for the subgroup.
    expect(emulator.requestsSince(mark).some((entry) => /groups\/2\/-\/virtual_registries/.test(entry.path))).toBe(false);
  });

  it("declares each project of the group as a takeover of Project, from the group's list of projects (no read of its own)", async () => {
    const mark = emulator.mark();
    const estate = await readEstate(api, { group: "acme", projects: [], instance: false, exclusive: false });
    const projects = estate.declarations.filter((declaration) => declaration.kind === "Project");
    const web = await api.get<{ id: number; namespace: { id: number } }>(apiPath`/projects/${"acme/web"}`);
    expect(projects.map((declaration) => declaration.owner.fullPath).sort()).toEqual(["acme/api", "acme/platform/infra", "acme/web"]);
    expect(projects.find((declaration) => declaration.owner.fullPath === "acme/web")).toMatchObject({
      importId: String(web.id),
      args: { group: web.namespace.id, name: "Web", path: "web", visibility: "private", description: "The public website" },
    });
    expect(projects.every((declaration) => !("initializeWithReadme" in declaration.args))).toBe(true);
    // The resource's own read asks for the statistics: the importer never made it.
    expect(emulator.requestsSince(mark).filter((entry) => /statistics/.test(entry.query ?? ""))).toEqual([]);
  });

    it("declares each member's SAML identity of a top-level group by the id its import takes", async () => {
    const estate = await readEstate(api, { group: "acme", projects: [], instance: false, exclusive: false });
    const identities = estate.declarations.filter((declaration) => declaration.kind === "SamlIdentity");
    expect(identities.map((declaration) => [declaration.importId, declaration.args])).toEqual([
      ["groups/1/saml/users/2", { group: 1, user: 2, externUid: "idp-1001-alice" }],
      ["groups/1/saml/users/3", { group: 1, user: 3, externUid: "idp-1002-mia" }],
      ["groups/1/saml/users/4", { group: 1, user: 4, externUid: "idp-1003-dev" }],
      ["groups/1/saml/users/5", { group: 1, user: 5, externUid: "idp-1004-gus" }],
    ]);
    // The subgroup has none: identities belong to the top-level group.
    expect(identities.every((declaration) => declaration.owner.fullPath === "acme")).toBe(true);
  });

  it("declares one EpicLink per child of each epic in the scope, under the parent's group, without position anchors", async () => {
    const estate = await readEstate(api, { group: "acme", projects: [], instance: false, exclusive: false });
    const links = estate.declarations.filter((declaration) => declaration.kind === "EpicLink");
    expect(links.map((declaration) => [declaration.owner.fullPath, declaration.importId, declaration.baseName, declaration.args])).toEqual([
      ["acme", "groups/1/epics/1/epics/2", "Self-serve onboarding", { group: 1, epicIid: 1, childEpicId: 2 }],
      ["acme", "groups/1/epics/1/epics/3", "Usage-based billing", { group: 1, epicIid: 1, childEpicId: 3 }],
      ["acme", "groups/1/epics/1/epics/4", "Public API v2", { group: 1, epicIid: 1, childEpicId: 4 }],
      ["acme/platform", "groups/2/epics/1/epics/8", "Kubernetes 1.31 upgrade", { group: 2, epicIid: 1, childEpicId: 8 }],
    ]);
    const { names } = programOf(estate.declarations, { projectName: "p", names: {}, secrets: [], template });
    expect(names["EpicLink groups/1/epics/1/epics/2"]).toBe("acme-epic-link-self-serve-onboarding");
    // A parent outside the scope: the subgroup's run declares only its own epics' links.
    const subgroup = await readEstate(api, { group: "acme/platform", projects: [], instance: false, exclusive: false });
    expect(subgroup.declarations.filter((declaration) => declaration.kind === "EpicLink").map((declaration) => declaration.importId)).toEqual(["groups/2/epics/1/epics/8"]);
  });

  it("leaves an integration a subgroup inherits to its ancestor, and the subgroup's only-these set ignores it", async () => {
    // The emulator shows no inheritance: the subgroup's list is answered once as real servers show an inherited integration.
    const [own] = await api.list<Record<string, unknown>>(apiPath`/groups/${"acme"}/integrations`);
    emulator.inject({ method: "GET", path: /\/groups\/2\/integrations$/, status: 200, body: [{ ...own, inherited: true }] });
    const estate = await readEstate(api, { group: "acme/platform", projects: [], instance: false, exclusive: true });
    expect(estate.declarations.filter((declaration) => declaration.kind === "GroupIntegration")).toEqual([]);
    expect(estate.declarations.find((declaration) => declaration.kind === "ExclusiveGroupIntegrations")?.args).toEqual({ group: 2, keep: [], ignore: ["mattermost"] });
    expect(estate.skipped).toContainEqual({ where: "acme/platform", what: "integration mattermost", why: expect.stringMatching(/inherits an ancestor group's settings/) });
  });

  it("the command writes the template's pipeline, and accepts its own next step: the vendored package edits package.json", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "platform-import-next-"));
    const saved = { url: process.env.PLATFORM_URL, token: process.env.PLATFORM_TOKEN };
    process.env.PLATFORM_URL = emulator.url;
    process.env.PLATFORM_TOKEN = emulator.tokens.root!;
    try {
      const out = path.join(dir, "platform");
      const errors: string[] = [];
      expect(await main(["--group", "acme/platform", "--out", out, "--quiet"], () => undefined, (text) => errors.push(text))).toBe(0);
      const templateDir = path.join(__dirname, "../../templates/platform");
      expect(readFileSync(path.join(out, ".gitlab-ci.yml"), "utf8")).toBe(readFileSync(path.join(templateDir, ".gitlab-ci.yml"), "utf8"));
      expect(readFileSync(path.join(out, ".gitignore"), "utf8")).toBe(readFileSync(path.join(templateDir, ".gitignore"), "utf8"));
      // What `npm run package -- --vendor` does to the project: the package installed from its vendor/ directory.
      const manifest = JSON.parse(readFileSync(path.join(out, "package.json"), "utf8")) as { dependencies: Record<string, string> };
      manifest.dependencies["pulumi-platform"] = "file:vendor/pulumi-platform-0.1.0.tgz";
      const vendored = `${JSON.stringify(manifest, null, 2)}\n`;
      writeFileSync(path.join(out, "package.json"), vendored);
      // And a team's own stack in the pipeline.
      const pipeline = readFileSync(path.join(out, ".gitlab-ci.yml"), "utf8").replace("- STACK: [dev, prod]", "- STACK: [prod]");
      writeFileSync(path.join(out, ".gitlab-ci.yml"), pipeline);
      const summary: string[] = [];
      expect(await main(["--group", "acme/platform", "--out", out, "--quiet"], (text) => summary.push(text), (text) => errors.push(text))).toBe(0);
      expect(errors).toEqual([]);
      expect(readFileSync(path.join(out, "package.json"), "utf8")).toBe(vendored);
      expect(readFileSync(path.join(out, ".gitlab-ci.yml"), "utf8")).toBe(pipeline);
      expect(summary.join("")).toMatch(/^kept as they are \(the template's files are the project's once written\): \.gitignore, \.gitlab-ci\.yml, package\.json, tsconfig\.json$/m);
      expect(Object.keys(readManifest(out).files)).not.toContain("package.json");
    } finally {
      process.env.PLATFORM_URL = saved.url;
      process.env.PLATFORM_TOKEN = saved.token;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the command: usage errors exit 2; a run writes the program and says what it skipped", async () => {
    const errors: string[] = [];
    expect(await main(["--group", "acme"], () => undefined, (text) => errors.push(text))).toBe(2);
    expect(errors.join("")).toMatch(/give --out/);
    const dir = mkdtempSync(path.join(tmpdir(), "platform-import-cli-"));
    try {
      const saved = { url: process.env.PLATFORM_URL, token: process.env.PLATFORM_TOKEN };
      process.env.PLATFORM_URL = emulator.url;
      process.env.PLATFORM_TOKEN = emulator.tokens.root!;
      const out: string[] = [];
      try {
        expect(await main(["--group", "acme", "--out", path.join(dir, "p"), "--quiet"], (text) => out.push(text), () => undefined)).toBe(0);
      } finally {
        process.env.PLATFORM_URL = saved.url;
        process.env.PLATFORM_TOKEN = saved.token;
      }
      expect(out.join("")).toMatch(/^  GroupIntegration: 1$/m);
      expect(out.join("")).toContain("pulumi config set --secret acmeIntegrationMattermostWebhook");
      const written = readFileSync(path.join(dir, "p/groups/acme.ts"), "utf8");
      expect(written).not.toContain("secret-hook");
      expect(written).not.toContain(emulator.tokens.root!);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("platform-import of CI/CD variables", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    const api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
    await api.post(apiPath`/projects/${"acme/web"}/variables`, { key: "DEPLOY_TOKEN", value: "imported-secret-value", masked: true, environment_scope: "production" });
    await api.post(apiPath`/projects/${"acme/web"}/variables`, { key: "DEPLOY_TOKEN", value: "imported-review-value", environment_scope: "review/*" });
    await api.post(apiPath`/projects/${"acme/web"}/variables`, { key: "HIDDEN_KEY", value: "imported-hidden-value", masked_and_hidden: true });
    await api.post(apiPath`/groups/${"acme"}/variables`, { key: "MIRROR", value: "imported-group-value", protected: true });
  });
  afterAll(async () => {
    await closeAllPools();
    await emulator?.stop();
  });

  it("declares each variable by its key and scope, its value a secret config entry and never the program's text", async () => {
    const api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
    const estate = await readEstate(api, { group: "acme", projects: ["acme/web"], instance: false, exclusive: false });
    const variables = estate.declarations.filter((declaration) => declaration.kind === "ProjectVariable" || declaration.kind === "GroupVariable");
    expect(variables.map((declaration) => declaration.importId).sort()).toEqual([
      "groups/1/variables/MIRROR/*",
      "projects/1/variables/DEPLOY_TOKEN/production",
      "projects/1/variables/DEPLOY_TOKEN/review%2F*",
      "projects/1/variables/HIDDEN_KEY/*",
    ]);
    const production = variables.find((declaration) => declaration.importId.endsWith("/production"))!;
    expect(production.args).toEqual({ project: 1, key: "DEPLOY_TOKEN", value: { secretConfig: "value" }, masked: true, environmentScope: "production" });
    const hidden = variables.find((declaration) => declaration.importId.includes("HIDDEN_KEY"))!;
    expect(hidden.args).toMatchObject({ masked: true, hidden: true, value: { secretConfig: "value" } });
    expect(hidden.notes.join()).toMatch(/hidden: the server never shows the value/);
    expect(estate.secrets.filter((secret) => variables.some((declaration) => declaration.key === secret.key)).map((secret) => secret.property)).toEqual(["value", "value", "value", "value"]);
    const written = programOf(estate.declarations, { projectName: "p", names: {}, secrets: estate.secrets, template });
    const text = [...written.files.values()].join("\n");
    for (const value of ["imported-secret-value", "imported-review-value", "imported-hidden-value", "imported-group-value"]) expect(text).not.toContain(value);
    expect(text).toMatch(/new ProjectVariable\("[a-z0-9-]+", \{[^}]*value: config\.requireSecret\("[A-Za-z0-9]+"\)/s);
  });
  it("--stack sets the values the server shows in that stack's config, encrypted, and nowhere else; a hidden one stays for its keeper to set", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "platform-import-stack-"));
    const cli = ensurePulumiCli();
    const saved = { ...process.env };
    Object.assign(process.env, {
      PLATFORM_URL: emulator.url,
      PLATFORM_TOKEN: emulator.tokens.root!,
      PATH: `${cli}${path.delimiter}${process.env.PATH}`,
      PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "import-test",
      PULUMI_HOME: path.join(dir, "home"),
    });
    mkdirSync(path.join(dir, "backend"));
    try {
      const out: string[] = [];
      const errors: string[] = [];
      expect(await main(["--project", "acme/web", "--out", path.join(dir, "p"), "--name", "p", "--stack", "prod", "--quiet"], (text) => out.push(text), (text) => errors.push(text))).toBe(0);
      expect(errors).toEqual([]);
      const summary = out.join("");
      expect(summary).toMatch(/^set in the config of stack prod, encrypted: \w+, \w+$/m);
      // The hidden variable's value cannot be read: its key is listed to set by hand.
      expect(summary).toMatch(/secrets the server never shows; set each before the first preview:\n  pulumi config set --secret \w*HiddenKey\w*\n/);
      expect(summary).not.toContain("secret values the server shows");
      const files = readdirSync(path.join(dir, "p"), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
      for (const file of files) for (const value of ["imported-secret-value", "imported-review-value", "imported-hidden-value"]) expect(readFileSync(file, "utf8")).not.toContain(value);
      const config = readFileSync(path.join(dir, "p", "Pulumi.prod.yaml"), "utf8");
      expect(config.match(/secure: /g)).toHaveLength(2);
      const values = JSON.parse(execFileSync("pulumi", ["config", "--show-secrets", "--json", "--stack", "prod"], { cwd: path.join(dir, "p"), encoding: "utf8" })) as Record<string, { value: string; secret: boolean }>;
      expect(Object.values(values).filter((entry) => entry.secret).map((entry) => entry.value).sort()).toEqual(["imported-review-value", "imported-secret-value"]);
    } finally {
      process.env = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
