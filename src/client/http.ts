/**
 * The one HTTP core every API call goes through: authentication, JSON bodies,
 * redirects after path changes, errors, retries and pagination live here and
 * nowhere else. Per-area calls are thin request builders on top of it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { ReadLimitExceeded } from "../bounded-read";
import { ApiError, isCertificateFailure, isPassingServerFailure, mayHaveReachedServer, NetworkError, parseErrorBody, STACK_TOKEN_SETTING } from "./errors";
import { DOT_SEGMENT_RULE, hasDotSegment } from "../validation";
import { linkRelation } from "./pagination";
import { clientClock } from "./clock";
import { RateLimitGate } from "./rate-limit-gate";
import { closeAllDispatchers, DispatcherSlot, proxyPasswords, type TlsOptions } from "./transport";

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export interface ClientOptions {
  /** The server's base URL, e.g. `https://platform.example.com`; the client adds `/api/v4`. */
  url: string;
  token: string;
  /** Attempts per request, the first included (throttled answers are counted apart). */
  maxAttempts?: number;
  /**
   * How long one request may take in all, its retries included; time the
   * rate-limit gate holds it is pacing and does not count. A server that keeps
   * failing gives an error within this time.
   */
  retryTimeoutMs?: number;
  /** Base of the exponential backoff. */
  retryBaseDelayMs?: number;
  /** Time allowed for the headers and for the body of one response. */
  requestTimeoutMs?: number;
  /** Connections (and so requests in flight) per server. */
  maxConcurrency?: number;
  /** TLS to the server: a private CA, a client certificate (mTLS), or no verification (see ./transport.ts). */
  tls?: TlsOptions;
  /**
   * Headers sent with every request to the server (a proxy in front of it may
   * demand its own credentials); never with a download redirected to another host.
   */
  headers?: Readonly<Record<string, string>>;
  /** Where the user set the token, for the advice on a 401: `connection.token` for a resource's own connection. */
  tokenSetting?: string;
  /**
   * `job`: the token is a CI job token, sent as `JOB-TOKEN` (and as the
   * password of `gitlab-ci-token` to the registry's token service); it reaches
   * only the container registry of the project whose pipeline made it, which
   * the errors of anything else say. Default `access`: `PRIVATE-TOKEN`.
   */
  tokenKind?: "access" | "job";
  /** Where the user set the URL, for the advice when no answer comes: `connection.url` for a resource's own connection. */
  urlSetting?: string;
  /** The most read of one successful answer held in memory (default MAX_ANSWER_BYTES); past it the request fails, naming the limit. */
  maxAnswerBytes?: number;
}

/** A file sent in a multipart form. */
export interface FilePart {
  filename: string;
  content: Uint8Array;
  /** Default application/octet-stream. */
  contentType?: string;
}

/**
 * A multipart/form-data body: plain values are sent as text fields (null as
 * an empty field), arrays and hashes with the nesting real servers read
 * (`name[]`, `name[key]`, `name[][key]`), files as file parts.
 */
export type FormValue = string | number | boolean | null | undefined | FilePart | readonly FormValue[] | { readonly [key: string]: FormValue };
export type FormFields = Record<string, FormValue>;

export interface RequestOptions<T> {
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data instead of `body` (file uploads). */
  form?: FormFields;
  /**
   * For POST only: looks for the object a lost attempt may already have created.
   * Without it, a POST whose outcome is unknown is not retried (no duplicates).
   */
  findCreated?: () => Promise<T | undefined>;
  /**
   * The answer is a file: its body is returned as bytes, not parsed, and a
   * redirect to another host (object storage's signed address, where real
   * servers send downloads) is followed without the token.
   */
  binary?: boolean;
  /**
   * The answer is a file read as a stream by `consume` instead of held in
   * memory (downloads of any size); redirects as for `binary`. It runs once
   * per attempt, so it must start afresh each time; its own failures (a full
   * disk) end the request at once, a broken connection is retried. The
   * request timeout bounds the wait for the headers and each stall of the
   * body, not the whole download.
   */
  consume?: StreamConsumer<T>;
  /**
   * Credentials other than the personal token's header, for the services
   * beside the API (see `Credentials`). Without them, the personal token.
   */
  credentials?: Credentials;
}

/**
 * How a request to a service beside the API authenticates:
 * - `basicUsername`: HTTP Basic with that username and the client's own
 *   personal token as the password (a token service such as `/jwt/auth`);
 *   only ever to the configured server;
 * - `bearer`: a token another service issued (a registry token), sent as
 *   `Authorization: Bearer`, to the request's own host and nowhere else; the
 *   personal token is not sent with it.
 */
export type Credentials = { basicUsername: string } | { bearer: string };

/** Reads a successful answer's body as it arrives (see `PlatformClient.stream`). */
export type StreamConsumer<T> = (body: Readable, headers: Dispatcher.ResponseData["headers"]) => Promise<T>;

/** A failure of a stream consumer (not of the connection): never retried. */
class ConsumerFailure extends Error {
  constructor(override readonly cause: unknown) {
    super("stream consumer failed");
  }
}

/** A file the API serves (an avatar), as `download` returns it. */
export interface DownloadedFile {
  content: Buffer;
  /** From `Content-Type`, without parameters. */
  contentType?: string;
  /** From `Content-Disposition`. */
  filename?: string;
}

/** A GraphQL answer: the data asked for, and what the server could not answer (message, where in the query, which field). */
export interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: { message: string; locations?: { line: number; column: number }[]; path?: (string | number)[] }[];
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

/** Worth another attempt: a timeout, a throttle, and a server failure that may pass. */
function isRetryable(status: number): boolean {
  return status === 408 || status === 429 || isPassingServerFailure(status);
}
/** Throttled answers one request takes before giving up, however long its deadline. */
const MAX_THROTTLED_ANSWERS = 20;
/** An attempt with less time than this before the deadline is not started. */
const MIN_ATTEMPT_MS = 100;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const MAX_BACKOFF_MS = 8_000;
/**
 * The most read of a successful answer held in memory (a page, an object, a
 * downloaded avatar). Real answers are far smaller: the largest page the
 * toolkit reads is 100 merge request notes, each at most the server's
 * 1,000,000 characters (about 100 MB of JSON at worst); an answer that goes
 * on past this is no answer of the API's, and a server that never ends one
 * would otherwise grow the process without bound.
 */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
/** The most read of an error answer (or a redirect): enough for any message the server words. */
export const MAX_ERROR_ANSWER_BYTES = 1024 * 1024;
export const PAGE_SIZE = 100;
/** The username a CI job token goes with to the registry's token service (the password is the token). */
const JOB_TOKEN_USERNAME = "gitlab-ci-token";
/** The query of a list's first page when the caller gives none. */
const FIRST_PAGE: Query = { per_page: PAGE_SIZE };
/** Sent with every request, to any host. */
const BASE_HEADERS: Readonly<Record<string, string>> = { accept: "application/json", "user-agent": "pulumi-platform" };

/** One page of a list, and the address of the next one, if any. */
interface ListPage<T> {
  page: T[];
  next: URL | undefined;
}

/** A response read to its end. */
interface Exchange {
  status: number;
  headers: Dispatcher.ResponseData["headers"];
  /** Text for an answer that is parsed (read as text at once, one copy less), bytes for a file. */
  body: Buffer | string;
  /** What a stream consumer made of a successful answer (its body is then empty). */
  consumed?: unknown;
}

/** The deadline of the request on whose behalf the current requests run (a POST's findCreated lookup). */
const enclosingDeadline = new AsyncLocalStorage<number>();

/**
 * Called before every attempt of a request that may change something on a server (any method but GET and HEAD),
 * once the request may leave: throwing refuses it, sending nothing. The engine stops writes this way when the
 * Pulumi engine that asked for them is gone (src/engine/engine-end.ts).
 */
let writeGuard: ((method: string, path: string) => void) | undefined;

/** Sets (or, with undefined, removes) the check made before every write attempt; see `writeGuard`. */
export function guardWrites(guard: ((method: string, path: string) => void) | undefined): void {
  writeGuard = guard;
}

/** One rate-limit gate per server and token: throttles count per user. */
const gates = new Map<string, RateLimitGate>();
/** Bumped when the gates are dropped, so that a client's remembered gate is looked up again. */
let gatesGeneration = 0;

function gateFor(origin: string, token: string, maxInFlight: number): RateLimitGate {
  const key = `${origin}\n${token}`;
  let gate = gates.get(key);
  if (!gate) gates.set(key, (gate = new RateLimitGate(maxInFlight)));
  return gate;
}

/** Closes every connection (tests, and processes that want to exit promptly). */
export async function closeAllPools(): Promise<void> {
  gates.clear();
  gatesGeneration++;
  await closeAllDispatchers();
}

/**
 * One value as one path segment: URL-encoded, so a full path such as
 * `acme/web` travels as `acme%2Fweb`. A value that is `.` or `..`, or holds
 * one as a segment (`acme/..`, `%2e%2e`), is refused rather than sent: URL
 * parsers resolve even the encoded forms (`/a/%2E%2E/b` is `/b`), so no
 * encoding would keep it from naming another object.
 */
export function pathSegment(value: string | number): string {
  const text = String(value);
  if (hasDotSegment(text)) throw new Error(`the path segment ${JSON.stringify(text)} was not sent: a value in a path ${DOT_SEGMENT_RULE}.`);
  return encodeURIComponent(text);
}

/** Builds an API path with every interpolated value a path segment (`pathSegment`): apiPath`/projects/${project}/badges`. */
export function apiPath(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  return strings.reduce((path, literal, index) => {
    const value = index < values.length ? pathSegment(values[index]!) : "";
    return path + literal + value;
  }, "");
}

/**
 * The last guard before a request leaves: a path (its query aside) with a
 * `.` or `..` segment, plain or encoded, is never sent, whoever built it (a
 * recorded id read back, an answer's name).
 */
function sendablePath(path: string): string {
  const pathname = path.split(/[?#]/, 1)[0]!;
  if (hasDotSegment(pathname)) throw new Error(`the request to ${path} was not sent: a path ${DOT_SEGMENT_RULE}.`);
  return path;
}

/** One request across its attempts: where it goes now, how often it failed, and when it must end. */
class RequestRun {
  readonly started = clientClock().now();
  /** Time held by the rate-limit gate is the server's pacing, not failure: it moves the deadline. */
  pacedMs = 0;
  failures = 0;
  throttled = 0;
  redirects = 0;
  /** Set once a download is redirected to another host: the token stays on the configured server. */
  anonymous = false;
  /** The method of the next attempt (a 303 turns it into GET). */
  method: string;
  // A request made on behalf of another (findCreated's lookup) ends by the other's deadline.
  private readonly outerDeadline = enclosingDeadline.getStore() ?? Infinity;

  constructor(
    readonly originalMethod: string,
    public url: URL,
    readonly path: string,
    private readonly retryTimeoutMs: number,
  ) {
    this.method = originalMethod;
  }

  /** When the request must have ended (ms since the epoch); an arrow, as `shouldRetry` and findCreated's lookup take it. */
  readonly deadline = (): number => Math.min(this.outerDeadline, this.started + this.pacedMs + this.retryTimeoutMs);

  /** The request's final error, saying how often and how long it was tried. */
  giveUp(error: Error): Error {
    return withRetryContext(error, this.failures + this.throttled, clientClock().now() - this.started - this.pacedMs, this.retryTimeoutMs);
  }
}

/** A successful answer as the caller gets it: consumed, bytes, or parsed. */
function successfulAnswer<T>(response: Exchange, options: RequestOptions<T>): ApiResponse<T> {
  const { status, headers } = response;
  if (status < 300 && options.consume) return { status, headers, body: response.consumed as T };
  if (options.binary) return { status, headers, body: response.body as T };
  return { status, headers, body: parseBody(bodyText(response), headers) as T };
}

function bodyText(response: Exchange): string {
  return typeof response.body === "string" ? response.body : response.body.toString("utf8");
}

export class PlatformClient {
  readonly baseUrl: string;
  private readonly apiBase: URL;
  private readonly token: string;
  private readonly options: Required<ClientOptions>;
  /** The headers of every request to the configured server (the token, the extra ones), made once. */
  private readonly serverHeaders: Readonly<Record<string, string>>;
  /**
   * Every credential this client sends or holds (the token, each extra header's value, the client key,
   * a proxy's password, the Basic and bearer forms it sends), in each form a server may repeat it:
   * masked in all of the server's text the client passes on, so no caller prints one, however it words
   * the error (`withoutCredentials`).
   */
  private credentials: readonly string[];
  /** This client's gate on its own server, and the generation of the gates it was taken from (see `gateOf`). */
  private gate: { gate: RateLimitGate; generation: number } | undefined;
  private readonly dispatcher: DispatcherSlot;

  constructor(options: ClientOptions) {
    this.options = {
      maxAttempts: 6,
      retryTimeoutMs: 120_000,
      retryBaseDelayMs: 250,
      requestTimeoutMs: 30_000,
      maxConcurrency: 8,
      tls: {},
      headers: {},
      tokenSetting: STACK_TOKEN_SETTING,
      urlSetting: "platform:url",
      tokenKind: "access",
      maxAnswerBytes: MAX_ANSWER_BYTES,
      // An option given as undefined keeps its default.
      ...(Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as ClientOptions),
    };
    this.baseUrl = options.url.replace(/\/+$/, "");
    this.apiBase = new URL(this.baseUrl + "/api/v4");
    this.token = options.token;
    // The extra headers go where the token goes: to the configured server only.
    const tokenHeader = this.options.tokenKind === "job" ? "job-token" : "private-token";
    this.serverHeaders = { ...BASE_HEADERS, ...this.options.headers, [tokenHeader]: this.token };
    this.credentials = credentialForms([this.token, ...Object.values(this.options.headers), ...(this.options.tls.key ? [this.options.tls.key] : []), ...proxyPasswords()]);
    const { tls, maxConcurrency: connections, requestTimeoutMs } = this.options;
    this.dispatcher = new DispatcherSlot({ tls, connections, requestTimeoutMs });
  }

  /**
   * The rate-limit gate of this server and token. Every request starts on the
   * configured server, so the one gate is kept here rather than looked up by
   * a key made at every request; `closeAllPools` drops it.
   */
  private gateOf(): RateLimitGate {
    if (this.gate === undefined || this.gate.generation !== gatesGeneration) {
      this.gate = { gate: gateFor(this.apiBase.origin, this.token, this.options.maxConcurrency), generation: gatesGeneration };
    }
    return this.gate.gate;
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>("GET", path, { query }).then((r) => r.body);
  }
  post<T>(path: string, body: unknown, findCreated?: () => Promise<T | undefined>): Promise<T> {
    return this.request<T>("POST", path, { body, findCreated }).then((r) => r.body);
  }
  put<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>("PUT", path, { body }).then((r) => r.body);
  }
  /** A PUT with a multipart/form-data body, for endpoints that take files (avatars). */
  putForm<T>(path: string, form: FormFields): Promise<T> {
    return this.request<T>("PUT", path, { form }).then((r) => r.body);
  }
  patch<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>("PATCH", path, { body }).then((r) => r.body);
  }
  delete<T = unknown>(path: string, query?: Query): Promise<T> {
    return this.request<T>("DELETE", path, { query }).then((r) => r.body);
  }
  /** A GET of a file (an avatar): its bytes, with the type and name the server gives. */
  async download(path: string, query?: Query): Promise<DownloadedFile> {
    const response = await this.request<Buffer>("GET", path, { query, binary: true });
    const type = response.headers["content-type"];
    const contentType = typeof type === "string" ? type.split(";")[0]!.trim() || undefined : undefined;
    return { content: response.body, contentType, filename: dispositionFilename(response.headers["content-disposition"]) };
  }

  /**
   * A GET whose answer is read as it arrives by `consume` (a download written
   * to disk), never held whole in memory. Retries, redirects and errors as for
   * any request; `consume` runs once per attempt and must start afresh.
   */
  stream<T>(path: string, query: Query | undefined, consume: StreamConsumer<T>): Promise<T> {
    return this.request<T>("GET", path, { query, consume }).then((r) => r.body);
  }

  /**
   * A GET of the configured server outside `/api/v4` (`/jwt/auth`): `path`
   * is from the server's root; `credentials` say how it authenticates.
   */
  getOutsideApi<T>(path: string, query: Query | undefined, credentials: Credentials): Promise<ApiResponse<T>> {
    return this.send<T>("GET", withQuery(new URL(this.baseUrl + path), query), path, { credentials });
  }

  /**
   * The pages of a list another service serves with a bearer token (the
   * registry's catalog), from `start`, following `Link rel="next"` on that
   * host only; each page's whole answer, as the list's shape is the service's.
   */
  async *pagesWithBearer<T>(start: URL, bearer: string): AsyncGenerator<ApiResponse<T>> {
    let url: URL | undefined = start;
    while (url) {
      const response: ApiResponse<T> = await this.send<T>("GET", url, url.pathname, { credentials: { bearer } });
      yield response;
      url = nextPageOf(response, url, start, url.pathname, this.credentials);
    }
  }

  /**
   * A GraphQL query at `/api/graphql` of the configured server, with the
   * token: the answer as sent, `data` and the `errors` of a query the server
   * refused (it answers those with 200). A query creates nothing, so an
   * attempt whose answer was lost is asked again, as a GET is.
   */
  async graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<GraphqlAnswer<T>> {
    const path = "/api/graphql";
    const response = await this.send<GraphqlAnswer<T>>("POST", new URL(this.baseUrl + path), path, { body: { query, variables }, findCreated: async () => undefined });
    const answer = response.body;
    // The refusals of a query are the server's words too, printed by whoever asked.
    if (answer && Array.isArray(answer.errors)) answer.errors = answer.errors.map((error) => ({ ...error, message: withoutCredentials(String(error.message), this.credentials) }));
    return answer;
  }

  /** The details of an error answer with every credential masked: the parsed text (an HTML page's entities, JSON's escapes) decoded. */
  private maskedDetails(details: ReturnType<typeof parseErrorBody>): ReturnType<typeof parseErrorBody> {
    const masked = (text: string) => withoutCredentials(text, this.credentials);
    const fieldErrors = details.fieldErrors && Object.fromEntries(Object.entries(details.fieldErrors).map(([field, messages]) => [masked(field), messages.map(masked)]));
    return { ...details, serverMessage: masked(details.serverMessage), ...(fieldErrors ? { fieldErrors } : {}) };
  }

  /** Every item of a list endpoint, following `Link rel="next"` (offset and keyset alike). */
  async list<T>(path: string, query?: Query): Promise<T[]> {
    // A plain loop rather than `pages`: most lists are one page, read without an async generator's machinery.
    let items: T[] | undefined;
    let url: URL | undefined = this.firstPage(path, query);
    while (url) {
      const { page, next }: ListPage<T> = await this.page<T>(url, path);
      if (items === undefined) items = page;
      else for (const item of page) items.push(item);
      url = next;
    }
    return items ?? [];
  }

  /** The first item of a list endpoint that matches, reading no further pages than needed. */
  async find<T>(path: string, query: Query | undefined, predicate: (item: T) => boolean): Promise<T | undefined> {
    let url: URL | undefined = this.firstPage(path, query);
    while (url) {
      const { page, next }: ListPage<T> = await this.page<T>(url, path);
      const found = page.find(predicate);
      if (found !== undefined) return found;
      url = next;
    }
    return undefined;
  }

  async *pages<T>(path: string, query?: Query): AsyncGenerator<T[]> {
    let url: URL | undefined = this.firstPage(path, query);
    while (url) {
      const { page, next }: ListPage<T> = await this.page<T>(url, path);
      yield page;
      url = next;
    }
  }

  private firstPage(path: string, query: Query | undefined): URL {
    return this.urlFor(path, query === undefined ? FIRST_PAGE : { per_page: PAGE_SIZE, ...query });
  }

  /** One page of a list: its items, and the next page's address (on this server only), if any. */
  private async page<T>(url: URL, path: string): Promise<ListPage<T>> {
    const response: ApiResponse<T[]> = await this.send<T[]>("GET", url, path, {});
    if (!Array.isArray(response.body)) {
      throw new Error(`GET ${path}: expected a list from the server, got ${typeof response.body}.`);
    }
    return { page: response.body, next: nextPageOf(response, url, this.apiBase, path, this.credentials) };
  }

  async request<T>(method: string, path: string, options: RequestOptions<T> = {}): Promise<ApiResponse<T>> {
    return this.send<T>(method, this.urlFor(path, options.query), path, options);
  }

  private urlFor(path: string, query?: Query): URL {
    // `path` is already encoded (see apiPath); URL keeps %2F as it is.
    return withQuery(new URL(this.apiBase.href + sendablePath(path)), query);
  }

  /** Follows only addresses on the configured server: the token is never sent elsewhere. */
  private sameServer(url: URL, path: string): URL {
    return sameOrigin(url, this.apiBase, path, this.credentials);
  }

  private async send<T>(method: string, startUrl: URL, path: string, options: RequestOptions<T>): Promise<ApiResponse<T>> {
    const run = new RequestRun(method, startUrl, path, this.options.retryTimeoutMs);
    const { credentials } = options;
    if (credentials && "basicUsername" in credentials) this.sameServer(startUrl, path);
    // Another service's host (the registry) has its own pace; the gate of the API's user is not its.
    const gate = credentials === undefined || startUrl.origin === this.apiBase.origin ? this.gateOf() : gateFor(startUrl.origin, "", this.options.maxConcurrency);
    for (;;) {
      // Most requests pass at once; only a held one awaits (and its wait is pacing).
      let pass = gate.tryAdmit();
      if (pass === undefined) {
        const gateStart = clientClock().now();
        pass = await gate.admit();
        run.pacedMs += clientClock().now() - gateStart;
      }
      if (writeGuard && run.method !== "GET" && run.method !== "HEAD") {
        try {
          writeGuard(run.method, path);
        } catch (refused) {
          gate.settle(pass, undefined, undefined);
          throw refused;
        }
      }
      let response: Exchange;
      try {
        const timeoutMs = Math.max(1, Math.min(this.options.requestTimeoutMs, run.deadline() - clientClock().now()));
        response = await this.exchange(run.method, run.url, run.path, options, this.headersFor(run, credentials), timeoutMs);
      } catch (cause) {
        gate.settle(pass, undefined, undefined);
        const found = await this.afterNetworkFailure(run, cause, options);
        if (found) return found;
        continue;
      }
      const { status, headers } = response;
      const askedWaitMs = status === 429 ? serverWaitMs(headers) : undefined;
      // A wait past this request's deadline fails it below; it does not hold the other requests that long.
      const waitWithinDeadline = askedWaitMs !== undefined && clientClock().now() + askedWaitMs <= run.deadline();
      gate.settle(pass, status, headers, waitWithinDeadline ? askedWaitMs : undefined);
      if (this.followRedirect(run, response, options)) continue;
      if (status < 400) return successfulAnswer<T>(response, options);
      const found = await this.afterErrorAnswer(run, response, askedWaitMs, waitWithinDeadline, options);
      if (found) return found;
    }
  }

  /**
   * After an attempt that got no answer: throws the error for the user, or
   * returns the object a lost POST had created, or undefined once it is time
   * for the next attempt.
   */
  private async afterNetworkFailure<T>(run: RequestRun, cause: unknown, options: RequestOptions<T>): Promise<ApiResponse<T> | undefined> {
    if (cause instanceof ConsumerFailure) throw cause.cause;
    // An answer past the limit would be as long again at the next attempt.
    if (cause instanceof ReadLimitExceeded) throw cause;
    run.failures++;
    const facts = { https: run.url.protocol === "https:", clientCertificate: this.options.tls.cert !== undefined, urlSetting: this.options.urlSetting };
    // A certificate not trusted is refused the same way at every attempt.
    if (isCertificateFailure(cause)) throw new NetworkError(run.method, run.path, cause, facts);
    const retry = await this.shouldRetry(run.method, run.failures, run.deadline, mayHaveReachedServer(cause), options, undefined);
    if (retry.found !== undefined) return retry.found;
    const error = new NetworkError(run.method, run.path, cause, facts);
    if (retry.delayMs === undefined) throw run.giveUp(retry.unchecked ? withUncheckedCreate(error, retry.unchecked) : error);
    await clientClock().sleep(retry.delayMs);
    return undefined;
  }

  /** Whether the answer was a redirect the request now follows (to the same server, or a download's to object storage). */
  private followRedirect<T>(run: RequestRun, response: Exchange, options: RequestOptions<T>): boolean {
    const { status, headers } = response;
    if (!REDIRECT_STATUSES.has(status) || typeof headers.location !== "string") return false;
    if (++run.redirects > MAX_REDIRECTS) throw new Error(`${run.originalMethod} ${run.path}: too many redirects.`);
    const target = new URL(headers.location, run.url);
    if ((options.binary || options.consume) && run.method === "GET" && target.origin !== this.apiBase.origin) {
      run.url = target;
      run.anonymous = true;
    } else if (options.credentials && "bearer" in options.credentials) {
      // A bearer token stays on the host that issued the request to it.
      run.url = sameOrigin(target, run.url, run.path, this.credentials);
    } else run.url = this.sameServer(target, run.path);
    if (status === 303) run.method = "GET";
    return true;
  }

  /**
   * After an error answer: throws it (explained), or returns the object a POST
   * had created after all, or undefined once it is time for the next attempt.
   */
  private async afterErrorAnswer<T>(
    run: RequestRun,
    response: Exchange,
    askedWaitMs: number | undefined,
    waitWithinDeadline: boolean,
    options: RequestOptions<T>,
  ): Promise<ApiResponse<T> | undefined> {
    const { status, headers } = response;
    const error = new ApiError({
      status,
      method: run.method,
      path: run.path,
      retryAfterSeconds: askedWaitMs === undefined ? undefined : Math.ceil(askedWaitMs / 1000),
      tokenSetting: this.options.tokenSetting,
      jobToken: this.options.tokenKind === "job",
      unrepeatable: run.method === "POST" && !options.findCreated,
      ...this.maskedDetails(parseErrorBody(withoutCredentials(bodyText(response), this.credentials), headers["content-type"])),
    });
    if (!isRetryable(status)) throw error;
    if (status === 429) {
      // Throttling is bounded by its own count and by the deadline, not by the attempts meant for failures.
      if (++run.throttled > MAX_THROTTLED_ANSWERS) throw run.giveUp(error);
      if (askedWaitMs !== undefined) {
        // The gate holds this request (and every other) until then; only a wait past the deadline gives up at once.
        if (!waitWithinDeadline) throw run.giveUp(error);
        return undefined;
      }
    } else run.failures++;
    // Only a 429 is known not to have been processed (the throttle answers before the application).
    // A 429 without a wait hint (GitLab's ApplicationRateLimiter sends none) backs off by its own count,
    // so a one-minute window (changelog, archives: 5 a minute) is waited out, not bounced off 20 times.
    const step = status === 429 ? run.throttled : run.failures;
    const retry = await this.shouldRetry(run.method, run.failures, run.deadline, status !== 429, options, headers, step);
    if (retry.found !== undefined) return retry.found;
    if (retry.delayMs === undefined) throw run.giveUp(retry.unchecked ? withUncheckedCreate(error, retry.unchecked) : error);
    await clientClock().sleep(retry.delayMs);
    return undefined;
  }

  /**
   * Decides whether a failed attempt is tried again and after how long. A POST
   * whose first attempt may have been processed is retried only once
   * `findCreated` has shown that it created nothing; if it did, that object is the result.
   */
  private async shouldRetry<T>(
    method: string,
    failures: number,
    deadline: () => number,
    processed: boolean,
    options: RequestOptions<T>,
    headers: Dispatcher.ResponseData["headers"] | undefined,
    backoffStep = failures,
  ): Promise<{ delayMs?: number; found?: ApiResponse<T>; unchecked?: unknown }> {
    if (failures >= this.options.maxAttempts) return {};
    const backoff = Math.min(MAX_BACKOFF_MS, this.options.retryBaseDelayMs * 2 ** Math.max(0, backoffStep - 1));
    const jittered = backoff / 2 + Math.random() * (backoff / 2);
    const asked = headers ? serverWaitMs(headers) : undefined;
    const delayMs = asked !== undefined ? Math.max(asked, jittered / 4) : jittered;
    // The next attempt needs some time of its own before the deadline.
    if (clientClock().now() + delayMs + MIN_ATTEMPT_MS > deadline()) return {};

    if (method === "POST" && processed) {
      if (!options.findCreated) return {};
      await clientClock().sleep(delayMs);
      let existing: T | undefined;
      try {
        // The lookup is part of this POST: it ends by the POST's deadline, not a fresh one.
        existing = await enclosingDeadline.run(deadline(), options.findCreated);
      } catch (lookupError) {
        // The POST's own failure is what the user must hear about, with the fact that it could not be checked.
        return { unchecked: lookupError };
      }
      if (existing !== undefined) return { found: { status: 201, headers: {}, body: existing } };
      return { delayMs: 0 };
    }
    return { delayMs };
  }

  /**
   * The headers of the next attempt: the personal token only to the configured
   * server, and not after a download left it; other credentials as `Credentials` says.
   */
  private headersFor(run: RequestRun, credentials: Credentials | undefined): Record<string, string> {
    // Without credentials, every address but a download's other host is the configured server's (sameServer).
    if (credentials === undefined) return run.anonymous ? { ...BASE_HEADERS } : { ...this.serverHeaders };
    const onServer = run.url.origin === this.apiBase.origin && !run.anonymous;
    // The extra headers (a proxy's) go to the configured server only, as the token does.
    const base = onServer ? { ...BASE_HEADERS, ...this.options.headers } : { ...BASE_HEADERS };
    if ("bearer" in credentials) {
      this.holdCredentials([credentials.bearer]);
      return { ...base, authorization: `Bearer ${credentials.bearer}` };
    }
    if (!onServer) throw new Error(`${run.path}: refusing to send the token to another host than the configured server (${run.url.origin}).`);
    const pair = `${this.options.tokenKind === "job" ? JOB_TOKEN_USERNAME : credentials.basicUsername}:${this.token}`;
    const basic = Buffer.from(pair).toString("base64");
    // The pair too: its base64 at another alignment is a form the Basic header's is not.
    this.holdCredentials([pair, basic]);
    return { ...base, authorization: `Basic ${basic}` };
  }

  /** Adds credentials this client sends besides its own settings' (a Basic form, a bearer token) to those it masks. */
  private holdCredentials(values: readonly string[]): void {
    if (values.every((value) => this.credentials.includes(value))) return;
    this.credentials = credentialForms([...this.credentials, ...values]);
  }

  /**
   * One request and its whole answer, within `timeoutMs` from the first byte sent to the last byte read;
   * `path` names the request in messages, as every error of the client does.
   */
  private exchange<T>(method: string, url: URL, path: string, options: RequestOptions<T>, headers: Record<string, string>, timeoutMs: number): Promise<Exchange> {
    const { body, form, consume, binary } = options;
    let payload: string | Buffer | undefined;
    if (form !== undefined && method !== "GET" && method !== "DELETE") {
      const multipart = multipartBody(form);
      headers["content-type"] = multipart.contentType;
      payload = multipart.payload;
    } else if (body !== undefined && method !== "GET" && method !== "DELETE") {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const request: Dispatcher.DispatchOptions = {
      origin: url.origin,
      method: method as Dispatcher.HttpMethod,
      path: url.pathname + url.search,
      headers,
      body: payload,
      // undici's own timeouts, coarser than the attempt's timer, stay as a backstop.
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    };
    const dispatcher = this.dispatcher.get();
    const limits = { answerBytes: this.options.maxAnswerBytes, what: `The answer to ${method} ${path}` };
    return consume ? streamedExchange(dispatcher, request, timeoutMs, consume, limits) : bufferedExchange(dispatcher, request, timeoutMs, binary === true, limits);
  }
}

/** The error of an attempt whose time ran out (the name callers and tests know from AbortSignal.timeout). */
function attemptTimeout(message: string): DOMException {
  return new DOMException(message, "TimeoutError");
}

/**
 * One request whose whole answer is read into memory: every request but a
 * streamed download. It goes through undici's dispatch handler, not its
 * `request()`: the answer's chunks are kept as they arrive, with no stream
 * built around them, and the attempt's timer aborts through the handler's
 * controller, with no AbortSignal and its listeners, which makes it cheaper
 * than `request()` with the same options. One timer per attempt, cleared as soon as the attempt
 * is over, bounds the whole exchange to the millisecond.
 */
function bufferedExchange(dispatcher: Dispatcher, request: Dispatcher.DispatchOptions, timeoutMs: number, binary: boolean, limits: AnswerLimits): Promise<Exchange> {
  return new Promise<Exchange>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let timedOut: Error | undefined;
    let status = 0;
    let headers: Exchange["headers"] = {};
    let chunks: Buffer[] = [];
    let received = 0;
    let limit = limits.answerBytes;
    const timer = setTimeout(() => {
      timedOut = attemptTimeout("The operation was aborted due to timeout");
      // Before the request reaches a connection there is no controller yet: it aborts when it gets one.
      controller?.abort(timedOut);
    }, timeoutMs);
    dispatcher.dispatch(request, {
      onRequestStart(started) {
        controller = started;
        if (timedOut) started.abort(timedOut);
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        // 1xx answers (100 Continue) come before the answer itself.
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders;
        chunks = [];
        received = 0;
        limit = answerLimit(statusCode, limits);
      },
      onResponseData(dataController, chunk) {
        // Counted as it arrives: neither Content-Length nor its absence bounds what a server sends.
        received += chunk.length;
        if (received > limit) {
          chunks = [];
          dataController.abort(new ReadLimitExceeded(limits.what, limit));
          return;
        }
        chunks.push(chunk);
      },
      onResponseEnd() {
        clearTimeout(timer);
        const content = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        resolve({ status, headers, body: binary ? content : content.toString("utf8") });
      },
      onResponseError(_controller, error) {
        clearTimeout(timer);
        reject(error);
      },
    });
  });
}

/**
 * A download read as it arrives by `consume`: through undici's `request()`,
 * whose body is the stream the consumer reads. A download may take longer
 * than any answer should: the attempt's timer bounds the wait for the headers,
 * then only a stall of the body (undici's bodyTimeout) ends it.
 */
async function streamedExchange<T>(dispatcher: Dispatcher, request: Dispatcher.DispatchOptions, timeoutMs: number, consume: StreamConsumer<T>, limits: AnswerLimits): Promise<Exchange> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(attemptTimeout("headers timeout")), timeoutMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await dispatcher.request({ ...request, signal: deadline.signal });
  } finally {
    clearTimeout(timer);
  }
  if (response.statusCode >= 300) {
    // An error answer (or a redirect) is read whole, to be explained or followed: up to its limit.
    return { status: response.statusCode, headers: response.headers, body: await readWithin(response.body, answerLimit(response.statusCode, limits), limits.what) };
  }
  try {
    return { status: response.statusCode, headers: response.headers, body: Buffer.alloc(0), consumed: await consume(response.body, response.headers) };
  } catch (error) {
    // A body that broke off is the connection's failure (retried); anything else is the consumer's.
    if (response.body.errored) throw response.body.errored;
    throw new ConsumerFailure(error);
  } finally {
    // A consumer that stopped early leaves no half-read connection behind.
    if (!response.body.readableEnded) response.body.destroy();
  }
}

/** What a masked credential reads as, the engine's word for every secret. */
const MASKED = "[secret]";
/** Shorter values are not masked: they would mask ordinary words (a header `X-Env: dev`), and guess nothing. */
const MIN_MASKED_LENGTH = 4;

/** The shortest piece of a credential masked where an answer (or a message's bound) cuts it off at the end. */
const MIN_MASKED_TAIL = 8;

/**
 * The forms in which a server may repeat each credential it was sent: as sent,
 * escaped in a JSON string, percent-encoded (a URL or a query it echoes) and
 * form-encoded (`+` for a space), HTML-escaped (an error page), and in base64
 * and base64url at each of the three alignments (a quoted Basic header, a
 * token inside an encoded blob); longest first, so a credential that contains
 * another is masked whole. Case and line breaks are ignored when they are
 * looked for (`withoutCredentials`).
 */
function credentialForms(values: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_MASKED_LENGTH) continue;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(encodeURIComponent(value));
    forms.add(new URLSearchParams({ v: value }).toString().slice(2));
    forms.add(value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;"));
    for (const encoded of base64Forms(value)) if (encoded.length >= MIN_MASKED_TAIL) forms.add(encoded);
    // A PEM key also as its base64 lines: a server or proxy that quotes it drops the armour.
    for (const line of value.split(/\r?\n/)) if (line.length >= 16 && !line.startsWith("-----")) forms.add(line);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * The base64 (and base64url) characters that only `value` decides, wherever it starts in an encoded
 * stream: after 0, 1 or 2 bytes of something else, the characters those bytes share are left out, and so
 * is a last character the bytes after it share.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const decided = encoded.slice([0, 2, 3][offset], Math.floor(((offset + bytes.length) * 8) / 6));
    forms.push(decided, decided.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

/**
 * `text` with every form of every credential masked, found whatever the case of its letters and across
 * line breaks (a raw one, or `\n` escaped in JSON) a server put inside it; and a tail of the text that is
 * the start of a form (at least MIN_MASKED_TAIL characters), as a server's or the message's bound cuts it.
 */
function withoutCredentials(text: string, credentials: readonly string[]): string {
  if (credentials.length === 0 || text.length === 0) return text;
  const { folded, at } = foldedText(text);
  const ranges: [number, number][] = [];
  const mark = (start: number, end: number) => ranges.push([at[start]!, at[end - 1]! + 1]);
  for (const credential of credentials) {
    const form = foldedText(credential).folded;
    if (form.length < MIN_MASKED_LENGTH) continue;
    for (let found = folded.indexOf(form); found !== -1; found = folded.indexOf(form, found + 1)) mark(found, found + form.length);
    if (form.length <= MIN_MASKED_TAIL) continue;
    const head = form.slice(0, MIN_MASKED_TAIL);
    for (let found = folded.indexOf(head, Math.max(0, folded.length - form.length + 1)); found !== -1; found = folded.indexOf(head, found + 1)) {
      if (form.startsWith(folded.slice(found))) {
        mark(found, folded.length);
        break;
      }
    }
  }
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let result = "";
  let done = 0;
  for (const [start, end] of ranges) {
    if (end <= done) continue;
    result += start >= done ? text.slice(done, start) + MASKED : "";
    done = end;
  }
  return result + text.slice(done);
}

/**
 * The text as credentials are looked for in it: in lower case, line breaks (raw, or `\\n` and `\\r` as JSON
 * escapes them) left out; `at` maps each folded character to its place in `text`.
 */
function foldedText(text: string): { folded: string; at: number[] } {
  let folded = "";
  const at: number[] = [];
  for (let index = 0; index < text.length; ) {
    const char = text[index]!;
    const escapedBreak = char === "\\" && (text[index + 1] === "n" || text[index + 1] === "r");
    if (escapedBreak || char === "\n" || char === "\r") {
      index += escapedBreak ? 2 : 1;
      continue;
    }
    folded += foldedChar(char);
    at.push(index);
    index += 1;
  }
  return { folded, at };
}

/** A character in lower case, where that is one character (so the folded text maps back place by place). */
function foldedChar(char: string): string {
  const lower = char.toLowerCase();
  return lower.length === 1 ? lower : char;
}

/** The bounds of one answer's body held in memory, and the request it answers, for the message. */
interface AnswerLimits {
  answerBytes: number;
  what: string;
}

/** A success is read up to the client's limit; an error answer or a redirect only as far as any message goes. */
function answerLimit(status: number, limits: AnswerLimits): number {
  return status < 300 ? limits.answerBytes : Math.min(limits.answerBytes, MAX_ERROR_ANSWER_BYTES);
}

/** A body stream read whole, up to `limit` bytes; past it the stream is destroyed and ReadLimitExceeded thrown. */
async function readWithin(body: Readable, limit: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit) {
      body.destroy();
      throw new ReadLimitExceeded(what, limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received);
}

/** `url` with the query added: arrays as `key[]` repeated, null and undefined left out. */
function withQuery(url: URL, query: Query | undefined): URL {
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) url.searchParams.append(`${key}[]`, String(item));
    } else {
      url.searchParams.set(key, String(value));
    }
  }
  return url;
}

/** The next page's address from the answer's `Link rel="next"`, if any, and only on the host of `origin` (see sameOrigin). */
function nextPageOf(response: ApiResponse<unknown>, url: URL, origin: URL, path: string, credentials: readonly string[]): URL | undefined {
  const next = linkRelation(response.headers.link, "next");
  return next ? sameOrigin(new URL(next, url), origin, path, credentials) : undefined;
}

/**
 * `url`, if it is on the host of `origin`: a token (ours, or a bearer token) is never sent to a host an answer
 * points at. The host is the server's text, named with the credentials masked (a host may be made of one).
 */
function sameOrigin(url: URL, origin: URL, path: string, credentials: readonly string[]): URL {
  if (url.origin !== origin.origin) {
    throw new Error(`${path}: the server pointed to another host (${withoutCredentials(url.origin, credentials)}); refusing to send the token there.`);
  }
  return url;
}

/** Encodes a multipart/form-data body (RFC 7578); the boundary is random so it never occurs in the parts. */
export function multipartBody(form: FormFields): { contentType: string; payload: Buffer } {
  const boundary = `----pulumi-platform-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const parts: Buffer[] = [];
  const quoted = (text: string) => text.replace(/["\r\n]/g, (c) => encodeURIComponent(c));
  const field = (name: string, value: string) =>
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`, "utf8"));
  const isFile = (value: unknown): value is FilePart =>
    typeof value === "object" && value !== null && (value as FilePart).content instanceof Uint8Array && typeof (value as FilePart).filename === "string";
  const add = (name: string, value: FormValue): void => {
    if (value === undefined) return;
    if (value === null) field(name, "");
    else if (Array.isArray(value)) for (const item of value as readonly FormValue[]) add(`${name}[]`, item);
    else if (isFile(value)) {
      const file = value;
      parts.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"; filename="${quoted(file.filename)}"\r\n` +
            `content-type: ${file.contentType ?? "application/octet-stream"}\r\n\r\n`,
          "utf8",
        ),
        Buffer.from(file.content),
        Buffer.from("\r\n", "utf8"),
      );
    } else if (typeof value === "object") {
      for (const [key, inner] of Object.entries(value as { [key: string]: FormValue })) add(`${name}[${key}]`, inner);
    } else field(name, String(value));
  };
  for (const [name, value] of Object.entries(form)) add(name, value);
  parts.push(Buffer.from(`--${boundary}--\r\n`, "utf8"));
  return { contentType: `multipart/form-data; boundary=${boundary}`, payload: Buffer.concat(parts) };
}

/** The file name of `Content-Disposition: attachment; filename="x.png"` (or its RFC 5987 `filename*=UTF-8''x.png`). */
function dispositionFilename(header: string | string[] | undefined): string | undefined {
  if (typeof header !== "string") return undefined;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // a malformed encoding: fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
  if (!plain) return undefined;
  return plain[2] !== undefined ? plain[2].replace(/\\(.)/g, "$1") : plain[1]!.trim();
}

function parseBody(text: string, headers: Dispatcher.ResponseData["headers"]): unknown {
  if (text.length === 0) return undefined;
  const type = String(headers["content-type"] ?? "");
  if (type.includes("json") || /^[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * How long the server asked us to wait: `Retry-After` (seconds or a date) or
 * `RateLimit-Reset` (the window's end, epoch seconds). With both, the earlier:
 * `Retry-After` is rounded up to whole seconds, while the reset is exact unless
 * our clock runs ahead of the server's (then it has passed, and is ignored).
 */
function serverWaitMs(headers: Dispatcher.ResponseData["headers"]): number | undefined {
  let retryAfterMs: number | undefined;
  const retryAfter = headers["retry-after"];
  if (typeof retryAfter === "string" && retryAfter.trim() !== "") {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) retryAfterMs = Math.max(0, seconds * 1000);
    else {
      const date = Date.parse(retryAfter);
      if (Number.isFinite(date)) retryAfterMs = Math.max(0, date - clientClock().now());
    }
  }
  let resetMs: number | undefined;
  const reset = headers["ratelimit-reset"];
  if (typeof reset === "string" && /^\d+$/.test(reset.trim())) resetMs = Math.max(0, Number(reset) * 1000 - clientClock().now());
  if (retryAfterMs === undefined) return resetMs;
  return resetMs !== undefined && resetMs > 0 ? Math.min(retryAfterMs, resetMs) : retryAfterMs;
}

/** A POST that failed and whose lookup for what it may have created failed too: the user must check by hand. */
function withUncheckedCreate(error: Error, lookupError: unknown): Error {
  const reason = lookupError instanceof Error ? lookupError.message : String(lookupError);
  error.message += ` Whether the server created it anyway could not be checked (the lookup failed: ${reason}); look on the server before running again.`;
  return error;
}

/** The final error of a request that was tried more than once says how long and how often. */
function withRetryContext(error: Error, attempts: number, elapsedMs: number, retryTimeoutMs: number): Error {
  // A single answered attempt needs no story; a single unanswered one may have used up the whole time.
  if (attempts <= 1 && !(error instanceof NetworkError)) return error;
  error.message +=
    ` Gave up after ${attempts} attempt${attempts === 1 ? "" : "s"} in ${formatSeconds(elapsedMs)}` +
    ` (retries stop after platform:retryTimeout, now ${formatSeconds(retryTimeoutMs)}).`;
  return error;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}
