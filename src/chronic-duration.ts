/**
 * Human-readable durations as the server reads a bulk tag deletion's
 * `older_than` (ChronicDuration: `1h`, `1d`, `2 days`, `1month`, `1h30m`,
 * `1.5 hours`; a bare number is seconds), for the registry cleanup resource,
 * which evaluates the deletion at preview. It refuses unknown words, which the
 * server passes over: a typo is named at preview rather than read as nothing.
 * The emulator reads durations in its own code; a test compares the two.
 */

/** Seconds per unit, as ChronicDuration counts them (a month is 30 days, a year 365.25 days). */
const UNIT_SECONDS: [pattern: RegExp, seconds: number][] = [
  [/^(s|secs?|seconds?)$/, 1],
  [/^(m|mins?|minutes?)$/, 60],
  [/^(h|hrs?|hours?)$/, 3_600],
  [/^(d|days?)$/, 86_400],
  [/^(w|wks?|weeks?)$/, 604_800],
  [/^(mo|mos|months?)$/, 2_592_000],
  [/^(y|yrs?|years?)$/, 31_557_600],
];

/** Seconds in a human-readable duration, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const normalized = text.trim().toLowerCase().replace(/\band\b|,/g, " ");
  if (/^\d+(\.\d+)?$/.test(normalized)) return Number(normalized);
  const parts = [...normalized.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)\s*/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== normalized.replace(/^\s+/, "")) return undefined;
  let total = 0;
  for (const [, amount = "", unit = ""] of parts) {
    const seconds = UNIT_SECONDS.find(([pattern]) => pattern.test(unit))?.[1];
    if (seconds === undefined) return undefined;
    total += Number(amount) * seconds;
  }
  return total;
}
