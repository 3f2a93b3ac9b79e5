/**
 * Paces the requests of one token to one server by the server's own rate-limit
 * headers, so a large program runs at the rate the server allows instead of
 * bouncing off 429s that count against the same window.
 *
 * Real servers (Rack::Attack) count requests in
 * fixed windows and report, on every answer, `RateLimit-Remaining` and
 * `RateLimit-Reset` (the window's end, epoch seconds); a throttled answer adds
 * `Retry-After`. The gate:
 * - lets no more requests be in flight than the connection pool carries, so
 *   requests wait here, where a 429 can still stop them, not in the pool's queue;
 * - sends the first request alone: its answer tells whether the server reports
 *   its windows. If it does not (no throttle, or headers only on a 429), the
 *   gate stays open;
 * - within a known window, lets through as many requests as the server said
 *   remain, then holds the rest until the window ends;
 * - when a window ends (or after a 429), lets one request through to learn the
 *   new window's allowance, and the others follow once its answer arrives;
 * - after a global 429, holds every request until the server's stated time;
 * - reads window ends on the server's clock, corrected by the answer's `Date`
 *   when the two clocks differ by more than that header's precision (else a
 *   server behind us would look as if every window had ended, one ahead as if
 *   windows lasted longer than they do).
 * Time spent waiting here is pacing, not failure: callers do not count it
 * against their retry time.
 */
import { clientClock } from "./clock";

/** Requests sent right at a window's end may reach the server a moment early; wait a little past it. */
const WINDOW_EDGE_MS = 20;
/**
 * `RateLimit-Reset` is a time on the server's clock. A difference from ours
 * is read from the answer's `Date` header, which has whole seconds only, so
 * differences within this margin are taken as none.
 */
const CLOCK_SKEW_MARGIN_MS = 2_000;

interface Window {
  /** When the server's current window ends (ms since the epoch). */
  endsAt: number;
  /** Requests it still allows, less the ones let through since it said so. */
  remaining: number;
}

/** A permit to send one request; give it back with `settle` when the answer (or the failure) is in. */
export interface GatePass {
  readonly probe: boolean;
}

export class RateLimitGate {
  /** No request leaves before this time: set by a throttled answer. */
  private closedUntil = 0;
  /** Unknown until the first answer; paced once the server has shown it reports its windows. */
  private mode: "unknown" | "open" | "paced" = "unknown";
  private window: Window | undefined;
  private probing = false;
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly maxInFlight: number) {}

  /**
   * A pass at once when a request may leave now without waiting (the usual
   * case: an open gate, or a known window with requests left), else undefined
   * and the caller awaits `admit`. Saves the request an await.
   */
  tryAdmit(): GatePass | undefined {
    if (this.inFlight >= this.maxInFlight || this.waiters.length > 0) return undefined;
    if (this.mode === "open") return clientClock().now() < this.closedUntil ? undefined : this.pass(false);
    const window = this.window;
    if (this.mode === "paced" && window && window.remaining > 0) {
      const now = clientClock().now();
      if (now < this.closedUntil || now >= window.endsAt) return undefined;
      window.remaining -= 1;
      return this.pass(false);
    }
    return undefined;
  }

  /** Waits until a request may leave; the pass must be settled afterwards. */
  async admit(): Promise<GatePass> {
    for (;;) {
      const now = clientClock().now();
      if (now < this.closedUntil) {
        await clientClock().sleep(this.closedUntil - now);
        continue;
      }
      if (this.inFlight >= this.maxInFlight) {
        await this.nextSettle();
        continue;
      }
      const window = this.window;
      if (this.mode === "open") return this.pass(false);
      if (this.mode === "paced" && window && now < window.endsAt) {
        if (window.remaining > 0) {
          window.remaining -= 1;
          return this.pass(false);
        }
        await clientClock().sleep(window.endsAt - now + WINDOW_EDGE_MS);
        continue;
      }
      // Nothing known about the current window: one request finds out, the others wait for its answer.
      if (!this.probing) {
        this.probing = true;
        return this.pass(true);
      }
      await this.nextSettle();
    }
  }

  private pass(probe: boolean): GatePass {
    this.inFlight += 1;
    return { probe };
  }

  private nextSettle(): Promise<void> {
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /**
   * Learns from an answer (or a failure without one: `status` undefined).
   * `waitMs` is how long a throttled answer asked to wait.
   */
  settle(pass: GatePass, status: number | undefined, headers: Record<string, string | string[] | undefined> | undefined, waitMs?: number): void {
    this.inFlight -= 1;
    if (pass.probe) this.probing = false;
    const remaining = headerNumber(headers?.["ratelimit-remaining"]);
    const reset = headerNumber(headers?.["ratelimit-reset"]);
    if (status === 429) {
      // The global throttle says when it reopens; the endpoint limiter's 429 says nothing and concerns one endpoint only.
      if (waitMs !== undefined) {
        this.closedUntil = Math.max(this.closedUntil, clientClock().now() + waitMs + WINDOW_EDGE_MS);
        this.window = undefined;
        if (remaining !== undefined) this.mode = "paced";
      }
    } else if (remaining !== undefined && reset !== undefined) {
      this.mode = "paced";
      const endsAt = reset * 1000 - serverClockAhead(headers?.date) + WINDOW_EDGE_MS;
      if (!this.window || endsAt > this.window.endsAt) this.window = { endsAt, remaining };
      else if (endsAt === this.window.endsAt) this.window.remaining = Math.min(this.window.remaining, remaining);
    } else if (status !== undefined && this.mode === "unknown") {
      this.mode = "open";
    }
    if (this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** How far the server's clock runs ahead of ours (negative: behind), from its `Date` header; 0 within the header's precision. */
function serverClockAhead(date: string | string[] | undefined): number {
  const serverTime = typeof date === "string" ? Date.parse(date) : NaN;
  if (!Number.isFinite(serverTime)) return 0;
  // The header drops the milliseconds: the server's time was, on average, half a second later.
  const ahead = serverTime + 500 - clientClock().now();
  return Math.abs(ahead) > CLOCK_SKEW_MARGIN_MS ? ahead : 0;
}

function headerNumber(value: string | string[] | undefined): number | undefined {
  return typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}
