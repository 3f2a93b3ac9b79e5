/**
 * The scheduled drift check's issue: one per stack on the project, opened when
 * the platform and the program differ, rewritten in place on every check, and
 * closed when they match again. It tells apart what changed on the server
 * outside the program (the refresh's drift, and the program's steps that
 * would put it back: the check fails) from what the default branch's program
 * would change on objects nobody touched, changes merged but not yet applied
 * (reported; the check does not fail on them alone).
 */
import { ISSUE_DESCRIPTION_LIMIT, type Issue, issueRequests, issuePath, issuesPath } from "../api/issues";
import { CURRENT_USER_PATH, userRequests } from "../api/users";
import { client } from "../engine/process-connections";
import { type Change, pathParts, type Review } from "./changes";
import { termsOf } from "./terms";
import { markdownOf } from "./markdown";
import { type NoteTarget, withTarget } from "./post";

/** What a drift check found, apart. */
export interface DriftFound {
  /** What the refresh found changed on the server outside the program. */
  outside: Change[];
  /** The program's changes to objects that drifted: they would put the server back. */
  reversals: Change[];
  /** The program's changes to objects that did not drift: merged, not yet applied. */
  pending: Change[];
}

/**
 * The review apart, by what was applied: the refresh's drift (each field the
 * server holds other than last applied) is outside the program, and so is each
 * object an only-these set would delete (on the server, kept by no one: made
 * by hand since the set's last apply). Of the program's changes, the fields
 * that drifted would be put back; every other field is the program's own
 * change since the last apply: merged, not yet applied. An update with both
 * is told apart field by field.
 */
export function driftFound(review: Review): DriftFound {
  const outside = review.changes.filter((change) => change.kind === "drift" || change.kind === "removal");
  const drifted = new Map<string, Change>();
  for (const change of outside) if (change.kind === "drift") drifted.set(change.urn, change);
  const reversals: Change[] = [];
  const pending: Change[] = [];
  for (const change of review.changes) {
    if (change.kind === "drift" || change.kind === "removal") continue;
    const drift = drifted.get(change.urn);
    if (!drift) pending.push(change);
    else if (change.kind !== "update" || isObjectNotFound(drift)) reversals.push(change);
    else {
      const putBack = change.fields.filter((field) => drift.fields.some((found) => related(found.path, field.path)));
      const own = change.fields.filter((field) => !putBack.includes(field) && !isOwnershipNote(change, field.path));
      if (putBack.length > 0 || own.length === 0) reversals.push({ ...change, fields: change.fields.filter((field) => !own.includes(field)) });
      if (own.length > 0) pending.push({ ...change, fields: own });
    }
  }
  return { outside, reversals, pending };
}

const isObjectNotFound = (drift: Change) => drift.fields.length === 1 && drift.fields[0]!.path === "(the object)";

/** Whether two field paths are one field or one holds the other (`variables` and `variables.TOKEN.value`). */
function related(a: string, b: string): boolean {
  const [x, y] = [pathParts(a), pathParts(b)];
  return x.slice(0, Math.min(x.length, y.length)).every((part, i) => part === y[i]);
}

/** The line an update of a schedule with `takeOwnership` adds on whom its pipelines run as: no field of the program's. */
const isOwnershipNote = (change: Change, path: string) => {
  const ownership = termsOf(change.type).ownership;
  return ownership !== undefined && path.startsWith(`${ownership.output} (`);
};

/** The first line of the stack's issue: how the check finds it again (with its author: the token's user). */
export const driftMarkerOf = (stack: string | undefined) => `<!-- platform-review-drift stack=${JSON.stringify(stack ?? "")} -->`;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

function titleOf(review: Review, found: DriftFound, stack: string | undefined): string {
  const of = stack ? `stack ${stack}` : "the stack";
  if (!review.ok) return `Drift check of ${of} failed`;
  if (found.outside.length > 0) return `Drift on ${of}: ${plural(found.outside.length, "object")} changed outside the program`;
  if (found.pending.length > 0) return `Drift on ${of}: ${plural(found.pending.length, "change")} merged but not yet applied`;
  const unread = review.unread?.length ?? 0;
  return `No drift on ${of}: the platform matches the program${unread > 0 ? `, but for ${plural(unread, "secret value")} the server never shows (not compared)` : ""}`;
}

function noticeOf(review: Review, found: DriftFound): string[] {
  if (review.ok && found.outside.length === 0 && found.pending.length === 0) {
    const unread = (review.unread?.length ?? 0) > 0 ? ", but for the secret values the server never shows, which it could not compare (below)" : "";
    return [`The platform matches the program again${unread}: this issue is closed.`, ""];
  }
  const lines = ["#### What the drift check found", ""];
  if (found.outside.length > 0) {
    lines.push(
      `- **Changed outside the program: ${plural(found.outside.length, "object")}** (the drift section below, and objects an only-these set does not keep; ` +
        "the check fails). Decide which is right: " +
        "put the change into the program (a merge request), or let the next apply put the program's values back" +
        (found.reversals.length > 0 ? ` (${plural(found.reversals.length, "change")} below would).` : "."),
    );
  }
  if (found.pending.length > 0) {
    lines.push(
      `- **Merged but not yet applied: ${plural(found.pending.length, "change")}** to objects nobody changed by hand: the default branch's apply has not run ` +
        "for them, or stopped (see its pipeline and its note on the merge request). The check does not fail on them.",
    );
  }
  if (!review.ok) lines.push("- **The preview failed**: the problems below; the check fails.");
  return [...lines, ""];
}

/**
 * Opens, rewrites or closes the stack's drift issue; the exit status of the
 * check: 1 when something changed outside the program or the preview failed.
 */
export async function reportDrift(
  target: NoteTarget,
  review: Review,
  options: { stack?: string; context?: string },
): Promise<{ code: number; action: "opened" | "updated" | "reopened" | "closed" | "none"; issue?: Issue; found: DriftFound }> {
  const found = driftFound(review);
  const marker = driftMarkerOf(options.stack);
  const clean = review.ok && found.outside.length === 0 && found.pending.length === 0;
  const report = markdownOf(review, { stack: options.stack, context: options.context, notice: noticeOf(review, found), maxChars: ISSUE_DESCRIPTION_LIMIT - marker.length - 1 });
  const description = `${marker}\n${report}`;
  const title = titleOf(review, found, options.stack);
  const code = review.ok && found.outside.length === 0 ? 0 : 1;
  return withTarget(target, async () => {
    const api = client();
    const me = await userRequests.get(api, CURRENT_USER_PATH);
    const mine = (issue: Issue) => issue.author.id === me.id && (issue.description ?? "").startsWith(marker);
    const existing = await issueRequests.find(api, issuesPath(target.project), { author_id: me.id, state: "all", order_by: "created_at", sort: "asc" }, mine);
    if (clean) {
      if (!existing || existing.state === "closed") return { code, action: "none", issue: existing, found };
      const closed = await issueRequests.put(api, issuePath(target.project, existing.iid), { title, description, state_event: "close" });
      return { code, action: "closed", issue: closed, found };
    }
    if (existing) {
      const reopen = existing.state === "closed";
      const updated = await issueRequests.put(api, issuePath(target.project, existing.iid), { title, description, ...(reopen ? { state_event: "reopen" } : {}) });
      return { code, action: reopen ? "reopened" : "updated", issue: updated, found };
    }
    const created = await issueRequests.post(api, issuesPath(target.project), { title, description }, () => issueRequests.find(client(), issuesPath(target.project), { author_id: me.id, state: "opened", order_by: "created_at", sort: "desc" }, mine));
    return { code, action: "opened", issue: created, found };
  });
}
