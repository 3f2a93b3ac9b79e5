/**
 * The emulator's HTTP core: one node:http server on 127.0.0.1 that takes
 * every request through the same steps, in the order a real deployment
 * applies them:
 *
 *   414 for an overlong URL → fault before handling → rate limit → route
 *   match (else 404 `{"error":"404 Not Found"}`) → authentication (401) →
 *   declared params (400) → handler → fault after handling → response,
 *   request log, state file.
 *
 * A fault before handling stands for the network or the front proxy, which
 * sit in front of the application's rate limiter: a request it stops is not
 * counted by the limiter. The faults themselves live in faults.ts.
 *
 * Route handlers throw `ApiError` for error answers and `MovedError` for a
 * renamed path (301); anything else becomes 500.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ApiError, MovedError, insufficientScope, internalServerError, routeNotFound, scopesAllow, unauthorized } from "./errors";
import { FaultInjector, parseFaultPlan, type FaultName, type FaultPlan, type InjectedAnswer } from "./faults";
import { declareParams, parseBody, parseNestedParams, type RawParams } from "./params";
import { readOffsetPageRequest } from "./pagination";
import { RATE_LIMIT_BODY, RateLimiter, checkRateLimitOptions, throttleStore, type RateLimitOptions, type ThrottleName } from "./rate-limit";
import { accessTokenOf, Router, type ApiResponse, type RequestContext, type RouteDefinition, type RouteMatch } from "./router";
import { areas as servedAreas } from "./areas";
import type { EmulatorArea } from "./area";
import { readSeed, stateOfAreas, type Seed } from "./seed";
import { defaultSeed } from "./seeds/default";
import { EmulatorState, type Clock, type SerializedState, type User } from "./state";

export interface EmulatorOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Starting state: a seed object or the path of a JSON seed file. Default: the default seed. */
  seed?: Seed | string;
  /** Load state from this file if it exists (instead of the seed) and save it after every change. */
  stateFile?: string;
  /** Throttle requests per user (per address when anonymous), Rack::Attack style. */
  rateLimit?: RateLimitOptions;
  /** Longest accepted request target (path and query); longer → 414. Default 8192. */
  maxUrlLength?: number;
  /** Print one line per request to stderr. */
  log?: boolean;
  /** Milliseconds since the epoch; lets tests move time (rate-limit windows, timestamps). */
  clock?: Clock;
  /** Extra route modules served besides the built-in ones (for tests of the core). */
  extraRoutes?: readonly EmulatorArea[];
  /** The fault plan in force from the start (faults.ts); overrides the seed's `faults`. */
  faults?: FaultPlan;
  /** Serve HTTPS instead of HTTP (`url` is then `https://127.0.0.1:PORT`), as self-managed servers behind a private CA do. */
  tls?: EmulatorTls;
  /**
   * When the areas' background work runs (merge requests' preparation and
   * checks, scheduled pipelines, accepted deletions): `"auto"` on a timer
   * every `BACKGROUND_WORK_INTERVAL_MS`, as a real server's workers pick jobs
   * up on their own; `"manual"` only when `runDueWork()` is called, for a
   * test that decides when time passes. Default: `"manual"` when a `clock`
   * is given, else `"auto"`.
   */
  backgroundWork?: "auto" | "manual";
}

/** How often automatic background work runs. */
export const BACKGROUND_WORK_INTERVAL_MS = 500;

/** The emulator's certificate (PEM text), and the CA whose client certificates it demands, if any (mutual TLS). */
export interface EmulatorTls {
  /** The server certificate, for 127.0.0.1 (an IP subject alternative name) or `localhost`. */
  cert: string;
  key: string;
  /** Demand a client certificate signed by this CA: connections without one are refused. */
  clientCa?: string;
}

/**
 * Query parameters whose values no log line or recorded request shows, as
 * GitLab's `filter_parameters` hides them (a name ending in `token` or `key`,
 * or holding `password` or `secret`): `private_token`, `access_token`,
 * `job_token`, `client_secret`. Credentials in headers are never logged.
 */
const CREDENTIAL_PARAMETER = /token$|key$|password|secret|^jwt$|^otp_attempt$|^certificate$/i;
export const FILTERED = "[FILTERED]";

/** A raw query string with every credential parameter's value replaced by `[FILTERED]`; the rest byte for byte. */
export function filteredQuery(rawQuery: string): string {
  if (rawQuery === "") return rawQuery;
  return rawQuery
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, " "));
      } catch {
        // A malformed escape: the name as sent.
      }
      // Rack reads `private_token[]` and `private_token[x]` as that parameter too.
      return CREDENTIAL_PARAMETER.test(name.replace(/\[.*$/, "")) ? `${rawName}=${FILTERED}` : pair;
    })
    .join("&");
}

export interface RequestLogEntry {
  /** Increasing number of the request since start; see `mark()` / `requestsSince()`. */
  seq: number;
  method: string;
  /** Raw path as sent, still URL-encoded, without the query. */
  path: string;
  /** Raw query string without `?` ("" when none), credential parameters' values shown as `[FILTERED]` (`filteredQuery`). */
  query: string;
  /** Status sent; 0 when the connection was dropped without a response. */
  status: number;
  /** When the request arrived (clock milliseconds). */
  time: number;
  durationMs: number;
  /** The fault that hit the request: a kind of the fault plan, or "injected" for an `inject()` answer. */
  fault?: FaultName;
  /** Whether the route handler ran (a write was applied), whatever the client got back. */
  handled: boolean;
}

export interface Emulator {
  /** `http://127.0.0.1:PORT` (`https://` with the `tls` option), without `/api/v4`. */
  readonly url: string;
  /** `url` + `/api/v4`. */
  readonly apiUrl: string;
  /** Username → first access token of that user. */
  readonly tokens: Readonly<Record<string, string>>;
  /** Every request, faults, 401s, 414s and 429s included, oldest first. */
  readonly requestLog: readonly RequestLogEntry[];
  clearLog(): void;
  /** A mark to pass to `requestsSince` later. */
  mark(): number;
  /** The requests that arrived after `mark()` returned this value. */
  requestsSince(mark: number): RequestLogEntry[];
  /** A hand-made answer for the next matching request(s); for the faults real servers produce, use a fault plan. */
  inject(answer: InjectedAnswer): void;
  /** Replaces the fault plan (validated; its rules and random draws start afresh); undefined removes it. */
  setFaultPlan(plan: FaultPlan | undefined): void;
  /** Removes the fault plan and every pending injected answer. */
  clearFaults(): void;
  /**
   * Runs the background work every API area has due at the clock's current
   * time (see `EmulatorArea.runDue`). What needs no repository is done when
   * it returns; the promise resolves once the rest (merge requests read from
   * the repositories) is done too.
   */
  runDueWork(): Promise<void>;
  /**
   * Resolves once a run of the background work that starts after this call
   * (on the emulator's timer, or `runDueWork()`) is done: what a test awaits
   * instead of polling for its effects.
   */
  nextWorkDone(): Promise<void>;
  readonly state: EmulatorState;
  /** Writes the state file now (no-op without `stateFile`). */
  save(): void;
  /** Closes the server and every open connection. */
  stop(): Promise<void>;
}

export const DEFAULT_MAX_URL_LENGTH = 8192;

/** How long an idle connection stays open: the 65 s of the nginx a real server is bundled with (`keepalive_timeout`). */
const KEEP_ALIVE_MS = 65_000;
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function loadState(options: EmulatorOptions, seed: Seed, clock: Clock): EmulatorState {
  if (options.stateFile && existsSync(options.stateFile)) {
    return EmulatorState.fromJSON(JSON.parse(readFileSync(options.stateFile, "utf8")) as SerializedState, clock);
  }
  return stateOfAreas(seed, clock, [...servedAreas, ...(options.extraRoutes ?? [])]);
}

/** The starting state of a seed with every area the emulator serves (or `areas`), as `startEmulator` builds it. */
export function stateFromSeed(input: Seed | string, clock?: Clock, areas: readonly EmulatorArea[] = servedAreas): EmulatorState {
  return stateOfAreas(input, clock, areas);
}

/** Writes the state file through a rename; returns what it wrote, so an unchanged state is not written again. */
function saveState(state: EmulatorState, file: string, previous?: string): string {
  const text = `${JSON.stringify(state.toJSON(), null, 2)}\n`;
  if (text === previous) return text;
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
  return text;
}

/** A CI job token: the `JOB-TOKEN` header, or the `job_token` parameter. */
function jobTokenOf(req: IncomingMessage, query: URLSearchParams): string | undefined {
  const header = req.headers["job-token"];
  if (typeof header === "string" && header !== "") return header;
  return query.get("job_token") ?? undefined;
}

/**
 * Who a request is: an access token's user, or on the routes that take one a
 * CI job token's (with the one project it reaches). Routes outside /api/v4
 * (the registry's, /jwt/auth) read their own credentials; a job token on a
 * route that does not take one is ignored, as real servers ignore it.
 */
function callerOf(
  state: EmulatorState,
  areas: readonly EmulatorArea[],
  route: RouteDefinition | undefined,
  req: IncomingMessage,
  query: URLSearchParams,
): { token?: string; user: User | null; jobTokenProjectId?: number } {
  if (route?.outsideApi) return { user: null };
  const token = accessTokenOf(req.headers, query);
  if (token !== undefined) {
    const expired = areas.some((area) => area.tokenExpired?.(state, token) === true);
    return { token, user: expired ? null : (state.userByToken(token) ?? null) };
  }
  const jobToken = route?.jobTokenAllowed ? jobTokenOf(req, query) : undefined;
  if (jobToken === undefined) return { user: null };
  const grant = areas.map((area) => area.jobTokenGrant?.(state, jobToken)).find((found) => found !== undefined);
  return { token: jobToken, user: grant?.user ?? null, jobTokenProjectId: grant?.projectId };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, { message: "413 Request Entity Too Large" });
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function writeResponse(res: ServerResponse, response: ApiResponse, extraHeaders: Record<string, string>): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string> = { ...extraHeaders, ...response.headers };
  if (response.body instanceof Readable) return streamResponse(res, response.status, headers, response.body);
  const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
  let payload: string | Buffer | undefined;
  if (response.body !== undefined && response.status !== 204) {
    if (Buffer.isBuffer(response.body)) {
      payload = response.body;
      if (!hasContentType) headers["Content-Type"] = "application/octet-stream";
    } else if (typeof response.body === "string") {
      payload = response.body;
      if (!hasContentType) headers["Content-Type"] = "text/plain; charset=utf-8";
    } else {
      payload = JSON.stringify(response.body);
      if (!hasContentType) headers["Content-Type"] = "application/json";
    }
  }
  headers["Content-Length"] = String(payload === undefined ? 0 : Buffer.byteLength(payload));
  res.writeHead(response.status, headers);
  res.end(payload);
}

/**
 * A streamed body (archives): sent chunk by chunk with backpressure, without
 * Content-Length (chunked), never held whole in memory. A failure after the
 * headers went out can only cut the connection, as on a real server.
 */
function streamResponse(res: ServerResponse, status: number, headers: Record<string, string>, body: Readable): void {
  if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) headers["Content-Type"] = "application/octet-stream";
  res.writeHead(status, headers);
  pipeline(body, res).catch((error: unknown) => {
    if (process.env["EMULATOR_DEBUG"]) console.error(error);
    res.destroy();
  });
}

class EmulatorServer {
  readonly log: RequestLogEntry[] = [];
  /** Aborted by stop(), so that requests held by a fault do not outlive the server. */
  readonly stopping = new AbortController();
  readonly faults: FaultInjector;
  private nextSeq = 0;
  private readonly router: Router;
  /** The areas served: every area of the list, then the options' `extraRoutes`. */
  private readonly areas: readonly EmulatorArea[];
  private readonly rateLimiter: RateLimiter;
  private readonly maxUrlLength: number;
  private lastRun: Promise<void> = Promise.resolve();
  /** The state file's text as last written (background work every half second rewrites it only when it changed). */
  private savedText: string | undefined;
  /** The timer of automatic background work, while it runs. */
  private backgroundTimer: NodeJS.Timeout | undefined;
  /** Set once listening: `http://127.0.0.1:PORT`. */
  baseUrl = "";

  constructor(
    readonly state: EmulatorState,
    private readonly options: EmulatorOptions,
    private readonly clock: Clock,
  ) {
    this.areas = [...servedAreas, ...(options.extraRoutes ?? [])];
    this.router = new Router(this.areas);
    this.rateLimiter = new RateLimiter(clock);
    if (options.rateLimit) {
      const limits = checkRateLimitOptions(options.rateLimit);
      const throttles = throttleStore.of(state);
      throttles.throttle_authenticated_api = { ...limits };
      throttles.throttle_unauthenticated_api = { ...limits };
    }
    this.maxUrlLength = options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
    this.faults = new FaultInjector(clock, this.stopping.signal);
  }

  mark(): number {
    return this.nextSeq;
  }

  save(): void {
    if (this.options.stateFile) this.savedText = saveState(this.state, this.options.stateFile, this.savedText);
  }

  runDueWork(): Promise<void> {
    const waiting = this.awaitingNextRun.splice(0);
    const pending = this.areas.map((area) => area.runDue?.(this.state));
    this.save();
    const run = Promise.all(pending).then(() => this.save());
    this.lastRun = run.catch(() => undefined);
    void this.lastRun.then(() => {
      for (const done of waiting) done();
    });
    return run;
  }

  /** Those waiting for a run that starts after they asked (`nextWorkDone`). */
  private readonly awaitingNextRun: (() => void)[] = [];

  nextWorkDone(): Promise<void> {
    return new Promise((resolve) => this.awaitingNextRun.push(resolve));
  }

  /** Resolves once the background work started last is done (before the repositories go away on stop). */
  settled(): Promise<void> {
    return this.lastRun;
  }

  /** Runs the background work on a timer until `stopBackgroundWork()`; the timer never keeps the process alive. */
  startBackgroundWork(): void {
    const report = (error: unknown): void => {
      if (process.env["EMULATOR_DEBUG"]) console.error(error);
    };
    this.backgroundTimer = setInterval(() => {
      try {
        this.runDueWork().catch(report);
      } catch (error) {
        report(error);
      }
    }, BACKGROUND_WORK_INTERVAL_MS);
    this.backgroundTimer.unref();
  }

  stopBackgroundWork(): void {
    clearInterval(this.backgroundTimer);
    this.backgroundTimer = undefined;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = this.clock();
    const method = (req.method ?? "GET").toUpperCase();
    const target = req.url ?? "/";
    const queryStart = target.indexOf("?");
    const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
    const rawQuery = queryStart === -1 ? "" : target.slice(queryStart + 1);
    const loggedQuery = filteredQuery(rawQuery);
    const entry: RequestLogEntry = {
      seq: this.nextSeq++,
      method,
      path: rawPath,
      query: loggedQuery,
      status: 0,
      time: started,
      durationMs: 0,
      handled: false,
    };
    const finish = (status: number): void => {
      entry.status = status;
      entry.durationMs = this.clock() - started;
      this.log.push(entry);
      if (this.options.log) {
        const fault = entry.fault ? ` (fault ${entry.fault}, ${entry.handled ? "handled" : "not handled"})` : "";
        process.stderr.write(`${method} ${rawPath}${loggedQuery === "" ? "" : `?${loggedQuery}`} → ${status || "dropped"}${fault}\n`);
      }
    };
    const respond = (response: ApiResponse, extraHeaders: Record<string, string> = {}): void => {
      // The server's own clock, as real servers send it (a test's clock may run ahead or behind the client's).
      writeResponse(res, response, { Date: new Date(this.clock()).toUTCString(), ...extraHeaders });
      finish(response.status);
    };

    if (target.length > this.maxUrlLength) return respond({ status: 414, body: "414 URI Too Long\n" });

    const fault = await this.faults.beforeHandling(method, rawPath, req);
    if (fault) entry.fault = fault.kind;
    if (fault?.instead === "dropped") return finish(0);
    if (fault?.instead) return respond(fault.instead);

    const query = new URLSearchParams(rawQuery);
    const { token, user, jobTokenProjectId } = callerOf(this.state, this.areas, this.router.match(method, rawPath)?.route, req, query);

    let response: ApiResponse | undefined;
    let rateLimitHeaders: Record<string, string> = {};
    // Authenticated throttles count per user, unauthenticated ones per address; limits are read per request.
    const throttle: ThrottleName = user ? "throttle_authenticated_api" : "throttle_unauthenticated_api";
    const limits = throttleStore.of(this.state)[throttle];
    if (limits) {
      const key = user ? `user:${user.id}` : `ip:${req.socket.remoteAddress ?? ""}`;
      const decision = this.rateLimiter.hit(key, throttle, limits);
      rateLimitHeaders = decision.headers;
      if (decision.limited) response = { status: 429, body: RATE_LIMIT_BODY, headers: { "Content-Type": "text/plain" } };
    }

    if (!response) {
      response = await this.answer(req, { method, rawPath, rawQuery, query, token, user, jobTokenProjectId }, () => (entry.handled = true));
      if (entry.handled && MUTATING_METHODS.has(method)) this.save();
    }

    // The application answered; a fault after handling loses that answer on its way back.
    const replaced = fault?.afterHandling?.();
    if (replaced === "dropped") return finish(0);
    if (replaced) return respond(replaced);
    respond(response, rateLimitHeaders);
  }

  /** Routes, authenticates, declares params and runs the handler; errors become responses. */
  private async answer(
    req: IncomingMessage,
    request: {
      method: string;
      rawPath: string;
      rawQuery: string;
      query: URLSearchParams;
      token: string | undefined;
      user: User | null;
      jobTokenProjectId: number | undefined;
    },
    /** Called just before the route handler runs. */
    onHandling: () => void,
  ): Promise<ApiResponse> {
    const { method, rawPath, rawQuery, query, token, user, jobTokenProjectId } = request;
    const search = rawQuery === "" ? "" : `?${rawQuery}`;
    let match: RouteMatch | undefined;
    try {
      match = this.router.match(method, rawPath);
      if (!match) throw routeNotFound();
      if (token !== undefined && !user) throw unauthorized();
      // The API guard refuses a blocked account's valid token (`api_access_allowed?`).
      if (user?.blocked) throw new ApiError(403, { message: "403 Forbidden - Your account has been blocked." });
      // The API guard's scopes: a token that lists them needs `api`, or `read_api` for a read (403 insufficient_scope).
      const scopes = token === undefined || match.route.outsideApi ? undefined : user?.tokenScopes?.[token];
      if (scopes !== undefined && !scopesAllow(scopes, method)) throw insufficientScope();
      // authenticate_non_get!: every write needs a user.
      if (!user && MUTATING_METHODS.has(method) && !match.route.outsideApi) throw unauthorized();

      const body = await readBody(req);
      const rawParams: RawParams = {
        ...parseNestedParams(query),
        // Routes outside /api/v4 read their bodies themselves (`ctx.rawBody`: compressed, or not JSON at all).
        ...(match.route.outsideApi ? {} : parseBody(req.headers["content-type"], body)),
        ...match.pathParams,
      };
      if (match.route.paginated) readOffsetPageRequest(rawParams);
      const ctx: RequestContext = {
        method,
        rawPath,
        url: new URL(this.baseUrl + rawPath + search),
        headers: req.headers,
        pathParams: match.pathParams,
        rawParams,
        params: declareParams(match.route.params, rawParams),
        rawBody: body,
        user,
        ...(jobTokenProjectId === undefined ? {} : { jobTokenProjectId }),
        state: this.state,
      };
      for (const area of this.areas) {
        const refusal = area.refuses?.(ctx, match.route);
        if (refusal) throw refusal;
      }
      onHandling();
      return await match.route.handler(ctx);
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, body: error.body, headers: error.headers };
      if (error instanceof MovedError && match) return this.redirect(rawPath, search, match, error);
      if (process.env["EMULATOR_DEBUG"]) console.error(error);
      const failure = internalServerError();
      return { status: failure.status, body: failure.body };
    }
  }

  /** 301 to the same URL with the moved project's numeric id in place of its former path. */
  private redirect(rawPath: string, search: string, match: RouteMatch, moved: MovedError): ApiResponse {
    const segments = rawPath.split("/");
    const index = match.paramSegmentIndex[moved.param];
    if (index !== undefined) segments[index] = encodeURIComponent(moved.replacement);
    return {
      status: 301,
      body: { message: "301 Moved Permanently" },
      headers: { Location: `${this.baseUrl}${segments.join("/")}${search}` },
    };
  }
}

/** Starts an emulator on 127.0.0.1 and resolves once it is listening. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const clock = options.clock ?? Date.now;
  const seed = readSeed(options.seed ?? defaultSeed);
  const faultPlan = options.faults ?? seed.faults;
  // Validated before anything starts, so a bad plan fails the start, not the first request.
  if (faultPlan !== undefined) parseFaultPlan(faultPlan, options.faults ? "fault plan" : "fault plan in the seed (faults)");
  const areas = [...servedAreas, ...(options.extraRoutes ?? [])];
  if (!(options.stateFile && existsSync(options.stateFile))) {
    for (const area of areas) await area.lifecycle?.prepare?.(seed);
  }
  const state = loadState(options, seed, clock);
  for (const area of areas) await area.lifecycle?.start(state, { stateFile: options.stateFile });
  const core = new EmulatorServer(state, options, clock);
  core.faults.setPlan(faultPlan);
  const maxUrlLength = options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
  // Node answers 431 itself when the request line and headers pass maxHeaderSize;
  // raise it well above maxUrlLength so that the emulator's own 414 answers first.
  const listener: RequestListener = (req, res) => {
    core.handle(req, res).catch((error: unknown) => {
      if (process.env["EMULATOR_DEBUG"]) console.error(error);
      if (!res.headersSent) writeResponse(res, { status: 500, body: internalServerError().body }, {});
    });
  };
  const serverOptions = { maxHeaderSize: Math.max(maxUrlLength * 2, 64 * 1024) + 16 * 1024 };
  const { tls } = options;
  const server: Server = tls
    ? createTlsServer({ ...serverOptions, cert: tls.cert, key: tls.key, ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}) }, listener)
    : createServer(serverOptions, listener);
  // nginx in front of a real server keeps an idle connection 65 s; Node's own 5 s lets a client reuse a socket the
  // emulator is closing at that moment, and under load that race failed tests with ECONNRESET.
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  core.baseUrl = `${tls ? "https" : "http"}://127.0.0.1:${port}`;
  if ((options.backgroundWork ?? (options.clock ? "manual" : "auto")) === "auto") core.startBackgroundWork();

  let stopped: Promise<void> | undefined;
  return {
    url: core.baseUrl,
    apiUrl: `${core.baseUrl}/api/v4`,
    get tokens() {
      return Object.fromEntries(
        state.users.flatMap((user) => (user.tokens[0] === undefined ? [] : [[user.username, user.tokens[0]]])),
      );
    },
    get requestLog() {
      return core.log;
    },
    clearLog: () => {
      core.log.length = 0;
    },
    mark: () => core.mark(),
    requestsSince: (mark) => core.log.filter((entry) => entry.seq >= mark),
    inject: (answer) => core.faults.inject(answer),
    setFaultPlan: (plan) => core.faults.setPlan(plan),
    clearFaults: () => core.faults.clear(),
    runDueWork: () => core.runDueWork(),
    nextWorkDone: () => core.nextWorkDone(),
    state,
    save: () => core.save(),
    stop: () => {
      stopped ??= new Promise<void>((resolve, reject) => {
        core.stopBackgroundWork();
        core.stopping.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        // close() alone waits for requests in progress; end those too.
        server.closeAllConnections();
      })
        .then(() => core.settled())
        .then(() => core.save())
        .then(async () => {
          for (const area of areas) await area.lifecycle?.stop(state);
        });
      return stopped;
    },
  };
}
