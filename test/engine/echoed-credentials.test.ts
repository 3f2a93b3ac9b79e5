/**
 * A server (or a proxy in front of it) that repeats the request's credentials
 * in its error answers: the emulator's injected answer made from the request
 * (its headers), as a debugging proxy or a firewall's block page does. Every
 * message the provider hands the engine (an operation's error, the
 * verification's warning at preview) has the token and each `platform:headers`
 * value masked, in whatever form the answer carries it: verbatim, cut short by
 * the message's bound, escaped in JSON or HTML.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PlatformClient, providers } from "pulumi-platform";
import type { EchoedRequest } from "pulumi-platform/emulator";
import { tokenOf, useEmulator } from "../support";

const server = useEmulator();

const PROXY_KEY = "proxy-key-7f3a9c21e5b4d6";
const QUOTED_KEY = 'proxy"key&7f3a<9c21>';
const BADGE = { group: "acme", name: "echoed", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/badge.svg" };

let token = "";
beforeAll(() => {
  token = tokenOf(server.emulator, "root");
});
afterEach(() => server.emulator.clearFaults());

/** Each header of the request on a line of its own, as a proxy's debugging page lists them. */
const headerDump = ({ method, rawPath, headers }: EchoedRequest) =>
  [`Request refused: ${method} ${rawPath}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}`)].join("\n");

async function configure(verify: boolean): Promise<void> {
  await server.configureProviders("root", { "platform:headers": JSON.stringify({ "X-Proxy-Key": PROXY_KEY, "X-Quoted": QUOTED_KEY }), "platform:verifyAtPreview": String(verify) });
}

/** Fails when any credential, or a piece of it long enough to matter (its first 10 characters), is in `text`. */
function expectNoCredential(text: string): void {
  for (const secret of [token, PROXY_KEY, QUOTED_KEY, JSON.stringify(QUOTED_KEY).slice(1, -1), "proxy&quot;key"]) {
    expect(text).not.toContain(secret.slice(0, 10));
  }
}

async function createFailure(): Promise<Error> {
  try {
    await providers.Badge.create(BADGE);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the create to fail");
}

describe("an operation's error", () => {
  it("an answer in JSON that repeats every header: masked, the server's words kept", async () => {
    await configure(false);
    server.emulator.inject({ method: "POST", path: /\/badges$/, status: 400, body: ({ headers }) => ({ message: { headers: [JSON.stringify(headers)] } }) });
    const error = await createFailure();
    expect(error.message).toMatch(/^Badge: could not create it\. POST \/groups\/acme\/badges failed with 400/);
    expect(error.message).toContain('"x-proxy-key":"[secret]"');
    expectNoCredential(error.message);
    expectNoCredential(error.stack ?? "");
  });

  it("a text answer the client cuts to its first 500 characters in the middle of a credential: no piece of it shown", async () => {
    await configure(false);
    // Padded so that the cut falls inside the proxy key, whose start alone would then be in the message.
    server.emulator.inject({
      method: "POST",
      path: /\/badges$/,
      status: 400,
      headers: { "Content-Type": "text/plain" },
      body: (request) => {
        const line = `x-proxy-key: ${PROXY_KEY}`;
        const padding = 500 - line.length + 8 - "Blocked: ".length;
        return `Blocked: ${"-".repeat(padding)}${line}\n${headerDump(request)}`;
      },
    });
    const error = await createFailure();
    expect(error.message).toContain("failed with 400");
    expectNoCredential(error.message);
  });

  it("an HTML block page with the headers escaped as HTML: masked", async () => {
    await configure(false);
    const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    server.emulator.inject({
      method: "POST",
      path: /\/badges$/,
      status: 403,
      headers: { "Content-Type": "text/html" },
      body: (request) => `<html><head><title>Request blocked</title></head><body><h1>Blocked</h1><h3>${escape(headerDump(request))}</h3></body></html>`,
    });
    const error = await createFailure();
    expect(error.message).toContain("Request blocked");
    expectNoCredential(error.message);
  });
});

describe("the verification at preview", () => {
  it("a refused read it warns about (the preview goes on): the warning masks what the server repeated", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      await configure(true);
      server.emulator.inject({ method: "GET", path: /./, times: 50, status: 400, body: (request) => ({ message: headerDump(request) }) });
      const result = await providers.Badge.check({}, { ...BADGE, name: "verified" });
      expect(result.failures ?? []).toEqual([]);
      const warned = warn.mock.calls.map((call) => String(call[0])).join("\n");
      expect(warned).toMatch(/The preview could not verify against the server what it would refuse/);
      expect(warned).toContain("x-proxy-key: [secret]");
      expectNoCredential(warned);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("the client itself", () => {
  it("masks a proxy's password from the proxy variables, as a proxy's refusal would repeat it", async () => {
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    // The proxy is named but not used for loopback: only its credentials matter here.
    Object.assign(process.env, { HTTP_PROXY: "http://deploy:proxy-pass%2F5c7e@proxy.invalid:3128", NO_PROXY: "127.0.0.1" });
    try {
      const client = new PlatformClient({ url: server.emulator.url, token, retryBaseDelayMs: 10 });
      server.emulator.inject({ method: "GET", path: /\/groups\/acme$/, status: 407, headers: { "Content-Type": "text/plain" }, body: "Proxy authentication for deploy:proxy-pass/5c7e (proxy-pass%2F5c7e) refused" });
      const error = (await client.get("/groups/acme").catch((e: unknown) => e)) as Error;
      expect(error.message).toContain("Proxy authentication for deploy:[secret] ([secret]) refused");
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
