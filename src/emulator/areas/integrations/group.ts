/** A group's integrations: the list, one, the PUT of each kind, the DELETE. */
import { hasGroupAccess } from "../../access";
import { ApiError, forbidden, notFound } from "../../errors";
import { findGroup } from "../../lookup";
import { declareParams, type ParamRule, type ParamSpec } from "../../params";
import { noContent, ok, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type Group } from "../../state";
import { bool, EVENT_DEFAULTS, INTEGRATION_SEQUENCE, integrationStore, isSecretOf, KINDS, type IntegrationKind, type IntegrationRecord } from "./model";

// ---------------------------------------------------------------------------
// Helpers


/** `authenticate!`, `find_group!`, then the Maintainer prerequisite; then the group-level availability rule. */
function administeredGroup(ctx: RequestContext<unknown>, slug: string): Group {
  requireUser(ctx);
  const group = findGroup(ctx);
  if (!hasGroupAccess(ctx.state, ctx.user, group, AccessLevel.Maintainer)) throw forbidden();
  if (KINDS[slug]?.projectOnly) throw new ApiError(400, { message: "400 Integration not available" });
  return group;
}

function recordFor(ctx: RequestContext<unknown>, group: Group, slug: string): IntegrationRecord | undefined {
  return integrationStore.of(ctx.state).integrations.find((i) => i.groupId === group.id && i.slug === slug);
}

/** `Entities::IntegrationBasic`, or `Entities::Integration` (with `properties`, secrets left out) when `withProperties`. */
export function present(ctx: RequestContext<unknown>, record: IntegrationRecord, withProperties: boolean): Record<string, unknown> {
  const kind = KINDS[record.slug]!;
  // An inheriting integration shows its ancestor's settings.
  const source = record.inheritFromId === null ? record : (integrationStore.of(ctx.state).integrations.find((i) => i.id === record.inheritFromId) ?? record);
  const entity: Record<string, unknown> = {
    id: record.id,
    title: kind.title,
    slug: record.slug,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    active: record.active,
    ...Object.fromEntries(Object.keys(EVENT_DEFAULTS).map((name) => [name, source.events[name] ?? EVENT_DEFAULTS[name]])),
    comment_on_event_enabled: source.commentOnEventEnabled,
    inherited: record.inheritFromId !== null,
  };
  if (withProperties) {
    entity.properties = Object.fromEntries(
      Object.keys(kind.params)
        .filter((name) => !isSecretOf(kind, name) && name in source.properties)
        .map((name) => [name, source.properties[name]]),
    );
  }
  return entity;
}

function isHttpUrl(value: unknown): boolean {
  try {
    const url = new URL(String(value));
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** `render_api_error!(result.message, 400)` with UpdateService's wording. */
const updateFailed = (errors: Record<string, string[]>): ApiError =>
  new ApiError(400, {
    message: `Failed to update integration. {${Object.entries(errors)
      .map(([name, messages]) => `${name}: ${JSON.stringify(messages)}`)
      .join(", ")}}`,
  });


// ---------------------------------------------------------------------------
// Routes

const slugParam = { id: { type: "string", required: true }, slug: { type: "string", required: true, values: Object.keys(KINDS) } } as const;

const listIntegrations = route("GET", "/groups/:id/integrations", { params: { id: { type: "string", required: true } } }, (ctx) => {
  requireUser(ctx);
  const group = findGroup(ctx);
  if (!hasGroupAccess(ctx.state, ctx.user, group, AccessLevel.Maintainer)) throw forbidden();
  const active = integrationStore
    .of(ctx.state)
    .integrations.filter((i) => i.groupId === group.id && i.active)
    .sort((a, b) => a.id - b.id);
  return ok(active.map((record) => present(ctx, record, false)));
});

const getIntegration = route("GET", "/groups/:id/integrations/:slug", { params: slugParam }, (ctx) => {
  const group = administeredGroup(ctx, ctx.params.slug);
  const record = recordFor(ctx, group, ctx.params.slug);
  if (!record) throw notFound("Integration");
  return ok(present(ctx, record, true));
});

const deleteIntegration = route("DELETE", "/groups/:id/integrations/:slug", { params: slugParam }, (ctx) => {
  const group = administeredGroup(ctx, ctx.params.slug);
  const record = recordFor(ctx, group, ctx.params.slug);
  if (!record) throw notFound("Integration");
  Object.assign(record, { active: false, inheritFromId: null, properties: {}, events: {}, commentOnEventEnabled: false, updatedAt: ctx.state.now() });
  return noContent();
});

function putRoute(slug: string, kind: IntegrationKind): RouteDefinition {
  const spec: ParamSpec = {
    id: { type: "string", required: true },
    ...Object.fromEntries(kind.events.map((name) => [name, { type: "boolean", required: kind.requiredEvents === true } as ParamRule])),
    ...kind.params,
    use_inherited_settings: bool,
    // Only a kind that declares it takes it; Grape drops it from any other PUT (declared_params).
    ...(kind.commentOnEvent ? { comment_on_event_enabled: bool } : {}),
  };
  return route("PUT", `/groups/:id/integrations/${slug}`, {}, (ctx) => {
    const group = administeredGroup(ctx, slug);
    const params = declareParams(spec, ctx.rawParams) as Record<string, unknown>;
    const settings = Object.fromEntries(Object.entries(params).filter(([name, value]) => value !== undefined && name in kind.params));

    const { integrations } = integrationStore.of(ctx.state);
    let record = recordFor(ctx, group, slug);
    let inheritFromId: number | null = null;
    if (params.use_inherited_settings === true) {
      const ancestors = ctx.state.selfAndAncestors(group).slice(1);
      const closest = ancestors
        .map((ancestor) => integrations.find((i) => i.groupId === ancestor.id && i.slug === slug && i.inheritFromId === null))
        .find((found) => found !== undefined);
      if (!closest) throw new ApiError(400, { message: "Default integration not found." });
      inheritFromId = closest.id;
    }

    // Model validation (only for the integration's own settings).
    const merged: Record<string, unknown> = { ...(record?.properties ?? {}) };
    const exposedChange = (kind.exposesSecrets ?? []).some((name) => name in settings && settings[name] !== merged[name]);
    if (exposedChange) for (const name of Object.keys(merged)) if (isSecretOf(kind, name) && !(name in settings)) delete merged[name];
    Object.assign(merged, settings);
    if (inheritFromId === null) {
      const errors: Record<string, string[]> = {};
      for (const name of kind.urls ?? []) {
        if (merged[name] !== undefined && merged[name] !== "" && !isHttpUrl(merged[name])) errors[name] = ["must be a valid URL"];
      }
      for (const [name, rule] of Object.entries(kind.params)) {
        const blank = merged[name] === undefined || (merged[name] === "" && !kind.blankAllowed?.includes(name));
        if (rule.required && blank) errors[name] = ["can't be blank"];
      }
      Object.assign(errors, kind.validate?.(merged) ?? {});
      if (Object.keys(errors).length) throw updateFailed(errors);
    }

    const now = ctx.state.now();
    if (!record) {
      record = {
        id: ctx.state.nextId(INTEGRATION_SEQUENCE),
        groupId: group.id,
        slug,
        active: true,
        inheritFromId: null,
        properties: {},
        events: {},
        commentOnEventEnabled: false,
        createdAt: now,
        updatedAt: now,
      };
      integrations.push(record);
    }
    const events = { ...record.events };
    for (const name of kind.events) if (typeof params[name] === "boolean") events[name] = params[name] as boolean;
    Object.assign(record, {
      active: true,
      inheritFromId,
      properties: merged,
      events,
      commentOnEventEnabled: typeof params.comment_on_event_enabled === "boolean" ? params.comment_on_event_enabled : record.commentOnEventEnabled,
      updatedAt: now,
    });
    return ok(present(ctx, record, true));
  });
}

export const integrationRoutes: readonly RouteDefinition[] = [listIntegrations, getIntegration, deleteIntegration, ...Object.entries(KINDS).map(([slug, kind]) => putRoute(slug, kind))];
