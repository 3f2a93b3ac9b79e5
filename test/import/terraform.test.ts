/**
 * `platform-import --from-terraform`: a state of the GitLab Terraform
 * provider (format version 4, written here from the provider's documented
 * schema of version 16 and later: resource types, attributes and the ids its
 * import takes) becomes the same declarations, with the same imports, as a
 * run over the estate finds for those objects; what the package does not
 * manage is skipped, each said.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src/client";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { readEstate, readTargets } from "../../src/import/read";
import { targetsOfState } from "../../src/import/terraform";
import { main } from "../../src/import/cli";

const PROVIDER = 'provider["registry.terraform.io/gitlabhq/gitlab"]';

/** One managed resource of a version 4 state, as Terraform writes it. */
const resource = (type: string, name: string, attributes: Record<string, unknown>, sensitive: string[] = []) => ({
  mode: "managed",
  type,
  name,
  provider: PROVIDER,
  instances: [{ schema_version: 0, attributes, sensitive_attributes: sensitive.map((attribute) => [{ type: "get_attr", value: attribute }]), private: "bnVsbA==" }],
});

const stateOf = (resources: unknown[]) => JSON.stringify({ version: 4, terraform_version: "1.9.8", serial: 7, lineage: "5f1c0a34-8a8e-4d1b-9c64-1b6a0f0e2a11", outputs: {}, resources, check_results: null }, null, 2);

describe("platform-import --from-terraform", () => {
  let emulator: Emulator;
  let api: PlatformClient;
  let state: string;
  let dir: string;
  let webId = 0;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
    const groupBadge = await api.post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, { name: "coverage", link_url: "https://ci.example.com/%{project_path}", image_url: "https://ci.example.com/c.svg" });
    const projectBadge = await api.post<{ id: number }>(apiPath`/projects/${"acme/web"}/badges`, { name: "docs", link_url: "https://docs.example.com", image_url: "https://docs.example.com/d.svg" });
    const schedule = await api.post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: "Nightly", ref: "main", cron: "0 2 * * *" });
    await api.post(apiPath`/projects/${"acme/web"}/pipeline_schedules/${schedule.id}/variables`, { key: "DEPLOY_ENV", value: "staging" });
    await api.post(apiPath`/groups/${"acme"}/saml_group_links`, { saml_group_name: "platform:developers", access_level: 30 });
    await api.put(apiPath`/groups/${"acme"}/integrations/mattermost`, { webhook: "https://chat.example.com/hooks/tf-secret-hook", channel: "builds" });
    const projectHook = await api.post<{ id: number }>(apiPath`/projects/${"acme/web"}/hooks`, { url: "https://ci.example.com/hooks", name: "ci", token: "tf-hook-token" });
    const groupHook = await api.post<{ id: number }>(apiPath`/groups/${"acme"}/hooks`, { url: "https://audit.example.com/hooks", name: "audit", member_events: true });
    await api.post(apiPath`/projects/${"acme/web"}/protected_tags`, { name: "v*", create_access_level: 40 });
    const review = await api.post<{ id: number }>(apiPath`/projects/${"acme/web"}/approval_rules`, { name: "review", approvals_required: 2 });
    await api.post(apiPath`/projects/${"acme/web"}/protected_environments`, { name: "production", deploy_access_levels: [{ access_level: 40 }] });
    await api.post(apiPath`/groups/${"acme"}/protected_environments`, { name: "production", deploy_access_levels: [{ access_level: 40 }], approval_rules: [{ access_level: 40, required_approvals: 2 }] });
    const acme = await api.get<{ id: number }>(apiPath`/groups/${"acme"}`);
    const platform = await api.get<{ id: number }>(apiPath`/groups/${"acme/platform"}`);
    const web = await api.get<{ id: number }>(apiPath`/projects/${"acme/web"}`);
    webId = web.id;
    state = stateOf([
      resource("gitlab_group", "platform", { id: String(platform.id), name: "Platform", path: "platform", full_path: "acme/platform", visibility_level: "private", parent_id: acme.id }),
      resource("gitlab_group_badge", "coverage", { id: `${acme.id}:${groupBadge.id}`, group: String(acme.id), link_url: "https://ci.example.com/%{project_path}", image_url: "https://ci.example.com/c.svg", name: "coverage", rendered_link_url: "", rendered_image_url: "" }),
      resource("gitlab_project_badge", "docs", { id: `${web.id}:${projectBadge.id}`, project: String(web.id), link_url: "https://docs.example.com", image_url: "https://docs.example.com/d.svg", name: "docs" }),
      resource("gitlab_pipeline_schedule", "nightly", { id: `${web.id}:${schedule.id}`, project: String(web.id), description: "Nightly", ref: "refs/heads/main", cron: "0 2 * * *", cron_timezone: "UTC", active: true, pipeline_schedule_id: schedule.id, take_ownership: false }),
      resource("gitlab_pipeline_schedule_variable", "env", { id: `${web.id}:${schedule.id}:DEPLOY_ENV`, project: String(web.id), pipeline_schedule_id: schedule.id, key: "DEPLOY_ENV", value: "staging", variable_type: "env_var" }),
      // The group's path, as a state may hold it; the SAML group name holds a colon.
      resource("gitlab_group_saml_link", "developers", { id: "acme:platform:developers", group: "acme", saml_group_name: "platform:developers", access_level: "developer", member_role_id: null }),
      // The default branch's rule, made with the project; a tag rule with a wildcard.
      resource("gitlab_branch_protection", "main", { id: `${web.id}:main`, project: String(web.id), branch: "main", push_access_level: "maintainer", merge_access_level: "maintainer", allow_force_push: false }),
      resource("gitlab_project_approval_rule", "review", { id: `${web.id}:${review.id}`, project: String(web.id), name: "review", approvals_required: 2 }),
      resource("gitlab_tag_protection", "releases", { id: `${web.id}:v*`, project: String(web.id), tag: "v*", create_access_level: "maintainer" }),
      resource("gitlab_project_protected_environment", "production", { id: `${web.id}:production`, project: String(web.id), environment: "production", deploy_access_levels: [{ access_level: "maintainer" }] }),
      resource("gitlab_group_protected_environment", "production", { id: `${acme.id}:production`, group: String(acme.id), environment: "production", deploy_access_levels: [{ access_level: "maintainer" }] }),
      resource("gitlab_group_integration_mattermost", "chat", { id: String(acme.id), group: String(acme.id), webhook: "https://chat.example.com/hooks/tf-secret-hook", channel: "builds" }, ["webhook"]),
      resource("gitlab_project_hook", "ci", { id: `${web.id}:${projectHook.id}`, project: String(web.id), hook_id: projectHook.id, url: "https://ci.example.com/hooks", token: "tf-hook-token" }, ["token"]),
      resource("gitlab_group_hook", "audit", { id: `${acme.id}:${groupHook.id}`, group: String(acme.id), hook_id: groupHook.id, url: "https://audit.example.com/hooks", member_events: true }),
      resource("gitlab_integration_slack", "project_chat", { id: String(web.id), project: String(web.id), webhook: "https://hooks.slack.example/x" }, ["webhook"]),
      resource("gitlab_project", "web", { id: String(web.id), name: "Web" }),
      resource("gitlab_pages_domain", "x\nplatform-import: 0 objects\u001b[2J", { id: "1" }),
      { mode: "data", type: "gitlab_group", name: "lookup", provider: PROVIDER, instances: [{ schema_version: 0, attributes: { id: String(acme.id) } }] },
    ]);
    dir = mkdtempSync(path.join(tmpdir(), "platform-import-tf-"));
  });

  afterAll(async () => {
    await closeAllPools();
    await emulator?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("names each object by the id the provider's import takes, and says what the package does not manage", () => {
    const { targets, skipped } = targetsOfState(state);
    expect(targets.map((target) => [target.kind, target.owner?.kind, target.key])).toEqual([
      ["Group", "group", expect.any(Number)],
      ["Badge", "group", expect.any(Number)],
      ["Badge", "project", expect.any(Number)],
      ["PipelineSchedule", "project", expect.any(Number)],
      ["SamlGroupLink", "group", "platform:developers"],
      ["ProtectedBranch", "project", "main"],
      ["ApprovalRule", "project", expect.any(Number)],
      ["ProtectedTag", "project", "v*"],
      ["ProtectedEnvironment", "project", "production"],
      ["GroupProtectedEnvironment", "group", "production"],
      ["GroupIntegration", "group", "mattermost"],
      ["ProjectHook", "project", expect.any(Number)],
      ["GroupHook", "group", expect.any(Number)],
      ["Project", "project", String(webId)],
    ]);
    expect(targets.find((target) => target.kind === "SamlGroupLink")).toEqual({ kind: "SamlGroupLink", owner: { kind: "group", ref: "acme" }, key: "platform:developers", said: { accessLevel: "developer" } });
    expect(skipped.map((skip) => `${skip.what}: ${skip.why}`)).toEqual([
      expect.stringMatching(/^gitlab_pipeline_schedule_variable\.env: schedule variables are left unmanaged/),
      expect.stringMatching(/^gitlab_integration_slack\.project_chat: a project's integration/),
      expect.stringMatching(/^gitlab_pages_domain\.x\n/),
    ]);
    expect(() => targetsOfState('{"version": 3, "modules": []}')).toThrow(/format version 4/);
    expect(() => targetsOfState("not json")).toThrow(/not JSON/);
  });

  it("becomes the same declarations, with the same imports, as a run over the estate finds for those objects", async () => {
    const fromState = await readTargets(api, targetsOfState(state).targets);
    const estate = await readEstate(api, { group: "acme", projects: ["acme/web"], instance: false, exclusive: false });
    const keys = new Set(fromState.declarations.map((declaration) => declaration.key));
    expect(keys.size).toBe(14);
    expect(fromState.declarations.sort((a, b) => a.key.localeCompare(b.key))).toEqual(estate.declarations.filter((declaration) => keys.has(declaration.key)).sort((a, b) => a.key.localeCompare(b.key)));
    // Each run lists them in the order it read the owners and kinds; the program sorts them.
    const sorted = (secrets: { key: string; property: string }[]) => [...secrets].sort((a, b) => `${a.key} ${a.property}`.localeCompare(`${b.key} ${b.property}`));
    expect(sorted(fromState.secrets)).toEqual(sorted(estate.secrets));
  });

  it("keeps every SAML group link of one name under several providers, and names the one it cannot place; the run goes on", async () => {
    // The state's id is `group:name`: the server answers a read of a name two providers share with 422.
    for (const [name, provider, level] of [["devs", "okta", 30], ["devs", "entra", 40], ["ops", "okta", 20], ["ops", "entra", 20], ["leads", "okta", 40], ["leads", "entra", 30]] as const) {
      await api.post(apiPath`/groups/${"acme"}/saml_group_links`, { saml_group_name: name, access_level: level, provider });
    }
    const acme = await api.get<{ id: number }>(apiPath`/groups/${"acme"}`);
    const link = (name: string, resourceName: string, accessLevel: string) => resource("gitlab_group_saml_link", resourceName, { id: `${acme.id}:${name}`, group: String(acme.id), saml_group_name: name, access_level: accessLevel, member_role_id: null });
    const extraBadge = await api.post<{ id: number }>(apiPath`/groups/${"acme"}/badges`, { name: "extra", link_url: "https://ci.example.com/extra", image_url: "https://ci.example.com/extra.svg" });
    const twoProviders = stateOf([
      // Both links named devs, each a resource of the state: both declared.
      link("devs", "devs_okta", "developer"),
      link("devs", "devs_entra", "maintainer"),
      // One of the two leads links: its role tells which.
      link("leads", "leads", "maintainer"),
      // One of the two ops links, of one role: it cannot be placed.
      link("ops", "ops", "reporter"),
      resource("gitlab_group_badge", "extra", { id: `${acme.id}:${extraBadge.id}`, group: String(acme.id) }),
    ]);
    const estate = await readTargets(api, targetsOfState(twoProviders).targets);
    const links = estate.declarations.filter((declaration) => declaration.kind === "SamlGroupLink");
    expect(links.map((declaration) => declaration.importId).sort()).toEqual([
      `groups/${acme.id}/saml_group_links/devs?provider=entra`,
      `groups/${acme.id}/saml_group_links/devs?provider=okta`,
      `groups/${acme.id}/saml_group_links/leads?provider=okta`,
    ]);
    expect(links.find((declaration) => declaration.importId.endsWith("leads?provider=okta"))?.args).toMatchObject({ samlGroupName: "leads", accessLevel: 40, provider: "okta" });
    expect(estate.declarations.some((declaration) => declaration.kind === "Badge")).toBe(true);
    expect(estate.skipped).toEqual([{ where: "acme", what: 'SAML group link "ops"', why: expect.stringMatching(/^the group holds 2 links of this name \("entra", "okta"\), the state's id names no provider/) }]);
    // The same as a run over the group declares for those links.
    const overGroup = await readEstate(api, { group: "acme", projects: [], instance: false, exclusive: false });
    const ofGroup = new Map(overGroup.declarations.map((declaration) => [declaration.key, declaration]));
    for (const declaration of links) expect(declaration).toEqual(ofGroup.get(declaration.key));
  });

  it("the command writes the program, never the state's secret values, and lists what it skipped", async () => {
    const file = path.join(dir, "terraform.tfstate");
    writeFileSync(file, state);
    const saved = { url: process.env.PLATFORM_URL, token: process.env.PLATFORM_TOKEN };
    process.env.PLATFORM_URL = emulator.url;
    process.env.PLATFORM_TOKEN = emulator.tokens.root!;
    const out: string[] = [];
    const errors: string[] = [];
    try {
      expect(await main(["--from-terraform", file, "--out", path.join(dir, "program"), "--quiet"], (text) => out.push(text), (text) => errors.push(text))).toBe(0);
      expect(await main(["--from-terraform", file, "--group", "acme", "--out", path.join(dir, "other")], () => undefined, (text) => errors.push(text))).toBe(2);
    } finally {
      process.env.PLATFORM_URL = saved.url;
      process.env.PLATFORM_TOKEN = saved.token;
    }
    const summary = out.join("");
    expect(summary).toMatch(/^  Badge: 2$/m);
    expect(summary).toContain("gitlab_integration_slack.project_chat");
    // A name from the state stays on its line: control characters are escaped.
    expect(summary).toContain("gitlab_pages_domain.x\\u000Aplatform-import: 0 objects\\u001B[2J: the package does not manage this kind");
    expect(summary.split("\n").filter((line) => line.startsWith("platform-import:"))).toHaveLength(1);
    expect(summary).toContain("pulumi config set --secret acmeIntegrationMattermostWebhook");
    const group = readFileSync(path.join(dir, "program/groups/acme.ts"), "utf8");
    expect(group).toContain('samlGroupName: "platform:developers"');
    expect(group).not.toContain("tf-secret-hook");
    expect(errors.join("")).toMatch(/--from-terraform takes its objects from the state/);
  });

  it("labels: gitlab_project_label and gitlab_group_label by owner and name (a scoped name holds colons), gitlab_label as a project's, an older state's bare name from its attributes", async () => {
    const group = await api.post<{ id: number }>(apiPath`/groups/${"acme"}/labels`, { name: "devops::create", color: "#ffa500" });
    const web = await api.post<{ id: number }>(apiPath`/projects/${"acme/web"}/labels`, { name: "fixme", color: "#ffcc00", description: "failing tests" });
    const api2 = await api.post<{ id: number }>(apiPath`/projects/${"acme/api"}/labels`, { name: "legacy", color: "red" });
    const labels = stateOf([
      resource("gitlab_group_label", "create", { id: "acme:devops::create", group: "acme", name: "devops::create", color: "#ffa500" }),
      resource("gitlab_project_label", "fixme", { id: "acme/web:fixme", project: "acme/web", name: "fixme", color: "#ffcc00" }),
      resource("gitlab_label", "legacy", { id: "legacy", project: "acme/api", name: "legacy", color: "red" }),
      resource("gitlab_project_label", "gone", { id: "acme/web:not-there", project: "acme/web", name: "not-there", color: "red" }),
    ]);
    const { targets } = targetsOfState(labels);
    expect(targets.map((target) => [target.kind, target.owner, target.key])).toEqual([
      ["Label", { kind: "group", ref: "acme" }, "devops::create"],
      ["Label", { kind: "project", ref: "acme/web" }, "fixme"],
      ["Label", { kind: "project", ref: "acme/api" }, "legacy"],
      ["Label", { kind: "project", ref: "acme/web" }, "not-there"],
    ]);
    const read = await readTargets(api, targets);
    // Each the label its owner holds under that name, by the id the Label resource's import takes; the one not there is said.
    expect(read.declarations.map((declaration) => declaration.key.replace(/\/\d+\/labels\//, "/<owner>/labels/")).sort()).toEqual(
      [`Label groups/<owner>/labels/${group.id}`, `Label projects/<owner>/labels/${web.id}`, `Label projects/<owner>/labels/${api2.id}`].sort(),
    );
    expect(read.skipped.map((skip) => `${skip.what}: ${skip.why}`)).toContainEqual(expect.stringMatching(/label not-there: not a label of project acme\/web/));
  });
});

describe("platform-import --from-terraform: CI/CD variables", () => {
  let emulator: Emulator;
  let api: PlatformClient;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
    await api.post(apiPath`/projects/${"acme/web"}/variables`, { key: "DEPLOY_TOKEN", value: "tf-secret-value", environment_scope: "production" });
    await api.post(apiPath`/projects/${"acme/web"}/variables`, { key: "DEPLOY_TOKEN", value: "tf-review-value", environment_scope: "review/*" });
    await api.post(apiPath`/groups/${"acme"}/variables`, { key: "MIRROR", value: "tf-group-value" });
  });
  afterAll(async () => {
    await closeAllPools();
    await emulator?.stop();
  });

  it("names a variable by its owner, key and scope, and becomes the declaration a run over the estate finds", async () => {
    const web = await api.get<{ id: number }>(apiPath`/projects/${"acme/web"}`);
    const state = stateOf([
      resource("gitlab_project_variable", "deploy", { id: `${web.id}:DEPLOY_TOKEN:review/*`, key: "DEPLOY_TOKEN", value: "tf-review-value" }, ["value"]),
      resource("gitlab_group_variable", "mirror", { id: "acme:MIRROR:*", key: "MIRROR", value: "tf-group-value" }, ["value"]),
      resource("gitlab_instance_variable", "proxy", { id: "bad key!" }),
    ]);
    const { targets, skipped } = targetsOfState(state);
    expect(targets.map((target) => [target.kind, target.owner?.ref, target.key])).toEqual([
      ["ProjectVariable", String(web.id), "DEPLOY_TOKEN:review/*"],
      ["GroupVariable", "acme", "MIRROR:*"],
    ]);
    expect(skipped.map((skip) => skip.what)).toEqual(["gitlab_instance_variable.proxy"]);
    const fromState = await readTargets(api, targets);
    const estate = await readEstate(api, { group: "acme", projects: ["acme/web"], instance: false, exclusive: false });
    const keys = new Set(fromState.declarations.map((declaration) => declaration.key));
    expect([...keys].sort()).toEqual(["GroupVariable groups/1/variables/MIRROR/*", `ProjectVariable projects/${web.id}/variables/DEPLOY_TOKEN/review%2F*`]);
    expect(fromState.declarations.sort((a, b) => a.key.localeCompare(b.key))).toEqual(estate.declarations.filter((declaration) => keys.has(declaration.key)).sort((a, b) => a.key.localeCompare(b.key)));
  });
});
