#!/usr/bin/env node
/**
 * Command line: runs the emulator until SIGINT/SIGTERM.
 *
 *     platform-emulator [--port N] [--seed seed.json] [--state state.json] [--rate-limit N/S] [--quiet]
 *
 * With --state the emulator keeps its state in that file across runs.
 */
import { parseArgs } from "node:util";
import { startEmulator, type EmulatorOptions } from "./index";

const USAGE =
  "usage: platform-emulator [--port N] [--seed seed.json] [--state state.json] [--rate-limit REQUESTS/SECONDS] [--quiet]";

function parseRateLimit(text: string): EmulatorOptions["rateLimit"] {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new Error(`--rate-limit takes REQUESTS/SECONDS, e.g. 600/60; got ${text}`);
  return { requests: Number(match[1]), periodSeconds: Number(match[2]) };
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port takes 0-65535; got ${text}`);
  return port;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      seed: { type: "string" },
      state: { type: "string" },
      "rate-limit": { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const emulator = await startEmulator({
    port: values.port === undefined ? 0 : parsePort(values.port),
    seed: values.seed,
    stateFile: values.state,
    rateLimit: values["rate-limit"] === undefined ? undefined : parseRateLimit(values["rate-limit"]),
    log: !values.quiet,
  });

  process.stdout.write(`platform emulator listening on ${emulator.url} (API at ${emulator.apiUrl})\n`);
  process.stdout.write("tokens:\n");
  for (const [username, token] of Object.entries(emulator.tokens)) process.stdout.write(`  ${username}: ${token}\n`);

  const shutdown = (signal: string): void => {
    process.stdout.write(`${signal}: stopping\n`);
    emulator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(2);
});
