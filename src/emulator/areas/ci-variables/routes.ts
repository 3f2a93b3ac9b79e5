/**
 * The routes of the three levels, one implementation: `/projects/:id/variables`
 * (Maintainer), `/groups/:id/variables` (Owner) and `/admin/ci/variables`
 * (administrators, not on the hosted offering).
 */
import { hasGroupAccess, hasProjectAccess } from "../../access";
import { forbidden, notFound, routeNotFound } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel } from "../../state";
import {
  CI_VARIABLE_SEQUENCE,
  ciVariableStore,
  findVariable,
  groupHasScopes,
  ownVariables,
  presentVariable,
  validateVariable,
  type VariableLevel,
  type VariableRecord,
} from "./model";

/** One level: where its routes are, whose variables a request names, and what it has. */
interface Level {
  level: VariableLevel;
  base: string;
  /** The owner's id after the request's role is checked (404 when invisible, then 403). */
  administered(ctx: RequestContext<unknown>): number;
  /** Whether the owner's variables have environment scopes (the `environment_scope` parameter is kept). */
  scoped(ctx: RequestContext<unknown>): boolean;
  /** Whether one variable is found by `filter[environment_scope]` too (`find_variable`), or by its key alone. */
  filtered: boolean;
  /**
   * Whether `PUT` falls back to the first variable of the key: a group's
   * without a filter, or with one that matches none (kept so for the
   * clients of the time before the filter).
   */
  updatesFirstOfKey: boolean;
  /** `not_found!(...)`'s word. */
  notFoundWord: string;
}

const levels: Level[] = [
  {
    level: "project",
    base: "/projects/:id/variables",
    administered(ctx) {
      const user = requireUser(ctx);
      const project = findProject(ctx);
      if (!hasProjectAccess(ctx.state, user, project, AccessLevel.Maintainer)) throw forbidden();
      return project.id;
    },
    scoped: () => true,
    filtered: true,
    updatesFirstOfKey: false,
    notFoundWord: "Variable",
  },
  {
    level: "group",
    base: "/groups/:id/variables",
    administered(ctx) {
      const user = requireUser(ctx);
      const group = findGroup(ctx);
      if (!hasGroupAccess(ctx.state, user, group, AccessLevel.Owner)) throw forbidden();
      return group.id;
    },
    // Environment scopes of group variables are a Premium feature: below it the parameter is dropped, while the filter still narrows.
    scoped: (ctx) => groupHasScopes(ctx.state, findGroup(ctx)),
    filtered: true,
    updatesFirstOfKey: true,
    notFoundWord: "GroupVariable",
  },
  {
    level: "instance",
    base: "/admin/ci/variables",
    administered(ctx) {
      if (ctx.state.instance.offering === "hosted") throw routeNotFound();
      const user = requireUser(ctx);
      if (!user.isAdmin) throw forbidden();
      return 0;
    },
    scoped: () => false,
    filtered: false,
    updatesFirstOfKey: false,
    notFoundWord: "InstanceVariable",
  },
];

const common = {
  value: { type: "string" },
  description: { type: "string", nullable: true },
  protected: { type: "boolean" },
  masked: { type: "boolean" },
  raw: { type: "boolean" },
  variable_type: { type: "string", values: ["env_var", "file"] },
} as const;
const scopeParams = { environment_scope: { type: "string" }, filter: { type: "hash" } } as const;
const idParam = { id: { type: "string", required: true } } as const;
const keyParam = { key: { type: "string", required: true } } as const;

/** The request's `filter`, if it sent one, and its `environment_scope` when not blank (`Ci::VariablesFinder`). */
function scopeFilter(ctx: RequestContext<unknown>, level: Level): { sent: boolean; scope: string | undefined } {
  const filter = ctx.rawParams["filter"];
  if (!level.filtered || filter === undefined) return { sent: false, scope: undefined };
  const scope = filter !== null && typeof filter === "object" ? (filter as Record<string, unknown>)["environment_scope"] : undefined;
  return { sent: true, scope: typeof scope === "string" && scope.trim() !== "" ? scope : undefined };
}

function found(ctx: RequestContext<unknown>, level: Level, ownerId: number, key: string): VariableRecord {
  const variable = findVariable(ownVariables(ctx.state, level.level, ownerId), key, scopeFilter(ctx, level).scope);
  if (!variable) throw notFound(level.notFoundWord);
  return variable;
}

/** The variable a `PUT` changes: `found`'s, or on a level that falls back, the first of the key. */
function foundForUpdate(ctx: RequestContext<unknown>, level: Level, ownerId: number, key: string): VariableRecord {
  if (!level.updatesFirstOfKey) return found(ctx, level, ownerId, key);
  const own = ownVariables(ctx.state, level.level, ownerId).sort((a, b) => a.id - b.id);
  const filter = scopeFilter(ctx, level);
  const variable = (filter.sent ? findVariable(own, key, filter.scope) : undefined) ?? own.find((candidate) => candidate.key === key);
  if (!variable) throw notFound(level.notFoundWord);
  return variable;
}

function levelRoutes(level: Level): RouteDefinition[] {
  const pathParams = level.level === "instance" ? {} : idParam;
  const one = `${level.base}/:key`;
  return [
    route("GET", level.base, { params: pathParams, paginated: true }, (ctx) => {
      const ownerId = level.administered(ctx);
      const variables = ownVariables(ctx.state, level.level, ownerId).sort((a, b) => a.id - b.id);
      return paginate(ctx, variables, { present: presentVariable });
    }),

    route("GET", one, { params: { ...pathParams, ...keyParam } }, (ctx) => {
      const ownerId = level.administered(ctx);
      return ok(presentVariable(found(ctx, level, ownerId, ctx.params.key)));
    }),

    route(
      "POST",
      level.base,
      { params: { ...pathParams, ...common, key: { type: "string", required: true }, value: { type: "string", required: true }, masked_and_hidden: { type: "boolean" }, environment_scope: { type: "string" } } },
      (ctx) => {
        const ownerId = level.administered(ctx);
        const p = ctx.params;
        const scoped = level.scoped(ctx);
        const hidden = level.level !== "instance" && p.masked_and_hidden === true;
        const variable: VariableRecord = {
          id: ctx.state.nextId(CI_VARIABLE_SEQUENCE),
          level: level.level,
          ownerId,
          key: p.key,
          value: p.value,
          variableType: (p.variable_type ?? "env_var") as VariableRecord["variableType"],
          protected: p.protected ?? false,
          // `masked_and_hidden` sets both.
          masked: hidden || (p.masked ?? false),
          hidden,
          raw: p.raw ?? false,
          environmentScope: level.level === "instance" || !scoped ? "*" : (p.environment_scope ?? "*"),
          description: p.description ?? null,
        };
        validateVariable(ctx.state, variable);
        ciVariableStore.of(ctx.state).variables.push(variable);
        return created(presentVariable(variable));
      },
    ),

    route("PUT", one, { params: { ...pathParams, ...keyParam, ...common, ...scopeParams } }, (ctx) => {
      const ownerId = level.administered(ctx);
      const variable = foundForUpdate(ctx, level, ownerId, ctx.params.key);
      const p = ctx.params;
      const scoped = level.level !== "instance" && level.scoped(ctx);
      const changed: VariableRecord = {
        ...variable,
        value: p.value ?? variable.value,
        variableType: (p.variable_type ?? variable.variableType) as VariableRecord["variableType"],
        protected: p.protected ?? variable.protected,
        masked: p.masked ?? variable.masked,
        raw: p.raw ?? variable.raw,
        environmentScope: scoped ? (p.environment_scope ?? variable.environmentScope) : variable.environmentScope,
        description: p.description === undefined ? variable.description : p.description,
      };
      validateVariable(ctx.state, changed, variable);
      Object.assign(variable, changed);
      return ok(presentVariable(variable));
    }),

    route("DELETE", one, { params: { ...pathParams, ...keyParam, filter: { type: "hash" } } }, (ctx) => {
      const ownerId = level.administered(ctx);
      const variable = found(ctx, level, ownerId, ctx.params.key);
      const { variables } = ciVariableStore.of(ctx.state);
      variables.splice(variables.indexOf(variable), 1);
      return noContent();
    }),
  ];
}

export const ciVariableRoutes: readonly RouteDefinition[] = levels.flatMap(levelRoutes);
