/**
 * ExclusiveSamlGroupLinks: "exactly these SAML group links" on a group (see
 * ./exclusive-set.ts for when it records and removes). A link is identified
 * by its name and provider, as the API addresses it.
 */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceOutputs } from "../engine/resource";
import { ownerReference } from "../api/owner";
import { parseSamlGroupLinkId, providerQuery, samlGroupLinkRequests, samlGroupLinkPath, samlGroupLinksPath, samlLinkNeeds } from "../api/saml";
import { type Entry, type ExclusiveSetArgs, exclusiveSetDefinition } from "./exclusive-set";

type Owner = { group: string | number };

/** `devs`, or `devs?provider=okta` for a link of one provider: the tail of a SamlGroupLink's id. */
const linkKey = (name: string, provider: string | undefined) => (provider === undefined ? name : `${name}?provider=${provider}`);

/** A SamlGroupLink's id (`groups/acme/saml_group_links/devs?provider=okta`) or its tail (`devs`, `devs?provider=okta`). */
function keptKey(value: string | number): string | undefined {
  if (typeof value !== "string") return undefined;
  const link = parseSamlGroupLinkId(value);
  if (link) return linkKey(link.name, link.provider);
  return value.includes("/") ? undefined : value;
}

export const exclusiveSamlGroupLinksDefinition = exclusiveSetDefinition<Owner>({
  name: "ExclusiveSamlGroupLinks",
  noun: "SAML group link",
  imported: { setOf: "SamlGroupLink", keeps: "id" },
  owner: { group: ownerReference },
  collectionPath: (args) => samlGroupLinksPath(args.group).slice(1),
  needs: (args) => samlLinkNeeds(args.group),

  async list(ctx, args) {
    const links = await samlGroupLinkRequests.list(ctx.client, samlGroupLinksPath(args.group));
    return links.map((link) => ({ name: link.name, ...(typeof link.provider === "string" ? { provider: link.provider } : {}), accessLevel: link.access_level }));
  },
  keyOf: (entry) => linkKey(String(entry.name), entry.provider === undefined ? undefined : String(entry.provider)),
  keptKey,
  keepForm: "a SamlGroupLink's id, or the name of a link without a provider",
  matchable: (entry: Entry) => [String(entry.name)],
  describe: (entry: Entry) => `SAML group link \`${String(entry.name)}\`${entry.provider === undefined ? "" : ` of provider ${String(entry.provider)}`}`,
  async remove(ctx, args, entry) {
    // The provider is always named when the link has one, so a name shared by several providers is never ambiguous.
    const query = providerQuery(entry.provider === undefined ? undefined : String(entry.provider));
    await ctx.client.delete(samlGroupLinkPath(args.group, String(entry.name)), query);
  },
});

export type ExclusiveSamlGroupLinksArgs = ExclusiveSetArgs<Owner>;

/**
 * The SAML group links the program declares are the only ones of a group.
 * `ignore` patterns match a link's SAML group name.
 *
 * ```ts
 * new ExclusiveSamlGroupLinks("only-ours", { group: "acme", keep: [developers.id, maintainers.id] });
 * ```
 */
export interface ExclusiveSamlGroupLinks extends ResourceOutputs<typeof exclusiveSamlGroupLinksDefinition> {}
export class ExclusiveSamlGroupLinks extends PlatformResource {
  static {
    ofKind(this, exclusiveSamlGroupLinksDefinition);
  }
  constructor(name: string, args: ExclusiveSamlGroupLinksArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
