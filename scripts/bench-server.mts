/**
 * The emulator the per-call benchmark (scripts/bench.mts) measures against.
 *
 * By default it runs in a worker thread: its own V8 isolate and event loop, as
 * a real server has its own process, so its work is neither done on the
 * measured thread between the provider's steps nor sharing the compiled code
 * and caches of the code being measured. `BENCH_SERVER=thread` runs it on the
 * benchmark's own thread instead (how the benchmark ran before): the bare
 * request is then mostly the server's own JavaScript, with no wake-up of
 * another thread, about 60 us, and the provider's cost is the same number of
 * microseconds on a smaller base. Measured while writing this, Badge, 1,000
 * cycles (bare / plain client / provider, median us): own thread, read
 * 58-60 / 65-69 / 82-85; worker, read 123-127 / 135-140 / 156-159. The provider's
 * own microseconds are the same either way (24 and 32 over the bare request); only the
 * base they are divided by moves, so BENCHMARKS.md gives both the ratio and
 * the microseconds.
 *
 * The benchmark asks the server for the request log's length (to count the
 * requests an operation sent) and for the few changes of state its scenarios
 * need; everything else goes over HTTP, as for any client.
 */
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import type { Emulator } from "pulumi-platform/emulator";

/** What the benchmark may ask of the server besides HTTP. */
export type ServerCommand = "requestCount" | "selfManaged" | "projectId:acme/web";

export interface BenchServer {
  url: string;
  apiUrl: string;
  tokens: Record<string, string | undefined>;
  /** Sends a command to the worker and waits for its answer. */
  ask(command: ServerCommand): Promise<number>;
  /** Requests the server has answered so far. */
  requestCount(): Promise<number>;
  stop(): Promise<void>;
}

export async function startBenchServer(): Promise<BenchServer> {
  return process.env.BENCH_SERVER === "thread" ? await onThisThread() : await inWorker();
}

async function onThisThread(): Promise<BenchServer> {
  const { startEmulator } = await import("pulumi-platform/emulator");
  const emulator = await startEmulator({ port: 0 });
  const ask = async (command: ServerCommand) => answer(emulator, command);
  return { url: emulator.url, apiUrl: emulator.apiUrl, tokens: emulator.tokens, ask, requestCount: () => ask("requestCount"), stop: () => emulator.stop() };
}

/** The answer to a command, from the emulator itself (on whichever thread it runs). */
function answer(emulator: Emulator, command: ServerCommand): number {
  if (command === "requestCount") return emulator.requestLog.length;
  if (command === "selfManaged") {
    // Instance settings exist on self-managed instances only.
    emulator.state.instance.offering = "self-managed";
    return 0;
  }
  return emulator.state.projectByFullPath("acme/web")!.id;
}

async function inWorker(): Promise<BenchServer> {
  const worker = new Worker(new URL(import.meta.url));
  const pending: ((value: number) => void)[] = [];
  const started = new Promise<{ url: string; apiUrl: string; tokens: Record<string, string | undefined> }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  const info = await started;
  // Answers come in the order the commands were sent.
  worker.on("message", (answer: number) => pending.shift()?.(answer));
  const ask = (command: ServerCommand) =>
    new Promise<number>((resolve) => {
      pending.push(resolve);
      worker.postMessage(command);
    });
  return {
    ...info,
    ask,
    requestCount: () => ask("requestCount"),
    stop: async () => {
      worker.postMessage("stop");
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const { startEmulator } = await import("pulumi-platform/emulator");
  const emulator = await startEmulator({ port: 0 });
  port.postMessage({ url: emulator.url, apiUrl: emulator.apiUrl, tokens: emulator.tokens });
  port.on("message", async (command: ServerCommand | "stop") => {
    if (command === "stop") {
      await emulator.stop();
      port.close();
      return;
    }
    port.postMessage(answer(emulator, command));
  });
}
