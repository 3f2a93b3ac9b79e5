/**
 * The review as Markdown for a merge request note: the verdict first, what
 * destroys before anything else, then takeovers, updates, creates, drift and
 * the problems the preview found; each section grouped by owner. Long
 * sections fold; a report past the note's size limit leaves out the fields of
 * drift and creates before those of updates, then lines the same way, never
 * what destroys, and says what it left out.
 *
 * Every text that comes from a program or a server (names, owners, kinds,
 * field paths, values, messages) is data: it goes through `code`, and
 * nothing in it becomes Markdown, HTML, a link, a mention or a reference,
 * as the platform renders a note (GitLab-flavoured Markdown with inline HTML,
 * in which Markdown inside an HTML element is still Markdown, and references,
 * mentions, emoji and URLs in text become links everywhere but in code).
 */
import { type Change, type ChangeKind, type FieldChange, objectName, ownerName, type Review, type Shown, SHOWN_CHARACTERS } from "./changes";
import type { CodeChanges } from "./code-changes";
import { termsOf } from "./terms";
import { wordsAndValues } from "../engine/definition";
import { visible } from "../visible-text";

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

/**
 * The sentence that says what one change does, in plain words (the data's, the
 * guard's messages on a terminal): "deletes badge 4 `legacy` of group acme",
 * invisible characters shown as their escape.
 */
export function sentenceOf(change: Change, applied = false): string {
  const newOwner = change.newOwner === undefined ? undefined : visible(change.newOwner);
  return sentence(change, applied, { object: visible(change.object), owner: visible(change.owner), newOwner, reason: visible, verb: visible });
}

/** The same sentence as Markdown, its names as code. */
function sentenceMarkdown(change: Change, applied: boolean): string {
  const newOwner = change.newOwner === undefined ? undefined : ownerMarkdown(change.newOwner);
  return sentence(change, applied, { object: objectMarkdown(change), owner: ownerMarkdown(change.owner), newOwner, reason: (reason) => code(reason, NAME_CHARACTERS), verb: inert });
}

function sentence(change: Change, applied: boolean, words: { object: string; owner: string; newOwner?: string; reason: (reason: string) => string; verb: (verb: string) => string }): string {
  const section = SECTIONS[change.kind];
  const reasons = change.reasons?.length ? ` (${change.reasons.map(words.reason).join(", ")} ${change.reasons.length === 1 ? "changes" : "change"})` : "";
  if (change.kind === "drift") return `${words.object} of ${words.owner} changed outside this program`;
  // A replacement whose owner changes deletes the object under its owner and creates the new one under another.
  const moved = words.newOwner === undefined ? "" : ` by a new one of ${words.newOwner}`;
  // Marked for deletion is not gone: it is said as what it is; a kind's own verb (a rotation) is its own.
  const own = applied ? change.verb?.done : change.verb?.now;
  const verb = change.marks ? (applied ? "marked for deletion" : "marks for deletion") : own !== undefined ? words.verb(own) : applied ? section.done : section.verb;
  return `${verb} ${words.object} of ${words.owner}${moved}${reasons}`;
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

/** The longest name shown in a line (a longer one is cut, saying how long it is); the longest message. */
const NAME_CHARACTERS = 200;
const MESSAGE_CHARACTERS = 2000;

/**
/**
 * Text from a program or a server as a code element, shown as it is and
 * inert: invisible characters as their escape, and each character that could
 * start Markdown or HTML there as a numeric character reference, which
 * CommonMark shows as the character and never reads as syntax (see `inert`).
 * In a code element GitLab makes no link of a mention, a reference or an
 * emoji. A text past `max` characters is cut, and says how long it is.
 */
export function code(text: string, max = Number.POSITIVE_INFINITY): string {
  const cut = text.length > max ? text.slice(0, /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max) : text;
  const shown = `<code>${inert(cut)}</code>`;
  return cut === text ? shown : `${shown}… <em>(${text.length.toLocaleString("en-US")} characters, shown shortened)</em>`;
}

/** Characters that are Markdown or HTML wherever they stand in a line: tags and comments, code spans, links and images, table cells, math. */
const ALWAYS = new Set(["<", "`", "[", "]", "|", "$"]);
/** Emphasis and strikethrough delimiters: inert only between two spaces (then they neither open nor close), `_` also inside a word. */
const DELIMITERS = new Set(["*", "_", "~"]);
const SPACE = /\s/u;
const WORD = /[\p{L}\p{N}]/u;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/** Whether the character at `index` of `text` must be a character reference for the text to stay inert in a line of Markdown. */
function mustEscape(text: string, index: number): boolean {
  const character = text[index]!;
  if (ALWAYS.has(character)) return true;
  const before = text[index - 1] ?? "";
  const after = text[index + 1] ?? "";
  if (DELIMITERS.has(character)) return !((SPACE.test(before) && SPACE.test(after)) || (character === "_" && WORD.test(before) && WORD.test(after)));
  switch (character) {
    // An entity or character reference would show as the character it names.
    case "&":
      return /^&#?[A-Za-z0-9]+;/.test(text.slice(index, index + 34));
    // A backslash escape would hide itself and the character after it: the next one, or the `<` of the closing tag.
    case "\\":
      return after === "" || ASCII_PUNCTUATION.test(after);
    // The autolinks a Markdown parser makes itself, before any filter of the platform: `https://`, `www.`, e-mail addresses.
    case ":":
      return text.startsWith("//", index + 1);
    case ".":
      return index >= 3 && text.slice(index - 3, index).toLowerCase() === "www";
    case "@":
      return true;
    default:
      return false;
  }
}

/**
 * Text with invisible characters as their escape and each character that
 * would be Markdown or HTML as a character reference (`&#60;` no tag or
 * comment, `&#96;` no code span's end, `&#91;` no link, `&#124;` no cell's
 * end, `https&#58;//` and `www&#46;` no link), the rest as it is, so that the
 * note stays readable where it is read raw (through the API, in an e-mail).
 */
function inert(text: string): string {
  const shown = visible(text);
  return shown.replace(MAY_ESCAPE, (character: string, index: number) => (mustEscape(shown, index) ? `&#${character.charCodeAt(0)};` : character));
}

/** The characters `mustEscape` may escape: the rest never are. */
const MAY_ESCAPE = /[<`[\]|$*_~&\\:.@]/g;

/**
 * The line under the verdict, the tool's own Markdown (a link to the job),
 * read back from a note's data: kept to one line that can open nothing that
 * runs past it (no HTML, so no comment; no code fence), so no data can hide
 * the rest of the note.
 */
function contextMarkdown(context: string): string {
  return visible(context)
    .replace(/</g, "&#60;")
    .replace(/^(\s*)([`~])/, (_all, space: string, fence: string) => `${space}&#${fence.charCodeAt(0)};`);
}

/**
 * A change's note: the tool's words, kept inert all the same (a change may be
 * read back from a note's data), and each value they name (a username, a
 * path) as code, where no mention or reference of its own becomes one.
 */
function noteMarkdown(note: string): string {
  return wordsAndValues(note)
    .map((part) => (part.value ? code(part.text, NAME_CHARACTERS) : inert(part.text)))
    .join("");
}

/** "badge 4 <code>legacy</code>": the tool's noun and the object's number, its name as code. */
function objectMarkdown(change: Pick<Change, "kind" | "type" | "object">): string {
  const { noun, id, label } = objectName(change);
  return [noun || undefined, id, label === undefined ? undefined : code(label, NAME_CHARACTERS)].filter((part) => part !== undefined).join(" ");
}

/** "group <code>acme</code>": the tool's words, the path as code. */
function ownerMarkdown(owner: string): string {
  const { words, path } = ownerName(owner);
  return [words || undefined, path === undefined ? undefined : code(path, NAME_CHARACTERS)].filter((part) => part !== undefined).join(" ");
}

/** A value in a table cell: code, or what stands for it; a shortened one says so. */
function cell(value: Shown): string {
  if ("secret" in value) return "<em>secret (not shown)</em>";
  if ("unknown" in value) return "<em>known after apply</em>";
  if ("absent" in value) return "<em>none</em>";
  if ("tokenUser" in value) return "<em>the user of the platform's token</em>";
  if ("sha256" in value) return `${code(value.value)}… <em>(${value.characters.toLocaleString("en-US")} characters, shown shortened)</em>`;
  return code(value.value, SHOWN_CHARACTERS);
}

function fieldTable(change: Change): string[] {
  if (change.fields.length === 0) return [];
  // What is created with values alone; a settings resource's create, which overwrites settings that exist, with the values before.
  const created = (change.kind === "create" || change.kind === "takeover") && change.fields.every((field) => "absent" in field.before);
  const rows = change.fields.map((field: FieldChange) => {
    const path = code(field.path, NAME_CHARACTERS);
    return created ? `| ${path} | ${cell(field.after)} |` : `| ${path} | ${cell(field.before)} | ${cell(field.after)} |`;
  });
  const columns = change.kind === "drift" ? "| field | last applied | on the server now |" : "| field | before | after |";
  const head = created ? ["| field | value |", "|---|---|"] : [columns, "|---|---|---|"];
  return ["", ...head, ...rows, ""];
}

/** A kind as the report shows it: one of the package's by its name, another's as the program's text. */
const kindMarkdown = (type: string) => (termsOf(type).defined ? type : code(type, NAME_CHARACTERS));

function changeLines(change: Change, detailed: boolean, applied: boolean): string[] {
  const words = SECTIONS[change.kind];
  const note = change.note ? `, <em>${noteMarkdown(change.note)}</em>` : "";
  const line = `- \`${words.marker}\` ${sentenceMarkdown(change, applied)}${note} · ${code(change.name, NAME_CHARACTERS)} (${kindMarkdown(change.type)})`;
  return detailed ? [line, ...fieldTable(change)] : [line];
}

/** The changes of one section by owner, each owner's in their order, the owners in the order they first come. */
function byOwner(changes: Change[]): Map<string, Change[]> {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const group = groups.get(change.owner);
    if (group) group.push(change);
    else groups.set(change.owner, [change]);
  }
  return groups;
}

/** A section's lines: its changes come grouped by owner (see inReportOrder), each owner's under its name. */
function sectionLines(kind: ChangeKind, changes: Change[], linesOf: (change: Change) => string, applied: boolean): string[] {
  const words = SECTIONS[kind];
  const body: string[] = [];
  changes.forEach((change, index) => {
    if (index === 0 || changes[index - 1]!.owner !== change.owner) {
      if (index > 0) body.push("");
      body.push(`**${ownerMarkdown(change.owner)}**`, "");
    }
    body.push(linesOf(change));
  });
  body.push("");
  const title = applied ? (words.done ? words.done[0]!.toUpperCase() + words.done.slice(1) : words.title) : words.title;
  const heading = `#### ${title} (${changes.length})`;
  if (words.destructive || changes.length <= FOLD_AT) return [heading, "", ...body];
  return [heading, "", `<details><summary>${plural(changes.length, "change")}: show</summary>`, "", ...body, "</details>", ""];
}

/**
 * What a failed apply was to do and did not, each as the preview said it
 * ("updates badge ..."), the ones whose step failed marked so; never folded
 * (what is left to apply is what the retry will do).
 */
function notAppliedLines(changes: Change[], failed: readonly string[]): string[] {
  const lines = inReportOrder(changes).map((change) => {
    const mark = failed.includes(change.urn) ? " <em>(its step failed: see the problems below)</em>" : "";
    return `- \`${SECTIONS[change.kind].marker}\` ${sentenceMarkdown(change, false)}${mark} · ${code(change.name, NAME_CHARACTERS)} (${kindMarkdown(change.type)})`;
  });
  return [`#### Not applied (${changes.length})`, "", ...lines, ""];
}

/** The most problems, and warnings, a report lists (the data has them all). */
const PROBLEMS_SHOWN = 100;

function problemLines(title: string, problems: Review["problems"]): string[] {
  if (problems.length === 0) return [];
  const items = problems.slice(0, PROBLEMS_SHOWN).map((problem) => `- ${problem.resource ? `${code(problem.resource, NAME_CHARACTERS)}: ` : ""}${code(problem.message, MESSAGE_CHARACTERS)}`);
  if (problems.length > PROBLEMS_SHOWN) items.push(`- and ${problems.length - PROBLEMS_SHOWN} more, in the review's data (\`--json\`)`);
  return [`#### ${title} (${problems.length})`, "", ...items, ""];
}

/** The secret values the refresh could not compare: named, each as not compared (never as matching). */
function unreadLines(unread: Review["unread"]): string[] {
  if (!unread || unread.length === 0) return [];
  const items = unread.slice(0, PROBLEMS_SHOWN).map((one) => {
    const object = objectMarkdown({ kind: "drift", type: one.type, object: one.object });
    return `- ${one.paths.map((path) => code(path, NAME_CHARACTERS)).join(", ")} of ${object || code(one.name, NAME_CHARACTERS)} of ${ownerMarkdown(one.owner)}`;
  });
  if (unread.length > PROBLEMS_SHOWN) items.push(`- and ${unread.length - PROBLEMS_SHOWN} more, in the review's data (\`--json\`)`);
  return [`#### Not compared (${unread.length})`, "", "The server never shows these secret values (a hidden variable's value), so the refresh kept each as last applied: a change made by hand cannot be seen.", "", ...items, ""];
}

/** The files of a project that are its dependencies: what `npm ci` installs, and from where. */
const DEPENDENCY_FILE = /(?:^|\/)(?:package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|\.npmrc|\.yarnrc(?:\.yml)?|\.pnpmfile\.cjs)$|(?:^|\/)(?:vendor|node_modules)\/|\.tgz$/;
/** The files that define a pipeline's jobs. */
const PIPELINE_FILE = /(?:^|\/)\.gitlab-ci\.ya?ml$|^\.gitlab\/|^\.github\/workflows\//;
/** The stacks' settings: what the preview above shows the effect of. */
const STACK_SETTINGS_FILE = /(?:^|\/)Pulumi(?:\.[^/]+)?\.ya?ml$/;
/** The most changed files a report names one by one. */
const FILES_SHOWN = 50;

/**
 * What the merge request changes besides the platform: the merged program,
 * its dependencies and the pipeline run with the write token at the apply,
 * so their diff is part of the review; a preview shows only what they do
 * while it runs.
 */
function codeChangeLines(changes: CodeChanges): string[] {
  if ("unread" in changes) {
    return [`**Code:** which files this merge request changes could not be read (${code(changes.unread, MESSAGE_CHARACTERS)}). Merged, its code runs with the platform's write token at the apply, beyond what this preview shows: review its diff as part of this change.`, ""];
  }
  const { files } = changes;
  if (files.length === 0) return [];
  const dependencies = files.filter((file) => DEPENDENCY_FILE.test(file));
  const pipeline = files.filter((file) => PIPELINE_FILE.test(file));
  const program = files.filter((file) => !DEPENDENCY_FILE.test(file) && !PIPELINE_FILE.test(file) && !STACK_SETTINGS_FILE.test(file));
  const parts = [
    program.length > 0 && `the program's code (${plural(program.length, "file")})`,
    dependencies.length > 0 && `its dependencies (${plural(dependencies.length, "file")})`,
    pipeline.length > 0 && `the pipeline (${plural(pipeline.length, "file")})`,
  ].filter(Boolean);
  if (parts.length === 0) return [`**Files:** this merge request changes only the stacks' settings (${plural(files.length, "file")}); its effect is the preview below.`, ""];
  const ordered = [...dependencies, ...pipeline, ...program, ...files.filter((file) => STACK_SETTINGS_FILE.test(file) && !DEPENDENCY_FILE.test(file) && !PIPELINE_FILE.test(file))];
  const shown = ordered.slice(0, FILES_SHOWN).map((file) => `- ${code(file, NAME_CHARACTERS)}`);
  if (ordered.length > FILES_SHOWN) shown.push(`- and ${ordered.length - FILES_SHOWN} more`);
  return [
    `**Code:** this merge request changes ${parts.join(", ")}. Merged, it runs with the platform's write token at the apply, beyond what this preview shows: review its diff as part of this change.`,
    "",
    "<details><summary>The files it changes</summary>",
    "",
    ...shown,
    "",
    "</details>",
    "",
  ];
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
  /** An apply's report: what it was to do and did not (a failed apply), with the URNs of the steps that failed. */
  notApplied?: { changes: Change[]; failed: readonly string[] };
  /** The last lines: what to do next (a failed apply). */
  next?: string;
  /** The files the merge request changes (git's paths), or why they were not read: the report names the code, dependencies and pipeline among them. */
  codeChanges?: CodeChanges;
}

/**
 * The HTML comment that marks the note of one stack, so a later run updates it
 * in place: one for the preview under review, one for the apply's result. The
 * name is JSON with `<` and `>` escaped, so no name can end the comment.
 */
export const markerOf = (stack: string | undefined, applied = false) =>
  `<!-- platform-review${applied ? "-applied" : ""} stack=${JSON.stringify(stack ?? "").replace(/</g, "\\u003c").replace(/>/g, "\\u003e")} -->`;

/** The changes in the order the report shows them: by section, then by owner. */
function inReportOrder(changes: Change[]): Change[] {
  const ordered: Change[] = [];
  for (const kind of Object.keys(SECTIONS) as ChangeKind[]) {
    for (const owned of byOwner(changes.filter((change) => change.kind === kind)).values()) for (const change of owned) ordered.push(change);
  }
  return ordered;
}

/** The lines of each change, with or without its fields, rendered once however often the report is laid out. */
function changeText(applied: boolean): (change: Change, detailed: boolean) => string {
  const rendered = [new Map<Change, string>(), new Map<Change, string>()];
  return (change, detailed) => {
    const cache = rendered[detailed ? 1 : 0]!;
    let text = cache.get(change);
    if (text === undefined) {
      text = changeLines(change, detailed, applied).join("\n");
      cache.set(change, text);
    }
    return text;
  };
}

/** What a report leaves out to fit its note: the changes shown without their fields, and the changes not shown at all. */
export interface LeftOut {
  fields: Change[];
  changes: Change[];
}

/** One cut a report may make to fit: a change's fields, or the change. */
interface Cut {
  change: Change;
  whole: boolean;
}

/**
 * The cuts that make a report fit, in the order they are made: a review
 * counts only for what it shows, so what changes existing objects is shown
 * longest. Drift goes first, then creates (the last first), then updates and
 * takeovers: their fields first, then the lines. What destroys is cut only
 * where it alone is more than a note holds.
 */
function cutsInOrder(ordered: Change[]): Cut[] {
  const rank = (change: Change) => (SECTIONS[change.kind].destructive ? 3 : change.kind === "drift" ? 0 : change.kind === "create" ? 1 : 2);
  const lastFirst = (levels: number[]) => levels.flatMap((level) => ordered.filter((change) => rank(change) === level).reverse());
  const cutsOf = (changes: Change[]) => [...changes.filter((change) => change.fields.length > 0).map((change) => ({ change, whole: false })), ...changes.map((change) => ({ change, whole: true }))];
  return [...cutsOf(lastFirst([0, 1, 2])), ...cutsOf(lastFirst([3]))];
}

function leftOutBy(cuts: readonly Cut[]): LeftOut {
  const changes = new Set(cuts.filter((cut) => cut.whole).map((cut) => cut.change));
  return { fields: cuts.filter((cut) => !cut.whole && !changes.has(cut.change)).map((cut) => cut.change), changes: [...changes] };
}

function render(review: Review, ordered: Change[], options: MarkdownOptions, linesOf: (change: Change, detailed: boolean) => string, leftOut: LeftOut): string {
  const title = options.applied ? "Pulumi up" : "Pulumi preview";
  const head = [markerOf(options.stack, options.result ?? options.applied), `### ${title}${options.stack ? ` of stack ${code(options.stack, NAME_CHARACTERS)}` : ""}`, "", verdictOf(review, options.applied), ""];
  if (options.context) head.push(contextMarkdown(options.context), "");
  if (options.notice) head.push(...options.notice);
  if (options.codeChanges) head.push(...codeChangeLines(options.codeChanges));
  const hidden = new Set(leftOut.changes);
  const withoutFields = new Set(leftOut.fields);
  const shownChanges = hidden.size === 0 ? ordered : ordered.filter((change) => !hidden.has(change));
  const lineOf = (change: Change) => linesOf(change, !withoutFields.has(change));
  // Concatenated, never spread into a call: a section may hold tens of thousands of lines.
  let body: string[] = [];
  for (const kind of Object.keys(SECTIONS) as ChangeKind[]) {
    const changes = shownChanges.filter((change) => change.kind === kind);
    if (changes.length > 0) body = body.concat(sectionLines(kind, changes, lineOf, !!options.applied));
  }
  if (options.notApplied && options.notApplied.changes.length > 0) body = body.concat(notAppliedLines(options.notApplied.changes, options.notApplied.failed));
  body = body.concat(problemLines(options.applied ? "Problems" : "Problems found at preview", review.problems), problemLines("Warnings", review.warnings), unreadLines(review.unread));
  if (options.next) body.push(`**What to do next:** ${options.next}`, "");
  const tail: string[] = [];
  if (hidden.size + withoutFields.size > 0) {
    const what = [withoutFields.size > 0 && `the fields of ${plural(withoutFields.size, "change")}`, hidden.size > 0 && plural(hidden.size, "change")].filter(Boolean).join(", and ");
    const consequence = options.applied
      ? "the apply's kept events have them all."
      : "an apply is held to every value it makes, so the apply after the merge stops and names them: split the change into smaller merge requests.";
    tail.push(`**Not shown** (the note's size limit): ${what}; ${consequence}`, "");
  }
  tail.push(LEGEND);
  return [...head, ...body, ...tail].join("\n") + "\n";
}

/**
 * The report as Markdown within `maxChars`, and what it leaves out to fit
 * (see `cutsInOrder`): the fewest cuts that fit, found by halving. Each
 * change is rendered once; only the layout is repeated.
 */
export function reportOf(review: Review, options: MarkdownOptions = {}): { text: string; leftOut: LeftOut } {
  const max = options.maxChars ?? NOTE_LIMIT;
  const ordered = inReportOrder(review.changes);
  const linesOf = changeText(!!options.applied);
  const none: LeftOut = { fields: [], changes: [] };
  const full = render(review, ordered, options, linesOf, none);
  if (full.length <= max) return { text: full, leftOut: none };
  const cuts = cutsInOrder(ordered);
  let low = 1;
  let high = cuts.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (render(review, ordered, options, linesOf, leftOutBy(cuts.slice(0, middle))).length <= max) high = middle;
    else low = middle + 1;
  }
  const leftOut = leftOutBy(cuts.slice(0, high));
  return { text: render(review, ordered, options, linesOf, leftOut), leftOut };
}

/** The report as Markdown within `maxChars` (see `reportOf`). */
export function markdownOf(review: Review, options: MarkdownOptions = {}): string {
  return reportOf(review, options).text;
}
