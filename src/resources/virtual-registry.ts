/**
 * VirtualRegistry: a container virtual registry of a top-level group. Name and description update in place; the
 * group cannot change. At most 5 per group: the class counts the registries a
 * program declares per group (see ../engine/declarations.ts) and the server
 * refuses a sixth with its own message.
 *
 * Deleting a registry deletes, on the server, the upstreams no other
 * registry uses and their caches: an `Upstream` deleted afterwards finds
 * nothing and counts that as done, so a destroy works in either order.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { countDeclaration, declarationKey, recordAlias } from "../engine/declarations";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { adoptExisting, ownerInput } from "./common";
import {
  groupRegistriesOf,
  groupRegistriesPath,
  registryPath,
  topLevelGroup,
  virtualRegistryRequests,
  type VirtualRegistry as VirtualRegistryLive,
  registryIdForm,
} from "../api/virtual-registries";
import { onGroup, type GroupObjectOwner, type Needs } from "../api/needs";
import { parsedId } from "../api/id-form";

export const MAX_REGISTRIES_PER_GROUP = 5;

/**
 * What the container registry API demands of a registry's group, and how it
 * refuses (real servers' `SharedSetup`): the flag off is 401, which reads like
 * a bad token, and a tier below Premium is an unnamed 404; a role below
 * Maintainer is 403. Upstreams (./upstream.ts) and ExclusiveUpstreams share it.
 */
export const CONTAINER_REGISTRY_NEEDS: Omit<Needs, "on"> = {
  role: "Maintainer",
  tier: "premium",
  featureFlag: "container_virtual_registries",
  refusedWith: { 401: ["featureFlag"], 404: ["tier"] },
};

/**
 * The owner, at preview, of what lives in a registry named by its id: the
 * registry's group, found by reading the registry (once per run). That read is
 * gated like the rest of the API, so its refusal names the flag or the tier.
 */
export function registryOwner(property: string, id: number): GroupObjectOwner {
  return {
    kind: "group object",
    property,
    ref: id,
    what: `container virtual registry ${id}`,
    path: registryPath(id),
    groupOf: async (ctx) => (await virtualRegistryRequests.get(ctx.client, registryPath(id))).group_id,
    refusedWith: CONTAINER_REGISTRY_NEEDS.refusedWith,
  };
}

const schema = z.object({
  /** The top-level group (id or path) that owns the registry. */
  group: ownerInput(topLevelGroup),
  name: z.string().min(1).max(255),
  description: z.string().min(1).max(1024).optional(),
  adoptExisting,
});

type VirtualRegistryInputs = z.output<typeof schema>;


function parseId(id: string): string {
  return parsedId("VirtualRegistry", registryIdForm, id);
}

/** The group's registry of this name (names are unique in a group). */
function registryNamed(ctx: EngineContext, args: VirtualRegistryInputs): Promise<VirtualRegistryLive | undefined> {
  return virtualRegistryRequests.getAll(ctx.client, groupRegistriesPath(args.group)).then((all) => all.find((r) => r.name === args.name));
}

export interface RegistryUpstreamOutput {
  upstreamId: number;
  position: number;
  registryUpstreamId: number;
}

export const virtualRegistryDefinition = defineObjectResource({
  name: "VirtualRegistry",
  words: { noun: "virtual registry" },
  imported: {
    word: "registry",
    listed: "container virtual registries",
    on: ["top-level group"],
    async find({ ctx, owner }) {
      const registries = await virtualRegistryRequests.list(ctx.client, groupRegistriesPath(owner.id));
      return { found: registries.sort((a, b) => a.id - b.id).map((registry) => ({ importId: String(registry.id), name: registry.name, live: registry, address: { group: owner.id } })) };
    },
  },
  idForm: registryIdForm,
  schema,
  // Names are unique in a group.
  // A group holds five registries at most: a full one refuses another (the same list, read once).
  needs: (args, operation) => ({
    on: onGroup(args.group),
    ...CONTAINER_REGISTRY_NEEDS,
    ...(operation === "read" ? { role: "Guest" as const } : {}),
    room: [
      {
        property: "group",
        list: "container virtual registries",
        read: (ctx, owner) => virtualRegistryRequests.getAll(ctx.client, groupRegistriesOf(owner.apiPath)),
        max: MAX_REGISTRIES_PER_GROUP,
        holder: `group ${args.group}`,
        items: "container virtual registries",
      },
    ],
    unique: {
      list: "container virtual registries",
      read: (ctx, owner) => virtualRegistryRequests.getAll(ctx.client, groupRegistriesOf(owner.apiPath)),
      find: (registries) => {
        const same = (registries as VirtualRegistryLive[]).find((registry) => registry.name === args.name);
        return same && { what: `a container virtual registry named ${args.name}`, id: String(same.id) };
      },
    },
  }),
  outputs: {
    /** The registry's numeric id: give it to `Upstream.registry`. */
    registryId: { value: (live: VirtualRegistryLive) => live.id, fromId: Number },
    /** The numeric id of the owning group. */
    groupId: (live: VirtualRegistryLive) => live.group_id,
    /** The registry's upstreams in order, as of the last create, update or refresh. */
    upstreams: (live: VirtualRegistryLive) =>
      [...(live.registry_upstreams ?? [])]
        .sort((a, b) => a.position - b.position)
        .map((link): RegistryUpstreamOutput => ({ upstreamId: link.upstream_id, position: link.position, registryUpstreamId: link.id })),
  },

  async create(ctx, args) {
    // A lost response is recovered by name, so a retry never makes a second registry.
    const live = await virtualRegistryRequests.post(ctx.client, groupRegistriesPath(args.group), requestBody(this.fields, args), () => registryNamed(ctx, args));
    // A new registry has no upstreams yet; the create answer does not list them.
    return { id: String(live.id), live: { ...live, registry_upstreams: live.registry_upstreams ?? [] } };
  },

  async read(ctx, id) {
    return virtualRegistryRequests.get(ctx.client, registryPath(parseId(id)));
  },

  async update(ctx, id, args, changed, olds) {
    await ctx.client.patch(registryPath(parseId(id)), requestBody(this.fields, args, changed));
    // The PATCH answers with its status only. The rest of the object is what was recorded, unless
    // nothing was (adoption): then it is read.
    const recorded = olds as VirtualRegistryInputs & { registryId?: number; groupId?: number; upstreams?: RegistryUpstreamOutput[] };
    if (recorded.registryId === undefined || recorded.groupId === undefined) return virtualRegistryRequests.get(ctx.client, registryPath(id));
    return {
      id: recorded.registryId,
      group_id: recorded.groupId,
      name: args.name,
      description: args.description ?? null,
      registry_upstreams: (recorded.upstreams ?? []).map((u) => ({ id: u.registryUpstreamId, position: u.position, upstream_id: u.upstreamId })),
    };
  },

  async delete(ctx, id) {
    await ctx.client.delete(registryPath(parseId(id)));
  },

  async adopt(ctx, args) {
    const found = await registryNamed(ctx, args);
    if (!found) return undefined;
    // The list does not carry the upstreams; get-one does.
    return { id: String(found.id), live: await virtualRegistryRequests.get(ctx.client, registryPath(found.id)) };
  },
});

export type VirtualRegistryArgs = ResourceArgs<typeof schema>;

/** The declarations rule key that maps a registry's id Output to its group. */
export const REGISTRY_GROUP = "virtual-registry-group";

/**
 * A container virtual registry of a top-level group.
 *
 * ```ts
 * const registry = new VirtualRegistry("containers", { group: "acme", name: "containers" });
 * new Upstream("docker-hub", { registry: registry.registryId, name: "Docker Hub", url: "https://registry-1.docker.io" });
 * ```
 */
export interface VirtualRegistry extends ResourceOutputs<typeof virtualRegistryDefinition> {}
export class VirtualRegistry extends PlatformResource {
  static {
    ofKind(this, virtualRegistryDefinition);
  }
  constructor(name: string, args: VirtualRegistryArgs, opts?: pulumi.CustomResourceOptions) {
    const groupKey = declarationKey(args.group);
    countDeclaration(
      "virtual-registries-per-group",
      groupKey,
      MAX_REGISTRIES_PER_GROUP,
      () => `VirtualRegistry ${name}: group: the program declares more than ${MAX_REGISTRIES_PER_GROUP} virtual registries in group ${String(args.group)}; a top-level group holds at most ${MAX_REGISTRIES_PER_GROUP}.`,
    );
    super(name, args, opts);
    // Upstreams name their registry by this Output: remember its group for their per-group rules.
    recordAlias(REGISTRY_GROUP, this.registryId, groupKey);
  }
}
