/**
 * Cron expressions and time zones as the server reads a pipeline schedule's:
 * its own reading, so that what the provider accepts at preview is checked
 * against a second statement of the rules rather than the same code.
 *
 * The server appends the zone to the expression and parses the whole
 * (`"<cron> <zone>"`), so an expression is valid when it parses with UTC, and
 * a zone when `* * * * *` parses with it. The text is stripped first; a text
 * starting with `@` is a nickname (`@yearly @annually @monthly @weekly @daily
 * @midnight @noon @hourly`, lower case exactly; `@noon` is `0 12 * * *`).
 * Otherwise it has five fields (minute hour day-of-month month day-of-week) or
 * six with seconds first, separated by blanks or tabs, and the zone follows
 * after spaces. The grammar is read as a parsing-expression grammar: each
 * piece takes the longest text its own pattern takes, never giving any back;
 * six fields are tried before five, the first that parses is kept, and it
 * must use up the whole text.
 *
 * A field is a list: commas may repeat, with blanks between them, and a list
 * may start or end with commas. An element is a step alone (`/15`, read as
 * `*\/15`), or `*`, a value, or a range, each with an optional step of one or
 * two digits. A value with a step runs from the value to the field's end
 * (`5/15` is 5,20,35,50); a range whose end is below its start wraps around
 * (`50-10` minutes, `dec-feb`); a step of 0 is refused. Hours run to 24
 * (24 is 0). A day of the month is 1-31, `L`/`last`, or negative, counted from
 * the end (`-1` the last day): a range of two negatives is fine, a positive
 * start with a negative end runs to the month's end, and a negative start with
 * a positive end is refused. Months are 1-12 or names, weekdays 0-7 (0 and 7
 * Sunday) or names, names being the English names' first three letters. A
 * weekday may be `day#n` (the nth of the month, `#-1`/`#L` the last), or
 * `day%m` / `day%m+o` (the weeks whose reference week, counted from the week
 * of 2019-01-01 at noon in the zone, is o modulo m); a weekday range wraps
 * around (`fri-mon`), a stepped one does not, a single weekday with a step
 * (`3/2`) is that day alone, and a step of 0 there is 1. Where one weekday
 * has several forms only the first in order counts (the plain day, else the
 * lowest `#n`, else the lowest `%m+o`), and a weekday with both `#` and `%`
 * forms is refused. An element covering a whole field (`*`, `0-59`, `*\/1`,
 * `1-L`) makes that field unrestricted, except among weekdays, where `*`
 * adds none and `*\/1` names all seven. When months and
 * days of the month are both restricted, the pairs whose day is past the
 * month's longest (February 29) are dropped; an expression left with none is
 * refused. When both day fields are restricted a day matching either runs,
 * unless `&` follows the day-of-month list or ends the weekday list: then a
 * day must match both.
 *
 * The next run is found by the server's walk from the present: from the
 * current time it advances to the next month, day, hour, minute or second
 * that could match until every field matches, in the schedule's zone. A wall
 * time the clocks skip is passed over; a repeated one runs at its first
 * occurrence, and at its second when the walk starts between the two. A
 * walk that takes more than 2048 steps, or meets a `%0` weekday, fails on
 * the server (which then fails the save); here the schedule has no next run.
 *
 * A zone is one of the framework's zone names ("Pacific Time (US & Canada)",
 * mapped to its tz identifier) or a tz identifier itself, spelled as the
 * database spells it (`Europe/Berlin`, `UTC`; not `utc`).
 */
import * as railsTimeZone from "rails-timezone";

/** The nicknames, as the five fields they stand for. */
const NICKNAMES: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@noon": "0 12 * * *",
  "@hourly": "0 * * * *",
};

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
/** The longest each month can be (February in a leap year). */
const MAXDAYS = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

type Field = "seconds" | "minutes" | "hours" | "monthdays" | "months" | "weekdays";

/** Each field's value pattern (sticky: matched where the reader stands) and its smallest and largest value. */
const FIELDS: Record<Field, { value: RegExp; min: number; max: number }> = {
  seconds: { value: /[0-5]?\d/y, min: 0, max: 59 },
  minutes: { value: /[0-5]?\d/y, min: 0, max: 59 },
  hours: { value: /(?:2[0-4]|[01]?[0-9])/y, min: 0, max: 23 },
  monthdays: { value: /(?:-?(?:3[01]|[12][0-9]|0?[1-9])|last|l)/iy, min: 1, max: 31 },
  months: { value: new RegExp(`(?:1[0-2]|0?[1-9]|${MONTHS.join("|")})`, "iy"), min: 1, max: 12 },
  weekdays: { value: new RegExp(`(?:[0-7]|${WEEKDAYS.join("|")})`, "iy"), min: 0, max: 6 },
};

const STEP = /\/\d\d?/y;
const NTH = /#(?:-?[1-5]|last|l)/iy;
const MODULO = /%\d+(?:\+\d+)?/y;
const COMMAS = /,(?:[ \t]*,)*/y;
const COMMAS_MAYBE = /(?:[ \t]*,)*/y;
const AND_MAYBE = /&?/y;
const BLANKS = /[ \t]+/y;
const ZONE_OFFSET = / +[-+](?:[01][0-9]|2[0-4]):?(?:00|15|30|45)/y;
const ZONE_NAME = / +[A-Z][a-zA-Z0-9+-]+(?:\/[A-Z][a-zA-Z0-9+\-_]+){0,2}/y;

/** The end of the text `pattern` takes at `at`, and that text; undefined when it takes none there. */
function take(pattern: RegExp, text: string, at: number): { end: number; text: string } | undefined {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  return match ? { end: at + match[0].length, text: match[0] } : undefined;
}

/** One element of a field: a start, an end, a step, a weekday's nth or its modulo and offset. */
interface Element {
  from?: number;
  to?: number;
  step?: number;
  nth?: number;
  modulo?: [bigint, bigint];
}

function boundOf(field: Field, text: string): number {
  const lower = text.toLowerCase();
  if (field === "months" && MONTHS.includes(lower)) return MONTHS.indexOf(lower) + 1;
  if (field === "weekdays" && WEEKDAYS.includes(lower)) return WEEKDAYS.indexOf(lower);
  if (field === "monthdays" && lower.startsWith("l")) return -1;
  return Number(text);
}

/** The element at `at`: a weekday with `#` or `%`, a step alone, or `*`, a value or a range with an optional step. */
function elementAt(field: Field, text: string, at: number): { end: number; element: Element } | undefined {
  const rule = FIELDS[field];
  if (field === "weekdays") {
    const day = take(rule.value, text, at);
    if (day) {
      const nth = take(NTH, text, day.end);
      if (nth) {
        const n = /^#l/i.test(nth.text) ? -1 : Number(nth.text.slice(1));
        return { end: nth.end, element: { from: boundOf(field, day.text), nth: n } };
      }
      const modulo = take(MODULO, text, day.end);
      if (modulo) {
        const [divisor, offset] = modulo.text.slice(1).split("+");
        return { end: modulo.end, element: { from: boundOf(field, day.text), modulo: [BigInt(divisor!), BigInt(offset ?? 0)] } };
      }
    }
  }
  const stepAlone = take(STEP, text, at);
  if (stepAlone) return { end: stepAlone.end, element: { step: Number(stepAlone.text.slice(1)) } };
  const element: Element = {};
  let end: number;
  if (text[at] === "*") end = at + 1;
  else {
    const from = take(rule.value, text, at);
    if (!from) return undefined;
    element.from = boundOf(field, from.text);
    end = from.end;
    const to = text[end] === "-" ? take(rule.value, text, end + 1) : undefined;
    if (to) {
      element.to = boundOf(field, to.text);
      end = to.end;
    }
  }
  const step = take(STEP, text, end);
  if (step) {
    element.step = Number(step.text.slice(1));
    end = step.end;
  }
  return { end, element };
}

/**
 * A field's list at `at`: optional leading commas, elements joined by commas,
 * optional trailing commas, an optional `&` where allowed, then blanks unless
 * it is the last field.
 */
function listAt(field: Field, text: string, at: number): { end: number; elements: Element[] } | undefined {
  let end = take(COMMAS_MAYBE, text, at)!.end;
  const first = elementAt(field, text, end);
  if (!first) return undefined;
  const elements = [first.element];
  end = first.end;
  for (;;) {
    const comma = take(COMMAS, text, end);
    const next = comma && elementAt(field, text, comma.end);
    if (!next) break;
    elements.push(next.element);
    end = next.end;
  }
  end = take(COMMAS_MAYBE, text, end)!.end;
  if (field === "monthdays" || field === "weekdays") end = take(AND_MAYBE, text, end)!.end;
  if (field === "weekdays") return { end, elements };
  const blanks = take(BLANKS, text, end);
  return blanks && { end: blanks.end, elements };
}

type Lists = Partial<Record<Field, Element[]>>;

/** The lists of the given fields in order, then an optional zone; undefined when they do not parse in sequence. */
function fieldsAt(fields: Field[], text: string): { end: number; lists: Lists } | undefined {
  const lists: Lists = {};
  let end = 0;
  for (const field of fields) {
    const list = listAt(field, text, end);
    if (!list) return undefined;
    lists[field] = list.elements;
    end = list.end;
  }
  end = (take(ZONE_OFFSET, text, end) ?? take(ZONE_NAME, text, end))?.end ?? end;
  return { end, lists };
}

const CLASSIC: Field[] = ["minutes", "hours", "monthdays", "months", "weekdays"];

/** A whole line's lists: six fields are tried first, and the first form that parses must use up the text. */
function lineLists(line: string): Lists | undefined {
  const parsed = fieldsAt(["seconds", ...CLASSIC], line) ?? fieldsAt(CLASSIC, line);
  return parsed && parsed.end === line.length ? parsed.lists : undefined;
}

/** An expression the server's parser raises on: it is refused. */
class Refused extends Error {}

/** The values a field's numeric element covers, in order; `[null]` for the whole field. */
function expand(min: number, max: number, { from, to, step }: Element): number | (number | null)[] | null {
  if (step !== undefined && to === undefined) to = max;
  if (from === undefined && to === undefined && step === undefined) return null;
  if (from !== undefined && to === undefined) return from;
  const by = step ?? 1;
  const start = from ?? min;
  const end = to === undefined || (to < 0 && start > 0) ? max : to;
  return valuesBetween(min, max, start, end, by);
}

/** The values from `start` to `end`, wrapping past the field's largest, every `by`th one. */
function valuesBetween(min: number, max: number, start: number, end: number, by: number): (number | null)[] {
  if (start === min && end === max && by === 1) return [null];
  if ((start < 0 && end > 0) || (end < 0 && start > 0)) throw new Refused("both start and end must be negative");
  if (by === 0) throw new Refused("a step of 0");
  const all: number[] = [];
  const longest = 2 * max;
  const [low, high] = start < 0 ? [-max, -1] : [min, max];
  let current = start;
  for (;;) {
    all.push(current);
    if (current === end) break;
    current += 1;
    if (current > high) {
      current = low;
      if (end > high) end = end - high - 1;
    }
    if (all.length > longest) throw new Refused("a range that does not end");
  }
  return [...new Set(all.filter((_, index) => index % by === 0))];
}

/** A numeric field's values, in order; null when every value matches. */
function valuesOf(field: Exclude<Field, "weekdays">, elements: Element[]): number[] | null {
  const { min, max } = FIELDS[field];
  let whole = false;
  const values: number[] = [];
  for (const element of elements) {
    const expanded = expand(min, max, element);
    for (const value of Array.isArray(expanded) ? expanded : [expanded]) {
      if (value === null) whole = true;
      else values.push(field === "hours" && value === 24 ? 0 : value);
    }
  }
  return whole ? null : [...new Set(values)].sort((a, b) => a - b);
}

/** A weekday entry: the day, and the nth of the month or the modulo and offset of the reference week when given. */
type Weekday = { day: number; nth?: number; modulo?: [bigint, bigint] };

const compareBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
function compareWeekdays(a: Weekday, b: Weekday): number {
  if (a.day !== b.day) return a.day - b.day;
  const [aMore, bMore] = [a.nth !== undefined || a.modulo !== undefined, b.nth !== undefined || b.modulo !== undefined];
  if (!aMore || !bMore) return Number(aMore) - Number(bMore);
  if (a.nth !== undefined && b.nth !== undefined) return a.nth - b.nth;
  return compareBig(a.modulo![0], b.modulo![0]) || compareBig(a.modulo![1], b.modulo![1]);
}

/** Each weekday's entry that counts (the first in order), or null when any weekday matches. */
function weekdaysOf(elements: Element[]): Map<number, Weekday> | null {
  const entries: Weekday[] = [];
  for (const { from, to, step, nth, modulo } of elements) {
    if (nth !== undefined) entries.push({ day: from!, nth });
    else if (modulo !== undefined) entries.push({ day: from!, modulo });
    else if (step !== undefined) {
      for (let day = from ?? 0; day <= (to ?? from ?? 6); day += Math.max(step, 1)) entries.push({ day });
    } else if (to !== undefined) {
      for (let day = from!; day <= (from! > to ? to + 7 : to); day++) entries.push({ day: day > 6 ? day - 7 : day });
    } else if (from !== undefined) entries.push({ day: from });
  }
  const unique = new Map<string, Weekday>();
  for (const entry of entries) {
    const day = entry.day === 7 ? 0 : entry.day;
    const normal: Weekday = entry.nth !== undefined ? { day, nth: entry.nth } : entry.modulo ? { day, modulo: entry.modulo } : { day };
    unique.set(`${day}|${normal.nth ?? ""}|${normal.modulo?.join("+") ?? ""}`, normal);
  }
  if (unique.size === 0) return null;
  const sorted = [...unique.values()];
  const withNth = new Set(sorted.filter((entry) => entry.nth !== undefined).map((entry) => entry.day));
  if (sorted.some((entry) => entry.modulo !== undefined && withNth.has(entry.day))) throw new Refused("a weekday with both # and %");
  sorted.sort(compareWeekdays);
  const counting = new Map<number, Weekday>();
  for (const entry of sorted) if (!counting.has(entry.day)) counting.set(entry.day, entry);
  return counting;
}

/** A parsed expression: each field's values (null: any), and whether both day fields must match. */
export interface CronPattern {
  seconds: number[] | null;
  minutes: number[] | null;
  hours: number[] | null;
  monthdays: number[] | null;
  months: number[] | null;
  weekdays: Map<number, Weekday> | null;
  bothDays: boolean;
}

/** Drops the month and day pairs no month can hold; false when none is left. */
function compactMonthDays(pattern: CronPattern): boolean {
  if (pattern.months === null || pattern.monthdays === null) return true;
  const months = new Set<number>();
  const days = new Set<number>();
  for (const month of pattern.months) {
    for (const day of pattern.monthdays) {
      if (day > MAXDAYS[month]!) continue;
      months.add(month);
      days.add(day);
    }
  }
  pattern.months = [...months];
  pattern.monthdays = [...days];
  return months.size > 0 && days.size > 0;
}

/** Ruby's String#strip: ASCII blanks and NUL at both ends. */
const strip = (text: string) => text.replace(/^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g, "");

/** An expression's pattern, or undefined when the server would refuse it. */
export function parseCron(cron: string): CronPattern | undefined {
  let line = strip(`${cron} UTC`);
  if (line.startsWith("@")) {
    const [, nickname, rest] = /^([^\t\n\v\f\r ]+)[\t\n\v\f\r ]+(.*)$/s.exec(line)!;
    const fields = NICKNAMES[nickname!];
    if (fields === undefined) return undefined;
    line = `${fields} ${rest}`;
  }
  const lists = lineLists(line);
  if (!lists) return undefined;
  try {
    const pattern: CronPattern = {
      seconds: valuesOf("seconds", lists.seconds ?? [{ from: 0 }]),
      minutes: valuesOf("minutes", lists.minutes!),
      hours: valuesOf("hours", lists.hours!),
      monthdays: valuesOf("monthdays", lists.monthdays!),
      months: valuesOf("months", lists.months!),
      weekdays: weekdaysOf(lists.weekdays!),
      bothDays: line.includes("&"),
    };
    return compactMonthDays(pattern) ? pattern : undefined;
  } catch (error) {
    if (error instanceof Refused) return undefined;
    throw error;
  }
}

/** The shape of a tz identifier the parser takes: capitalised segments, at most three. */
const ZONE_SHAPE = /^[A-Z][A-Za-z0-9+-]+(\/[A-Z][A-Za-z0-9+_-]+){0,2}$/;
const frameworkZones = new Set(railsTimeZone.list());

/** The tz identifier a schedule's zone stands for, or undefined when the server does not know it. */
export function zoneIdentifier(zone: string): string | undefined {
  const identifier = frameworkZones.has(zone) ? railsTimeZone.from(zone) : zone;
  if (!ZONE_SHAPE.test(identifier)) return undefined;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: identifier });
    return identifier;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// The next run

/** A wall-clock time in a zone, as milliseconds of a UTC date with the same fields. */
type Wall = number;

const formats = new Map<string, Intl.DateTimeFormat>();
function wallOf(instant: number, zone: string): Wall {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The first instant showing a wall time in the zone, or undefined when the clocks skip it. */
function instantOf(wall: Wall, zone: string): number | undefined {
  const offsets = new Set([wall - 86_400_000, wall + 86_400_000].map((near) => wallOf(near, zone) - near));
  const instants = [...offsets].map((offset) => wall - offset).filter((instant) => wallOf(instant, zone) === wall);
  return instants.length === 0 ? undefined : Math.min(...instants);
}

const daysInMonth = (wall: Wall) => {
  const date = new Date(wall);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
};

/** The instant of a wall time in the zone; past a gap in the clocks, the instant the clocks jump to. */
function localInstant(wall: Wall, zone: string): number {
  const instant = instantOf(wall, zone);
  if (instant !== undefined) return instant;
  const before = wall - 86_400_000;
  return wall - (wallOf(before, zone) - before);
}

/** The week counted from the week of 2019-01-01 (week 1), noon to noon, in the zone. */
function referenceWeek(wall: Wall, zone: string): bigint {
  const date = new Date(wall);
  const noon = localInstant(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 12), zone);
  const reference = localInstant(Date.UTC(2019, 0, 1, 12), zone);
  return BigInt(Math.floor((noon - reference) / 604_800_000) + 1);
}

/** Ruby's modulo: the sign of the divisor; a divisor of 0 fails. */
function modulo(value: bigint, divisor: bigint): bigint {
  if (divisor === 0n) throw new NoNextRun("modulo 0");
  return ((value % divisor) + divisor) % divisor;
}

function weekdayMatches(weekdays: CronPattern["weekdays"], wall: Wall, zone: string): boolean {
  if (weekdays === null) return true;
  const date = new Date(wall);
  const entry = weekdays.get(date.getUTCDay());
  if (entry === undefined) return false;
  if (entry.modulo !== undefined) {
    const [divisor, offset] = entry.modulo;
    return modulo(referenceWeek(wall, zone), divisor) === modulo(offset, divisor);
  }
  if (entry.nth === undefined) return true;
  const day = date.getUTCDate();
  return entry.nth > 0 ? entry.nth === Math.ceil(day / 7) : entry.nth === -Math.ceil((daysInMonth(wall) - day + 1) / 7);
}

function monthdayMatches(monthdays: CronPattern["monthdays"], wall: Wall): boolean {
  if (monthdays === null) return true;
  const day = new Date(wall).getUTCDate();
  const last = daysInMonth(wall) + 1;
  return monthdays.some((value) => (value < 1 ? last + value : value) === day);
}

function dayMatches(pattern: CronPattern, wall: Wall, zone: string): boolean {
  if (pattern.weekdays !== null && pattern.monthdays !== null) {
    if (pattern.bothDays) return weekdayMatches(pattern.weekdays, wall, zone) && monthdayMatches(pattern.monthdays, wall);
    return weekdayMatches(pattern.weekdays, wall, zone) || monthdayMatches(pattern.monthdays, wall);
  }
  return weekdayMatches(pattern.weekdays, wall, zone) && monthdayMatches(pattern.monthdays, wall);
}

/** A walk the server gives up (too many steps, a modulo of 0). */
class NoNextRun extends Error {}

/** How many steps the walk takes before giving up. */
const MAX_STEPS = 2048;

const matches = (values: number[] | null, value: number) => values === null || values.includes(value);

/** The next run strictly after `from`, or null for an expression or zone the server refuses, or a walk it gives up. */
export function nextRun(cron: string, zone: string, from: Date): Date | null {
  const pattern = parseCron(cron);
  const identifier = zoneIdentifier(zone);
  if (!pattern || !identifier) return null;
  try {
    return new Date(walk(pattern, identifier, Math.floor(from.getTime() / 1000)) * 1000);
  } catch (error) {
    if (error instanceof NoNextRun) return null;
    throw error;
  }
}

/** The walk, in whole seconds: each step moves to where the first field that does not match could. */
function walk(pattern: CronPattern, zone: string, start: number): number {
  const wall = (seconds: number) => wallOf(seconds * 1000, zone);
  const offset = (seconds: number) => wall(seconds) - seconds * 1000;
  // The server's own clock reads UTC: a run at the wall time the start shows in UTC,
  // but at another offset than the zone had at the start, is the same time again.
  let [after, afterWall, afterOffset] = [start, start * 1000, offset(start)];
  let time = start;
  for (let steps = 1; ; steps++) {
    if (steps > MAX_STEPS) throw new NoNextRun("too many steps");
    if (time === after) {
      time += 1;
      continue;
    }
    const now = wall(time);
    const date = new Date(now);
    const [hour, minute, second] = [date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()];
    if (!matches(pattern.months, date.getUTCMonth() + 1)) {
      time = localInstant(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1), zone) / 1000;
    } else if (!dayMatches(pattern, now, zone)) {
      time = nextDay(time, zone);
    } else if (!matches(pattern.hours, hour)) {
      time += (60 - minute) * 60 - second;
    } else if (!matches(pattern.minutes, minute)) {
      time += 60 - second;
    } else if (!matches(pattern.seconds, second)) {
      const next = pattern.seconds!.find((value) => value > second);
      time += next === undefined ? 60 - second + pattern.seconds![0]! : next - second;
    } else if (now === afterWall && offset(time) !== afterOffset) {
      [after, afterWall, afterOffset] = [time, now, offset(time)];
    } else {
      return time;
    }
  }
}

/** The next day's midnight, as the server's walk reaches it across a change of the clocks. */
function nextDay(time: number, zone: string): number {
  const before = new Date(wallOf(time * 1000, zone));
  let next = time + (24 - before.getUTCHours()) * 3600 - before.getUTCMinutes() * 60 - before.getUTCSeconds();
  const landed = new Date(wallOf(next * 1000, zone));
  const hour = landed.getUTCHours();
  if (hour === 0) return next;
  if (hour < 12) {
    const midnight = instantOf(Date.UTC(landed.getUTCFullYear(), landed.getUTCMonth(), landed.getUTCDate()), zone);
    return midnight === undefined ? next + (24 - hour) * 3600 : midnight / 1000;
  }
  next += (24 - hour) * 3600;
  return next;
}
