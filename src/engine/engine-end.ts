/**
 * What the provider does when the Pulumi engine that runs it has ended (`pulumi`
 * killed, a CI job cancelled): it sends no further write, and exits once what
 * was under way is over.
 *
 * The dynamic provider host is a child of the `pulumi` process, in a process
 * group of its own (so a kill of the CLI's group does not reach it), and
 * nothing stops it when the engine dies: its gRPC server keeps it alive, and
 * the creates it had already been asked for went on, each waiting for its turn
 * among the requests in flight, for objects whose create the state records
 * only as pending. What it can see (Pulumi CLI 3.259, measured): its standard
 * input is a pipe whose only writer is the `pulumi` process, so it reaches its
 * end the moment that process ends, whatever killed it; and its parent (the
 * host's shell script, which lives on) gets another parent at that moment,
 * which a check before each write reads, so no write slips through before the
 * end of the pipe is seen.
 *
 * From then on every write request is refused before it leaves (a retry
 * included), so an operation in progress ends at its next write: a request
 * already sent finishes, and the object it made is found by
 * `platform-recover` (docs/own-repository.md). The process exits once no
 * operation is in progress, or after `graceMs` at most.
 */
import { readFileSync } from "node:fs";
import { guardWrites } from "../client";
import { ExplainedError } from "./errors";

/** The error of a write refused because the engine has ended (nobody reads it: it ends the operation). */
export class EngineEndedError extends ExplainedError {
  constructor(what: string) {
    super(`${what}: not sent, because the Pulumi engine that asked for it has ended (pulumi was stopped). Run \`platform-recover\` before the next \`pulumi up\`.`);
    this.name = "EngineEndedError";
  }
}

let ended = false;
let inProgress = 0;
let onIdle: (() => void) | undefined;

/**
 * Runs one provider operation that may write (create, update, delete),
 * counted so that the process exits only after it. Refused at once when the
 * engine has already ended.
 */
export async function duringOperation<T>(what: string, operation: () => Promise<T>): Promise<T> {
  if (ended) throw new EngineEndedError(what);
  inProgress++;
  try {
    return await operation();
  } finally {
    if (--inProgress === 0) onIdle?.();
  }
}

export interface EngineWatch {
  /** The stream that ends with the engine: the host's standard input. */
  input: NodeJS.ReadableStream;
  /** Checked before each write, for the moment between the engine's end and the stream's end being seen. */
  engineAlive?: () => boolean;
  /** Ends the process (tests pass their own). */
  exit: () => void;
  /** The longest wait for the operations in progress before exiting all the same. */
  graceMs: number;
}

/**
 * Watches `input`; when it ends (or fails), or `engineAlive` says no before a write, stops every write and
 * exits once the operations in progress are over.
 */
export function watchEngine({ input, engineAlive = () => true, exit, graceMs }: EngineWatch): void {
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    ended = true;
    const timer = setTimeout(exit, graceMs);
    const done = () => {
      clearTimeout(timer);
      exit();
    };
    if (inProgress === 0) done();
    else onIdle = done;
  };
  guardWrites((method, path) => {
    if (!stopped && !engineAlive()) stop();
    if (stopped) throw new EngineEndedError(`${method} ${path}`);
  });
  input.on("end", stop);
  input.on("close", stop);
  input.on("error", stop);
  // Flowing mode: the engine never writes to it, and the end is only seen while it is read.
  input.resume();
}

/**
 * Whether the processes between this one and the engine (the nearest `pulumi` above it, two levels at most)
 * still have the parents they have now, read from /proc (Linux only; elsewhere, or with no `pulumi` above,
 * always true): when the engine dies, the host's shell script (or the host itself, started directly) is
 * handed to another parent at once, before anything can read the end of the pipe.
 */
export function parentsUnchanged(): () => boolean {
  const links: [number, number][] = [];
  for (let pid = process.pid, level = 0; level < 2; level++) {
    const parent = statOf(pid)?.parent;
    if (parent === undefined) break;
    links.push([pid, parent]);
    if (statOf(parent)?.command === "pulumi") return () => links.every(([child, parent]) => statOf(child)?.parent === parent);
    pid = parent;
  }
  return () => true;
}

/** A process's command name and parent, from /proc/PID/stat (the name in parentheses, the parent two fields on). */
function statOf(pid: number): { command: string; parent: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(parent) ? { command: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), parent } : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets a stop (tests only: one process runs several). */
export function resetEngineWatch(): void {
  ended = false;
  inProgress = 0;
  onIdle = undefined;
  guardWrites(undefined);
}
