/**
 * Container virtual registries, their upstreams and the cleanup policy of a
 * top-level group: experiments
 * behind feature flags, Premium and Ultimate only.
 *
 * Refusals are explained as the resources explain them (`needs` in
 * ../resources/virtual-registry.ts and cleanup-policy.ts), from real servers'
 * gates:
 * - registries and upstreams: the `container_virtual_registries` flag off is
 *   401, which reads like a bad token; a tier below Premium is an unnamed 404;
 *   reading needs a membership of the group (403 otherwise);
 * - the cleanup policy: the `maven_virtual_registry` flag off, a tier below
 *   Premium, and no policy yet are all an unnamed 404; only Owners read it (403).
 * Lists of registries (at most 5 a group) and of a registry's upstreams (at
 * most 5) are not paginated; a group's upstreams are.
 *
 * Upstream passwords are never returned (real servers: `prevent_from_serialization`),
 * so nothing here is secret; `username` is shown.
 */
import { z } from "zod";
import { tierNeeded } from "../client";
import {
  cleanupPolicy as cleanupPolicyShape,
  cleanupPolicyPath,
  containerRefusals,
  groupRegistriesPath,
  groupUpstreamsPath,
  objectId,
  registryPath,
  registryUpstreamsPath,
  topLevelGroup,
  upstream as upstreamShape,
  upstreamDetail as upstreamDetailShape,
  upstreamPath,
  virtualRegistry as registryShape,
  virtualRegistryDetail as registryDetailShape,
} from "../api/virtual-registries";
import { onGroup } from "../api/owner";
import type { Needs } from "../api/needs";
import { defineListFunction, defineObjectFunction, groupNeeds, type Camelized } from "./core";

export type VirtualRegistryInfo = Camelized<z.output<typeof registryShape>>;
export type VirtualRegistryDetail = Camelized<z.output<typeof registryDetailShape>>;
export type UpstreamInfo = Camelized<z.output<typeof upstreamShape>>;
export type UpstreamDetail = Camelized<z.output<typeof upstreamDetailShape>>;
export type VirtualRegistryCleanupPolicyInfo = Camelized<z.output<typeof cleanupPolicyShape>>;

const groupArg = { /** The top-level group (id or path). */ group: topLevelGroup };


/** Reading virtual registries and upstreams is for any member of the group. */
const readNeeds = (args: { group?: string | number }): Needs => ({
  on: args.group === undefined ? { kind: "described", what: "the registry's group" } : onGroup(args.group),
  phrase: "a membership (any role)",
});

const registries = defineListFunction({
  name: "getVirtualRegistries",
  args: z.object(groupArg),
  path: (args) => groupRegistriesPath(args.group),
  subject: (args) => `the container virtual registries of group ${args.group}`,
  refusals: containerRefusals,
  needs: readNeeds,
  item: registryShape,
});

/**
 * The container virtual registries of a top-level group (at most 5).
 *
 * ```ts
 * const names = (await getVirtualRegistries({ group: "acme" })).map((r) => r.name);
 * ```
 */
export const getVirtualRegistries = registries;
/** `getVirtualRegistries` as an Output. */
export const getVirtualRegistriesOutput = registries.output;

const registry = defineObjectFunction({
  name: "getVirtualRegistry",
  args: z.object({ /** The registry's id. */ id: objectId("a virtual registry") }),
  path: (args) => registryPath(args.id),
  subject: (args) => `container virtual registry ${args.id}`,
  refusals: containerRefusals,
  needs: () => readNeeds({}),
  result: registryDetailShape,
});

/**
 * One container virtual registry, with its upstreams' positions.
 *
 * ```ts
 * const { registryUpstreams } = await getVirtualRegistry({ id: 1 });
 * ```
 */
export const getVirtualRegistry = registry;
/** `getVirtualRegistry` as an Output. */
export const getVirtualRegistryOutput = registry.output;

const upstreams = defineListFunction({
  name: "getUpstreams",
  args: z.object({
    /** The registry whose upstreams to list, in position order; set this or `group`. */
    registry: objectId("a virtual registry").optional(),
    /** The top-level group whose upstreams to list, linked or not; set this or `registry`. */
    group: topLevelGroup.optional(),
    /** Only upstreams whose name contains this (case-insensitive; `group` only). */
    upstreamName: z.string().min(1).optional(),
  }),
  validate(args) {
    if ((args.registry === undefined) === (args.group === undefined)) {
      return [{ argument: "registry", reason: "registry: set exactly one of registry (a registry's id) and group (a top-level group)" }];
    }
    return args.upstreamName !== undefined && args.group === undefined
      ? [{ argument: "upstreamName", reason: "upstreamName: filters a group's upstreams only; a registry has at most 5" }]
      : [];
  },
  path: (args) =>
    args.registry !== undefined
      ? registryUpstreamsPath(args.registry)
      : groupUpstreamsPath(args.group!),
  query: (args) => ({ upstream_name: args.upstreamName }),
  subject: (args) => (args.registry !== undefined ? `the upstreams of container virtual registry ${args.registry}` : `the container upstreams of group ${args.group}`),
  refusals: containerRefusals,
  needs: readNeeds,
  item: upstreamShape,
});

/**
 * The upstreams of a registry (in position order, each with its `registryUpstream`) or of a group.
 *
 * ```ts
 * const dockerHub = await getUpstreams({ group: "acme", upstreamName: "docker" });
 * ```
 */
export const getUpstreams = upstreams;
/** `getUpstreams` as an Output. */
export const getUpstreamsOutput = upstreams.output;

const upstream = defineObjectFunction({
  name: "getUpstream",
  args: z.object({ /** The upstream's id. */ id: objectId("an upstream") }),
  path: (args) => upstreamPath(args.id),
  subject: (args) => `container upstream ${args.id}`,
  refusals: containerRefusals,
  needs: () => readNeeds({}),
  result: upstreamDetailShape,
});

/**
 * One upstream, with every registry that uses it.
 *
 * ```ts
 * const { url, cacheValidityHours, registryUpstreams } = await getUpstream({ id: 2 });
 * ```
 */
export const getUpstream = upstream;
/** `getUpstream` as an Output. */
export const getUpstreamOutput = upstream.output;

const cleanupPolicy = defineObjectFunction({
  name: "getCleanupPolicy",
  args: z.object(groupArg),
  path: (args) => cleanupPolicyPath(args.group),
  subject: (args) => `the virtual registry cleanup policy of group ${args.group}`,
  refusals: {
    404: (args) =>
      `This API answers the same unnamed 404 when the group has no policy yet (create one with CleanupPolicy), when ${tierNeeded("premium", `group ${args.group}`)} and is below it, and when the maven_virtual_registry feature flag is off (an administrator can enable it).`,
  },
  needs: groupNeeds("Owner"),
  result: cleanupPolicyShape,
});

/**
 * The virtual registry cache cleanup policy of a top-level group (Owners).
 *
 * ```ts
 * const { enabled, cadence, nextRunAt } = await getCleanupPolicy({ group: "acme" });
 * ```
 */
export const getCleanupPolicy = cleanupPolicy;
/** `getCleanupPolicy` as an Output. */
export const getCleanupPolicyOutput = cleanupPolicy.output;
