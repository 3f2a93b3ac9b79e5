/**
 * Label: a project's or a group's label.
 * The owner cannot change in place; the name (renamed in place, `new_name`),
 * color, description and a project's priority update in place. A project's
 * label list also shows its groups' labels: those are never touched from here.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { parsedId } from "../api/id-form";
import {
  findOwnLabel,
  isOwnLabel,
  labelColor,
  labelDescription,
  labelIdForm,
  labelIdOf,
  labelName,
  labelDeletedFirst,
  labelNameRules,
  labelNeeds,
  labelRequests,
  labelsOf,
  labelsPath,
  ownLabel,
  parseLabelId,
  ownLabels,
  OWN_ONLY,
  storedColor,
  type Label as LabelLive,
} from "../api/labels";
import { exactlyOneOwner, ownerOf, ownerReference, type OwnerKind } from "../api/owner";
import { claimObject, declarationKey } from "../engine/declarations";
import { defineObjectResource, type StepWords } from "../engine/definition";
import { idPair, ownerAddress, type TerraformTarget } from "../engine/estate";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { adoptExisting, ownerInput } from "./common";

/** What deleting a label takes (a replacement's too, which always moves it to another owner): it leaves every issue and merge request it is on. */
export const labelWords: StepWords = ({ kind }) => (kind === "delete" ? "takes it off every issue and merge request it is on" : undefined);

const schema = z.object({
  /** The project that owns the label (id or full path); set this or `group`. */
  project: ownerInput(ownerReference.optional()),
  /** The group that owns the label (id or full path); set this or `project`. Its subgroups and projects see it. */
  group: ownerInput(ownerReference.optional()),
  /** The label's name, unique in its owner and the groups above it; a change renames the label in place. */
  name: labelName,
  /** `#RRGGBB`, `#RGB` or a CSS color name (`red`, stored by the server as `#FF0000`). */
  color: field(labelColor, { sameValue: (declared, live) => storedColor(String(declared)) === live }),
  description: field(labelDescription.optional(), { sameValue: (declared, live) => (declared ?? "") === (live ?? "") }),
  /** A project's labels only: the label's priority in the project (0 and up, lower first); null removes it. */
  priority: z.number().int().min(0).nullable().optional(),
  adoptExisting,
});

type LabelInputs = z.output<typeof schema>;

/** The resource id is the label's API path, e.g. `projects/acme%2Fweb/labels/12`. */
const parseId = (id: string) => parsedId("Label", labelIdForm, id);

function located(args: LabelInputs, live: LabelLive) {
  return { id: labelIdOf(ownerOf(args), live.id), live };
}

/** A Terraform state's label: `<owner id or path>:<label name>`, or (older states) the name alone, the owner in the attributes. */
function terraformLabel(kind: OwnerKind, id: string, attributes: Record<string, unknown>): TerraformTarget | undefined {
  const parts = idPair(id);
  if (parts) return { owner: { kind, ref: parts[0] }, key: parts[1] };
  const owner = attributes[kind];
  const name = attributes["name"];
  return (typeof owner === "string" || typeof owner === "number") && typeof name === "string" ? { owner: { kind, ref: String(owner) }, key: name } : undefined;
}

export const labelDefinition = defineObjectResource({
  name: "Label",
  words: { noun: "label", says: labelWords },
  imported: {
    word: "label",
    listed: "labels",
    on: ["group", "project"],
    async find({ ctx, owner }) {
      const address = ownerAddress(owner);
      const of = ownerOf(address);
      const found = (await ownLabels(ctx.client, of)).map((live) => ({ importId: labelIdOf(of, live.id), name: live.name, live, address }));
      return { found, collections: [{ address, members: found.map((one) => one.importId) }] };
    },
    async findOne({ ctx, owner }, key) {
      const address = ownerAddress(owner);
      const of = ownerOf(address);
      const live = await findOwnLabel(ctx.client, of, String(key));
      return live
        ? { found: [{ importId: labelIdOf(of, live.id), name: live.name, live, address }] }
        : { found: [], skipped: [{ what: `label ${String(key)}`, why: `not a label of ${owner.kind} ${owner.fullPath}` }] };
    },
  },
  terraform: [
    { type: "gitlab_project_label", target: (id, attributes) => terraformLabel("project", id, attributes) },
    { type: "gitlab_label", target: (id, attributes) => terraformLabel("project", id, attributes) },
    { type: "gitlab_group_label", target: (id, attributes) => terraformLabel("group", id, attributes) },
  ],
  idForm: labelIdForm,
  notFoundSubject: "Label",
  schema,
  outputs: {
    /** The label's numeric id on the server. */
    labelId: { value: (live: LabelLive) => live.id, fromId: (id) => parseLabelId(id)?.labelId as number },
    /** The color as the server stores it (a named color as its hex form). */
    storedColor: { value: (live: LabelLive) => live.color, derivedFrom: ["color"] },
    /** The readable text color the server gives the label's color. */
    textColor: { value: (live: LabelLive) => live.text_color ?? null, derivedFrom: [] },
  },
  validate: (args) => [
    ...exactlyOneOwner(args),
    ...(args.group !== undefined && args.priority !== undefined ? [{ property: "priority", reason: "only a project's labels have a priority: a group's label takes one in each project that sets it" }] : []),
  ],
  // A label of the same name in the owner would be refused (409): it is adopted or removed first.
  // The old label goes first where the new owner would see it: the server refuses a second of its name there.
  deleteBeforeReplace: (olds, news) => labelDeletedFirst(olds, news),
  needs: (args, operation) => ({
    ...labelNeeds(args, operation),
    rules: labelNameRules(args, operation),
    unique: {
      list: "own labels",
      read: (ctx, owner) => labelRequests.list(ctx.client, labelsOf(owner.apiPath), OWN_ONLY),
      find: (labels, owner) => {
        const same = (labels as LabelLive[]).find((found) => found.name === args.name && isOwnLabel(owner.kind, found));
        return same && { what: `a label named ${args.name}`, id: located(args, same).id };
      },
    },
  }),

  async create(ctx, args) {
    const body = requestBody(this.fields, args);
    // If the response to the POST is lost, the label it created is found by its name rather than made twice (the server would refuse it).
    const live = await labelRequests.post(ctx.client, labelsPath(args), body, () => findOwnLabel(ctx.client, ownerOf(args), args.name));
    return located(args, live);
  },

  async read(ctx, id) {
    const { kind, path, labelId } = parseId(id);
    return ownLabel(ctx.client, kind, path, labelId);
  },

  async update(ctx, id, args, changed) {
    const body = requestBody(this.fields, args, changed);
    // A label is addressed by its id in the path; its new name is `new_name`.
    if (body["name"] !== undefined) {
      body["new_name"] = body["name"];
      delete body["name"];
    }
    return labelRequests.put(ctx.client, parseId(id).path, body);
  },

  async delete(ctx, id) {
    await ctx.client.delete(parseId(id).path);
  },

  async adopt(ctx, args) {
    const found = await findOwnLabel(ctx.client, ownerOf(args), args.name);
    return found ? located(args, found) : undefined;
  },
});

export type LabelArgs = ResourceArgs<typeof schema>;

/**
 * A label on a project or a group.
 *
 * ```ts
 * new Label("bug", { group: "acme", name: "bug", color: "#d9534f", description: "Something is broken" });
 * new Label("web-ui", { project: "acme/web", name: "ui", color: "teal", priority: 1 });
 * ```
 */
export interface Label extends ResourceOutputs<typeof labelDefinition> {}
export class Label extends PlatformResource {
  static {
    ofKind(this, labelDefinition);
  }
  constructor(name: string, args: LabelArgs, opts?: pulumi.CustomResourceOptions) {
    claimLabel(name, args);
    super(name, args, opts);
  }
}

/**
 * A label declared twice in one program would have two resources own it: the
 * second create fails at apply (the name is taken), and with `adoptExisting`
 * destroying either would remove the label of both. So the second declaration
 * is refused while the program runs, naming the first.
 */
function claimLabel(name: string, args: LabelArgs): void {
  const ownerOfDeclaration = (project: unknown, group: unknown) => (project !== undefined && project !== null ? ["project", project] : ["group", group]);
  claimObject(
    "label",
    name,
    [args.project, args.group, args.name],
    // Paths are case-insensitive on the server; label names are compared as they are.
    ([project, group, label]) => {
      const [kind, owner] = ownerOfDeclaration(project, group);
      return [kind, declarationKey(owner, args.connection), label];
    },
    (first, [project, group, label]) => {
      const [kind, owner] = ownerOfDeclaration(project, group);
      return `Label "${name}": name: Label "${first}" of this program already declares the label "${String(label)}" of ${String(kind)} ${String(owner)}; declare it once.`;
    },
  );
}
