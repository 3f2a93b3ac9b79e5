/**
 * The client reads at most a bounded number of bytes of any answer, counted as
 * they arrive: a server that never ends its answer (or states no length) makes
 * the request fail, naming the limit, instead of growing the process. Against
 * a server of our own on loopback: the emulator always ends its answers.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlatformClient, providers } from "pulumi-platform";
import { MAX_ANSWER_BYTES, MAX_ERROR_ANSWER_BYTES } from "../../src/client/http";

let endless: Server;
let url = "";
/** Requests the server got, by path: an answer past the limit is not asked again. */
const asked = new Map<string, number>();

/** Writes `[` then 64 KiB of spaces for as long as the client reads: valid JSON's beginning, never its end. */
function neverEnding(res: ServerResponse, status: number): void {
  res.writeHead(status, { "content-type": "application/json" });
  const block = Buffer.alloc(64 * 1024, 0x20);
  res.write("[");
  const more = () => {
    while (!res.destroyed && res.write(block));
    if (!res.destroyed) res.once("drain", more);
  };
  res.on("close", () => res.destroy());
  more();
}

beforeAll(async () => {
  endless = createServer((req, res) => {
    const path = new URL(req.url!, "http://x").pathname;
    asked.set(path, (asked.get(path) ?? 0) + 1);
    neverEnding(res, path.includes("/failing") ? 500 : 200);
  });
  await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => endless.close(() => resolve())));

describe("an answer that never ends", () => {
  it("a 200 fails at the client's limit, naming it, and is not asked again", async () => {
    const client = new PlatformClient({ url, token: "t0k3n-bounded", retryBaseDelayMs: 10 });
    const started = Date.now();
    const error = (await client.get("/groups/endless").catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(`The answer to GET /groups/endless is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, the most read of it; stopped there.`);
    expect(asked.get("/api/v4/groups/endless")).toBe(1);
    // Loopback delivers the 256 MiB in a few seconds; an unbounded read would run until the test's timeout.
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it("a lower limit given to the client is the one said", async () => {
    const client = new PlatformClient({ url, token: "t0k3n-bounded", maxAnswerBytes: 1024 * 1024 });
    await expect(client.get("/groups/small")).rejects.toThrow("The answer to GET /groups/small is larger than 1 MiB, the most read of it; stopped there.");
  });

  it("an error answer is read only as far as a message goes (1 MiB), and not retried as a server failure would be", async () => {
    const client = new PlatformClient({ url, token: "t0k3n-bounded", retryBaseDelayMs: 10 });
    await expect(client.get("/groups/failing")).rejects.toThrow(`The answer to GET /groups/failing is larger than ${MAX_ERROR_ANSWER_BYTES / 1024 / 1024} MiB, the most read of it; stopped there.`);
    expect(asked.get("/api/v4/groups/failing")).toBe(1);
  });

  it("a streamed download's error answer is bounded the same way", async () => {
    const client = new PlatformClient({ url, token: "t0k3n-bounded", retryBaseDelayMs: 10 });
    const consumed = await client.stream("/groups/failing-download", undefined, async () => "consumed").catch((e: unknown) => e);
    expect((consumed as Error).message).toMatch(/^The answer to GET \/groups\/failing-download is larger than 1 MiB/);
  });
});

describe("as the provider and the data functions say it", () => {
  it("a create whose answer never ends: the resource's error, what it was doing and the limit, no stack of ours", async () => {
    await providers.Badge.configure({ config: { get: (key: string) => ({ "platform:url": url, "platform:token": "t0k3n-bounded", "platform:verifyAtPreview": "false" })[key] } } as never);
    const error = (await providers.Badge.create({ group: "acme", linkUrl: "https://ci.example.com/x", imageUrl: "https://ci.example.com/x.svg" }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(`Badge: could not create it. The answer to POST /groups/acme/badges is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, the most read of it; stopped there.`);
    expect(error.stack ?? "").not.toMatch(/\n\s+at /);
  }, 90_000);
});
