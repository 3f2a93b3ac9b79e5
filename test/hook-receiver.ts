/**
 * A webhook receiver for tests: an HTTP server on 127.0.0.1 that records
 * each request and answers with the status the test sets. Tests wait for
 * deliveries through the emulator's work (`runDueWork()`) or `next()`, never a clock.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedHook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface HookReceiver {
  /** `http://127.0.0.1:PORT/hook`. */
  readonly url: string;
  readonly received: ReceivedHook[];
  /** The status the next answers have (200 by default). */
  status: number;
  /** Resolves with the next request that arrives after the call. */
  next(): Promise<ReceivedHook>;
  stop(): Promise<void>;
}

export async function startHookReceiver(): Promise<HookReceiver> {
  const received: ReceivedHook[] = [];
  const waiting: ((hook: ReceivedHook) => void)[] = [];
  const receiver = { status: 200 } as { status: number };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: kept as text.
      }
      const hook = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      received.push(hook);
      res.writeHead(receiver.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ received: true }));
      for (const resolve of waiting.splice(0)) resolve(hook);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    next: () => new Promise<ReceivedHook>((resolve) => waiting.push(resolve)),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  });
}
