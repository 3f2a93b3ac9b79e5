/**
 * ExclusiveLabels: "these labels and no others" on a project or a group (see
 * ./exclusive-set.ts for when it records and removes). A project's label list
 * also shows its groups' labels, a group's its ancestors': only the owner's
 * own labels count here.
 */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceOutputs } from "../engine/resource";
import { labelNeeds, labelNumberOf, labelsPath, ownLabels } from "../api/labels";
import { exactlyOneOwner, ownerOf, ownerReference } from "../api/owner";
import { type Entry, type ExclusiveSetArgs, exclusiveSetDefinition } from "./exclusive-set";
import { labelWords } from "./label";

type Owner = { project?: string | number; group?: string | number };

export const exclusiveLabelsDefinition = exclusiveSetDefinition<Owner>({
  name: "ExclusiveLabels",
  noun: "label",
  imported: { setOf: "Label", keeps: "labelId" },
  owner: { project: ownerReference.optional(), group: ownerReference.optional() },
  validateOwner: exactlyOneOwner,
  collectionPath: (args) => labelsPath(args).slice(1),
  // The list needs only to see the owner; the removals need the role of managing labels.
  needs: (args, operation) => labelNeeds(args, operation === "update" ? "delete" : "read"),

  async list(ctx, args) {
    const labels = await ownLabels(ctx.client, ownerOf(args));
    return labels.map((label) => ({ labelId: label.id, name: label.name, color: label.color }));
  },
  keyOf: (entry) => String(entry.labelId),
  // A Label's `labelId` (12) or its `id` (`projects/acme%2Fweb/labels/12`).
  keptKey: labelNumberOf,
  keepForm: "a Label's labelId or id",
  matchable: (entry: Entry) => [String(entry.labelId), String(entry.name)],
  members: { says: labelWords },
  async remove(ctx, args, entry) {
    await ctx.client.delete(`${labelsPath(args)}/${Number(entry.labelId)}`);
  },
});

export type ExclusiveLabelsArgs = ExclusiveSetArgs<Owner>;

/**
 * The labels the program declares are the only labels of a project or group.
 * After a refresh, the preview names every other label (`unexpected`) and the
 * next `up` removes those; `ignore` leaves labels made elsewhere alone.
 *
 * ```ts
 * new ExclusiveLabels("only-ours", { group: "acme", keep: [bug.labelId], ignore: ["team::*"] });
 * ```
 */
export interface ExclusiveLabels extends ResourceOutputs<typeof exclusiveLabelsDefinition> {}
export class ExclusiveLabels extends PlatformResource {
  static {
    ofKind(this, exclusiveLabelsDefinition);
  }
  constructor(name: string, args: ExclusiveLabelsArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
