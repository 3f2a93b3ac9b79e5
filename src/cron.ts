/**
 * Cron expressions and time zones as pipeline schedules read them, for the
 * resource's `check` (preview): what it accepts the server must accept, and
 * what the server accepts it must accept. The emulator reads them in its own
 * code, and test/emulator/restated-facts.test.ts compares the two.
 *
 * The real server validates with Fugit (`Gitlab::Ci::CronParser` parses
 * `"<cron> UTC"` with `Fugit::Cron.parse`), whose grammar is read here:
 * five fields (minute hour day-of-month month day-of-week), or six with
 * seconds first, or a nickname (`@daily`, lower case). Each field is a list
 * of elements (commas may repeat, and lead or trail): `*`, a value or a range
 * (ranges wrap around: `fri-mon`, `dec-feb`, `50-10`), each with an optional
 * step of one or two digits, or a step alone (`/15`). Hours run to 24
 * (midnight); days of the month may be `L`/`last` or negative (counted from
 * the end); a weekday may take `#n` (`#-1`, `#L`: the last) or `%n+m` (every
 * nth week); an `&` after the day-of-month or weekday list asks for both day
 * fields at once. Then the values: a step of 0 or a range from a negative day
 * to a positive one makes the parser fail, and days that fall in none of the
 * months named (the 30th of February) make the expression invalid.
 *
 * The zone is either an IANA identifier (TZInfo, which `Intl` carries) or one
 * of the framework's zone names, Rails' `ActiveSupport::TimeZone::MAPPING`
 * ("Pacific Time (US & Canada)"): the server turns those into their IANA
 * identifier with `ActiveSupport::TimeZone.find_tzinfo` before parsing. The
 * mapping comes from the `rails-timezone` package, which carries Rails' table.
 */
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
  const text = cron.trim();
  if (text === "") return `a cron expression is required. ${CRON_RULE}`;
  if (text.startsWith("@")) {
    const [nickname, ...rest] = text.split(/\s+/);
    if (rest.length > 0 || !NICKNAMES.has(nickname!)) return invalid(`the nicknames are ${[...NICKNAMES].join(", ")}, in lower case`);
    return undefined;
  }
  // The server appends " UTC" to the expression as given: blanks after it other than spaces break the zone's separator.
  if (/[^\S ] *$/.test(cron)) return invalid("it ends with a tab or a line break, which the server reads as part of it");
  const fields = fieldsOf(cron.trimStart());
  if (!fields) {
    const parts = text.split(/[ \t]+/);
    if (parts.length !== 5 && parts.length !== 6) return invalid(`it has ${parts.length} field${parts.length === 1 ? "" : "s"}`);
    if (parts.some((part) => /[?W]/i.test(part)) || /\dL/i.test(parts.at(-1)!)) {
      return invalid("W, ? and a weekday's L (5L) are not read by the server; for the last Friday write 5#L");
    }
    return invalid(fieldProblem(parts));
  }
  const named = fields.length === 6 ? [SECONDS, ...FIELDS] : FIELDS;
  const wrong = fields.flatMap((elements, index) => elements.flatMap((element) => {
    const problem = elementProblem(element, named[index]!);
    return problem ? [`the ${named[index]!.name} field's ${JSON.stringify(element)} ${problem}`] : [];
  }));
  const weekdays = weekdayListProblem(fields.at(-1)!);
  if (weekdays) wrong.push(weekdays);
  if (wrong.length > 0) return invalid(wrong.join("; "));
  if (!someDayInMonths(fields.at(-3)!, fields.at(-2)!)) return invalid("no month it names has a day it names (as the 30th of February)");
  return undefined;
}

const NICKNAMES = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@noon", "@hourly"]);

/** A field's rule: the text of one value, its range, how a value reads. */
interface Field {
  name: string;
  takes: string;
  value: string;
  min: number;
  max: number;
  read: (text: string) => number;
}
const MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const number = (text: string) => Number(text);
const SECONDS: Field = { name: "second", takes: "0-59", value: "[0-5]?\\d", min: 0, max: 59, read: number };
/** The fields in order, with what each takes; six fields put seconds first. */
const FIELDS: Field[] = [
  { name: "minute", takes: "0-59", value: "[0-5]?\\d", min: 0, max: 59, read: number },
  { name: "hour", takes: "0-23 (or 24, midnight)", value: "2[0-4]|[01]?[0-9]", min: 0, max: 23, read: number },
  {
    name: "day-of-month",
    takes: "1-31, or L or -1 for the last (-2 the one before)",
    value: "-?(?:3[01]|[12][0-9]|0?[1-9])|last|l",
    min: 1,
    max: 31,
    read: (text) => (/^l/i.test(text) ? -1 : Number(text)),
  },
  {
    name: "month",
    takes: "1-12 or JAN-DEC",
    value: `1[0-2]|0?[1-9]|${MONTH_NAMES.join("|")}`,
    min: 1,
    max: 12,
    read: (text) => (/^\d/.test(text) ? Number(text) : MONTH_NAMES.indexOf(text.toLowerCase()) + 1),
  },
  {
    name: "day-of-week",
    takes: "0-7 or SUN-SAT, with 5#2 or 5#L (5#-1) for the second or last Friday",
    value: `[0-7]|${WEEKDAY_NAMES.join("|")}`,
    min: 0,
    max: 7,
    read: (text) => (/^\d/.test(text) ? Number(text) : WEEKDAY_NAMES.indexOf(text.toLowerCase())),
  },
];
const FIELD_FORMS = "*, a value, or a range, list or step of values (1-5, 1,15, */10)";

/** One element of a field: `*`, a value or a range, with an optional step, or a step alone. */
const elementOf = (field: Field) => `(?:/\\d\\d?|(?:\\*|(?:${field.value})(?:-(?:${field.value}))?)(?:/\\d\\d?)?)`;
/** The weekday's elements besides those: the nth of the month, and every nth week. */
const weekdayElement = (field: Field) => `(?:(?:${field.value})#(?:-?[1-5]|last|l)|(?:${field.value})%\\d+(?:\\+\\d+)?|${elementOf(field)})`;
/** Commas between a field's elements: they may repeat, with blanks between them. */
const SEPARATOR = /,(?:[ \t]*,)*/y;
/** Commas that lead or trail a field's list. */
const EDGE_COMMAS = /(?:[ \t]*,)*/y;
const FIELD_SEPARATOR = /[ \t]+/y;
const AND = /&?/y;
const ZONE = / +UTC$/iy;
const ELEMENTS = new Map<Field, RegExp>();

/**
 * The expression of five or six fields as the server's parser reads it, with
 * " UTC" after it: each field's elements, or undefined. The parser is Fugit's,
 * a parsing expression grammar: each piece takes what it matches and never
 * gives it back, except a list's last comma when no element follows it. Read
 * piece by piece, in one pass, so that no text takes longer than its length.
 */
function fieldsOf(text: string): string[][] | undefined {
  const whole = `${text} UTC`;
  for (const layout of [[SECONDS, ...FIELDS], FIELDS]) {
    let at = 0;
    const eat = (pattern: RegExp): string | undefined => {
      pattern.lastIndex = at;
      const match = pattern.exec(whole);
      if (!match) return undefined;
      at += match[0].length;
      return match[0];
    };
    const fields: string[][] = [];
    for (const [index, field] of layout.entries()) {
      let element = ELEMENTS.get(field);
      if (!element) ELEMENTS.set(field, (element = new RegExp(field.name === "day-of-week" ? weekdayElement(field) : elementOf(field), "iy")));
      eat(EDGE_COMMAS);
      const first = eat(element);
      if (first === undefined) break;
      const elements = [first];
      for (;;) {
        const before = at;
        if (eat(SEPARATOR) === undefined) break;
        const next = eat(element);
        if (next === undefined) {
          at = before;
          break;
        }
        elements.push(next);
      }
      eat(EDGE_COMMAS);
      if (field.name === "day-of-month" || field.name === "day-of-week") eat(AND);
      if (index < layout.length - 1 && eat(FIELD_SEPARATOR) === undefined) break;
      fields.push(elements);
    }
    if (fields.length === layout.length && eat(ZONE) !== undefined) return fields;
  }
  return undefined;
}

/** An element's bounds and step, as the server reads them; undefined for a weekday's `#n` or `%n`. */
function boundsOf(element: string, field: Field): { start?: number; end?: number; step?: number } | undefined {
  const match = /^(?:\*|(-?[^-/]+)(?:-([^/]+))?)?(?:\/(\d+))?$/.exec(element);
  if (!match || /[#%]/.test(element)) return undefined;
  return {
    ...(match[1] === undefined ? {} : { start: field.read(match[1]) }),
    ...(match[2] === undefined ? {} : { end: field.read(match[2]) }),
    ...(match[3] === undefined ? {} : { step: Number(match[3]) }),
  };
}

/**
 * An element as the server's expansion reads it: any value (null), one value,
 * or a span from `start` to `end` by `step`, its bounds resolved as the
 * server resolves them (a step runs to the field's end; so does a range from
 * a positive day to a negative one). Undefined for a weekday's `#n` or `%n`.
 */
function expansionOf(element: string, field: Field): null | number | { start: number; end: number; step: number } | undefined {
  const bounds = boundsOf(element, field);
  if (!bounds) return undefined;
  let { start, end } = bounds;
  const { step } = bounds;
  if (step !== undefined && end === undefined) end = field.max;
  if (start === undefined && end === undefined) return null;
  if (end === undefined) return start!;
  start ??= field.min;
  if (end < 0 && start > 0) end = field.max;
  return { start, end, step: step ?? 1 };
}

/** Why the server's expansion of an element fails (its parser then raises), or undefined. */
function elementProblem(element: string, field: Field): string | undefined {
  if (field.name === "day-of-week") return undefined; // a weekday's step of 0 counts as 1
  const span = expansionOf(element, field);
  if (span === undefined || span === null || typeof span === "number") return undefined;
  if (span.step === 0) return "takes no step of 0";
  if (span.start < 0 && span.end > 0) return "runs from a day counted from the end to one counted from the start";
  return undefined;
}

/** Why the server's sorting of a weekday list fails (a day given both as `#n` and as `%n`), or undefined. */
function weekdayListProblem(elements: string[]): string | undefined {
  const day = (element: string) => FIELDS[4]!.read(element.split(/[#%]/)[0]!) % 7;
  const nth = new Set(elements.filter((element) => element.includes("#")).map(day));
  const clash = elements.find((element) => element.includes("%") && nth.has(day(element)));
  return clash === undefined ? undefined : `the day-of-week field gives day ${day(clash)} both as the nth of the month (#) and as every nth week (%), which the server cannot order`;
}

/** The values an element of the day-of-month or month field stands for, as the server expands them (null: any). */
function valuesOf(element: string, field: Field): number[] | null {
  const span = expansionOf(element, field)!;
  if (span === null) return null;
  if (typeof span === "number") return [span];
  const { start, end, step } = span;
  const [min, max] = start < 0 ? [-field.max, -1] : [field.min, field.max];
  if (start === field.min && end === field.max && step === 1) return null;
  const values: number[] = [];
  let last = end;
  for (let value = start; values.length <= 2 * field.max; ) {
    values.push(value);
    if (value === last) break;
    value += 1;
    if (value > max) {
      value = min;
      if (last > max) last = last - max - 1;
    }
  }
  return values.filter((_, index) => index % (step || 1) === 0);
}

/** The most days each month has (February's 29). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether some month the expression names has some day of the month it names (both restricted), as the server requires. */
function someDayInMonths(dayElements: string[], monthElements: string[]): boolean {
  const days = anyOrValues(dayElements, FIELDS[2]!);
  const months = anyOrValues(monthElements, FIELDS[3]!);
  if (days === null || months === null) return true;
  return months.some((month) => days.some((day) => day <= MONTH_DAYS[month - 1]!));
}

function anyOrValues(elements: string[], field: Field): number[] | null {
  const all: number[] = [];
  for (const element of elements) {
    const values = valuesOf(element, field);
    if (values === null) return null;
    all.push(...values);
  }
  return all;
}

/**
 * Which field of an expression that does not parse is wrong: each field is
 * tried alone, the others made `*`. Several wrong fields are all named.
 */
function fieldProblem(parts: string[]): string {
  const named = parts.length === 6 ? [SECONDS, ...FIELDS] : FIELDS;
  const wrong = parts.flatMap((part, index) => {
    const alone = parts.map((_, at) => (at === index ? part : "*"));
    return fieldsOf(alone.join(" ")) ? [] : [`the ${named[index]!.name} field (${JSON.stringify(part)}) takes ${FIELD_FORMS} of ${named[index]!.takes}`];
  });
  return wrong.length > 0 ? wrong.join("; ") : `its fields are valid one by one but not together (${FIELD_FORMS})`;
}
