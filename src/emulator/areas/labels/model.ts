/**
 * The labels' model. A project's labels are the ones its merge requests and
 * issues use (the merge requests' store holds them: one label table, one id
 * sequence); a group's labels and the projects' priorities are held here.
 *
 * As on real servers:
 * - A label's name is unique in its project or group (case-sensitive), has
 *   no comma, at most 255 characters, and is stripped of surrounding
 *   whitespace and of HTML tags; so is its description.
 * - A color is `#RGB` or `#RRGGBB` as given, or a CSS color name stored as
 *   its uppercase hex form (`red` → `#FF0000`).
 * - `admin_label` (create, update, delete): the Planner role or above on
 *   the project or group (administrators too).
 * - A project sees its own labels and those of its group and the group's
 *   ancestors; a group its own and its ancestors'. A new label may not take a
 *   name any of them has (409); a project label renamed to a name its group
 *   has is refused (`already exists at group level`).
 * - A project may give any label it sees a priority (a whole number, lower
 *   first); the priority belongs to the project.
 */
import { hasGroupAccess, hasProjectAccess } from "../../access";
import { validationError } from "../../errors";
import { AccessLevel, defineStore, type EmulatorState, type Group, type Project, type User } from "../../state";
import { LABEL_SEQUENCE, mergeRequestStore, type LabelRecord } from "../merge-requests/model";

export interface GroupLabelRecord extends Omit<LabelRecord, "projectId"> {
  groupId: number;
}

/** A label with its owner: a project's or a group's. */
export type OwnedLabel = { kind: "project"; label: LabelRecord } | { kind: "group"; label: GroupLabelRecord };

export interface LabelStore {
  groupLabels: GroupLabelRecord[];
  /** Per project id, per label id: the label's priority in that project. */
  priorities: Record<string, Record<string, number>>;
}

export const labelStore = defineStore("labels", (): LabelStore => ({ groupLabels: [], priorities: {} }));

// The CSS color names the server takes, with the hex form it stores for each.
const NAMES =
  "black 000000 silver C0C0C0 gray 808080 white FFFFFF maroon 800000 red FF0000 purple 800080 fuchsia FF00FF green 008000 " +
  "lime 00FF00 olive 808000 yellow FFFF00 navy 000080 blue 0000FF teal 008080 aqua 00FFFF orange FFA500 aliceblue F0F8FF " +
  "antiquewhite FAEBD7 aquamarine 7FFFD4 azure F0FFFF beige F5F5DC bisque FFE4C4 blanchedalmond FFEBCD blueviolet 8A2BE2 " +
  "brown A52A2A burlywood DEB887 cadetblue 5F9EA0 chartreuse 7FFF00 chocolate D2691E coral FF7F50 cornflowerblue 6495ED " +
  "cornsilk FFF8DC crimson DC143C darkblue 00008B darkcyan 008B8B darkgoldenrod B8860B darkgray A9A9A9 darkgreen 006400 " +
  "darkgrey A9A9A9 darkkhaki BDB76B darkmagenta 8B008B darkolivegreen 556B2F darkorange FF8C00 darkorchid 9932CC " +
  "darkred 8B0000 darksalmon E9967A darkseagreen 8FBC8F darkslateblue 483D8B darkslategray 2F4F4F darkslategrey 2F4F4F " +
  "darkturquoise 00CED1 darkviolet 9400D3 deeppink FF1493 deepskyblue 00BFFF dimgray 696969 dimgrey 696969 " +
  "dodgerblue 1E90FF firebrick B22222 floralwhite FFFAF0 forestgreen 228B22 gainsboro DCDCDC ghostwhite F8F8FF gold FFD700 " +
  "goldenrod DAA520 greenyellow ADFF2F grey 808080 honeydew F0FFF0 hotpink FF69B4 indianred CD5C5C indigo 4B0082 " +
  "ivory FFFFF0 khaki F0E68C lavender E6E6FA lavenderblush FFF0F5 lawngreen 7CFC00 lemonchiffon FFFACD lightblue ADD8E6 " +
  "lightcoral F08080 lightcyan E0FFFF lightgoldenrodyellow FAFAD2 lightgray D3D3D3 lightgreen 90EE90 lightgrey D3D3D3 " +
  "lightpink FFB6C1 lightsalmon FFA07A lightseagreen 20B2AA lightskyblue 87CEFA lightslategray 778899 lightslategrey 778899 " +
  "lightsteelblue B0C4DE lightyellow FFFFE0 limegreen 32CD32 linen FAF0E6 mediumaquamarine 66CDAA mediumblue 0000CD " +
  "mediumorchid BA55D3 mediumpurple 9370DB mediumseagreen 3CB371 mediumslateblue 7B68EE mediumspringgreen 00FA9A " +
  "mediumturquoise 48D1CC mediumvioletred C71585 midnightblue 191970 mintcream F5FFFA mistyrose FFE4E1 moccasin FFE4B5 " +
  "navajowhite FFDEAD oldlace FDF5E6 olivedrab 6B8E23 orangered FF4500 orchid DA70D6 palegoldenrod EEE8AA palegreen 98FB98 " +
  "paleturquoise AFEEEE palevioletred DB7093 papayawhip FFEFD5 peachpuff FFDAB9 peru CD853F pink FFC0CB plum DDA0DD " +
  "powderblue B0E0E6 rosybrown BC8F8F royalblue 4169E1 saddlebrown 8B4513 salmon FA8072 sandybrown F4A460 seagreen 2E8B57 " +
  "seashell FFF5EE sienna A0522D skyblue 87CEEB slateblue 6A5ACD slategray 708090 slategrey 708090 snow FFFAFA " +
  "springgreen 00FF7F steelblue 4682B4 tan D2B48C thistle D8BFD8 tomato FF6347 turquoise 40E0D0 violet EE82EE wheat F5DEB3 " +
  "whitesmoke F5F5F5 yellowgreen 9ACD32 rebeccapurple 663399";

const COLOR_NAMES: ReadonlyMap<string, string> = new Map(
  NAMES.split(" ").flatMap((word, index, words) => (index % 2 === 0 ? [[word, `#${words[index + 1]}`] as const] : [])),
);

/** `Gitlab::Color.of`: a name's hex form, anything else as given (stripped); then valid only as `#RGB` or `#RRGGBB`. */
export function colorOf(given: string): string | undefined {
  const color = given.trim();
  const stored = COLOR_NAMES.get(color.toLowerCase()) ?? color;
  return /^#(?:[0-9A-Fa-f]{3}){1,2}$/.test(stored) ? stored : undefined;
}

/** `Sanitize.clean`, then entities read back: the tags go, the text stays. */
export const sanitized = (text: string): string =>
  text.replace(/<[A-Za-z!/][^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

/** `admin_label` on a project: Planner or above, or an administrator. */
export const canAdminProjectLabels = (state: EmulatorState, user: User | null, project: Project): boolean =>
  hasProjectAccess(state, user, project, AccessLevel.Planner);

/** `admin_label` on a group: Planner or above, or an administrator. */
export const canAdminGroupLabels = (state: EmulatorState, user: User | null, group: Group): boolean => hasGroupAccess(state, user, group, AccessLevel.Planner);

export const projectLabels = (state: EmulatorState, project: Project): LabelRecord[] =>
  mergeRequestStore.of(state).labels.filter((label) => label.projectId === project.id);

export const groupLabels = (state: EmulatorState, groups: readonly Group[]): GroupLabelRecord[] => {
  const ids = new Set(groups.map((group) => group.id));
  return labelStore.of(state).groupLabels.filter((label) => ids.has(label.groupId));
};

/** Title order, as the labels finder sorts. */
export const byTitle = (a: OwnedLabel, b: OwnedLabel): number =>
  a.label.name < b.label.name ? -1 : a.label.name > b.label.name ? 1 : a.label.id - b.label.id;

/**
 * The labels a project sees (`LabelsFinder`): its own, and its group's; with
 * `ancestors`, also those of the group's ancestors.
 */
export function labelsSeenByProject(state: EmulatorState, project: Project, ancestors: boolean): OwnedLabel[] {
  const group = state.namespaceOf(project);
  const groups = ancestors ? state.selfAndAncestors(group) : [group];
  return [
    ...projectLabels(state, project).map((label): OwnedLabel => ({ kind: "project", label })),
    ...groupLabels(state, groups).map((label): OwnedLabel => ({ kind: "group", label })),
  ];
}

/**
 * The labels a group sees: its own; with `ancestors`, its ancestors'; with
 * `descendants`, its subgroups'; with `projects`, also the projects' labels
 * of the groups included.
 */
export function labelsSeenByGroup(state: EmulatorState, group: Group, options: { ancestors: boolean; descendants: boolean; projects: boolean }): OwnedLabel[] {
  const groups = [...(options.ancestors ? state.selfAndAncestors(group) : [group]), ...(options.descendants ? state.descendants(group) : [])];
  const projects = options.projects ? groups.flatMap((one) => state.projectsIn(one, { includeSubgroups: false })) : [];
  return [
    ...groupLabels(state, groups).map((label): OwnedLabel => ({ kind: "group", label })),
    ...projects.flatMap((project) => projectLabels(state, project).map((label): OwnedLabel => ({ kind: "project", label }))),
  ];
}

/** `find_label`: by id, else by title (exact). */
export function findLabel(labels: readonly OwnedLabel[], idOrTitle: string): OwnedLabel | undefined {
  return (/^\d+$/.test(idOrTitle) ? labels.find((owned) => owned.label.id === Number(idOrTitle)) : undefined) ?? labels.find((owned) => owned.label.name === idOrTitle);
}

/** The model's checks of a label's name and color: 400 with the errors by attribute. */
export function validateLabel(label: { name: string; color: string }, taken: (name: string) => string | undefined): void {
  const errors: Record<string, string[]> = {};
  const title: string[] = [];
  if (label.name === "") title.push("can't be blank");
  if (label.name.includes(",")) title.push("is invalid");
  if (label.name.length > 255) title.push("is too long (maximum is 255 characters)");
  const clash = taken(label.name);
  if (clash !== undefined) title.push(clash);
  if (title.length > 0) errors["title"] = title;
  if (colorOf(label.color) === undefined) errors["color"] = ["must be a valid color code"];
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/** A new label's id, from the one sequence every label takes its id from. */
export const nextLabelId = (state: EmulatorState): number => state.nextId(LABEL_SEQUENCE);

/** The priority a project gives a label, or null. */
export const priorityOf = (state: EmulatorState, project: Project, labelId: number): number | null =>
  labelStore.of(state).priorities[String(project.id)]?.[String(labelId)] ?? null;

export function setPriority(state: EmulatorState, project: Project, labelId: number, priority: number | null): void {
  const priorities = (labelStore.of(state).priorities[String(project.id)] ??= {});
  if (priority === null) delete priorities[String(labelId)];
  else priorities[String(labelId)] = priority;
}

/** Removes a label and every priority given to it. */
export function removeLabel(state: EmulatorState, owned: OwnedLabel): void {
  const list: { id: number }[] = owned.kind === "project" ? mergeRequestStore.of(state).labels : labelStore.of(state).groupLabels;
  list.splice(list.indexOf(owned.label), 1);
  for (const priorities of Object.values(labelStore.of(state).priorities)) delete priorities[String(owned.label.id)];
}
