/**
 * ProjectHook and GroupHook through the provider objects Pulumi calls,
 * against the emulator over HTTP: create, refresh, update (a URL change
 * resends the token), replace, delete, import, the preview's refusals, and
 * the secrets (the token, header values, a URL with credentials) kept out of
 * state and messages. A receiver on 127.0.0.1 checks what the hook sends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";
import { startHookReceiver, type HookReceiver } from "../hook-receiver";

const server = useEmulator();
const hook = providers.ProjectHook;
const groupHook = providers.GroupHook;
let receiver: HookReceiver;

beforeAll(async () => {
  await server.configureProviders();
  receiver = await startHookReceiver();
});
afterAll(async () => {
  await receiver.stop();
});

interface LiveHook {
  id: number;
  url: string;
  name: string | null;
  push_events: boolean;
  merge_requests_events: boolean;
  custom_headers?: { key: string }[];
}

const inputs = (overrides: Record<string, unknown> = {}) => ({
  project: "acme/web",
  url: receiver.url,
  name: `hook-${Math.random().toString(36).slice(2, 8)}`,
  token: "first-token-value",
  mergeRequestsEvents: true,
  ...overrides,
});

async function createHook(overrides: Record<string, unknown> = {}, provider = hook) {
  const checked = await provider.check({}, inputs(overrides));
  expect(checked.failures ?? []).toEqual([]);
  const created = await provider.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Record<string, unknown>, outs: created.outs as Record<string, unknown> };
}

const live = (id: string) => server.as().get<LiveHook>("/" + id);
/** Fires the hook's test push event and returns what the receiver got. */
async function testDelivery(id: string) {
  const next = receiver.next();
  await server.as().post(`/${id}/test/push_events`, {});
  return next;
}

describe("check (preview)", () => {
  it("refuses a URL that is not http(s), a bad branch filter, a filter with all_branches and a bad header, naming the property", async () => {
    const reasons = async (overrides: Record<string, unknown>) => ((await hook.check({}, inputs(overrides))).failures ?? []).map((failure) => failure.reason);
    expect(await reasons({ url: "ftp://example.test/x" })).toEqual([expect.stringMatching(/^url: must be an http\(s\) URL/)]);
    expect(await reasons({ branchFilterStrategy: "regex", pushEventsBranchFilter: "(" })).toEqual([expect.stringMatching(/^pushEventsBranchFilter: must be a valid regular expression/)]);
    expect(await reasons({ branchFilterStrategy: "all_branches", pushEventsBranchFilter: "main" })).toEqual([expect.stringMatching(/^pushEventsBranchFilter: must not be set with branchFilterStrategy all_branches/)]);
    expect(await reasons({ pushEventsBranchFilter: "bad branch" })).toEqual([expect.stringMatching(/^pushEventsBranchFilter: must be a branch name/)]);
    expect(await reasons({ customHeaders: { "bad header": "x" } })).toEqual([expect.stringMatching(/customHeaders/)]);
    expect(await reasons({ token: "two\nlines" })).toEqual([expect.stringMatching(/^token: must not contain a line break/)]);
  });

  it("with verification, refuses a Developer (project hooks need Maintainer) and a group on Free, before any write", async () => {
    await server.configureProviders("dev", { "platform:verifyAtPreview": "true" });
    try {
      const requests = await server.requestsDuring(async () => {
        const refused = await hook.check({}, inputs());
        expect(refused.failures?.[0]?.reason).toMatch(/at least the Maintainer role on project acme\/web/);
      });
      expect(requests.every((request) => request.method === "GET")).toBe(true);
    } finally {
      await server.configureProviders();
    }
    await server.configureProviders("alice", { "platform:verifyAtPreview": "true" });
    try {
      const { project: _project, ...rest } = inputs();
      const refused = await groupHook.check({}, { ...rest, group: "beta" });
      expect(refused.failures?.[0]?.reason).toMatch(/Premium or Ultimate/);
    } finally {
      await server.configureProviders();
    }
  });
});

describe("lifecycle", () => {
  it("create sends one request; the token is in state as applied but never in the server's answers", async () => {
    let created: Awaited<ReturnType<typeof createHook>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await createHook();
    });
    expect(requests).toEqual([{ method: "POST", path: "/api/v4/projects/acme%2Fweb/hooks", status: 201 }]);
    const onServer = await live(created!.id);
    expect(created!.id).toBe(`projects/acme%2Fweb/hooks/${onServer.id}`);
    expect(created!.outs).toMatchObject({ hookId: onServer.id, alertStatus: "executable", disabledUntil: null, mergeRequestsEvents: true, token: "first-token-value" });
    expect(JSON.stringify(onServer)).not.toContain("first-token-value");
    expect((await testDelivery(created!.id)).headers["x-gitlab-token"]).toBe("first-token-value");
  });

  it("diff against its own state shows no change and sends nothing; refresh keeps the write-only token", async () => {
    const { id, inputs: declared, outs } = await createHook({ customHeaders: { "X-Receiver-Key": "header-secret" } });
    const requests = await server.requestsDuring(async () => {
      expect(await hook.diff(id, outs, declared)).toMatchObject({ changes: false, replaces: [] });
    });
    expect(requests).toEqual([]);
    const refreshed = await hook.read(id, outs);
    expect(refreshed.props).toMatchObject({ token: "first-token-value", customHeaders: { "X-Receiver-Key": "header-secret" } });
    expect(await hook.diff(id, refreshed.props!, declared)).toMatchObject({ replaces: [] });
    expect((await hook.diff(id, refreshed.props!, declared)).changes).not.toBe(true);
  });

  it("an event switch change updates in place with one request carrying only the change", async () => {
    const { id, inputs: declared, outs } = await createHook();
    const changed = { ...declared, pushEvents: false };
    expect(await hook.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(() => hook.update(id, outs, changed));
    expect(requests).toEqual([{ method: "PUT", path: "/api/v4/" + id, status: 200 }]);
    expect((await live(id)).push_events).toBe(false);
  });

  it("a changed URL resends the token and the custom headers, which the server would drop", async () => {
    const { id, inputs: declared, outs } = await createHook({ customHeaders: { "X-Receiver-Key": "kept" } });
    const changed = { ...declared, url: `${receiver.url}?moved=1` };
    const updated = await hook.update(id, outs, changed);
    const delivery = await testDelivery(id);
    expect(delivery.path).toBe("/hook?moved=1");
    expect(delivery.headers).toMatchObject({ "x-gitlab-token": "first-token-value", "x-receiver-key": "kept" });
    expect(updated.outs).toMatchObject({ url: `${receiver.url}?moved=1` });
  });

  it("a changed token updates in place and is named as a secret change; a header no longer declared is removed", async () => {
    const { id, inputs: declared, outs } = await createHook({ customHeaders: { "X-One": "1", "X-Two": "2" } });
    const changed = { ...declared, token: "second-token-value", customHeaders: { "X-One": "1" } };
    // A secret change: the engine compares the values itself (changes unknown to the CLI's diff).
    expect(await hook.diff(id, outs, changed)).toMatchObject({ replaces: [] });
    await hook.update(id, outs, changed);
    expect((await live(id)).custom_headers).toEqual([{ key: "X-One" }]);
    const delivery = await testDelivery(id);
    expect(delivery.headers["x-gitlab-token"]).toBe("second-token-value");
    expect(delivery.headers["x-two"]).toBeUndefined();
  });

  it("a different project replaces the hook", async () => {
    const { id, inputs: declared, outs } = await createHook();
    expect(await hook.diff(id, outs, { ...declared, project: "acme/api" })).toMatchObject({ changes: true, replaces: ["project"] });
  });

  it("refresh shows an out-of-band change and drops a hook deleted out of band", async () => {
    const { id, inputs: declared, outs } = await createHook();
    await server.as().put(`/${id}`, { merge_requests_events: false });
    const refreshed = await hook.read(id, outs);
    expect(refreshed.props).toMatchObject({ mergeRequestsEvents: false, token: "first-token-value" });
    expect(await hook.diff(id, refreshed.props!, declared)).toMatchObject({ changes: true });
    await server.as().delete(`/${id}`);
    expect(await hook.read(id, outs)).toEqual({ id: "" });
  });

  it("a refresh that finds credentials put into the URL outside the program keeps them out of the recorded inputs", async () => {
    const { id, inputs: declared, outs } = await createHook();
    const withCredentials = receiver.url.replace("http://", "http://someone:oob-password@");
    await server.as().put(`/${id}`, { url: withCredentials });
    const refreshed = await hook.read(id, { ...outs, ...declared });
    expect(refreshed.props).toMatchObject({ url: withCredentials });
    expect(JSON.stringify(refreshed.inputs)).not.toContain("oob-password");
    // The outputs (secret as a whole) carry the change: the next diff puts the declared URL back.
    expect(await hook.diff(id, refreshed.props!, declared)).toMatchObject({ replaces: [] });
    expect((await hook.diff(id, refreshed.props!, declared)).changes).not.toBe(false);
  });

  it("delete removes it with one request; deleting it again succeeds", async () => {
    const { id, outs } = await createHook();
    const requests = await server.requestsDuring(() => hook.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: "/api/v4/" + id, status: 204 }]);
    await expect(hook.delete(id, outs)).resolves.toBeUndefined();
  });

  it("a group hook works the same way and hears of its projects' events", async () => {
    const { project: _project, ...rest } = inputs({ pushEvents: true });
    const checked = await groupHook.check({}, { ...rest, group: "acme" });
    expect(checked.failures ?? []).toEqual([]);
    const { id, outs } = await groupHook.create(checked.inputs);
    expect(id).toMatch(/^groups\/acme\/hooks\/\d+$/);
    const next = receiver.next();
    await server.as().post(apiPath`/projects/${"acme/web"}/repository/commits`, {
      branch: "main",
      commit_message: "For the group hook",
      actions: [{ action: "create", file_path: `group-hook-${Date.now()}.txt`, content: "x" }],
    });
    await server.emulator.runDueWork();
    expect((await next).body).toMatchObject({ object_kind: "push", project: { path_with_namespace: "acme/web" } });
    await groupHook.delete(id, outs);
  });
});

describe("secrets", () => {
  it("a URL with credentials and the header values never appear in a refused request's message", async () => {
    const url = "https://hook-user:url-password-123@127.0.0.1:1/hook?token=query-token-456";
    const checked = await hook.check({}, inputs({ project: "acme/nope", url, customHeaders: { "X-Key": "header-value-789" } }));
    const error = await hook.create(checked.inputs).then(
      () => undefined,
      (failure: Error) => failure,
    );
    expect(error?.message).toMatch(/acme\/nope/);
    for (const secret of ["url-password-123", "query-token-456", "header-value-789", "first-token-value"]) expect(error?.message).not.toContain(secret);
  });
});

describe("import", () => {
  it("the import option takes over a hook; its token cannot be read, so the declared one is sent at the takeover", async () => {
    const existing = await server.as().post<LiveHook>(apiPath`/projects/${"acme/web"}/hooks`, { url: receiver.url, name: "by-hand", token: "unknown-token" });
    const id = `projects/acme%2Fweb/hooks/${existing.id}`;
    const checked = await hook.check({}, { ...inputs({ name: "by-hand", token: "declared-token" }), __engine: { importId: id } });
    expect(checked.failures ?? []).toEqual([]);
    const taken = await hook.create(checked.inputs);
    expect(taken.id).toBe(id);
    expect(JSON.stringify(taken.outs)).not.toContain("unknown-token");
    expect((await testDelivery(id)).headers["x-gitlab-token"]).toBe("declared-token");
    const refused = await hook.check({}, { ...inputs(), __engine: { importId: "groups/acme/hooks/1" } });
    await expect(hook.create(refused.inputs)).rejects.toThrow(/of the form projects\/<project>\/hooks\/<id>/);
  });

  it("a lost answer to the POST does not create a second hook", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/hooks$/, sequence: ["commit-then-error"] }] });
    try {
      const { id, inputs: declared } = await createHook({ name: "lost-once" });
      const all = await server.as().list<LiveHook>(apiPath`/projects/${"acme/web"}/hooks`);
      expect(all.filter((one) => one.name === declared.name).map((one) => one.id)).toEqual([Number(id.split("/").at(-1))]);
    } finally {
      server.emulator.clearFaults();
    }
  });
});
