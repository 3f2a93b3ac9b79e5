/**
 * The guard's verdict (./guard.ts `guardVerdict`) as the threat model states
 * it: each row a situation that an attacker or a failure makes, and what the
 * apply does then. The evidence is built as the command gathers it: the
 * review as its note's data, the preview taken before the apply (with the
 * stack's state its refresh read), the delete verification's refusals.
 */
import { describe, expect, it } from "vitest";
import { reviewOf } from "../../src/review/changes";
import { EXIT, guardVerdict, type Reviewed, type Verdict } from "../../src/review/guard";
import type { PreviewOutput, PreviewStep } from "../../src/review/preview";
import { reportOf } from "../../src/review/markdown";
import { renderingOf, summaryOf } from "../../src/review/summary";

const TYPE = "pulumi-nodejs:dynamic/platform:Badge";
const urnOf = (name: string) => `urn:pulumi:dev::infra::${TYPE}::${name}`;
const inputsOf = (name: string, linkUrl: string) => ({ group: "acme", name, linkUrl, imageUrl: "https://ci.example.com/b.svg" });
const stateOf = (id: number, name: string, linkUrl: string, extra: Record<string, unknown> = {}) => ({ type: TYPE, id: `groups/acme/badges/${id}`, inputs: inputsOf(name, linkUrl), outputs: { ...inputsOf(name, linkUrl), badgeId: id }, ...extra });

const create = (name: string, linkUrl: string): PreviewStep => ({ op: "create", urn: urnOf(name), newState: { type: TYPE, inputs: inputsOf(name, linkUrl) } });
const update = (id: number, name: string, from: string, to: string, extra: Record<string, unknown> = {}): PreviewStep => ({
  op: "update",
  urn: urnOf(name),
  oldState: stateOf(id, name, from, extra),
  newState: stateOf(id, name, to),
});
const refresh = (id: number, name: string, linkUrl: string, extra: Record<string, unknown> = {}): PreviewStep => ({ op: "refresh", urn: urnOf(name), oldState: stateOf(id, name, linkUrl, extra), newState: stateOf(id, name, linkUrl, extra) });
const same = (id: number, name: string, linkUrl: string): PreviewStep => ({ op: "same", urn: urnOf(name), oldState: stateOf(id, name, linkUrl), newState: stateOf(id, name, linkUrl) });
const remove = (id: number, name: string, linkUrl: string): PreviewStep => ({ op: "delete", urn: urnOf(name), oldState: stateOf(id, name, linkUrl) });
const preview = (...steps: PreviewStep[]): PreviewOutput => ({ steps });

/** What a failed create left: the engine keeps its object in the state with the create's errors. */
const FAILED_CREATE = { initErrors: ["The badge was created (groups/acme/badges/7) but its image could not be set"] };

/** The reviewed plan of every row: delete badge 4 `legacy`, update badge 2 `docs`, create badge `security-scan`. */
const REVIEWED = preview(remove(4, "legacy", "https://legacy.example.com"), update(2, "docs", "https://docs.example.com", "https://docs.example.com/new"), create("security-scan", "https://scan.example.com"));
/** The review's note as the guard reads it: its data, and what its text, rendered from that data within its size, left out. */
function reviewedNote(plan = REVIEWED, maxChars?: number): Reviewed {
  const summary = summaryOf(reviewOf(plan), { stack: "dev", ...(maxChars ? { max_chars: maxChars } : {}) });
  return { summary, leftOut: reportOf(summary, renderingOf(summary)).leftOut };
}

function verdictOf(situation: { reviewed?: Reviewed; now: PreviewOutput; refusedDeletes?: string[] }): Verdict {
  return guardVerdict({ reviewed: situation.reviewed ?? reviewedNote(), now: situation.now, proposed: reviewOf(situation.now).changes, refusedDeletes: situation.refusedDeletes ?? [] });
}

/** A verdict as a row's expectation reads it: applied, or the stop's reason, exit status and first reasons. */
function outcome(verdict: Verdict): { applies: true; log: string[] } | { applies: false; reason: string; exitCode: number; found: string[] } {
  return verdict.accepted ? { applies: true, log: verdict.log } : { applies: false, reason: verdict.reason, exitCode: verdict.exitCode, found: verdict.found };
}

const DELETE = remove(4, "legacy", "https://legacy.example.com");
const UPDATE = update(2, "docs", "https://docs.example.com", "https://docs.example.com/new");
const CREATE = create("security-scan", "https://scan.example.com");

describe("the guard's verdict", () => {
  it.each([
    {
      situation: "the apply would do what the review showed",
      now: preview(DELETE, UPDATE, CREATE),
      expected: { applies: true, log: [] },
    },
    {
      situation: "a badge changed by hand since the review: the update's before value differs",
      now: preview(DELETE, update(2, "docs", "https://evil.example.com", "https://docs.example.com/new"), CREATE),
      expected: { applies: false, reason: "differs", exitCode: EXIT.notReviewed, found: ["updates badge 2 `docs` of group acme: fields differ from the review: linkUrl"] },
    },
    {
      situation: "the program does more on the default branch than it did in review: a create nobody reviewed",
      now: preview(DELETE, UPDATE, CREATE, create("backdoor", "https://evil.example.com")),
      expected: { applies: false, reason: "differs", exitCode: EXIT.notReviewed, found: ["not reviewed: creates badge `backdoor` of group acme"] },
    },
    {
      situation: "a reviewed create now an update of another team's badge, with no failed create of it in the state (what a forged result note claimed)",
      now: preview(DELETE, UPDATE, refresh(1, "security-scan", "https://theirs.example.com"), update(1, "security-scan", "https://theirs.example.com", "https://scan.example.com")),
      expected: {
        applies: false,
        reason: "differs",
        exitCode: EXIT.notReviewed,
        found: [
          "not reviewed: updates badge 1 `security-scan` of group acme",
          "reviewed but no longer proposed: creates badge `security-scan` of group acme",
          "creates badge `security-scan` of group acme: the preview shows its object made already, but not as that create finishing: " +
            "the stack's state does not record a create of it that failed after making its object (groups/acme/badges/1 is in the state as any object is)",
        ],
      },
    },
    {
      situation: "a retry after the create failed once its badge was made: the state records the failed create, and the update finishes it with the reviewed values",
      now: preview(refresh(7, "security-scan", "https://scan.example.com", FAILED_CREATE), DELETE, UPDATE, update(7, "security-scan", "https://scan.example.com", "https://scan.example.com", FAILED_CREATE)),
      expected: { applies: true, log: ["creates badge `security-scan` of group acme: its create failed in an earlier apply after the object was made; this apply finishes it with the reviewed values"] },
    },
    {
      situation: "the same retry with another link than the review's",
      now: preview(refresh(7, "security-scan", "https://scan.example.com", FAILED_CREATE), DELETE, UPDATE, update(7, "security-scan", "https://scan.example.com", "https://evil.example.com", FAILED_CREATE)),
      expected: {
        applies: false,
        reason: "differs",
        exitCode: EXIT.notReviewed,
        found: [
          "not reviewed: updates badge 7 `security-scan` of group acme",
          "reviewed but no longer proposed: creates badge `security-scan` of group acme",
          "creates badge `security-scan` of group acme: the preview shows its object made already, but not as that create finishing: the values declared now differ from the reviewed create's: linkUrl",
        ],
      },
    },
    {
      situation: "a retry after an apply that made two of the three changes: the state shows them done as reviewed",
      now: preview(same(2, "docs", "https://docs.example.com/new"), same(9, "security-scan", "https://scan.example.com"), DELETE),
      expected: { applies: true, log: ["the stack's state shows 2 of the reviewed changes done as reviewed; the rest of the review is held against this preview"] },
    },
    {
      situation: "a reviewed update the state holds with another value (set by hand, and the program's now), proposed no more",
      now: preview(same(2, "docs", "https://elsewhere.example.com"), DELETE, CREATE),
      expected: { applies: false, reason: "differs", exitCode: EXIT.notReviewed, found: ["reviewed but no longer proposed: updates badge 2 `docs` of group acme"] },
    },
    {
      situation: "a reviewed delete whose object is gone from the state and the program",
      now: preview(UPDATE, CREATE),
      expected: { applies: true, log: ["the stack's state shows 1 of the reviewed changes done as reviewed; the rest of the review is held against this preview"] },
    },
    {
      situation: "a delete the server would refuse the apply's token",
      now: preview(DELETE, UPDATE, CREATE),
      refusedDeletes: ["Badge: could not delete groups/acme/badges/4: group: the token's user (dev) needs the Owner role on group acme for Badge, and is Developer there"],
      expected: { applies: false, reason: "delete-refused", exitCode: EXIT.failed, found: ["Badge: could not delete groups/acme/badges/4: group: the token's user (dev) needs the Owner role on group acme for Badge, and is Developer there"] },
    },
    {
      situation: "a difference and a refused delete: the difference is what stops it",
      now: preview(DELETE, UPDATE),
      refusedDeletes: ["Badge: could not delete groups/acme/badges/4"],
      expected: { applies: false, reason: "differs", exitCode: EXIT.notReviewed, found: ["reviewed but no longer proposed: creates badge `security-scan` of group acme"] },
    },
  ])("$situation", ({ now, refusedDeletes, expected }) => {
    expect(outcome(verdictOf({ now, refusedDeletes }))).toEqual(expected);
  });

  it("no review to hold the apply to (a commit pushed straight to the branch, no note of the bot's, an edited note): stops, with what to do next", () => {
    const verdict = verdictOf({ reviewed: { missing: "no merged merge request brought commit abc", next: "open a merge request" }, now: preview(DELETE) });
    expect(verdict).toMatchObject({ accepted: false, reason: "not-reviewed", exitCode: EXIT.notReviewed, found: ["no merged merge request brought commit abc"], next: "open a merge request" });
  });

  it("a review whose note could not show every value (its size limit): stops, naming what it did not show, though the plan matches", () => {
    const creates = Array.from({ length: 40 }, (_, index) => create(`scan-${index}`, `https://scan.example.com/${"&.".repeat(40)}${index}`));
    const plan = preview(DELETE, UPDATE, ...creates);
    const verdict = verdictOf({ reviewed: reviewedNote(plan, 9000), now: plan });
    expect(verdict.accepted).toBe(false);
    if (verdict.accepted) return;
    expect(verdict.reason).toBe("not-shown");
    expect(verdict.exitCode).toBe(EXIT.notReviewed);
    expect(verdict.found[0]).toMatch(/^not shown in the review: (the values of )?creates badge `scan-\d+` of group acme/);
    // What changes existing objects is shown longest: no update or delete among what was not shown.
    expect(verdict.found.some((line) => /updates|deletes/.test(line))).toBe(false);
    // The same plan in a note large enough: applied.
    expect(verdictOf({ reviewed: reviewedNote(plan), now: plan }).accepted).toBe(true);
  });
});
