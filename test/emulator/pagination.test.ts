import { beforeAll, describe, expect, it } from "vitest";
import { offsetPaginationHeaders, paginate, route, type KeysetOptions, type RouteModule } from "../../src/emulator";
import { call, createBadge, useEmulator } from "./helpers";

interface Item {
  id: number;
  name: string;
}

/** Seven items whose names do not sort like their ids. */
const ITEMS: Item[] = ["kiwi", "apple", "fig", "cherry", "banana", "lime", "date"].map((name, index) => ({
  id: index + 1,
  name,
}));

const itemKeyset: KeysetOptions<Item> = {
  id: (item) => item.id,
  orderBy: {
    id: { value: (item) => item.id, sorts: ["asc", "desc"] },
    name: { value: (item) => item.name, sorts: ["asc", "desc"] },
  },
};

/** A test-only list route that supports keyset pagination. */
const itemRoutes: RouteModule = {
  name: "test-items",
  routes: [route("GET", "/test/items", { paginated: true }, (ctx) => paginate(ctx, ITEMS, { keyset: itemKeyset }))],
};

const server = useEmulator({ extraRoutes: [itemRoutes] });
const SITE = "/projects/beta%2Fsite/badges";

describe("offset pagination on a list of 45 badges", () => {
  beforeAll(async () => {
    for (let i = 1; i <= 45; i++) await createBadge(server.emulator, "/projects/beta%2Fsite", { name: `b${i}` }, "alice");
  });

  const link = (query: string) => `${server.emulator.apiUrl}${SITE}?${query}`;

  it("page 1 of 3: next, first and last links, no previous page", async () => {
    const result = await call(server.emulator, `${SITE}?per_page=20&zeta=1&alpha=x%20y`);
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(20);
    expect(result.body[0].name).toBe("b1");
    expect(result.headers.get("x-page")).toBe("1");
    expect(result.headers.get("x-per-page")).toBe("20");
    expect(result.headers.get("x-next-page")).toBe("2");
    expect(result.headers.get("x-prev-page")).toBe("");
    expect(result.headers.get("x-total")).toBe("45");
    expect(result.headers.get("x-total-pages")).toBe("3");
    expect(result.headers.get("link")).toBe(
      [
        `<${link("alpha=x+y&page=2&per_page=20&zeta=1")}>; rel="next"`,
        `<${link("alpha=x+y&page=1&per_page=20&zeta=1")}>; rel="first"`,
        `<${link("alpha=x+y&page=3&per_page=20&zeta=1")}>; rel="last"`,
      ].join(", "),
    );
  });

  it("page 2: prev, next, first, last in that order", async () => {
    const result = await call(server.emulator, `${SITE}?page=2&per_page=20`);
    expect(result.body.map((badge: any) => badge.name)).toEqual(Array.from({ length: 20 }, (_, i) => `b${i + 21}`));
    expect(result.headers.get("x-next-page")).toBe("3");
    expect(result.headers.get("x-prev-page")).toBe("1");
    expect(result.headers.get("link")).toBe(
      [
        `<${link("page=1&per_page=20")}>; rel="prev"`,
        `<${link("page=3&per_page=20")}>; rel="next"`,
        `<${link("page=1&per_page=20")}>; rel="first"`,
        `<${link("page=3&per_page=20")}>; rel="last"`,
      ].join(", "),
    );
  });

  it("the last page: five badges, empty X-Next-Page, no next link", async () => {
    const result = await call(server.emulator, `${SITE}?page=3&per_page=20`);
    expect(result.body).toHaveLength(5);
    expect(result.headers.get("x-next-page")).toBe("");
    expect(result.headers.get("x-prev-page")).toBe("2");
    expect(result.headers.get("link")).toBe(
      [
        `<${link("page=2&per_page=20")}>; rel="prev"`,
        `<${link("page=1&per_page=20")}>; rel="first"`,
        `<${link("page=3&per_page=20")}>; rel="last"`,
      ].join(", "),
    );
  });

  it("past the end: an empty page with neither next nor previous", async () => {
    const result = await call(server.emulator, `${SITE}?page=4&per_page=20`);
    expect(result.body).toEqual([]);
    expect(result.headers.get("x-next-page")).toBe("");
    expect(result.headers.get("x-prev-page")).toBe("");
  });

  it("defaults to 20 per page", async () => {
    const result = await call(server.emulator, SITE);
    expect(result.body).toHaveLength(20);
    expect(result.headers.get("x-per-page")).toBe("20");
  });

  it("clamps per_page above 100 to 100", async () => {
    const result = await call(server.emulator, `${SITE}?per_page=500`);
    expect(result.body).toHaveLength(45);
    expect(result.headers.get("x-per-page")).toBe("100");
    expect(result.headers.get("x-total-pages")).toBe("1");
    expect(result.headers.get("link")).toBe(
      `<${link("page=1&per_page=100")}>; rel="first", <${link("page=1&per_page=100")}>; rel="last"`,
    );
  });

  it("answers 400 {error} for per_page=0, page=0 and non-numbers", async () => {
    const zero = await call(server.emulator, `${SITE}?per_page=0`);
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual({ error: "per_page does not have a valid value" });
    expect((await call(server.emulator, `${SITE}?page=0`)).body).toEqual({ error: "page does not have a valid value" });
    expect((await call(server.emulator, `${SITE}?per_page=many`)).body).toEqual({ error: "per_page is invalid" });
  });

  it("checks pagination parameters before looking up the source, as Grape does", async () => {
    const result = await call(server.emulator, "/projects/acme%2Fweb/badges?per_page=0", { as: "outsider" });
    expect(result.status).toBe(400);
  });
});

describe("offset headers above 10,000 records", () => {
  const requestUrl = new URL("http://127.0.0.1:1/api/v4/projects/1/badges?per_page=100&page=2");

  it("omits X-Total, X-Total-Pages and rel=last", () => {
    const headers = offsetPaginationHeaders({ requestUrl, page: 2, perPage: 100, total: 10_001 });
    expect(headers["X-Total"]).toBeUndefined();
    expect(headers["X-Total-Pages"]).toBeUndefined();
    expect(headers["X-Next-Page"]).toBe("3");
    expect(headers["Link"]).toBe(
      [
        '<http://127.0.0.1:1/api/v4/projects/1/badges?page=1&per_page=100>; rel="prev"',
        '<http://127.0.0.1:1/api/v4/projects/1/badges?page=3&per_page=100>; rel="next"',
        '<http://127.0.0.1:1/api/v4/projects/1/badges?page=1&per_page=100>; rel="first"',
      ].join(", "),
    );
  });

  it("keeps them at exactly 10,000", () => {
    const headers = offsetPaginationHeaders({ requestUrl, page: 2, perPage: 100, total: 10_000 });
    expect(headers["X-Total"]).toBe("10000");
    expect(headers["X-Total-Pages"]).toBe("100");
    expect(headers["Link"]).toContain('rel="last"');
  });
});

describe("keyset pagination", () => {
  /** Follows rel=next links from `path` and returns every page's names and headers. */
  async function walk(path: string): Promise<{ pages: string[][]; responses: Headers[] }> {
    const pages: string[][] = [];
    const responses: Headers[] = [];
    let next: string | undefined = path;
    while (next !== undefined) {
      const result = await call(server.emulator, next);
      expect(result.status).toBe(200);
      pages.push(result.body.map((item: Item) => item.name));
      responses.push(result.headers);
      const link = result.headers.get("link");
      next = link ? /^<[^>]*\/api\/v4([^>]*)>; rel="next"$/.exec(link)?.[1] : undefined;
      expect(pages.length).toBeLessThan(10);
    }
    return { pages, responses };
  }

  it("pages by id with id_after, linking while pages are full, with no other headers", async () => {
    const first = await call(server.emulator, "/test/items?pagination=keyset&order_by=id&sort=asc&per_page=3");
    expect(first.headers.get("link")).toBe(
      `<${server.emulator.apiUrl}/test/items?id_after=3&order_by=id&pagination=keyset&per_page=3&sort=asc>; rel="next"`,
    );
    for (const header of ["x-page", "x-per-page", "x-total", "x-total-pages", "x-next-page", "x-prev-page"]) {
      expect(first.headers.get(header), header).toBeNull();
    }
    const { pages, responses } = await walk("/test/items?pagination=keyset&order_by=id&sort=asc&per_page=3");
    expect(pages).toEqual([["kiwi", "apple", "fig"], ["cherry", "banana", "lime"], ["date"]]);
    expect(responses.at(-1)!.get("link")).toBeNull();
  });

  it("ends with an empty page without a link when the last page was full", async () => {
    const { pages } = await walk("/test/items?pagination=keyset&order_by=id&sort=desc&per_page=7");
    expect(pages).toEqual([["date", "lime", "banana", "cherry", "fig", "apple", "kiwi"], []]);
  });

  it("pages by another column with an opaque cursor, also in X-Next-Cursor", async () => {
    const first = await call(server.emulator, "/test/items?pagination=keyset&order_by=name&sort=desc&per_page=3");
    const cursor = first.headers.get("x-next-cursor");
    expect(cursor).toEqual(expect.any(String));
    expect(first.headers.get("link")).toContain(`cursor=${cursor}`);
    const { pages, responses } = await walk("/test/items?pagination=keyset&order_by=name&sort=desc&per_page=3");
    expect(pages).toEqual([["lime", "kiwi", "fig"], ["date", "cherry", "banana"], ["apple"]]);
    expect(responses.at(-1)!.get("x-next-cursor")).toBeNull();
  });

  it("answers 405 for an ordering it does not support", async () => {
    const result = await call(server.emulator, "/test/items?pagination=keyset&order_by=created_at&sort=asc");
    expect(result.status).toBe(405);
    expect(result.body).toEqual({ error: "Keyset pagination is not yet available for this type of request" });
  });

  it("answers 405 on a list that has no keyset pagination", async () => {
    const result = await call(server.emulator, `${SITE}?pagination=keyset&order_by=id&sort=asc`);
    expect(result.status).toBe(405);
  });
});
