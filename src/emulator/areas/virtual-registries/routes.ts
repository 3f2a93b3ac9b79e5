/** The virtual registry routes: registries, upstreams and the links between them. */
import { notFound, recordNotFound, validationError } from "../../errors";
import { findGroup } from "../../lookup";
import { created, noContent, ok, paginate, route, type RequestContext, type RouteDefinition } from "../../router";
import {
  atLeastOneOf,
  authorize,
  checkRegistry,
  checkUpstream,
  containerGate,
  credentialsTogether,
  deleteUpstream,
  gatedGroup,
  gatedRegistry,
  gatedUpstream,
  link,
  linksOfRegistry,
  linksOfUpstream,
  markForPurge,
  MAX_REGISTRIES_PER_GROUP,
  MAX_UPSTREAMS_PER_REGISTRY,
  move,
  notBlank,
  Sequences,
  tooManyUpstreams,
  unlink,
  virtualRegistryStore,
  type RegistryUpstreamRecord,
  type UpstreamRecord,
  type VirtualRegistryRecord,
} from "./model";
import { presentLink, presentRegistry, presentUpstream } from "./present";

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


export const virtualRegistryRoutes: readonly RouteDefinition[] = [...registryRoutes, ...upstreamRoutes, ...associationRoutes];
