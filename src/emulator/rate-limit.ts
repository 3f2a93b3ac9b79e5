/**
 * A Rack::Attack-style throttle: a fixed window
 * aligned on the epoch, counted per token (or per address when anonymous).
 * Every request counts, rejected ones included. A rejected request gets 429
 * `text/plain` "Retry later\n" with `RateLimit-*` and `Retry-After` headers;
 * an accepted one gets the `RateLimit-*` headers without `RateLimit-ResetTime`
 * and `Retry-After`, as newer real servers send.
 */
import { defineStore, type Clock } from "./state";

export interface RateLimitOptions {
  /** Requests allowed per window. */
  requests: number;
  periodSeconds: number;
}

export type ThrottleName = "throttle_authenticated_api" | "throttle_unauthenticated_api";

export interface ThrottleDecision {
  limited: boolean;
  headers: Record<string, string>;
}

export const RATE_LIMIT_BODY = "Retry later\n";

/**
 * The throttles in force, by name; an absent or null entry is a disabled
 * throttle. Part of the saved state, and changed at runtime: the server's
 * `rateLimit` option sets both at start, and a route may change them (the
 * application settings' `throttle_<scope>_*` do), taking effect on the next request.
 */
export const throttleStore = defineStore("throttles", (): Partial<Record<ThrottleName, RateLimitOptions | null>> => ({}));

export function checkRateLimitOptions(options: RateLimitOptions): RateLimitOptions {
  if (!(options.requests > 0) || !(options.periodSeconds > 0)) {
    throw new Error("rateLimit needs positive requests and periodSeconds");
  }
  return options;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly clock: Clock) {}

  /** Counts one request for `key` under throttle `name` with its current limits, and tells whether it is over. */
  hit(key: string, name: ThrottleName, options: RateLimitOptions): ThrottleDecision {
    const now = this.clock();
    const start = windowStart(now, options.periodSeconds);
    const windowKey = `${name}\n${key}`;
    const window = this.windows.get(windowKey);
    const current = window && window.start === start ? window : { start, count: 0 };
    current.count += 1;
    this.windows.set(windowKey, current);

    return { limited: current.count > options.requests, headers: throttleHeaders(name, options, current.count, now) };
  }
}

/** The epoch second the fixed window holding `now` (ms) began: windows are aligned on the epoch. */
function windowStart(now: number, periodSeconds: number): number {
  const nowSeconds = Math.floor(now / 1000);
  return nowSeconds - (nowSeconds % periodSeconds);
}

/**
 * The headers of an answer under throttle `name` when `count` requests have
 * been seen in the window holding `now`: `RateLimit-*` always, and
 * `RateLimit-ResetTime` and `Retry-After` once the count is over the limit.
 */
export function throttleHeaders(name: ThrottleName, options: RateLimitOptions, count: number, now: number): Record<string, string> {
  const { requests: limit, periodSeconds: period } = options;
  const nowSeconds = Math.floor(now / 1000);
  const reset = windowStart(now, period) + period;
  const headers: Record<string, string> = {
    "RateLimit-Name": name,
    // Normalised to a 60-second window, as Rack::Attack reports it.
    "RateLimit-Limit": String(Math.ceil((limit * 60) / period)),
    "RateLimit-Observed": String(count),
    "RateLimit-Remaining": String(Math.max(limit - count, 0)),
    "RateLimit-Reset": String(reset),
  };
  if (count > limit) {
    headers["RateLimit-ResetTime"] = new Date(reset * 1000).toUTCString();
    headers["Retry-After"] = String(period - (nowSeconds % period));
  }
  return headers;
}
