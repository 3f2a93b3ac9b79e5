/**
 * Faults: the ways networks, proxies and busy servers fail, for testing that
 * clients survive them. Two tools, for two needs:
 *
 * - The **fault plan** (`emulator.setFaultPlan`, `EmulatorOptions.faults`,
 *   the seed's `faults`, `--faults` / `--fault-rate`): the failures real
 *   deployments produce, by kind (`FAULT_KINDS`), with their real status,
 *   headers and bodies, per route or for all API routes, at a reproducible
 *   rate or in an exact sequence.
 * - **Injected answers** (`emulator.inject`): a hand-made answer (any status,
 *   headers and body) for the next matching request(s), for what no fault
 *   kind is, such as a fake page of a list or a redirect.
 *
 * Both act at two points of the server's pipeline: before handling (standing
 * for the network or the front proxy, so before the rate limiter too) and
 * after handling (the write was applied, then the answer is lost).
 */
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { internalServerError } from "./errors";
import { RATE_LIMIT_BODY, throttleHeaders } from "./rate-limit";
import { API_PREFIX, type ApiResponse } from "./router";
import type { Clock } from "./state";

export const FAULT_KINDS = [
  "error-500",
  "error-502",
  "error-503",
  "error-504",
  "rate-limit",
  "rate-limit-json",
  "request-timeout",
  "connection-reset",
  "slow",
  "commit-then-reset",
  "commit-then-error",
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** What hit a request, as the request log names it: a fault kind, or "injected" for an `inject()` answer. */
export type FaultName = FaultKind | "injected";

/** How long a `slow` fault holds a request when the plan does not say. */
export const DEFAULT_SLOW_MS = 3_000;

/** The seed of the plan's random draws when the plan does not say: runs are reproducible by default. */
export const DEFAULT_FAULT_SEED = 1;

// ---------------------------------------------------------------------------
// The answers each kind gives, as real deployments send them

type ErrorStatus = 500 | 502 | 503 | 504;
const ERROR_STATUSES = [500, 502, 503, 504] as const;

/** The no-cache headers Workhorse puts on the static error pages it serves. */
const NO_CACHE_HEADERS = {
  "Cache-Control": "no-cache, no-store, max-age=0, must-revalidate",
  Pragma: "no-cache",
  Expires: "Fri, 01 Jan 1990 00:00:00 GMT",
};

/**
 * Workhorse's static error page (`public/<status>.html`, abridged). Workhorse
 * answers a proxied API request with it when Puma does not answer (502) or the
 * request waited too long in its API queue (503): its error pages replace
 * every 4xx/5xx answer whose Content-Type is not `application/json`.
 */
function workhorseErrorPage(status: 502 | 503, headline: string): ApiResponse {
  const body = [
    "<!DOCTYPE html>",
    "<html>",
    "<head>",
    '  <meta content="width=device-width, initial-scale=1, maximum-scale=1" name="viewport">',
    `  <title>GitLab is not responding (${status})</title>`,
    "</head>",
    "<body>",
    `  <h1>${status}</h1>`,
    `  <h3>${headline}</h3>`,
    "  <hr />",
    "  <p>Try refreshing the page, or going back and attempting the action again.</p>",
    "  <p>Please contact your GitLab administrator if this problem persists.</p>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
  return { status, body, headers: { "Content-Type": "text/html; charset=utf-8", ...NO_CACHE_HEADERS } };
}

/** nginx's built-in page (CRLF line ends), sent when the upstream did not answer within `proxy_read_timeout`. */
const NGINX_GATEWAY_TIMEOUT: ApiResponse = {
  status: 504,
  body: "<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
  headers: { "Content-Type": "text/html", Server: "nginx" },
};

const ERROR_ANSWERS: Record<ErrorStatus, () => ApiResponse> = {
  // An unhandled exception in the API: JSON, which Workhorse passes through.
  500: () => ({ status: 500, body: internalServerError().body }),
  502: () => workhorseErrorPage(502, "Whoops, GitLab is taking too much time to respond."),
  503: () => workhorseErrorPage(503, "Whoops, GitLab is currently unavailable."),
  504: () => NGINX_GATEWAY_TIMEOUT,
};

/** The throttle the `rate-limit` kind reports: 10 requests per second, so the window reopens within a second. */
const FAULT_THROTTLE = { requests: 10, periodSeconds: 1 };

/**
 * Rack::Attack's 429, as a throttle of 10
 * requests per second answers the 11th: `Retry-After` is 1 and
 * `RateLimit-Reset` is the epoch second it points at, so a client that
 * honours either waits about a second.
 */
function rateLimitAnswer(now: number): ApiResponse {
  return {
    status: 429,
    body: RATE_LIMIT_BODY,
    headers: { "Content-Type": "text/plain", ...throttleHeaders("throttle_authenticated_api", FAULT_THROTTLE, FAULT_THROTTLE.requests + 1, now) },
  };
}

/** The application rate limiter's 429 (`check_rate_limit!`): JSON, no rate-limit headers. */
const RATE_LIMIT_JSON_ANSWER: ApiResponse = {
  status: 429,
  body: { message: { error: "This endpoint has been requested too many times. Try again later." } },
};

/** A statement timeout in the API (`ActiveRecord::QueryCanceled` → `render_api_error!({ error: 'Request timed out' }, 408)`). */
const REQUEST_TIMEOUT_ANSWER: ApiResponse = { status: 408, body: { message: { error: "Request timed out" } } };

// ---------------------------------------------------------------------------
// The plan: its shape, validation and the choice of a fault per request

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

const listOf = (values: readonly string[]): string => values.join(", ");

const kindSchema = z.enum(FAULT_KINDS, {
  error: (issue) => `unknown fault kind ${JSON.stringify(issue.input)} (kinds: ${listOf(FAULT_KINDS)})`,
});

const stepSchema = z.enum([...FAULT_KINDS, "pass"], {
  error: (issue) => `unknown fault kind ${JSON.stringify(issue.input)} (kinds: ${listOf(FAULT_KINDS)}, or "pass")`,
});

/** A path string starting with `^` is a regular expression (so that JSON plans can hold patterns). */
const pathSchema = z
  .union([z.instanceof(RegExp), z.string().min(1, "path must not be empty")], { error: "path must be a string or a RegExp" })
  .transform((path, ctx): string | RegExp => {
    if (typeof path !== "string" || !path.startsWith("^")) return path;
    try {
      return new RegExp(path);
    } catch (error) {
      ctx.issues.push({ code: "custom", input: path, message: `path is not a valid regular expression: ${(error as Error).message}` });
      return z.NEVER;
    }
  });

const ruleSchema = z
  .strictObject({
    method: z
      .string()
      .transform((method) => method.toUpperCase())
      .pipe(z.enum(METHODS, { error: `method must be one of ${listOf(METHODS)}` }))
      .optional(),
    path: pathSchema.optional(),
    rate: z.number().min(0, "rate must be between 0 and 1").max(1, "rate must be between 0 and 1").optional(),
    kinds: z.array(kindSchema).min(1, "kinds must list at least one kind").optional(),
    sequence: z.array(stepSchema).min(1, "sequence must list at least one step").optional(),
    times: z.int("times must be a whole number").positive("times must be at least 1").optional(),
    status: z
      .union(
        ERROR_STATUSES.map((status) => z.literal(status)),
        { error: `status (the answer of commit-then-error) must be one of ${ERROR_STATUSES.join(", ")}` },
      )
      .optional(),
  })
  .superRefine((rule, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: "custom", message });
    if (rule.rate !== undefined && rule.sequence !== undefined) fail("a rule takes either a rate or a sequence, not both");
    if (rule.rate === undefined && rule.sequence === undefined) fail("a rule needs a rate (0..1) or a sequence of kinds");
    if (rule.kinds !== undefined && rule.sequence !== undefined) fail("kinds go with a rate; a sequence names its kinds itself");
    const kinds: readonly string[] = rule.sequence ?? rule.kinds ?? FAULT_KINDS;
    if (rule.status !== undefined && !kinds.includes("commit-then-error")) {
      fail("status is the answer of commit-then-error, which this rule never injects");
    }
  });

const planSchema = z.strictObject({
  seed: z.int("seed must be a whole number").optional(),
  slowMs: z.int("slowMs must be a whole number of milliseconds").positive("slowMs must be at least 1").optional(),
  rules: z.array(ruleSchema, { error: "rules must be a list of rules (an empty list injects nothing)" }),
});

/**
 * A fault plan, as written in code or JSON. Each API request (`/api/v4/...`)
 * is decided by the first rule that matches it and is not spent:
 *
 * - `method` (any when absent) and `path`: the raw path as sent, still
 *   URL-encoded, with or without `/api/v4` (`/projects/acme%2Fweb/badges`);
 *   a RegExp, or a string starting with `^` (read as a RegExp), is tested
 *   against the raw path with `/api/v4`. Any API path when absent.
 * - `rate` (0..1): each matching request fails with that probability, with a
 *   kind drawn from `kinds` (default: all). The draws come from a PRNG seeded
 *   with the plan's `seed` (default 1), so the same requests in the same order
 *   meet the same faults.
 * - `sequence`: the kinds of the next matching requests, in order (`"pass"`
 *   lets one through); played once, after which the rule is spent.
 * - `times`: the most faults the rule injects; then it is spent.
 * - `status`: the 5xx that `commit-then-error` answers (500, 502, 503 or 504;
 *   default 502), with that kind's body.
 *
 * `slowMs` (default 3000) is how long `slow` holds a request: make it longer
 * than the client's timeout to make the client give up.
 */
export type FaultPlan = z.input<typeof planSchema>;
export type FaultRule = FaultPlan["rules"][number];
type ParsedPlan = z.output<typeof planSchema>;
type ParsedRule = ParsedPlan["rules"][number];

export class FaultPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FaultPlanError";
  }
}

/** `rules.0.rate` → `rules[0].rate`. */
function issuePath(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`)).join("");
}

/** Validates a plan (from code or parsed JSON); throws a FaultPlanError naming each problem and where it is. */
export function parseFaultPlan(input: unknown, source = "fault plan"): ParsedPlan {
  const result = planSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const where = issuePath(issue.path);
    return where === "" ? issue.message : `${where}: ${issue.message}`;
  });
  throw new FaultPlanError(`invalid ${source}: ${problems.join("; ")}`);
}

/** Every kind on every API route at `rate`: what `--fault-rate` sets. */
export const faultRatePlan = (rate: number): FaultPlan => ({ rules: [{ rate }] });

const isApiPath = (rawPath: string): boolean => rawPath === API_PREFIX || rawPath.startsWith(`${API_PREFIX}/`);

function matchesRequest(filter: { method?: string; path?: string | RegExp }, method: string, rawPath: string): boolean {
  if (filter.method && filter.method.toUpperCase() !== method) return false;
  if (filter.path === undefined) return true;
  if (filter.path instanceof RegExp) {
    filter.path.lastIndex = 0;
    return filter.path.test(rawPath);
  }
  return rawPath === filter.path || rawPath === API_PREFIX + filter.path;
}

/** mulberry32: a small, fast PRNG with a 32-bit state; plenty for drawing faults. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface PlannedFault {
  kind: FaultKind;
  /** The answer of commit-then-error. */
  status: ErrorStatus;
}

/** A plan in force: its rules' progress and its PRNG. */
class ActivePlan {
  readonly slowMs: number;
  private readonly random: () => number;
  private readonly rules: { rule: ParsedRule; injected: number; step: number }[];

  constructor(plan: ParsedPlan) {
    this.slowMs = plan.slowMs ?? DEFAULT_SLOW_MS;
    this.random = seededRandom(plan.seed ?? DEFAULT_FAULT_SEED);
    this.rules = plan.rules.map((rule) => ({ rule, injected: 0, step: 0 }));
  }

  /** The fault this request meets, if any; advances the deciding rule. */
  next(method: string, rawPath: string): PlannedFault | undefined {
    if (!isApiPath(rawPath)) return undefined;
    const active = this.rules.find((entry) => !this.spent(entry) && matchesRequest(entry.rule, method, rawPath));
    if (!active) return undefined;
    const { rule } = active;
    const step = rule.sequence ? rule.sequence[active.step++] : this.draw(rule.rate ?? 0, rule.kinds ?? FAULT_KINDS);
    if (step === undefined || step === "pass") return undefined;
    active.injected += 1;
    return { kind: step, status: rule.status ?? 502 };
  }

  private spent({ rule, injected, step }: { rule: ParsedRule; injected: number; step: number }): boolean {
    if (rule.times !== undefined && injected >= rule.times) return true;
    return rule.sequence !== undefined && step >= rule.sequence.length;
  }

  private draw(rate: number, kinds: readonly FaultKind[]): FaultKind | undefined {
    if (this.random() >= rate) return undefined;
    return kinds[Math.floor(this.random() * kinds.length)];
  }
}

// ---------------------------------------------------------------------------
// Injected answers

export interface InjectedAnswer {
  /** HTTP method to match (any when absent). */
  method?: string;
  /**
   * Raw request path to match (any when absent): a string matches the whole
   * raw path, with or without `/api/v4`; a RegExp is tested against the raw
   * path, still URL-encoded. Unlike a plan's faults, this also matches paths
   * outside the API.
   */
  path?: string | RegExp;
  /** How many matching requests get this answer; default 1. */
  times?: number;
  status: number;
  headers?: Record<string, string>;
  /**
   * A string is sent as is (text/plain unless headers say otherwise); an object as JSON. A function makes
   * the body from the request it answers, as a proxy or a debugging page that repeats the request does
   * (its headers, credentials included).
   */
  body?: string | object | ((request: EchoedRequest) => string | object);
}

/** What an injected answer's body may be made from: the request as the server received it. */
export interface EchoedRequest {
  method: string;
  /** The raw path, query included. */
  rawPath: string;
  /** Header names in lower case, as Node gives them. */
  headers: IncomingMessage["headers"];
}

function injectedResponse(answer: InjectedAnswer, request: EchoedRequest): ApiResponse {
  const headers = { ...answer.headers };
  const body = typeof answer.body === "function" ? answer.body(request) : answer.body;
  const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
  if (typeof body === "object" && !hasContentType) headers["Content-Type"] = "application/json";
  return { status: answer.status, body, headers };
}

// ---------------------------------------------------------------------------
// Both, at the two points of the pipeline

/** What a fault does to one request. */
export interface FaultHit {
  kind: FaultName;
  /** The request ends before handling: with this answer, or "dropped" when the connection was closed without one. */
  instead?: ApiResponse | "dropped";
  /** Called once the request was handled: the answer that replaces the real one, or "dropped" (connection closed). */
  afterHandling?: () => ApiResponse | "dropped";
}

/** Closes the connection with a TCP reset, as a crashed proxy or a load balancer does: the client reads ECONNRESET. */
function resetConnection(socket: Socket): void {
  socket.resetAndDestroy();
}

export class FaultInjector {
  private readonly answers: { answer: InjectedAnswer; remaining: number }[] = [];
  private plan: ActivePlan | undefined;

  constructor(
    private readonly clock: Clock,
    /** Aborted when the emulator stops, so that a held request does not outlive it. */
    private readonly stopping: AbortSignal,
  ) {}

  inject(answer: InjectedAnswer): void {
    if (!Number.isInteger(answer.status) || answer.status < 100 || answer.status > 599) {
      throw new Error(`an injected answer needs a status (100-599); got ${String(answer.status)}`);
    }
    this.answers.push({ answer, remaining: answer.times ?? 1 });
  }

  /** Replaces the plan (its rules start afresh, its PRNG from its seed); undefined removes it. */
  setPlan(plan: FaultPlan | undefined): void {
    this.plan = plan === undefined ? undefined : new ActivePlan(parseFaultPlan(plan));
  }

  /** Removes the plan and every pending injected answer. */
  clear(): void {
    this.answers.length = 0;
    this.plan = undefined;
  }

  /**
   * Before handling: the fault this request meets (an injected answer first,
   * then the plan), carried out as far as it goes before the handler; a
   * `slow` fault returns once its hold is over.
   */
  async beforeHandling(method: string, rawPath: string, req: IncomingMessage): Promise<FaultHit | undefined> {
    const injected = this.takeAnswer(method, rawPath);
    if (injected) return { kind: "injected", instead: injectedResponse(injected, { method, rawPath, headers: req.headers }) };
    const planned = this.plan?.next(method, rawPath);
    if (!planned) return undefined;
    const { kind } = planned;
    switch (kind) {
      case "error-500":
        return { kind, instead: ERROR_ANSWERS[500]() };
      case "error-502":
        return { kind, instead: ERROR_ANSWERS[502]() };
      case "error-503":
        return { kind, instead: ERROR_ANSWERS[503]() };
      case "error-504":
        return { kind, instead: ERROR_ANSWERS[504]() };
      case "rate-limit":
        return { kind, instead: rateLimitAnswer(this.clock()) };
      case "rate-limit-json":
        return { kind, instead: RATE_LIMIT_JSON_ANSWER };
      case "request-timeout":
        return { kind, instead: REQUEST_TIMEOUT_ANSWER };
      case "connection-reset":
        resetConnection(req.socket);
        return { kind, instead: "dropped" };
      case "slow": {
        const stillWanted = await this.hold(req.socket, this.plan?.slowMs ?? DEFAULT_SLOW_MS);
        // A front proxy drops a request whose client left before it was passed on.
        return stillWanted ? { kind } : { kind, instead: "dropped" };
      }
      case "commit-then-reset":
        return {
          kind,
          afterHandling: () => {
            resetConnection(req.socket);
            return "dropped";
          },
        };
      case "commit-then-error":
        return { kind, afterHandling: () => ERROR_ANSWERS[planned.status]() };
    }
  }

  /**
   * Waits `ms`, or less if the client hangs up or the emulator stops
   * meanwhile; tells whether the request is still wanted (and may be handled).
   */
  private async hold(socket: Socket, ms: number): Promise<boolean> {
    const clientGone = new AbortController();
    const onClose = () => clientGone.abort();
    socket.once("close", onClose);
    try {
      await sleep(ms, undefined, { signal: AbortSignal.any([this.stopping, clientGone.signal]) }).catch(() => undefined);
    } finally {
      socket.off("close", onClose);
    }
    if (socket.destroyed || this.stopping.aborted) {
      socket.destroy();
      return false;
    }
    return true;
  }

  private takeAnswer(method: string, rawPath: string): InjectedAnswer | undefined {
    const index = this.answers.findIndex((entry) => matchesRequest(entry.answer, method, rawPath));
    const entry = this.answers[index];
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.answers.splice(index, 1);
    return entry.answer;
  }
}

/** Counts the requests of a log that each fault hit: `{ "error-502": 3, "commit-then-reset": 1 }`. */
export function faultCounts(log: readonly { fault?: FaultName }[]): Partial<Record<FaultName, number>> {
  const counts: Partial<Record<FaultName, number>> = {};
  for (const { fault } of log) if (fault !== undefined) counts[fault] = (counts[fault] ?? 0) + 1;
  return counts;
}
