#!/usr/bin/env node
/**
 * Command line: runs the emulator until SIGINT/SIGTERM.
 *
 *     platform-emulator [--port N | --port-from Pulumi.yaml] [--seed seed.json] [--state state.json] [--rate-limit N/S]
 *                       [--faults plan.json | --fault-rate R] [--ready-file FILE] [--quiet]
 *                       [--tls-cert cert.pem --tls-key key.pem [--tls-client-ca ca.pem]]
 *
 * --port-from Pulumi.yaml: the port of the project's default `platform:url`
 * (its `config` section), so the program's URL and the emulator's port are
 * one setting; it must be a plain http URL on loopback.
 * With --state the emulator keeps its state in that file across runs.
 * --tls-cert and --tls-key (PEM files) serve HTTPS, as a self-managed server
 * behind a private CA does; --tls-client-ca also demands client certificates
 * signed by that CA (mutual TLS).
 * --ready-file FILE: once it listens, the emulator writes its URL to FILE
 * (atomically), so a CI script can wait for the file and read the port
 * (with --port 0 the system picks a free one).
 * --faults puts a fault plan (faults.ts) in force; --fault-rate R fails a
 * share R of all API requests with every fault kind.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { faultRatePlan, parseFaultPlan, startEmulator, type Emulator, type EmulatorOptions, type FaultPlan } from "./index";
import { portFromProject } from "./project-port";

const USAGE =
  "usage: platform-emulator [--port N | --port-from Pulumi.yaml] [--seed seed.json] [--state state.json] [--rate-limit REQUESTS/SECONDS] [--faults plan.json | --fault-rate 0..1] [--ready-file FILE] [--tls-cert cert.pem --tls-key key.pem [--tls-client-ca ca.pem]] [--quiet]";

function parseRateLimit(text: string): EmulatorOptions["rateLimit"] {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new Error(`--rate-limit takes REQUESTS/SECONDS, e.g. 600/60; got ${text}`);
  return { requests: Number(match[1]), periodSeconds: Number(match[2]) };
}

function readFaultPlan(file: string): FaultPlan {
  let plan: unknown;
  try {
    plan = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`--faults: cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  parseFaultPlan(plan, `fault plan ${file}`);
  return plan as FaultPlan;
}

function parseFaultRate(text: string): FaultPlan {
  const rate = Number(text);
  if (text.trim() === "" || !(rate >= 0 && rate <= 1)) throw new Error(`--fault-rate takes a number from 0 to 1, e.g. 0.2; got ${text}`);
  return faultRatePlan(rate);
}

function faultPlanOf(values: { faults?: string; "fault-rate"?: string }): FaultPlan | undefined {
  if (values.faults !== undefined && values["fault-rate"] !== undefined) {
    throw new Error("give either --faults or --fault-rate, not both (a plan file can hold a rule for all routes)");
  }
  if (values.faults !== undefined) return readFaultPlan(values.faults);
  if (values["fault-rate"] !== undefined) return parseFaultRate(values["fault-rate"]);
  return undefined;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port takes 0-65535; got ${text}`);
  return port;
}

function portOf(values: { port?: string; "port-from"?: string }): number {
  if (values.port !== undefined && values["port-from"] !== undefined) throw new Error("give either --port or --port-from, not both");
  if (values["port-from"] !== undefined) return portFromProject(values["port-from"], "--port-from");
  return values.port === undefined ? 0 : parsePort(values.port);
}

/** Writes the URL to `file` through a rename, so a script that sees the file sees all of it. */
function writeReadyFile(file: string, url: string): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${url}\n`);
  renameSync(partial, file);
}

/** The HTTPS settings: a certificate and its key, and optionally the CA of the client certificates demanded. */
function tlsOf(values: { "tls-cert"?: string; "tls-key"?: string; "tls-client-ca"?: string }): EmulatorOptions["tls"] {
  const { "tls-cert": cert, "tls-key": key, "tls-client-ca": clientCa } = values;
  if (cert === undefined && key === undefined && clientCa === undefined) return undefined;
  if (cert === undefined || key === undefined) throw new Error("give both --tls-cert and --tls-key (PEM files) to serve HTTPS");
  const read = (option: string, file: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      throw new Error(`${option}: cannot read ${file}: ${(error as Error).message}`);
    }
  };
  return { cert: read("--tls-cert", cert), key: read("--tls-key", key), ...(clientCa !== undefined ? { clientCa: read("--tls-client-ca", clientCa) } : {}) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      "port-from": { type: "string" },
      seed: { type: "string" },
      state: { type: "string" },
      "rate-limit": { type: "string" },
      faults: { type: "string" },
      "fault-rate": { type: "string" },
      "ready-file": { type: "string" },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "tls-client-ca": { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const faults = faultPlanOf(values);
  // A signal may come as soon as the port listens, before the start has finished: it stops the emulator once started.
  let started: Emulator | undefined;
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping\n`);
    if (started) stop(started);
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  const emulator = await startEmulator({
    port: portOf(values),
    seed: values.seed,
    stateFile: values.state,
    rateLimit: values["rate-limit"] === undefined ? undefined : parseRateLimit(values["rate-limit"]),
    faults,
    log: !values.quiet,
    tls: tlsOf(values),
  });

  process.stdout.write(`platform emulator listening on ${emulator.url} (API at ${emulator.apiUrl})\n`);
  process.stdout.write("tokens:\n");
  for (const [username, token] of Object.entries(emulator.tokens)) process.stdout.write(`  ${username}: ${token}\n`);
  if (faults) process.stdout.write(`fault plan: ${JSON.stringify(faults)}\n`);
  if (values["ready-file"] !== undefined) writeReadyFile(values["ready-file"], emulator.url);
  started = emulator;
  if (stopping) stop(emulator);
}

function stop(emulator: Emulator): void {
  emulator.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(2);
});
