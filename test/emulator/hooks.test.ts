/**
 * Project and group webhooks: the CRUD rules (roles, tier, write-only
 * token, validation, custom headers), and the delivery of events to a
 * receiver on 127.0.0.1: push and merge request events through the
 * background work, the test endpoint at once, and auto-disabling after
 * repeated failures.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";
import { startHookReceiver, type HookReceiver } from "../hook-receiver";

let offset = 0;
const server = useEmulator({ backgroundWork: "manual", clock: () => Date.now() + offset });
let receiver: HookReceiver;

beforeAll(async () => {
  receiver = await startHookReceiver();
});
afterAll(async () => {
  await receiver.stop();
});
beforeEach(() => {
  receiver.status = 200;
  receiver.received.length = 0;
});

const WEB = "/projects/acme%2Fweb/hooks";
/** Removes the project's hooks, so a test counts only the deliveries of its own. */
async function clearHooks(): Promise<void> {
  for (const hook of (await call(server.emulator, WEB)).body) await call(server.emulator, `${WEB}/${hook.id}`, { method: "DELETE" });
}
const addHook = async (body: Record<string, unknown>, path = WEB, as = "root") => call(server.emulator, path, { method: "POST", body: { url: receiver.url, ...body }, as });

describe("project hooks: reading and writing", () => {
  it("creates a hook with the column defaults and never shows its token", async () => {
    const created = await addHook({ token: "s3cret", name: "ci", merge_requests_events: true, custom_headers: [{ key: "X-Team", value: "platform-secret" }] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: receiver.url,
      name: "ci",
      push_events: true,
      tag_push_events: false,
      merge_requests_events: true,
      enable_ssl_verification: true,
      branch_filter_strategy: "wildcard",
      alert_status: "executable",
      disabled_until: null,
      custom_headers: [{ key: "X-Team" }],
    });
    expect(JSON.stringify(created.body)).not.toContain("s3cret");
    expect(JSON.stringify(created.body)).not.toContain("platform-secret");
    const list = await call(server.emulator, WEB);
    expect(list.body.find((hook: { id: number }) => hook.id === created.body.id)).not.toHaveProperty("custom_headers");
  });

  it("refuses a URL that is not http(s), a bad branch filter and bad custom headers with 422", async () => {
    expect(await addHook({ url: "ftp://example.test/x" })).toMatchObject({ status: 422, body: { error: "Invalid url given" } });
    expect(await addHook({ branch_filter_strategy: "regex", push_events_branch_filter: "(" })).toMatchObject({ status: 422, body: { error: "Invalid branch filter given" } });
    expect(await addHook({ custom_headers: [{ key: "bad header", value: "x" }] })).toMatchObject({ status: 422, body: { error: "Custom headers validation failed" } });
    expect((await call(server.emulator, WEB, { method: "POST", body: {} })).body).toEqual({ error: "url is missing" });
  });

  it("needs a Maintainer: a Developer is refused, an outsider sees nothing", async () => {
    expect((await addHook({}, WEB, "dev")).status).toBe(403);
    expect((await call(server.emulator, WEB, { as: "dev" })).status).toBe(403);
    expect((await call(server.emulator, WEB, { as: "outsider" })).status).toBe(404);
    expect((await addHook({}, WEB, "maintainer")).status).toBe(201);
  });

  it("a changed URL resets the token unless the same request sends it; all_branches clears the filter", async () => {
    const { body: hook } = await addHook({ token: "first", push_events_branch_filter: "release/*" });
    const moved = await call(server.emulator, `${WEB}/${hook.id}`, { method: "PUT", body: { url: `${receiver.url}?moved`, branch_filter_strategy: "all_branches" } });
    expect(moved.body).toMatchObject({ push_events_branch_filter: null, branch_filter_strategy: "all_branches" });
    await call(server.emulator, `${WEB}/${hook.id}/test/push_events`, { method: "POST" });
    expect(receiver.received.at(-1)!.headers["x-gitlab-token"]).toBeUndefined();
    expect((await call(server.emulator, `${WEB}/${hook.id}`, { method: "PUT", body: {} })).body).toEqual({ error: "No parameters provided" });
  });

  it("group hooks need the Owner on a tier that has them", async () => {
    expect((await addHook({}, "/groups/acme/hooks", "maintainer")).status).toBe(403);
    const created = await addHook({ subgroup_events: true }, "/groups/acme/hooks", "alice");
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ group_id: expect.any(Number), subgroup_events: true, member_events: false });
    expect((await addHook({}, "/groups/beta/hooks", "alice")).status).toBe(403);
    await call(server.emulator, `/groups/acme/hooks/${created.body.id}`, { method: "DELETE" });
  });
});

describe("event delivery", () => {
  it("the test endpoint delivers at once with the token, the event headers and the custom headers", async () => {
    const { body: hook } = await addHook({ token: "t0ken", custom_headers: [{ key: "X-Team", value: "platform" }] });
    const answer = await call(server.emulator, `${WEB}/${hook.id}/test/push_events`, { method: "POST" });
    expect(answer).toMatchObject({ status: 201, body: { message: "201 Created" } });
    const delivery = receiver.received.at(-1)!;
    expect(delivery.method).toBe("POST");
    expect(delivery.headers).toMatchObject({ "x-gitlab-event": "Push Hook", "x-gitlab-token": "t0ken", "x-team": "platform", "content-type": "application/json" });
    expect(delivery.headers["user-agent"]).toMatch(/^GitLab\//);
    expect(delivery.headers["x-gitlab-webhook-uuid"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery.headers["x-gitlab-event-uuid"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery.body).toMatchObject({ object_kind: "push", ref: "refs/heads/main", project: { path_with_namespace: "acme/web" } });
    const events = await call(server.emulator, `${WEB}/${hook.id}/events`);
    expect(events.body[0]).toMatchObject({ trigger: "push_hooks", response_status: "200" });
    expect(events.body[0].request_headers["X-Gitlab-Token"]).toBe("[REDACTED]");
    expect(events.body[0].request_headers["X-Team"]).toBe("[REDACTED]");
  });

  it("a custom template shapes the body; credentials in the URL go as Basic authentication, not in the request line", async () => {
    const url = receiver.url.replace("http://", "http://hook-user:s3cr%40t@");
    const { body: hook } = await addHook({ url, custom_webhook_template: '{"kind":"{{object_kind}}","where":"{{project.path_with_namespace}}"}' });
    expect((await call(server.emulator, `${WEB}/${hook.id}/test/push_events`, { method: "POST" })).status).toBe(201);
    const delivery = receiver.received.at(-1)!;
    expect(delivery.body).toEqual({ kind: "push", where: "acme/web" });
    expect(delivery.path).toBe("/hook");
    expect(delivery.headers.authorization).toBe(`Basic ${Buffer.from("hook-user:s3cr@t").toString("base64")}`);
  });

  it("custom headers are set and removed one by one; their values never come back", async () => {
    const { body: hook } = await addHook({});
    expect((await call(server.emulator, `${WEB}/${hook.id}/custom_headers/X-One`, { method: "PUT", body: { value: "first-value" } })).status).toBe(204);
    expect(await call(server.emulator, `${WEB}/${hook.id}/custom_headers/bad%20name`, { method: "PUT", body: { value: "x" } })).toMatchObject({ status: 422, body: { error: "Illegal key or value" } });
    expect((await call(server.emulator, `${WEB}/${hook.id}`)).body.custom_headers).toEqual([{ key: "X-One" }]);
    await call(server.emulator, `${WEB}/${hook.id}/test/push_events`, { method: "POST" });
    expect(receiver.received.at(-1)!.headers["x-one"]).toBe("first-value");
    expect((await call(server.emulator, `${WEB}/${hook.id}/custom_headers/X-One`, { method: "DELETE" })).status).toBe(204);
    expect((await call(server.emulator, `${WEB}/${hook.id}/custom_headers/X-One`, { method: "DELETE" })).status).toBe(404);
  });

  it("a receiver's failure makes the test answer 422 with what it said", async () => {
    const { body: hook } = await addHook({});
    receiver.status = 500;
    expect(await call(server.emulator, `${WEB}/${hook.id}/test/push_events`, { method: "POST" })).toMatchObject({ status: 422, body: { message: '{"received":true}' } });
  });

  it("a commit is a push event, delivered by the background work, filtered by branch; the request does not wait for it", async () => {
    await clearHooks();
    await addHook({});
    await addHook({ push_events_branch_filter: "release/*" });
    const commit = await call(server.emulator, "/projects/acme%2Fweb/repository/commits", {
      method: "POST",
      body: { branch: "main", commit_message: "Hook me", actions: [{ action: "create", file_path: `hooked-${Date.now()}.txt`, content: "x" }] },
    });
    expect(commit.status).toBe(201);
    expect(receiver.received).toEqual([]);
    await server.emulator.runDueWork();
    const pushes = receiver.received.filter((one) => one.body.object_kind === "push");
    expect(pushes).toHaveLength(1);
    expect(pushes[0]!.body).toMatchObject({ after: commit.body.id, ref: "refs/heads/main", total_commits_count: 1, commits: [{ id: commit.body.id, added: [expect.stringMatching(/^hooked-/)] }] });
  });

  it("a merge request opened is a merge request event", async () => {
    await clearHooks();
    await addHook({ push_events: false, merge_requests_events: true });
    await call(server.emulator, "/projects/acme%2Fweb/repository/branches", { method: "POST", body: { branch: "hooked-mr", ref: "main" } });
    const mr = await call(server.emulator, "/projects/acme%2Fweb/merge_requests", { method: "POST", body: { title: "Hooked", source_branch: "hooked-mr", target_branch: "main" } });
    expect(mr.status).toBe(201);
    await server.emulator.runDueWork();
    const events = receiver.received.filter((one) => one.headers["x-gitlab-event"] === "Merge Request Hook");
    expect(events.map((one) => one.body.object_attributes)).toEqual([expect.objectContaining({ iid: mr.body.iid, action: "open", title: "Hooked" })]);
  });

  it("four failures in a row disable the hook for a minute, doubling each time; a success enables it again", async () => {
    await clearHooks();
    const { body: hook } = await addHook({});
    receiver.status = 503;
    const push = () =>
      call(server.emulator, "/projects/acme%2Fweb/repository/commits", {
        method: "POST",
        body: { branch: "main", commit_message: "Again", actions: [{ action: "create", file_path: `again-${Date.now()}-${Math.random()}.txt`, content: "x" }] },
      }).then(() => server.emulator.runDueWork());
    for (let i = 0; i < 4; i++) await push();
    const disabled = (await call(server.emulator, `${WEB}/${hook.id}`)).body;
    expect(disabled.alert_status).toBe("temporarily_disabled");
    expect(Date.parse(disabled.disabled_until) - Date.now() - offset).toBeGreaterThan(50_000);
    const before = receiver.received.length;
    await push();
    expect(receiver.received.length).toBe(before);
    offset += 61_000;
    await push();
    expect(receiver.received.length).toBe(before + 1);
    const longer = (await call(server.emulator, `${WEB}/${hook.id}`)).body;
    expect(Date.parse(longer.disabled_until) - Date.now() - offset).toBeGreaterThan(110_000);
    receiver.status = 200;
    expect((await call(server.emulator, `${WEB}/${hook.id}/test/push_events`, { method: "POST" })).status).toBe(201);
    expect((await call(server.emulator, `${WEB}/${hook.id}`)).body).toMatchObject({ alert_status: "executable", disabled_until: null });
  });
});
