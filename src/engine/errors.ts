/**
 * The failures the engine and the resource modules raise on purpose, and how
 * to tell whether a failed write may have been applied all the same.
 */
import { ApiError, NetworkError } from "../client";
import type { Live } from "./definition";

/**
 * Thrown from create when the object exists but a later step failed: the engine
 * records the object (id and outputs) as created-but-failed, so nothing is
 * orphaned and the next `up` finishes the job.
 */
export class PartialCreateError extends Error {
  readonly id: string;
  properties: Record<string, unknown>;
  readonly reasons: string[];
  /** The API object as it stands, when the engine should record it (see `fromLive`). */
  readonly live?: Live;
  constructor(message: string, id: string, properties: Record<string, unknown>, live?: Live) {
    super(message);
    this.id = id;
    this.properties = properties;
    this.reasons = [message];
    this.live = live;
    this.stack = "";
  }

  /** From a resource's create hook: the engine turns `live` into the recorded outputs. */
  static fromLive(message: string, id: string, live: Live): PartialCreateError {
    return new PartialCreateError(message, id, {}, live);
  }
}

/**
 * An expected failure whose message already says what happened and what to
 * do (a refusal explained, an object in the way): the engine shows it as it
 * is, secrets redacted, with no stack trace of ours.
 */
export class ExplainedError extends Error {
  constructor(message: string) {
    super(message);
    this.stack = "";
  }
}

/**
 * Whether a failed write may have been applied all the same: no answer came
 * (the connection dropped or timed out after the request was sent), or a
 * server error came, which proxies and the application also send after the
 * write was committed. A 4xx, or a connection refused, means nothing was done.
 */
export function mayHaveBeenApplied(error: unknown): boolean {
  if (error instanceof NetworkError) return (error.cause as { code?: string } | undefined)?.code !== "ECONNREFUSED";
  return error instanceof ApiError && error.status >= 500 && error.status !== 501 && error.status !== 505;
}
