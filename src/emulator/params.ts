/**
 * Request parameters, the way the real server (Rack + Grape) sees them:
 * query string, form or JSON body and path parameters merged into one
 * object, nested keys (`a[]=x`, `a[k]=v`, `a[0][k]=v`) expanded, and then
 * checked against a route's declared parameters with Grape's error wording.
 */
import { paramError } from "./errors";

export type RawParams = Record<string, unknown>;

/** Keys that must never become object properties (prototype pollution). */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `a[b][]` → `["a", "b", ""]`; a key that is not of that form stays whole. */
function splitNestedKey(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match || !match[2]) return [key];
  const inner = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? "");
  return [match[1] ?? key, ...inner];
}

function hasNestedPath(target: Record<string, unknown>, path: string[]): boolean {
  const [head, ...rest] = path;
  if (head === undefined || !(head in target)) return false;
  const child = target[head];
  return rest.length === 0 || (isPlainObject(child) && hasNestedPath(child, rest));
}

/** Rack's nested assignment: `[]` appends; `a[][k]` starts a new hash when `k` is taken. */
function assignNested(target: Record<string, unknown>, path: string[], value: string): void {
  const [head, ...rest] = path;
  if (head === undefined || UNSAFE_KEYS.has(head)) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  if (rest[0] === "") {
    const list = Array.isArray(target[head]) ? (target[head] as unknown[]) : (target[head] = []);
    const afterBrackets = rest.slice(1);
    if (afterBrackets.length === 0) {
      list.push(value);
      return;
    }
    let last = list[list.length - 1];
    if (!isPlainObject(last) || hasNestedPath(last, afterBrackets)) {
      last = {};
      list.push(last);
    }
    assignNested(last as Record<string, unknown>, afterBrackets, value);
    return;
  }
  const child = isPlainObject(target[head]) ? target[head] : (target[head] = {});
  assignNested(child as Record<string, unknown>, rest, value);
}

/** Expands `key=value` pairs (query string or form body) into nested params. */
export function parseNestedParams(pairs: Iterable<[string, string]>): RawParams {
  const params: RawParams = {};
  for (const [key, value] of pairs) assignNested(params, splitNestedKey(key), value);
  return params;
}

/** A file part of a multipart/form-data body, as handlers receive it (type `file`). */
export interface UploadedFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  isPlainObject(value) && Buffer.isBuffer(value["content"]) && typeof value["filename"] === "string";

/** Parses a request body by its content type; an unknown or absent type gives no params. */
export function parseBody(contentType: string | undefined, raw: string | Buffer): RawParams {
  const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (mediaType === "multipart/form-data") return parseMultipart(contentType ?? "", Buffer.isBuffer(raw) ? raw : Buffer.from(raw, "utf8"));
  const body = Buffer.isBuffer(raw) ? raw.toString("utf8") : raw;
  if (body.trim() === "") return {};
  if (mediaType === "application/json" || mediaType.endsWith("+json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw paramError("The request body is not valid JSON");
    }
    // Grape's formatter takes a parsed body's members as params only when it is an object: another JSON value (null, a list) gives none.
    if (!isPlainObject(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([key]) => !UNSAFE_KEYS.has(key)));
  }
  if (mediaType === "application/x-www-form-urlencoded") {
    return parseNestedParams(new URLSearchParams(body));
  }
  return {};
}

/**
 * multipart/form-data (RFC 7578): text fields become params like form fields
 * (`a[]` nesting included), file parts become `UploadedFile`s.
 */
function parseMultipart(contentType: string, body: Buffer): RawParams {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2]?.trim();
  if (!marker) throw paramError("The multipart body has no boundary");
  const delimiter = Buffer.from(`--${marker}`, "latin1");
  const fields: [string, string][] = [];
  const files: RawParams = {};
  let position = body.indexOf(delimiter);
  while (position !== -1) {
    const start = position + delimiter.length;
    if (body.subarray(start, start + 2).toString("latin1") === "--") break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start + 2, next - 2); // after CRLF, before the CRLF that precedes the delimiter
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString("utf8");
      const content = part.subarray(headerEnd + 4);
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      if (name !== undefined && !UNSAFE_KEYS.has(name)) {
        if (filename !== undefined) {
          const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? "application/octet-stream";
          files[name] = { filename, contentType: type, content: Buffer.from(content) } satisfies UploadedFile;
        } else {
          fields.push([name, content.toString("utf8")]);
        }
      }
    }
    position = next;
  }
  return { ...parseNestedParams(fields), ...files };
}

// ---------------------------------------------------------------------------
// Declared parameters (Grape's `requires` / `optional`)

export type ParamType = "string" | "integer" | "boolean" | "string[]" | "integer[]" | "hash" | "hash[]" | "file";

export interface ParamRule {
  readonly type: ParamType;
  /** Absent → 400 `{"error":"<name> is missing"}`. */
  readonly required?: boolean;
  /** Allowed values → otherwise 400 `{"error":"<name> does not have a valid value"}`. */
  readonly values?: readonly (string | number | boolean)[];
  /** Accept an explicit JSON `null` (to clear a field); otherwise null counts as absent. */
  readonly nullable?: boolean;
}

export type ParamSpec = Readonly<Record<string, ParamRule>>;

type ValueOfType<T extends ParamType> = T extends "string"
  ? string
  : T extends "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "string[]"
        ? string[]
        : T extends "integer[]"
          ? number[]
          : T extends "hash"
            ? Record<string, unknown>
            : T extends "file"
              ? UploadedFile
              : Record<string, unknown>[];

type ValueOfRule<R extends ParamRule> = ValueOfType<R["type"]> | (R["nullable"] extends true ? null : never);

/** What a handler receives: declared params only, absent optional ones `undefined`. */
export type DeclaredParams<S extends ParamSpec> = {
  -readonly [K in keyof S]: S[K]["required"] extends true ? ValueOfRule<S[K]> : ValueOfRule<S[K]> | undefined;
};

const INVALID = Symbol("invalid");
/** Grape's PrimitiveCoercer reads an empty value of these as nil (`treat_as_nil?`); a hash rejects it. */
const EMPTY_IS_NIL: ReadonlySet<ParamType> = new Set(["integer", "boolean"]);
const TRUE_WORDS = new Set(["true", "1", "t", "yes", "y", "on"]);
const FALSE_WORDS = new Set(["false", "0", "f", "no", "n", "off"]);

function coerceInteger(value: unknown): number | typeof INVALID {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\s*[-+]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  return INVALID;
}

/** Rack turns `a[0][k]=v` into `{"0": {...}}`; Grape reads that as an array. */
function asList(value: unknown): unknown[] | typeof INVALID {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value) && Object.keys(value).every((key) => /^\d+$/.test(key))) {
    return Object.keys(value)
      .sort((a, b) => Number(a) - Number(b))
      .map((key) => value[key]);
  }
  return INVALID;
}

function coerce(type: ParamType, value: unknown): unknown {
  switch (type) {
    case "string":
      return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : INVALID;
    case "integer":
      return coerceInteger(value);
    case "boolean": {
      if (typeof value === "boolean") return value;
      const word = String(value).toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return INVALID;
    }
    case "string[]": {
      const list = asList(value);
      if (list === INVALID) return INVALID;
      return list.every((item) => typeof item === "string" || typeof item === "number") ? list.map(String) : INVALID;
    }
    case "integer[]": {
      const list = asList(value);
      if (list === INVALID) return INVALID;
      const numbers = list.map(coerceInteger);
      return numbers.includes(INVALID) ? INVALID : numbers;
    }
    case "hash":
      return isPlainObject(value) ? value : INVALID;
    case "hash[]": {
      const list = asList(value);
      return list !== INVALID && list.every(isPlainObject) ? list : INVALID;
    }
    case "file":
      return isUploadedFile(value) ? value : INVALID;
  }
}

/**
 * Checks raw params against a specification the way Grape does: every problem is
 * reported, joined with ", ", as one 400 `{"error": ...}`.
 */
export function declareParams<S extends ParamSpec>(spec: S, raw: RawParams): DeclaredParams<S> {
  const declared: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, rule] of Object.entries(spec)) {
    const value = raw[name] === "" && EMPTY_IS_NIL.has(rule.type) ? null : raw[name];
    if (value === undefined || (value === null && !rule.nullable)) {
      if (rule.required) problems.push(`${name} is missing`);
      continue;
    }
    if (value === null) {
      declared[name] = null;
      continue;
    }
    const coerced = coerce(rule.type, value);
    if (coerced === INVALID) {
      problems.push(`${name} is invalid`);
      continue;
    }
    if (rule.values && !rule.values.includes(coerced as string | number | boolean)) {
      problems.push(`${name} does not have a valid value`);
      continue;
    }
    declared[name] = coerced;
  }
  if (problems.length > 0) throw paramError(problems.join(", "));
  return declared as DeclaredParams<S>;
}

/** Grape's DateTime coercion: an unreadable time is `<name> is invalid`. */
export function timeParam(raw: unknown, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const time = Date.parse(String(raw));
  if (Number.isNaN(time)) throw paramError(`${name} is invalid`);
  return time;
}
