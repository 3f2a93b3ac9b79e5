/**
 * A server that repeats a credential in another form than it was sent: its
 * letters' case changed, in base64 or base64url at any alignment (the token,
 * and the `user:token` pair the client sends as Basic), form-encoded, split by
 * a line break, or cut off at the end of the answer. Each is masked in the
 * error the client raises; so is a credential in the host a redirect names.
 * A plain loopback server answers what each test sets.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, closeAllPools, PlatformClient } from "pulumi-platform";

const TOKEN = "glpat-Echo7Token_x9Q2";
const HEADER = "Proxy Key 5d1e+/ab";
let answer: { status: number; headers?: Record<string, string>; body: string } = { status: 400, body: "" };
let url = "";
const server: Server = createServer((_req, res) => {
  res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
  res.end(answer.body);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeAllPools();
  await new Promise((resolve) => server.close(resolve));
});

const client = () => new PlatformClient({ url, token: TOKEN, retryBaseDelayMs: 10, maxAttempts: 1, headers: { "X-Proxy-Key": HEADER } });

async function errorFor(body: string, status = 400, headers?: Record<string, string>): Promise<string> {
  answer = { status, body, ...(headers ? { headers } : {}) };
  try {
    await client().get("/projects");
  } catch (error) {
    return error instanceof ApiError ? `${error.message}\n${error.serverMessage}` : String((error as Error).message);
  }
  throw new Error("expected the request to fail");
}

const b64 = (text: string | Buffer) => Buffer.from(text).toString("base64");
const b64url = (text: string | Buffer) => Buffer.from(text).toString("base64url");

describe("forms of a credential that exact matching misses", () => {
  const cases: [string, string, string][] = [
    ["upper case", `token ${TOKEN.toUpperCase()} refused`, "GLPAT-ECHO7"],
    ["lower case", `key ${HEADER.toLowerCase()} refused`, "5d1e+/ab"],
    ["form-encoded", `key=${HEADER.replace(/ /g, "+").replace(/\//g, "%2F").replace(/\+(?=\/|%)/g, "%2B")}&x=1`, "5d1e"],
    ["split by an escaped line break", `{"message":"token ${TOKEN.slice(0, 9)}\\n${TOKEN.slice(9)}"}`, "Token_x9Q2"],
    ["split by a raw line break", `token ${TOKEN.slice(0, 9)}\r\n${TOKEN.slice(9)}`, "Token_x9Q2"],
  ];
  for (const [what, body, piece] of cases) {
    it(`${what}: masked`, async () => {
      const message = await errorFor(body);
      expect(message).toContain("[secret]");
      expect(message).not.toContain(piece);
    });
  }

  for (const offset of [0, 1, 2]) {
    it(`base64 and base64url at alignment ${offset}, of the token and of the Basic pair: masked`, async () => {
      for (const value of [TOKEN, `oauth2:${TOKEN}`]) {
        const blob = Buffer.concat([Buffer.from("xyz".slice(0, offset)), Buffer.from(value), Buffer.from("!!!")]);
        for (const encoded of [b64(blob), b64url(blob)]) {
          const message = await errorFor(`debug: ${encoded}`);
          // The characters the credential alone decides, less the two at each end that it shares.
          const inner = encoded.slice(4, -6);
          expect(message).not.toContain(inner.slice(0, 12));
          expect(message).not.toContain(inner.slice(-12));
        }
      }
    });
  }

  it("a credential cut off at the end of the answer: its start (8 characters or more) masked", async () => {
    const message = await errorFor(`blocked, header was ${HEADER.slice(0, 10)}`);
    expect(message).toContain("blocked, header was [secret]");
    // Fewer than eight characters of it are ordinary text.
    expect(await errorFor(`ends with ${TOKEN.slice(0, 5)}`)).toContain(`ends with ${TOKEN.slice(0, 5)}`);
  });

  it("a redirect to another host made of a credential: the host is named masked", async () => {
    const message = await errorFor("", 302, { location: `http://${TOKEN.toLowerCase()}.attacker.example/api/v4/projects` });
    expect(message).toMatch(/pointed to another host \(http:\/\/\[secret\]\.attacker\.example\)/);
    expect(message.toLowerCase()).not.toContain("echo7token");
  });
});
