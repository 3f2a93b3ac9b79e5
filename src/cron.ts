/**
 * Cron expressions and time zones as pipeline schedules read them, for the
 * resource's `check` (preview): what it accepts the server must accept. The
 * emulator reads them in its own code, and test/emulator/restated-facts.test.ts
 * compares the two.
 *
 * The real server validates and schedules with Fugit (`Gitlab::Ci::CronParser`
 * parses `"<cron> <zone>"` with `Fugit::Cron.parse`): five fields, or six with
 * seconds first; month and weekday names; ranges, lists and steps; `L` and
 * `#` for last and nth; `@daily`-style nicknames. The parsing here is croner's
 * in its "5-or-6-parts" mode, which reads most of that dialect; the extras
 * croner reads beyond it (`W`, `?`, a weekday's `5L`) a real server refuses, so
 * they are refused here before croner sees them, and the forms the server
 * reads that croner does not (hour 24, a step after one value, negative days,
 * `#-1`, reversed ranges, steps beyond the field) are rewritten into forms
 * croner reads alike before it judges them. Only the verdict is asked of
 * croner: the server computes the runs, and a valid expression that never
 * runs (the 31st of February) is saved with no next run, so it is accepted.
 *
 * The zone is either an IANA identifier (TZInfo, which `Intl` carries) or one
 * of the framework's zone names, Rails' `ActiveSupport::TimeZone::MAPPING`
 * ("Pacific Time (US & Canada)"): the server turns those into their IANA
 * identifier with `ActiveSupport::TimeZone.find_tzinfo` before parsing. The
 * mapping comes from the `rails-timezone` package, which carries Rails' table.
 */
import { Cron } from "croner";
import * as railsTimeZone from "rails-timezone";

/** The framework's zone names (Rails' MAPPING keys), e.g. "Eastern Time (US & Canada)". */
export const frameworkZoneNames: readonly string[] = railsTimeZone.list();
const frameworkZones = new Set(frameworkZoneNames);
const canonicalZones = new Set(Intl.supportedValuesOf("timeZone"));

/**
 * A TZInfo identifier's shape: segments that start with a capital letter
 * (`America/Argentina/Buenos_Aires`, `Etc/GMT+5`, `US/Pacific`, `UTC`). TZInfo
 * looks identifiers up case-sensitively, while `Intl` ignores case and answers
 * aliases with their canonical name, so the shape is what rejects `utc` or
 * `america/new_york` that a real server refuses.
 */
const IDENTIFIER_SHAPE = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*)*$/;

/** The IANA identifier a schedule's zone stands for, or undefined when the server would not know it. */
export function ianaZoneOf(name: string): string | undefined {
  const mapped = frameworkZones.has(name) ? railsTimeZone.from(name) : name;
  if (canonicalZones.has(mapped)) return mapped;
  if (!IDENTIFIER_SHAPE.test(mapped)) return undefined;
  try {
    // Accepts every identifier of the tz database, links (aliases) included.
    new Intl.DateTimeFormat("en-US", { timeZone: mapped });
    return mapped;
  } catch {
    return undefined;
  }
}

/** Why a time zone name is refused, or undefined when it is accepted. */
export function timeZoneProblem(name: string): string | undefined {
  if (ianaZoneOf(name) !== undefined) return undefined;
  return `"${name}" is not a time zone: use an IANA identifier such as "Europe/Berlin" or "UTC", or a Rails zone name such as "Pacific Time (US & Canada)"`;
}

function parse(cron: string, zone: string): Cron {
  // No function is given: croner only evaluates the pattern, it schedules nothing.
  return new Cron(cron, { mode: "5-or-6-parts", timezone: zone });
}

/** The largest value of each field, seconds first, for steps beyond a field's range (croner refuses those). */
const FIELD_MAXIMA = [59, 59, 23, 31, 12, 7];

/**
 * An element of a field (between commas) the server reads but croner does
 * not, as a form croner judges alike; `position` counts the five fields from
 * the minute (the seconds field is -1).
 */
function inCronersDialect(element: string, position: number): string {
  // A step after a single value: the server leaves the value alone (5/15 is 5).
  let rewritten = element.replace(/^(\w+)\/\d\d?$/, (all, value: string) => (value === "*" ? all : value));
  // A reversed range: the server reads it forwards.
  rewritten = rewritten.replace(/^(\d+)-(\d+)(?=\/|$)/, (all, from: string, to: string) => (Number(from) > Number(to) ? `${to}-${from}` : all));
  // A step beyond the field's range (of two digits at most, as the server reads steps): the first value only.
  rewritten = rewritten.replace(/\/(\d\d?)$/, (all, step: string) => (Number(step) > FIELD_MAXIMA[position + 1]! ? `/${FIELD_MAXIMA[position + 1]}` : all));
  if (position === 1) return rewritten.replace(/^24(?=\/|$)/, "0").replace(/-24(?=\/|$)/, "-23"); // hour 24 is midnight
  if (position === 2) return /^(-(3[01]|[12]?\d)|last)$/i.test(rewritten) ? "L" : rewritten; // counted from the month's end
  if (position === 4) return rewritten.replace(/#(-[1-5]|last)$/i, "#L"); // the last of the month
  return rewritten;
}

/** Whether croner reads the fields once the server's own forms are rewritten into its. */
function parses(fields: string[]): boolean {
  const offset = fields.length === 6 ? 1 : 0;
  const rewritten = fields.map((field, index) => field.split(",").map((element) => inCronersDialect(element, index - offset)).join(","));
  try {
    parse(rewritten.join(" "), "UTC");
    return true;
  } catch {
    return false;
  }
}

/** What a cron expression is, for the messages: the same words wherever one is refused. */
const CRON_RULE =
  "A cron expression has five fields (minute hour day-of-month month day-of-week), or six with seconds first, " +
  'or is a nickname such as @daily; for example "0 2 * * *" (02:00 every day) or "30 6 * * 1-5" (06:30 on weekdays).';

/**
 * Why a cron expression is refused, or undefined when it is accepted. The
 * words are ours, never the parsing library's (which counts fields its own
 * way and names its internals): what is wrong with this one, then the rule.
 */
export function cronProblem(cron: string): string | undefined {
  if (cronVerdicts.has(cron)) return cronVerdicts.get(cron);
  const verdict = judgedCron(cron);
  if (cronVerdicts.size >= MAX_REMEMBERED_VERDICTS) cronVerdicts.clear();
  cronVerdicts.set(cron, verdict);
  return verdict;
}

/**
 * Verdicts already reached, by expression. Each schedule's expression is
 * judged at check and again when create or update parses its inputs, and the
 * schedules of a stack share a handful of expressions. The verdict depends on
 * the text alone.
 */
const cronVerdicts = new Map<string, string | undefined>();
const MAX_REMEMBERED_VERDICTS = 1_000;

function judgedCron(cron: string): string | undefined {
  const invalid = (why: string) => `${JSON.stringify(cron)} is not a valid cron expression: ${why}. ${CRON_RULE}`;
  if (cron.trim() === "") return `a cron expression is required. ${CRON_RULE}`;
  const fields = cron.trim().split(/\s+/);
  if (fields[0]!.startsWith("@")) {
    if (fields.length > 1 || !parses(fields)) return invalid("the nicknames are @yearly, @annually, @monthly, @weekly, @daily, @midnight and @hourly");
  } else if (fields.length !== 5 && fields.length !== 6) {
    return invalid(`it has ${fields.length} field${fields.length === 1 ? "" : "s"}`);
  } else if (fields.some((field) => /[?W]/i.test(field)) || /\dL/i.test(fields.at(-1)!)) {
    return invalid("W, ? and a weekday's L (5L) are not read by the server; for the last Friday write 5#L");
  } else if (!parses(fields)) {
    return invalid(fieldProblem(fields));
  }
  return undefined;
}

/** The fields in order, with what each takes; six fields put seconds first. */
const FIELDS = [
  { name: "minute", takes: "0-59" },
  { name: "hour", takes: "0-23 (or 24, midnight)" },
  { name: "day-of-month", takes: "1-31, or L or -1 for the last (-2 the one before)" },
  { name: "month", takes: "1-12 or JAN-DEC" },
  { name: "day-of-week", takes: "0-7 or SUN-SAT, with 5#2 or 5#L (5#-1) for the second or last Friday" },
];
const SECONDS = { name: "second", takes: "0-59" };
const FIELD_FORMS = "*, a value, or a range, list or step of values (1-5, 1,15, */10)";

/**
 * Which field of an expression that does not parse is wrong: each field is
 * tried alone, the others made `*`. Several wrong fields are all named.
 */
function fieldProblem(fields: string[]): string {
  const named = fields.length === 6 ? [SECONDS, ...FIELDS] : FIELDS;
  const wrong = fields.flatMap((field, index) => {
    const alone = fields.map((_, at) => (at === index ? field : "*"));
    return parses(alone) ? [] : [`the ${named[index]!.name} field (${JSON.stringify(field)}) takes ${FIELD_FORMS} of ${named[index]!.takes}`];
  });
  return wrong.length > 0 ? wrong.join("; ") : `its fields are valid one by one but not together (${FIELD_FORMS})`;
}
