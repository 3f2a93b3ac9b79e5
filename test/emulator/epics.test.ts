/**
 * The epics area over HTTP: listing children in order, assigning (which moves
 * a child from its previous parent), creating a child, reordering,
 * unassigning; the licences (Premium to read and unassign, Ultimate for the
 * tree writes), the roles, and every error answer of the model.
 */
import { afterAll, describe, expect, it } from "vitest";
import { defaultSeed, SeedError, startEmulator, type Emulator, type Seed } from "../../src/emulator";
import { call } from "./helpers";

const started: Emulator[] = [];
afterAll(async () => {
  await Promise.all(started.map((emulator) => emulator.stop()));
});

/** The default seed plus a Planner of acme, changed by `change`. */
function epicSeed(change: (seed: any) => void = () => {}): Seed {
  const seed: any = structuredClone(defaultSeed);
  seed.users.push({ username: "planner", name: "Pia Planner", token: "glpat-planner-token" });
  seed.groups.find((g: any) => g.path === "acme").members.planner = 15;
  change(seed);
  return seed;
}

async function fresh(seed: Seed = epicSeed()): Promise<Emulator> {
  const emulator = await startEmulator({ seed, clock: () => Date.parse("2025-06-01T12:00:00.000Z") });
  started.push(emulator);
  return emulator;
}

const ROADMAP = "/groups/acme/epics/1/epics";
const ids = (body: any[]): number[] => body.map((epic) => epic.id);

describe("listing children", () => {
  it("answers the children in their order, with the fields of part 2.5", async () => {
    const emulator = await fresh();
    const result = await call(emulator, ROADMAP, { as: "guest" });
    expect(result.status).toBe(200);
    expect(ids(result.body)).toEqual([2, 3, 4]);
    expect(result.body[0]).toEqual({
      id: 2,
      iid: 2,
      group_id: expect.any(Number),
      parent_id: 1,
      parent_iid: 1,
      title: "Self-serve onboarding",
      description: null,
      state: "opened",
      confidential: false,
      web_url: "https://platform.example.test/groups/acme/-/epics/2",
      references: { short: "&2", relative: "&2", full: "acme&2" },
      author: { id: expect.any(Number), name: "Alice Owner", username: "alice", state: "active", avatar_url: null, web_url: "https://platform.example.test/alice" },
      start_date: "2025-01-15",
      start_date_is_fixed: true,
      start_date_fixed: "2025-01-15",
      start_date_from_milestones: null,
      start_date_from_inherited_source: null,
      end_date: "2025-04-30",
      due_date: "2025-04-30",
      due_date_is_fixed: true,
      due_date_fixed: "2025-04-30",
      due_date_from_milestones: null,
      due_date_from_inherited_source: null,
      created_at: "2023-06-01T09:00:00.000Z",
      updated_at: "2023-06-01T09:00:00.000Z",
      labels: ["growth"],
    });
  });

  it("pages like every list (document 1, part 4.2), also under the `-/` path form and the numeric group id", async () => {
    const emulator = await fresh();
    const first = await call(emulator, `${ROADMAP}?per_page=2`);
    expect(ids(first.body)).toEqual([2, 3]);
    expect(first.headers.get("x-total")).toBe("3");
    expect(first.headers.get("link")).toContain('rel="next"');
    const second = await call(emulator, "/groups/acme/-/epics/1/epics?per_page=2&page=2");
    expect(ids(second.body)).toEqual([4]);
    const groupId = (await call(emulator, "/groups/acme")).body.id;
    expect(ids((await call(emulator, `/groups/${groupId}/epics/1/epics`)).body)).toEqual([2, 3, 4]);
  });

  it("hides confidential children from a Guest and shows them to a Planner", async () => {
    const emulator = await fresh(epicSeed((seed) => seed.epics.acme.push({ iid: 7, title: "Acquisition", parent: 1, confidential: true })));
    expect(ids((await call(emulator, ROADMAP, { as: "guest" })).body)).toEqual([2, 3, 4]);
    expect(ids((await call(emulator, ROADMAP, { as: "planner" })).body)).toEqual([2, 3, 4, 7]);
  });

  it("refuses: 401 anonymous, 404 an invisible group, 404 a missing epic, 403 a Free group", async () => {
    const emulator = await fresh();
    expect((await call(emulator, ROADMAP, { as: null })).body).toEqual({ message: "401 Unauthorized" });
    expect(await call(emulator, ROADMAP, { as: "outsider" })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await call(emulator, "/groups/acme/epics/99/epics")).toMatchObject({ status: 404, body: { message: "404 Epic Not Found" } });
    expect(await call(emulator, "/groups/beta/epics/1/epics", { as: "alice" })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await call(emulator, "/groups/acme/epics/x/epics")).toMatchObject({ status: 400, body: { error: "epic_iid is invalid" } });
  });
});

describe("listing a group's epics", () => {
  const LIST = "/groups/acme/epics";

  it("answers the group's and its subgroups' epics, newest first then id descending, with parent_iid and references", async () => {
    const emulator = await fresh();
    const result = await call(emulator, LIST, { as: "guest" });
    expect(result.status).toBe(200);
    expect(result.headers.get("x-total")).toBe("9");
    const byId = new Map(result.body.map((epic: any) => [epic.id, epic]));
    expect(byId.get(8)).toMatchObject({ iid: 2, parent_id: 7, parent_iid: 1, references: { full: "acme/platform&2" }, state: "opened" });
    expect(byId.get(5)).toMatchObject({ parent_id: null, parent_iid: null });
    const own = await call(emulator, `${LIST}?include_descendant_groups=false`);
    expect(ids(own.body)).toEqual([6, 5, 4, 3, 2, 1]);
    const fromSubgroup = await call(emulator, "/groups/acme%2Fplatform/-/epics?include_ancestor_groups=true&include_descendant_groups=false&sort=asc");
    expect(new Set(ids(fromSubgroup.body))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
  });

  it("filters by author, labels, search, state and dates, orders by title, and pages", async () => {
    const emulator = await fresh();
    const own = "include_descendant_groups=false";
    const maintainer = (await call(emulator, "/user", { as: "maintainer" })).body.id;
    expect(ids((await call(emulator, `${LIST}?${own}&author_id=${maintainer}`)).body)).toEqual([5]);
    expect(ids((await call(emulator, `${LIST}?${own}&author_username=dev`)).body)).toEqual([6]);
    expect(ids((await call(emulator, `${LIST}?labels=platform,observability`)).body)).toEqual([9]);
    expect(ids((await call(emulator, `${LIST}?${own}&labels=None`)).body)).toEqual([6]);
    expect(ids((await call(emulator, `${LIST}?search=BILLING`)).body)).toEqual([3]);
    expect((await call(emulator, `${LIST}?state=closed`)).body).toEqual([]);
    expect((await call(emulator, `${LIST}?created_after=2100-01-01T00:00:00Z`)).body).toEqual([]);
    expect((await call(emulator, `${LIST}?my_reaction_emoji=Any`)).body).toEqual([]);
    expect((await call(emulator, `${LIST}?created_after=yesterday`)).body).toEqual({ error: "created_after is invalid" });
    expect((await call(emulator, `${LIST}?order_by=iid`)).body).toEqual({ error: "order_by does not have a valid value" });
    const titles = (await call(emulator, `${LIST}?${own}&order_by=title&sort=asc`)).body.map((epic: any) => epic.title);
    expect(titles).toEqual([...titles].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const page = await call(emulator, `${LIST}?per_page=4&page=3`);
    expect(ids(page.body)).toHaveLength(1);
    expect(page.headers.get("x-total-pages")).toBe("3");
  });

  it("hides confidential epics from a Guest; refuses 404 an invisible group and 403 a Free group", async () => {
    const emulator = await fresh(epicSeed((seed) => seed.epics.acme.push({ iid: 7, title: "Acquisition", confidential: true })));
    const own = `${LIST}?include_descendant_groups=false`;
    expect(ids((await call(emulator, own, { as: "guest" })).body)).not.toContain(7);
    expect(ids((await call(emulator, own, { as: "planner" })).body)).toContain(7);
    expect(await call(emulator, LIST, { as: "outsider" })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await call(emulator, "/groups/beta/epics")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await call(emulator, LIST, { as: null })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
  });

  it("answers anonymous callers on a public group, without the epics of its private subgroups", async () => {
    const emulator = await fresh(epicSeed((seed) => (seed.groups.find((g: any) => g.path === "acme").visibility = "public")));
    expect(ids((await call(emulator, LIST, { as: null })).body)).toEqual([6, 5, 4, 3, 2, 1]);
  });
});

describe("assigning an existing epic", () => {
  it("links it first among the siblings and answers the child", async () => {
    const emulator = await fresh();
    const result = await call(emulator, `${ROADMAP}/5`, { method: "POST", as: "guest" });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ id: 5, iid: 5, parent_id: 1, title: "Dark mode", updated_at: "2025-06-01T12:00:00.000Z" });
    expect(ids((await call(emulator, ROADMAP)).body)).toEqual([5, 2, 3, 4]);
  });

  it("moves a child from its previous parent (part 3), across to a subgroup's epic too", async () => {
    const emulator = await fresh();
    // acme/platform&2 (id 8) is a child of acme/platform&1 (id 7).
    expect((await call(emulator, `${ROADMAP}/8`, { method: "POST" })).status).toBe(201);
    expect(ids((await call(emulator, "/groups/acme%2Fplatform/epics/1/epics")).body)).toEqual([]);
    expect(ids((await call(emulator, ROADMAP)).body)).toEqual([8, 2, 3, 4]);
    // And back under acme/platform&1, from acme&1.
    await call(emulator, "/groups/acme%2Fplatform/epics/1/epics/8", { method: "POST" });
    expect(ids((await call(emulator, ROADMAP)).body)).toEqual([2, 3, 4]);
  });

  it("answers 409 for the links the model refuses", async () => {
    const emulator = await fresh();
    const post = (path: string) => call(emulator, path, { method: "POST" });
    expect(await post(`${ROADMAP}/2`)).toMatchObject({ status: 409, body: { message: "This epic cannot be added. It is already assigned to the parent epic." } });
    expect(await post(`${ROADMAP}/1`)).toMatchObject({ status: 409, body: { message: "This epic cannot be added. An epic cannot be added to itself." } });
    expect(await post("/groups/acme/epics/2/epics/1")).toMatchObject({ status: 409, body: { message: "This epic cannot be added. It is already an ancestor of the parent epic." } });
  });

  it("answers 404 for a child that does not exist or that the user cannot relate", async () => {
    const emulator = await fresh(epicSeed((seed) => (seed.epics.beta = [{ iid: 1, title: "Free group epic" }])));
    const notFound = { status: 404, body: { message: "No Epic found for given params" } };
    expect(await call(emulator, `${ROADMAP}/999`, { method: "POST" })).toMatchObject(notFound);
    // Epic 10 lives in beta, a Free group: no multi-level epics there.
    expect(await call(emulator, `${ROADMAP}/10`, { method: "POST", as: "alice" })).toMatchObject(notFound);
  });

  it("keeps the hierarchy at 7 levels", async () => {
    const chain = Array.from({ length: 7 }, (_, index) => ({ iid: 10 + index, title: `Level ${index + 1}`, ...(index > 0 ? { parent: 9 + index } : {}) }));
    const emulator = await fresh(epicSeed((seed) => seed.epics.acme.push(...chain, { iid: 20, title: "Leaf" })));
    const depth = "This epic cannot be added. One or more epics would exceed the maximum depth (7) from its most distant ancestor.";
    // Level 7 (iid 16) cannot take a child; level 6 (iid 15) can take a leaf but not a two-level subtree.
    expect(await call(emulator, "/groups/acme/epics/16/epics/5", { method: "POST" })).toMatchObject({ status: 409, body: { message: depth } });
    await call(emulator, "/groups/acme/epics/5/epics/6", { method: "POST" });
    expect(await call(emulator, "/groups/acme/epics/15/epics/5", { method: "POST" })).toMatchObject({ status: 409, body: { message: depth } });
    const leaf = (await call(emulator, "/groups/acme/epics/15/epics")).body;
    expect(leaf.map((e: any) => e.iid)).toEqual([16]);
  });

  it("refuses a public child under a confidential parent, and a 101st child", async () => {
    const many = Array.from({ length: 100 }, (_, index) => ({ iid: 100 + index, title: `Child ${index}`, parent: 50 }));
    const emulator = await fresh(epicSeed((seed) => seed.epics.acme.push({ iid: 30, title: "Secret", confidential: true }, { iid: 50, title: "Busy" }, ...many)));
    const secret = (await call(emulator, "/groups/acme/epics/30/epics")).status === 200;
    expect(secret).toBe(true);
    expect(await call(emulator, "/groups/acme/epics/30/epics/5", { method: "POST" })).toMatchObject({ status: 409, body: { message: "A non-confidential epic cannot be assigned to a confidential parent epic" } });
    expect(await call(emulator, "/groups/acme/epics/50/epics/5", { method: "POST" })).toMatchObject({
      status: 409,
      body: { message: "You cannot add any more epics. This epic already has maximum number of child epics." },
    });
  });

  it("needs Ultimate (multi-level epics): a Premium group reads and unassigns but cannot assign", async () => {
    const emulator = await fresh(epicSeed((seed) => (seed.groups.find((g: any) => g.path === "acme").tier = "premium")));
    expect((await call(emulator, ROADMAP)).status).toBe(200);
    expect(await call(emulator, `${ROADMAP}/5`, { method: "POST", as: "alice" })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await call(emulator, `${ROADMAP}/2`, { method: "PUT", as: "alice", body: { move_before_id: 3 } })).toMatchObject({ status: 403 });
    expect(await call(emulator, ROADMAP, { method: "POST", as: "alice", body: { title: "New" } })).toMatchObject({ status: 403 });
    expect(await call(emulator, `${ROADMAP}/2`, { method: "DELETE", as: "alice" })).toMatchObject({ status: 200, body: { parent_id: null } });
  });

  it("needs the Planner role once epic_relations_for_non_members is off", async () => {
    const emulator = await fresh(epicSeed((seed) => (seed.instance.featureFlags.epic_relations_for_non_members = false)));
    expect((await call(emulator, `${ROADMAP}/5`, { method: "POST", as: "guest" })).status).toBe(403);
    expect((await call(emulator, `${ROADMAP}/5`, { method: "POST", as: "planner" })).status).toBe(201);
  });
});

describe("creating a child", () => {
  it("answers the linked epic (part 2.5) and puts it first", async () => {
    const emulator = await fresh();
    const result = await call(emulator, ROADMAP, { method: "POST", as: "planner", body: { title: "Mobile app" } });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      id: 10,
      iid: 7,
      title: "Mobile app",
      group_id: expect.any(Number),
      parent_id: 1,
      has_children: false,
      has_issues: false,
      reference: "&7",
      url: "https://platform.example.test/groups/acme/-/epics/7",
      relation_url: "https://platform.example.test/groups/acme/-/epics/1/links/10",
    });
    expect(ids((await call(emulator, ROADMAP)).body)).toEqual([10, 2, 3, 4]);
  });

  it("needs the Planner role (a Guest gets 403) and a title", async () => {
    const emulator = await fresh();
    expect((await call(emulator, ROADMAP, { method: "POST", as: "guest", body: { title: "Nope" } })).status).toBe(403);
    expect(await call(emulator, ROADMAP, { method: "POST", body: {} })).toMatchObject({ status: 400, body: { error: "title is missing" } });
  });

  it("takes the parent's confidentiality by default, and refuses a public child of a confidential parent", async () => {
    const emulator = await fresh(epicSeed((seed) => seed.epics.acme.push({ iid: 30, title: "Secret", confidential: true })));
    const created = await call(emulator, "/groups/acme/epics/30/epics", { method: "POST", body: { title: "Hidden child" } });
    const child = (await call(emulator, "/groups/acme/epics/30/epics")).body.find((e: any) => e.id === created.body.id);
    expect(child.confidential).toBe(true);
    expect(await call(emulator, "/groups/acme/epics/30/epics", { method: "POST", body: { title: "Public child", confidential: false } })).toMatchObject({
      status: 400,
      body: { message: { base: ["cannot assign a non-confidential epic to a confidential parent. Make the epic confidential and try again."] } },
    });
    const asked = await call(emulator, ROADMAP, { method: "POST", body: { title: "Confidential child", confidential: true } });
    expect((await call(emulator, ROADMAP)).body.find((e: any) => e.id === asked.body.id).confidential).toBe(true);
  });

  it("ignores `confidential` while the confidential_epics flag is off", async () => {
    const emulator = await fresh(epicSeed((seed) => (seed.instance.featureFlags.confidential_epics = false)));
    const asked = await call(emulator, ROADMAP, { method: "POST", body: { title: "Wants secrecy", confidential: true } });
    expect((await call(emulator, ROADMAP)).body.find((e: any) => e.id === asked.body.id).confidential).toBe(false);
  });
});

describe("reordering", () => {
  it("places the child after move_before_id, before move_after_id, or between both; answers every child", async () => {
    const emulator = await fresh();
    const put = (child: number, body: object) => call(emulator, `${ROADMAP}/${child}`, { method: "PUT", as: "guest", body });
    expect(ids((await put(2, { move_before_id: 4 })).body)).toEqual([3, 4, 2]);
    expect(ids((await put(2, { move_after_id: 3 })).body)).toEqual([2, 3, 4]);
    expect(ids((await put(2, { move_before_id: 3, move_after_id: 4 })).body)).toEqual([3, 2, 4]);
    expect(ids((await put(2, {})).body)).toEqual([3, 2, 4]);
    expect(ids((await call(emulator, ROADMAP)).body)).toEqual([3, 2, 4]);
  });

  it("keeps room when moved back and forth many times", async () => {
    const emulator = await fresh();
    for (let i = 0; i < 40; i++) await call(emulator, `${ROADMAP}/${i % 2 === 0 ? 4 : 3}`, { method: "PUT", body: { move_before_id: 2, move_after_id: i % 2 === 0 ? 3 : 4 } });
    expect(ids((await call(emulator, ROADMAP)).body)).toEqual([2, 3, 4]);
  });

  it("answers 404 for a child or a sibling that is not under this parent", async () => {
    const emulator = await fresh();
    const notFound = { status: 404, body: { message: "Epic not found for given params" } };
    expect(await call(emulator, `${ROADMAP}/5`, { method: "PUT", body: { move_before_id: 2 } })).toMatchObject(notFound);
    expect(await call(emulator, `${ROADMAP}/2`, { method: "PUT", body: { move_before_id: 5 } })).toMatchObject(notFound);
  });
});

describe("unassigning", () => {
  it("answers the epic with parent_id null, and 404 once it is no child", async () => {
    const emulator = await fresh();
    const result = await call(emulator, `${ROADMAP}/3`, { method: "DELETE", as: "guest" });
    expect(result).toMatchObject({ status: 200, body: { id: 3, parent_id: null, title: "Usage-based billing" } });
    expect(ids((await call(emulator, ROADMAP)).body)).toEqual([2, 4]);
    expect(await call(emulator, `${ROADMAP}/3`, { method: "DELETE" })).toMatchObject({ status: 404, body: { message: "No Epic found for given params" } });
  });

  it("refuses a Guest on a confidential parent (it cannot see it)", async () => {
    const emulator = await fresh(epicSeed((seed) => seed.epics.acme.push({ iid: 30, title: "Secret", confidential: true }, { iid: 31, title: "Secret child", confidential: true, parent: 30 })));
    // Seed order gives ids: acme's six, then these two (7 and 8), then acme/platform's.
    expect((await call(emulator, "/groups/acme/epics/30/epics/8", { method: "DELETE", as: "guest" })).status).toBe(403);
    expect((await call(emulator, "/groups/acme/epics/30/epics/8", { method: "DELETE", as: "planner" })).status).toBe(200);
  });
});

describe("the seed section", () => {
  it("refuses an unknown group, a missing parent, a cycle and a bad date", async () => {
    const cases: [any, RegExp][] = [
      [{ nope: [{ title: "x" }] }, /unknown group nope/],
      [{ acme: [{ title: "x", parent: 9 }] }, /no epic 9/],
      [{ acme: [{ iid: 1, title: "a", parent: 2 }, { iid: 2, title: "b", parent: 1 }] }, /cycle/],
      [{ acme: [{ title: "x", dueDate: "soon" }] }, /dueDate: must be a date/],
      [{ acme: [{ title: "" }] }, /title: must be a non-empty string/],
    ];
    for (const [epics, message] of cases) {
      await expect(startEmulator({ seed: { ...defaultSeed, epics } })).rejects.toThrow(SeedError);
      await expect(startEmulator({ seed: { ...defaultSeed, epics } })).rejects.toThrow(message);
    }
  });
});
