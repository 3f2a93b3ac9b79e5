/**
 * ExclusiveGroupIntegrations: "these integrations active on this group" (see
 * ./exclusive-set.ts for when it records and removes). The group's list shows
 * its active integrations; removing one disables it (DELETE resets it), as
 * GroupIntegration's delete does.
 */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceOutputs } from "../engine/resource";
import { groupIntegrationPath, groupIntegrationsPath, integrationSlugOf, integrationSummaryRequests } from "../api/integrations";
import { ownerReference } from "../api/owner";
import { type Entry, type ExclusiveSetArgs, exclusiveSetDefinition } from "./exclusive-set";
import { onGroup } from "../api/needs";

type Owner = { group: string | number };

export const exclusiveGroupIntegrationsDefinition = exclusiveSetDefinition<Owner>({
  name: "ExclusiveGroupIntegrations",
  noun: "integration",
  imported: { setOf: "GroupIntegration", keeps: "id" },
  owner: { group: ownerReference },
  collectionPath: (args) => groupIntegrationsPath(args.group).slice(1),
  // The group's integrations API, list and removal alike.
  needs: (args) => ({ on: onGroup(args.group), role: "Maintainer" }),

  async list(ctx, args) {
    const integrations = await integrationSummaryRequests.getAll(ctx.client, groupIntegrationsPath(args.group));
    // An integration that takes an ancestor's settings says so: it was set up there, and is active here all the same.
    return integrations
      .filter((integration) => integration.active)
      .map((integration) => ({ slug: integration.slug, title: integration.title, ...(integration.inherited ? { inherited: true } : {}) }));
  },
  keyOf: (entry) => String(entry.slug),
  // A GroupIntegration's id (`groups/acme/integrations/slack`) or its slug (`slack`).
  keptKey: (value) => (typeof value === "string" ? integrationSlugOf(value) : undefined),
  keepForm: "a GroupIntegration's id or its slug",
  matchable: (entry: Entry) => [String(entry.slug), String(entry.title)],
  async remove(ctx, args, entry) {
    await ctx.client.delete(groupIntegrationPath(args.group, String(entry.slug)));
  },
});

export type ExclusiveGroupIntegrationsArgs = ExclusiveSetArgs<Owner>;

/**
 * The integrations the program declares are the only ones active on a group.
 * `ignore` patterns match a slug or title.
 *
 * ```ts
 * new ExclusiveGroupIntegrations("only-ours", { group: "acme", keep: [slack.id], ignore: ["jira"] });
 * ```
 */
export interface ExclusiveGroupIntegrations extends ResourceOutputs<typeof exclusiveGroupIntegrationsDefinition> {}
export class ExclusiveGroupIntegrations extends PlatformResource {
  static {
    ofKind(this, exclusiveGroupIntegrationsDefinition);
  }
  constructor(name: string, args: ExclusiveGroupIntegrationsArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
