/**
 * The hunks of a text change as git computes and prints them: the minimal
 * line diff from jsdiff (Myers, as git's default algorithm), then git's own
 * clean-up of where ambiguous changes sit (xdiff/xdiffi.c `xdl_change_compact`:
 * each group of changed lines is slid as far as it can go, aligned with a
 * change in the other file when it can be, else placed by the indent
 * heuristic, on by default since git 2.14), then hunks with three lines of
 * context, two changes closer than 2 × 3 unchanged lines sharing one hunk.
 *
 * Printed as git prints them: `@@ -a,b +c,d @@` (a count of 1 not printed,
 * an empty side starting at 0), then the nearest line above the hunk in the
 * old file that starts with a letter, `_` or `$` (git's default funcname, cut
 * at 80 bytes), and `\ No newline at end of file` after a last line without one.
 */
import { diffArrays } from "diff";

const CONTEXT = 3;
/** git's default function-name line is cut at 80 bytes (`def_ff`). */
const FUNCNAME_MAX = 80;
const FUNCNAME_START = /^[A-Za-z_$]/;

// Indent heuristic weights (xdiffi.c).
const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
const INDENT_HEURISTIC_MAX_SLIDING = 100;

/** One side of the diff: its lines (each with its `\n`, the last maybe without) and which changed. */
interface Side {
  lines: string[];
  changed: boolean[];
}

const isChanged = (side: Side, index: number): boolean => index >= 0 && index < side.lines.length && side.changed[index] === true;

/** A group of changed lines [start, end); empty groups sit between unchanged lines. */
interface Group {
  start: number;
  end: number;
}

function firstGroup(side: Side): Group {
  let end = 0;
  while (isChanged(side, end)) end++;
  return { start: 0, end };
}

function nextGroup(side: Side, g: Group): boolean {
  if (g.end === side.lines.length) return false;
  g.start = g.end + 1;
  for (g.end = g.start; isChanged(side, g.end); g.end++);
  return true;
}

function previousGroup(side: Side, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  for (g.start = g.end; isChanged(side, g.start - 1); g.start--);
  return true;
}

function slideDown(side: Side, g: Group): boolean {
  if (g.end < side.lines.length && side.lines[g.start] === side.lines[g.end]) {
    side.changed[g.start++] = false;
    side.changed[g.end++] = true;
    while (isChanged(side, g.end)) g.end++;
    return true;
  }
  return false;
}

function slideUp(side: Side, g: Group): boolean {
  if (g.start > 0 && side.lines[g.start - 1] === side.lines[g.end - 1]) {
    side.changed[--g.start] = true;
    side.changed[--g.end] = false;
    while (isChanged(side, g.start - 1)) g.start--;
    return true;
  }
  return false;
}

/** Indent of a line in columns (tabs to multiples of 8); -1 for a blank line. */
function indentOf(line: string): number {
  let indent = 0;
  for (const c of line) {
    if (c === " ") indent += 1;
    else if (c === "\t") indent += 8 - (indent % 8);
    else if (!/\s/.test(c)) return indent;
    if (indent >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

/** measure_split + score_add_split: the badness of splitting `side` above line `split`. */
function splitScore(side: Side, split: number): { indent: number; penalty: number } {
  const n = side.lines.length;
  const endOfFile = split >= n;
  const indent = endOfFile ? -1 : indentOf(side.lines[split]!);
  let preBlank = 0;
  let preIndent = -1;
  for (let i = split - 1; i >= 0; i--) {
    preIndent = indentOf(side.lines[i]!);
    if (preIndent !== -1) break;
    if (++preBlank === MAX_BLANKS) {
      preIndent = 0;
      break;
    }
  }
  let postBlank = 0;
  let postIndent = -1;
  for (let i = split + 1; i < n; i++) {
    postIndent = indentOf(side.lines[i]!);
    if (postIndent !== -1) break;
    if (++postBlank === MAX_BLANKS) {
      postIndent = 0;
      break;
    }
  }
  let penalty = 0;
  if (preIndent === -1 && preBlank === 0) penalty += START_OF_FILE_PENALTY;
  if (endOfFile) penalty += END_OF_FILE_PENALTY;
  const blanksAfter = indent === -1 ? 1 + postBlank : 0;
  const totalBlank = preBlank + blanksAfter;
  penalty += TOTAL_BLANK_WEIGHT * totalBlank + POST_BLANK_WEIGHT * blanksAfter;
  const effective = indent !== -1 ? indent : postIndent;
  const anyBlanks = totalBlank !== 0;
  if (effective !== -1 && preIndent !== -1) {
    if (effective > preIndent) penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
    else if (effective < preIndent) {
      const startsBlock = postIndent !== -1 && postIndent > effective;
      if (startsBlock) penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
      else penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
    }
  }
  return { indent: effective, penalty };
}

/** The best position (group end) by the indent heuristic, between `earliestEnd` and the group's current end. */
function bestShift(side: Side, g: Group, earliestEnd: number, size: number): number {
  let shift = Math.max(earliestEnd, g.end - size - 1, g.end - INDENT_HEURISTIC_MAX_SLIDING);
  let best = -1;
  let bestScore = { indent: 0, penalty: 0 };
  for (; shift <= g.end; shift++) {
    const a = splitScore(side, shift);
    const b = splitScore(side, shift - size);
    const score = { indent: a.indent + b.indent, penalty: a.penalty + b.penalty };
    const cmp = INDENT_WEIGHT * Math.sign(score.indent - bestScore.indent) + (score.penalty - bestScore.penalty);
    if (best === -1 || cmp <= 0) {
      bestScore = score;
      best = shift;
    }
  }
  return best;
}

/** xdl_change_compact(side, other), with the indent heuristic. */
function compact(side: Side, other: Side): void {
  const g = firstGroup(side);
  const go = firstGroup(other);
  for (;;) {
    if (g.end !== g.start) {
      let size: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        size = g.end - g.start;
        endMatchingOther = -1;
        while (slideUp(side, g)) previousGroup(other, go);
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        while (slideDown(side, g)) {
          nextGroup(other, go);
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (size !== g.end - g.start);
      if (g.end === earliestEnd) {
        // No room to move.
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          slideUp(side, g);
          previousGroup(other, go);
        }
      } else {
        const target = bestShift(side, g, earliestEnd, size);
        while (g.end > target) {
          slideUp(side, g);
          previousGroup(other, go);
        }
      }
    }
    if (!nextGroup(side, g)) break;
    nextGroup(other, go);
  }
}

const splitLines = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/** A change: `oldCount` lines from `oldStart` replaced by `newCount` lines from `newStart` (0-based). */
interface Change {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

/** xdl_build_script: the changes of the two compacted sides, in order. */
function changesOf(a: Side, b: Side): Change[] {
  const changes: Change[] = [];
  let i = 0;
  let j = 0;
  while (i < a.lines.length || j < b.lines.length) {
    if (isChanged(a, i) || isChanged(b, j)) {
      const change = { oldStart: i, oldCount: 0, newStart: j, newCount: 0 };
      while (isChanged(a, i)) (i++, change.oldCount++);
      while (isChanged(b, j)) (j++, change.newCount++);
      changes.push(change);
    } else {
      i++;
      j++;
    }
  }
  return changes;
}

function functionContext(oldLines: readonly string[], hunkStart: number): string {
  for (let index = hunkStart - 1; index >= 0; index--) {
    const line = (oldLines[index] ?? "").replace(/\n$/, "");
    if (FUNCNAME_START.test(line)) {
      const cut = Buffer.from(line, "utf8").subarray(0, FUNCNAME_MAX).toString("utf8");
      return ` ${cut.replace(/\s+$/, "")}`;
    }
  }
  return "";
}

const range = (start: number, count: number): string => {
  const from = count === 0 ? start : start + 1;
  return count === 1 ? `${from}` : `${from},${count}`;
};

const printed = (sign: string, line: string): string => (line.endsWith("\n") ? `${sign}${line}` : `${sign}${line}\n\\ No newline at end of file\n`);

/** The hunks of a text change (without the `---`/`+++` header); "" when nothing changed. */
export function unifiedHunks(oldText: string, newText: string): string {
  if (oldText === newText) return "";
  const a: Side = { lines: splitLines(oldText), changed: [] };
  const b: Side = { lines: splitLines(newText), changed: [] };
  let i = 0;
  let j = 0;
  for (const part of diffArrays(a.lines, b.lines)) {
    const count = part.count ?? part.value.length;
    for (let k = 0; k < count; k++) {
      if (part.removed) a.changed[i++] = true;
      else if (part.added) b.changed[j++] = true;
      else (a.changed[i++] = false, b.changed[j++] = false);
    }
  }
  compact(a, b);
  compact(b, a);
  const changes = changesOf(a, b);
  let out = "";
  for (let first = 0; first < changes.length; ) {
    let last = first;
    while (last + 1 < changes.length && changes[last + 1]!.oldStart - (changes[last]!.oldStart + changes[last]!.oldCount) <= 2 * CONTEXT) last++;
    const head = changes[first]!;
    const tail = changes[last]!;
    const oldFrom = Math.max(head.oldStart - CONTEXT, 0);
    const oldTo = Math.min(tail.oldStart + tail.oldCount + CONTEXT, a.lines.length);
    const newFrom = head.newStart - (head.oldStart - oldFrom);
    const newTo = tail.newStart + tail.newCount + (oldTo - (tail.oldStart + tail.oldCount));
    out += `@@ -${range(oldFrom, oldTo - oldFrom)} +${range(newFrom, newTo - newFrom)} @@${functionContext(a.lines, oldFrom)}\n`;
    let x = oldFrom;
    let y = newFrom;
    for (const change of changes.slice(first, last + 1)) {
      while (x < change.oldStart) (out += printed(" ", a.lines[x++]!), y++);
      for (let k = 0; k < change.oldCount; k++) out += printed("-", a.lines[x++]!);
      for (let k = 0; k < change.newCount; k++) out += printed("+", b.lines[y++]!);
    }
    while (x < oldTo) (out += printed(" ", a.lines[x++]!), y++);
    first = last + 1;
  }
  return out;
}
