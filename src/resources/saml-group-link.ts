/**
 * SamlGroupLink: maps a SAML group to a role in a group.
 *
 * The API has no update: any change replaces the link. The new link is
 * created before the old one is deleted when both can exist at once (another
 * group, name or provider); a new role for the same group, name and provider
 * cannot coexist with the old link, so that replacement deletes first (the
 * preview shows it as a delete-replace).
 *
 * Real servers answer every permission
 * failure with 401 (not an Owner, no Premium licence, no such group, or a bad
 * token), and 422 when a name is shared by links of several providers and no
 * `provider` was sent; the errors here say which it is.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { ApiError, MINIMAL_ACCESS_LEVEL, missingOrHidden, ROLE_LEVELS, roleNeeded, tierNeeded, tokenRefused, type Role } from "../client";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { claimObject, declarationKey } from "../engine/declarations";
import { ExplainedError } from "../engine/errors";
import { refusedFor } from "../api/needs";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { groupRequests, groupPath } from "../api/groups";
import { ownerReference } from "../api/owner";
import {
  providerQuery,
  samlGroupLinkRequests,
  samlGroupLinkId,
  samlGroupLinkPath,
  samlGroupLinksOf,
  samlGroupLinksPath,
  samlLinkNeeds,
  type SamlGroupLink as SamlGroupLinkLive,
  samlGroupLinkIdForm,
} from "../api/saml";
import { idPair } from "../engine/estate";
import { adoptExisting, ownerInput } from "./common";
import { notDotSegments } from "../validation";
import { parsedId } from "../api/id-form";

/** The roles a link can grant, by the names users know them by: minimal access, then every role. */
export const ACCESS_LEVELS = {
  minimal_access: MINIMAL_ACCESS_LEVEL,
  ...(Object.fromEntries(Object.entries(ROLE_LEVELS).map(([role, level]) => [role.toLowerCase(), level])) as { [R in Role as Lowercase<R>]: (typeof ROLE_LEVELS)[R] }),
};
export type AccessLevelName = keyof typeof ACCESS_LEVELS;
const LEVEL_NUMBERS: readonly number[] = Object.values(ACCESS_LEVELS);

/**
 * The API documentation's list of access levels starts at 0 (no access), but the SAML group
 * link endpoint declares `access_level` with `values:
 * Gitlab::Access.values_with_minimal_access`:
 * minimal access to owner, not 0. So exactly those are offered, and 0 is
 * refused with that reason rather than as an unknown number.
 */
const accessLevel = z.custom<AccessLevelName | number>(
  (value) => (typeof value === "string" && value in ACCESS_LEVELS) || (typeof value === "number" && LEVEL_NUMBERS.includes(value)),
  {
    error: (issue) =>
      issue.input === 0
        ? `0 (no access) is not a role a SAML group link can grant; the API accepts the access levels ${LEVEL_NUMBERS.join(", ")} ` +
          "(Gitlab::Access.values_with_minimal_access): use minimal_access (5) for the least access, or declare no link for that SAML group"
        : `must be a role (${Object.keys(ACCESS_LEVELS).join(", ")}) or one of the access levels ${LEVEL_NUMBERS.join(", ")}`,
  },
);

const levelNumber = (value: unknown): unknown => (typeof value === "string" ? ACCESS_LEVELS[value as AccessLevelName] : value);

const schema = z.object({
  /** The group (numeric id or full path). */
  group: ownerInput(ownerReference),
  /** The group's name at the identity provider, as the SAML response carries it. */
  samlGroupName: field(
    z
      .string()
      .min(1, { message: "must not be empty" })
      .max(255, { message: "must be at most 255 characters" })
      .refine((name) => name.trim() === name, { message: "must not start or end with spaces" })
      .refine(...notDotSegments),
    { replaceOnChange: true, fromApi: (live) => live.name },
  ),
  /** The role members of the SAML group get: a name (`developer`) or its number (30); recorded as declared. */
  accessLevel: field(accessLevel, {
    replaceOnChange: true,
    // The server answers with numbers: `developer` and 30 are the same role.
    sameValue: (declared, live) => levelNumber(declared) === levelNumber(live),
  }),
  /** A custom role (Ultimate) that refines `accessLevel`. */
  memberRoleId: field(z.number().int().positive().optional(), { replaceOnChange: true }),
  /** The SAML provider the link applies to; needed when several providers use the same group name. */
  provider: field(
    z
      .string()
      .min(1, { message: "must not be empty; leave provider out for links that apply to any provider" })
      .max(255, { message: "must be at most 255 characters" })
      .optional(),
    { replaceOnChange: true, fromApi: (live) => live.provider ?? undefined },
  ),
  adoptExisting,
});

type Inputs = z.output<typeof schema>;

/** The id is the link's API path, with its provider when it has one: `groups/acme/saml_group_links/devs?provider=okta`. */
const idOf = (args: Inputs): string => samlGroupLinkId(args.group, args.samlGroupName, args.provider);

function parseId(id: string): { path: string; group: string; provider?: string } {
  return parsedId("SamlGroupLink", samlGroupLinkIdForm, id);
}

const sameLink = (args: Inputs) => (link: SamlGroupLinkLive) => link.name === args.samlGroupName && (link.provider ?? undefined) === args.provider;

/**
 * A 401 from this API means one of four things; one GET of the group tells
 * which, so the message can say what to do: get-one shows `runners_token` to
 * the group's Owners and administrators only, so
 * a group that shows it was refused for its tier, one that hides it for the
 * role. 422 is the shared-name ambiguity.
 */
async function explained(ctx: EngineContext, group: string | number, error: unknown, storedConfig: boolean): Promise<unknown> {
  if (!(error instanceof ApiError)) return error;
  let message: string | undefined;
  if (error.status === 422) {
    message =
      `several SAML group links of group ${group} share this name, for different providers (the server said: ${error.serverMessage}). ` +
      `Set provider on this SamlGroupLink to say which one it is.`;
  } else if (error.status === 401) {
    const probe = await groupRequests.get(ctx.client, groupPath(group), { with_projects: false }).then(
      (found) => ({ status: 200, owner: typeof found.runners_token === "string" }),
      (e: unknown) => ({ status: e instanceof ApiError ? e.status : 0, owner: false }),
    );
    const refused = `${error.method} ${error.path} failed with 401`;
    // A read or delete may run on the token stored at the last up: the engine says that, as for every resource.
    if (probe.status === 401 && storedConfig) return error;
    const owner = `group ${group}`;
    const tier = tierNeeded("premium", owner);
    const role = roleNeeded("Owner", owner);
    message =
      probe.status === 401
        ? `${refused}: ${tokenRefused()}.`
        : probe.status === 404
          ? `${refused}: ${missingOrHidden(owner)}.`
          : probe.status !== 200
            ? `${refused}: ${refusedFor(samlLinkNeeds(group), 401, [])}.`
            : probe.owner
              ? `${refused}: ${tier} and is below it (the token's user is an Owner there; this API answers 401 below the tier).`
              : `${refused}: ${role} and lacks it (this API answers 401 then).`;
  }
  return message ? new ExplainedError(`SamlGroupLink: ${message}`) : error;
}

/** `storedConfig`: a read or delete, which refresh and destroy run with the stack config stored at the last up. */
async function guarded<T>(ctx: EngineContext, group: string | number, action: () => Promise<T>, storedConfig = false): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw await explained(ctx, group, error, storedConfig);
  }
}

async function createLink(ctx: EngineContext, args: Inputs): Promise<{ id: string; live: SamlGroupLinkLive }> {
  const collection = samlGroupLinksPath(args.group);
  const body: Record<string, unknown> = { saml_group_name: args.samlGroupName, access_level: levelNumber(args.accessLevel) };
  if (args.memberRoleId !== undefined) body.member_role_id = args.memberRoleId;
  if (args.provider !== undefined) body.provider = args.provider;
  const live = await guarded(ctx, args.group, async () => {
    try {
      // If the response to the POST is lost, the link it created is found rather than made twice.
      return await samlGroupLinkRequests.post(ctx.client, collection, body, () => samlGroupLinkRequests.find(ctx.client, collection, undefined, sameLink(args)));
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && /already been taken/i.test(error.serverMessage)) {
        throw new ExplainedError(
          `SamlGroupLink: group ${args.group} already has a SAML group link named "${args.samlGroupName}"` +
            `${args.provider === undefined ? " without a provider" : ` for provider ${args.provider}`}. ` +
            `If no stack manages it, set adoptExisting: true to take it over, or remove it from the group first; ` +
            `if another resource (of this program or another stack) manages it, declare the link once.`,
        );
      }
      throw error;
    }
  });
  if (args.memberRoleId !== undefined && live.member_role_id !== args.memberRoleId) {
    // The server drops member_role_id where custom roles are unavailable; keeping
    // the link would leave a permanent difference, so it goes and the user is told.
    await ctx.client.delete(samlGroupLinkPath(args.group, args.samlGroupName), providerQuery(args.provider));
    throw new ExplainedError(
      `SamlGroupLink: the server ignored memberRoleId ${args.memberRoleId} (custom roles are not available on group ${args.group}; they need Ultimate). ` +
        `The link was removed again; leave memberRoleId out or enable custom roles.`,
    );
  }
  return { id: idOf(args), live };
}

async function deleteLink(ctx: EngineContext, id: string): Promise<void> {
  const { path, group, provider } = parseId(id);
  await guarded(ctx, group, () => ctx.client.delete(path, providerQuery(provider)), true);
}

export const samlGroupLinkDefinition = defineObjectResource({
  name: "SamlGroupLink",
  words: { noun: "SAML group link" },
  imported: {
    word: "saml-link",
    listed: "SAML group links",
    on: ["group"],
    async find({ ctx, owner }) {
      const address = { group: owner.id };
      const links = await samlGroupLinkRequests.list(ctx.client, samlGroupLinksPath(owner.id));
      const found = links
        .sort((a, b) => a.name.localeCompare(b.name, "en") || (a.provider ?? "").localeCompare(b.provider ?? "", "en"))
        .map((link) => ({ importId: samlGroupLinkId(owner.id, link.name, link.provider ?? undefined), name: link.name, live: link, address }));
      return { found, collections: [{ address, members: found.map((one) => one.importId) }] };
    },
    /**
     * A state's link: its id names the group and the link's name but no
     * provider, and a group may hold links of one name under several
     * providers, which the server will not read by name alone (422). So the
     * group's links are listed and those of the name taken: one is declared;
     * several are all declared when the state has as many resources of the
     * name (each is one of them); else the one its resource's role tells
     * apart. A link it cannot place is said, and the run goes on.
     */
    async findOne({ ctx, owner }, key, { resources, said }) {
      const address = { group: owner.id };
      const name = String(key);
      const found = (link: SamlGroupLinkLive) => ({ importId: samlGroupLinkId(owner.id, link.name, link.provider ?? undefined), name: link.name, live: link, address });
      const links = (await samlGroupLinkRequests.list(ctx.client, samlGroupLinksPath(owner.id))).filter((link) => link.name === name).sort((a, b) => (a.provider ?? "").localeCompare(b.provider ?? "", "en"));
      if (links.length === 0) return { found: [], skipped: [{ what: `SAML group link ${JSON.stringify(name)}`, why: "the group holds no link of this name: it is gone (the state is out of date)" }] };
      if (links.length <= resources) return { found: links.map(found) };
      const level = typeof said?.accessLevel === "string" ? (ACCESS_LEVELS as Record<string, number>)[said.accessLevel] : undefined;
      const placed = links.filter((link) => link.access_level === level && (link.member_role_id ?? undefined) === said?.memberRoleId);
      if (placed.length === 1) return { found: placed.map(found) };
      const providers = links.map((link) => (link.provider ? JSON.stringify(link.provider) : "any provider")).join(", ");
      const why = `the group holds ${links.length} links of this name (${providers}), the state's id names no provider, and its role does not tell which one it is: declare that link with the import id groups/${owner.id}/saml_group_links/<name>?provider=<provider>`;
      return { found: [], skipped: [{ what: `SAML group link ${JSON.stringify(name)}`, why }] };
    },
  },
  terraform: [
    {
      // `<group id or path>:<SAML group name>`; the role tells apart links of one name under several providers.
      type: "gitlab_group_saml_link",
      target(id, attributes) {
        const parts = idPair(id);
        if (!parts) return undefined;
        const { access_level: accessLevel, member_role_id: memberRoleId } = attributes;
        const said = { ...(typeof accessLevel === "string" ? { accessLevel } : {}), ...(typeof memberRoleId === "number" ? { memberRoleId } : {}) };
        return { owner: { kind: "group", ref: parts[0] }, key: parts[1], ...(Object.keys(said).length > 0 ? { said } : {}) };
      },
    },
  ],
  idForm: samlGroupLinkIdForm,
  notFoundSubject: "",
  schema,
  // ee/lib/api/saml_group_links.rb wants an Owner and SAML group links a Premium group;
  // a second link of the same name (and provider) is refused as taken.
  needs: (args) => ({
    ...samlLinkNeeds(args.group),
    unique: {
      list: "saml group links",
      read: (ctx, owner) => samlGroupLinkRequests.list(ctx.client, samlGroupLinksOf(owner.apiPath)),
      find: (links) => ((links as SamlGroupLinkLive[]).some(sameLink(args)) ? { what: `a SAML group link named ${args.samlGroupName}`, id: idOf(args) } : undefined),
    },
  }),
  outputs: {},
  // A link with the same group, name and provider is in the way of its replacement; and a link without a
  // provider cannot be deleted by name once another link of that name exists (the server asks which provider).
  deleteBeforeReplace: (olds, news) =>
    olds.group === news.group && olds.samlGroupName === news.samlGroupName && ((olds.provider ?? undefined) === news.provider || olds.provider == null),

  create: createLink,

  async read(ctx, id) {
    const { path, group, provider } = parseId(id);
    return guarded(ctx, group, () => samlGroupLinkRequests.get(ctx.client, path, providerQuery(provider)), true);
  },

  async update(ctx, id, args) {
    // Every property replaces the link, so this runs only when an adopted link
    // differs from the declaration: the API has no update, so it is made anew.
    await deleteLink(ctx, id);
    return (await createLink(ctx, args)).live;
  },

  delete: deleteLink,

  async adopt(ctx, args) {
    const live = await guarded(ctx, args.group, () =>
      samlGroupLinkRequests.find(ctx.client, samlGroupLinksPath(args.group), undefined, sameLink(args)),
    );
    return live ? { id: idOf(args), live } : undefined;
  },
});

export type SamlGroupLinkArgs = ResourceArgs<typeof schema>;

/**
 * Gives the members of a SAML group a role in a group (Premium and Ultimate;
 * the token's user must be an Owner of the group).
 *
 * ```ts
 * new SamlGroupLink("developers", { group: "acme", samlGroupName: "acme-developers", accessLevel: "developer" });
 * ```
 */
export interface SamlGroupLink extends ResourceOutputs<typeof samlGroupLinkDefinition> {}
export class SamlGroupLink extends PlatformResource {
  static {
    ofKind(this, samlGroupLinkDefinition);
  }
  constructor(name: string, args: SamlGroupLinkArgs, opts?: pulumi.CustomResourceOptions) {
    claimLink(name, args);
    super(name, args, opts);
  }
}

/**
 * A link declared twice in one program would have two resources own it: the
 * second create fails at apply (the name is taken), and `adoptExisting` on it
 * would make the destroy of either remove the link of both. So the second
 * declaration is refused while the program runs, naming the first.
 */
function claimLink(name: string, args: SamlGroupLinkArgs): void {
  claimObject(
    "saml-group-link",
    name,
    [args.group, args.samlGroupName, args.provider],
    // Paths are case-insensitive on the server; SAML group names and providers are compared as they are.
    ([group, samlGroupName, provider]) => [declarationKey(group, args.connection), samlGroupName, provider ?? null],
    (first, [group, samlGroupName, provider]) => {
      const which = provider === undefined || provider === null ? "without a provider" : `for provider ${String(provider)}`;
      return (
        `SamlGroupLink "${name}": samlGroupName: SamlGroupLink "${first}" of this program already declares the link "${String(samlGroupName)}" ` +
        `of group ${String(group)} ${which}. Two resources would own one link (adoptExisting would not help: destroying either removes it for both); declare it once.`
      );
    },
  );
}
