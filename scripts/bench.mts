/**
 * `npm run bench`: for each resource, the requests the provider sends per
 * operation (read from the emulator's request log) against the fewest the API
 * allows, and the provider's time per operation against a bare undici request
 * to the same endpoint. Prints a table and writes BENCHMARKS.md.
 */
import { writeFileSync } from "node:fs";
import { request } from "undici";
import { closeAllPools, providers } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);

type Provider = (typeof providers)[keyof typeof providers];
type Props = Record<string, unknown>;

interface Scenario {
  resource: keyof typeof providers;
  inputs(i: number): Props;
  changed(inputs: Props): Props;
  /** The fewest requests the API allows for each operation. */
  minimum: Record<Operation, number>;
  /** The same work as one request, sent with undici directly: method, path and body per operation. */
  bare: Record<Exclude<Operation, "preview">, (id: string, i: number) => { method: "GET" | "POST" | "PUT" | "DELETE"; path: string; body?: unknown }>;
}

type Operation = "preview" | "create" | "read" | "update" | "delete";
const OPERATIONS: Operation[] = ["preview", "create", "read", "update", "delete"];

const scenarios: Scenario[] = [
  {
    resource: "Badge",
    inputs: (i) => ({ project: "acme/web", name: `bench-${i}`, linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}.svg" }),
    changed: (inputs) => ({ ...inputs, linkUrl: "https://ci.example.com/changed/%{project_path}" }),
    minimum: { preview: 0, create: 1, read: 1, update: 1, delete: 1 },
    bare: {
      create: (_id, i) => ({ method: "POST", path: "/api/v4/projects/acme%2Fweb/badges", body: { link_url: "https://ci.example.com/%{project_path}", image_url: "https://ci.example.com/%{project_path}.svg", name: `bare-${i}` } }),
      read: (id) => ({ method: "GET", path: `/api/v4/${id}` }),
      update: (id) => ({ method: "PUT", path: `/api/v4/${id}`, body: { link_url: "https://ci.example.com/changed/%{project_path}" } }),
      delete: (id) => ({ method: "DELETE", path: `/api/v4/${id}` }),
    },
  },
];

interface Row {
  resource: string;
  operation: Operation;
  requests: number;
  minimum: number;
  providerMs: number;
  bareMs: number;
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function measure(emulator: Emulator, scenario: Scenario): Promise<Row[]> {
  const provider: Provider = providers[scenario.resource];
  const token = emulator.tokens.root!;
  const counts: Record<Operation, number[]> = { preview: [], create: [], read: [], update: [], delete: [] };
  const times: Record<Operation, number[]> = { preview: [], create: [], read: [], update: [], delete: [] };
  const bareTimes: Record<Operation, number[]> = { preview: [], create: [], read: [], update: [], delete: [] };

  const step = async (operation: Operation, action: () => Promise<unknown>) => {
    const before = emulator.requestLog.length;
    times[operation].push(await timed(action));
    counts[operation].push(emulator.requestLog.length - before);
  };

  for (let i = 0; i < ITERATIONS; i++) {
    const checked = (await provider.check({}, scenario.inputs(i))).inputs as Props;
    let id = "";
    let outs: Props = {};
    await step("create", async () => ({ id, outs } = (await provider.create(checked)) as { id: string; outs: Props }));
    const changed = (await provider.check(outs, scenario.changed(checked))).inputs as Props;
    await step("preview", async () => {
      await provider.check(outs, changed);
      await provider.diff(id, outs, changed);
    });
    await step("read", () => provider.read(id, outs));
    await step("update", async () => ({ outs } = (await provider.update(id, outs, changed)) as { outs: Props }));
    await step("delete", () => provider.delete(id, outs));

    // The same requests, bare.
    let bareId = "";
    const send = async (operation: Exclude<Operation, "preview">) => {
      const { method, path, body } = scenario.bare[operation](bareId, i);
      bareTimes[operation].push(
        await timed(async () => {
          const response = await request(emulator.url + path, {
            method,
            headers: { "private-token": token, "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const text = await response.body.text();
          if (operation === "create") bareId = `projects/acme%2Fweb/badges/${JSON.parse(text).id}`;
        }),
      );
    };
    for (const operation of ["create", "read", "update", "delete"] as const) await send(operation);
  }

  return OPERATIONS.map((operation) => ({
    resource: scenario.resource,
    operation,
    requests: Math.max(...counts[operation]),
    minimum: scenario.minimum[operation],
    providerMs: median(times[operation]),
    bareMs: median(bareTimes[operation]),
  }));
}

function table(rows: Row[]): string {
  const header = "| resource | operation | requests sent | API minimum | provider (median ms) | bare undici (median ms) |";
  const rule = "|---|---|---:|---:|---:|---:|";
  const lines = rows.map(
    (r) =>
      `| ${r.resource} | ${r.operation} | ${r.requests} | ${r.minimum} | ${r.providerMs.toFixed(3)} | ${r.operation === "preview" ? "n/a" : r.bareMs.toFixed(3)} |`,
  );
  return [header, rule, ...lines].join("\n");
}

async function main() {
  const emulator = await startEmulator({ port: 0 });
  try {
    await providers.Badge.configure({
      config: { get: (key: string) => ({ "platform:url": emulator.url, "platform:token": emulator.tokens.root })[key], require: () => "" },
    });
    const rows: Row[] = [];
    for (const scenario of scenarios) rows.push(...(await measure(emulator, scenario)));
    const result = table(rows);
    const over = rows.filter((r) => r.requests > r.minimum);
    const summary = over.length
      ? `Over the minimum: ${over.map((r) => `${r.resource} ${r.operation}`).join(", ")}.`
      : "Every operation sends the fewest requests the API allows.";
    console.log(result + "\n\n" + summary);
    writeFileSync(
      "BENCHMARKS.md",
      `# Benchmarks\n\nWritten by \`npm run bench\` (${ITERATIONS} iterations per resource, against the embedded emulator on loopback, Node ${process.version}).\n` +
        `"requests sent" is the most any iteration sent, read from the emulator's request log; "preview" is check + diff.\n` +
        `Times are medians per operation; "bare undici" is one hand-written request to the same endpoint, so the difference is the provider's own cost.\n\n` +
        result +
        "\n\n" +
        summary +
        "\n",
    );
    if (over.length) process.exitCode = 1;
  } finally {
    await closeAllPools();
    await emulator.stop();
  }
}

await main();
