/**
 * The apply's guard as one decision: from what was reviewed, what the apply
 * would do now, and what the delete verification found, the verdict: apply,
 * or stop, with its reasons, what to do next and the exit status. No request
 * and no file here: the command (./cli.ts) gathers the evidence, this says
 * what it is worth.
 *
 * What earlier applies of the commit did is read from the stack's state only,
 * as the preview taken now shows it: the state is written by applies alone
 * (the protected environment's backend credentials), while every note on a
 * merge request, the bot's included, can be made by a merge request pipeline
 * (its report job posts what its branch gives it, and a branch can change
 * the job). So a reviewed change the state shows done as reviewed is not
 * asked of this apply, and a reviewed create the engine recorded as failed
 * after its object was made (the state's `initErrors` on that object) may
 * finish as an update of that very object; no note can say either.
 */
import { type Change, declaredFields, isPendingDelete, kindOf, sameChange, sameValue, type Shown, shownInState } from "./changes";
import { type LeftOut, sentenceOf } from "./markdown";
import { isStackResource, type PreviewOutput, type PreviewStep, recordsFailedCreate, type StepState } from "./preview";
import type { Summary } from "./summary";

/** The command's exit statuses: the pipeline's job fails on any but `applied`. */
export const EXIT = {
  /** The preview (or apply) succeeded, and the guard let it through. */
  ok: 0,
  /** The preview or apply failed, or the server would refuse a delete of it. */
  failed: 1,
  usage: 2,
  /** Not what was reviewed, not shown by its review, or nothing shows it was reviewed. */
  notReviewed: 3,
} as const;

/**
 * The review the apply is held against, and what its note left out to fit
 * (as the note was rendered from its data), or why none can stand (no merged
 * merge request, no note of the bot's, an edited note).
 */
export type Reviewed = { summary: Summary; leftOut: LeftOut } | { missing: string; next: string };

export interface GuardEvidence {
  reviewed: Reviewed;
  /** The preview taken before applying: what `up` of its saved plan would do, and the stack's state as its refresh read it. */
  now: PreviewOutput;
  /** The changes of `now`, as the review reads them. */
  proposed: readonly Change[];
  /** Each delete of `now` the server would refuse, as the delete verification words it. */
  refusedDeletes: readonly string[];
}

export type StopReason = "not-reviewed" | "differs" | "not-shown" | "delete-refused";

export interface Stop {
  accepted: false;
  reason: StopReason;
  exitCode: number;
  /** Each reason, one line: "not reviewed: deletes badge 4 `legacy` of group acme". */
  found: string[];
  /** The sentence under the stop's heading. */
  lead: string;
  heading: string;
  /** The log's words for the stop. */
  summary: string;
  next: string;
}

export interface Accept {
  accepted: true;
  /** What the apply leaves out of the review, or does otherwise, and why that is the review all the same: for the log. */
  log: string[];
}

export type Verdict = Accept | Stop;

const NOT_REVIEWED_HEADING = "Stopped: this is not what was reviewed";

/**
 * What to do after a stop, where the merge request is merged already: it
 * cannot be approved again, so the change is reviewed again in a merge
 * request of its own.
 */
export const NEXT_WHEN_DIFFERENT =
  "If the server was changed by hand since the review, decide which is right. To keep the hand change, put it into the program in a new merge request. " +
  "To apply the program as it is, open a follow-up merge request from the default branch (a commit that restates the change, or an empty one: " +
  "`git commit --allow-empty`): its review shows what the apply would do now, and the apply of its merge applies it once approved. " +
  "The same when the default branch's program does otherwise than the review (another merge request merged in between).";

const NEXT_WHEN_NOT_SHOWN =
  "Split the change into merge requests whose reports show every change with its values (the report names what it left out), " +
  "or revert this merge and bring the change again in smaller steps; each is applied after its own review.";

const NEXT_WHEN_REFUSED =
  "Give the apply's token (PLATFORM_TOKEN) what each refusal names (the role on the owner, or the object's ownership), or change the program in a new merge request; " +
  "then run the default branch's pipeline again.";

/**
 * The verdict on an apply. In order: a review that cannot stand stops it; so
 * does any difference between the review (less what the state shows done)
 * and what the apply would do now; so does a review whose note did not show
 * all it holds the apply to; so does a delete the server would refuse.
 */
export function guardVerdict(evidence: GuardEvidence): Verdict {
  const { reviewed, now, proposed, refusedDeletes } = evidence;
  if ("missing" in reviewed) {
    return stop("not-reviewed", [reviewed.missing], reviewed.next, "The review of this apply cannot be shown; nothing was applied.", "nothing shows that this commit's changes were reviewed");
  }
  const less = lessDone(reviewed.summary.changes, now, proposed);
  const found = differences(less.remaining, less.proposedRest);
  if (found.length > 0) {
    const unfinished = less.unfinished.map(({ change, reason }) => `${sentenceOf(change)}: the preview shows its object made already, but not as that create finishing: ${reason}`);
    return stop("differs", [...found, ...unfinished], NEXT_WHEN_DIFFERENT, "The preview taken before applying differs from the reviewed one; nothing was applied.", "the preview differs from the reviewed one");
  }
  const leftOut = notShown(reviewed.leftOut, less.remaining);
  if (leftOut.length > 0) {
    return stop(
      "not-shown",
      leftOut,
      NEXT_WHEN_NOT_SHOWN,
      "The review's note did not show all that this apply would do (its size limit); a review counts only for what its reviewers were shown, so nothing was applied.",
      "the review did not show all that the apply would do",
      "Stopped: the review did not show all of this",
    );
  }
  if (refusedDeletes.length > 0) {
    return {
      ...stop("delete-refused", [...refusedDeletes], NEXT_WHEN_REFUSED, "The server would refuse what is listed; nothing was applied.", "the server would refuse a delete of this apply", "Stopped: the server would refuse this"),
      exitCode: EXIT.failed,
    };
  }
  return { accepted: true, log: acceptedLog(less) };
}

function stop(reason: StopReason, found: string[], next: string, lead: string, summary: string, heading = NOT_REVIEWED_HEADING): Stop {
  return { accepted: false, reason, exitCode: EXIT.notReviewed, found, lead, heading, summary, next };
}

function acceptedLog(less: LessDone): string[] {
  return [
    ...(less.done.length > 0 ? [`the stack's state shows ${less.done.length} of the reviewed changes done as reviewed; the rest of the review is held against this preview`] : []),
    ...less.replacementRests.map((change) => `${sentenceOf(change)}: the rest of a reviewed replacement an earlier apply cut after making its new object`),
    ...less.finishing.map((change) => `${sentenceOf(change)}: its create failed in an earlier apply after the object was made; this apply finishes it with the reviewed values`),
  ];
}

/**
 * What the preview taken now would do that the review did not say, or the
 * other way: each difference as a sentence. Empty when they agree: the same
 * changes (see `sameChange`), each of the same owner, reasons and fields
 * (a long value by its digest).
 */
export function differences(reviewed: readonly Change[], now: readonly Change[]): string[] {
  // A review recorded before the stack's own resource was left out of the changes may still list it.
  const before = reviewed.filter((change) => !isStackResource(change.urn));
  // Looked up by resource and kind, then compared by the one rule: a preview may hold tens of thousands of changes.
  const byResource = new Map<string, Change[]>();
  for (const change of before) {
    const key = `${change.urn}\u0000${change.kind}`;
    const same = byResource.get(key);
    if (same) same.push(change);
    else byResource.set(key, [change]);
  }
  const matched = new Set<Change>();
  const found: string[] = [];
  for (const change of now) {
    const was = byResource.get(`${change.urn}\u0000${change.kind}`)?.find((candidate) => !matched.has(candidate) && sameChange(candidate, change));
    if (!was) {
      found.push(`not reviewed: ${sentenceOf(change)}`);
      continue;
    }
    matched.add(was);
    if (!sameValue(comparedOf(was), comparedOf(change))) found.push(`${sentenceOf(change)}: ${fieldDifference(was, change)}`);
  }
  for (const change of before) if (!matched.has(change)) found.push(`reviewed but no longer proposed: ${sentenceOf(change)}`);
  return found;
}

/** What the guard compares of a change besides its identity: whose it is, why it is replaced, and every field in full (a long value by its digest). */
const comparedOf = (change: Change) => ({ owner: change.owner, newOwner: change.newOwner ?? null, reasons: change.reasons ?? [], fields: change.fields });

function fieldDifference(reviewed: Change, now: Change): string {
  const byPath = (change: Change) => new Map(change.fields.map((field) => [field.path, field]));
  const [was, is] = [byPath(reviewed), byPath(now)];
  const differing = [...new Set([...was.keys(), ...is.keys()])].filter((path) => !sameValue(was.get(path), is.get(path)));
  if (differing.length > 0) return `fields differ from the review: ${differing.join(", ")}`;
  return reviewed.owner !== now.owner || reviewed.newOwner !== now.newOwner ? "its owner differs from the review" : "its reasons differ from the review";
}

/**
 * What the review's note left out of what the apply is held to: each change
 * not shown, and each whose fields were not shown. Where the rest of the plan
 * is done, only what remains counts.
 */
function notShown(leftOut: LeftOut, remaining: readonly Change[]): string[] {
  const held = (change: Change) => remaining.includes(change);
  return [
    ...leftOut.changes.filter(held).map((change) => `not shown in the review: ${sentenceOf(change)}`),
    ...leftOut.fields.filter(held).map((change) => `not shown in the review: the values of ${sentenceOf(change)} (${change.fields.map((field) => field.path).join(", ")})`),
  ];
}

/** A reviewed create the state shows made already that is not accepted as that create finishing, and why. */
interface Unfinished {
  change: Change;
  reason: string;
}

interface LessDone {
  /** The reviewed changes this apply is held to. */
  remaining: Change[];
  /** The reviewed changes the state shows done as reviewed. */
  done: Change[];
  /** The reviewed creates that failed after their object was made, which this apply finishes in place. */
  finishing: Change[];
  unfinished: Unfinished[];
  /** The deletes of what reviewed replacements left behind, once their new objects are made. */
  replacementRests: Change[];
  /** The proposed changes the remaining review is compared with. */
  proposedRest: Change[];
}

/**
 * The reviewed changes less those the stack's state shows done: each one the
 * preview no longer proposes and shows done with the reviewed values (see
 * `shownDone`). Besides, each reviewed create the state records as failed
 * after the server made its object, and that the preview shows as that very
 * object finishing (see `finishedCreate`): it leaves the reviewed changes,
 * and its update leaves the proposed ones. A reviewed replacement done whose
 * old object is still to delete leaves that delete out of the proposed
 * changes too. Nothing else is left out: the rest is compared as it is.
 */
function lessDone(reviewed: readonly Change[], now: PreviewOutput, proposed: readonly Change[]): LessDone {
  const less: LessDone = { remaining: [], done: [], finishing: [], unfinished: [], replacementRests: [], proposedRest: [] };
  for (const change of reviewed) {
    const stillProposed = proposed.some((other) => sameChange(other, change));
    if (!stillProposed && shownDone(change, now)) less.done.push(change);
    else if (!stillProposed && change.kind === "create") {
      const verdict = finishedCreate(change, now);
      if (verdict === true) less.finishing.push(change);
      else {
        if (verdict !== undefined) less.unfinished.push({ change, reason: verdict });
        less.remaining.push(change);
      }
    } else less.remaining.push(change);
  }
  const finished = new Set(less.finishing.map((change) => change.urn));
  less.replacementRests = proposed.filter((change) => isRestOfReplacement(change, less.done));
  less.proposedRest = proposed.filter((change) => !(finished.has(change.urn) && change.kind === "update") && !less.replacementRests.includes(change));
  return less;
}

/**
 * Whether a proposed delete is what is left of a reviewed replacement whose
 * new object the state shows made: the old object, as the review names it
 * and its owner, of that very resource. The engine deletes it at the next
 * apply, with no step of its own in the preview: the refresh of the old
 * object, marked to delete, shows it.
 */
function isRestOfReplacement(change: Change, done: readonly Change[]): boolean {
  return change.kind === "delete" && done.some((replaced) => replaced.kind === "replace" && replaced.urn === change.urn && replaced.object === change.object && replaced.owner === change.owner);
}

const stepsOf = (now: PreviewOutput, urn: string): PreviewStep[] => (now.steps ?? []).filter((step) => step.urn === urn);

/**
 * Whether the preview shows a reviewed change done, as reviewed: a deleted
 * object is in neither the program nor the state; a created, updated,
 * replaced or taken-over one is in the state with nothing to do (`same`, or
 * its refresh alone) and every reviewed value in place; a removal or drift is
 * no longer there (the set's refreshed record no longer holds the object, or
 * the program keeps it: either way nothing is destroyed that was not reviewed).
 */
function shownDone(change: Change, now: PreviewOutput): boolean {
  const steps = stepsOf(now, change.urn);
  switch (change.kind) {
    case "delete":
      return steps.length === 0;
    case "removal":
    case "drift":
      return true;
    default: {
      // The CLI writes no `same` step for some unchanged resources: their refresh alone shows them in the state.
      if (steps.length === 0 || !steps.every((step) => step.op === "same" || step.op === "refresh")) return false;
      // An object whose create failed after it was made is not done: it finishes as that create (see finishedCreate).
      if (steps.some((step) => recordsFailedCreate(step.oldState))) return false;
      const state = currentState(steps);
      return state !== undefined && change.fields.every((field) => holds(shownInState(state, change.type, field.path), field.after));
    }
  }
}

/** The object's state as the preview last shows it: a `same` step's, else its refresh's; never the old object a replacement left to delete. */
function currentState(steps: readonly PreviewStep[]): StepState | undefined {
  const same = steps.find((step) => step.op === "same")?.newState;
  if (same) return same;
  return steps.filter((step) => step.op === "refresh").map((step) => step.newState ?? undefined).find((state) => state && !isPendingDelete(state)) ?? undefined;
}

/** Whether the state holds a reviewed value: one the review could not know (known after apply, the token's user) holds whatever it became. */
function holds(inState: Shown, reviewed: Shown): boolean {
  if ("unknown" in reviewed || "tokenUser" in reviewed) return true;
  return sameValue(inState, reviewed);
}

/**
 * Whether the preview shows a reviewed create that failed after the server
 * made its object as that object finishing: the engine keeps such an object
 * in the state with the create's errors (`initErrors`), so the retry's
 * preview updates it in place (or has nothing left to do) instead of
 * creating it. True when the state so records it (the engine's own record:
 * no note can make one), the type is the reviewed one, and the values
 * declared now, as the review records them (a secret as secret), are the
 * reviewed create's. With nothing left to do the preview has no declared
 * values, and the state's stand for them. Otherwise the reason; undefined
 * where the preview does not show the resource in the state at all.
 */
function finishedCreate(change: Change, now: PreviewOutput): true | string | undefined {
  const steps = stepsOf(now, change.urn);
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
  if (!steps.some((step) => recordsFailedCreate(step.oldState))) return `the stack's state does not record a create of it that failed after making its object (${state.id} is in the state as any object is)`;
  const declared = new Map(declaredFields(step?.newState ?? state, change.type).map((field) => [field.path, field]));
  const reviewedFields = new Map(change.fields.map((field) => [field.path, field]));
  const differing = [...new Set([...declared.keys(), ...reviewedFields.keys()])].filter((path) => !sameValue(declared.get(path), reviewedFields.get(path))).sort();
  if (differing.length > 0) return `the values declared now differ from the reviewed create's: ${differing.join(", ")}`;
  return true;
}
