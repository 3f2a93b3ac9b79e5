/**
 * Test plumbing for the emulator's own tests: an emulator per test file and
 * a tiny fetch wrapper. The emulator is the code under test here, so it is
 * imported from source, not from the built package.
 */
import { afterAll, beforeAll } from "vitest";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";

/** Starts an emulator before the file's tests and stops it after them. */
export function useEmulator(options: EmulatorOptions = {}): { readonly emulator: Emulator } {
  let emulator: Emulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator(options);
  });
  afterAll(async () => {
    await emulator?.stop();
  });
  return {
    get emulator() {
      if (!emulator) throw new Error("emulator not started");
      return emulator;
    },
  };
}

export interface CallOptions {
  /** Username whose seed token is sent; null for anonymous. Default root. */
  as?: string | null;
  /** A token sent as is (overrides `as`). */
  token?: string;
  method?: string;
  /** JSON body (an object) or form body (URLSearchParams). */
  body?: object | URLSearchParams;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: any;
  text: string;
}

/** Sends a request to `apiUrl + path` (path as it should appear on the wire). */
export async function call(emulator: Emulator, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  const username = options.as === undefined ? "root" : options.as;
  const token = options.token ?? (username === null ? undefined : emulator.tokens[username]);
  if (username !== null && token === undefined) throw new Error(`no token for ${username}`);
  if (token !== undefined) headers["PRIVATE-TOKEN"] = token;
  let body: string | undefined;
  if (options.body instanceof URLSearchParams) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = options.body.toString();
  } else if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  const response = await fetch(emulator.apiUrl + path, {
    method: options.method ?? "GET",
    headers,
    body,
    redirect: "manual",
  });
  const text = await response.text();
  const isJson = (response.headers.get("content-type") ?? "").includes("application/json");
  return { status: response.status, headers: response.headers, body: isJson && text !== "" ? JSON.parse(text) : text, text };
}

/** Creates a project or group badge as `as` (default root) and returns its JSON. */
export async function createBadge(
  emulator: Emulator,
  source: string,
  fields: { link_url?: string; image_url?: string; name?: string } = {},
  as = "root",
): Promise<any> {
  const result = await call(emulator, `${source}/badges`, {
    as,
    method: "POST",
    body: { link_url: "https://ci.example.test/l", image_url: "https://ci.example.test/i.svg", ...fields },
  });
  if (result.status !== 201) throw new Error(`creating a badge on ${source}: ${result.status} ${result.text}`);
  return result.body;
}
