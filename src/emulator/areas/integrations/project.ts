/**
 * A project's integrations: `GET /projects/:id/integrations` and
 * `GET /projects/:id/integrations/:slug` (real servers answer them with the
 * same operations for projects as for groups). The emulator
 * configures integrations on groups only; real servers propagate an active
 * group integration to every project below it as the project's own record
 * that inherits the settings (`inherit_from_id`, `inherited: true`), which is
 * what these reads answer:
 * - 401 anonymous, 404 project, 403 below Maintainer (`admin_integrations`);
 * - the list: the active integrations the project inherits from the closest
 *   group of its chain that has one of that slug, not paginated;
 * - one slug: an unknown slug is 400 `slug does not have a valid value`, one
 *   the project has not got (never configured above it, or project-only
 *   like `jenkins`) 404 `404 Integration Not Found`.
 * A propagated record's id is given on first read and kept. Both reads are
 * served under `/projects/:id/services` too, the older path real servers keep
 * for API v4 (and the official Go client still calls for its list and its
 * per-integration reads).
 */
import { hasProjectAccess } from "../../access";
import { forbidden, notFound } from "../../errors";
import { findProject } from "../../lookup";
import { ok, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, defineStore, type Project } from "../../state";
import { present } from "./group";
import { INTEGRATION_SEQUENCE, integrationStore, KINDS, type IntegrationRecord } from "./model";

/** `"<project id>:<slug>"` → the id of the project's propagated record. */
const propagatedIds = defineStore("projectIntegrations", (): { ids: Record<string, number> } => ({ ids: {} }));

function administeredProject(ctx: RequestContext<unknown>): Project {
  requireUser(ctx);
  const project = findProject(ctx);
  if (!hasProjectAccess(ctx.state, ctx.user, project, AccessLevel.Maintainer)) throw forbidden();
  return project;
}

/** The project's record of `slug` as propagated from the closest group with it active; undefined when none has. */
function inherited(ctx: RequestContext<unknown>, project: Project, slug: string): IntegrationRecord | undefined {
  const { integrations } = integrationStore.of(ctx.state);
  const source = ctx.state
    .selfAndAncestors(ctx.state.namespaceOf(project))
    .map((group) => integrations.find((i) => i.groupId === group.id && i.slug === slug && i.active))
    .find((found) => found !== undefined);
  if (!source) return undefined;
  const { ids } = propagatedIds.of(ctx.state);
  const key = `${project.id}:${slug}`;
  ids[key] ??= ctx.state.nextId(INTEGRATION_SEQUENCE);
  return {
    ...source,
    id: ids[key],
    active: true,
    inheritFromId: source.inheritFromId ?? source.id,
  };
}

/** The reads under one base: `integrations`, or `services`, the older name real servers still serve beside it. */
function projectIntegrationReads(base: "integrations" | "services") {
  const list = route("GET", `/projects/:id/${base}`, { params: { id: { type: "string", required: true } } }, (ctx) => {
    const project = administeredProject(ctx);
    const records = Object.keys(KINDS)
      .map((slug) => inherited(ctx, project, slug))
      .filter((record): record is IntegrationRecord => record !== undefined)
      .sort((a, b) => a.id - b.id);
    return ok(records.map((record) => present(ctx, record, false)));
  });
  const one = route(
    "GET",
    `/projects/:id/${base}/:slug`,
    { params: { id: { type: "string", required: true }, slug: { type: "string", required: true, values: Object.keys(KINDS) } } },
    (ctx) => {
      const project = administeredProject(ctx);
      const record = inherited(ctx, project, ctx.params.slug);
      if (!record) throw notFound("Integration");
      return ok(present(ctx, record, true));
    },
  );
  return [list, one];
}

export const projectIntegrationRoutes: readonly RouteDefinition[] = [...projectIntegrationReads("integrations"), ...projectIntegrationReads("services")];
