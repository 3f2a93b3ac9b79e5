/**
 * A Rack::Attack-style throttle (real-api-behaviour.md 0.5): a fixed window
 * aligned on the epoch, counted per token (or per address when anonymous).
 * Every request counts, rejected ones included. A rejected request gets 429
 * `text/plain` "Retry later\n" with `RateLimit-*` and `Retry-After` headers;
 * an accepted one gets the `RateLimit-*` headers without `RateLimit-ResetTime`
 * and `Retry-After`, as newer real servers send.
 */
import type { Clock } from "./state";

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

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly clock: Clock,
  ) {
    if (!(options.requests > 0) || !(options.periodSeconds > 0)) {
      throw new Error("rateLimit needs positive requests and periodSeconds");
    }
  }

  /** Counts one request for `key` and tells whether it is over the limit. */
  hit(key: string, name: ThrottleName): ThrottleDecision {
    const { requests: limit, periodSeconds: period } = this.options;
    const nowSeconds = Math.floor(this.clock() / 1000);
    const start = nowSeconds - (nowSeconds % period);
    const window = this.windows.get(key);
    const current = window && window.start === start ? window : { start, count: 0 };
    current.count += 1;
    this.windows.set(key, current);

    const reset = start + period;
    const headers: Record<string, string> = {
      "RateLimit-Name": name,
      // Normalised to a 60-second window, as Rack::Attack reports it.
      "RateLimit-Limit": String(Math.ceil((limit * 60) / period)),
      "RateLimit-Observed": String(current.count),
      "RateLimit-Remaining": String(Math.max(limit - current.count, 0)),
      "RateLimit-Reset": String(reset),
    };
    const limited = current.count > limit;
    if (limited) {
      headers["RateLimit-ResetTime"] = new Date(reset * 1000).toUTCString();
      headers["Retry-After"] = String(period - (nowSeconds % period));
    }
    return { limited, headers };
  }
}
