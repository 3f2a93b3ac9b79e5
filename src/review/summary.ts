/**
 * The review as data (`platform-review --json`, and the last line of its
 * note): what the apply's guard (./guard.ts) holds a later preview to. Secret
 * values are not in it: where a secret changed, it says only that it did. It
 * holds all the report was rendered from, so the guard can render it again
 * and hold it against the note a reviewer read. The one codec of note data.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { CHANGE_KINDS, isRecord, kindOf, nameOf, type Review } from "./changes";
import type { CodeChanges } from "./code-changes";
import { countsLine, type MarkdownOptions, sentenceOf } from "./markdown";

export const SUMMARY_VERSION = 2;

/** What a report was rendered from besides the review: with the review, `markdownOf` renders it again, the same. */
export interface Rendering {
  stack?: string;
  /** The line under the verdict (which commit, which job). */
  context?: string;
  /** The longest report it was rendered within (the note's limit less its data). */
  max_chars?: number;
  /** The files the merge request changes, as git read them in the report job (its code, dependencies and pipeline), or why they were not read. */
  code_changes?: CodeChanges;
}

/** The options that render a summary's report again as it was rendered (`markdownOf`, `reportOf`). */
export const renderingOf = (summary: Summary): MarkdownOptions => ({
  stack: summary.stack,
  context: summary.context,
  maxChars: summary.max_chars,
  ...(summary.code_changes ? { codeChanges: summary.code_changes } : {}),
});

export interface Summary extends Review, Rendering {
  version: typeof SUMMARY_VERSION;
  /** The verdict's counts in words: "1 to delete, 2 to update". */
  counts_line: string;
  /** Each change's sentence, in the report's order. */
  sentences: string[];
}

export function summaryOf(review: Review, rendering: Rendering = {}): Summary {
  const given = Object.fromEntries(Object.entries(rendering).filter(([, value]) => value !== undefined)) as Rendering;
  return { version: SUMMARY_VERSION, ...given, ...review, counts_line: countsLine(review), sentences: review.changes.map((change) => sentenceOf(change)) };
}

const shownSchema = z.union([
  // A shortened text first: a union keeps the first that parses, and the plain one would drop the digest.
  z.object({ value: z.string(), characters: z.number(), sha256: z.string() }),
  z.object({ value: z.string() }),
  z.object({ secret: z.literal(true) }),
  z.object({ unknown: z.literal(true) }),
  z.object({ absent: z.literal(true) }),
  z.object({ tokenUser: z.literal(true) }),
]);

const problemSchema = z.object({ resource: z.string().optional(), message: z.string() });

const summarySchema = z.looseObject({
  version: z.literal(SUMMARY_VERSION, { error: `must be ${SUMMARY_VERSION}: written by another version of platform-review` }),
  stack: z.string().optional(),
  context: z.string().optional(),
  max_chars: z.number().int().positive().optional(),
  code_changes: z.union([z.object({ files: z.array(z.string()) }), z.object({ unread: z.string() })]).optional(),
  ok: z.boolean(),
  counts: z.record(z.enum(CHANGE_KINDS), z.number().int().nonnegative()),
  problems: z.array(problemSchema),
  warnings: z.array(problemSchema),
  changes: z.array(
    z.looseObject({
      kind: z.string(),
      type: z.string(),
      name: z.string(),
      urn: z.string(),
      owner: z.string(),
      object: z.string(),
      newOwner: z.string().optional(),
      reasons: z.array(z.string()).optional(),
      note: z.string().optional(),
      verb: z.object({ now: z.string(), done: z.string() }).optional(),
      fields: z.array(z.object({ path: z.string(), before: shownSchema, after: shownSchema })),
    }),
  ),
});

/** A summary written by `--json`, read back; a message naming what is wrong otherwise. */
export function parseSummary(text: string): Summary {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`The reviewed summary is not JSON: ${(error as Error).message}`);
  }
  return checkedSummary(value);
}

/** A summary's value checked against the schema; a message naming what is wrong otherwise. */
function checkedSummary(value: unknown): Summary {
  const parsed = summarySchema.safeParse(value);
  if (!parsed.success) throw new Error(`The reviewed summary is not one platform-review --json wrote: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
  return parsed.data as unknown as Summary;
}

/** The most a note's data may decompress to: far more than any report's (whose note is at most 1,000,000 characters). */
export const DATA_LIMIT_BYTES = 8 * 1024 * 1024;

const DATA_LINE = /^<!-- platform-review-data ([A-Za-z0-9+/]+={0,2}) -->$/;

/**
 * The review's data as a comment for the last line of its note: compressed,
 * and without what the rest of it gives again (each sentence and the counts'
 * words; a change's kind and name, which its URN holds; a field's absent side),
 * so that 15,000 changes fit the bound the guard reads within.
 */
export function dataComment(summary: Summary): string {
  const { sentences: _sentences, counts_line: _counts, ...kept } = summary;
  const changes = summary.changes.map((change) => {
    const { type, name, fields, ...rest } = change;
    return {
      ...rest,
      ...(type === kindOf(undefined, change.urn) ? {} : { type }),
      ...(name === nameOf(change.urn) ? {} : { name }),
      fields: fields.map(({ path, before, after }) => ({ path, ...("absent" in before ? {} : { before }), ...("absent" in after ? {} : { after }) })),
    };
  });
  return `<!-- platform-review-data ${gzipSync(JSON.stringify({ ...kept, changes })).toString("base64")} -->`;
}

/** The data of a note as `dataComment` left it, with what it left out of each change put back (the sentences are derived once it is checked). */
function wholeData(value: unknown): unknown {
  if (!isRecord(value) || !Array.isArray(value.changes)) return value;
  const changes = value.changes.map((change: unknown) => {
    if (!isRecord(change) || typeof change.urn !== "string" || !Array.isArray(change.fields)) return change;
    const absent = { absent: true };
    const fields = change.fields.map((field: unknown) => (isRecord(field) ? { path: field.path, before: field.before ?? absent, after: field.after ?? absent } : field));
    return { ...change, type: change.type ?? kindOf(undefined, change.urn), name: change.name ?? nameOf(change.urn), fields };
  });
  return { ...value, changes };
}

/** Why a note cannot stand as a review: the guard refuses it (NotReviewed). */
export class NoteRefused extends Error {}

/**
 * A review note read back: its data, from the tool's own place only (the
 * note's last line, after the report), and the report above it. Nothing the
 * report holds (a program's warning that prints such a comment) is data.
 */
export function reviewInNote(body: string): { summary: Summary; report: string } {
  const text = body.replace(/\n+$/, "");
  const lineStart = text.lastIndexOf("\n") + 1;
  const match = DATA_LINE.exec(text.slice(lineStart));
  if (!match) throw new NoteRefused("its last line is not the review's data (a note of another version, or one edited by hand)");
  let json: string;
  try {
    json = gunzipSync(Buffer.from(match[1]!, "base64"), { maxOutputLength: DATA_LIMIT_BYTES }).toString("utf8");
  } catch (error) {
    const tooLarge = (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError;
    throw new NoteRefused(tooLarge ? `its data decompresses to more than ${DATA_LIMIT_BYTES / 1024 / 1024} MiB, which no review writes` : "its data is not compressed as the review writes it");
  }
  try {
    const summary = checkedSummary(wholeData(JSON.parse(json)));
    return { summary: { ...summary, counts_line: countsLine(summary), sentences: summary.changes.map((change) => sentenceOf(change)) }, report: text.slice(0, lineStart) };
  } catch (error) {
    throw new NoteRefused(`its data is not the review's: ${(error as Error).message}`);
  }
}
