/**
 * Project and group webhooks driven by @gitbeaker/rest's `ProjectHooks` and
 * `GroupHooks` (add, all, show, edit, remove): the answers decode into its
 * types, the token is never in them, and a missing hook is 404.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const server = useEmulator({ backgroundWork: "manual" });
const api = (token = server.emulator.tokens.alice!) => new Gitlab({ host: server.emulator.url, token });
const status = (error: unknown) => (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;

describe("@gitbeaker/rest project and group hooks", () => {
  it("adds, lists, shows, edits and removes a project hook; the token never comes back", async () => {
    const added = await api().ProjectHooks.add("acme/web", "https://ci.example.test/hooks", { token: "gitbeaker-secret", mergeRequestsEvents: true, pushEvents: false });
    expect(added).toMatchObject({ url: "https://ci.example.test/hooks", merge_requests_events: true, push_events: false, alert_status: "executable" });
    expect(JSON.stringify(added)).not.toContain("gitbeaker-secret");
    expect((await api().ProjectHooks.all("acme/web")).map((hook) => hook.id)).toContain(added.id);
    expect((await api().ProjectHooks.show("acme/web", added.id)).url).toBe("https://ci.example.test/hooks");
    const edited = await api().ProjectHooks.edit("acme/web", added.id, "https://ci.example.test/moved", { tagPushEvents: true });
    expect(edited).toMatchObject({ url: "https://ci.example.test/moved", tag_push_events: true, merge_requests_events: true });
    await api().ProjectHooks.remove("acme/web", added.id);
    expect(status(await api().ProjectHooks.show("acme/web", added.id).catch((error: unknown) => error))).toBe(404);
  });

  it("a group hook on a licensed group, refused on a Free one and below the Owner role", async () => {
    const added = await api().GroupHooks.add("acme", "https://audit.example.test/platform", { subgroupEvents: true } as never);
    expect(added).toMatchObject({ subgroup_events: true, group_id: expect.any(Number) });
    expect((await api().GroupHooks.show("acme", added.id)).id).toBe(added.id);
    await api().GroupHooks.remove("acme", added.id);
    expect(status(await api().GroupHooks.add("beta", "https://audit.example.test/platform").catch((error: unknown) => error))).toBe(403);
    expect(status(await api(server.emulator.tokens.maintainer!).GroupHooks.all("acme").catch((error: unknown) => error))).toBe(403);
  });
});
