/**
 * What an apply did, kept so that an apply that failed part way can be run
 * again. An apply's result note ends with its data: the commit it applied and
 * each change it made (its resource, kind and object). The guard of a later
 * apply of the same commit reads it from the review token's own result notes
 * and accepts a plan that is the reviewed one less those changes, where the
 * preview shows each of them done (the object as reviewed and nothing left
 * to do for it, or, for a delete, no object left); anything else it still
 * refuses.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import type { Change } from "./changes";
import type { PreviewOutput } from "./preview";

export const APPLIED_VERSION = 1;

/** A change as the result note names it: enough to find it again in the reviewed plan. */
export interface AppliedStep {
  urn: string;
  kind: string;
  object: string;
}

export interface AppliedRecord {
  version: typeof APPLIED_VERSION;
  /** The commit the apply ran for. */
  commit: string;
  applied: AppliedStep[];
}

const recordSchema = z.object({
  version: z.literal(APPLIED_VERSION),
  commit: z.string(),
  applied: z.array(z.object({ urn: z.string(), kind: z.string(), object: z.string() })),
});

/** The most a result note's data may decompress to (as a review's, see ./summary.ts). */
const DATA_LIMIT_BYTES = 8 * 1024 * 1024;
const DATA_LINE = /^<!-- platform-review-applied-data ([A-Za-z0-9+/]+={0,2}) -->$/;

/** The record as the last line of the result note. */
export function appliedComment(commit: string, changes: readonly Change[]): string {
  const record: AppliedRecord = { version: APPLIED_VERSION, commit, applied: changes.map(({ urn, kind, object }) => ({ urn, kind, object })) };
  return `<!-- platform-review-applied-data ${gzipSync(JSON.stringify(record)).toString("base64")} -->`;
}

/** The record a result note ends with; undefined for a note that has none (a stopped apply's) or one that is not the tool's. */
export function appliedInNote(body: string): AppliedRecord | undefined {
  const match = DATA_LINE.exec(body.replace(/\n+$/, "").split("\n").at(-1) ?? "");
  if (!match) return undefined;
  try {
    const json = gunzipSync(Buffer.from(match[1]!, "base64"), { maxOutputLength: DATA_LIMIT_BYTES }).toString("utf8");
    const parsed = recordSchema.safeParse(JSON.parse(json));
    return parsed.success ? (parsed.data as AppliedRecord) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether two changes are one step: the same resource and kind of change; for
 * an only-these set's removal, the same object too. The object's name is not
 * compared otherwise: a create's object has its number only once applied.
 */
export function sameStep(a: AppliedStep, b: AppliedStep): boolean {
  return a.urn === b.urn && a.kind === b.kind && (a.kind !== "removal" || a.object === b.object);
}

/** The planned changes an apply did not make: all of `planned` that none of `applied` is. */
export function notApplied(planned: readonly Change[], applied: readonly AppliedStep[]): Change[] {
  return planned.filter((change) => change.kind !== "drift" && !applied.some((done) => sameStep(done, change)));
}

/**
 * The reviewed changes less those an earlier apply of the commit made: each
 * one a record names, that the preview taken now no longer proposes, and
 * that the preview shows done. A record alone proves nothing (a note's text
 * can be edited): what is left out must also be done on the server as the
 * refresh read it.
 */
export function lessApplied(reviewed: readonly Change[], records: readonly AppliedRecord[], now: PreviewOutput, proposed: readonly Change[]): { remaining: Change[]; done: Change[] } {
  const applied = records.flatMap((record) => record.applied);
  const remaining: Change[] = [];
  const done: Change[] = [];
  for (const change of reviewed) {
    const recorded = applied.some((step) => sameStep(step, change));
    const stillProposed = proposed.some((other) => sameStep(other, change));
    if (recorded && !stillProposed && shownDone(change, now)) done.push(change);
    else remaining.push(change);
  }
  return { remaining, done };
}

/**
 * Whether the preview shows a change done: a deleted object is in neither the
 * program nor the state; a created,
 * updated, replaced or taken-over one is in the state, with nothing to do
 * (`same`, or its refresh alone); a removal or drift is simply no longer
 * there (the set's refreshed record no longer holds the object).
 */
function shownDone(change: Change, now: PreviewOutput): boolean {
  const steps = (now.steps ?? []).filter((step) => step.urn === change.urn);
  switch (change.kind) {
    case "delete":
      return steps.length === 0;
    case "removal":
    case "drift":
      return true;
    default:
      // The CLI writes no `same` step for some unchanged resources: their refresh alone shows them in the state.
      return steps.length > 0 && steps.every((step) => step.op === "same" || step.op === "refresh");
  }
}
