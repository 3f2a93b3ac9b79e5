/**
 * Shared test plumbing: an emulator per test file, the provider configured to
 * talk to it, and views of the emulator's request log. Tests use the package
 * as users do (`pulumi-platform`, built to dist/ by `pretest`).
 */
import { afterAll, beforeAll, vi } from "vitest";
import { closeAllPools, PlatformClient, providers, setClientClock, type ClientClock } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";

export interface TestServer {
  emulator: Emulator;
  /** A client acting as `username` (default: the administrator), for setting up and checking state out of band. */
  as(username?: string): PlatformClient;
  /**
   * Points every provider at the emulator with the given user's token; `config`
   * adds stack config (`platform:requestTimeout`, `platform:retryTimeout`;
   * `platform:verifyAtPreview`, off by default here).
   */
  configureProviders(username?: string, config?: Record<string, string>): Promise<void>;
  /** The requests (method and path) the emulator saw while `action` ran. */
  requestsDuring(action: () => Promise<unknown>): Promise<{ method: string; path: string; status: number }[]>;
  /** Runs `action` with the providers (and the data functions) acting as `username`, then as the user before. */
  actingAs<T>(username: string, action: () => Promise<T>): Promise<T>;
  /** Runs `action` with the providers acting as `username` and verifying at preview, then as before, without. */
  verifyingAs<T>(username: string, action: () => Promise<T>): Promise<T>;
}

/**
 * Starts an emulator before the file's tests and stops it (and our connections) after.
 * Its background work runs when a test calls `runDueWork()` (unless `options` say
 * otherwise): a test decides when time passes, so no run lands between two of its steps.
 */
export function useEmulator(options: Parameters<typeof startEmulator>[0] = {}): TestServer {
  let emulator: Emulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, backgroundWork: "manual", ...options });
  });
  afterAll(async () => {
    await closeAllPools();
    await emulator?.stop();
  });
  let configuredUser = "root";
  const server: TestServer = {
    get emulator() {
      if (!emulator) throw new Error("emulator not started");
      return emulator;
    },
    as(username = "root") {
      return new PlatformClient({ url: server.emulator.url, token: tokenOf(server.emulator, username), retryBaseDelayMs: 10 });
    },
    async configureProviders(username = "root", config = {}) {
      configuredUser = username;
      // Verification at preview (src/engine/verify.ts) reads the server in check: off unless a test turns it on
      // (test/engine/verify.test.ts), so the requests a test pins are those of the operation it runs, and a refusal
      // it expects from the server comes from the server, as it does for previews run without verification.
      const settings: Record<string, string> = {
        "platform:url": server.emulator.url,
        "platform:token": tokenOf(server.emulator, username),
        "platform:verifyAtPreview": "false",
        ...config,
      };
      await providers.Badge.configure({ config: configOf(settings) });
    },
    async actingAs(username, action) {
      const previous = configuredUser;
      await server.configureProviders(username);
      try {
        return await action();
      } finally {
        await server.configureProviders(previous);
      }
    },
    async verifyingAs(username, action) {
      const previous = configuredUser;
      await server.configureProviders(username, { "platform:verifyAtPreview": "true" });
      try {
        return await action();
      } finally {
        await server.configureProviders(previous);
      }
    },
    async requestsDuring(action) {
      const start = server.emulator.requestLog.length;
      await action();
      return server.emulator.requestLog.slice(start).map(({ method, path, status }) => ({ method, path, status }));
    },
  };
  return server;
}

export function tokenOf(emulator: Emulator, username: string): string {
  const token = emulator.tokens[username];
  if (!token) throw new Error(`the seed has no user ${username}`);
  return token;
}

export function configOf(settings: Record<string, string>) {
  return {
    get: (key: string) => settings[key],
    require: (key: string) => {
      const value = settings[key];
      if (value === undefined) throw new Error(`missing ${key}`);
      return value;
    },
  };
}

/**
 * A clock for the clients (`setClientClock`) and the emulator (its `clock`
 * option) together: real time, plus every wait a client asked for, passed at
 * once. A wait moves the clock to the wait's end and never back, so waits
 * that overlap do not add up, and the server sees the time it would see had
 * the client waited (a throttle's window has ended, a deadline has passed).
 */
export class SkippingClock implements ClientClock {
  private ahead = 0;
  readonly now = (): number => Date.now() + this.ahead;
  readonly sleep = async (ms: number): Promise<void> => {
    const until = this.now() + Math.max(0, ms);
    // Other work that is due runs first, as it would during a real wait.
    await new Promise((resolve) => setImmediate(resolve));
    this.ahead = Math.max(this.ahead, until - Date.now());
  };
  /** How far ahead of real time the clock is: the waits it skipped. */
  get skippedMs(): number {
    return this.ahead;
  }
}

/** Puts `clock` in force for the clients of this file's tests, and real time back after them. */
export function useClientClock(clock: ClientClock): void {
  beforeAll(() => setClientClock(clock));
  afterAll(() => setClientClock());
}

/** The error `action` fails with; a test fails when it does not. */
export async function failureOf(action: () => Promise<unknown>): Promise<Error> {
  try {
    await action();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the action to fail");
}

/**
 * Waits until `assertion` holds, for what the emulator logs on its own time (a request
 * abandoned by its client is logged once the emulator sees the socket close). Bounded by the
 * test's own timeout, not vi.waitFor's default second, which a loaded machine can outlast.
 */
export function untilLogged(assertion: () => void): Promise<void> {
  return vi.waitFor(assertion, { timeout: 25_000, interval: 20 });
}

export { sshPublicKey } from "./ssh-key.ts";
