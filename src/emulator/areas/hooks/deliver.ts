/**
 * Delivering an event to a hook's URL as WebHookService does: a POST of the
 * event's JSON (or the hook's custom template rendered with it), the
 * `X-Gitlab-*` headers, the token, the custom headers (under the standard
 * ones, which win), credentials in the URL sent as Basic authentication.
 * Bounded: the request body (25 MB), the time (the 10 s `webhook_timeout`)
 * and what is read of the answer (its first 8 KB are kept, the rest is not
 * read). A 2xx or 3xx answer is a success; anything else, a failure or
 * timeout included, counts towards the hook's auto-disabling.
 */
import { randomUUID } from "node:crypto";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { EmulatorState } from "../../state";
import { backoff, enable, EVENT_HEADER, executable, HOOK_LOG_SEQUENCE, hooksStore, MAX_LOG_PER_HOOK, type EventSwitch, type HookRecord } from "./model";

export const WEBHOOK_TIMEOUT_MS = 10_000;
const REQUEST_BODY_SIZE_LIMIT = 25 * 1024 * 1024;
const RESPONSE_BODY_SIZE_LIMIT = 8 * 1024;

export interface DeliveryResult {
  /** The receiver's status; undefined when none came (refused, timed out, too large). */
  status?: number;
  /** The answer's first bytes, or what went wrong. */
  message: string;
}

const TEMPLATE_REFERENCE = /\{\{(.+?)\}\}/g;

/** `render_custom_template`: each `{{a.b}}` replaced by that value's JSON (a string without its quotes), then parsed. */
export function renderTemplate(template: string, data: Record<string, unknown>): Record<string, unknown> {
  const rendered = template.replace(TEMPLATE_REFERENCE, (_match, path: string) => {
    let value: unknown = data;
    for (const key of path.split(".")) value = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
    const json = JSON.stringify(value ?? null);
    return typeof value === "string" ? json.slice(1, -1) : json;
  });
  try {
    return JSON.parse(rendered) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`Error while parsing rendered custom webhook template: ${(error as Error).message}`);
  }
}

function headersOf(state: EmulatorState, hook: HookRecord, trigger: EventSwitch): Record<string, string> {
  return {
    ...hook.customHeaders,
    "Content-Type": "application/json",
    "User-Agent": `GitLab/${state.instance.version}`,
    "Idempotency-Key": randomUUID(),
    "X-Gitlab-Event": EVENT_HEADER[trigger],
    "X-Gitlab-Webhook-UUID": randomUUID(),
    "X-Gitlab-Instance": `https://${state.instance.host}`,
    "X-Gitlab-Event-UUID": randomUUID(),
    ...(hook.token ? { "X-Gitlab-Token": hook.token.replace(/[\r\n]/g, "") } : {}),
  };
}

/** Sends one POST; resolves with the answer or what went wrong, never rejects. */
function post(url: URL, headers: Record<string, string>, body: string, verify: boolean): Promise<DeliveryResult> {
  return new Promise((resolve) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const auth = url.username !== "" ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined;
    const target = new URL(url);
    target.username = "";
    target.password = "";
    let settled = false;
    const done = (result: DeliveryResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = send(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)), ...(auth ? { Authorization: `Basic ${Buffer.from(auth).toString("base64")}` } : {}) },
        timeout: WEBHOOK_TIMEOUT_MS,
        ...(url.protocol === "https:" ? { rejectUnauthorized: verify } : {}),
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size >= RESPONSE_BODY_SIZE_LIMIT) {
            response.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        const finish = () => done({ status: response.statusCode ?? 0, message: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_SIZE_LIMIT).toString("utf8") });
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
      },
    );
    // A receiver that does not answer in time: the request is cut, a failure (`Net::ReadTimeout`).
    const deadline = setTimeout(() => request.destroy(new Error("execution expired")), WEBHOOK_TIMEOUT_MS);
    deadline.unref();
    request.on("timeout", () => request.destroy(new Error("execution expired")));
    request.on("error", (error) => done({ message: error.message }));
    request.on("close", () => clearTimeout(deadline));
    request.end(body);
  });
}

/**
 * Delivers `data` to the hook now and records the outcome: the events log,
 * and the hook's failure count (a success enables it again, a failure backs it off).
 */
export async function deliver(state: EmulatorState, hook: HookRecord, trigger: EventSwitch, data: Record<string, unknown>): Promise<DeliveryResult> {
  const headers = headersOf(state, hook, trigger);
  const started = Date.now();
  let result: DeliveryResult;
  let payload: Record<string, unknown> = data;
  try {
    payload = hook.customWebhookTemplate ? renderTemplate(hook.customWebhookTemplate, data) : data;
    const body = JSON.stringify(payload);
    if (Buffer.byteLength(body) > REQUEST_BODY_SIZE_LIMIT) throw new Error("JSON exceeds the 25 MB limit");
    result = await post(new URL(hook.url), headers, body, hook.enableSslVerification);
  } catch (error) {
    result = { message: (error as Error).message };
  }
  const success = result.status !== undefined && result.status >= 200 && result.status < 400;
  // The hook may have been deleted while the request was on its way.
  const current = hooksStore.of(state).hooks.find((one) => one.id === hook.id);
  if (current) {
    if (success) enable(current);
    else backoff(state, current);
    record(state, current, trigger, headers, payload, result, (Date.now() - started) / 1000);
  }
  return result;
}

function record(state: EmulatorState, hook: HookRecord, trigger: EventSwitch, headers: Record<string, string>, data: Record<string, unknown>, result: DeliveryResult, seconds: number): void {
  const { log } = hooksStore.of(state);
  // The log never shows the token or the custom headers' values (`[REDACTED]`).
  const shown = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, name === "X-Gitlab-Token" || name in hook.customHeaders ? "[REDACTED]" : value]));
  log.push({
    id: state.nextId(HOOK_LOG_SEQUENCE),
    hookId: hook.id,
    trigger,
    url: hook.url,
    requestHeaders: shown,
    requestData: data,
    responseStatus: result.status === undefined ? "internal error" : String(result.status),
    responseBody: result.message,
    executionDuration: seconds,
    createdAt: state.now(),
  });
  const own = log.filter((entry) => entry.hookId === hook.id);
  if (own.length > MAX_LOG_PER_HOOK) log.splice(log.indexOf(own[0]!), 1);
}

/** The background work: every queued event, delivered concurrently; the queue is emptied first, so no event goes twice. */
export async function deliverQueued(state: EmulatorState): Promise<void> {
  const store = hooksStore.of(state);
  const batch = store.queued.splice(0);
  await Promise.all(
    batch.map(async (queued) => {
      const hook = store.hooks.find((one) => one.id === queued.hookId);
      // WebHookService#execute looks again: a hook disabled since the event was queued gets nothing.
      if (hook && executable(state, hook)) await deliver(state, hook, queued.trigger, queued.data);
    }),
  );
}
