/**
 * Errors raised by the API client. Every error names the request (method and
 * path, never the body, which may hold secrets) and carries the server's own
 * message, whatever shape the server gave it.
 */
import { roleInWords, tierInWords, type Role, type RoleNeed, type Tier } from "./roles";

/** What a failed response most likely means for the user. */
export type ApiErrorKind =
  | "validation" // 400 and 422: real servers use both for rejected input
  | "unauthorized" // 401
  | "forbidden" // 403
  | "not-found" // 404
  | "conflict" // 409, 412
  | "too-long" // 414
  | "rate-limited" // 429 after the retry budget ran out
  | "timeout" // 408
  | "server" // 5xx
  | "other";

export interface ApiErrorDetails {
  status: number;
  method: string;
  path: string;
  /** The server's message, flattened to one line. */
  serverMessage: string;
  /** Field errors when the server sent `{"message": {"field": ["..."]}}`. */
  fieldErrors?: Record<string, string[]>;
  /** True when the body used the `{"error": "..."}` shape (parameter errors, unknown routes). */
  errorKey?: boolean;
  /** Seconds the server asked us to wait, when it said so. */
  retryAfterSeconds?: number;
  /** Where the user set the token, named by the 401 hint (default `platform:token (or PLATFORM_TOKEN)`). */
  tokenSetting?: string;
  /** The request carried a CI job token (`JOB-TOKEN`): a refusal then says what such a token cannot do. */
  jobToken?: boolean;
  /** A write the client does not repeat (a POST with no way to find what it made): a server failure then says it may have been done. */
  unrepeatable?: boolean;
}

/** What to do after a write that may have been done before it failed: one wording for actions and trigger resources. */
export const MAY_HAVE_BEEN_DONE = "The server may have done it before the failure: check before running it again.";

/**
 * What a CI job token reaches, said with every refusal of a request made with
 * one: the server answers such refusals as it answers an anonymous caller,
 * which alone would point at the wrong cause.
 */
export const JOB_TOKEN_REACH =
  "A CI job token (platform:jobToken, or CI_JOB_TOKEN) reaches only the container registry of the project whose pipeline made it, and only while its job runs; " +
  "anything else needs an access token (platform:token or PLATFORM_TOKEN).";

export class ApiError extends Error {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly serverMessage: string;
  readonly fieldErrors?: Record<string, string[]>;
  readonly kind: ApiErrorKind;
  readonly retryAfterSeconds?: number;
  /** `{"error": ...}` bodies come from parameter validation and unknown routes, `{"message": ...}` from handlers. */
  readonly errorKey: boolean;
  /** Said with a refusal of a request made with a CI job token: what such a token cannot do. */
  readonly credentialNote?: string;

  constructor(details: ApiErrorDetails) {
    const kind = kindOf(details.status);
    super(describe(details, kind));
    this.name = "ApiError";
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.serverMessage = details.serverMessage;
    this.fieldErrors = details.fieldErrors;
    this.kind = kind;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.errorKey = details.errorKey ?? false;
    if (details.jobToken && isRefusal(details.status)) this.credentialNote = JOB_TOKEN_REACH;
  }

  /**
   * For a 404, the subject the server named ("Project" in `404 Project Not Found`),
   * `""` for an unnamed `404 Not found` from a handler, and `undefined` when the
   * route itself is unknown (`{"error": "404 Not Found"}`) or this is not a 404.
   */
  get notFoundSubject(): string | undefined {
    if (this.status !== 404 || this.errorKey) return undefined;
    const match = /^404\s+(.*?)\s*not found$/i.exec(this.serverMessage.trim());
    return match ? (match[1] ?? "") : "";
  }
}

/** What the client knew of the connection when a request got no answer: it shapes the advice. */
export interface ConnectionFacts {
  https: boolean;
  /** A client certificate was presented. */
  clientCertificate: boolean;
  /** Where the user set the server's URL (default `platform:url`). */
  urlSetting?: string;
}

/** A request that never got an HTTP answer (connection refused or reset, timeout, a certificate not trusted). */
export class NetworkError extends Error {
  readonly method: string;
  readonly path: string;
  override readonly cause: unknown;
  constructor(method: string, path: string, cause: unknown, facts?: ConnectionFacts) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(isCertificateFailure(cause) ? certificateAdvice(method, path, reason) : `${method} ${path}: no answer from the server (${reason}). ` +
        `Check that ${facts?.urlSetting ?? "platform:url"} points at a running server and that it is reachable from here.` +
        (facts?.https && !facts.clientCertificate
          ? " If the server demands a client certificate (mutual TLS), give it with platform:clientCertificate and platform:clientKey."
          : ""));
    this.name = "NetworkError";
    this.method = method;
    this.path = path;
    this.cause = cause;
  }
}

/**
 * The server's certificate was not accepted: issued by an unknown authority,
 * for another name, or expired. Node's codes for these (the OpenSSL
 * verification errors, and ERR_TLS_CERT_ALTNAME_INVALID) all speak of a
 * certificate; such a failure is the same at every attempt, so it is not retried.
 */
export function isCertificateFailure(cause: unknown): boolean {
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH/.test(code);
}

function certificateAdvice(method: string, path: string, reason: string): string {
  return (
    `${method} ${path}: the server's certificate was not accepted (${reason}). ` +
    "If the server's certificate is issued by a certificate authority of your own, trust it with platform:caCertificate " +
    "(a PEM file or the PEM text; `caCertificate` in a resource's own connection). " +
    "platform:insecure skips the check, at the cost of anyone on the way being able to read the token."
  );
}

function kindOf(status: number): ApiErrorKind {
  if (status === 400 || status === 422) return "validation";
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not-found";
  if (status === 409 || status === 412) return "conflict";
  if (status === 414) return "too-long";
  if (status === 429) return "rate-limited";
  if (status === 408) return "timeout";
  if (status >= 500) return "server";
  return "other";
}

/** Where the stack's token is set, as every message names it. */
export const STACK_TOKEN_SETTING = "platform:token (or PLATFORM_TOKEN)";

/**
 * The one wording of a refused token, wherever a 401 means it (a resource, a
 * function, the preview's verification): what was refused, where that token
 * is set and what to do. A server that says the token expired is believed.
 */
export function tokenRefused(setting = STACK_TOKEN_SETTING, serverMessage = ""): string {
  const fix = setting.startsWith("platform:token")
    ? "set a valid one with `pulumi config set --secret platform:token <token>`"
    : "give a valid one";
  return /expired/i.test(serverMessage)
    ? `the token in ${setting} has expired (the server said so); ${fix}`
    : `the server refused the token in ${setting}: it is mistyped, expired or revoked; ${fix}`;
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/**
 * The one wording of an owner or object the server will not show: it may not
 * exist, or the token's user may not see it; the server does not say which.
 */
export function missingOrHidden(subject: string, username?: string): string {
  return `${subject} does not exist, or the token's user${username ? ` (${username})` : ""} cannot see it (private groups and projects are hidden from non-members)`;
}

/**
 * The one wording of a role the token's user lacks ("the Owner role", "at
 * least the Maintainer role", "administrator rights"), with the role it has
 * when that is known (a Role, or "a regular user" where administrator rights are missing).
 */
export function roleNeeded(role: RoleNeed, subject: string, known?: { username: string; has?: Role | "a regular user"; purpose: string }): string {
  const words = roleInWords(role);
  if (known === undefined) return `the token's user needs ${words} on ${subject}`;
  const has = known.has === undefined ? "is not a member there" : `is ${known.has} there`;
  return `the token's user (${known.username}) needs ${words} on ${subject} for ${known.purpose}, and ${has}`;
}

/**
 * The one wording of a feature flag that is off (`where`: "for group acme",
 * "for group acme (never set, and off by default)"), with what needs it when
 * that is known.
 */
export function flagOff(flag: string, where: string, purpose?: string): string {
  return `feature flag ${flag} is off ${where}${purpose ? `; ${purpose} needs it` : ""} (an administrator can enable it)`;
}

/** What to do about a refusal, said after its cause wherever it is explained: a missing or hidden object, a role lacking. */
export const REFUSAL_ADVICE = { 403: "Use the token of a user who has it.", 404: "Check the names and ids." } as const;

/**
 * The one wording of a licence tier that something needs on `subject` (group
 * acme), with what needs it and where the tier stands when that was read
 * ("group acme is on Free").
 */
export function tierNeeded(tier: Tier, subject: string, known?: { purpose: string; shortfall: string }): string {
  const words = tierInWords(tier);
  if (known === undefined) return `${subject} needs the ${words} tier`;
  return `${subject} needs the ${words} tier for ${known.purpose}, and ${known.shortfall}`;
}

/** What the user should take from each kind of failure (a refused token: `tokenRefused`). */
const HINTS: Record<ApiErrorKind, string> = {
  validation: "The server rejected the values sent; correct them in the program.",
  unauthorized: "",
  forbidden:
    "The token's user is not allowed to do this: its role on the group or project is too low, the token lacks the api scope, or the feature is not available on this tier.",
  "not-found":
    `${sentence(missingOrHidden("it"))}`,
  conflict: "Another change got there first; run the command again.",
  "too-long": "The request URL is too long for the server.",
  "rate-limited": "The server is rate limiting this token; wait and run the command again, or lower the parallelism (pulumi up --parallel).",
  timeout: "The server timed out; run the command again.",
  server: "The server failed; run the command again later.",
  other: "",
};

/** The answers a server gives a caller it will not serve: an unknown or too weak token, or a hidden object. */
const isRefusal = (status: number): boolean => status === 401 || status === 403 || status === 404;

function describe(details: ApiErrorDetails, kind: ApiErrorKind): string {
  const said = details.serverMessage ? `: ${details.serverMessage}` : "";
  if (details.jobToken && isRefusal(details.status)) return `${details.method} ${details.path} failed with ${details.status}${said}. ${JOB_TOKEN_REACH}`;
  let hint = HINTS[kind];
  if (kind === "unauthorized") hint = sentence(tokenRefused(details.tokenSetting, details.serverMessage));
  if (details.unrepeatable && isPassingServerFailure(details.status)) hint = MAY_HAVE_BEEN_DONE;
  if (kind === "rate-limited" && details.retryAfterSeconds !== undefined) {
    hint += ` The server asked to wait ${details.retryAfterSeconds}s.`;
  }
  return `${details.method} ${details.path} failed with ${details.status}${said}.${hint ? " " + hint : ""}`;
}

/**
 * Reads the server's message out of any of the body shapes real servers send:
 * `{"message": "..."}`, `{"message": {"field": ["..."]}}`, `{"message": {"error": "..."}}`,
 * `{"error": "..."}`, `{"error": "...", "error_description": "..."}`, the registry's
 * `{"errors": [{"code": ..., "message": ...}]}`, or plain text.
 */
export function parseErrorBody(text: string, contentType?: string | string[]): Pick<ApiErrorDetails, "serverMessage" | "fieldErrors" | "errorKey"> {
  const trimmed = text.trim();
  if (isHtmlPage(trimmed, contentType)) return { serverMessage: htmlPageSummary(trimmed) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { serverMessage: trimmed.slice(0, 500) };
  }
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    const body = parsed as Record<string, unknown>;
    if ("message" in body) {
      const fieldErrors = fieldErrorsOf(body.message);
      return { serverMessage: flatten(body.message), ...(fieldErrors ? { fieldErrors } : {}) };
    }
    if (Array.isArray(body.errors) && body.errors.every((e) => e !== null && typeof e === "object" && typeof (e as { message?: unknown }).message === "string")) {
      // The container registry and its token service: `{"errors": [{"code": ..., "message": ..., "detail": ...}]}`.
      return { serverMessage: (body.errors as { message: string }[]).map((e) => e.message).join("; ") };
    }
    if ("error" in body) {
      const description = typeof body.error_description === "string" ? ` (${body.error_description})` : "";
      return { serverMessage: flatten(body.error) + description, errorKey: true };
    }
  }
  return { serverMessage: flatten(parsed) };
}

function isHtmlPage(text: string, contentType: string | string[] | undefined): boolean {
  return (typeof contentType === "string" && contentType.includes("text/html")) || /^<(!doctype html|html)\b/i.test(text);
}

/**
 * The error pages of the proxies in front of the API (nginx, Workhorse) are
 * HTML: their title and headings say it all ("502 Bad Gateway", "Whoops,
 * GitLab is taking too much time to respond."), the rest is markup and styles.
 */
function htmlPageSummary(html: string): string {
  const texts: string[] = [];
  for (const match of html.matchAll(/<(title|h1|h2|h3)\b[^>]*>([\s\S]*?)<\/\1>/gi)) {
    const text = decodeEntities(match[2]!.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
    if (text && !texts.includes(text)) texts.push(text);
  }
  const summary = texts.join(": ") || "an HTML error page";
  return `${summary.slice(0, 200)} (an HTML page from a proxy in front of the API)`;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  return text.replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (entity, code: string) => {
    if (code.startsWith("#x") || code.startsWith("#X")) return String.fromCodePoint(parseInt(code.slice(2), 16));
    if (code.startsWith("#")) return String.fromCodePoint(Number(code.slice(1)));
    return named[code.toLowerCase()] ?? entity;
  });
}

function fieldErrorsOf(message: unknown): Record<string, string[]> | undefined {
  if (!message || typeof message !== "object" || Array.isArray(message)) return undefined;
  const result: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(message)) {
    result[field] = Array.isArray(value) ? value.map(flatten) : [flatten(value)];
  }
  return result;
}

/** One line of text from a message of any shape; `base` errors read as plain sentences. */
function flatten(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(flatten).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => (key === "base" || key === "error" ? flatten(inner) : `${key} ${flatten(inner)}`))
      .join("; ");
  }
  return String(value);
}

/**
 * A server failure that may pass, as most do on a busy shared server (a
 * restart, a proxy timeout, a database fail-over): every 5xx but 501 and 505,
 * which say the server will never do it.
 */
export function isPassingServerFailure(status: number): boolean {
  return status >= 500 && status !== 501 && status !== 505;
}

/** A refused connection, a connect timeout or an unknown host mean nothing reached the server; any other failure may have come after it acted. */
export function mayHaveReachedServer(cause: unknown): boolean {
  const code = (cause as { code?: string } | undefined)?.code;
  return code !== "ECONNREFUSED" && code !== "UND_ERR_CONNECT_TIMEOUT" && code !== "ENOTFOUND" && !isCertificateFailure(cause);
}

/**
 * Whether a write that finally failed may have been applied all the same: no
 * answer came although the request may have reached the server, or a server
 * failure came, which proxies and the application also send after the write
 * was committed. A 4xx means nothing was done.
 */
export function mayHaveBeenApplied(error: unknown): boolean {
  if (error instanceof NetworkError) return mayHaveReachedServer(error.cause);
  return error instanceof ApiError && isPassingServerFailure(error.status);
}
