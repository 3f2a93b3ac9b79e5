/**
 * Project and group labels (`/projects/:id/labels`, `/groups/:id/labels`):
 * list, one by id or name, create, update (rename with `new_name`), delete.
 * The rules are the model's (./model.ts); the answers are
 * `Entities::ProjectLabel` (with the project's `priority` and
 * `is_project_label`) and `Entities::GroupLabel`.
 *
 * As on real servers:
 * - Every route needs a signed-in user (401) who can see the owner (404).
 * - A list is in title order; `search` matches the title or description
 *   (case-insensitive). A project's list and one label read through it
 *   include its groups' labels unless `include_ancestor_groups=false`, which
 *   still keeps its own group's; a group's include its ancestors' unless so
 *   asked, its subgroups' with `include_descendant_groups=true`, and its
 *   projects' labels with `only_group_labels=false`.
 * - `:name` is a label's id or its name. An update or a delete looks only at
 *   the owner's own labels (for a project: also its group's, which then need
 *   `admin_label` on that group): another's is 404 `Label Not Found`.
 * - Create: `name` and `color` required; a name the owner already sees is
 *   409 `Label already exists`; bad values are 400 by attribute (`title`,
 *   `color`). Update needs one of `new_name`, `color`, `description`,
 *   `priority` (projects), `archived`. A blank `priority` removes the
 *   project's priority.
 * - `with_counts` is taken and answered without counts.
 */
import { z } from "zod";
import { areaSeed, keyedSection, type EmulatorArea } from "../../area";
import { ApiError, forbidden, notFound, paramError, validationError } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { SeedError } from "../../seed-error";
import type { EmulatorState, Group, Project } from "../../state";
import { mergeRequestStore, type LabelRecord } from "../merge-requests/model";
import { presentLabel } from "../merge-requests/present";
import {
  byTitle,
  canAdminGroupLabels,
  canAdminProjectLabels,
  colorOf,
  findLabel,
  labelStore,
  labelsSeenByGroup,
  labelsSeenByProject,
  nextLabelId,
  priorityOf,
  removeLabel,
  sanitized,
  setPriority,
  validateLabel,
  type GroupLabelRecord,
  type OwnedLabel,
} from "./model";

export { labelStore } from "./model";
export type { GroupLabelRecord } from "./model";

type Body = Record<string, unknown>;

function presentForProject(state: EmulatorState, project: Project, owned: OwnedLabel): Body {
  return { ...presentLabel(owned.label), subscribed: false, priority: priorityOf(state, project, owned.label.id), is_project_label: owned.kind === "project" };
}

const presentForGroup = (owned: OwnedLabel): Body => ({ ...presentLabel(owned.label), subscribed: false });

/** `optional :priority, type: Integer, allow_blank: true`: absent, null (blank), or a whole number not below 0. */
function priorityParam(ctx: RequestContext<unknown>): number | null | undefined {
  if (!("priority" in ctx.rawParams)) return undefined;
  const raw = ctx.rawParams["priority"];
  if (raw === null || raw === "") return null;
  const text = String(raw).trim();
  if (!/^-?\d+$/.test(text)) throw paramError("priority is invalid");
  const priority = Number(text);
  if (priority < 0) throw validationError({ priority: ["must be greater than or equal to 0"] });
  return priority;
}

const idParam = { id: { type: "string", required: true } } as const;
const labelParam = { name: { type: "string", required: true } } as const;
const createParams = {
  ...idParam,
  name: { type: "string", required: true },
  color: { type: "string", required: true },
  description: { type: "string" },
  archived: { type: "boolean" },
} as const;
const updateParams = { ...idParam, ...labelParam, new_name: { type: "string" }, color: { type: "string" }, description: { type: "string" }, archived: { type: "boolean" } } as const;

const matchesSearch = (search: string | undefined) => (owned: OwnedLabel) =>
  search === undefined || [owned.label.name, owned.label.description ?? ""].some((text) => text.toLowerCase().includes(search.toLowerCase()));

/** What the create and update routes of one owner kind share. */
interface LabelOwner<O> {
  base: string;
  find(ctx: RequestContext<unknown>): O;
  /** The labels a new one may not share a name with: all the owner sees. */
  seen(state: EmulatorState, owner: O): OwnedLabel[];
  /** The labels an update or a delete may address. */
  addressable(state: EmulatorState, owner: O): OwnedLabel[];
  canAdmin(ctx: RequestContext<unknown>, owner: O): boolean;
  /** Adds a new label of the owner. */
  add(state: EmulatorState, owner: O, fields: { name: string; color: string; description: string | null; archived: boolean }): OwnedLabel;
  present(state: EmulatorState, owner: O, owned: OwnedLabel): Body;
  /** What a rename's name may not be, beyond the owner's other labels: for a project label, its group's. */
  renameClash(state: EmulatorState, owned: OwnedLabel, name: string): string | undefined;
  takesPriority: boolean;
}

/** `admin_label` on the owner of the label addressed: a group's label through a project needs it on the group. */
function canAdminLabel(ctx: RequestContext<unknown>, owned: OwnedLabel): boolean {
  if (owned.kind === "project") return true;
  const group = ctx.state.groupById(owned.label.groupId);
  return group !== undefined && canAdminGroupLabels(ctx.state, ctx.user, group);
}

function addressed<O>(ctx: RequestContext<{ name: string }>, kind: LabelOwner<O>, owner: O): OwnedLabel {
  const owned = findLabel(kind.addressable(ctx.state, owner), ctx.params.name);
  if (!owned) throw notFound("Label");
  return owned;
}

function labelRoutes<O>(kind: LabelOwner<O>, listParams: Record<string, { type: "boolean" | "string" }>, list: (ctx: RequestContext<Record<string, unknown>>, owner: O) => OwnedLabel[]): RouteDefinition[] {
  return [
    route("GET", kind.base, { params: { ...idParam, with_counts: { type: "boolean" }, search: { type: "string" }, ...listParams }, paginated: true }, (ctx) => {
      requireUser(ctx);
      const owner = kind.find(ctx);
      const labels = list(ctx as RequestContext<Record<string, unknown>>, owner).filter(matchesSearch(ctx.params.search)).sort(byTitle);
      return paginate(ctx, labels, { present: (owned) => kind.present(ctx.state, owner, owned) });
    }),

    route("GET", `${kind.base}/:name`, { params: { ...idParam, ...labelParam, ...listParams } }, (ctx) => {
      requireUser(ctx);
      const owner = kind.find(ctx);
      const owned = findLabel(list(ctx as RequestContext<Record<string, unknown>>, owner), ctx.params.name);
      if (!owned) throw notFound("Label");
      return ok(kind.present(ctx.state, owner, owned));
    }),

    route("POST", kind.base, { params: createParams }, (ctx) => {
      requireUser(ctx);
      const owner = kind.find(ctx);
      if (!kind.canAdmin(ctx, owner)) throw forbidden();
      const priority = kind.takesPriority ? priorityParam(ctx) : undefined;
      const name = sanitized(ctx.params.name.trim());
      if (kind.seen(ctx.state, owner).some((owned) => owned.label.name === name)) throw new ApiError(409, { message: "Label already exists" });
      validateLabel({ name, color: ctx.params.color }, () => undefined);
      const description = ctx.params.description === undefined || ctx.params.description === "" ? null : sanitized(ctx.params.description);
      const owned = kind.add(ctx.state, owner, { name, color: colorOf(ctx.params.color)!, description, archived: ctx.params.archived ?? false });
      if (priority !== undefined && priority !== null) setPriority(ctx.state, owner as unknown as Project, owned.label.id, priority);
      return created(kind.present(ctx.state, owner, owned));
    }),

    route("PUT", `${kind.base}/:name`, { params: updateParams }, (ctx) => {
      requireUser(ctx);
      const owner = kind.find(ctx);
      if (!kind.canAdmin(ctx, owner)) throw forbidden();
      const priority = kind.takesPriority ? priorityParam(ctx) : undefined;
      const { new_name, color, description, archived } = ctx.params;
      if ([new_name, color, description, archived, priority].every((value) => value === undefined)) {
        throw paramError(`new_name, color, description, ${kind.takesPriority ? "priority, " : ""}archived are missing, at least one parameter must be provided`);
      }
      const owned = addressed(ctx, kind, owner);
      const { label } = owned;
      if ([new_name, color, description, archived].some((value) => value !== undefined)) {
        if (!canAdminLabel(ctx, owned)) throw forbidden();
        const name = new_name === undefined || new_name.trim() === "" ? label.name : sanitized(new_name.trim());
        const newColor = color ?? label.color;
        validateLabel({ name, color: newColor }, (wanted) =>
          wanted === label.name ? undefined : (kind.renameClash(ctx.state, owned, wanted) ?? (siblings(ctx.state, owned).some((other) => other.name === wanted) ? "has already been taken" : undefined)),
        );
        Object.assign(label, {
          name,
          color: colorOf(newColor)!,
          ...(description !== undefined ? { description: description === "" ? null : sanitized(description) } : {}),
          ...(archived !== undefined ? { archived } : {}),
        });
      }
      if (priority !== undefined) setPriority(ctx.state, owner as unknown as Project, label.id, priority);
      return ok(kind.present(ctx.state, owner, owned));
    }),

    route("DELETE", `${kind.base}/:name`, { params: { ...idParam, ...labelParam } }, (ctx) => {
      requireUser(ctx);
      const owner = kind.find(ctx);
      const owned = addressed(ctx, kind, owner);
      if (!kind.canAdmin(ctx, owner) || !canAdminLabel(ctx, owned)) throw forbidden();
      removeLabel(ctx.state, owned);
      return noContent();
    }),
  ];
}

/** The other labels of the same owner (the title is unique per project or group). */
function siblings(state: EmulatorState, owned: OwnedLabel): { id: number; name: string }[] {
  const all: (LabelRecord | GroupLabelRecord)[] =
    owned.kind === "project"
      ? mergeRequestStore.of(state).labels.filter((other) => other.projectId === owned.label.projectId)
      : labelStore.of(state).groupLabels.filter((other) => other.groupId === owned.label.groupId);
  return all.filter((other) => other.id !== owned.label.id);
}

const projectOwner: LabelOwner<Project> = {
  base: "/projects/:id/labels",
  find: (ctx) => findProject(ctx),
  seen: (state, project) => labelsSeenByProject(state, project, true),
  addressable: (state, project) => labelsSeenByProject(state, project, false),
  canAdmin: (ctx, project) => canAdminProjectLabels(ctx.state, ctx.user, project),
  add(state, project, fields) {
    const label: LabelRecord = { id: nextLabelId(state), projectId: project.id, ...fields };
    mergeRequestStore.of(state).labels.push(label);
    return { kind: "project", label };
  },
  present: presentForProject,
  renameClash(state, owned, name) {
    if (owned.kind !== "project") return undefined;
    const project = state.projectById(owned.label.projectId);
    const group = project && state.namespaceOf(project);
    const clash = group && labelStore.of(state).groupLabels.some((other) => other.groupId === group.id && other.name === name);
    return clash ? `already exists at group level for ${group.name}. Please choose another one.` : undefined;
  },
  takesPriority: true,
};

const groupOwner: LabelOwner<Group> = {
  base: "/groups/:id/labels",
  find: (ctx) => findGroup(ctx),
  seen: (state, group) => labelsSeenByGroup(state, group, { ancestors: true, descendants: false, projects: false }),
  addressable: (state, group) => labelsSeenByGroup(state, group, { ancestors: false, descendants: false, projects: false }),
  canAdmin: (ctx, group) => canAdminGroupLabels(ctx.state, ctx.user, group),
  add(state, group, fields) {
    const label: GroupLabelRecord = { id: nextLabelId(state), groupId: group.id, ...fields };
    labelStore.of(state).groupLabels.push(label);
    return { kind: "group", label };
  },
  present: (_state, _group, owned) => presentForGroup(owned),
  renameClash: () => undefined,
  takesPriority: false,
};

const flag = (ctx: RequestContext<Record<string, unknown>>, name: string, fallback: boolean): boolean => (ctx.params[name] as boolean | undefined) ?? fallback;

const routes: RouteDefinition[] = [
  ...labelRoutes(projectOwner, { include_ancestor_groups: { type: "boolean" } }, (ctx, project) =>
    labelsSeenByProject(ctx.state, project, flag(ctx, "include_ancestor_groups", true)),
  ),
  ...labelRoutes(
    groupOwner,
    { include_ancestor_groups: { type: "boolean" }, include_descendant_groups: { type: "boolean" }, only_group_labels: { type: "boolean" } },
    (ctx, group) =>
      labelsSeenByGroup(ctx.state, group, {
        ancestors: flag(ctx, "include_ancestor_groups", true),
        descendants: flag(ctx, "include_descendant_groups", false),
        projects: !flag(ctx, "only_group_labels", true),
      }),
  ),
];

// ---------------------------------------------------------------------------
// Seed: "labels": { "groups": { "acme": [{ "name": "bug", "color": "#d9534f", "description": "..." }] },
//                   "projects": { "acme/web": [{ "name": "ui", "color": "red", "priority": 1 }] } }
// Checked as the API checks a new label; groups' first, each in the order given.

const seedLabel = z.strictObject(
  { name: z.string(), color: z.string(), description: z.string().optional(), priority: z.number().int().min(0).optional() },
  { error: "must be an object with name and color" },
);
export const labelsSeedSchema = z.strictObject(
  {
    groups: keyedSection("group full path", z.array(seedLabel)).default({}),
    projects: keyedSection("project full path", z.array(seedLabel)).default({}),
  },
  { error: 'must be an object: { "groups": {...}, "projects": {...} }' },
);

function applyLabelsSeed(state: EmulatorState, section: z.infer<typeof labelsSeedSchema> | undefined): void {
  if (section === undefined) return;
  const add = <O>(kind: LabelOwner<O>, key: string, entries: Record<string, z.infer<typeof seedLabel>[]>, find: (path: string) => O | undefined) => {
    for (const [fullPath, labels] of Object.entries(entries)) {
      const owner = find(fullPath);
      if (owner === undefined) throw new SeedError(`labels.${key}["${fullPath}"]: no such ${key === "groups" ? "group" : "project"}`);
      labels.forEach((seeded, index) => {
        const where = `labels.${key}["${fullPath}"][${index}]`;
        if (kind.seen(state, owner).some((owned) => owned.label.name === seeded.name)) throw new SeedError(`${where}.name: ${seeded.name} is taken`);
        if (colorOf(seeded.color) === undefined || seeded.name.trim() === "" || seeded.name.includes(",")) throw new SeedError(`${where}: not a valid label (name, color)`);
        if (seeded.priority !== undefined && !kind.takesPriority) throw new SeedError(`${where}.priority: only a project's labels have a priority`);
        const owned = kind.add(state, owner, { name: seeded.name, color: colorOf(seeded.color)!, description: seeded.description ?? null, archived: false });
        if (seeded.priority !== undefined) setPriority(state, owner as unknown as Project, owned.label.id, seeded.priority);
      });
    }
  };
  add(groupOwner, "groups", section.groups, (path) => state.groupByFullPath(path));
  add(projectOwner, "projects", section.projects, (path) => state.projectByFullPath(path));
}

export const labelsArea: EmulatorArea = {
  name: "labels",
  routes,
  // The projects' labels share the merge requests' label table.
  after: ["merge-requests"],
  seed: areaSeed({ key: "labels", schema: labelsSeedSchema, apply: applyLabelsSeed }),
};
