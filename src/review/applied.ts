/**
 * What an apply did, kept so that an apply that failed part way can be run
 * again. An apply's result note ends with its data: the commit it applied,
 * each change it made (its resource, kind and object), and each create that
 * failed after the server made its object (that object's id). The guard of a
 * later apply of the same commit reads it from the review token's own result
 * notes and accepts a plan that is the reviewed one less those changes, where
 * the preview shows each of them done (the object as reviewed and nothing left
 * to do for it, or, for a delete, no object left), and where a create that
 * failed so shows as that object finishing (updated in place to the reviewed
 * values, or nothing left to do); anything else it still refuses.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { type Change, declaredFields, kindOf, sameValue } from "./changes";
import type { PreviewOutput, PreviewStep } from "./preview";

export const APPLIED_VERSION = 1;

/** A change as the result note names it: enough to find it again in the reviewed plan. */
export interface AppliedStep {
  urn: string;
  kind: string;
  object: string;
}

/** A create that failed after the server made its object: the engine keeps that object in the state, with the failure. */
export interface MadeStep {
  urn: string;
  /** The id of the object it made, as the state holds it. */
  id: string;
}

export interface AppliedRecord {
  version: typeof APPLIED_VERSION;
  /** The commit the apply ran for. */
  commit: string;
  applied: AppliedStep[];
  /** The creates that failed after the server made their object (none in a record written before they were kept). */
  made?: MadeStep[];
}

const recordSchema = z.object({
  version: z.literal(APPLIED_VERSION),
  commit: z.string(),
  applied: z.array(z.object({ urn: z.string(), kind: z.string(), object: z.string() })),
  made: z.array(z.object({ urn: z.string(), id: z.string() })).optional(),
});

/** The most a result note's data may decompress to (as a review's, see ./summary.ts). */
const DATA_LIMIT_BYTES = 8 * 1024 * 1024;
const DATA_LINE = /^<!-- platform-review-applied-data ([A-Za-z0-9+/]+={0,2}) -->$/;

/** The record as the last line of the result note. */
export function appliedComment(commit: string, changes: readonly Change[], made: readonly MadeStep[] = []): string {
  const record: AppliedRecord = {
    version: APPLIED_VERSION,
    commit,
    applied: changes.map(({ urn, kind, object }) => ({ urn, kind, object })),
    ...(made.length > 0 ? { made: made.map(({ urn, id }) => ({ urn, id })) } : {}),
  };
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

/** A reviewed create the preview shows in the state that is not accepted as that create finishing, and why. */
export interface Unfinished {
  change: Change;
  reason: string;
}

/**
 * The reviewed changes less those an earlier apply of the commit made: each
 * one a record names, that the preview taken now no longer proposes, and
 * that the preview shows done. A record alone proves nothing (a note's text
 * can be edited): what is left out must also be done on the server as the
 * refresh read it. Besides, each reviewed create that a record shows failed
 * after the server made its object, and that the preview shows as that very
 * object finishing (see `finishing`): it leaves the reviewed changes, and its
 * update leaves the proposed ones (`proposedRest`). Each reviewed create the
 * preview shows in the state but not so is `unfinished`, with the reason.
 * A reviewed replacement so done whose old object is still to delete leaves
 * that delete out of the proposed changes too (`replacementRests`).
 */
export function lessApplied(
  reviewed: readonly Change[],
  records: readonly AppliedRecord[],
  now: PreviewOutput,
  proposed: readonly Change[],
): { remaining: Change[]; done: Change[]; finishing: Change[]; unfinished: Unfinished[]; replacementRests: Change[]; proposedRest: Change[] } {
  const applied = records.flatMap((record) => record.applied);
  const remaining: Change[] = [];
  const done: Change[] = [];
  const finishing: Change[] = [];
  const unfinished: Unfinished[] = [];
  for (const change of reviewed) {
    const recorded = applied.some((step) => sameStep(step, change));
    const stillProposed = proposed.some((other) => sameStep(other, change));
    if (recorded && !stillProposed && shownDone(change, now)) done.push(change);
    else if (!recorded && !stillProposed && change.kind === "create") {
      const verdict = finishedCreate(change, records, now);
      if (verdict === true) finishing.push(change);
      else {
        if (verdict !== undefined) unfinished.push({ change, reason: verdict });
        remaining.push(change);
      }
    } else remaining.push(change);
  }
  const finished = new Set(finishing.map((change) => change.urn));
  const replacementRests = proposed.filter((change) => isRestOfReplacement(change, done));
  const proposedRest = proposed.filter((change) => !(finished.has(change.urn) && change.kind === "update") && !replacementRests.includes(change));
  return { remaining, done, finishing, unfinished, replacementRests, proposedRest };
}

/**
 * Whether a proposed delete is what is left of a reviewed replacement an
 * earlier apply of the commit made its new object for, and cut before its
 * delete: the old object, as the review names it and its owner, of that very
 * resource. The engine deletes it at the next apply, with no step of its own
 * in the preview: the refresh of the old object, marked to delete, shows it.
 */
function isRestOfReplacement(change: Change, done: readonly Change[]): boolean {
  return change.kind === "delete" && done.some((replaced) => replaced.kind === "replace" && replaced.urn === change.urn && replaced.object === change.object && replaced.owner === change.owner);
}

/**
 * Whether the preview shows a reviewed create that failed after the server
 * made its object as that object finishing: the engine keeps such an object
 * in the state, so the retry's preview updates it in place (or has nothing
 * left to do) instead of creating it. True when it is provably the reviewed
 * create: the same resource and type; the object in the state the one the
 * failed create made (its id, as a result note of this commit by the review
 * token's user records it); and the values declared now, as the review
 * records them (a secret as secret), the reviewed create's. With nothing left
 * to do the preview has no declared values, and the state's (those the failed
 * create recorded) stand for them. Otherwise the reason; undefined where the
 * preview does not show the resource in the state at all.
 */
function finishedCreate(change: Change, records: readonly AppliedRecord[], now: PreviewOutput): true | string | undefined {
  const steps = (now.steps ?? []).filter((step) => step.urn === change.urn);
  const acting = steps.filter((step) => step.op !== "refresh");
  const refresh = steps.find((step) => step.op === "refresh");
  const step: PreviewStep | undefined = acting[0];
  if (acting.length > 1 || (step && step.op !== "update" && step.op !== "same")) {
    return step?.op === "create" ? undefined : `the preview does not finish it in place (its steps: ${acting.map((other) => other.op).join(", ")})`;
  }
  const state = step?.oldState ?? refresh?.oldState;
  if (!state?.id) return undefined;
  const type = kindOf(step?.newState?.type ?? state.type, change.urn);
  if (type !== change.type) return `the state holds a ${type}, not a ${change.type}`;
  const made = records.flatMap((record) => record.made ?? []).find((entry) => entry.urn === change.urn);
  if (!made) {
    return records.length === 0
      ? "no result note of an earlier apply of this commit by the review token's user says that its create failed after the object was made"
      : "the result notes of the earlier applies of this commit do not say that its create failed after the object was made";
  }
  if (made.id !== state.id) return `the object in the state (${state.id}) is not the one the failed create made (${made.id})`;
  const declared = new Map(declaredFields(step?.newState ?? state, change.type).map((field) => [field.path, field]));
  const reviewed = new Map(change.fields.map((field) => [field.path, field]));
  const differing = [...new Set([...declared.keys(), ...reviewed.keys()])].filter((path) => !sameValue(declared.get(path), reviewed.get(path))).sort();
  if (differing.length > 0) return `the values declared now differ from the reviewed create's: ${differing.join(", ")}`;
  return true;
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
