/**
 * How a zod failure reads to the user, for resources (`check`) and data
 * functions alike: the property once, then the rule (`sort: Invalid option:
 * expected one of "asc"|"desc"`), and for a name nobody declared, the nearest
 * declared one.
 */
import { z } from "zod";

/** A failure names the property and the rule, e.g. `linkUrl: must be an http(s) URL`. */
export function describeIssue(issue: z.core.$ZodIssue, known: readonly string[] = []): string {
  const property = issue.path.join(".");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => unknownName(property ? `${property}.${key}` : key, key, known)).join("; ");
  }
  const message = isLibraryDefault(issue) || isLeftOut(issue) ? ourWords(issue) : issue.message;
  return property ? `${property}: ${message}` : message;
}

/** The message is zod's own (no schema gave one), framed in zod's terms (`Too small: expected number to be >=0`). */
function isLibraryDefault(issue: z.core.$ZodIssue): boolean {
  return issue.message === z.locales.en().localeError(issue as never);
}

/** A property left out: zod says "expected string, received undefined", or words a custom rule about a value there is none of. */
function isLeftOut(issue: z.core.$ZodIssue): boolean {
  return (issue.code === "invalid_type" || issue.code === "invalid_value") && issue.input === undefined;
}

/**
 * A rule zod checked, in our words, without zod's framing ("Invalid input:",
 * "Too small: expected number to be"): what was expected and what was given.
 * The bounds keep their short notation (`>=0`, `<=255 characters`).
 */
function ourWords(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return `is required (expected ${typeName(issue.expected)})`;
      return `expected ${typeName(issue.expected)}, got ${valueWords(issue.input)}`;
    case "invalid_value": {
      const options = `one of ${issue.values.map((value) => JSON.stringify(value)).join("|")}`;
      return issue.input === undefined ? `is required (expected ${options})` : `must be ${options}`;
    }
    case "too_small":
      return bound(issue.origin, issue.inclusive === false ? ">" : ">=", issue.minimum);
    case "too_big":
      return bound(issue.origin, issue.inclusive === false ? "<" : "<=", issue.maximum);
    case "invalid_format":
      return issue.format === "email" ? "must be an email address" : `must be ${issue.format === "url" ? "a URL" : `in the ${issue.format} format`}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    default:
      return issue.message;
  }
}

/** zod's type names, with `int` said in full. */
function typeName(expected: string): string {
  return expected === "int" ? "integer" : expected;
}

function valueWords(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function bound(origin: string, operator: string, limit: number | bigint): string {
  if (origin === "string") return operator === ">=" && Number(limit) === 1 ? "must not be empty (>=1 characters)" : `must have ${operator}${limit} characters`;
  if (origin === "array" || origin === "set") return `must have ${operator}${limit} items`;
  return `must be ${operator}${limit}`;
}

function unknownName(path: string, key: string, known: readonly string[]): string {
  const nearest = nearestName(key, known);
  return `${path}: unknown property${nearest ? `; did you mean ${nearest}?` : ""}`;
}

/** The declared name closest to a mistyped one (case, a letter or two), if any is close. */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= Math.max(2, Math.floor(candidate.length / 4)) && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** True for an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * The rule for a string that becomes a URL path segment (a name, an id) or a
 * path of segments (a full path such as acme/web): no segment may be `.` or
 * `..`, plain or percent-encoded, since URL parsers (WHATWG's, undici's,
 * front proxies') resolve them and the request would reach another object.
 */
export const DOT_SEGMENT_RULE = 'must not be "." or ".." nor have one as a path segment (plain or percent-encoded, as %2e): a URL would resolve it to another address';

/**
 * How many rounds of percent-decoding are looked through: a server decodes
 * once, a proxy in front of it perhaps once more. Bounded, so a value of
 * escapes of escapes costs a few passes, not one per layer.
 */
const DECODING_ROUNDS = 4;

const PERCENT_ESCAPE = /%([0-9a-f]{2})/gi;

/**
 * Whether `value`, read as a path, has a `.` or `..` segment: split on `/`
 * and `\` (which WHATWG's parser also takes as a separator), with tabs and
 * line breaks dropped (that parser drops them anywhere) and surrounding
 * spaces trimmed, after each round of percent-decoding (`%2e%2E`, `.%2E`,
 * `acme%2f..`, `%252e%252e`).
 */
export function hasDotSegment(value: string): boolean {
  let text = value;
  for (let round = 0; ; round++) {
    if (text.split(/[/\\]/).some((segment) => /^\.\.?$/.test(segment.replace(/[\t\n\r]/g, "").trim()))) return true;
    const decoded = text.replace(PERCENT_ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (decoded === text || round === DECODING_ROUNDS) return false;
    text = decoded;
  }
}

/**
 * The refinement every schema adds to a string that ends up in a request's
 * path: `.refine(...notDotSegments)`. Non-strings (a numeric id) pass.
 */
export const notDotSegments = [(value: unknown): boolean => typeof value !== "string" || !hasDotSegment(value), { message: DOT_SEGMENT_RULE }] as const;
