/**
 * Offset and keyset pagination with the real server's headers.
 *
 * Offset: `X-Page`, `X-Per-Page`, `X-Next-Page`, `X-Prev-Page` (empty when
 * none), `X-Total`, `X-Total-Pages`, and `Link` in the order prev, next,
 * first, last. Above 10,000 records `X-Total`, `X-Total-Pages` and
 * `rel="last"` are left out.
 *
 * Keyset (`pagination=keyset`): only `Link rel="next"`, absent at the end.
 * Ordering by `id` pages with `id_after`/`id_before` and, like the real
 * `Keyset::Pager`, links to a next page whenever the page is full (so the
 * last request may come back empty); other orderings page with an opaque
 * `cursor` (also in `X-Next-Cursor`) and link only when more records exist.
 */
import { ApiError, paramError } from "./errors";
import type { RawParams } from "./params";

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Above this many records real servers skip counting. */
export const MAX_COUNT_LIMIT = 10_000;

/** Rails' `to_query` escaping (CGI.escape): spaces as `+`, everything but `A-Za-z0-9_.-~` encoded. */
function cgiEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/**
 * The request URL with some query parameters replaced, keys sorted
 * alphabetically as Rails' `to_query` does.
 */
export function pageUrl(requestUrl: URL, replace: Record<string, string | number>, drop: readonly string[] = []): string {
  const kept = [...requestUrl.searchParams].filter(([key]) => !(key in replace) && !drop.includes(key));
  const pairs = [...kept, ...Object.entries(replace).map(([k, v]): [string, string] => [k, String(v)])];
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = pairs.map(([k, v]) => `${cgiEscape(k)}=${cgiEscape(v)}`).join("&");
  return `${requestUrl.origin}${requestUrl.pathname}?${query}`;
}

const linkHeader = (links: [rel: string, url: string][]): string =>
  links.map(([rel, url]) => `<${url}>; rel="${rel}"`).join(", ");

/** Reads a positive integer pagination parameter with Grape's error wording. */
function positiveInteger(raw: RawParams, name: string, fallback: number): number {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return fallback;
  const text = String(value).trim();
  if (!/^[-+]?\d+$/.test(text)) throw paramError(`${name} is invalid`);
  const number = Number.parseInt(text, 10);
  if (number < 1) throw paramError(`${name} does not have a valid value`);
  return number;
}

/** `per_page` above the maximum is clamped, as real servers do. */
export function readPerPage(raw: RawParams): number {
  return Math.min(positiveInteger(raw, "per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE);
}

export interface OffsetPageRequest {
  page: number;
  perPage: number;
}

/** Validates `page` and `per_page`: 400 `{"error":"per_page does not have a valid value"}` for 0. */
export function readOffsetPageRequest(raw: RawParams): OffsetPageRequest {
  return { page: positiveInteger(raw, "page", 1), perPage: readPerPage(raw) };
}

export interface PageResult<T> {
  items: T[];
  headers: Record<string, string>;
}

/** The offset pagination headers for one page of `total` records. */
export function offsetPaginationHeaders(args: {
  requestUrl: URL;
  page: number;
  perPage: number;
  total: number;
}): Record<string, string> {
  const { requestUrl, page, perPage, total } = args;
  const totalPages = Math.ceil(total / perPage);
  const lastPage = Math.max(totalPages, 1);
  const outOfRange = page > lastPage;
  const nextPage = page < totalPages ? page + 1 : null;
  const prevPage = page > 1 && !outOfRange ? page - 1 : null;
  const countKnown = total <= MAX_COUNT_LIMIT;
  const url = (n: number): string => pageUrl(requestUrl, { page: n, per_page: perPage });

  const links: [string, string][] = [];
  if (prevPage !== null) links.push(["prev", url(prevPage)]);
  if (nextPage !== null) links.push(["next", url(nextPage)]);
  links.push(["first", url(1)]);
  if (countKnown) links.push(["last", url(lastPage)]);

  const headers: Record<string, string> = {
    "X-Per-Page": String(perPage),
    "X-Page": String(page),
    "X-Next-Page": nextPage === null ? "" : String(nextPage),
    "X-Prev-Page": prevPage === null ? "" : String(prevPage),
    Link: linkHeader(links),
  };
  if (countKnown) {
    headers["X-Total"] = String(total);
    headers["X-Total-Pages"] = String(lastPage);
  }
  return headers;
}

export function paginateOffset<T>(items: readonly T[], requestUrl: URL, request: OffsetPageRequest): PageResult<T> {
  const start = (request.page - 1) * request.perPage;
  return {
    items: items.slice(start, start + request.perPage),
    headers: offsetPaginationHeaders({ requestUrl, ...request, total: items.length }),
  };
}

// ---------------------------------------------------------------------------
// Keyset

export type SortDirection = "asc" | "desc";
export type KeysetValue = string | number;

export interface KeysetOptions<T> {
  /** The unique, increasing id used as tie-breaker and for `id_after`/`id_before`. */
  id: (item: T) => number;
  /** Columns clients may order by, with the directions each supports. */
  orderBy: Record<string, { value: (item: T) => KeysetValue; sorts: readonly SortDirection[] }>;
}

/** 405 for a keyset request a list does not support (unknown ordering, or no keyset at all). */
export const keysetUnavailable = (): ApiError =>
  new ApiError(405, { error: "Keyset pagination is not yet available for this type of request" });

const compareValues = (a: KeysetValue, b: KeysetValue): number => (a < b ? -1 : a > b ? 1 : 0);

interface Cursor {
  value: KeysetValue;
  id: number;
}

const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString("base64url");

function decodeCursor(text: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    const { value, id } = parsed as Partial<Cursor>;
    if ((typeof value === "string" || typeof value === "number") && typeof id === "number") return { value, id };
  } catch {
    // fall through to the error below
  }
  throw paramError("cursor is invalid");
}

export const isKeysetRequest = (raw: RawParams): boolean => raw["pagination"] === "keyset";

export function paginateKeyset<T>(
  items: readonly T[],
  requestUrl: URL,
  raw: RawParams,
  options: KeysetOptions<T>,
): PageResult<T> {
  const orderBy = String(raw["order_by"] ?? "");
  const sort = String(raw["sort"] ?? "");
  const column = options.orderBy[orderBy];
  if (!column || !column.sorts.includes(sort as SortDirection)) throw keysetUnavailable();
  const perPage = readPerPage(raw);
  const direction = sort === "desc" ? -1 : 1;
  const keyOf = (item: T): Cursor => ({ value: column.value(item), id: options.id(item) });
  const compareKeys = (a: Cursor, b: Cursor): number =>
    direction * (compareValues(a.value, b.value) || a.id - b.id);
  const ordered = [...items].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));

  if (orderBy === "id") {
    const boundParam = direction === 1 ? "id_after" : "id_before";
    const bound = raw[boundParam] === undefined ? undefined : Number(raw[boundParam]);
    if (bound !== undefined && !Number.isInteger(bound)) throw paramError(`${boundParam} is invalid`);
    const remaining = bound === undefined ? ordered : ordered.filter((item) => direction * (options.id(item) - bound) > 0);
    const page = remaining.slice(0, perPage);
    const last = page[page.length - 1];
    const headers: Record<string, string> = {};
    if (page.length === perPage && last !== undefined) {
      headers["Link"] = linkHeader([["next", pageUrl(requestUrl, { [boundParam]: options.id(last) }, ["page"])]]);
    }
    return { items: page, headers };
  }

  const cursorText = raw["cursor"];
  const after = typeof cursorText === "string" && cursorText !== "" ? decodeCursor(cursorText) : undefined;
  const remaining = after ? ordered.filter((item) => compareKeys(keyOf(item), after) > 0) : ordered;
  const page = remaining.slice(0, perPage);
  const last = page[page.length - 1];
  const headers: Record<string, string> = {};
  if (remaining.length > perPage && last !== undefined) {
    const nextCursor = encodeCursor(keyOf(last));
    headers["X-Next-Cursor"] = nextCursor;
    headers["Link"] = linkHeader([["next", pageUrl(requestUrl, { cursor: nextCursor }, ["page"])]]);
  }
  return { items: page, headers };
}
