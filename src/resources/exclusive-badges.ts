/**
 * ExclusiveBadges: "these badges and no others" on a project or a group (see
 * ./exclusive-set.ts for when it records and removes). A project's badge list
 * also shows its groups' badges: only the owner's own badges count here.
 */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceOutputs } from "../engine/resource";
import { badgeNeeds, badgeNumberOf, badgesPath, ownBadges } from "../api/badges";
import { exactlyOneOwner, ownerOf, ownerReference } from "../api/owner";
import { type Entry, type ExclusiveSetArgs, exclusiveSetDefinition } from "./exclusive-set";

type Owner = { project?: string | number; group?: string | number };

export const exclusiveBadgesDefinition = exclusiveSetDefinition<Owner>({
  name: "ExclusiveBadges",
  noun: "badge",
  imported: { setOf: "Badge", keeps: "badgeId" },
  owner: { project: ownerReference.optional(), group: ownerReference.optional() },
  validateOwner: exactlyOneOwner,
  collectionPath: (args) => badgesPath(args).slice(1),
  // The list needs only to see the owner; the removals need the roles of managing badges.
  needs: (args, operation) => badgeNeeds(args, operation === "update" ? "delete" : "read"),

  async list(ctx, args) {
    const badges = await ownBadges(ctx.client, ownerOf(args));
    return badges.map((badge) => ({ badgeId: badge.id, name: badge.name ?? "", linkUrl: badge.link_url }));
  },
  keyOf: (entry) => String(entry.badgeId),
  // A Badge's `badgeId` (12) or its `id` (`projects/acme%2Fweb/badges/12`).
  keptKey: badgeNumberOf,
  keepForm: "a Badge's badgeId or id",
  matchable: (entry: Entry) => [String(entry.badgeId), String(entry.name), String(entry.linkUrl)],
  async remove(ctx, args, entry) {
    await ctx.client.delete(`${badgesPath(args)}/${Number(entry.badgeId)}`);
  },
});

export type ExclusiveBadgesArgs = ExclusiveSetArgs<Owner>;

/**
 * The badges the program declares are the only badges of a project or group.
 * After a refresh, the preview names every other badge (`unexpected`) and the
 * next `up` removes those; `ignore` leaves badges made elsewhere alone.
 *
 * ```ts
 * new ExclusiveBadges("only-ours", { group: "acme", keep: [docs.badgeId], ignore: ["team-*"] });
 * ```
 */
export interface ExclusiveBadges extends ResourceOutputs<typeof exclusiveBadgesDefinition> {}
export class ExclusiveBadges extends PlatformResource {
  static {
    ofKind(this, exclusiveBadgesDefinition);
  }
  constructor(name: string, args: ExclusiveBadgesArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
