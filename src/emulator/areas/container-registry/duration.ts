/**
 * The human-readable durations a bulk tag deletion's `older_than` takes, read
 * as the server's duration parser reads them: numbers with units (`1h`,
 * `2 days`, `1month`, `1h30m`, `1.5 hours`), a clock form (`1:30:00` is an
 * hour and a half), a number alone counts seconds. Words it does not know are
 * passed over, so only a text with no number at all, or one that adds up to
 * nothing, has no duration.
 */

/** The unit each word stands for. */
const UNIT_WORDS: Record<string, Unit> = {
  s: "seconds", sec: "seconds", secs: "seconds", second: "seconds", seconds: "seconds",
  m: "minutes", min: "minutes", mins: "minutes", minute: "minutes", minutes: "minutes",
  h: "hours", hr: "hours", hrs: "hours", hour: "hours", hours: "hours",
  d: "days", dy: "days", day: "days", days: "days",
  w: "weeks", wk: "weeks", wks: "weeks", week: "weeks", weeks: "weeks",
  mo: "months", mos: "months", month: "months", months: "months",
  y: "years", yr: "years", yrs: "years", year: "years", years: "years",
};

type Unit = "seconds" | "minutes" | "hours" | "days" | "weeks" | "months" | "years";

/** Seconds per unit: a day of 24 hours, a month of 30 days, a week of 30/4 days rounded down, a year of 365.25 days. */
const SECONDS: Record<Unit, number> = {
  seconds: 1,
  minutes: 60,
  hours: 3_600,
  days: 86_400,
  weeks: 7 * 86_400,
  months: 30 * 86_400,
  years: 31_557_600,
};

/** The units of the clock form's parts, from the right: `h:m:s`, `d:h:m:s`, ... (weeks are skipped). */
const CLOCK_UNITS: Unit[] = ["seconds", "minutes", "hours", "days", "months", "years"];

const NUMBER = /[0-9]*\.?[0-9]+/g;

/** `1:30:00` as `1 hours 30 minutes 00 seconds`; other text as it is. */
function clockToWords(text: string): string {
  const compact = text.replace(/ +/g, "");
  if (!/[0-9]*\.?[0-9]+(:[0-9]*\.?[0-9]+)+/.test(compact)) return text;
  const parts = compact.split(":").reverse();
  return parts
    .flatMap((part, index) => (CLOCK_UNITS[index] ? [`${part} ${CLOCK_UNITS[index]}`] : []))
    .reverse()
    .join(" ");
}

/** Seconds in a duration, or undefined when the text has none (nothing to count, or zero). */
export function durationSeconds(text: string): number | undefined {
  const spaced = clockToWords(text.toLowerCase())
    .replace(NUMBER, (number) => ` ${number} `)
    .replace(/ +/g, " ")
    .trim();
  // Numbers are kept; known unit words become their unit; every other word is passed over.
  const words = spaced.split(" ").flatMap((word): (number | Unit)[] => {
    if (word === "") return [];
    if (/^[0-9]*\.?[0-9]+$/.test(word)) return [Number(word)];
    const unit = UNIT_WORDS[word.replace(/^,|,$/g, "")];
    return unit ? [unit] : [];
  });
  // A text that starts with a unit counts one of it ("day" is a day).
  if (typeof words[0] === "string") words.unshift(1);
  let total = 0;
  words.forEach((word, index) => {
    if (typeof word !== "number") return;
    // A number counts in the unit after it, seconds at the end, nothing before another number.
    const next = words[index + 1];
    total += next === undefined ? word : typeof next === "string" ? word * SECONDS[next] : 0;
  });
  return total === 0 ? undefined : total;
}
