/**
 * Container virtual registries, their upstreams, the registry↔upstream
 * associations and cache purges: the records, the gate, positions and
 * checks (this file), answers (present.ts), routes (routes.ts). The cleanup
 * policy lives in cleanup.ts and shares this area's store.
 *
 * Behaviour taken from the real server's source:
 * - Gate, in this order: the `container_virtual_registries` feature flag off
 *   for the group → 401; a tier below Premium → 404; anonymous → 401. Reads
 *   need a membership (Guest+), writes Maintainer+ (403 otherwise).
 * - Addressed by id (registries, upstreams, associations), a missing object
 *   is `404 Not found` (ActiveRecord), found before the gate runs.
 * - At most 5 registries per top-level group, 5 upstreams per registry, each
 *   with its exact 400 message; positions 1..20, capped at the registry's
 *   last position; removing an association closes the gap.
 * - PATCH answers 200 with the bare status as body (`status :ok`), not the object.
 * - Changing an upstream's URL clears its credentials unless the same request
 *   changes both username and password (`reset_credentials`).
 * - Deleting a registry deletes the upstreams no other registry uses, and
 *   their cache. Cache purges are accepted (204) and done later
 *   (`emulator.runDueWork()`).
 * - The `virtualRegistries` seed section (seed.ts) gives top-level groups their
 *   registries and upstreams from the start.
 */
import { hasGroupAccess } from "../../access";
import { badRequest, forbidden, notFound, paramError, recordNotFound, unauthorized, validationError } from "../../errors";
import { findGroup } from "../../lookup";
import { requireUser, type RequestContext } from "../../router";
import { AccessLevel, defineStore, type EmulatorState, type Group } from "../../state";

export const MAX_REGISTRIES_PER_GROUP = 5;
export const MAX_UPSTREAMS_PER_REGISTRY = 5;

export interface VirtualRegistryRecord {
  id: number;
  groupId: number;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface UpstreamRecord {
  id: number;
  groupId: number;
  url: string;
  name: string;
  description: string | null;
  cacheValidityHours: number;
  username: string | null;
  /** Kept to compare credentials; never presented. */
  password: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RegistryUpstreamRecord {
  id: number;
  registryId: number;
  upstreamId: number;
  position: number;
}

/** A cached image layer or manifest of an upstream (the entry endpoints themselves are not modelled). */
export interface CacheEntryRecord {
  id: number;
  upstreamId: number;
  relativePath: string;
  size: number;
  createdAt: string;
  downloadedAt: string;
  /** A purge was accepted; the entry goes at the next `runDueWork()`. */
  pendingDestruction: boolean;
}

export interface VirtualRegistryStore {
  registries: VirtualRegistryRecord[];
  upstreams: UpstreamRecord[];
  registryUpstreams: RegistryUpstreamRecord[];
  cacheEntries: CacheEntryRecord[];
}

export const virtualRegistryStore = defineStore(
  "virtual-registries",
  (): VirtualRegistryStore => ({ registries: [], upstreams: [], registryUpstreams: [], cacheEntries: [] }),
);

export const Sequences = {
  registries: "container_virtual_registries",
  upstreams: "container_virtual_registry_upstreams",
  registryUpstreams: "container_virtual_registry_upstream_links",
  cacheEntries: "container_virtual_registry_cache_entries",
} as const;

// ---------------------------------------------------------------------------
// Gate and permissions

export const isPremiumOrAbove = (state: EmulatorState, group: Group): boolean => state.tierOf(group) !== "free";

/** `SharedSetup` for the container routes: feature flag (401), licence (404), then authentication (401). */
export function containerGate(ctx: RequestContext<unknown>, group: Group): void {
  if (!ctx.state.featureEnabled("container_virtual_registries", ctx.state.topLevelGroup(group))) throw unauthorized();
  if (!isPremiumOrAbove(ctx.state, group)) throw notFound();
  requireUser(ctx);
}

type Permission = "read" | "write";

export function authorize(ctx: RequestContext<unknown>, group: Group, permission: Permission): void {
  const level = permission === "read" ? AccessLevel.Guest : AccessLevel.Maintainer;
  if (!hasGroupAccess(ctx.state, ctx.user, group, level)) throw forbidden();
}

/** A group addressed by `:id` in the path: visible (404), gated, top-level, and allowed. */
export function gatedGroup(ctx: RequestContext<unknown>, permission: Permission): Group {
  const group = findGroup(ctx);
  containerGate(ctx, group);
  if (group.parentId !== null) throw badRequest("only available on top-level groups.");
  authorize(ctx, group, permission);
  return group;
}

function groupOf(state: EmulatorState, groupId: number): Group {
  const group = state.groupById(groupId);
  if (!group) throw recordNotFound();
  return group;
}

export function gatedRegistry(ctx: RequestContext<unknown>, id: number, permission: Permission): VirtualRegistryRecord {
  const registry = virtualRegistryStore.of(ctx.state).registries.find((r) => r.id === id);
  if (!registry) throw recordNotFound();
  const group = groupOf(ctx.state, registry.groupId);
  containerGate(ctx, group);
  authorize(ctx, group, permission);
  return registry;
}

export function gatedUpstream(ctx: RequestContext<unknown>, id: number, permission: Permission): UpstreamRecord {
  const upstream = virtualRegistryStore.of(ctx.state).upstreams.find((u) => u.id === id);
  if (!upstream) throw recordNotFound();
  const group = groupOf(ctx.state, upstream.groupId);
  containerGate(ctx, group);
  authorize(ctx, group, permission);
  return upstream;
}

// ---------------------------------------------------------------------------
// Positions

export const linksOfRegistry = (state: EmulatorState, registryId: number): RegistryUpstreamRecord[] =>
  virtualRegistryStore
    .of(state)
    .registryUpstreams.filter((link) => link.registryId === registryId)
    .sort((a, b) => a.position - b.position);

export const linksOfUpstream = (state: EmulatorState, upstreamId: number): RegistryUpstreamRecord[] =>
  virtualRegistryStore
    .of(state)
    .registryUpstreams.filter((link) => link.upstreamId === upstreamId)
    .sort((a, b) => a.id - b.id);

export const tooManyUpstreams = () =>
  validationError({ "registry_upstreams.position": [`must be less than or equal to ${MAX_UPSTREAMS_PER_REGISTRY}`] });

/** A new association goes last; a sixth is refused with the position error real servers give. */
export function link(state: EmulatorState, registryId: number, upstreamId: number): RegistryUpstreamRecord {
  const position = linksOfRegistry(state, registryId).length + 1;
  if (position > MAX_UPSTREAMS_PER_REGISTRY) throw tooManyUpstreams();
  const record: RegistryUpstreamRecord = { id: state.nextId(Sequences.registryUpstreams), registryId, upstreamId, position };
  virtualRegistryStore.of(state).registryUpstreams.push(record);
  return record;
}

/** `update_position`: capped at the last position; the others shift to make room. */
export function move(state: EmulatorState, moved: RegistryUpstreamRecord, wanted: number): void {
  const siblings = linksOfRegistry(state, moved.registryId);
  const target = Math.min(wanted, siblings.length);
  const order = siblings.filter((link) => link !== moved);
  order.splice(target - 1, 0, moved);
  order.forEach((link, index) => (link.position = index + 1));
}

/** `sync_higher_positions` + destroy: the positions after it close the gap. */
export function unlink(state: EmulatorState, removed: RegistryUpstreamRecord): void {
  const store = virtualRegistryStore.of(state);
  store.registryUpstreams.splice(store.registryUpstreams.indexOf(removed), 1);
  for (const link of store.registryUpstreams) {
    if (link.registryId === removed.registryId && link.position > removed.position) link.position -= 1;
  }
}

export function deleteUpstream(state: EmulatorState, upstream: UpstreamRecord): void {
  const store = virtualRegistryStore.of(state);
  for (const link of linksOfUpstream(state, upstream.id)) unlink(state, link);
  store.cacheEntries = store.cacheEntries.filter((entry) => entry.upstreamId !== upstream.id);
  store.upstreams.splice(store.upstreams.indexOf(upstream), 1);
}

// ---------------------------------------------------------------------------
// Validation (model errors, 400 {"message": {...}})

/** Gitlab::UrlBlocker's answers for the URLs an upstream may not use. */
export function upstreamUrlProblem(url: string): string | undefined {
  if (url.length > 255) return "is too long (maximum is 255 characters)";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "is blocked: URI is invalid";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "is blocked: Only allowed schemes are http, https";
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1" || host === "0.0.0.0") {
    return "is blocked: Requests to localhost are not allowed";
  }
  if (/^(10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host) || /^f[cd][0-9a-f]{2}:/.test(host)) {
    return "is blocked: Requests to the local network are not allowed";
  }
  return undefined;
}

export function checkRegistry(state: EmulatorState, registry: VirtualRegistryRecord): void {
  const errors: Record<string, string[]> = {};
  if (registry.name.length > 255) errors["name"] = ["is too long (maximum is 255 characters)"];
  const taken = virtualRegistryStore
    .of(state)
    .registries.some((other) => other.id !== registry.id && other.groupId === registry.groupId && other.name === registry.name);
  if (taken) (errors["name"] ??= []).push("has already been taken");
  if ((registry.description ?? "").length > 1024) errors["description"] = ["is too long (maximum is 1024 characters)"];
  if (Object.keys(errors).length) throw validationError(errors);
}

export function checkUpstream(state: EmulatorState, upstream: UpstreamRecord): void {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (upstream.name.length > 255) add("name", "is too long (maximum is 255 characters)");
  if ((upstream.description ?? "").length > 1024) add("description", "is too long (maximum is 1024 characters)");
  const urlProblem = upstreamUrlProblem(upstream.url);
  if (urlProblem) add("url", urlProblem);
  if (upstream.cacheValidityHours < 0) add("cache_validity_hours", "must be greater than or equal to 0");
  if ((upstream.username ?? "").length > 510) add("username", "is too long (maximum is 510 characters)");
  if ((upstream.password ?? "").length > 510) add("password", "is too long (maximum is 510 characters)");
  if ((upstream.username === null) !== (upstream.password === null)) {
    add(upstream.username === null ? "username" : "password", "can't be blank");
  }
  const duplicate = virtualRegistryStore
    .of(state)
    .upstreams.some(
      (other) =>
        other.id !== upstream.id &&
        other.groupId === upstream.groupId &&
        other.url === upstream.url &&
        other.username === upstream.username &&
        other.password === upstream.password,
    );
  if (duplicate) add("group", "already has an upstream with the same credentials");
  if (Object.keys(errors).length) throw validationError(errors);
}

/** Grape's `all_or_none_of :username, :password`. */
export function credentialsTogether(params: { username?: string | undefined; password?: string | undefined }): void {
  if ((params.username === undefined) !== (params.password === undefined)) {
    throw paramError("username, password provide all or none of parameters");
  }
}

/** Grape's `allow_blank: false`. */
export function notBlank(params: Record<string, unknown>, names: readonly string[]): void {
  const blank = names.filter((name) => typeof params[name] === "string" && (params[name] as string).trim() === "");
  if (blank.length) throw paramError(blank.map((name) => `${name} is empty`).join(", "));
}

export function atLeastOneOf(params: Record<string, unknown>, names: readonly string[]): void {
  if (names.every((name) => params[name] === undefined)) {
    throw paramError(`${names.join(", ")} are missing, at least one parameter must be provided`);
  }
}


// ---------------------------------------------------------------------------
// Cache

export function markForPurge(state: EmulatorState, upstreamIds: ReadonlySet<number>): void {
  for (const entry of virtualRegistryStore.of(state).cacheEntries) {
    if (upstreamIds.has(entry.upstreamId)) entry.pendingDestruction = true;
  }
}

/** Puts an entry in an upstream's cache, as a pull through the registry would (for tests and seeds of scenarios). */
export function addCacheEntry(
  state: EmulatorState,
  upstreamId: number,
  entry: { relativePath: string; size: number; downloadedAt?: string },
): CacheEntryRecord {
  const store = virtualRegistryStore.of(state);
  if (!store.upstreams.some((u) => u.id === upstreamId)) throw new Error(`no upstream ${upstreamId}`);
  const now = state.now();
  const record: CacheEntryRecord = {
    id: state.nextId(Sequences.cacheEntries),
    upstreamId,
    relativePath: entry.relativePath,
    size: entry.size,
    createdAt: now,
    downloadedAt: entry.downloadedAt ?? now,
    pendingDestruction: false,
  };
  store.cacheEntries.push(record);
  return record;
}


/** Accepted purges: the cache entries marked for destruction go. */
export function purgeCacheEntries(state: EmulatorState): void {
  const store = virtualRegistryStore.of(state);
  store.cacheEntries = store.cacheEntries.filter((entry) => !entry.pendingDestruction);
}
