/**
 * Where the provider's connection settings come from, and the API client they make.
 *
 * The stack's connection: the stack config (`platform:url`, `platform:token`,
 * and the optional settings in `STACK_SETTINGS` below), read by `configure`,
 * else the program's own stack config (data functions run in the program's
 * process), else the environment variables (`PLATFORM_URL`, ...). They live in
 * this module's state only, never in the serialized provider.
 *
 * Another server's connection: a resource's `connection` argument, or a data
 * function's `connection` option (see `Connection`), which is in force while
 * `withConnection` runs the operation; `client()` and the masking of messages
 * (`connectionSecrets`) then use it instead of the stack's.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { ReadLimitExceeded, readTextWithin } from "./bounded-read";
import { PlatformClient } from "./client";
import type { TlsOptions } from "./client/transport";
import { warn as engineWarn } from "./engine/engine-log";

export interface ConfigSource {
  get(key: string): string | undefined;
}

/**
 * A server and how to reach it, for a resource or a data function that talks
 * to another server than the stack's (`platform:url`): a hosted group beside a
 * self-managed instance. Settings left out are not taken from the stack's
 * connection (it is another server), except the two timeouts.
 */
export interface Connection {
  /** The server's base URL, e.g. `https://gitlab.example.com`. A change of it replaces the resources that use it. */
  url: string;
  /** An access token of that server (or `jobToken`); kept secret in the state. A change of it updates the resources in place. */
  token?: string;
  /**
   * A CI job token instead of `token` (sent as `JOB-TOKEN`), for the actions
   * and functions a pipeline runs on its own project's container registry;
   * that is all such a token reaches.
   */
  jobToken?: string;
  /** Certificate authorities to trust for this server: PEM text, or the path of a PEM file. */
  caCertificate?: string;
  /** A client certificate for servers that demand one (mutual TLS): PEM text or a file path; needs `clientKey`. */
  clientCertificate?: string;
  /** The client certificate's private key: PEM text or a file path; kept secret in the state. */
  clientKey?: string;
  /** Headers sent with every request, for a proxy in front of the server; kept secret in the state. */
  headers?: Record<string, string>;
  /** Skip the verification of the server's certificate. Insecure: a warning is printed at every run. */
  insecure?: boolean;
  /** Seconds allowed for one attempt of a request (default: the stack's `platform:requestTimeout`, else 30). */
  requestTimeout?: number;
  /** Seconds allowed for a request and its retries (default: the stack's `platform:retryTimeout`, else 120). */
  retryTimeout?: number;
}

/** The settings as text, however they were given (config values are text; a `Connection` is converted). */
interface Settings {
  url?: string;
  token?: string;
  /** A CI job token, used when no `token` is set (see `Connection.jobToken`). */
  jobToken?: string;
  requestTimeout?: string;
  retryTimeout?: string;
  caCertificate?: string;
  clientCertificate?: string;
  clientKey?: string;
  /** A JSON object. */
  headers?: string;
  /** `true` or `false`. */
  insecure?: string;
}
type SettingName = keyof Settings;

/** Each setting of the stack: its config key (`platform:<name>`) and environment variable. */
const STACK_SETTINGS: Record<SettingName, string> = {
  url: "PLATFORM_URL",
  token: "PLATFORM_TOKEN",
  // The variable every CI job has: used only when no access token is set anywhere (see settingsInForce).
  jobToken: "CI_JOB_TOKEN",
  requestTimeout: "PLATFORM_REQUEST_TIMEOUT",
  retryTimeout: "PLATFORM_RETRY_TIMEOUT",
  caCertificate: "PLATFORM_CA_CERTIFICATE",
  clientCertificate: "PLATFORM_CLIENT_CERTIFICATE",
  clientKey: "PLATFORM_CLIENT_KEY",
  headers: "PLATFORM_HEADERS",
  insecure: "PLATFORM_INSECURE",
};
const SETTING_NAMES = Object.keys(STACK_SETTINGS) as SettingName[];

/** What the optional timeouts bound, for their messages. */
const TIMEOUT_BOUNDS = { requestTimeout: "one attempt of a request", retryTimeout: "a request and all its retries" } as const;

/** How messages name a setting: `platform:caCertificate (or PLATFORM_CA_CERTIFICATE)`, or `connection.caCertificate`. */
type Labels = (name: SettingName) => string;
const stackLabel: Labels = (name) => `platform:${name} (or ${STACK_SETTINGS[name]})`;
const connectionLabel: Labels = (name) => `connection.${name}`;

let configured: Settings = {};
/** The clients made so far, by their settings: one per server and settings per process. */
const clients = new Map<string, PlatformClient>();
/** A resource's or a function's own connection, while its operation runs. */
const scope = new AsyncLocalStorage<Settings>();

/** The settings a config source gives (`platform:url`, ...); absent ones undefined. */
function settingsOf(config: ConfigSource): Settings {
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, nonEmpty(config.get(`platform:${name}`))])) as Settings;
}

/** Called from the provider's `configure` with the stack's config. */
export function configureConnection(config: ConfigSource): void {
  configured = settingsOf(config);
  configuredInForce = undefined;
  verifyConfigured = nonEmpty(config.get("platform:verifyAtPreview"));
}

/** `platform:verifyAtPreview` as `configure` read it: not a connection setting (a resource's own connection has none). */
let verifyConfigured: string | undefined;

/**
 * Whether `check` verifies against the server what it would refuse (src/engine/verify.ts):
 * on unless `platform:verifyAtPreview` (or PLATFORM_VERIFY_AT_PREVIEW) is `false`.
 */
export function verifyAtPreview(): boolean {
  return (verifyConfigured ?? nonEmpty(process.env.PLATFORM_VERIFY_AT_PREVIEW))?.toLowerCase() !== "false";
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** A `Connection` as settings text; undefined values stay absent. */
function settingsOfConnection(connection: Partial<Connection>): Settings {
  const text = (value: unknown) => (value === undefined || value === null ? undefined : typeof value === "string" ? nonEmpty(value) : typeof value === "object" ? JSON.stringify(value) : String(value));
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, text(connection[name])])) as Settings;
}

/**
 * Runs `operation` with `connection` in force (a resource's or a function's
 * own): `client()`, `connectionProblem()` and `connectionSecrets()` use it.
 * Without one, the stack's connection stays in force.
 */
export function withConnection<T>(connection: Partial<Connection> | undefined, operation: () => T): T {
  return connection ? scope.run(settingsOfConnection(connection), operation) : operation();
}

/** The settings in force, or a message that says which one is wrong and how to give it. */
export function connectionProblem(): string | undefined {
  const own = scope.getStore();
  const problem = own ? knownProblem(own, connectionLabel, "The connection given is incomplete") : knownProblem(current(), stackLabel, "The platform provider is not configured");
  if (!problem) warnIfInsecure(own ?? current());
  return problem;
}

/** Each set of settings is checked once per process (URL, timeouts, certificate files, headers): check asks at every call. */
const problems = new Map<string, string | undefined>();

function knownProblem(settings: Settings, labels: Labels, lead: string): string | undefined {
  const key = `${lead}\n${settingsKey(settings)}`;
  if (!problems.has(key)) problems.set(key, problemOf(settings, labels, lead));
  return problems.get(key);
}

/** Settings objects are not changed once made: each one's key is made once (every operation asks for the client). */
const settingsKeys = new WeakMap<Settings, string>();

function settingsKey(settings: Settings): string {
  let key = settingsKeys.get(settings);
  if (key === undefined) settingsKeys.set(settings, (key = JSON.stringify(SETTING_NAMES.map((name) => settings[name]))));
  return key;
}

/** The message for missing or malformed settings; `labels` names them as the user gave them. */
function problemOf(settings: Settings, labels: Labels, lead: string): string | undefined {
  const { url, token, jobToken } = settings;
  const missing: string[] = [];
  if (labels === stackLabel) {
    if (!url) missing.push("the server URL: `pulumi config set platform:url https://platform.example.com` (or PLATFORM_URL)");
    if (!token && !jobToken) missing.push("an access token: `pulumi config set --secret platform:token <token>` (or PLATFORM_TOKEN)");
  } else {
    if (!url) missing.push("the server URL (connection.url)");
    if (!token && !jobToken) missing.push("an access token (connection.token)");
  }
  if (missing.length) return `${lead}; it needs ${missing.join(" and ")}.`;
  if (token && jobToken) return `${labels("token")} and ${labels("jobToken")} are both set: give one (an access token, or a CI job token, which reaches only its project's container registry).`;
  try {
    const parsed = new URL(url!);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    return `${labels("url")} must be an http(s) URL such as https://platform.example.com; got "${url}".`;
  }
  for (const name of ["requestTimeout", "retryTimeout"] as const) {
    const text = settings[name];
    if (text !== undefined && secondsOf(text) === undefined) {
      return `${labels(name)} is the time in seconds allowed for ${TIMEOUT_BOUNDS[name]}: a positive number such as 30; got "${text}".`;
    }
  }
  try {
    tlsOf(settings, labels);
    headersOf(settings, labels);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

function secondsOf(text: string): number | undefined {
  const seconds = Number(text);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/**
 * The stack's settings in force, one by one: the provider's (`configure`), else
 * the program's stack config (data functions run in the program's process,
 * where the provider is never configured), else the environment's.
 */
function current(): Settings {
  // A configured provider (its own process, or tests) never needs to look further, and its settings are the
  // same for every operation: built once per `configure`, not read from the environment at every operation.
  if (configured.url && configured.token) return (configuredInForce ??= settingsInForce({}));
  return settingsInForce(programSettings());
}

/** The settings `configure` gave, with the environment's for the others, while they stand (see `current`). */
let configuredInForce: Settings | undefined;

function settingsInForce(program: Settings): Settings {
  const settings = Object.fromEntries(
    SETTING_NAMES.map((name) => [name, configured[name] ?? program[name] ?? nonEmpty(process.env[STACK_SETTINGS[name]])]),
  ) as Settings;
  // Every CI job has CI_JOB_TOKEN: it stands in only when no access token is set, and never beside one.
  if (settings.token && configured.jobToken === undefined && program.jobToken === undefined) delete settings.jobToken;
  return settings;
}

/**
 * The stack config of the Pulumi program running in this process, if any.
 * Read raw through the SDK's runtime (`Config.get` would warn about the secret
 * token); empty outside a program. The SDK is already loaded wherever the
 * package is (its resource classes need it), so this costs no load.
 */
function programSettings(): Settings {
  const { runtime } = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  return settingsOf({ get: (key) => runtime.getConfig(key) });
}

/** The token and the header values in force (the stack's and the operation's own), for error messages to mask should a server repeat them. */
export function connectionSecrets(): string[] {
  const secrets: string[] = [];
  for (const settings of [scope.getStore(), current()]) {
    if (!settings) continue;
    if (settings.token) secrets.push(settings.token);
    if (settings.jobToken) secrets.push(settings.jobToken);
    try {
      secrets.push(...Object.values(headersOf(settings, stackLabel)));
    } catch {
      // Malformed headers were never sent.
    }
  }
  return secrets;
}

/** Whether a resource's or a function's own connection is in force (not the stack's settings). */
export function ownConnectionInForce(): boolean {
  return scope.getStore() !== undefined;
}

/** The URL of the server in force (the operation's own, else the stack's), for comparing connections. */
export function connectionUrl(connection?: Partial<Connection>): string | undefined {
  const url = connection ? settingsOfConnection(connection).url : current().url;
  return url?.replace(/\/+$/, "");
}

/** The API client for the server in force; one per process and settings. */
export function client(): PlatformClient {
  const own = scope.getStore();
  const stack = current();
  // A configured provider's stack settings are one object until the next `configure`: its client is kept beside it.
  if (!own && lastStackClient?.settings === stack) return lastStackClient.client;
  // An own connection's timeouts default to the stack's: they steer the provider, not the server.
  const settings: Settings = own ? { ...own, requestTimeout: own.requestTimeout ?? stack.requestTimeout, retryTimeout: own.retryTimeout ?? stack.retryTimeout } : stack;
  // Own and stack settings are told apart: the same values name their problems differently.
  const key = `${own ? "own" : "stack"}\n${settingsKey(settings)}`;
  let made = clients.get(key);
  if (!made) {
    // Checked when the client is made, not at every operation (every operation asks for the client).
    const problem = connectionProblem();
    if (problem) throw new Error(problem);
    const labels = own ? connectionLabel : stackLabel;
    const milliseconds = (text: string | undefined) => (text === undefined ? undefined : secondsOf(text)! * 1000);
    const job = !settings.token;
    made = new PlatformClient({
      url: settings.url!,
      token: (settings.token ?? settings.jobToken)!,
      tokenKind: job ? "job" : "access",
      requestTimeoutMs: milliseconds(settings.requestTimeout),
      retryTimeoutMs: milliseconds(settings.retryTimeout),
      tls: tlsOf(settings, labels),
      headers: headersOf(settings, labels),
      tokenSetting: labels(job ? "jobToken" : "token").replace(/^connection\.token$/, "the connection given (connection.token)"),
      urlSetting: labels === connectionLabel ? "connection.url" : "platform:url",
    });
    clients.set(key, made);
  }
  if (!own) lastStackClient = { settings: stack, client: made };
  return made;
}

/** The client of the stack's settings last asked for, with those settings (see `client`). */
let lastStackClient: { settings: Settings; client: PlatformClient } | undefined;

// ---------------------------------------------------------------------------
// TLS and headers

/** The TLS settings, the files read; throws a message naming the setting when one is unreadable or not PEM. */
function tlsOf(settings: Settings, labels: Labels): TlsOptions {
  const tls: TlsOptions = {};
  if (settings.caCertificate) tls.ca = pemOf(settings.caCertificate, labels("caCertificate"), "CERTIFICATE");
  if (settings.clientCertificate) tls.cert = pemOf(settings.clientCertificate, labels("clientCertificate"), "CERTIFICATE");
  if (settings.clientKey) tls.key = pemOf(settings.clientKey, labels("clientKey"), "PRIVATE KEY");
  if (tls.key && !tls.cert) throw new Error(`${labels("clientKey")} is set without ${labels("clientCertificate")}: a client key needs the certificate it belongs to.`);
  if (tls.cert && !tls.key) throw new Error(`${labels("clientCertificate")} is set without ${labels("clientKey")}: a client certificate needs its private key.`);
  if (settings.insecure !== undefined) {
    if (!/^(true|false)$/i.test(settings.insecure)) throw new Error(`${labels("insecure")} is true or false; got "${settings.insecure}".`);
    if (settings.insecure.toLowerCase() === "true") tls.rejectUnauthorized = false;
  }
  return tls;
}

/** The most read of a PEM file: a bundle of every public certificate authority is about 220 KiB. */
const MAX_PEM_BYTES = 4 * 1024 * 1024;

/**
 * PEM text as given, or read from the file the value names. `kind` is what the
 * PEM block must hold (`CERTIFICATE`; `PRIVATE KEY` also matches `RSA PRIVATE
 * KEY` and `EC PRIVATE KEY`).
 */
function pemOf(value: string, label: string, kind: string): string {
  let text = value;
  let source = "the value";
  if (!value.includes("-----BEGIN")) {
    source = `the file ${value}`;
    try {
      text = readTextWithin(value, MAX_PEM_BYTES, `${label}: the file ${value}`);
    } catch (error) {
      if (error instanceof ReadLimitExceeded) throw new Error(`${error.message} Give the path of a PEM file.`);
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new Error(`${label}: cannot read the file ${value} (${reason}); give the path of a PEM file, or the PEM text itself.`);
    }
  }
  if (!new RegExp(`-----BEGIN [A-Z ]*${kind}-----`).test(text)) {
    throw new Error(`${label}: ${source} is not PEM text holding a ${kind.toLowerCase()} (no "-----BEGIN ...${kind}-----" line).`);
  }
  return text;
}

/** Header names ours to send: a proxy's headers must not replace them. */
const RESERVED_HEADERS = new Set(["private-token", "content-type", "content-length", "host", "connection", "transfer-encoding"]);

/** The extra headers, checked: a JSON object of header names to text values. */
function headersOf(settings: Settings, labels: Labels): Record<string, string> {
  if (!settings.headers) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(settings.headers);
  } catch {
    // Never quote the value: it may hold a proxy's credentials.
    throw new Error(`${labels("headers")} must be a JSON object of header names and values, such as {"X-Proxy-Key": "..."}; the value given is not JSON.`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error(`${labels("headers")} must be a JSON object of header names and values, such as {"X-Proxy-Key": "..."}.`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`${labels("headers")}: "${name}" is not a valid header name.`);
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw new Error(`${labels("headers")}: ${name} is set by the provider itself and cannot be given here.`);
    if (typeof value !== "string" || /[\r\n]/.test(value)) throw new Error(`${labels("headers")}: the value of ${name} must be text on one line.`);
    headers[name] = value;
  }
  return headers;
}

/** Servers already warned about in this process: the warning is said once per run. */
const warnedInsecure = new Set<string>();

/** Skipping verification is said at every run (once per process and server), where the user sees it. */
function warnIfInsecure(settings: Settings): void {
  if (settings.insecure?.toLowerCase() !== "true" || !settings.url || warnedInsecure.has(settings.url)) return;
  warnedInsecure.add(settings.url);
  const message =
    `TLS verification is off for ${settings.url} (insecure): anyone on the network path can read and change the requests, token included. ` +
    `Trust the server's certificate authority with caCertificate instead.`;
  // In a program (data functions) the SDK's log reaches the CLI; in the provider host it does not (./engine/engine-log.ts).
  const { log, runtime } = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  void (runtime.hasEngine() ? log.warn(message) : engineWarn(message));
}
