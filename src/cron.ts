/**
 * Cron expressions and time zones as pipeline schedules read them, shared by
 * the resource's `check` (preview) and the emulator, so both accept exactly
 * the same text and compute the same next run.
 *
 * The real server validates and schedules with Fugit (`Gitlab::Ci::CronParser`
 * parses `"<cron> <zone>"` with `Fugit::Cron.parse`): five fields, or six with
 * seconds first; month and weekday names; ranges, lists and steps; `L` and
 * `#` for last and nth; `@daily`-style nicknames. The parsing here is croner's
 * in its "5-or-6-parts" mode, which reads that dialect (plus a few extras of
 * its own, such as `W` and `?`, that a real server may refuse).
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

/** Why a cron expression is refused, or undefined when it is accepted. */
export function cronProblem(cron: string): string | undefined {
  if (cron.trim() === "") return "a cron expression is required, such as \"0 2 * * *\"";
  let parsed: Cron;
  try {
    parsed = parse(cron, "UTC");
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, "") : String(error);
    return `"${cron}" is not a valid cron expression (${reason}); use five fields, minute hour day-of-month month day-of-week, such as "0 2 * * *"`;
  }
  // A pattern that never fires (the 31st of February) has no next run for the server to compute.
  if (parsed.nextRun(new Date(Date.UTC(2000, 0, 1))) === null) return `"${cron}" never runs: no date matches it`;
  return undefined;
}

/** The next run strictly after `from` in the schedule's zone, or undefined for an invalid cron or zone. */
export function nextRunAfter(cron: string, zoneName: string, from: Date): Date | undefined {
  const zone = ianaZoneOf(zoneName);
  if (zone === undefined || cronProblem(cron) !== undefined) return undefined;
  return parse(cron, zone).nextRun(from) ?? undefined;
}
