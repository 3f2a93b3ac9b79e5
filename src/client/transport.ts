/**
 * How requests reach a server: TLS (a private certificate authority, a client
 * certificate for mutual TLS, or no verification at all) and the proxies of
 * the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, as curl and most
 * tools read them, through undici's `EnvHttpProxyAgent`).
 *
 * One dispatcher (keep-alive connections to every server it is asked for) per
 * distinct set of these settings, shared by every client that uses them: a
 * program that talks to two servers with two CAs holds two, a program with one
 * connection holds one.
 */
import type { Dispatcher } from "undici";

/** TLS settings of a connection, as PEM text (never file paths: ../connection.ts reads the files). */
export interface TlsOptions {
  /** Certificate authorities trusted besides the system's (Node's bundled list): PEM, one or more certificates. */
  ca?: string;
  /** The client certificate (PEM) presented to a server that demands one. */
  cert?: string;
  /** The client certificate's private key (PEM). */
  key?: string;
  /** False skips the verification of the server's certificate (insecure). */
  rejectUnauthorized?: boolean;
}

/** What a dispatcher is built from: the TLS settings and the limits of its connections. */
export interface TransportOptions {
  tls: TlsOptions;
  /** Connections per server. */
  connections: number;
  /** Time allowed for the headers and for the body of one response. */
  requestTimeoutMs: number;
}

const dispatchers = new Map<string, Dispatcher>();

const PROXY_VARIABLES = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "no_proxy", "NO_PROXY"];

/**
 * The proxy variables in force, as one key part. Empty when none is set (one
 * set empty counts: undici reads `http_proxy=""` as "no proxy" before `HTTP_PROXY`).
 */
function proxyEnvironment(): string {
  let key = "";
  for (const name of PROXY_VARIABLES) {
    const value = process.env[name];
    if (value !== undefined) key += `${name}=${value}\n`;
  }
  return key;
}

/**
 * The passwords in the proxy variables (`https://user:password@proxy:3128`), as written and decoded: a
 * proxy's refusal may repeat them, and the client masks them with its own credentials.
 */
export function proxyPasswords(): string[] {
  const found: string[] = [];
  for (const name of PROXY_VARIABLES) {
    const value = process.env[name];
    if (!value || name.toLowerCase() === "no_proxy") continue;
    try {
      const { password } = new URL(value);
      if (password) found.push(decodeURIComponent(password), password);
    } catch {
      // Not a URL: undici refuses it, and nothing is sent with it.
    }
  }
  return found;
}

/** The key part of each client's TLS settings, made once: a CA bundle is hundreds of kilobytes to serialize at every request. */
const tlsKeys = new WeakMap<TlsOptions, string>();

function tlsKey(tls: TlsOptions): string {
  let key = tlsKeys.get(tls);
  if (key === undefined) tlsKeys.set(tls, (key = JSON.stringify([tls.ca, tls.cert, tls.key, tls.rejectUnauthorized])));
  return key;
}

function isClosed(dispatcher: Dispatcher): boolean {
  return (dispatcher as { closed?: boolean }).closed === true || (dispatcher as { destroyed?: boolean }).destroyed === true;
}

/**
 * One client's dispatcher, kept between its requests: looked up again only
 * once it was closed (`closeAllDispatchers`), so a request neither builds and
 * hashes the lookup key (a CA bundle is part of it) nor reads the proxy
 * variables (six reads of the environment a request).
 * So the proxy variables are read when a client first connects, as a process
 * starts, and again after `closeAllPools()`: a process that changes them
 * later calls that.
 */
export class DispatcherSlot {
  private dispatcher: Dispatcher | undefined;

  constructor(private readonly options: TransportOptions) {}

  get(): Dispatcher {
    if (this.dispatcher === undefined || isClosed(this.dispatcher)) this.dispatcher = dispatcherFor(this.options);
    return this.dispatcher;
  }
}

export function dispatcherFor(options: TransportOptions, proxies = proxyEnvironment()): Dispatcher {
  const { tls, connections, requestTimeoutMs } = options;
  const key = `${tlsKey(tls)}\n${connections}\n${requestTimeoutMs}\n${proxies}`;
  let dispatcher = dispatchers.get(key);
  if (!dispatcher || isClosed(dispatcher)) {
    const tlsOptions = {
      ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
      ...(tls.cert !== undefined ? { cert: tls.cert } : {}),
      ...(tls.key !== undefined ? { key: tls.key } : {}),
      ...(tls.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
    };
    const agentOptions = {
      connections,
      keepAliveTimeout: 10_000,
      headersTimeout: requestTimeoutMs,
      bodyTimeout: requestTimeoutMs,
      // Direct connections: TLS to the server itself.
      connect: { timeout: Math.min(requestTimeoutMs, 10_000), ...tlsOptions },
    };
    // Loaded with the first dispatcher, not with the package: a program that sends no request of its own
    // (one that declares resources and reads no data) never needs it.
    const { Agent, EnvHttpProxyAgent } = require("undici") as typeof import("undici");
    // With no proxy variable set, EnvHttpProxyAgent sends everything through a plain Agent built from these
    // options, after parsing each request's origin to decide so: the Agent itself does the same, a layer less.
    dispatcher = proxies === ""
      ? new Agent(agentOptions)
      // Through a proxy: TLS to the server inside the CONNECT tunnel (the proxy sees only ciphertext).
      : new EnvHttpProxyAgent({ ...agentOptions, requestTls: tlsOptions });
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}

/** Closes every dispatcher's connections (tests, and processes that want to exit promptly). */
export async function closeAllDispatchers(): Promise<void> {
  const all = [...dispatchers.values()];
  dispatchers.clear();
  await Promise.all(all.map((dispatcher) => dispatcher.close().catch(() => undefined)));
}
