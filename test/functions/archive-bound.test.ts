/**
 * getRepositoryArchive against a server whose archive never ends (a 200 with
 * no length, sending for as long as it is read): the download stops at
 * `maxBytes` read, fails naming the limit, and leaves no file. A plain
 * loopback server answers.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeAllPools, getRepositoryArchive } from "pulumi-platform";

const scratch = mkdtempSync(join(tmpdir(), "archive-bound-"));
let sent = 0;
const server: Server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/octet-stream" });
  const chunk = Buffer.alloc(64 * 1024, 7);
  const more = () => {
    while (!res.destroyed && res.write(chunk)) sent += chunk.length;
    if (!res.destroyed) res.once("drain", more);
  };
  res.on("close", () => res.destroy());
  more();
});
let url = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeAllPools();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

it("an endless archive stops at maxBytes read, names the limit and leaves no file", async () => {
  const destination = join(scratch, "endless.tar.gz");
  await expect(getRepositoryArchive({ project: "acme/api", destination, maxBytes: 4 * 1024 * 1024 }, { connection: { url, token: "glpat-archive-bound" } })).rejects.toThrow(
    /the tar\.gz archive of the repository of project acme\/api is larger than 4 MiB, the most read of it/,
  );
  expect(readdirSync(scratch)).toEqual([]);
  // Read up to the limit, and little more: the server was not read to the end (it has none).
  expect(sent).toBeLessThan(64 * 1024 * 1024);
}, 60_000);
