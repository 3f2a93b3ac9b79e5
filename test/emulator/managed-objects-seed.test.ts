/**
 * The seed sections of badges, integrations, pipeline schedules and virtual
 * registries: what they make (read back over HTTP), and how a bad one is
 * refused, naming the place.
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, stateFromSeed, type Seed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const seed: Seed = {
  ...defaultSeed,
  badges: {
    groups: { acme: [{ name: "chat", linkUrl: "https://chat.example.test/%{group_name}", imageUrl: "https://img.example.test/chat.svg" }] },
    projects: { "acme/web": [{ linkUrl: "https://ci.example.test/%{project_path}", imageUrl: "https://ci.example.test/%{default_branch}.svg" }] },
  },
  integrations: { acme: [{ slug: "slack", properties: { webhook: "https://hooks.example.test/x", channel: "#ops" }, events: { push_events: false } }, { slug: "redmine", active: false }] },
  pipelineSchedules: {
    "acme/web": [{ description: "Nightly", ref: "main", cron: "0 2 * * *", owner: "maintainer", variables: [{ key: "A", value: "1" }], inputs: [{ name: "mode", value: "full" }], pipelines: [{ status: "failed" }, {}] }],
  },
  virtualRegistries: {
    acme: {
      upstreams: [{ name: "Hub", url: "https://registry-1.docker.io", username: "u", password: "p" }, { name: "Loose", url: "https://loose.example.test" }],
      registries: [{ name: "containers", upstreams: ["Hub"] }],
    },
  },
};
const server = useEmulator({ seed });

describe("what the sections make", () => {
  it("badges: the group's first, then the project's, rendered", async () => {
    const { body } = await call(server.emulator, "/projects/acme%2Fweb/badges");
    expect(body.map((b: { kind: string; rendered_link_url: string }) => [b.kind, b.rendered_link_url])).toEqual([
      ["group", "https://chat.example.test/Acme"],
      ["project", "https://ci.example.test/acme/web"],
    ]);
  });

  it("integrations: active ones listed, the disabled one found inactive, secrets kept back", async () => {
    expect((await call(server.emulator, "/groups/acme/integrations")).body.map((i: { slug: string }) => i.slug)).toEqual(["slack"]);
    const slack = (await call(server.emulator, "/groups/acme/integrations/slack")).body;
    expect(slack).toMatchObject({ push_events: false, properties: { channel: "#ops" } });
    expect(slack.properties).not.toHaveProperty("webhook");
    expect((await call(server.emulator, "/groups/acme/integrations/redmine")).body).toMatchObject({ active: false, properties: {} });
  });

  it("pipeline schedules: full ref, variables, inputs, past pipelines with the last as last_pipeline", async () => {
    const [listed] = (await call(server.emulator, "/projects/acme%2Fweb/pipeline_schedules")).body;
    const { body } = await call(server.emulator, `/projects/acme%2Fweb/pipeline_schedules/${listed.id}`);
    expect(body).toMatchObject({ ref: "refs/heads/main", owner: { username: "maintainer" }, variables: [{ key: "A", value: "1", variable_type: "env_var" }], inputs: [{ name: "mode", value: "full" }], last_pipeline: { status: "success" } });
    const pipelines = (await call(server.emulator, `/projects/acme%2Fweb/pipeline_schedules/${listed.id}/pipelines`)).body;
    expect(pipelines.map((p: { status: string }) => p.status)).toEqual(["failed", "success"]);
  });

  it("virtual registries: linked and unlinked upstreams, no password shown", async () => {
    const [registry] = (await call(server.emulator, "/groups/acme/-/virtual_registries/container/registries")).body;
    expect((await call(server.emulator, `/virtual_registries/container/registries/${registry.id}/upstreams`)).body.map((u: { name: string }) => u.name)).toEqual(["Hub"]);
    const all = (await call(server.emulator, "/groups/acme/-/virtual_registries/container/upstreams")).body;
    expect(all.map((u: { name: string; username: string | null }) => [u.name, u.username])).toEqual([["Hub", "u"], ["Loose", null]]);
    expect(JSON.stringify(all)).not.toContain('"p"');
  });
});

describe("bad sections are refused, naming the place", () => {
  const refused = (section: Record<string, unknown>) => () => stateFromSeed({ ...defaultSeed, ...section });

  it("badges", () => {
    expect(refused({ badges: { projects: { "acme/nope": [] } } })).toThrow(/badges\.projects\["acme\/nope"\]: unknown project/);
    expect(refused({ badges: { groups: { acme: [{ linkUrl: "ftp://x", imageUrl: "https://x.test/i.svg" }] } } })).toThrow(/badges\.groups\["acme"\]\[0\]\.linkUrl: must be an http\(s\) URL/);
    expect(refused({ badges: { users: {} } })).toThrow(/badges: unknown key\(s\) users/);
  });

  it("integrations", () => {
    expect(refused({ integrations: { acme: [{ slug: "jenkins" }] } })).toThrow(/integrations\["acme"\]\[0\]\.slug: must be a group integration/);
    expect(refused({ integrations: { acme: [{ slug: "slack", properties: {} }] } })).toThrow(/integrations\["acme"\]\[0\]\.properties\["webhook"\]: is required by slack/);
    expect(refused({ integrations: { acme: [{ slug: "slack", properties: { webhook: "https://h.test", colour: "red" } }] } })).toThrow(/integrations\["acme"\]\[0\]\.properties\["colour"\]: is not a setting of slack/);
    expect(refused({ integrations: { acme: [{ slug: "asana", properties: { api_key: "k" } }, { slug: "asana", properties: { api_key: "k" } }] } })).toThrow(/asana is configured twice/);
  });

  it("pipeline schedules", () => {
    const base = { description: "x", ref: "main", cron: "0 2 * * *", owner: "alice" };
    expect(refused({ pipelineSchedules: { "acme/web": [{ ...base, owner: "nobody" }] } })).toThrow(/pipelineSchedules\["acme\/web"\]\[0\]\.owner: unknown user nobody/);
    expect(refused({ pipelineSchedules: { "acme/web": [{ ...base, ref: "stable" }] } })).toThrow(/the ref must name one branch or tag of acme\/web/);
    expect(refused({ pipelineSchedules: { "acme/web": [{ ...base, cron: "every day" }] } })).toThrow(/cron and cronTimezone must be valid/);
    expect(refused({ pipelineSchedules: { "acme/web": [{ ...base, variables: [{ key: "BAD-KEY", value: "v" }] }] } })).toThrow(/variables\[0\]\.key: must be 1 to 255 of A-Z a-z 0-9 _/);
    expect(refused({ pipelineSchedules: { "acme/web": [{ ...base, pipelines: [{ status: "green" }] }] } })).toThrow(/pipelines\[0\]\.status: must be one of/);
  });

  it("virtual registries", () => {
    const upstream = (i: number) => ({ name: `u${i}`, url: `https://u${i}.example.test` });
    expect(refused({ virtualRegistries: { "acme/platform": {} } })).toThrow(/exist only on top-level groups/);
    expect(refused({ virtualRegistries: { acme: { registries: Array.from({ length: 6 }, (_, i) => ({ name: `r${i}` })) } } })).toThrow(/at most 5 registries/);
    expect(refused({ virtualRegistries: { acme: { upstreams: [1, 2, 3, 4, 5, 6].map(upstream), registries: [{ name: "r", upstreams: ["u1", "u2", "u3", "u4", "u5", "u6"] }] } } })).toThrow(
      /registries\[0\]\.upstreams: .*must be less than or equal to 5/,
    );
    expect(refused({ virtualRegistries: { acme: { upstreams: [{ name: "local", url: "http://localhost:5000" }] } } })).toThrow(/upstreams\[0\]: .*Requests to localhost are not allowed/);
    expect(refused({ virtualRegistries: { acme: { registries: [{ name: "r", upstreams: ["ghost"] }] } } })).toThrow(/no upstream named ghost/);
  });
});
