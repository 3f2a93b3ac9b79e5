/**
 * Reading what an error-reporting (Sentry) SDK sends to the error-tracking
 * collector: the public key of the DSN, and the items of an envelope. Pure
 * functions, no emulator state.
 *
 * As the real collector reads a request (the key is
 * `sentry_key=` in `X-Sentry-Auth`, or the `sentry_key` query parameter) and
 * the envelope format of the Sentry SDKs (a header line, then per item a
 * header line and a payload, the payload `length` bytes long when the item
 * header says so, else up to the next newline). The real collector reads
 * only the first item; the emulator reads all, so a test sees every event sent.
 */
import { gunzipSync } from "node:zlib";

/** `sentry_key=<key>` of an `X-Sentry-Auth: Sentry sentry_version=7, sentry_key=..., ...` header. */
export function sentryKeyFromHeader(header: string): string | undefined {
  return /sentry_key=(\w+)/.exec(header)?.[1];
}

export interface EnvelopeItem {
  /** The item header's `type`: event, transaction, session, sessions, client_report, attachment, ... */
  type: string;
  /** The parsed payload; undefined when it is not JSON (an attachment). */
  payload: unknown;
}

export class EnvelopeError extends Error {}

/** The body's bytes, gunzipped when `Content-Encoding: gzip` (as the real parser does). */
export function decodeBody(body: Buffer, contentEncoding: string | undefined): Buffer {
  if ((contentEncoding ?? "").trim().toLowerCase() !== "gzip") return body;
  try {
    return gunzipSync(body);
  } catch {
    throw new EnvelopeError("body is not gzip");
  }
}

function parseJsonLine(bytes: Buffer, what: string): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new EnvelopeError(`${what} is not JSON`);
  }
}

/** The line starting at `start` (without its newline) and where the next one starts. */
function lineAt(body: Buffer, start: number): { line: Buffer; next: number } {
  const end = body.indexOf(0x0a, start);
  return end === -1 ? { line: body.subarray(start), next: body.length } : { line: body.subarray(start, end), next: end + 1 };
}

/** Splits an envelope into its items; throws EnvelopeError when it cannot be read. */
export function parseEnvelope(body: Buffer): EnvelopeItem[] {
  const header = lineAt(body, 0);
  if (header.line.toString("utf8").trim() === "") throw new EnvelopeError("empty envelope");
  parseJsonLine(header.line, "envelope header");
  const items: EnvelopeItem[] = [];
  let position = header.next;
  while (position < body.length) {
    const itemHeaderLine = lineAt(body, position);
    position = itemHeaderLine.next;
    if (itemHeaderLine.line.toString("utf8").trim() === "") continue;
    const itemHeader = parseJsonLine(itemHeaderLine.line, "item header") as { type?: unknown; length?: unknown };
    if (typeof itemHeader !== "object" || itemHeader === null || typeof itemHeader.type !== "string") {
      throw new EnvelopeError("item header without a type");
    }
    let payloadBytes: Buffer;
    if (typeof itemHeader.length === "number") {
      payloadBytes = body.subarray(position, position + itemHeader.length);
      position += itemHeader.length;
      if (body[position] === 0x0a) position += 1;
    } else {
      const payloadLine = lineAt(body, position);
      payloadBytes = payloadLine.line;
      position = payloadLine.next;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(payloadBytes.toString("utf8"));
    } catch {
      payload = undefined;
    }
    items.push({ type: itemHeader.type, payload });
  }
  return items;
}

export type EventKind = "exception" | "message";

/**
 * An event payload is an exception when it carries `exception` values, a
 * message when it carries `message` or `logentry`; anything else is not a
 * payload the collector supports (`Unsupported sentry payload`).
 */
export function eventKindOf(payload: unknown): EventKind | undefined {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return undefined;
  const event = payload as Record<string, unknown>;
  const exception = event["exception"];
  const values = Array.isArray(exception) ? exception : (exception as { values?: unknown } | undefined)?.values;
  if (Array.isArray(values) && values.length > 0) return "exception";
  if (event["message"] !== undefined || event["logentry"] !== undefined) return "message";
  return undefined;
}
