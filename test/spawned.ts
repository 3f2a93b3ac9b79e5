/**
 * Waiting on a process a test started, by its events rather than by the
 * clock: what it writes, a file it makes, its exit. A wait on a clock (poll
 * until a bound) fails by chance when the machine is busy; these end when the
 * awaited thing happens, or fail as soon as the process has exited without it.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { basename, dirname } from "node:path";

/**
 * The first non-undefined value of `check`, asked now and again each time
 * the process writes to its standard output or error; rejects once the
 * process exits with `check` still undefined.
 */
export function whenOutput<T>(child: ChildProcess, check: () => T | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const streams = [child.stdout, child.stderr].filter((stream) => stream !== null);
    const done = (settle: () => void) => {
      for (const stream of streams) stream.off("data", onData);
      child.off("exit", onExit);
      settle();
    };
    const onData = () => {
      // After the test's own "data" listeners, which gather the text `check` reads.
      setImmediate(() => {
        const value = check();
        if (value !== undefined) done(() => resolve(value));
      });
    };
    const onExit = (code: number | null) => {
      const value = check();
      done(() => (value !== undefined ? resolve(value) : reject(new Error(`the process exited (${code}) before what the test awaited`))));
    };
    for (const stream of streams) stream.on("data", onData);
    child.on("exit", onExit);
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode);
    else onData();
  });
}

/** Resolves once `file` exists (it may be renamed into place); rejects once the process exits without making it. */
export function whenFileExists(child: ChildProcess, file: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const watcher = watch(dirname(file), (_event, name) => {
      if ((name === null || name === basename(file)) && existsSync(file)) done(resolve);
    });
    const onExit = (code: number | null) => done(() => (existsSync(file) ? resolve() : reject(new Error(`the process exited (${code}) before it wrote ${file}`))));
    const done = (settle: () => void) => {
      watcher.close();
      child.off("exit", onExit);
      settle();
    };
    child.on("exit", onExit);
    if (existsSync(file)) done(resolve);
    else if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode);
  });
}
