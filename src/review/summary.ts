/**
 * The review as data (`platform-review --json`), and the guard of the apply:
 * a preview taken again before `up` compared with the one reviewed, change by
 * change and field by field. Secret values are in neither: where a secret
 * changed, both sides say only that it did.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { type Change, type Review, sameValue } from "./changes";
import { countsLine, sentenceOf } from "./markdown";

export const SUMMARY_VERSION = 1;

export interface Summary extends Review {
  version: typeof SUMMARY_VERSION;
  stack?: string;
  /** The verdict's counts in words: "1 to delete, 2 to update". */
  counts_line: string;
  /** Each change's sentence, in the report's order. */
  sentences: string[];
}

export function summaryOf(review: Review, stack?: string): Summary {
  return { version: SUMMARY_VERSION, ...(stack ? { stack } : {}), ...review, counts_line: countsLine(review), sentences: review.changes.map((change) => sentenceOf(change)) };
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

const summarySchema = z.looseObject({
  version: z.literal(SUMMARY_VERSION),
  ok: z.boolean(),
  changes: z.array(
    z.looseObject({
      kind: z.string(),
      type: z.string(),
      name: z.string(),
      urn: z.string(),
      owner: z.string(),
      object: z.string(),
      named: z.object({ noun: z.string(), id: z.string().optional(), label: z.string().optional() }).optional(),
      ownedBy: z.object({ words: z.string(), path: z.string().optional() }).optional(),
      newOwner: z.string().optional(),
      newOwnedBy: z.object({ words: z.string(), path: z.string().optional() }).optional(),
      reasons: z.array(z.string()).optional(),
      fields: z.array(z.object({ path: z.string(), before: shownSchema, after: shownSchema })),
    }),
  ),
});

/** A summary written by `--json`, read back; a message naming what is wrong otherwise. */
export function parseSummary(text: string): Pick<Review, "ok" | "changes"> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`The reviewed summary is not JSON: ${(error as Error).message}`);
  }
  const parsed = summarySchema.safeParse(value);
  if (!parsed.success) throw new Error(`The reviewed summary is not one platform-review --json wrote: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
  return parsed.data as unknown as Pick<Review, "ok" | "changes">;
}

/** One change's identity across two previews: the same resource, the same kind of change, the same object. */
const keyOf = (change: Change) => `${change.urn}\u0000${change.kind}\u0000${change.object}`;

/** What the guard compares of a change besides its identity: whose it is, why it is replaced, and every field in full (a long value by its digest). */
const comparedOf = (change: Change) => ({ owner: change.owner, newOwner: change.newOwner ?? null, reasons: change.reasons ?? [], fields: change.fields });

/**
 * What the preview taken now would do that the reviewed one did not say, or
 * the other way: each difference as a sentence. Empty when they agree.
 */
export function differences(reviewed: Pick<Review, "changes">, now: Pick<Review, "changes">): string[] {
  const before = new Map(reviewed.changes.map((change) => [keyOf(change), change]));
  const after = new Map(now.changes.map((change) => [keyOf(change), change]));
  const found: string[] = [];
  for (const [key, change] of after) {
    const was = before.get(key);
    if (!was) found.push(`not reviewed: ${sentenceOf(change)}`);
    else if (!sameValue(comparedOf(was), comparedOf(change))) found.push(`${sentenceOf(change)}: ${fieldDifference(was, change)}`);
  }
  for (const [key, change] of before) if (!after.has(key)) found.push(`reviewed but no longer proposed: ${sentenceOf(change)}`);
  return found;
}

function fieldDifference(reviewed: Change, now: Change): string {
  const byPath = (change: Change) => new Map(change.fields.map((field) => [field.path, field]));
  const [was, is] = [byPath(reviewed), byPath(now)];
  const differing = [...new Set([...was.keys(), ...is.keys()])].filter((path) => !sameValue(was.get(path), is.get(path)));
  if (differing.length > 0) return `fields differ from the review: ${differing.join(", ")}`;
  return reviewed.owner !== now.owner || reviewed.newOwner !== now.newOwner ? "its owner differs from the review" : "its reasons differ from the review";
}

/** The comment that carries a review's data in its note, for the apply's guard to read back. */
const DATA_COMMENT = /<!-- platform-review-data ([A-Za-z0-9+/=]+) -->/;

/** The review's data as a comment for the end of its note: compressed, so it costs a fraction of the report. */
export function dataComment(summary: Summary): string {
  return `<!-- platform-review-data ${gzipSync(JSON.stringify(summary)).toString("base64")} -->`;
}

/** The review's data from a note's body, or undefined when the note carries none. */
export function summaryInNote(body: string): Pick<Review, "ok" | "changes"> | undefined {
  const match = DATA_COMMENT.exec(body);
  return match ? parseSummary(gunzipSync(Buffer.from(match[1]!, "base64")).toString("utf8")) : undefined;
}
