/**
 * Badge: a project or group badge.
 * The owner cannot change in place; URLs and name update in place. A project's
 * badge list also shows its groups' badges: those are never touched from here.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { badgeRequests, badgeIdOf, badgeNeeds, badgesOf, badgesPath, findOwnBadge, ownBadges as listOwnBadges, urlWithPlaceholders, type Badge as BadgeLive, badgeIdForm } from "../api/badges";
import { idPair, ownerAddress, wholeNumber, type TerraformTarget } from "../engine/estate";
import { exactlyOneOwner, ownerOf, ownerReference, type OwnerKind } from "../api/owner";
import { adoptExisting, ownerInput } from "./common";
import { parsedId } from "../api/id-form";

const schema = z.object({
  /** The project that owns the badge (id or full path); set this or `group`. */
  project: ownerInput(ownerReference.optional()),
  /** The group that owns the badge (id or full path); set this or `project`. */
  group: ownerInput(ownerReference.optional()),
  /** Where the badge links to; may contain placeholders such as `%{project_path}`. */
  linkUrl: urlWithPlaceholders,
  /** The badge image; may contain placeholders. */
  imageUrl: urlWithPlaceholders,
  name: z.string().min(1).max(255).optional(),
  adoptExisting,
});

type BadgeInputs = z.output<typeof schema>;

/** The resource id is the badge's API path, e.g. `projects/acme%2Fweb/badges/12`. */
function parseId(id: string): { kind: OwnerKind; path: string } {
  return parsedId("Badge", badgeIdForm, id);
}

/** Only the owner's own badges: a project's list also contains its groups' badges. */
const ownBadges = (ctx: EngineContext, args: BadgeInputs, matches: (badge: BadgeLive) => boolean) => findOwnBadge(ctx.client, ownerOf(args), args.name, matches);

/** A Terraform state's badge: `<owner id>:<badge id>`. */
function terraformBadge(kind: OwnerKind, id: string): TerraformTarget | undefined {
  const parts = idPair(id);
  const badge = wholeNumber(parts?.[1]);
  return parts && badge !== undefined ? { owner: { kind, ref: parts[0] }, key: badge } : undefined;
}

/** The badge these inputs describe: the same link and image (and name, when declared). */
const sameBadge = (args: BadgeInputs) => (badge: BadgeLive) =>
  badge.link_url === args.linkUrl && badge.image_url === args.imageUrl && (args.name === undefined || badge.name === args.name);

function located(args: BadgeInputs, live: BadgeLive) {
  return { id: badgeIdOf(ownerOf(args), live.id), live };
}

export const badgeDefinition = defineObjectResource({
  name: "Badge",
  words: { noun: "badge" },
  imported: {
    word: "badge",
    listed: "badges",
    on: ["group", "project"],
    async find({ ctx, owner }) {
      const address = ownerAddress(owner);
      const of = ownerOf(address);
      const found = (await listOwnBadges(ctx.client, of)).map((badge) => ({ importId: badgeIdOf(of, badge.id), name: badge.name || "badge", live: badge, address }));
      return { found, collections: [{ address, members: found.map((one) => one.importId) }] };
    },
    async findOne({ owner, read }, key) {
      const address = ownerAddress(owner);
      const importId = badgeIdOf(ownerOf(address), Number(key));
      const live = await read(importId, address);
      return live ? { found: [{ importId, name: String(live.name || "badge"), live, address }] } : { found: [], skipped: [{ what: `badge ${key}`, why: "not the owner's own badge" }] };
    },
  },
  terraform: [
    { type: "gitlab_group_badge", target: (id) => terraformBadge("group", id) },
    { type: "gitlab_project_badge", target: (id) => terraformBadge("project", id) },
  ],
  idForm: badgeIdForm,
  schema,
  outputs: {
    /** The badge's numeric id on the server. */
    badgeId: { value: (live: BadgeLive) => live.id, fromId: (id) => Number(id.split("/").at(-1)) },
    /** `project` or `group`. */
    kind: { value: (live: BadgeLive) => live.kind, derivedFrom: [] },
    /** The link URL with its placeholders filled in by the server; secret when `linkUrl` is. */
    renderedLinkUrl: { value: (live: BadgeLive) => live.rendered_link_url, derivedFrom: ["linkUrl"] },
    /** The image URL with its placeholders filled in by the server; secret when `imageUrl` is. */
    renderedImageUrl: { value: (live: BadgeLive) => live.rendered_image_url, derivedFrom: ["imageUrl"] },
  },
  validate: exactlyOneOwner,
  // A badge with the same link and image would be a second copy.
  needs: (args, operation) => ({
    ...badgeNeeds(args, operation),
    unique: {
      list: "badges",
      read: (ctx, owner) => badgeRequests.list(ctx.client, badgesOf(owner.apiPath)),
      find: (badges, owner) => {
        const same = (badges as BadgeLive[]).find((badge) => badge.kind === owner.kind && sameBadge(args)(badge));
        return same && { what: `a badge with this link and image${args.name === undefined ? "" : ` named ${args.name}`}`, id: located(args, same).id };
      },
    },
  }),

  async create(ctx, args) {
    const body = requestBody(this.fields, args);
    // If the response to the POST is lost, the badge it created is found rather than made twice.
    const live = await badgeRequests.post(ctx.client, badgesPath(args), body, () => ownBadges(ctx, args, sameBadge(args)));
    return located(args, live);
  },

  async read(ctx, id) {
    const { kind, path } = parseId(id);
    const live = await badgeRequests.get(ctx.client, path);
    return live.kind === kind ? live : undefined;
  },

  async update(ctx, id, args, changed) {
    return badgeRequests.put(ctx.client, parseId(id).path, requestBody(this.fields, args, changed));
  },

  async delete(ctx, id) {
    await ctx.client.delete(parseId(id).path);
  },

  async adopt(ctx, args) {
    // A named badge is matched by name; an unnamed one by its two URLs.
    const found = await ownBadges(ctx, args, (badge) =>
      args.name !== undefined ? badge.name === args.name : badge.link_url === args.linkUrl && badge.image_url === args.imageUrl,
    );
    return found ? located(args, found) : undefined;
  },
});

export type BadgeArgs = ResourceArgs<typeof schema>;

/**
 * A badge on a project or a group.
 *
 * ```ts
 * new Badge("coverage", { project: "acme/web", name: "coverage",
 *   linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}/badge.svg" });
 * ```
 */
export interface Badge extends ResourceOutputs<typeof badgeDefinition> {}
export class Badge extends PlatformResource {
  static {
    ofKind(this, badgeDefinition);
  }
  constructor(name: string, args: BadgeArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
