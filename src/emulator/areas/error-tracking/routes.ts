/**
 * Error tracking: client keys
 * of a project, and the collector that error-reporting SDKs send events to
 * with a key's DSN.
 *
 * Where the specification is silent, as real servers answer:
 * - A key is `{"id","active","public_key","sentry_dsn"}`; `public_key` is
 *   `glet_` + 32 hex digits; the DSN is
 *   `<scheme>://<public_key>@<host>[:port]/api/v4/error_tracking/collector/<project id>`.
 *   The real server uses its configured host; the emulator puts its own
 *   origin (`ctx.url.origin`) there, so an SDK given the DSN reaches the
 *   emulator's collector.
 * - Client keys: `authenticate!` (401; the token's scopes the core checks
 *   for every endpoint), then the project (404), then `admin_operations` (Maintainer+, else 403).
 *   No licence tier: error tracking is in every tier.
 * - POST answers 201 with the new key. DELETE answers **200 with the deleted
 *   key** (the real endpoint presents it, and Grape answers 200 to a DELETE
 *   with a body; the request spec checks `:ok`). An unknown key id (or one of
 *   another project) is ActiveRecord's 404 `{"message":"404 Not found"}`.
 * - Collector: `POST /api/v4/error_tracking/collector/api/:id/store` (one
 *   JSON event) and `.../envelope` (an SDK envelope), also with the trailing
 *   slash SDKs add. No access token: the DSN key is the credential, from the
 *   `sentry_key` query parameter or `X-Sentry-Auth`. Unknown project → 404
 *   `404 Project Not Found`; no header and no parameter → 400 `400 Bad request -
 *   Failed to parse sentry request`; unknown, deleted or inactive key → 404
 *   `404 Not Found`; unreadable body → 400 (same message); an event that is
 *   neither an exception nor a message → 400 `400 Bad request - Unsupported
 *   sentry payload`. Success is 200 with an empty body (the collector never
 *   answers data). The real collector also needs the `integrated_error_tracking`
 *   flag and the project's integrated setting; the emulator does not model
 *   these settings, so a valid key is enough.
 * - Item types recorded: exception and message
 *   (`event` items, or a store body), and session (`session` / `sessions`
 *   items). `transaction` items are accepted and dropped, as the real
 *   collector drops them; an envelope with no item of these kinds is 400
 *   `{"message":"400 Bad Request"}` as on the real server.
 * - Retention: `runDue` drops events received more than 90 days ago.
 */
import { randomBytes } from "node:crypto";
import { hasProjectAccess } from "../../access";
import { ApiError, badRequest, forbidden, notFound, recordNotFound } from "../../errors";
import { findProject } from "../../lookup";
import {
  created,
  ok,
  paginate,
  requireUser,
  route,
  type ApiResponse,
  type RequestContext,
  type RouteDefinition,
} from "../../router";
import { AccessLevel, defineStore, type EmulatorState, type Project } from "../../state";
import { decodeBody, EnvelopeError, eventKindOf, parseEnvelope, sentryKeyFromHeader, type EventKind } from "./envelope";

export interface ClientKeyRecord {
  id: number;
  projectId: number;
  publicKey: string;
  active: boolean;
  createdAt: string;
}

export type ReceivedEventKind = EventKind | "session";

/** One item the collector accepted, kept so tests can check what an SDK sent. */
export interface ReceivedEventRecord {
  id: number;
  projectId: number;
  clientKeyId: number;
  kind: ReceivedEventKind;
  /** The collector endpoint it came through. */
  endpoint: "store" | "envelope";
  receivedAt: string;
  payload: unknown;
}

export const errorTrackingStore = defineStore(
  "errorTracking",
  (): { clientKeys: ClientKeyRecord[]; events: ReceivedEventRecord[] } => ({ clientKeys: [], events: [] }),
);

export const KEY_SEQUENCE = "error_tracking_client_keys";
const EVENT_SEQUENCE = "error_tracking_events";
const RETENTION_MS = 90 * 86_400_000;


// ---------------------------------------------------------------------------
// Client keys

/** `ErrorTracking::Collector::Dsn.build_url`, on the emulator's own origin. */
export function sentryDsn(origin: string, key: ClientKeyRecord): string {
  const url = new URL(origin);
  return `${url.protocol}//${key.publicKey}@${url.host}/api/v4/error_tracking/collector/${key.projectId}`;
}

const presentKey = (origin: string, key: ClientKeyRecord): Record<string, unknown> => ({
  id: key.id,
  active: key.active,
  public_key: key.publicKey,
  sentry_dsn: sentryDsn(origin, key),
});

/** The `before` blocks of ClientKeys: authenticate, project, `admin_operations` (the core checked the token's scopes). */
function administeredProject(ctx: RequestContext<unknown>): Project {
  requireUser(ctx);
  const project = findProject(ctx);
  if (!hasProjectAccess(ctx.state, ctx.user, project, AccessLevel.Maintainer)) throw forbidden();
  return project;
}

const projectKeys = (state: EmulatorState, project: Project): ClientKeyRecord[] =>
  errorTrackingStore.of(state).clientKeys.filter((key) => key.projectId === project.id);

const idParam = { id: { type: "string", required: true } } as const;
const base = "/projects/:id/error_tracking/client_keys";

const clientKeyRoutes: RouteDefinition[] = [
  // `GET .../error_tracking/settings`:
  // the emulator models integrated error tracking only, which a project has
  // once it has a client key; without one the setting does not exist.
  route("GET", "/projects/:id/error_tracking/settings", { params: idParam }, (ctx) => {
    const project = administeredProject(ctx);
    if (projectKeys(ctx.state, project).length === 0) throw notFound("Error Tracking Setting");
    return ok({ active: true, project_name: null, sentry_external_url: null, api_url: null, integrated: true });
  }),
  route("GET", base, { params: idParam, paginated: true }, (ctx) => {
    const project = administeredProject(ctx);
    const keys = projectKeys(ctx.state, project).sort((a, b) => a.id - b.id);
    return paginate(ctx, keys, { present: (key) => presentKey(ctx.url.origin, key) });
  }),

  route("POST", base, { params: idParam }, (ctx) => {
    const project = administeredProject(ctx);
    const key: ClientKeyRecord = {
      id: ctx.state.nextId(KEY_SEQUENCE),
      projectId: project.id,
      publicKey: `glet_${randomBytes(16).toString("hex")}`,
      active: true,
      createdAt: ctx.state.now(),
    };
    errorTrackingStore.of(ctx.state).clientKeys.push(key);
    return created(presentKey(ctx.url.origin, key));
  }),

  // key_id is not declared in the real endpoint: `find(params[:key_id])` casts it like Rails (leading digits), else 404.
  route("DELETE", `${base}/:key_id`, { params: idParam }, (ctx) => {
    const project = administeredProject(ctx);
    const keyId = Number.parseInt(ctx.pathParams["key_id"] ?? "", 10);
    const key = projectKeys(ctx.state, project).find((k) => k.id === keyId);
    if (!key) throw recordNotFound();
    const { clientKeys } = errorTrackingStore.of(ctx.state);
    clientKeys.splice(clientKeys.indexOf(key), 1);
    return ok(presentKey(ctx.url.origin, key));
  }),
];

// ---------------------------------------------------------------------------
// Collector

const failedToParse = (): ApiError => badRequest("Failed to parse sentry request");

/** `find_project` (no permission check: the DSN is public), then the active key of the request. */
function collectorKey(ctx: RequestContext<unknown>): ClientKeyRecord {
  const id = ctx.pathParams["id"] ?? "";
  const project = /^\d+$/.test(id) ? ctx.state.projectById(Number(id)) : ctx.state.projectByFullPath(id);
  if (!project) throw notFound("Project");
  const param = ctx.rawParams["sentry_key"];
  let publicKey: string | undefined;
  if (typeof param === "string" && param !== "") {
    publicKey = param;
  } else {
    const header = ctx.headers["x-sentry-auth"];
    if (typeof header !== "string") throw failedToParse();
    publicKey = sentryKeyFromHeader(header);
  }
  const key = projectKeys(ctx.state, project).find((k) => k.active && k.publicKey === publicKey);
  if (!key) throw notFound();
  return key;
}

function record(ctx: RequestContext<unknown>, key: ClientKeyRecord, endpoint: "store" | "envelope", kind: ReceivedEventKind, payload: unknown): void {
  errorTrackingStore.of(ctx.state).events.push({
    id: ctx.state.nextId(EVENT_SEQUENCE),
    projectId: key.projectId,
    clientKeyId: key.id,
    kind,
    endpoint,
    receivedAt: ctx.state.now(),
    payload,
  });
}

/** A store body: a JSON event, possibly compressed as SDKs send it. */
function storePayload(ctx: RequestContext<unknown>): unknown {
  try {
    return JSON.parse(decodeBody(ctx.rawBody, ctx.headers["content-encoding"]).toString("utf8"));
  } catch {
    throw failedToParse();
  }
}

function handleStore(ctx: RequestContext<unknown>): ApiResponse {
  const key = collectorKey(ctx);
  const payload = storePayload(ctx);
  const kind = eventKindOf(payload);
  if (!kind) throw badRequest("Unsupported sentry payload");
  record(ctx, key, "store", kind, payload);
  return { status: 200 };
}

function handleEnvelope(ctx: RequestContext<unknown>): ApiResponse {
  const key = collectorKey(ctx);
  const raw = ctx.rawBody;
  let items;
  try {
    items = parseEnvelope(decodeBody(raw, ctx.headers["content-encoding"]));
  } catch (error) {
    if (error instanceof EnvelopeError) throw failedToParse();
    throw error;
  }
  const wanted = items.filter((item) => ["event", "transaction", "session", "sessions"].includes(item.type));
  if (wanted.length === 0) throw new ApiError(400, { message: "400 Bad Request" });
  for (const item of wanted) {
    if (item.type === "event") {
      const kind = eventKindOf(item.payload);
      if (!kind) throw badRequest("Unsupported sentry payload");
      record(ctx, key, "envelope", kind, item.payload);
    } else if (item.type !== "transaction") {
      record(ctx, key, "envelope", "session", item.payload);
    }
  }
  return { status: 200 };
}

const COLLECTOR = "/api/v4/error_tracking/collector/api/:id";
const collectorRoutes: RouteDefinition[] = [
  route("POST", `${COLLECTOR}/store`, { outsideApi: true }, handleStore),
  route("POST", `${COLLECTOR}/store/`, { outsideApi: true }, handleStore),
  route("POST", `${COLLECTOR}/envelope`, { outsideApi: true }, handleEnvelope),
  route("POST", `${COLLECTOR}/envelope/`, { outsideApi: true }, handleEnvelope),
];

/** Errors are kept 90 days. */
export function dropExpiredEvents(state: EmulatorState): void {
  const store = errorTrackingStore.of(state);
  const oldest = state.clock() - RETENTION_MS;
  store.events = store.events.filter((event) => Date.parse(event.receivedAt) >= oldest);
}

export const errorTrackingRoutes: readonly RouteDefinition[] = [...clientKeyRoutes, ...collectorRoutes];
