/**
 * ExclusiveUpstreams: "these upstreams in this registry" (see
 * ./exclusive-set.ts for when it records and removes).
 *
 * An upstream may serve several registries of its group. Removing one from
 * this registry deletes its association with the registry (DELETE
 * registry_upstreams/:id); an upstream that then serves no registry at all is
 * deleted too, as the registry's own delete does with the upstreams it does
 * not share. One that other registries use stays.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ofKind, PlatformResource, type ResourceOutputs } from "../engine/resource";
import { type Entry, type ExclusiveSetArgs, exclusiveSetDefinition } from "./exclusive-set";
import { registryUpstreamsPath, upstreamRequests, upstreamLinkPath, upstreamPath } from "../api/virtual-registries";
import { CONTAINER_REGISTRY_NEEDS, registryOwner } from "./virtual-registry";

type Owner = { registry: number };

export const exclusiveUpstreamsDefinition = exclusiveSetDefinition<Owner>({
  name: "ExclusiveUpstreams",
  noun: "upstream",
  imported: { setOf: "Upstream", keeps: "upstreamId" },
  owner: { registry: z.number().int().positive() },
  collectionPath: (args) => registryUpstreamsPath(args.registry).slice(1),
  // A program gives the registry as the VirtualRegistry's `registryId`, unknown before its first `up`.
  ownerOf: (id) => {
    const registry = /^virtual_registries\/container\/registries\/(\d+)\/upstreams$/.exec(id)?.[1];
    return registry === undefined ? {} : { registry: Number(registry) };
  },
  // Listing needs the Guest role; removing, Maintainer.
  needs: (args, operation) => ({ on: registryOwner("registry", args.registry), ...CONTAINER_REGISTRY_NEEDS, ...(operation === "update" ? {} : { role: "Guest" }) }),

  async list(ctx, args) {
    const upstreams = await upstreamRequests.getAll(ctx.client, registryUpstreamsPath(args.registry));
    return upstreams.map((u) => ({ upstreamId: u.id, name: u.name, url: u.url, registryUpstreamId: u.registry_upstream?.id ?? 0 }));
  },
  keyOf: (entry) => String(entry.upstreamId),
  // An Upstream's `upstreamId` (12) or its `id` ("12").
  keptKey: (value) => (typeof value === "number" ? String(value) : /^\d+$/.test(value) ? value : undefined),
  keepForm: "an Upstream's upstreamId or id",
  matchable: (entry: Entry) => [String(entry.upstreamId), String(entry.name), String(entry.url)],
  async remove(ctx, _args, entry) {
    await ctx.client.delete(upstreamLinkPath(Number(entry.registryUpstreamId)));
    const upstream = await upstreamRequests.get(ctx.client, upstreamPath(Number(entry.upstreamId)));
    if ((upstream.registry_upstreams ?? []).length === 0) await ctx.client.delete(upstreamPath(upstream.id));
  },
});

export type ExclusiveUpstreamsArgs = ExclusiveSetArgs<Owner>;

/**
 * The upstreams the program declares are the only ones in a virtual registry.
 * `ignore` patterns match an upstream's name or URL.
 *
 * ```ts
 * new ExclusiveUpstreams("only-ours", { registry: registry.registryId, keep: [dockerHub.upstreamId] });
 * ```
 */
export interface ExclusiveUpstreams extends ResourceOutputs<typeof exclusiveUpstreamsDefinition> {}
export class ExclusiveUpstreams extends PlatformResource {
  static {
    ofKind(this, exclusiveUpstreamsDefinition);
  }
  constructor(name: string, args: ExclusiveUpstreamsArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
