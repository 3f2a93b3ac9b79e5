/**
 * Cron expressions and time zones as the server reads a pipeline schedule's:
 * its own reading, so that what the provider accepts at preview is checked
 * against a second statement of the rules rather than the same code.
 *
 * The server appends the zone to the expression and parses the whole
 * (`"<cron> <zone>"`), so an expression is valid when it parses with UTC, and
 * a zone when `* * * * *` parses with it. An expression has five fields
 * (minute hour day-of-month month day-of-week), or six with seconds first, or
 * is a nickname (`@daily`). A field is a list of `*`, a value or a range
 * (`1-5`; a reversed range is read forwards), each with an optional step of
 * one or two digits (`*\/15`, `1-30/2`; a step after a single value leaves the
 * value alone). Hours run to 24 (midnight); months and weekdays take their
 * English names' first three letters; weekdays run 0-7 (both 0 and 7 are
 * Sunday) and one weekday may take `#n` (the nth of the month, `#-1` or `#L`
 * the last); a day of the month may be `L` or `last`, or negative, counted from
 * the end (`-1` the last day). When both day fields are restricted, a day
 * matching either runs.
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
  "@hourly": "0 * * * *",
};

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/** Each field's values: the text a value may be, its smallest and largest value, and how a value's text reads. */
interface FieldRule {
  value: string;
  min: number;
  max: number;
  read: (text: string) => number;
}

const number = (text: string) => Number(text);
const SECOND_OR_MINUTE: FieldRule = { value: "[0-5]?\\d", min: 0, max: 59, read: number };
const HOUR: FieldRule = { value: "2[0-4]|[01]?\\d", min: 0, max: 23, read: number };
const MONTHDAY: FieldRule = {
  value: "-?(?:3[01]|[012]?\\d)|last|l",
  min: 1,
  max: 31,
  read: (text) => (/^l/i.test(text) ? -1 : Number(text)),
};
const MONTH: FieldRule = {
  value: `1[0-2]|0?\\d|${MONTHS.join("|")}`,
  min: 1,
  max: 12,
  read: (text) => (/^\d/.test(text) ? Number(text) : MONTHS.indexOf(text.toLowerCase()) + 1),
};
const WEEKDAY: FieldRule = {
  value: `[0-7]|${WEEKDAYS.join("|")}`,
  min: 0,
  max: 6,
  read: (text) => (/^\d/.test(text) ? Number(text) : WEEKDAYS.indexOf(text.toLowerCase())),
};

/** The values of a field; null when every value matches. */
type Values = number[] | null;

/** A parsed expression. Weekdays carry their nth of the month when given (`fri#2`: [5, 2]). */
interface CronPattern {
  seconds: Values;
  minutes: Values;
  hours: Values;
  monthdays: Values;
  months: Values;
  weekdays: [day: number, nth?: number][] | null;
}

interface Element {
  from?: number;
  to?: number;
  step?: number;
  nth?: number;
}

/** A field's list of elements, or undefined when the text is not one. */
function elements(text: string, rule: FieldRule, weekday = false): Element[] | undefined {
  const value = `(${rule.value})`;
  const element = new RegExp(`^(?:\\*|${value}(?:-${value})?)(?:/(\\d\\d?))?$`, "i");
  const withNth = new RegExp(`^${value}#(-?[1-5]|last|l)$`, "i");
  const found: Element[] = [];
  for (const part of text.split(",")) {
    const nth = weekday ? withNth.exec(part) : null;
    if (nth) {
      found.push({ from: rule.read(nth[1]!), nth: /^l/i.test(nth[2]!) ? -1 : Number(nth[2]) });
      continue;
    }
    const match = element.exec(part);
    if (!match) return undefined;
    let from = match[1] === undefined ? undefined : rule.read(match[1]);
    let to = match[2] === undefined ? undefined : rule.read(match[2]);
    if (from !== undefined && to !== undefined && from > to) [from, to] = [to, from];
    found.push({ from, to, step: match[3] === undefined ? undefined : Number(match[3]) });
  }
  return found;
}

/** The values a field's elements stand for (null: any), or undefined for a step of 0. */
function expand(list: Element[], rule: FieldRule): Values | undefined {
  const values = new Set<number>();
  for (const { from, to, step: given } of list) {
    const step = given === 1 ? undefined : given;
    if (from === undefined && to === undefined && step === undefined) return null;
    if (from !== undefined && to === undefined) {
      values.add(from);
      continue;
    }
    if (step === 0) return undefined;
    for (let value = from ?? rule.min; value <= (to ?? rule.max); value += step ?? 1) values.add(value);
  }
  return [...values].sort((a, b) => a - b);
}

/** The weekdays of a field's elements: 7 read as 0; a bare `*` adds none, and none at all means any. */
function weekdaysOf(list: Element[]): CronPattern["weekdays"] | undefined {
  const days: [number, number?][] = [];
  for (const { from, to, step, nth } of list) {
    if (nth !== undefined) days.push([from!, nth]);
    else if (step !== undefined) {
      for (let day = from ?? 0; day <= (to ?? from ?? 6); day += Math.max(step, 1)) days.push([day]);
    } else if (to !== undefined) {
      for (let day = from!; day <= to; day++) days.push([day]);
    } else if (from !== undefined) days.push([from]);
  }
  const unique = new Map(days.map(([day, nth]) => [day === 7 ? 0 : day, nth] as [number, number | undefined]).map((entry) => [entry.join("#"), entry]));
  return unique.size === 0 ? null : [...unique.values()].map(([day, nth]) => (nth === undefined ? [day] : [day, nth]));
}

/** An expression's pattern, or undefined when the server would refuse it. */
export function parseCron(cron: string): CronPattern | undefined {
  const trimmed = cron.trim();
  const nickname = /^@\w+$/.test(trimmed) ? NICKNAMES[trimmed] : trimmed;
  if (nickname === undefined || nickname === "") return undefined;
  const fields = nickname.split(/[ \t]+/);
  if (fields.length !== 5 && fields.length !== 6) return undefined;
  const [second, minute, hour, monthday, month, weekday] = fields.length === 6 ? fields : ["0", ...fields];
  const lists = [
    elements(second!, SECOND_OR_MINUTE),
    elements(minute!, SECOND_OR_MINUTE),
    elements(hour!, HOUR),
    elements(monthday!, MONTHDAY),
    elements(month!, MONTH),
  ];
  const weekdays = elements(weekday!, WEEKDAY, true);
  if (lists.some((list) => list === undefined) || weekdays === undefined) return undefined;
  const [seconds, minutes, hours, monthdays, months] = lists.map((list, index) => expand(list!, [SECOND_OR_MINUTE, SECOND_OR_MINUTE, HOUR, MONTHDAY, MONTH][index]!));
  if ([seconds, minutes, hours, monthdays, months].some((values) => values === undefined)) return undefined;
  return {
    seconds: seconds!,
    minutes: minutes!,
    // Hour 24 is midnight.
    hours: hours === null ? null : [...new Set(hours!.map((value) => value % 24))].sort((a, b) => a - b),
    monthdays: monthdays!,
    months: months!,
    weekdays: weekdaysOf(weekdays)!,
  };
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

const matches = (values: Values, value: number) => values === null || values.includes(value);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

function dayMatches(pattern: CronPattern, date: Date): boolean {
  const day = date.getUTCDate();
  const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  const monthday = pattern.monthdays === null || pattern.monthdays.some((value) => (value < 1 ? daysInMonth + 1 + value : value) === day);
  const weekday =
    pattern.weekdays === null ||
    pattern.weekdays.some(([value, nth]) => {
      if (value !== date.getUTCDay()) return false;
      if (nth === undefined) return true;
      return nth > 0 ? Math.ceil(day / 7) === nth : -Math.ceil((daysInMonth - day + 1) / 7) === nth;
    });
  return pattern.monthdays !== null && pattern.weekdays !== null ? monthday || weekday : monthday && weekday;
}

/** How far ahead a run is looked for: past it, an expression that matches no date has no next run. */
const SEARCH_DAYS = 366 * 8;

/** The next run strictly after `from`, or null for an expression or zone the server refuses, or one that never runs. */
export function nextRun(cron: string, zone: string, from: Date): Date | null {
  const pattern = parseCron(cron);
  const identifier = zoneIdentifier(zone);
  if (!pattern || !identifier) return null;
  const after = from.getTime();
  const start = wallOf(after, identifier);
  // Wall times before the start are past, unless the clocks went back in the last hours (a time may then come again).
  const hoursAgo = after - 4 * 3_600_000;
  const earliest = wallOf(hoursAgo, identifier) - hoursAgo === start - after ? start + 1 : start - 4 * 3_600_000;
  const firstDay = Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth(), new Date(start).getUTCDate());
  const hours = pattern.hours ?? range(0, 23);
  const minutes = pattern.minutes ?? range(0, 59);
  const seconds = pattern.seconds ?? range(0, 59);
  for (let day = 0; day < SEARCH_DAYS; day++) {
    const midnight = firstDay + day * 86_400_000;
    const date = new Date(midnight);
    if (!matches(pattern.months, date.getUTCMonth() + 1) || !dayMatches(pattern, date)) continue;
    for (const hour of hours) {
      for (const minute of minutes) {
        for (const second of seconds) {
          const wall = midnight + ((hour * 60 + minute) * 60 + second) * 1000;
          if (wall < earliest) continue;
          const instant = instantOf(wall, identifier);
          if (instant !== undefined && instant > after) return new Date(instant);
        }
      }
    }
  }
  return null;
}
