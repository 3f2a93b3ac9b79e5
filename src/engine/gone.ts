/**
 * Gone or hidden. A server answers 404 for an object that no longer exists,
 * and also for one the token's user may not see (a pipeline schedule, to a
 * Guest; a private group, to a non-member; a gated API, below its tier). So a
 * 404 on a read (refresh) or a delete drops an object from the stack only when
 * the token could have seen it: the role it needs to read it (its declaration's
 * `needs(args, "read")`) is one the token's user has on the owner, and the
 * gates a 404 may also mean (`refusedWith[404]`) are known to be met.
 * Otherwise the step fails, naming the object and what seeing it needs, and
 * the object stays in the stack: what the server still has never leaves the
 * state silently. A fact the server will not tell (a membership it hides, a
 * plan shown only to Owners) is no proof of gone either.
 *
 * The reads are the preview's (./verify.ts), shared by the run: the user once,
 * each owner once, the role on it once; only when a 404 needs judging.
 */
import { ApiError } from "../client";
import type { EngineContext } from "./definition";
import { ownerInWords, ROLE_LEVELS, roleInWords, tierInWords, type Needs, type Role } from "../api/needs";
import { readsOf } from "./run-caches";
import { accessLevel, flagShortfall, ownerFacts, ownerName, tierStanding, tokenUser } from "./verify";

/**
 * Whether the 404 is one a gate of the API may give (`404 Not Found`, as the server's `not_found!` says it), with
 * the gate declared for it. ActiveRecord's `404 Not found` (a lowercase f) is raised only once the gates passed,
 * and a 404 naming an object is that object's.
 */
const gatedNotFound = (needs: Needs, error: unknown): boolean =>
  (needs.refusedWith?.[404]?.length ?? 0) > 0 && error instanceof ApiError && error.notFoundSubject === "" && error.serverMessage.trim() !== "404 Not found";

/**
 * Why a 404 for this object does not prove it gone, in words; undefined when
 * the token could have seen it (then it is gone). `needs` are the object's
 * needs to be read; `error` the 404 (undefined when the read found nothing).
 */
export async function hiddenFromToken(ctx: EngineContext, needs: Needs, what: string, error?: unknown): Promise<string | undefined> {
  if (needs.noRequest) return undefined;
  const reads = readsOf(ctx.client);
  let reason: string | undefined;
  try {
    reason = await unseen(ctx, reads, needs, what, error);
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    reason = `whether the token's user may see ${what} could not be read (${said})`;
  }
  return reason && `the server answers 404, but ${reason}; nothing was removed from the stack. If it was deleted, remove this resource from the stack with \`pulumi state delete\`.`;
}

async function unseen(ctx: EngineContext, reads: ReturnType<typeof readsOf>, needs: Needs, what: string, error: unknown): Promise<string | undefined> {
  const user = await tokenUser(ctx, reads);
  const on = needs.on;
  const gated = gatedNotFound(needs, error);
  // An administrator sees every group, project and object: only a gate of the API may hide one from it.
  if (on.kind === "instance" || (user.isAdmin && !gated)) return undefined;
  if (on.kind === "described") return `the preview cannot tell whether the token's user (${user.username}) may see ${on.what}`;
  const ref = on.kind === "group object" ? await on.groupOf(ctx).catch(() => undefined) : on.ref;
  const owner = ref === undefined ? undefined : await ownerFacts(ctx, reads, on.kind === "group object" ? "group" : on.kind, ref);
  if (!owner) {
    if (user.isAdmin) return undefined; // an administrator sees every group and project: the owner is gone, and the object with it
    return `${ownerInWords(on)} does not exist, or the token's user (${user.username}) cannot see it`;
  }
  if (gated) {
    const gates = needs.refusedWith![404]!;
    if (gates.includes("tier") && needs.tier) {
      const standing = await tierStanding(ctx, reads, owner, user, needs.tier);
      if (standing.shortfall) return `${ownerName(owner)} is below ${tierInWords(needs.tier)} (${standing.shortfall}), and this API answers 404 then`;
      if (!standing.known) return `this API answers 404 also when ${ownerName(owner)} is below ${tierInWords(needs.tier)}, which the token's user (${user.username}) cannot read`;
    }
    if (gates.includes("featureFlag") && needs.featureFlag) {
      if (!user.isAdmin) return `this API answers 404 also when feature flag ${needs.featureFlag} is off, which only an administrator can read`;
      const off = await flagShortfall(ctx, reads, owner, needs.featureFlag);
      if (off) return `feature flag ${needs.featureFlag} is off ${off}, and this API answers 404 then`;
    }
  }
  if (user.isAdmin || !needs.role || needs.role === "administrator") return undefined;
  const needed = ROLE_LEVELS[needs.role];
  const level = await accessLevel(ctx, reads, owner, user, needed);
  if (level === undefined) return `the server does not show the role of the token's user (${user.username}) on ${ownerName(owner)}, and seeing ${what} needs ${roleInWords(needs.role)}`;
  if (level >= needed) return undefined;
  const has = (Object.keys(ROLE_LEVELS) as Role[]).filter((role) => ROLE_LEVELS[role] <= level).pop();
  return `the token's user (${user.username}, ${has ? `${has} of` : "not a member of"} ${ownerName(owner)}) may not see ${what}, which needs ${roleInWords(needs.role)}`;
}
