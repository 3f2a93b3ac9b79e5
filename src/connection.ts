/**
 * The provider's connection settings: what they are, where they come from,
 * what makes them wrong, and the API client they make.
 *
 * `stackSettings` declares every setting once: its type as a program gives it
 * (a resource's `connection` argument, a data function's `connection` option),
 * its environment variable, whether the state keeps it secret, and whether
 * only the stack has it. The rest is derived from it: the `Connection` type,
 * the config keys (`platform:<name>`), the environment's names.
 *
 * The stack's settings are read one by one through one accessor
 * (`Connections.stackSettings`): the provider's config as `configure` gave it,
 * else the program's own stack config (data functions run in the program's
 * process, where the provider is never configured), else the environment.
 * Another server's connection is in force while `withConnection` runs an
 * operation; the client, the checks and the masking of messages then use it.
 *
 * This module keeps no state: a `Connections` holds what a process was
 * configured with and the clients it made, and the engine makes the process's
 * one (../engine/process-connections.ts). Nothing of it is in the serialized
 * provider.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";
import { ReadLimitExceeded, readTextWithin } from "./bounded-read";
import { PlatformClient } from "./client";
import type { TlsOptions } from "./client/transport";

export interface ConfigSource {
  get(key: string): string | undefined;
}

/** What a setting is beside its type. */
interface SettingTraits {
  /** The environment variable that gives it for the stack. */
  environment: string;
  /** Kept secret in the state when a resource's connection records it. */
  secret?: true;
}

const traits = z.registry<SettingTraits>();
function setting<T extends z.ZodType>(type: T, settingTraits: SettingTraits): T {
  traits.add(type, settingTraits);
  return type;
}

/**
 * A server and how to reach it: the settings of the stack's connection, and
 * of a resource's or a data function's own. A resource or a data function that
 * talks to another server than the stack's (`platform:url`), a hosted group
 * beside a self-managed instance, gives its own (`Connection`): settings left
 * out are not taken from the stack's connection (it is another server),
 * except the two timeouts.
 */
export const connectionSettings = z.object({
  /** The server's base URL, e.g. `https://gitlab.example.com`. A change of it replaces the resources that use it. */
  url: setting(z.string(), { environment: "PLATFORM_URL" }),
  /** An access token of that server (or `jobToken`); kept secret in the state. A change of it updates the resources in place. */
  token: setting(z.string().optional(), { environment: "PLATFORM_TOKEN", secret: true }),
  // CI_JOB_TOKEN, which every CI job has, is in force only when no access token is set anywhere (see `Connections.inForce`).
  /**
   * A CI job token instead of `token` (sent as `JOB-TOKEN`), for the actions
   * and functions a pipeline runs on its own project's container registry;
   * that is all such a token reaches.
   */
  jobToken: setting(z.string().optional(), { environment: "CI_JOB_TOKEN", secret: true }),
  /** Seconds allowed for one attempt of a request (default: the stack's `platform:requestTimeout`, else 30). */
  requestTimeout: setting(z.number().optional(), { environment: "PLATFORM_REQUEST_TIMEOUT" }),
  /** Seconds allowed for a request and its retries (default: the stack's `platform:retryTimeout`, else 120). */
  retryTimeout: setting(z.number().optional(), { environment: "PLATFORM_RETRY_TIMEOUT" }),
  /** Certificate authorities to trust for this server: PEM text, or the path of a PEM file. */
  caCertificate: setting(z.string().optional(), { environment: "PLATFORM_CA_CERTIFICATE" }),
  /** A client certificate for servers that demand one (mutual TLS): PEM text or a file path; needs `clientKey`. */
  clientCertificate: setting(z.string().optional(), { environment: "PLATFORM_CLIENT_CERTIFICATE" }),
  /** The client certificate's private key: PEM text or a file path; kept secret in the state. */
  clientKey: setting(z.string().optional(), { environment: "PLATFORM_CLIENT_KEY", secret: true }),
  /** Headers sent with every request, for a proxy in front of the server; kept secret in the state. */
  headers: setting(z.record(z.string(), z.string()).optional(), { environment: "PLATFORM_HEADERS", secret: true }),
  /** Skip the verification of the server's certificate. Insecure: a warning is printed at every run. */
  insecure: setting(z.boolean().optional(), { environment: "PLATFORM_INSECURE" }),
});

/** Every setting of the stack: its connection's, and what it alone has. */
export const stackSettings = connectionSettings.extend({
  /**
   * Whether `check` verifies against the server what it would refuse
   * (src/engine/verify.ts): on unless `false`.
   */
  verifyAtPreview: setting(z.boolean().optional(), { environment: "PLATFORM_VERIFY_AT_PREVIEW" }),
  /**
   * The username of the user whose token applies the program, when it is not
   * the token's own user (a preview's read token): each step is verified as that user.
   */
  applyAs: setting(z.string().optional(), { environment: "PLATFORM_APPLY_AS" }),
});

type SettingName = keyof typeof stackSettings.shape;
const SETTING_NAMES = Object.keys(stackSettings.shape) as SettingName[];
const traitsOf = (name: SettingName): SettingTraits => traits.get(stackSettings.shape[name])!;

type ConnectionName = keyof typeof connectionSettings.shape;
const CONNECTION_NAMES = Object.keys(connectionSettings.shape) as ConnectionName[];

/** A server and how to reach it, for a resource or a data function that talks to another server than the stack's (see `connectionSettings`). */
export type Connection = z.input<typeof connectionSettings>;

/** The settings of a connection that the state keeps secret. */
export const SECRET_SETTINGS: readonly ConnectionName[] = CONNECTION_NAMES.filter((name) => traitsOf(name).secret);

/** The settings as text, however they were given (config values are text; a `Connection` is converted); absent ones undefined. */
type Settings = { readonly [K in SettingName]?: string };

/** What the optional timeouts bound, for their messages. */
const TIMEOUT_BOUNDS = { requestTimeout: "one attempt of a request", retryTimeout: "a request and all its retries" } as const;

/** How messages name a setting: `platform:caCertificate (or PLATFORM_CA_CERTIFICATE)`, or `connection.caCertificate`. */
type Labels = (name: SettingName) => string;
const stackLabel: Labels = (name) => `platform:${name} (or ${traitsOf(name).environment})`;
const connectionLabel: Labels = (name) => `connection.${name}`;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** The settings a config source gives (`platform:url`, ...); absent ones undefined. */
function settingsOf(config: ConfigSource): Settings {
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, nonEmpty(config.get(`platform:${name}`))]));
}

/** A `Connection` as settings text; undefined values stay absent. */
function settingsOfConnection(connection: Partial<Connection>): Settings {
  const text = (value: unknown) => (value === undefined || value === null ? undefined : typeof value === "string" ? nonEmpty(value) : typeof value === "object" ? JSON.stringify(value) : String(value));
  return Object.fromEntries(CONNECTION_NAMES.map((name) => [name, text(connection[name])]));
}

/** What a `Connections` is given by the process that makes it. */
export interface ConnectionsOptions {
  /** Shows a warning where the user sees it (skipped TLS verification, once per server). */
  warn(message: string): void;
  /** The stack config of the Pulumi program running in this process, if any (empty elsewhere). */
  programConfig: ConfigSource;
  /** The environment the stack's settings fall back to, as it is at the moment of reading. */
  environment(): NodeJS.ProcessEnv;
}

/**
 * The connections of one process: the stack's settings as `configure` gave
 * them, the own connection in force during an operation, and the clients and
 * checks made so far (one per settings).
 */
export class Connections {
  /** What `configure` gave (every setting, stack-only ones included); empty until then. */
  private configured: Settings = {};
  /** The stack's settings in force while `configured` stands (see `stackSettings`). */
  private configuredInForce: Settings | undefined;
  /** A resource's or a function's own connection, while its operation runs. */
  private readonly scope = new AsyncLocalStorage<Settings>();
  /** The clients made so far, by their settings. */
  private readonly clients = new Map<string, PlatformClient>();
  /** The client of the stack's settings last asked for, with those settings (see `client`). */
  private lastStackClient: { settings: Settings; client: PlatformClient } | undefined;
  /** Each set of settings is checked once (URL, timeouts, certificate files, headers): check asks at every call. */
  private readonly problems = new Map<string, string | undefined>();
  /** Servers already warned about: the warning is said once per run. */
  private readonly warnedInsecure = new Set<string>();
  /** Settings objects are not changed once made: each one's key is made once (every operation asks for the client). */
  private readonly keys = new WeakMap<Settings, string>();

  constructor(private readonly options: ConnectionsOptions) {}

  /** Called from the provider's `configure` with the stack's config. */
  configure(config: ConfigSource): void {
    this.configured = settingsOf(config);
    this.configuredInForce = undefined;
  }

  /**
   * The stack's settings in force, one by one: the provider's (`configure`),
   * else the program's stack config, else the environment's. The one way a
   * setting of the stack is read.
   */
  stackSettings(): Settings {
    const { configured } = this;
    // A configured provider (its own process, or tests) never needs to look further, and its settings are the
    // same for every operation: built once per `configure`, not read from the environment at every operation.
    if (configured.url && configured.token) return (this.configuredInForce ??= this.inForce({}));
    return this.inForce(settingsOf(this.options.programConfig));
  }

  private inForce(program: Settings): Settings {
    const { configured } = this;
    const environment = this.options.environment();
    const settings: Record<string, string | undefined> = Object.fromEntries(
      SETTING_NAMES.map((name) => [name, configured[name] ?? program[name] ?? nonEmpty(environment[traitsOf(name).environment])]),
    );
    // Every CI job has CI_JOB_TOKEN: it stands in only when no access token is set, and never beside one.
    if (settings.token && configured.jobToken === undefined && program.jobToken === undefined) delete settings.jobToken;
    return settings;
  }

  /** The user whose token applies the program (`platform:applyAs`, or PLATFORM_APPLY_AS), when it is named. */
  applyAs(): string | undefined {
    return this.stackSettings().applyAs;
  }

  /** Whether `check` verifies against the server what it would refuse: on unless `platform:verifyAtPreview` (or PLATFORM_VERIFY_AT_PREVIEW) is `false`. */
  verifyAtPreview(): boolean {
    return this.stackSettings().verifyAtPreview?.toLowerCase() !== "false";
  }

  /**
   * Runs `operation` with `connection` in force (a resource's or a function's
   * own): `client()`, `problem()` and `secrets()` use it. Without one, the
   * stack's connection stays in force.
   */
  withConnection<T>(connection: Partial<Connection> | undefined, operation: () => T): T {
    return connection ? this.scope.run(settingsOfConnection(connection), operation) : operation();
  }

  /** Whether a resource's or a function's own connection is in force (not the stack's settings). */
  ownConnectionInForce(): boolean {
    return this.scope.getStore() !== undefined;
  }

  /** The URL of `connection`, else of the stack's, without trailing slashes, for comparing connections. */
  url(connection?: Partial<Connection>): string | undefined {
    return (connection ? settingsOfConnection(connection) : this.stackSettings()).url?.replace(/\/+$/, "");
  }

  /** The settings in force, or a message that says which one is wrong and how to give it. */
  problem(): string | undefined {
    const own = this.scope.getStore();
    const settings = own ?? this.stackSettings();
    const problem = own ? this.knownProblem(own, connectionLabel, "The connection given is incomplete") : this.knownProblem(settings, stackLabel, "The platform provider is not configured");
    if (!problem) this.warnIfInsecure(settings);
    return problem;
  }

  private settingsKey(settings: Settings): string {
    let key = this.keys.get(settings);
    if (key === undefined) this.keys.set(settings, (key = JSON.stringify(SETTING_NAMES.map((name) => settings[name]))));
    return key;
  }

  private knownProblem(settings: Settings, labels: Labels, lead: string): string | undefined {
    const key = `${lead}\n${this.settingsKey(settings)}`;
    if (!this.problems.has(key)) this.problems.set(key, problemOf(settings, labels, lead));
    return this.problems.get(key);
  }

  /** Skipping verification is said at every run (once per process and server), where the user sees it. */
  private warnIfInsecure(settings: Settings): void {
    if (settings.insecure?.toLowerCase() !== "true" || !settings.url || this.warnedInsecure.has(settings.url)) return;
    this.warnedInsecure.add(settings.url);
    this.options.warn(
      `TLS verification is off for ${settings.url} (insecure): anyone on the network path can read and change the requests, token included. ` +
        `Trust the server's certificate authority with caCertificate instead.`,
    );
  }

  /** The token and the header values in force (the stack's and the operation's own), for error messages to mask should a server repeat them. */
  secrets(): string[] {
    const secrets: string[] = [];
    // What was sent, which a server may repeat: the tokens and the headers (a client key is never sent).
    for (const settings of [this.scope.getStore(), this.stackSettings()]) {
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

  /** The API client for the server in force; one per settings. */
  client(): PlatformClient {
    const own = this.scope.getStore();
    const stack = this.stackSettings();
    // A configured provider's stack settings are one object until the next `configure`: its client is kept beside it.
    if (!own && this.lastStackClient?.settings === stack) return this.lastStackClient.client;
    // An own connection's timeouts default to the stack's: they steer the provider, not the server.
    const settings: Settings = own ? { ...own, requestTimeout: own.requestTimeout ?? stack.requestTimeout, retryTimeout: own.retryTimeout ?? stack.retryTimeout } : stack;
    // Own and stack settings are told apart: the same values name their problems differently.
    const key = `${own ? "own" : "stack"}\n${this.settingsKey(settings)}`;
    let made = this.clients.get(key);
    if (!made) {
      // Checked when the client is made, not at every operation (every operation asks for the client).
      const problem = this.problem();
      if (problem) throw new Error(problem);
      made = clientOf(settings, own ? connectionLabel : stackLabel);
      this.clients.set(key, made);
    }
    if (!own) this.lastStackClient = { settings: stack, client: made };
    return made;
  }
}

/** The client of settings already checked. */
function clientOf(settings: Settings, labels: Labels): PlatformClient {
  const milliseconds = (text: string | undefined) => (text === undefined ? undefined : secondsOf(text)! * 1000);
  const job = !settings.token;
  return new PlatformClient({
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
