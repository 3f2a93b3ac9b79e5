/**
 * Fault injection for client tests: make the next matching request(s) fail
 * the way networks and servers fail — an error status, a dropped connection,
 * a slow answer, or a response lost after the server already did the work.
 */

export interface Fault {
  /** HTTP method to match (any when absent). */
  method?: string;
  /**
   * Raw request path to match (any when absent). A string matches the whole
   * raw path, with or without the `/api/v4` prefix (`/projects/1/badges`); a
   * RegExp is tested against the raw path, still URL-encoded.
   */
  path?: string | RegExp;
  /** How many matching requests this fault hits; default 1. */
  times?: number;
  /** Respond with this status (and `headers`, `body`) instead of the real answer. */
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is (text/plain unless headers say otherwise); an object as JSON. */
  body?: string | object;
  /** Destroy the socket without any response. */
  dropConnection?: boolean;
  /** Wait this long first; alone (no status, no drop) it only slows the real answer down. */
  delayMs?: number;
  /** Run the real handler first (a POST really creates), then replace its response by the fault. */
  afterHandling?: boolean;
}

/** A fault that changes the answer, as opposed to one that only delays it. */
export const replacesResponse = (fault: Fault): boolean => fault.dropConnection === true || fault.status !== undefined;

const API_PREFIX = "/api/v4";

function matches(fault: Fault, method: string, rawPath: string): boolean {
  if (fault.method && fault.method.toUpperCase() !== method.toUpperCase()) return false;
  if (fault.path === undefined) return true;
  if (fault.path instanceof RegExp) {
    fault.path.lastIndex = 0;
    return fault.path.test(rawPath);
  }
  return rawPath === fault.path || rawPath === API_PREFIX + fault.path;
}

export class FaultInjector {
  private readonly pending: { fault: Fault; remaining: number }[] = [];

  inject(fault: Fault): void {
    if (fault.status === undefined && (fault.headers !== undefined || fault.body !== undefined)) {
      throw new Error("a fault with headers or a body needs a status");
    }
    this.pending.push({ fault, remaining: fault.times ?? 1 });
  }

  clear(): void {
    this.pending.length = 0;
  }

  /** The first pending fault matching this request, used up by one. */
  take(method: string, rawPath: string): Fault | undefined {
    const index = this.pending.findIndex((entry) => matches(entry.fault, method, rawPath));
    const entry = this.pending[index];
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.pending.splice(index, 1);
    return entry.fault;
  }
}
