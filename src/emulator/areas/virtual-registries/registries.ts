/**
 * Container virtual registries, their upstreams, the registry↔upstream
 * associations and cache purges. The cleanup policy lives in
 * ./virtual-registry-cleanup.ts and shares this area's store.
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
 * - The `virtualRegistries` seed section (below) gives top-level groups their
 *   registries and upstreams from the start.
 */
import { hasGroupAccess } from "../../access";
import { badRequest, forbidden, notFound, paramError, recordNotFound, unauthorized, validationError } from "../../errors";
import { findGroup } from "../../lookup";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
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
function containerGate(ctx: RequestContext<unknown>, group: Group): void {
  if (!ctx.state.featureEnabled("container_virtual_registries", ctx.state.topLevelGroup(group))) throw unauthorized();
  if (!isPremiumOrAbove(ctx.state, group)) throw notFound();
  requireUser(ctx);
}

type Permission = "read" | "write";

function authorize(ctx: RequestContext<unknown>, group: Group, permission: Permission): void {
  const level = permission === "read" ? AccessLevel.Guest : AccessLevel.Maintainer;
  if (!hasGroupAccess(ctx.state, ctx.user, group, level)) throw forbidden();
}

/** A group addressed by `:id` in the path: visible (404), gated, top-level, and allowed. */
function gatedGroup(ctx: RequestContext<unknown>, permission: Permission): Group {
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

function gatedRegistry(ctx: RequestContext<unknown>, id: number, permission: Permission): VirtualRegistryRecord {
  const registry = virtualRegistryStore.of(ctx.state).registries.find((r) => r.id === id);
  if (!registry) throw recordNotFound();
  const group = groupOf(ctx.state, registry.groupId);
  containerGate(ctx, group);
  authorize(ctx, group, permission);
  return registry;
}

function gatedUpstream(ctx: RequestContext<unknown>, id: number, permission: Permission): UpstreamRecord {
  const upstream = virtualRegistryStore.of(ctx.state).upstreams.find((u) => u.id === id);
  if (!upstream) throw recordNotFound();
  const group = groupOf(ctx.state, upstream.groupId);
  containerGate(ctx, group);
  authorize(ctx, group, permission);
  return upstream;
}

// ---------------------------------------------------------------------------
// Positions

const linksOfRegistry = (state: EmulatorState, registryId: number): RegistryUpstreamRecord[] =>
  virtualRegistryStore
    .of(state)
    .registryUpstreams.filter((link) => link.registryId === registryId)
    .sort((a, b) => a.position - b.position);

const linksOfUpstream = (state: EmulatorState, upstreamId: number): RegistryUpstreamRecord[] =>
  virtualRegistryStore
    .of(state)
    .registryUpstreams.filter((link) => link.upstreamId === upstreamId)
    .sort((a, b) => a.id - b.id);

const tooManyUpstreams = () =>
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
function move(state: EmulatorState, moved: RegistryUpstreamRecord, wanted: number): void {
  const siblings = linksOfRegistry(state, moved.registryId);
  const target = Math.min(wanted, siblings.length);
  const order = siblings.filter((link) => link !== moved);
  order.splice(target - 1, 0, moved);
  order.forEach((link, index) => (link.position = index + 1));
}

/** `sync_higher_positions` + destroy: the positions after it close the gap. */
function unlink(state: EmulatorState, removed: RegistryUpstreamRecord): void {
  const store = virtualRegistryStore.of(state);
  store.registryUpstreams.splice(store.registryUpstreams.indexOf(removed), 1);
  for (const link of store.registryUpstreams) {
    if (link.registryId === removed.registryId && link.position > removed.position) link.position -= 1;
  }
}

function deleteUpstream(state: EmulatorState, upstream: UpstreamRecord): void {
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
function credentialsTogether(params: { username?: string | undefined; password?: string | undefined }): void {
  if ((params.username === undefined) !== (params.password === undefined)) {
    throw paramError("username, password provide all or none of parameters");
  }
}

/** Grape's `allow_blank: false`. */
function notBlank(params: Record<string, unknown>, names: readonly string[]): void {
  const blank = names.filter((name) => typeof params[name] === "string" && (params[name] as string).trim() === "");
  if (blank.length) throw paramError(blank.map((name) => `${name} is empty`).join(", "));
}

function atLeastOneOf(params: Record<string, unknown>, names: readonly string[]): void {
  if (names.every((name) => params[name] === undefined)) {
    throw paramError(`${names.join(", ")} are missing, at least one parameter must be provided`);
  }
}


// ---------------------------------------------------------------------------
// Presenters

function presentRegistry(state: EmulatorState, registry: VirtualRegistryRecord, withUpstreams: boolean): Record<string, unknown> {
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

function presentUpstream(upstream: UpstreamRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
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

const presentLink = (l: RegistryUpstreamRecord) => ({ id: l.id, registry_id: l.registryId, upstream_id: l.upstreamId, position: l.position });

// ---------------------------------------------------------------------------
// Routes

const groupParam = { id: { type: "string", required: true } } as const;
const idParam = { id: { type: "integer", required: true } } as const;
const REGISTRIES = "/virtual_registries/container/registries";
const UPSTREAMS = "/virtual_registries/container/upstreams";
const LINKS = "/virtual_registries/container/registry_upstreams";

const registryRoutes = [
  route("GET", "/groups/:id/-/virtual_registries/container/registries", { params: groupParam }, (ctx) => {
    const group = gatedGroup(ctx, "read");
    const registries = virtualRegistryStore.of(ctx.state).registries.filter((r) => r.groupId === group.id);
    return ok(registries.map((r) => presentRegistry(ctx.state, r, false)));
  }),

  route(
    "POST",
    "/groups/:id/-/virtual_registries/container/registries",
    { params: { ...groupParam, name: { type: "string", required: true }, description: { type: "string" } } },
    (ctx) => {
      notBlank(ctx.params, ["name"]);
      const group = findGroup(ctx);
      containerGate(ctx, group);
      authorize(ctx, group, "write");
      if (group.parentId !== null) throw validationError({ group: ["must be a top level Group"] });
      const store = virtualRegistryStore.of(ctx.state);
      if (store.registries.filter((r) => r.groupId === group.id).length >= MAX_REGISTRIES_PER_GROUP) {
        throw validationError({ base: [`${MAX_REGISTRIES_PER_GROUP} registries is the maximum allowed per top-level group.`] });
      }
      const now = ctx.state.now();
      const registry: VirtualRegistryRecord = {
        id: 0,
        groupId: group.id,
        name: ctx.params.name,
        description: ctx.params.description ?? null,
        createdAt: now,
        updatedAt: now,
      };
      checkRegistry(ctx.state, registry);
      registry.id = ctx.state.nextId(Sequences.registries);
      store.registries.push(registry);
      return created(presentRegistry(ctx.state, registry, false));
    },
  ),

  route("GET", `${REGISTRIES}/:id`, { params: idParam }, (ctx) =>
    ok(presentRegistry(ctx.state, gatedRegistry(ctx, ctx.params.id, "read"), true)),
  ),

  route(
    "PATCH",
    `${REGISTRIES}/:id`,
    { params: { ...idParam, name: { type: "string" }, description: { type: "string" } } },
    (ctx) => {
      notBlank(ctx.params, ["name", "description"]);
      atLeastOneOf(ctx.params, ["name", "description"]);
      const registry = gatedRegistry(ctx, ctx.params.id, "write");
      const updated = { ...registry, name: ctx.params.name ?? registry.name, description: ctx.params.description ?? registry.description };
      checkRegistry(ctx.state, updated);
      Object.assign(registry, updated, { updatedAt: ctx.state.now() });
      return ok(200);
    },
  ),

  route("DELETE", `${REGISTRIES}/:id`, { params: idParam }, (ctx) => {
    const registry = gatedRegistry(ctx, ctx.params.id, "write");
    const store = virtualRegistryStore.of(ctx.state);
    // before_destroy: the upstreams no other registry uses go too, with their cache.
    for (const link of linksOfRegistry(ctx.state, registry.id)) {
      const upstream = store.upstreams.find((u) => u.id === link.upstreamId);
      const shared = linksOfUpstream(ctx.state, link.upstreamId).some((other) => other.registryId !== registry.id);
      if (upstream && !shared) deleteUpstream(ctx.state, upstream);
      else unlink(ctx.state, link);
    }
    store.registries.splice(store.registries.indexOf(registry), 1);
    return noContent();
  }),

  route("DELETE", `${REGISTRIES}/:id/cache`, { params: idParam }, (ctx) => {
    const registry = gatedRegistry(ctx, ctx.params.id, "write");
    // Only the upstreams this registry has to itself: a shared upstream's cache serves others too.
    const exclusive = linksOfRegistry(ctx.state, registry.id)
      .map((link) => link.upstreamId)
      .filter((upstreamId) => linksOfUpstream(ctx.state, upstreamId).every((link) => link.registryId === registry.id));
    markForPurge(ctx.state, new Set(exclusive));
    return noContent();
  }),
];

const upstreamWriteParams = {
  url: { type: "string" },
  name: { type: "string" },
  description: { type: "string" },
  username: { type: "string" },
  password: { type: "string" },
  cache_validity_hours: { type: "integer" },
} as const;

const upstreamRoutes = [
  route(
    "GET",
    "/groups/:id/-/virtual_registries/container/upstreams",
    { params: { ...groupParam, upstream_name: { type: "string" } }, paginated: true },
    (ctx) => {
      const group = gatedGroup(ctx, "read");
      const wanted = ctx.params.upstream_name?.toLowerCase();
      const upstreams = virtualRegistryStore
        .of(ctx.state)
        .upstreams.filter((u) => u.groupId === group.id && (wanted === undefined || u.name.toLowerCase().includes(wanted)))
        .sort((a, b) => a.id - b.id);
      return paginate(ctx, upstreams, { present: (u) => presentUpstream(u) });
    },
  ),

  route("GET", `${REGISTRIES}/:id/upstreams`, { params: idParam }, (ctx) => {
    const registry = gatedRegistry(ctx, ctx.params.id, "read");
    const { upstreams } = virtualRegistryStore.of(ctx.state);
    return ok(
      linksOfRegistry(ctx.state, registry.id).flatMap((link) => {
        const upstream = upstreams.find((u) => u.id === link.upstreamId);
        return upstream ? [presentUpstream(upstream, { registry_upstream: { id: link.id, registry_id: link.registryId, position: link.position } })] : [];
      }),
    );
  }),

  route(
    "POST",
    `${REGISTRIES}/:id/upstreams`,
    { params: { ...idParam, ...upstreamWriteParams, url: { type: "string", required: true }, name: { type: "string", required: true } } },
    (ctx) => {
      notBlank(ctx.params, ["url", "name"]);
      credentialsTogether(ctx.params);
      const registry = gatedRegistry(ctx, ctx.params.id, "write");
      if (linksOfRegistry(ctx.state, registry.id).length >= MAX_UPSTREAMS_PER_REGISTRY) throw tooManyUpstreams();
      const now = ctx.state.now();
      const upstream: UpstreamRecord = {
        id: 0,
        groupId: registry.groupId,
        url: ctx.params.url,
        name: ctx.params.name,
        description: ctx.params.description ?? null,
        cacheValidityHours: ctx.params.cache_validity_hours ?? 24,
        username: ctx.params.username ?? null,
        password: ctx.params.password ?? null,
        createdAt: now,
        updatedAt: now,
      };
      checkUpstream(ctx.state, upstream);
      upstream.id = ctx.state.nextId(Sequences.upstreams);
      virtualRegistryStore.of(ctx.state).upstreams.push(upstream);
      const association = link(ctx.state, registry.id, upstream.id);
      return created(presentUpstream(upstream, { registry_upstream: { id: association.id, registry_id: registry.id, position: association.position } }));
    },
  ),

  route("GET", `${UPSTREAMS}/:id`, { params: idParam }, (ctx) => {
    const upstream = gatedUpstream(ctx, ctx.params.id, "read");
    const links = linksOfUpstream(ctx.state, upstream.id).map((l) => ({ id: l.id, registry_id: l.registryId, position: l.position }));
    return ok(presentUpstream(upstream, { registry_upstreams: links }));
  }),

  route("PATCH", `${UPSTREAMS}/:id`, { params: { ...idParam, ...upstreamWriteParams } }, (ctx) => {
    notBlank(ctx.params, ["url", "name", "username", "password"]);
    atLeastOneOf(ctx.params, ["name", "description", "url", "username", "password", "cache_validity_hours"]);
    credentialsTogether(ctx.params);
    const upstream = gatedUpstream(ctx, ctx.params.id, "write");
    const { url, name, description, username, password, cache_validity_hours } = ctx.params;
    const updated: UpstreamRecord = {
      ...upstream,
      url: url ?? upstream.url,
      name: name ?? upstream.name,
      description: description ?? upstream.description,
      cacheValidityHours: cache_validity_hours ?? upstream.cacheValidityHours,
      username: username ?? upstream.username,
      password: password ?? upstream.password,
    };
    // reset_credentials: a new URL drops the credentials unless both of them change too.
    const usernameChanged = username !== undefined && username !== upstream.username;
    const passwordChanged = password !== undefined && password !== upstream.password;
    if (updated.url !== upstream.url && !(usernameChanged && passwordChanged)) {
      updated.username = null;
      updated.password = null;
    }
    checkUpstream(ctx.state, updated);
    Object.assign(upstream, updated, { updatedAt: ctx.state.now() });
    return ok(200);
  }),

  route("DELETE", `${UPSTREAMS}/:id`, { params: idParam }, (ctx) => {
    deleteUpstream(ctx.state, gatedUpstream(ctx, ctx.params.id, "write"));
    return noContent();
  }),

  route("DELETE", `${UPSTREAMS}/:id/cache`, { params: idParam }, (ctx) => {
    markForPurge(ctx.state, new Set([gatedUpstream(ctx, ctx.params.id, "write").id]));
    return noContent();
  }),
];

function gatedLink(ctx: RequestContext<unknown>, id: number): RegistryUpstreamRecord {
  const found = virtualRegistryStore.of(ctx.state).registryUpstreams.find((l) => l.id === id);
  if (!found) throw recordNotFound();
  gatedRegistry(ctx, found.registryId, "write");
  return found;
}

const associationRoutes = [
  route(
    "POST",
    LINKS,
    { params: { registry_id: { type: "integer", required: true }, upstream_id: { type: "integer", required: true } } },
    (ctx) => {
      const registry = gatedRegistry(ctx, ctx.params.registry_id, "write");
      const upstream = virtualRegistryStore.of(ctx.state).upstreams.find((u) => u.id === ctx.params.upstream_id && u.groupId === registry.groupId);
      if (!upstream) throw notFound("Upstream");
      if (linksOfUpstream(ctx.state, upstream.id).some((l) => l.registryId === registry.id)) {
        throw validationError({ upstream_id: ["has already been taken"] });
      }
      return created(presentLink(link(ctx.state, registry.id, upstream.id)));
    },
  ),

  route("PATCH", `${LINKS}/:id`, { params: { ...idParam, position: { type: "integer", required: true, values: range(1, 20) } } }, (ctx) => {
    move(ctx.state, gatedLink(ctx, ctx.params.id), ctx.params.position);
    return ok(200);
  }),

  route("DELETE", `${LINKS}/:id`, { params: idParam }, (ctx) => {
    unlink(ctx.state, gatedLink(ctx, ctx.params.id));
    return noContent();
  }),
];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

// ---------------------------------------------------------------------------
// Cache

function markForPurge(state: EmulatorState, upstreamIds: ReadonlySet<number>): void {
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

export const virtualRegistryRoutes: readonly RouteDefinition[] = [...registryRoutes, ...upstreamRoutes, ...associationRoutes];

/** Accepted purges: the cache entries marked for destruction go. */
export function purgeCacheEntries(state: EmulatorState): void {
  const store = virtualRegistryStore.of(state);
  store.cacheEntries = store.cacheEntries.filter((entry) => !entry.pendingDestruction);
}
