/**
 * Real endpoints the official clients call next to the specification's, over
 * HTTP: one epic, a group's access tokens, a project's vulnerabilities, its
 * error tracking setting and its (inherited) integrations; each answer and
 * each refusal in the order real servers check them.
 */
import { describe, expect, it } from "vitest";
import { call } from "./helpers";
import { freshEmulator } from "./registry-fixtures";

describe("GET /groups/:id/epics/:epic_iid", () => {
  it("answers the epic, under both path forms; 404 group, 404 epic, 403 on a Free group", async () => {
    const { emulator } = await freshEmulator();
    const epic = await call(emulator, "/groups/acme/epics/1", { as: "guest" });
    expect(epic.status).toBe(200);
    expect(epic.body).toMatchObject({ id: 1, iid: 1, title: "2025 roadmap", parent_id: null, state: "opened", subscribed: false, labels: ["roadmap"] });
    expect((await call(emulator, "/groups/acme/-/epics/2", { as: "guest" })).body).toMatchObject({ iid: 2, parent_id: 1 });
    expect(await call(emulator, "/groups/acme/epics/99", { as: "guest" })).toMatchObject({ status: 404, body: { message: "404 Epic Not Found" } });
    expect(await call(emulator, "/groups/acme/epics/1", { as: "outsider" })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect((await call(emulator, "/groups/beta/epics/1", { as: "alice" })).status).toBe(403);
  });
});

describe("GET /groups/:id/access_tokens", () => {
  it("the group's own access tokens for its Owners; 401 below Owner, as the real endpoint answers", async () => {
    const { emulator } = await freshEmulator();
    const tokens = await call(emulator, "/groups/acme/access_tokens", { as: "alice" });
    expect(tokens.status).toBe(200);
    expect(tokens.body).toEqual([
      expect.objectContaining({ name: "acme-ci", scopes: ["read_api"], access_level: 30, resource_type: "group", resource_id: emulator.state.groupByFullPath("acme")!.id, active: true, revoked: false, expires_at: "2030-01-01" }),
    ]);
    expect(tokens.headers.get("x-total")).toBe("1");
    expect(JSON.stringify(tokens.body)).not.toContain("glpat-");
    expect((await call(emulator, "/groups/acme/access_tokens?state=inactive", { as: "alice" })).body).toEqual([]);
    expect(await call(emulator, "/groups/acme/access_tokens", { as: "maintainer" })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await call(emulator, "/groups/acme/access_tokens", { as: null })).status).toBe(401);
    expect((await call(emulator, "/groups/acme/access_tokens", { as: "outsider" })).status).toBe(404);
  });
});

describe("GET /projects/:id/vulnerabilities", () => {
  it("one per ingested vulnerability (a finding never ingested has none), highest severity first", async () => {
    const { emulator } = await freshEmulator();
    const list = await call(emulator, "/projects/acme%2Fweb/vulnerabilities?per_page=100", { as: "dev" });
    expect(list.status).toBe(200);
    const ids = list.body.map((v: any) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    const severities = ["critical", "high", "medium", "low", "info", "unknown"];
    const ranks = list.body.map((v: any) => severities.indexOf(v.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(list.body[0]).toMatchObject({ project: { path_with_namespace: "acme/web" }, state: expect.stringMatching(/^(detected|dismissed)$/), report_type: expect.any(String) });
    expect(ids).toEqual(expect.arrayContaining([7001, 7002]));
    expect(list.body.find((v: any) => v.id === 7001)).toMatchObject({ title: "Cross-site scripting in comment view", severity: "high", state: "detected", report_type: "sast", dismissed_at: null });
  });

  it("401 anonymous, 403 for a Reporter and on a group below Ultimate", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, "/projects/acme%2Fweb/vulnerabilities", { as: null })).status).toBe(401);
    expect((await call(emulator, "/projects/acme%2Fweb/vulnerabilities", { as: "reporter" })).status).toBe(403);
    expect((await call(emulator, "/projects/beta%2Fsite/vulnerabilities", { as: "alice" })).status).toBe(403);
  });
});

describe("GET /projects/:id/error_tracking/settings", () => {
  it("integrated error tracking where the project has a client key; 404 where it has none; 403 below Maintainer", async () => {
    const { emulator } = await freshEmulator();
    expect(await call(emulator, "/projects/acme%2Fweb/error_tracking/settings", { as: "maintainer" })).toMatchObject({
      status: 200,
      body: { active: true, project_name: null, sentry_external_url: null, api_url: null, integrated: true },
    });
    expect(await call(emulator, "/projects/acme%2Fapi/error_tracking/settings", { as: "maintainer" })).toMatchObject({ status: 404, body: { message: "404 Error Tracking Setting Not Found" } });
    expect((await call(emulator, "/projects/acme%2Fweb/error_tracking/settings", { as: "dev" })).status).toBe(403);
  });
});

describe("GET /projects/:id/integrations", () => {
  it("the integrations a project inherits from its groups, with the closest group's settings", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, "/projects/acme%2Fweb/integrations", { as: "maintainer" })).body).toEqual([]);
    const put = await call(emulator, "/groups/acme/integrations/slack", { as: "alice", method: "PUT", body: { webhook: "https://hooks.slack.test/T0/B0/secret", channel: "#deploys", push_events: false } });
    expect(put.status).toBe(200);
    const list = await call(emulator, "/projects/acme%2Fweb/integrations", { as: "maintainer" });
    expect(list.body).toEqual([expect.objectContaining({ slug: "slack", active: true, inherited: true, push_events: false })]);
    expect(list.body[0].id).not.toBe(put.body.id);
    const slack = await call(emulator, "/projects/acme%2Fweb/integrations/slack", { as: "maintainer" });
    expect(slack.body).toMatchObject({ id: list.body[0].id, slug: "slack", inherited: true, properties: { channel: "#deploys" } });
    expect(JSON.stringify(slack.body)).not.toContain("secret");
    // The same id on every read.
    expect((await call(emulator, "/projects/acme%2Fweb/integrations/slack", { as: "maintainer" })).body.id).toBe(list.body[0].id);
    // The older /services path answers the same (the Go client reads there).
    expect((await call(emulator, "/projects/acme%2Fweb/services", { as: "maintainer" })).body).toEqual(list.body);
    expect((await call(emulator, "/projects/acme%2Fweb/services/slack", { as: "maintainer" })).body).toEqual(slack.body);
  });

  it("refusals: 401, 404 project, 403 below Maintainer, 400 unknown slug, 404 one never configured", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, "/projects/acme%2Fweb/integrations", { as: null })).status).toBe(401);
    expect((await call(emulator, "/projects/acme%2Fweb/integrations", { as: "outsider" })).status).toBe(404);
    expect((await call(emulator, "/projects/acme%2Fweb/integrations", { as: "dev" })).status).toBe(403);
    expect((await call(emulator, "/projects/acme%2Fweb/integrations/nope", { as: "maintainer" })).body).toEqual({ error: "slug does not have a valid value" });
    expect(await call(emulator, "/projects/acme%2Fweb/integrations/jenkins", { as: "maintainer" })).toMatchObject({ status: 404, body: { message: "404 Integration Not Found" } });
  });
});

describe("GET /projects/:id/merge_requests", () => {
  it("every merge request of the project (scope all by default), the list's filters, paginated", async () => {
    const { emulator } = await freshEmulator();
    const page = await call(emulator, "/projects/acme%2Fweb/merge_requests?per_page=2", { as: "dev" });
    expect(page.body.map((mr: any) => mr.iid)).toEqual([5, 2]);
    expect(page.headers.get("x-total")).toBe("5");
    expect((await call(emulator, "/projects/acme%2Fweb/merge_requests?state=merged", { as: "dev" })).body.map((mr: any) => mr.iid)).toEqual([3]);
    expect((await call(emulator, "/projects/acme%2Fweb/merge_requests?scope=created_by_me&sort=asc", { as: "dev" })).body.map((mr: any) => mr.iid)).toEqual([4, 1, 5]);
    expect((await call(emulator, "/projects/acme%2Fweb/merge_requests?iids[]=1&iids[]=4", { as: "dev" })).body.map((mr: any) => mr.iid)).toEqual([1, 4]);
  });

  it("anonymous callers read a public project's; 404 for a project the caller cannot see, 403 without read_merge_request, 400 for a bad filter", async () => {
    const { emulator } = await freshEmulator();
    expect((await call(emulator, "/projects/beta%2Fsite/merge_requests", { as: null })).body.map((mr: any) => mr.iid)).toEqual([1]);
    expect(await call(emulator, "/projects/acme%2Fweb/merge_requests", { as: "outsider" })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await call(emulator, "/projects/acme%2Fweb/merge_requests", { as: "guest" })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await call(emulator, "/projects/acme%2Fweb/merge_requests?author_id=1&author_username=dev", { as: "dev" })).body).toEqual({ error: "author_id, author_username are mutually exclusive" });
  });
});
