/** How registries, upstreams and their links are answered. */
import { type EmulatorState } from "../../state";
import { linksOfRegistry, type RegistryUpstreamRecord, type UpstreamRecord, type VirtualRegistryRecord } from "./model";

// ---------------------------------------------------------------------------
// Presenters

export function presentRegistry(state: EmulatorState, registry: VirtualRegistryRecord, withUpstreams: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: registry.id,
    group_id: registry.groupId,
    name: registry.name,
    description: registry.description,
    created_at: registry.createdAt,
    updated_at: registry.updatedAt,
  };
  if (withUpstreams) {
    body["registry_upstreams"] = linksOfRegistry(state, registry.id).map((l) => ({ id: l.id, position: l.position, upstream_id: l.upstreamId }));
  }
  return body;
}

export function presentUpstream(upstream: UpstreamRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: upstream.id,
    group_id: upstream.groupId,
    url: upstream.url,
    name: upstream.name,
    description: upstream.description,
    cache_validity_hours: upstream.cacheValidityHours,
    username: upstream.username,
    created_at: upstream.createdAt,
    updated_at: upstream.updatedAt,
    ...extra,
  };
}

export const presentLink = (l: RegistryUpstreamRecord) => ({ id: l.id, registry_id: l.registryId, upstream_id: l.upstreamId, position: l.position });
