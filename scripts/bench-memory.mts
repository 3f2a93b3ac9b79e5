/**
 * The provider's memory part of `npm run bench`: what the provider keeps for
 * itself as a stack grows. Issue 16 asks for no growth per resource beyond
 * what the engine holds; the real-engine part (scripts/bench-engine.mts)
 * gives the host's peak RSS, which also moves with the garbage collector's
 * pace. Here the heap left after a full collection is read as the provider
 * serves one badge after another (check, create, read, delete, as in a stack's
 * life): if the provider kept anything per resource, it would grow with the
 * count. The emulator runs in a worker thread, whose heap is not counted.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { providers } from "pulumi-platform";

/** Badges served after the warm-up at each reading. */
const COUNTS = [1_000, 2_000, 4_000];
/** Badges served before the first count: code compiled, pools made, create's lookup of check's parse at its steady size. */
const WARMUP = 1_000;

/** The collector, without starting node with --expose-gc. */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/** The provider (already configured against the emulator) serving badges one after another; a paragraph and a table of the heap kept. */
export async function measureRetainedHeap(): Promise<string> {
  const gc = collector();
  const retained = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const badge = providers.Badge;
  // The serialized provider the engine passes with every call (about 370 bytes in a real stack).
  const engineKeys = { __provider: "p".repeat(370) };
  const serve = async (i: number) => {
    const inputs = { project: "acme/web", name: `memory-${i}`, linkUrl: `https://ci.example.com/${i}`, imageUrl: `https://ci.example.com/${i}.svg` };
    const checked = (await badge.check({}, { ...inputs, ...engineKeys })).inputs as Record<string, unknown>;
    const { id, outs } = (await badge.create({ ...checked, ...engineKeys })) as { id: string; outs: Record<string, unknown> };
    await badge.read(id, { ...outs, ...engineKeys });
    await badge.delete(id, { ...outs, ...engineKeys });
  };
  let served = 0;
  for (; served < WARMUP; served++) await serve(served);
  const readings: { count: number; heap: number }[] = [];
  for (const count of COUNTS) {
    for (; served < WARMUP + count; served++) await serve(served);
    readings.push({ count: served, heap: retained() });
  }
  const first = readings[0]!;
  const last = readings.at(-1)!;
  const perBadge = (last.heap - first.heap) / (last.count - first.count);
  return (
    "The heap left after a full collection as the provider serves badge after badge, each checked, created, read and deleted, in one process as the provider host serves a stack " +
    `(the first ${WARMUP.toLocaleString("en")} compile the code and fill the pools and caches, and are not read):\n\n` +
    "| badges served | heap after a full collection |\n|---:|---:|\n" +
    readings.map((r) => `| ${r.count.toLocaleString("en")} | ${(r.heap / 1024 / 1024).toFixed(2)} MB |`).join("\n") +
    `\n\nFrom ${first.count.toLocaleString("en")} to ${last.count.toLocaleString("en")} badges the heap changed by ${perBadge.toFixed(0)} bytes a badge. ` +
    "What the provider keeps is bounded, not held per resource (create's lookup of check's parse holds at most 512 entries)."
  );
}
