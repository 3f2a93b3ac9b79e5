/**
 * Container virtual registries: purge a registry's or an upstream's cache.
 * Both are answered at once (`{ scheduled: true }`) and the entries are
 * deleted in the background; a
 * registry's purge covers only the upstreams it has to itself (an upstream
 * shared with another registry keeps its cache for that one).
 */
import { z } from "zod";
import { containerRefusals, objectId, registryPath, upstreamPath } from "../api/virtual-registries";
import type { Needs } from "../api/needs";
import { defineAction } from "./core";

const refusals = containerRefusals;
const needs = (): Needs => ({ on: { kind: "described", what: "the registry's top-level group" }, role: "Maintainer" });

/**
 * Schedules the deletion of every cache entry of a virtual registry's own
 * upstreams (not of upstreams it shares with another registry).
 *
 * ```ts
 * await purgeVirtualRegistryCache({ registryId: 1 });
 * ```
 */
export const purgeVirtualRegistryCache = defineAction({
  name: "purgeVirtualRegistryCache",
  verb: "purge the cache of",
  args: z.object({ /** The virtual registry's id. */ registryId: objectId("a virtual registry") }),
  subject: (args) => `container virtual registry ${args.registryId}`,
  refusals,
  needs,
  async run(call, args) {
    await call.client.delete(`${registryPath(args.registryId)}/cache`);
    return { scheduled: true as const };
  },
});

/**
 * Schedules the deletion of every cache entry of one upstream, whichever registries use it.
 *
 * ```ts
 * await purgeUpstreamCache({ upstreamId: 4 });
 * ```
 */
export const purgeUpstreamCache = defineAction({
  name: "purgeUpstreamCache",
  verb: "purge the cache of",
  args: z.object({ /** The upstream's id. */ upstreamId: objectId("an upstream") }),
  subject: (args) => `container upstream ${args.upstreamId}`,
  refusals,
  needs,
  async run(call, args) {
    await call.client.delete(`${upstreamPath(args.upstreamId)}/cache`);
    return { scheduled: true as const };
  },
});
