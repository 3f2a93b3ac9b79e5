/**
 * The time every client reads and waits by: a request's deadline, the
 * backoff between its attempts, the rate-limit gate's windows and the waits a
 * server asks for. Real time, unless a test puts its own clock in place
 * (`setClientClock`) so that a minute of backoff and throttling passes at
 * once; nothing else changes with it (an attempt's own timeout is a timer on
 * the connection, always in real time).
 */
export interface ClientClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves once `ms` milliseconds have passed on this clock. */
  sleep(ms: number): Promise<void>;
}

const realTime: ClientClock = {
  now: () => Date.now(),
  sleep: (ms) => (ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))),
};

let current: ClientClock = realTime;

/** The clock in force (read at every use, so clients made earlier follow a change). */
export function clientClock(): ClientClock {
  return current;
}

/** Puts `clock` in force for every client in this process; without an argument, real time again. */
export function setClientClock(clock?: ClientClock): void {
  current = clock ?? realTime;
}
