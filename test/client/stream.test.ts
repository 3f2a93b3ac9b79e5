/**
 * The client's streaming GET (`PlatformClient.stream`): the body reaches the
 * consumer as it arrives, a connection that breaks off mid-body is tried
 * again from the start, a consumer's own failure is not, and errors are the
 * client's usual ones.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, PlatformClient, apiPath } from "pulumi-platform";
import { tokenOf, useEmulator } from "../support";

const server = useEmulator();

async function collect(body: Readable): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(chunk as Buffer);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

describe("stream", () => {
  const image = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.alloc(190 * 1024, 0xfe)]);

  it("hands the emulator's file to the consumer as a stream, bytes unchanged", async () => {
    const client = new PlatformClient({ url: server.emulator.url, token: tokenOf(server.emulator, "root"), retryBaseDelayMs: 10 });
    await client.putForm(apiPath`/groups/${"beta"}`, { avatar: { filename: "big.png", content: image, contentType: "image/png" } });
    try {
      let contentType: unknown;
      const { bytes, chunks } = await client.stream(apiPath`/groups/${"beta"}/avatar`, undefined, (body, headers) => {
        contentType = headers["content-type"];
        return collect(body);
      });
      expect(bytes.equals(image)).toBe(true);
      // It arrived in pieces, not as one buffer.
      expect(chunks).toBeGreaterThan(1);
      expect(contentType).toMatch(/^image\/png/);
    } finally {
      await client.put(apiPath`/groups/${"beta"}`, { avatar: null });
    }
  });

  it("a missing file is the client's ApiError, and the consumer never runs", async () => {
    const client = new PlatformClient({ url: server.emulator.url, token: tokenOf(server.emulator, "root"), retryBaseDelayMs: 10 });
    let ran = false;
    const error = await client
      .stream(apiPath`/projects/${"acme/nope"}/repository/archive.tar.gz`, undefined, async (body) => {
        ran = true;
        return collect(body);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect(ran).toBe(false);
  });
});

describe("stream against a server that breaks off", () => {
  // A server of our own: the emulator never breaks a body off halfway.
  let flaky: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => flaky?.close(resolve));
    flaky = undefined;
  });

  async function startFlaky(): Promise<{ url: string; requests: () => number }> {
    const payload = Buffer.alloc(64 * 1024, 0x61);
    let requests = 0;
    flaky = createServer((request, response) => {
      requests++;
      response.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(payload.length) });
      // The first answer stops after half its bytes and the connection drops; the second is whole.
      if (requests === 1) {
        response.write(payload.subarray(0, payload.length / 2), () => setTimeout(() => request.socket.destroy(), 20));
      } else response.end(payload);
    });
    await new Promise<void>((resolve) => flaky!.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(flaky!.address() as AddressInfo).port}`, requests: () => requests };
  }

  it("a body cut off mid-way is read again from the start; the consumer starts afresh", async () => {
    const { url, requests } = await startFlaky();
    const client = new PlatformClient({ url, token: "t", retryBaseDelayMs: 10 });
    const attempts: number[] = [];
    const result = await client.stream("/file", undefined, async (body) => {
      const { bytes } = await collect(body);
      attempts.push(bytes.length);
      return bytes;
    });
    expect(result.length).toBe(64 * 1024);
    expect(requests()).toBe(2);
    // The consumer of the broken attempt failed before it could count; only the whole one did.
    expect(attempts).toEqual([64 * 1024]);
  });

  it("a download that keeps coming may outlast the request timeout, which bounds only its stalls; a whole-body read may not", async () => {
    // 12 chunks 50 ms apart: longer in all than the 400 ms timeout, never that long between two chunks.
    const chunk = Buffer.alloc(1024, 0x62);
    flaky = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      let sent = 0;
      const timer = setInterval(() => {
        response.write(chunk);
        if (++sent === 12) {
          clearInterval(timer);
          response.end();
        }
      }, 50);
    });
    await new Promise<void>((resolve) => flaky!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(flaky!.address() as AddressInfo).port}`;
    const client = new PlatformClient({ url, token: "t", requestTimeoutMs: 400, retryTimeoutMs: 1_000, maxAttempts: 1 });
    const { bytes } = await client.stream("/file", undefined, collect);
    expect(bytes.length).toBe(12 * 1024);
    await expect(client.get("/file")).rejects.toThrow(/no answer from the server/);
  });

  it("a consumer's own failure ends the request at once, not retried", async () => {
    const { url, requests } = await startFlaky();
    const client = new PlatformClient({ url, token: "t", retryBaseDelayMs: 10 });
    await expect(
      client.stream("/file", undefined, async () => {
        throw new Error("ENOSPC: no space left on device");
      }),
    ).rejects.toThrow(/ENOSPC/);
    expect(requests()).toBe(1);
  });
});
