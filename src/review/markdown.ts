/**
 * The review as Markdown for a merge request note: the verdict first, what
 * destroys before anything else, then takeovers, updates, creates, drift and
 * the problems the preview found; each section grouped by owner. Long
 * sections fold; a report past the note's size limit drops detail, then
 * changes, and says so.
 */
import { type Change, type ChangeKind, type FieldChange, type Review, type Shown } from "./changes";

/** The characters a note body may hold on the platform (a note's `body` limit). */
export const NOTE_LIMIT = 1_000_000;
/** Sections with more changes than this are folded (destructive ones never). */
const FOLD_AT = 15;

interface SectionWords {
  title: string;
  marker: string;
  verb: string;
  /** The verb in an apply's report. */
  done: string;
  /** Never folded, always with its fields. */
  destructive?: boolean;
}

export const SECTIONS: Record<ChangeKind, SectionWords> = {
  delete: { title: "Deletes", marker: "-", verb: "deletes", done: "deleted", destructive: true },
  replace: { title: "Replaces (deletes, then creates anew)", marker: "+-", verb: "replaces", done: "replaced", destructive: true },
  removal: { title: "Deletes (objects an only-these set does not keep)", marker: "-", verb: "deletes", done: "deleted (objects an only-these set did not keep)", destructive: true },
  takeover: { title: "Takes over existing objects", marker: "=", verb: "takes over", done: "took over" },
  update: { title: "Updates", marker: "~", verb: "updates", done: "updated" },
  create: { title: "Creates", marker: "+", verb: "creates", done: "created" },
  drift: { title: "Drift: changed on the server outside this program (found by the refresh)", marker: "!", verb: "", done: "" },
};

/** The sentence that says what one change does: "deletes badge 4 `legacy` of group acme". */
export function sentenceOf(change: Change, applied = false): string {
  const words = SECTIONS[change.kind];
  const reasons = change.reasons?.length ? ` (${change.reasons.join(", ")} ${change.reasons.length === 1 ? "changes" : "change"})` : "";
  if (change.kind === "drift") return `${change.object} of ${change.owner} changed outside this program`;
  return `${applied ? words.done : words.verb} ${change.object} of ${change.owner}${reasons}`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** "1 to delete, 2 to update" (only the kinds present), or "no changes". */
export function countsLine(review: Review): string {
  const c = review.counts;
  const parts = [
    c.delete + c.removal > 0 && `${c.delete + c.removal} to delete`,
    c.replace > 0 && `${c.replace} to replace`,
    c.takeover > 0 && `${c.takeover} to take over`,
    c.update > 0 && `${c.update} to update`,
    c.create > 0 && `${c.create} to create`,
  ].filter(Boolean);
  const drift = c.drift > 0 ? ` · ${plural(c.drift, "object")} drifted` : "";
  return (parts.length > 0 ? parts.join(", ") : "no changes") + drift;
}

export function verdictOf(review: Review, applied = false): string {
  if (!review.ok) {
    return applied
      ? `**The apply failed:** ${plural(review.problems.length, "problem")}, shown below. What it did before it failed is listed.`
      : `**The preview failed:** ${plural(review.problems.length, "problem")}, shown below. Nothing can be applied until it passes.`;
  }
  const counts = countsLine(review);
  if (applied) return `**Applied:** ${counts.replace(/ to (delete|replace|take over|update|create)/g, (_m, verb: string) => ` ${PAST[verb]}`)}.`;
  const destroys = review.counts.delete + review.counts.removal + review.counts.replace;
  if (destroys > 0) return `**Destroys ${plural(destroys, "object")}:** ${counts}. Read the destructive steps first.`;
  return `**${counts[0]!.toUpperCase()}${counts.slice(1)}.**`;
}

const PAST: Record<string, string> = { delete: "deleted", replace: "replaced", "take over": "taken over", update: "updated", create: "created" };

/** A value in a table cell: HTML-escaped code, or what stands for it. */
function cell(value: Shown): string {
  if ("secret" in value) return "<em>secret (not shown)</em>";
  if ("unknown" in value) return "<em>known after apply</em>";
  if ("absent" in value) return "<em>none</em>";
  const escaped = value.value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\|/g, "&#124;").replace(/\r?\n/g, "<br>");
  return `<code>${escaped}</code>`;
}

function fieldTable(change: Change): string[] {
  if (change.fields.length === 0) return [];
  const created = change.kind === "create" || (change.kind === "takeover" && change.fields.every((field) => "absent" in field.before));
  const rows = change.fields.map((field: FieldChange) =>
    created ? `| \`${field.path}\` | ${cell(field.after)} |` : `| \`${field.path}\` | ${cell(field.before)} | ${cell(field.after)} |`,
  );
  const columns = change.kind === "drift" ? "| field | last applied | on the server now |" : "| field | before | after |";
  const head = created ? ["| field | value |", "|---|---|"] : [columns, "|---|---|---|"];
  return ["", ...head, ...rows, ""];
}

function changeLines(change: Change, detailed: boolean, applied: boolean): string[] {
  const words = SECTIONS[change.kind];
  const note = change.note ? `, _${change.note}_` : "";
  const line = `- \`${words.marker}\` ${sentenceOf(change, applied)}${note} · \`${change.name}\` (${change.type})`;
  return detailed ? [line, ...fieldTable(change)] : [line];
}

function byOwner(changes: Change[]): Map<string, Change[]> {
  const groups = new Map<string, Change[]>();
  for (const change of changes) groups.set(change.owner, [...(groups.get(change.owner) ?? []), change]);
  return groups;
}

function sectionLines(kind: ChangeKind, changes: Change[], detailed: boolean, applied: boolean): string[] {
  const words = SECTIONS[kind];
  const body: string[] = [];
  for (const [owner, owned] of byOwner(changes)) {
    body.push(`**${owner}**`, "");
    for (const change of owned) body.push(...changeLines(change, detailed || !!words.destructive, applied));
    body.push("");
  }
  const title = applied ? (words.done ? words.done[0]!.toUpperCase() + words.done.slice(1) : words.title) : words.title;
  const heading = `#### ${title} (${changes.length})`;
  if (words.destructive || changes.length <= FOLD_AT) return [heading, "", ...body];
  return [heading, "", `<details><summary>${plural(changes.length, "change")}: show</summary>`, "", ...body, "</details>", ""];
}

function problemLines(title: string, problems: Review["problems"]): string[] {
  if (problems.length === 0) return [];
  const items = problems.map((problem) => `- ${problem.resource ? `\`${problem.resource}\`: ` : ""}${problem.message.replace(/\r?\n/g, " ")}`);
  return [`#### ${title} (${problems.length})`, "", ...items, ""];
}

const LEGEND = "<sub>`-` deletes · `+-` replaces · `=` takes over · `~` updates · `+` creates · `!` drift. Secret values are never shown.</sub>";

export interface MarkdownOptions {
  /** The stack's name, shown in the heading and written into the marker that finds the note again. */
  stack?: string;
  /** The longest report, in characters (default: the note limit). */
  maxChars?: number;
  /** A line under the verdict (which commit, which job). */
  context?: string;
  /** The report of an apply (`pulumi up --json`), not of a preview. */
  applied?: boolean;
  /** Lines right under the verdict, where a reviewer looks first (the apply's guard). */
  notice?: string[];
  /** The report is the apply's result (an apply, or an apply its guard stopped): it goes in the result's note. */
  result?: boolean;
}

/**
 * The HTML comment that marks the note of one stack, so a later run updates it
 * in place: one for the preview under review, one for the apply's result.
 */
export const markerOf = (stack: string | undefined, applied = false) =>
  `<!-- platform-review${applied ? "-applied" : ""} stack=${JSON.stringify(stack ?? "")} -->`;

function render(review: Review, options: MarkdownOptions, detail: "all" | "destructive", limitChanges?: number): string {
  const title = options.applied ? "Pulumi up" : "Pulumi preview";
  const head = [markerOf(options.stack, options.result ?? options.applied), `### ${title}${options.stack ? ` of stack \`${options.stack}\`` : ""}`, "", verdictOf(review, options.applied), ""];
  if (options.context) head.push(options.context, "");
  if (options.notice) head.push(...options.notice);
  const shownChanges = limitChanges === undefined ? review.changes : review.changes.slice(0, limitChanges);
  const body: string[] = [];
  for (const kind of Object.keys(SECTIONS) as ChangeKind[]) {
    const changes = shownChanges.filter((change) => change.kind === kind);
    if (changes.length > 0) body.push(...sectionLines(kind, changes, detail === "all", !!options.applied));
  }
  body.push(...problemLines(options.applied ? "Problems" : "Problems found at preview", review.problems));
  body.push(...problemLines("Warnings", review.warnings));
  const left = review.changes.length - shownChanges.length;
  const tail: string[] = [];
  if (left > 0) tail.push(`**Truncated:** ${plural(left, "more change")} not shown here (the note's size limit); the review's data (\`--json\`, kept by the pipeline) has them all.`, "");
  else if (detail !== "all") tail.push("**Shortened:** fields are shown for destructive steps only (the note's size limit); the review's data (`--json`, kept by the pipeline) has them all.", "");
  tail.push(LEGEND);
  return [...head, ...body, ...tail].join("\n") + "\n";
}

/** The report as Markdown, within `maxChars`: full, then without the fields of non-destructive steps, then with fewer changes. */
export function markdownOf(review: Review, options: MarkdownOptions = {}): string {
  const max = options.maxChars ?? NOTE_LIMIT;
  const full = render(review, options, "all");
  if (full.length <= max) return full;
  const shortened = render(review, options, "destructive");
  if (shortened.length <= max) return shortened;
  // The most changes that fit, found by halving (the destructive ones come first, so they stay).
  let low = 0;
  let high = review.changes.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (render(review, options, "destructive", middle).length <= max) low = middle;
    else high = middle - 1;
  }
  return render(review, options, "destructive", low);
}
