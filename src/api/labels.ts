/**
 * Project and group labels: `/projects/:id/labels` and `/groups/:id/labels`.
 * A project's list also shows the labels of its groups (`is_project_label`
 * false); a group's, those of its ancestors. One label is addressed by its
 * id or its name (`/labels/:name`), and renamed in place (`new_name`).
 */
import { z } from "zod";
import type { PlatformClient } from "../client";
import { requestsOf } from "./core";
import { groupPath } from "./groups";
import { idForm } from "./id-form";
import { sourceFacts } from "./members";
import type { Needs, Operation, Rule } from "./needs";
import { ownerNamedBy, ownerOf, type Owner, type OwnerKind } from "./owner";
import { projectPath, projectRequests } from "./projects";

/** A label as the API returns it (`Entities::ProjectLabel` through a project, `Entities::GroupLabel` through a group). */
export const label = z.looseObject({
  id: z.number(),
  name: z.string(),
  /** `#RRGGBB` or `#RGB`, as set; a named color is stored as its hex form (`red` → `#FF0000`). */
  color: z.string(),
  /** The readable text color on the label's color (`#FFFFFF` or a dark one). */
  text_color: z.string().optional(),
  description: z.string().nullable(),
  description_html: z.string().nullable().optional(),
  subscribed: z.boolean().optional(),
  /** Through a project: the label's priority in that project (lower is higher), or null. */
  priority: z.number().nullable().optional(),
  /** Through a project: true for the project's own label, false for one of its groups'. */
  is_project_label: z.boolean().optional(),
  archived: z.boolean().optional(),
});
export type Label = z.output<typeof label>;

/** The typed requests of labels. */
export const labelRequests = requestsOf(label);

/**
 * The CSS color names the server takes for a label's color and the hex form
 * it stores for each (case-insensitive): the server's own table.
 */
export const NAMED_COLORS: Readonly<Record<string, string>> = {
  black: "#000000", silver: "#C0C0C0", gray: "#808080", white: "#FFFFFF", maroon: "#800000", red: "#FF0000", purple: "#800080",
  fuchsia: "#FF00FF", green: "#008000", lime: "#00FF00", olive: "#808000", yellow: "#FFFF00", navy: "#000080", blue: "#0000FF",
  teal: "#008080", aqua: "#00FFFF", orange: "#FFA500", aliceblue: "#F0F8FF", antiquewhite: "#FAEBD7", aquamarine: "#7FFFD4",
  azure: "#F0FFFF", beige: "#F5F5DC", bisque: "#FFE4C4", blanchedalmond: "#FFEBCD", blueviolet: "#8A2BE2", brown: "#A52A2A",
  burlywood: "#DEB887", cadetblue: "#5F9EA0", chartreuse: "#7FFF00", chocolate: "#D2691E", coral: "#FF7F50",
  cornflowerblue: "#6495ED", cornsilk: "#FFF8DC", crimson: "#DC143C", darkblue: "#00008B", darkcyan: "#008B8B",
  darkgoldenrod: "#B8860B", darkgray: "#A9A9A9", darkgreen: "#006400", darkgrey: "#A9A9A9", darkkhaki: "#BDB76B",
  darkmagenta: "#8B008B", darkolivegreen: "#556B2F", darkorange: "#FF8C00", darkorchid: "#9932CC", darkred: "#8B0000",
  darksalmon: "#E9967A", darkseagreen: "#8FBC8F", darkslateblue: "#483D8B", darkslategray: "#2F4F4F", darkslategrey: "#2F4F4F",
  darkturquoise: "#00CED1", darkviolet: "#9400D3", deeppink: "#FF1493", deepskyblue: "#00BFFF", dimgray: "#696969",
  dimgrey: "#696969", dodgerblue: "#1E90FF", firebrick: "#B22222", floralwhite: "#FFFAF0", forestgreen: "#228B22",
  gainsboro: "#DCDCDC", ghostwhite: "#F8F8FF", gold: "#FFD700", goldenrod: "#DAA520", greenyellow: "#ADFF2F", grey: "#808080",
  honeydew: "#F0FFF0", hotpink: "#FF69B4", indianred: "#CD5C5C", indigo: "#4B0082", ivory: "#FFFFF0", khaki: "#F0E68C",
  lavender: "#E6E6FA", lavenderblush: "#FFF0F5", lawngreen: "#7CFC00", lemonchiffon: "#FFFACD", lightblue: "#ADD8E6",
  lightcoral: "#F08080", lightcyan: "#E0FFFF", lightgoldenrodyellow: "#FAFAD2", lightgray: "#D3D3D3", lightgreen: "#90EE90",
  lightgrey: "#D3D3D3", lightpink: "#FFB6C1", lightsalmon: "#FFA07A", lightseagreen: "#20B2AA", lightskyblue: "#87CEFA",
  lightslategray: "#778899", lightslategrey: "#778899", lightsteelblue: "#B0C4DE", lightyellow: "#FFFFE0", limegreen: "#32CD32",
  linen: "#FAF0E6", mediumaquamarine: "#66CDAA", mediumblue: "#0000CD", mediumorchid: "#BA55D3", mediumpurple: "#9370DB",
  mediumseagreen: "#3CB371", mediumslateblue: "#7B68EE", mediumspringgreen: "#00FA9A", mediumturquoise: "#48D1CC",
  mediumvioletred: "#C71585", midnightblue: "#191970", mintcream: "#F5FFFA", mistyrose: "#FFE4E1", moccasin: "#FFE4B5",
  navajowhite: "#FFDEAD", oldlace: "#FDF5E6", olivedrab: "#6B8E23", orangered: "#FF4500", orchid: "#DA70D6",
  palegoldenrod: "#EEE8AA", palegreen: "#98FB98", paleturquoise: "#AFEEEE", palevioletred: "#DB7093", papayawhip: "#FFEFD5",
  peachpuff: "#FFDAB9", peru: "#CD853F", pink: "#FFC0CB", plum: "#DDA0DD", powderblue: "#B0E0E6", rosybrown: "#BC8F8F",
  royalblue: "#4169E1", saddlebrown: "#8B4513", salmon: "#FA8072", sandybrown: "#F4A460", seagreen: "#2E8B57",
  seashell: "#FFF5EE", sienna: "#A0522D", skyblue: "#87CEEB", slateblue: "#6A5ACD", slategray: "#708090", slategrey: "#708090",
  snow: "#FFFAFA", springgreen: "#00FF7F", steelblue: "#4682B4", tan: "#D2B48C", thistle: "#D8BFD8", tomato: "#FF6347",
  turquoise: "#40E0D0", violet: "#EE82EE", wheat: "#F5DEB3", whitesmoke: "#F5F5F5", yellowgreen: "#9ACD32", rebeccapurple: "#663399",
};

const HEX_COLOR = /^#(?:[0-9A-Fa-f]{3}){1,2}$/;

/** The color the server stores for a declared one: a name's hex form, a hex color as written; undefined when it takes neither. */
export function storedColor(declared: string): string | undefined {
  const color = declared.trim();
  return NAMED_COLORS[color.toLowerCase()] ?? (HEX_COLOR.test(color) ? color : undefined);
}

/** A label's color as the server takes it: `#RRGGBB`, `#RGB` or a CSS color name. */
export const labelColor = z.string().refine((value) => value === value.trim() && storedColor(value) !== undefined, {
  message: "must be a color in 6-digit (or 3-digit) hex notation with a leading # (#FFAABB), or a CSS color name (red)",
});

/** An HTML tag: the server strips tags from a label's name and description. */
const HTML_TAG = /<[A-Za-z!/][^>]*>/;

/** A label's name as the server keeps it unchanged. */
export const labelName = z
  .string()
  .min(1)
  .max(255)
  .refine((value) => !value.includes(","), { message: "must not contain a comma (the server refuses one)" })
  .refine((value) => value === value.trim(), { message: "must not start or end with whitespace (the server strips it)" })
  .refine((value) => !HTML_TAG.test(value), { message: "must not contain HTML tags (the server strips them)" });

/** The longest label description the package takes: far beyond any the platform's forms make, bounded all the same. */
const LABEL_DESCRIPTION_MAX = 10_000;

/** A label's description as the server keeps it unchanged. */
export const labelDescription = z.string().max(LABEL_DESCRIPTION_MAX).refine((value) => !HTML_TAG.test(value), { message: "must not contain HTML tags (the server strips them)" });

/** The labels of the project or group at `ownerPath` (`/projects/1` → `/projects/1/labels`). */
export const labelsOf = (ownerPath: string): string => `${ownerPath}/labels`;

/** The labels of the project or group the arguments name. */
export const labelsPath = (owner: { project?: string | number; group?: string | number }): string => labelsOf(ownerOf(owner).path);

/**
 * Creating, changing and deleting a label needs `admin_label`: the Planner
 * role or above on the project or group (Reporter on servers without
 * Planner). Reading them needs only to see the owner.
 */
export const labelNeeds = (args: { project?: string | number; group?: string | number }, operation: Operation = "create"): Needs =>
  operation === "read" ? { on: ownerNamedBy(args) } : { on: ownerNamedBy(args), role: "Planner", phrase: "at least the Planner role (Reporter on servers without Planner)" };

/**
 * The server's rules for a label's name beyond its owner's own labels (which
 * the preview's `unique` judges): a new label whose name is a label the owner
 * sees from a group above it (a project sees its groups' labels, a group its
 * ancestors') is refused (409 `Label already exists`); a project's label
 * renamed to the name of a label of the project's own group is refused (400
 * `already exists at group level`), while a name only a group further up
 * gives is taken. A group's label may be renamed to any name its group's own
 * labels leave free. Judged by reads of the labels of that name.
 */
export function labelNameRules(args: { project?: string | number; group?: string | number; name: string }, operation: Operation): Rule[] {
  if (operation !== "create" && operation !== "update") return [];
  const owner = ownerOf(args);
  const named = (found: Label[]) => found.filter((one) => one.name === args.name);
  const above = owner.kind === "project" ? "one of its groups" : "a group above it";
  const judge =
    operation === "create"
      ? async (ctx: Parameters<Rule["judge"]>[0], facts: Parameters<Rule["judge"]>[1]) => {
          const seen = named(await labelRequests.list(ctx.client, labelsOf(owner.path), { search: args.name }));
          // A label this one replaces, deleted first where the new owner sees it (`labelDeletedFirst`), is no clash.
          const replaced = facts.replacing;
          if (replaced?.name === args.name && labelDeletedFirst(replaced, args)) {
            const gone = named(await labelRequests.list(ctx.client, labelsOf(ownerOf(replaced as { project?: string | number; group?: string | number }).path), { search: args.name, ...OWN_ONLY }));
            seen.splice(0, seen.length, ...seen.filter((one) => !gone.some((old) => old.id === one.id)));
          }
          if (seen.length === 0) return undefined;
          const own = owner.kind === "project" ? seen.filter((one) => one.is_project_label === true) : named(await labelRequests.list(ctx.client, labelsOf(owner.path), { search: args.name, ...OWN_ONLY }));
          if (own.length > 0) return undefined;
          const path = (await sourceFacts(ctx.client, owner.kind, owner.reference))?.fullPath ?? owner.reference;
          return `${above} has a label named ${args.name}, which ${owner.kind} ${path} sees as its own: the server refuses another label of that name (Label already exists); use that label, or choose another name`;
        }
      : owner.kind === "group"
        ? undefined
        : async (ctx: Parameters<Rule["judge"]>[0]) => {
            const project = await projectRequests.get(ctx.client, projectPath(owner.reference));
            if (project.namespace?.kind !== "group") return undefined;
            const ofGroup = named(await labelRequests.list(ctx.client, labelsOf(groupPath(project.namespace.id)), { search: args.name, ...OWN_ONLY }));
            if (ofGroup.length === 0) return undefined;
            return `group ${project.namespace.full_path}, the group of project ${project.path_with_namespace}, has a label named ${args.name}: the server refuses to rename a project's label to the name of a label of its group (already exists at group level); use the group's label, or choose another name`;
          };
  return judge ? [{ property: "name", judge }] : [];
}

/**
 * Whether a replacement deletes the old label before it makes the new one:
 * where the new owner may see the old label (the same name, the old one a
 * group's and the new owner at or below that group, or either named by id),
 * the server would refuse the new one while the old stands.
 */
export function labelDeletedFirst(olds: { project?: unknown; group?: unknown; name?: unknown }, news: { project?: unknown; group?: unknown; name?: unknown }): boolean {
  if (olds.name !== news.name || olds.group === undefined) return false;
  const from = olds.group;
  const to = news.group ?? news.project;
  if (typeof from !== "string" || typeof to !== "string" || /^\d+$/.test(from) || /^\d+$/.test(to)) return true;
  const below = to.toLowerCase();
  return below === from.toLowerCase() || below.startsWith(`${from.toLowerCase()}/`);
}

/** A label's id as resources record it: its API path without the leading slash (`projects/acme%2Fweb/labels/12`). */
export const labelIdOf = (owner: Owner, labelId: number): string => `${owner.kind}s/${encodeURIComponent(String(owner.reference))}/labels/${labelId}`;

const LABEL_ID = /^(projects|groups)\/([^/]+)\/labels\/(\d+)$/;

/** A recorded label id read back: its owner's kind, its API path and its number; undefined when it is not one. */
export function parseLabelId(id: string): { kind: OwnerKind; path: string; labelId: number } | undefined {
  const match = LABEL_ID.exec(id);
  if (!match) return undefined;
  return { kind: match[1] === "projects" ? "project" : "group", path: "/" + id, labelId: Number(match[3]) };
}

/** A label id as resources record it. */
export const labelIdForm = idForm("of the form projects/<project>/labels/<id> or groups/<group>/labels/<id>", parseLabelId);

/**
 * Whether a label read through its owner is the owner's own: a project's
 * (`is_project_label`), or a group's read with `include_ancestor_groups=false`.
 */
export const isOwnLabel = (kind: OwnerKind, found: Label): boolean => kind === "group" || found.is_project_label === true;

/** What a group's reads of its own labels add: no ancestors' labels. */
export const OWN_ONLY = { include_ancestor_groups: false } as const;

/** One label of the owner by its id, its own only; undefined when it is another's (a group's seen from a project). */
export async function ownLabel(client: PlatformClient, kind: OwnerKind, path: string, labelId: number): Promise<Label | undefined> {
  const found = await labelRequests.get(client, path, kind === "group" ? OWN_ONLY : undefined);
  return found.id === labelId && isOwnLabel(kind, found) ? found : undefined;
}

/** The owner's own labels (a project's list without its groups' labels; a group's without its ancestors'). */
export async function ownLabels(client: PlatformClient, owner: Owner): Promise<Label[]> {
  const listed = await labelRequests.list(client, labelsOf(owner.path), OWN_ONLY);
  return listed.filter((found) => isOwnLabel(owner.kind, found));
}

/** The owner's own label of this name (exact), reading no more pages than needed. */
export function findOwnLabel(client: PlatformClient, owner: Owner, name: string): Promise<Label | undefined> {
  return labelRequests.find(client, labelsOf(owner.path), { search: name, ...OWN_ONLY }, (found) => found.name === name && isOwnLabel(owner.kind, found));
}

/** A label's number from its `labelId` (12) or its recorded id (`projects/acme%2Fweb/labels/12`); undefined for neither. */
export const labelNumberOf = (value: string | number): string | undefined =>
  typeof value === "number" ? String(value) : /^\d+$/.test(value) ? value : parseLabelId(value) && String(parseLabelId(value)!.labelId);
