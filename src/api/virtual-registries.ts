/**
 * Container virtual registries of a top-level group, their upstreams, the
 * associations between the two (`registry_upstreams`), and the group's
 * virtual-registry cache cleanup policy. Lists of registries (at most 5 a
 * group) and of a registry's upstreams (at most 5) are not paginated; a
 * group's upstreams are.
 */
import { z } from "zod";
import { apiPath, flagOff, tierNeeded, tokenRefused } from "../client";
import { requestsOf } from "./core";
import { ownerReference } from "./owner";
import { idForm } from "./id-form";

/** A top-level group: its numeric id or its path (a path with `/` is a subgroup, which these APIs refuse). */
export const topLevelGroup = ownerReference.refine((value) => typeof value === "number" || !value.includes("/"), {
  message: "must be a top-level group (virtual registries and their cleanup policy exist only on top-level groups)",
});

/** An upstream's place in a registry (an association), as a registry's get-one lists it. */
const registryUpstreamLink = z.looseObject({ id: z.number(), position: z.number(), upstream_id: z.number() });

/** An association as an upstream's get-one lists it, and as creating one answers. */
export const upstreamLink = z.looseObject({ id: z.number(), registry_id: z.number(), position: z.number() });
export type UpstreamLink = z.output<typeof upstreamLink>;
export const upstreamLinkRequests = requestsOf(upstreamLink);

export const virtualRegistry = z.looseObject({
  id: z.number(),
  group_id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Only from get-one (see `virtualRegistryDetail`). */
  registry_upstreams: z.array(registryUpstreamLink).optional(),
});
export type VirtualRegistry = z.output<typeof virtualRegistry>;
export const virtualRegistryRequests = requestsOf(virtualRegistry);

export const virtualRegistryDetail = virtualRegistry.extend({
  /** The registry's upstreams in the order they are tried. */
  registry_upstreams: z.array(registryUpstreamLink),
});

export const upstream = z.looseObject({
  id: z.number(),
  group_id: z.number(),
  url: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Default 24. */
  cache_validity_hours: z.number(),
  /** The password is never returned. */
  username: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Listed through a registry: this upstream's place in it. */
  registry_upstream: upstreamLink.optional(),
  /** Only from get-one (see `upstreamDetail`). */
  registry_upstreams: z.array(upstreamLink).optional(),
});
export type Upstream = z.output<typeof upstream>;
export const upstreamRequests = requestsOf(upstream);

export const upstreamDetail = upstream.extend({
  /** Every registry that uses it, with its position there. */
  registry_upstreams: z.array(upstreamLink),
});

export const cleanupPolicy = z.looseObject({
  group_id: z.number(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  /** Bytes. */
  last_run_deleted_size: z.number(),
  last_run_deleted_entries_count: z.number(),
  /** 1 to 365. */
  keep_n_days_after_download: z.number(),
  /** `scheduled` seen; others not listed by the API documentation. */
  status: z.string(),
  /** Days: 1, 7, 14, 30 or 90. */
  cadence: z.number(),
  enabled: z.boolean(),
  /** Some server versions leave these two out. */
  notify_on_success: z.boolean().optional(),
  notify_on_failure: z.boolean().optional(),
  failure_message: z.string().nullable(),
  /** Per registry kind (`maven`, `container`): deleted entries count and size; `{}` before the first run. */
  last_run_detailed_metrics: z.record(z.string(), z.looseObject({ deleted_entries_count: z.number(), deleted_size: z.number() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CleanupPolicy = z.output<typeof cleanupPolicy>;
export const cleanupPolicyRequests = requestsOf(cleanupPolicy);

/** The registries of the group at `groupPath` (`/groups/1` → `/groups/1/-/virtual_registries/container/registries`). */
export const groupRegistriesOf = (groupPath: string): string => `${groupPath}/-/virtual_registries/container/registries`;
/** `/groups/acme/-/virtual_registries/container/registries`: listed, and where a registry is created. */
export const groupRegistriesPath = (group: string | number): string => groupRegistriesOf(apiPath`/groups/${group}`);
/** `/groups/acme/-/virtual_registries/container/upstreams`: every upstream of the group, paginated. */
export const groupUpstreamsPath = (group: string | number): string => apiPath`/groups/${group}/-/virtual_registries/container/upstreams`;
export const registryPath = (id: string | number): string => apiPath`/virtual_registries/container/registries/${id}`;
/** A registry's upstreams: created there, and listed (not paginated: at most 5). */
export const registryUpstreamsPath = (id: string | number): string => `${registryPath(id)}/upstreams`;
export const upstreamPath = (id: string | number): string => apiPath`/virtual_registries/container/upstreams/${id}`;
/** Where associations are created. */
export const UPSTREAM_LINKS_PATH = "/virtual_registries/container/registry_upstreams";
export const upstreamLinkPath = (id: number): string => `${UPSTREAM_LINKS_PATH}/${id}`;
/** `/groups/acme/-/virtual_registries/cleanup/policy`: one per group. */
export const cleanupPolicyPath = (group: string | number): string => apiPath`/groups/${group}/-/virtual_registries/cleanup/policy`;

/** Registries and upstreams are named by their numeric id alone. */
export const isNumericId = (id: string): boolean => /^\d+$/.test(id);

/** A registry's id as resources record it: its number. */
export const registryIdForm = idForm("a registry's numeric id", (id) => (isNumericId(id) ? id : undefined));

/** An upstream's id as resources record it: its number. */
export const upstreamIdForm = idForm("an upstream's numeric id", (id) => (isNumericId(id) ? id : undefined));

/** An object's numeric id argument; `what` names the object in the message (`a virtual registry`). */
export const objectId = (what: string) => z.number().int({ message: `must be ${what}'s numeric id` }).positive({ message: `must be ${what}'s numeric id` });

const FLAG = "container_virtual_registries";
/** What the container virtual registries API's unnamed refusals mean. */
export const containerRefusals = {
  401: () => `either ${flagOff(FLAG, "for the group")}, or ${tokenRefused()} (this API answers 401 to each).`,
  404: () => `This API answers the same unnamed 404 when ${tierNeeded("premium", "its group")} and is below it.`,
};
