/**
 * Project and group deploy tokens (`lib/api/deploy_tokens.rb`):
 * `/projects/:id/deploy_tokens` and `/groups/:id/deploy_tokens`.
 *
 * - Reading, creating and deleting need `read_deploy_token`,
 *   `create_deploy_token` and `destroy_deploy_token`: Maintainer of a project,
 *   Owner of a group (administrators pass); below it 403.
 * - POST: `name` and `scopes` required, scopes among `read_repository`,
 *   `read_registry`, `write_registry`, `read_package_registry`,
 *   `write_package_registry`, `read_virtual_registry`,
 *   `write_virtual_registry`; `expires_at` a time (kept as its date: the
 *   emulator's tokens expire at the start of a date), `username` optional
 *   (default `gitlab+deploy-token-<id>`; letters, digits, `_`, `-`, `.` and
 *   `+`; another live token of the same project or group with it: 400
 *   `{"message":"400 Bad request - Username has already been taken"}`).
 *   201 with the token (`DeployTokenWithToken`), the only answer that shows it.
 * - The list takes `active` (true: neither revoked nor expired).
 * - GET one of another project or group: 404 `404 Not found` (the finder).
 * - DELETE: 204; the token is destroyed (it no longer opens Git or the registry).
 */
import { createHash, randomBytes } from "node:crypto";
import { hasGroupAccess, hasProjectAccess } from "../../access";
import { badRequest, forbidden, paramError, recordNotFound } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import { created, noContent, ok, paginate, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, type EmulatorState, type Group, type Project } from "../../state";
import { credentialsStore, DEPLOY_TOKEN_SEQUENCE, isTokenActive, scopesAmong, TOKEN_PREFIX, type CredentialRecord } from "./model";
import { presentDeployToken } from "./routes";

/** `DeployToken::AVAILABLE_SCOPES`. */
export const DEPLOY_TOKEN_SCOPES = [
  "read_repository",
  "read_registry",
  "write_registry",
  "read_package_registry",
  "write_package_registry",
  "read_virtual_registry",
  "write_virtual_registry",
] as const;

/** `DeployToken`'s username format. */
const USERNAME = /^[a-zA-Z0-9][a-zA-Z0-9_+.-]*$/;

type SourceType = "group" | "project";

function sourceOf(ctx: RequestContext<unknown>, type: SourceType): Group | Project {
  const source = type === "group" ? findGroup(ctx) : findProject(ctx);
  const allowed = type === "group" ? hasGroupAccess(ctx.state, ctx.user, source as Group, AccessLevel.Owner) : hasProjectAccess(ctx.state, ctx.user, source as Project, AccessLevel.Maintainer);
  if (!allowed) throw forbidden();
  return source;
}

const ownedBy = (type: SourceType, source: Group | Project) => (record: CredentialRecord) =>
  record.kind === "deploy_token" && (type === "group" ? record.groupId : record.projectId) === source.id;

function routesOf(type: SourceType): RouteDefinition[] {
  const base = `/${type}s/:id/deploy_tokens`;
  const tokens = (state: EmulatorState, source: Group | Project) => credentialsStore.of(state).tokens.filter(ownedBy(type, source));
  const one = (state: EmulatorState, source: Group | Project, tokenId: string) => {
    const record = /^\d+$/.test(tokenId) ? tokens(state, source).find((candidate) => candidate.id === Number(tokenId)) : undefined;
    if (!record) throw recordNotFound();
    return record;
  };

  const list = route("GET", base, { paginated: true, params: { id: { type: "string", required: true }, active: { type: "boolean" } } }, (ctx) => {
    const source = sourceOf(ctx, type);
    const listed = tokens(ctx.state, source).filter((record) => ctx.params.active !== true || isTokenActive(ctx.state, record));
    return paginate(ctx, listed, { present: (record) => presentDeployToken(ctx.state, record) });
  });

  const getOne = route("GET", `${base}/:token_id`, { params: { id: { type: "string", required: true }, token_id: { type: "string", required: true } } }, (ctx) => {
    const source = sourceOf(ctx, type);
    return ok(presentDeployToken(ctx.state, one(ctx.state, source, ctx.params.token_id)));
  });

  const create = route(
    "POST",
    base,
    {
      params: {
        id: { type: "string", required: true },
        name: { type: "string", required: true },
        scopes: { type: "string[]", required: true },
        expires_at: { type: "string" },
        username: { type: "string" },
      },
    },
    (ctx) => {
      const { state } = ctx;
      scopesAmong(ctx.params.scopes, DEPLOY_TOKEN_SCOPES);
      const source = sourceOf(ctx, type);
      let expiresAt: string | null = null;
      if (ctx.params.expires_at !== undefined && ctx.params.expires_at !== "") {
        const time = Date.parse(ctx.params.expires_at);
        if (Number.isNaN(time)) throw paramError("expires_at is invalid");
        expiresAt = new Date(time).toISOString().slice(0, 10);
      }
      const username = ctx.params.username === undefined || ctx.params.username === "" ? undefined : ctx.params.username;
      if (username !== undefined && !USERNAME.test(username)) throw badRequest("Username can contain only letters, digits, '_', '-', '+', and '.'");
      if (username !== undefined && tokens(state, source).some((record) => record.username === username && !record.revoked)) throw badRequest("Username has already been taken");
      const id = state.nextId(DEPLOY_TOKEN_SEQUENCE);
      const record: CredentialRecord = {
        id,
        kind: "deploy_token",
        token: TOKEN_PREFIX.deploy + createHash("sha256").update(`${state.now()}#${randomBytes(16).toString("hex")}`).digest("hex").slice(0, 20),
        name: ctx.params.name,
        description: "",
        scopes: [...new Set(ctx.params.scopes)],
        userId: null,
        groupId: type === "group" ? source.id : null,
        projectId: type === "project" ? source.id : null,
        accessLevel: null,
        username: username ?? `gitlab+deploy-token-${id}`,
        createdAt: state.now(),
        lastUsedAt: null,
        expiresAt,
        revoked: false,
      };
      credentialsStore.of(state).tokens.push(record);
      return created({ ...presentDeployToken(state, record), token: record.token });
    },
  );

  const destroy = route("DELETE", `${base}/:token_id`, { params: { id: { type: "string", required: true }, token_id: { type: "string", required: true } } }, (ctx) => {
    const source = sourceOf(ctx, type);
    const record = one(ctx.state, source, ctx.params.token_id);
    const store = credentialsStore.of(ctx.state);
    store.tokens = store.tokens.filter((candidate) => candidate !== record);
    return noContent();
  });

  return [list, getOne, create, destroy];
}

export const deployTokenRoutes: readonly RouteDefinition[] = [...routesOf("project"), ...routesOf("group")];
