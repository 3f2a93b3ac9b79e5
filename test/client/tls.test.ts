/**
 * Reaching self-managed servers: a private certificate authority, a server
 * that demands a client certificate, skipped verification, headers for a
 * proxy in front of the server, and the proxies of the environment. The
 * emulator serves HTTPS with certificates made by the test (./test-pki.ts);
 * the provider and the data functions are driven as the engine and programs do.
 */
import { spawn } from "node:child_process";
import { createServer as createHttpServer, request as httpRequest, type Server } from "node:http";
import { resolve } from "node:path";
import { connect as netConnect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { closeAllPools, getBadges, PlatformClient, providers } from "pulumi-platform";
import { configOf, tokenOf, useEmulator, type TestServer } from "../support";
import { makeTestPki } from "./test-pki";
import { whenOutput } from "../spawned";

const pki = makeTestPki();
const tlsServer = useEmulator({ tls: { cert: pki.serverCert.text, key: pki.serverKey.text } });
const mtlsServer = useEmulator({ tls: { cert: pki.serverCert.text, key: pki.serverKey.text, clientCa: pki.clientCa.text } });
const plainServer = useEmulator();

const badge = { project: "acme/web", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/badge.svg" };

async function configure(server: TestServer, settings: Record<string, string>): Promise<void> {
  await providers.Badge.configure({
    config: configOf({ "platform:url": server.emulator.url, "platform:token": tokenOf(server.emulator, "root"), ...settings }),
  });
}

/** The badges of acme/web as the server holds them, read with the CA trusted (and the client certificate, for mTLS). */
async function badgesOn(server: TestServer): Promise<{ link_url: string }[]> {
  const api = new PlatformClient({
    url: server.emulator.url,
    token: tokenOf(server.emulator, "root"),
    tls: { ca: pki.ca.text, cert: pki.clientCert.text, key: pki.clientKey.text },
  });
  return api.list(`/projects/acme%2Fweb/badges`);
}

async function failureOf(action: Promise<unknown>): Promise<Error> {
  const outcome = await action.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  if (!outcome) throw new Error("expected a failure");
  return outcome;
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(() => configure(plainServer, {}));

describe("a server behind a private certificate authority", () => {
  it("is refused without its CA, with a message that says which setting trusts it, and without retrying", async () => {
    await configure(tlsServer, {});
    const error = await failureOf(providers.Badge.create(badge));
    expect(error.message).toMatch(/certificate/i);
    expect(error.message).toContain("platform:caCertificate");
    // Refused the same way at every attempt: tried once.
    expect(error.message).not.toContain("Gave up after");
    expect(tlsServer.emulator.requestLog).toEqual([]);
    expect(await badgesOn(tlsServer)).toEqual([]);
  });

  it("is reached with platform:caCertificate as a file path, or as the PEM text", async () => {
    for (const ca of [pki.ca.path, pki.ca.text]) {
      await configure(tlsServer, { "platform:caCertificate": ca });
      const { id } = await providers.Badge.create(badge);
      expect((await providers.Badge.read(id, { ...badge })).id).toBe(id);
      await providers.Badge.delete(id, { ...badge });
    }
    expect(await badgesOn(tlsServer)).toEqual([]);
  });

  it("a CA that did not sign the server's certificate is no better than none", async () => {
    await configure(tlsServer, { "platform:caCertificate": pki.otherCa.path });
    expect((await failureOf(providers.Badge.create(badge))).message).toMatch(/certificate/i);
  });

  it("data functions use the same settings", async () => {
    await configure(tlsServer, { "platform:caCertificate": pki.ca.path });
    expect(await getBadges({ project: "acme/web" })).toEqual([]);
    await configure(tlsServer, {});
    expect((await failureOf(getBadges({ project: "acme/web" }))).message).toContain("platform:caCertificate");
  });

  it("platform:insecure skips the verification, and says so once per process", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      await configure(tlsServer, { "platform:insecure": "true" });
      const { id } = await providers.Badge.create(badge);
      await providers.Badge.delete(id, { ...badge });
      await providers.Badge.check({}, badge);
      const warnings = warn.mock.calls.map((call) => String(call[0])).filter((text) => text.includes("TLS verification is off"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(tlsServer.emulator.url);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a server that demands a client certificate", () => {
  it("refuses a connection without one, and the message names the settings", async () => {
    await configure(mtlsServer, { "platform:caCertificate": pki.ca.path, "platform:retryTimeout": "1" });
    const error = await failureOf(providers.Badge.create(badge));
    expect(error.message).toContain("platform:clientCertificate");
    expect(mtlsServer.emulator.requestLog).toEqual([]);
  });

  it("accepts platform:clientCertificate and platform:clientKey (paths or PEM text)", async () => {
    for (const [cert, key] of [
      [pki.clientCert.path, pki.clientKey.path],
      [pki.clientCert.text, pki.clientKey.text],
    ] as const) {
      await configure(mtlsServer, { "platform:caCertificate": pki.ca.path, "platform:clientCertificate": cert, "platform:clientKey": key });
      const { id } = await providers.Badge.create(badge);
      await providers.Badge.delete(id, { ...badge });
    }
    expect(mtlsServer.emulator.requestLog.map((entry) => entry.method)).toEqual(["POST", "DELETE", "POST", "DELETE"]);
  });
});

describe("settings that cannot work fail at preview, naming the setting, before any request", () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ["an unreadable CA file", { "platform:caCertificate": "/nonexistent/ca.pem" }, /platform:caCertificate \(or PLATFORM_CA_CERTIFICATE\): cannot read the file \/nonexistent\/ca\.pem \(ENOENT\)/],
    ["a CA file that is not PEM", { "platform:caCertificate": __filename }, /platform:caCertificate .*is not PEM text holding a certificate/],
    ["a key without its certificate", { "platform:clientKey": pki.clientKey.path }, /platform:clientKey .*is set without platform:clientCertificate/],
    ["a certificate in place of the key", { "platform:clientCertificate": pki.clientCert.path, "platform:clientKey": pki.clientCert.path }, /platform:clientKey .*is not PEM text holding a private key/],
    ["headers that are not JSON", { "platform:headers": "X-Proxy-Key: hunter22" }, /platform:headers .*must be a JSON object/],
    ["a header that would replace the token", { "platform:headers": '{"PRIVATE-TOKEN":"abc"}' }, /PRIVATE-TOKEN is set by the provider itself/],
    ["insecure that is not a boolean", { "platform:insecure": "yes" }, /platform:insecure .*is true or false; got "yes"/],
  ];
  for (const [what, settings, message] of cases) {
    it(what, async () => {
      await configure(plainServer, settings);
      const requests = await plainServer.requestsDuring(async () => {
        const result = await providers.Badge.check({}, badge);
        expect(result.failures?.[0]?.reason).toMatch(message);
      });
      expect(requests).toEqual([]);
      // Never quoted: the value of a header may be a proxy's credentials.
      expect(JSON.stringify(await providers.Badge.check({}, badge))).not.toContain("hunter22");
    });
  }

  it("the environment variables are read when the config is absent", async () => {
    process.env.PLATFORM_CA_CERTIFICATE = "/nonexistent/env-ca.pem";
    try {
      await configure(plainServer, {});
      expect((await providers.Badge.check({}, badge)).failures?.[0]?.reason).toContain("cannot read the file /nonexistent/env-ca.pem");
    } finally {
      delete process.env.PLATFORM_CA_CERTIFICATE;
    }
  });
});

describe("platform:headers, for a proxy in front of the server", () => {
  /** A gatekeeper in front of the plain emulator: it demands X-Proxy-Key and records what it was sent. */
  const seen: (string | undefined)[] = [];
  const key = "proxy-key-7f3a9c";
  let front: Server;
  let frontUrl = "";
  beforeAll(async () => {
    front = createHttpServer((req, res) => {
      const given = req.headers["x-proxy-key"] as string | undefined;
      seen.push(given);
      if (given !== key) {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: `401 proxy key ${given ?? "(none)"} refused` }));
        return;
      }
      const target = new URL(plainServer.emulator.url);
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    frontUrl = await listening(front);
  });
  afterAll(() => new Promise<void>((resolve) => front.close(() => resolve())));

  it("reach the server with every request; without them the proxy refuses; a wrong value is masked in the message", async () => {
    const settings = (headers?: string) => ({ "platform:url": frontUrl, "platform:token": tokenOf(plainServer.emulator, "root"), ...(headers ? { "platform:headers": headers } : {}) });
    await providers.Badge.configure({ config: configOf(settings()) });
    expect((await failureOf(providers.Badge.create(badge))).message).toContain("401");

    await providers.Badge.configure({ config: configOf(settings(JSON.stringify({ "X-Proxy-Key": "wrong-key-5521" }))) });
    const refused = await failureOf(providers.Badge.create(badge));
    expect(refused.message).toContain("401 proxy key [secret] refused");
    expect(refused.message).not.toContain("wrong-key-5521");

    await providers.Badge.configure({ config: configOf(settings(JSON.stringify({ "X-Proxy-Key": key }))) });
    seen.length = 0;
    const { id } = await providers.Badge.create(badge);
    await providers.Badge.delete(id, { ...badge });
    expect(seen).toEqual([key, key]);
    expect(plainServer.emulator.requestLog.filter((entry) => entry.method !== "GET").map((entry) => `${entry.method} ${entry.status}`)).toEqual(["POST 201", "DELETE 204"]);
  });
});

describe("HTTPS_PROXY, HTTP_PROXY and NO_PROXY", () => {
  /** A forward proxy as offices run them: CONNECT tunnels for HTTPS, absolute-URI requests for HTTP; it counts both. */
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  let proxy: Server;
  let proxyUrl = "";
  const saved = { ...process.env };
  beforeAll(async () => {
    proxy = createHttpServer((req, res) => {
      forwarded.push(`${req.method} ${req.url}`);
      const target = new URL(req.url!);
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: target.pathname + target.search, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    proxy.on("connect", (req, socket, head) => {
      tunnels.push(req.url!);
      const [host, port] = req.url!.split(":");
      const upstream = netConnect(Number(port), host, () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on("error", () => socket.destroy());
      socket.on("error", () => upstream.destroy());
    });
    proxyUrl = await listening(proxy);
  });
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  afterEach(async () => {
    for (const name of ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy"]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await closeAllPools();
  });

  it("an HTTPS server is reached through the proxy's tunnel, TLS to the server inside it; NO_PROXY bypasses it", async () => {
    // The proxy variables are read when a client connects (as a process starts), and again after closeAllPools.
    process.env.HTTPS_PROXY = proxyUrl;
    await closeAllPools();
    await configure(tlsServer, { "platform:caCertificate": pki.ca.path });
    tunnels.length = 0;
    const { id } = await providers.Badge.create(badge);
    expect(tunnels).toEqual([new URL(tlsServer.emulator.url).host]);

    process.env.NO_PROXY = "localhost,127.0.0.1";
    await closeAllPools();
    await providers.Badge.delete(id, { ...badge });
    expect(tunnels).toHaveLength(1);
    expect(await badgesOn(tlsServer)).toEqual([]);
  });

  it("an HTTP server is reached through HTTP_PROXY, and a data function goes the same way", async () => {
    process.env.HTTP_PROXY = proxyUrl;
    await closeAllPools();
    await configure(plainServer, {});
    tunnels.length = 0;
    forwarded.length = 0;
    const { id } = await providers.Badge.create(badge);
    expect(await getBadges({ project: "acme/web" })).toHaveLength(1);
    // undici tunnels plain HTTP too (CONNECT); a proxy that forwarded instead would have counted here.
    expect(tunnels.length + forwarded.length).toBeGreaterThanOrEqual(2);

    process.env.NO_PROXY = "127.0.0.1";
    await closeAllPools();
    const before = tunnels.length + forwarded.length;
    await providers.Badge.delete(id, { ...badge });
    expect(tunnels.length + forwarded.length).toBe(before);
  });
});

describe("the emulator's command line serves HTTPS", () => {
  it("--tls-cert and --tls-key: a client trusting the CA reaches it; --tls-client-ca demands a client certificate", async () => {
    const bin = resolve(__dirname, "../../dist/emulator/bin.js");
    for (const mutual of [false, true]) {
      const extra = mutual ? ["--tls-client-ca", pki.clientCa.path] : [];
      const child = spawn(process.execPath, [bin, "--port", "0", "--quiet", "--tls-cert", pki.serverCert.path, "--tls-key", pki.serverKey.path, ...extra], { stdio: ["ignore", "pipe", "pipe"] });
      try {
        let stdout = "";
        child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
        const url = await whenOutput(child, () => /listening on (https:\/\/\S+)/.exec(stdout)?.[1]);
        const version = (tls: object) => new PlatformClient({ url, token: "glpat-root-token", retryTimeoutMs: 1_000, tls }).get<{ version: string }>("/version");
        const withClientCertificate = { ca: pki.ca.text, cert: pki.clientCert.text, key: pki.clientKey.text };
        expect((await version(withClientCertificate)).version).toBeTruthy();
        if (mutual) await expect(version({ ca: pki.ca.text })).rejects.toThrow(/platform:clientCertificate/);
        else expect((await version({ ca: pki.ca.text })).version).toBeTruthy();
        await expect(version({})).rejects.toThrow(/platform:caCertificate/);
      } finally {
        child.kill("SIGTERM");
      }
    }
  });

  it("--tls-cert without --tls-key is refused with the usage", async () => {
    const bin = resolve(__dirname, "../../dist/emulator/bin.js");
    const child = spawn(process.execPath, [bin, "--port", "0", "--tls-cert", pki.serverCert.path], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.once("exit", done));
    expect(code).toBe(2);
    expect(stderr).toContain("give both --tls-cert and --tls-key");
  });
});

describe("data functions with insecure", () => {
  it("warn too, once per process and server", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const connection = {
        url: mtlsServer.emulator.url,
        token: tokenOf(mtlsServer.emulator, "root"),
        insecure: true,
        clientCertificate: pki.clientCert.path,
        clientKey: pki.clientKey.path,
      };
      expect(await getBadges({ project: "acme/web" }, { connection })).toEqual([]);
      expect(await getBadges({ project: "acme/web" }, { connection })).toEqual([]);
      const warnings = warn.mock.calls.map((call) => String(call[0])).filter((text) => text.includes("TLS verification is off"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(mtlsServer.emulator.url);
    } finally {
      warn.mockRestore();
    }
  });
});
