/**
 * ProtectedTag: a project's protected tag rule (a name or a wildcard) and who
 * may create matching tags.
 *
 * - create: `POST /projects/:id/protected_tags`; a lost answer is found by
 *   the rule's name.
 * - The API has no update of a protected tag: a new level replaces the rule,
 *   and since two rules of one name cannot exist, the old one is removed
 *   first. The review shows that replacement among what destroys.
 * - delete: `DELETE`: the tags are unprotected.
 *
 * The resource id is `projects/<project>/protected_tags/<name>`, both parts URL-encoded.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { parsedId } from "../api/id-form";
import { ownerReference } from "../api/owner";
import {
  protectedRefNeeds,
  protectedTagId,
  protectedTagIdForm,
  protectedTagRequests,
  protectedTagsOf,
  refAccessLevel,
  refLevelNumber,
  roleLevelOf,
  ruleName,
  type ProtectedTag as ProtectedTagLive,
} from "../api/protected-refs";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { ownerAddress } from "../engine/estate";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { adoptExisting, ownerInput, projectKeyTarget } from "./common";

const schema = z.object({
  /** The project (numeric id or full path). */
  project: ownerInput(ownerReference),
  /** The tag, or a wildcard naming several (`v*`): `*` stands for any run of characters. */
  name: field(ruleName, { replaceOnChange: true }),
  /** Who may create matching tags, by role: `no_one`, `developer`, `maintainer` (the default) or `admin`, or its number. The API changes no rule in place: a new level replaces it. */
  createAccessLevel: field(refAccessLevel().default("maintainer"), {
    replaceOnChange: true,
    fromApi: (live) => roleLevelOf(live.create_access_levels as ProtectedTagLive["create_access_levels"]),
    sameValue: (declared, live) => refLevelNumber(declared) === refLevelNumber(live),
  }),
  adoptExisting,
});

type Inputs = z.output<typeof schema>;

const parseId = (id: string) => parsedId("ProtectedTag", protectedTagIdForm, id);

const findRule = (ctx: EngineContext, args: Inputs) => protectedTagRequests.find(ctx.client, protectedTagsOf(args.project), undefined, (rule) => rule.name === args.name);

export const protectedTagDefinition = defineObjectResource({
  name: "ProtectedTag",
  words: {
    noun: "protected tag",
    says: ({ kind, before, after }) =>
      after === undefined || (kind === "replace" && before?.name !== after.name)
        ? "unprotects it: anyone with the Developer role can then create the tags it matched, unless another rule protects them"
        : kind === "replace"
          ? "unprotects it and protects it anew (the server changes a protected tag no other way): between the two, anyone with the Developer role can create the tags it matched, unless another rule protects them"
          : undefined,
  },
  imported: {
    word: "protected-tag",
    listed: "protected tags",
    on: ["project"],
    async find({ ctx, owner }) {
      const address = ownerAddress(owner);
      const rules = await protectedTagRequests.list(ctx.client, protectedTagsOf(owner.id));
      return { found: rules.map((rule) => ({ importId: protectedTagId(owner.id, rule.name), name: rule.name, live: rule, address })) };
    },
    async findOne({ owner, read }, key) {
      const address = ownerAddress(owner);
      const importId = protectedTagId(owner.id, String(key));
      const live = await read(importId, address);
      return live ? { found: [{ importId, name: String(key), live, address }] } : { found: [], skipped: [{ what: `protected tag ${key}`, why: "not protected on the project" }] };
    },
  },
  terraform: [{ type: "gitlab_tag_protection", target: projectKeyTarget }],
  idForm: protectedTagIdForm,
  schema,
  outputs: {
    /** The create levels as the server holds them: each entry's id, level, user or group, and description. */
    createAccessLevels: { value: (live: ProtectedTagLive) => live.create_access_levels, derivedFrom: [] },
  },
  // Two rules of one name cannot exist: a new level or name in the same project removes the old rule first.
  deleteBeforeReplace: (olds, news) => olds.project === news.project && olds.name === news.name,
  needs: (args) => ({
    ...protectedRefNeeds(args),
    unique: {
      list: "protected tags",
      read: (ctx, owner) => protectedTagRequests.list(ctx.client, `${owner.apiPath}/protected_tags`),
      find: (rules) => ((rules as ProtectedTagLive[]).some((rule) => rule.name === args.name) ? { what: `protected tag ${args.name}`, id: protectedTagId(args.project, args.name) } : undefined),
    },
  }),

  async create(ctx, args) {
    const body = { name: args.name, create_access_level: refLevelNumber(args.createAccessLevel) };
    const live = await protectedTagRequests.post(ctx.client, protectedTagsOf(args.project), body, () => findRule(ctx, args));
    return { id: protectedTagId(args.project, args.name), live };
  },

  read(ctx, id) {
    return protectedTagRequests.get(ctx.client, parseId(id).path);
  },

  async delete(ctx, id) {
    await ctx.client.delete(parseId(id).path);
  },

  async adopt(ctx, args) {
    const live = await findRule(ctx, args);
    return live ? { id: protectedTagId(args.project, args.name), live } : undefined;
  },
});

export type ProtectedTagArgs = ResourceArgs<typeof schema>;

/**
 * A protected tag rule of a project: who may create tags of that name or pattern.
 *
 * ```ts
 * new ProtectedTag("releases", { project: "acme/web", name: "v*", createAccessLevel: "maintainer" });
 * ```
 */
export interface ProtectedTag extends ResourceOutputs<typeof protectedTagDefinition> {}
export class ProtectedTag extends PlatformResource {
  static {
    ofKind(this, protectedTagDefinition);
  }
  constructor(name: string, args: ProtectedTagArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
