/**
 * The epics emulator driven by a real client, @gitbeaker/rest: the list of a
 * group's epics through `Epics.all`, and the epic links.
 *
 * gitbeaker's `EpicLinks` class addresses `/groups/:id/epics/:epic_iid/links`,
 * a path real servers do not serve (`ee/lib/api/epic_links.rb` and
 * `doc/api/epic_links.md` have `.../epics/:epic_iid/epics`): the emulator
 * answers it as real servers do, with the unknown route's 404. The real paths
 * are driven through gitbeaker's own requester (its auth, JSON bodies, error
 * handling and pagination headers).
 */
import { Gitlab } from "@gitbeaker/rest";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/emulator";

const started: Emulator[] = [];
afterAll(async () => {
  await Promise.all(started.map((emulator) => emulator.stop()));
});

async function client(username = "alice") {
  const emulator = await startEmulator();
  started.push(emulator);
  const api = new Gitlab({ host: emulator.url, token: emulator.tokens[username]! });
  return { emulator, links: api.EpicLinks, requester: api.EpicLinks.requester };
}

const ids = (body: unknown): number[] => (body as { id: number }[]).map((epic) => epic.id);

describe("@gitbeaker/rest and epic links", () => {
  it("EpicLinks methods reach gitbeaker's `/links` path, which is answered as an unknown route (404)", async () => {
    const { links } = await client();
    await expect(links.all("acme", 1)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
    await expect(links.assign("acme", 1, 5)).rejects.toMatchObject({ cause: { description: "404 Not Found" } });
  });

  it("lists, assigns, reorders and unassigns through the requester on the real paths", async () => {
    const { requester } = await client();
    const listed = await requester.get("groups/acme/epics/1/epics");
    expect(ids(listed.body)).toEqual([2, 3, 4]);
    expect(listed.headers["x-total"]).toBe("3");
    const assigned = await requester.post("groups/acme/epics/1/epics/5");
    expect(assigned).toMatchObject({ status: 201, body: { id: 5, parent_id: 1 } });
    const reordered = await requester.put("groups/acme/epics/1/epics/5", { body: { move_before_id: 4 } });
    expect(ids(reordered.body)).toEqual([2, 3, 4, 5]);
    const unassigned = await requester.delete("groups/acme/epics/1/epics/5");
    expect(unassigned.body).toMatchObject({ id: 5, parent_id: null });
  });

  it("creates a child with a title, and surfaces the 409 of an impossible link", async () => {
    const { requester } = await client();
    const createdChild = await requester.post("groups/acme/epics/1/epics", { body: { title: "Partner portal" } });
    expect(createdChild.body).toMatchObject({ title: "Partner portal", parent_id: 1, reference: expect.stringMatching(/^&\d+$/) });
    await expect(requester.post("groups/acme/epics/2/epics/1")).rejects.toMatchObject({
      cause: { response: { status: 409 }, description: "This epic cannot be added. It is already an ancestor of the parent epic." },
    });
  });

  it("a Free group is refused with 403", async () => {
    const { requester } = await client();
    await expect(requester.get("groups/beta/epics/1/epics")).rejects.toMatchObject({ cause: { response: { status: 403 } } });
  });
});

describe("@gitbeaker/rest's Epics.all", () => {
  it("lists a group's epics with its options, across pages, and hides a Free group's with 403", async () => {
    const emulator = await startEmulator();
    started.push(emulator);
    const api = new Gitlab({ host: emulator.url, token: emulator.tokens.alice! });
    const own = await api.Epics.all("acme", { includeDescendantGroups: false, orderBy: "title", sort: "asc" });
    expect(own.map((epic) => epic.title)).toEqual(["2025 roadmap", "Accessibility audit", "Dark mode", "Public API v2", "Self-serve onboarding", "Usage-based billing"]);
    const children = await api.Epics.all("acme/platform", { search: "kubernetes" });
    expect(children).toEqual([expect.objectContaining({ iid: 2, parent_iid: 1, references: expect.objectContaining({ full: "acme/platform&2" }) })]);
    const paged = await api.Epics.all("acme", { perPage: 2, maxPages: 5 });
    expect(paged).toHaveLength(9);
    await expect(api.Epics.all("beta")).rejects.toMatchObject({ cause: { response: { status: 403 } } });
  });
});
