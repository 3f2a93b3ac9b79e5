import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { configOf, useEmulator } from "../support";

const server = useEmulator();
const badge = providers.Badge;

interface LiveBadge {
  id: number;
  name: string | null;
  link_url: string;
  image_url: string;
  rendered_link_url: string;
  kind: string;
}

const inputs = (overrides: Record<string, unknown> = {}) => ({
  project: "acme/web",
  name: `badge-${Math.random().toString(36).slice(2, 8)}`,
  linkUrl: "https://ci.example.com/%{project_path}/-/pipelines",
  imageUrl: "https://ci.example.com/%{project_path}/badge.svg?ref=%{default_branch}",
  ...overrides,
});

/** check, then create, as the engine does; returns the id and outputs. */
async function createBadge(overrides: Record<string, unknown> = {}) {
  const checked = await badge.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await badge.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (id: string) => server.as().get<LiveBadge>("/" + id);

beforeAll(async () => {
  await server.configureProviders();
});

describe("check (preview)", () => {
  it("values not yet known at preview are not rejected", async () => {
    const result = await badge.check({}, inputs({ linkUrl: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" }));
    expect(result.failures ?? []).toEqual([]);
  });

  it("a missing URL or token is a clear failure at preview", async () => {
    const saved = { url: process.env.PLATFORM_URL, token: process.env.PLATFORM_TOKEN };
    delete process.env.PLATFORM_URL;
    delete process.env.PLATFORM_TOKEN;
    try {
      await badge.configure({ config: configOf({}) });
      const result = await badge.check({}, inputs());
      expect(result.failures?.[0]?.reason).toMatch(/platform:url/);
      expect(result.failures?.[0]?.reason).toMatch(/platform:token/);
    } finally {
      Object.assign(process.env, Object.fromEntries(Object.entries({ PLATFORM_URL: saved.url, PLATFORM_TOKEN: saved.token }).filter(([, v]) => v)));
      await server.configureProviders();
    }
  });

  it("falls back to PLATFORM_URL and PLATFORM_TOKEN when the stack config has none", async () => {
    process.env.PLATFORM_URL = server.emulator.url;
    process.env.PLATFORM_TOKEN = server.emulator.tokens.root!;
    try {
      await badge.configure({ config: configOf({}) });
      const { id } = await createBadge();
      expect((await live(id)).kind).toBe("project");
      await badge.delete(id, {});
    } finally {
      delete process.env.PLATFORM_URL;
      delete process.env.PLATFORM_TOKEN;
      await server.configureProviders();
    }
  });
});

describe("lifecycle", () => {
  it("create sends one request and records the declared values and the server's outputs", async () => {
    let created: Awaited<ReturnType<typeof createBadge>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createBadge();
    });
    expect(requests).toEqual([{ method: "POST", path: "/api/v4/projects/acme%2Fweb/badges", status: 201 }]);
    const { id, inputs: declared, outs } = created!;
    const onServer = await live(id);
    expect(id).toBe(`projects/acme%2Fweb/badges/${onServer.id}`);
    expect(outs).toMatchObject({
      project: "acme/web",
      name: declared.name,
      linkUrl: declared.linkUrl,
      badgeId: onServer.id,
      kind: "project",
      renderedLinkUrl: "https://ci.example.com/acme/web/-/pipelines",
      renderedImageUrl: "https://ci.example.com/acme/web/badge.svg?ref=main",
    });
    expect(onServer.link_url).toBe(declared.linkUrl);
  });

  it("diff against its own state shows no change (rendered URLs never do) and sends nothing", async () => {
    const { id, inputs: declared, outs } = await createBadge();
    const requests = await server.requestsDuring(async () => {
      expect(await badge.diff(id, outs, declared)).toMatchObject({ changes: false, replaces: [] });
    });
    expect(requests).toEqual([]);
  });

  it("a changed URL or name updates in place with one request carrying only the change", async () => {
    const { id, inputs: declared, outs } = await createBadge();
    const changed = { ...declared, linkUrl: "https://ci.example.com/changed", name: "renamed-" + declared.name };
    expect(await badge.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(async () => {
      const updated = await badge.update(id, outs, changed);
      expect(updated.outs).toMatchObject({ linkUrl: "https://ci.example.com/changed", renderedLinkUrl: "https://ci.example.com/changed" });
    });
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/" + id, status: 200 }]);
    expect((await live(id)).name).toBe(changed.name);
  });

  it("a different owner replaces the badge", async () => {
    const { id, inputs: declared, outs } = await createBadge();
    expect(await badge.diff(id, outs, { ...declared, project: "acme/api" })).toMatchObject({ changes: true, replaces: ["project"] });
    const { project: _project, ...rest } = declared;
    expect(await badge.diff(id, outs, { ...rest, group: "acme" })).toMatchObject({ changes: true, replaces: ["group"] });
  });

  it("refresh returns the live values, so an out-of-band change shows in the next diff", async () => {
    const { id, inputs: declared, outs } = await createBadge();
    await server.as().put(`/${id}`, { link_url: "https://elsewhere.example.com/x" });
    const requests = await server.requestsDuring(async () => {
      const refreshed = await badge.read(id, outs);
      expect(refreshed.id).toBe(id);
      expect(refreshed.props).toMatchObject({ linkUrl: "https://elsewhere.example.com/x", name: declared.name });
      expect(refreshed.inputs).toMatchObject({ linkUrl: "https://elsewhere.example.com/x", project: "acme/web" });
      expect(await badge.diff(id, refreshed.props, declared)).toMatchObject({ changes: true, replaces: [] });
      expect(await badge.diff(id, outs, declared)).toMatchObject({ changes: false });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/" + id, status: 200 }]);
  });

  it("refresh after an out-of-band delete reports the badge gone", async () => {
    const { id, outs } = await createBadge();
    await server.as().delete(`/${id}`);
    expect(await badge.read(id, outs)).toEqual({ id: "" });
  });

  it("refresh with a token that lost access is an error, not a disappearance", async () => {
    const { id, outs } = await createBadge();
    await badge.configure({ config: configOf({ "platform:url": server.emulator.url, "platform:token": "glpat-revoked" }) });
    try {
      await expect(badge.read(id, outs)).rejects.toThrow(/401.*platform:token/);
    } finally {
      await server.configureProviders();
    }
    await badge.configure({ config: configOf({ "platform:url": server.emulator.url, "platform:token": server.emulator.tokens.outsider! }) });
    try {
      await expect(badge.read(id, outs)).rejects.toThrow(/project acme\/web does not exist, or the token's user cannot see it.*pulumi state delete/);
    } finally {
      await server.configureProviders();
    }
  });

  it("delete removes it with one request; deleting it again succeeds", async () => {
    const { id, outs } = await createBadge();
    const requests = await server.requestsDuring(() => badge.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: "/api/v4/" + id, status: 204 }]);
    await expect(live(id)).rejects.toThrow(/404/);
    await expect(badge.delete(id, outs)).resolves.toBeUndefined();
  });

  it("a group badge works the same way and renders from the group's first project", async () => {
    const { id, outs } = await createBadge({ project: undefined, group: "acme" });
    expect(id).toMatch(/^groups\/acme\/badges\/\d+$/);
    expect(outs).toMatchObject({ kind: "group", group: "acme" });
    expect(outs.renderedLinkUrl).toMatch(/^https:\/\/ci\.example\.com\/acme\/[a-z-]+\/-\/pipelines$/);
    await badge.delete(id, outs);
  });

  it("a project badge id never reaches a group badge seen in the project's list", async () => {
    const group = await server.as().post<LiveBadge>(apiPath`/groups/${"acme"}/badges`, { link_url: "https://g.example", image_url: "https://g.example/i.svg", name: "group-only" });
    const asIfProjectBadge = `projects/acme%2Fweb/badges/${group.id}`;
    expect(await badge.read(asIfProjectBadge, {})).toEqual({ id: "" });
    await server.as().delete(apiPath`/groups/${"acme"}/badges/${group.id}`);
  });
});

describe("adoption", () => {
  it("adoptExisting takes over a badge of the same name instead of creating a duplicate", async () => {
    const existing = await server.as().post<LiveBadge>(apiPath`/projects/${"acme/web"}/badges`, { link_url: "https://old.example", image_url: "https://old.example/i.svg", name: "adopt-me" });
    let result: Awaited<ReturnType<typeof createBadge>> | undefined;
    const requests = await server.requestsDuring(async () => {
      result = await createBadge({ name: "adopt-me", adoptExisting: true });
    });
    expect(requests.map((r) => r.method)).toEqual(["GET", "PUT"]);
    expect(result!.id).toBe(`projects/acme%2Fweb/badges/${existing.id}`);
    expect((await live(result!.id)).link_url).toBe(result!.inputs.linkUrl);
    expect(await server.as().list(apiPath`/projects/${"acme/web"}/badges`, { name: "adopt-me" })).toHaveLength(1);
    expect(await badge.diff(result!.id, result!.outs, result!.inputs)).toMatchObject({ changes: false });
  });

  it("an adopted badge that already matches is not updated", async () => {
    const declared = inputs({ name: "already-right" });
    await server.as().post(apiPath`/projects/${"acme/web"}/badges`, { link_url: declared.linkUrl, image_url: declared.imageUrl, name: "already-right" });
    const requests = await server.requestsDuring(() => createBadge({ ...declared, adoptExisting: true }));
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
  });

  it("a group badge in the project's list is never adopted by a project badge", async () => {
    const group = await server.as().post<LiveBadge>(apiPath`/groups/${"acme"}/badges`, { link_url: "https://g.example", image_url: "https://g.example/i.svg", name: "shared-name" });
    const { id } = await createBadge({ name: "shared-name", adoptExisting: true });
    expect(id).not.toBe(`projects/acme%2Fweb/badges/${group.id}`);
    expect((await live(id)).kind).toBe("project");
    expect((await server.as().get<LiveBadge>(apiPath`/groups/${"acme"}/badges/${group.id}`)).link_url).toBe("https://g.example");
  });

  it("with nothing to adopt, it creates", async () => {
    const { id } = await createBadge({ name: "nothing-to-adopt", adoptExisting: true });
    expect((await live(id)).name).toBe("nothing-to-adopt");
  });
});

describe("failures while creating", () => {
  it("a lost response to the POST does not create a second badge", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/badges$/, sequence: ["commit-then-error"] }] });
    const { id, inputs: declared } = await createBadge({ name: "lost-once" });
    const all = await server.as().list<LiveBadge>(apiPath`/projects/${"acme/web"}/badges`, { name: declared.name as string });
    expect(all.map((b) => b.id)).toEqual([Number(id.split("/").at(-1))]);
  });
});
