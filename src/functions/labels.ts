/**
 * The labels of a project or a group: a project's own and its groups'
 * (`isProjectLabel` tells them apart, `priority` is the project's), a
 * group's own and its ancestors', in name order.
 */
import { z } from "zod";
import { label as labelShape, labelNeeds, labelsPath } from "../api/labels";
import { exactlyOneOwner, ownerName, ownerReference } from "../api/owner";
import { defineListFunction, type Camelized } from "./core";

export type LabelInfo = Camelized<z.output<typeof labelShape>>;

const labels = defineListFunction({
  name: "getLabels",
  args: z.object({
    /** The project (id or full path); set this or `group`. */
    project: ownerReference.optional(),
    /** The group (id or full path); set this or `project`. */
    group: ownerReference.optional(),
    /** Only labels whose name or description contains this text (any case). */
    search: z.string().min(1).optional(),
    /** Include the labels of the groups above (default true; a project keeps its own group's either way). */
    includeAncestorGroups: z.boolean().optional(),
    /** A group's: include its subgroups' labels (default false). */
    includeDescendantGroups: z.boolean().optional(),
    /** A group's: false also lists its projects' labels (default true). */
    onlyGroupLabels: z.boolean().optional(),
  }),
  validate: (args) => [
    ...exactlyOneOwner(args).map(({ property, reason }) => ({ argument: property, reason: `${property}: ${reason}` })),
    ...(["includeDescendantGroups", "onlyGroupLabels"] as const)
      .filter((name) => args.project !== undefined && args[name] !== undefined)
      .map((name) => ({ argument: name, reason: `${name}: only a group's list takes it` })),
  ],
  path: labelsPath,
  query: (args) => ({
    search: args.search,
    include_ancestor_groups: args.includeAncestorGroups,
    include_descendant_groups: args.includeDescendantGroups,
    only_group_labels: args.onlyGroupLabels,
  }),
  subject: (args) => `the labels of ${ownerName(args)}`,
  needs: (args) => labelNeeds(args, "read"),
  item: labelShape,
});

/**
 * The labels of a project (its own and its groups') or of a group.
 *
 * ```ts
 * const mine = (await getLabels({ project: "acme/web" })).filter((label) => label.isProjectLabel);
 * ```
 */
export const getLabels = labels;
/** `getLabels` as an Output. */
export const getLabelsOutput = labels.output;
