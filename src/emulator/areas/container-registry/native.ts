/**
 * The registry-native endpoints, which take a registry token: the token
 * service `GET /jwt/auth` and, on the same server at its root, the registry's
 * own `DELETE /v2/<name>/tags/reference/<tag>`, `DELETE /v2/<name>/manifests/<reference>`
 * and `GET /v2/_catalog`. These routes are outside /api/v4 and read their own
 * credentials.
 *
 * `/jwt/auth` follows JwtController and Auth::ContainerRegistryAuthenticationService:
 * - `service` must be `container_registry` (anything else: 404, empty body);
 *   with the registry off (seed `containerRegistry.enabled: false`), 404
 *   `UNAVAILABLE` `registry not enabled`;
 * - HTTP Basic with a personal access token as the password, under any
 *   non-empty username (`Gitlab::Auth.find_for_git_client` checks a PAT by
 *   the password alone); bad credentials: 401 with the `HTTP Basic: Access
 *   denied` errors body; no credentials: anonymous, and anonymous without a
 *   scope is 403 `DENIED`;
 * - each `scope` (repeatable, or space-separated) is granted only with the
 *   actions the user may do, others dropped: pull = read_container_image,
 *   push = create_container_image (Developer+), delete = destroy_container_image
 *   (Developer+), `*` = admin_container_image (Maintainer+), nothing when the
 *   project's registry is disabled; `registry:catalog:*` only for administrators;
 * - the answer is `{"token": "<JWT>"}`; the JWT (HS256 here, RS256 on real
 *   servers) has iss `gitlab-issuer`, aud `container_registry`, sub, iat,
 *   nbf (5 s back), exp (5 minutes: `container_registry_token_expire_delay`),
 *   jti and `access: [{type, name, actions}]`.
 *
 * The registry side follows the Docker distribution registry: a missing,
 * invalid, expired or too narrow token is 401 UNAUTHORIZED
 * `authentication required` with the requested access as detail and
 * `WWW-Authenticate: Bearer realm=...,service=...,scope=...[,error=...]`;
 * deletes with the tag delete feature off (seed `containerRegistry.tagDelete`)
 * are 405 UNSUPPORTED; unknown repository 404 NAME_UNKNOWN, unknown tag or
 * manifest 404 MANIFEST_UNKNOWN; a manifest delete needs a digest reference
 * (a tag is 400 DIGEST_INVALID) and removes every tag on that manifest;
 * success is 202 with an empty body.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import {
  canAdminContainerImages,
  canDestroyContainerImages,
  canPushContainerImages,
  canReadContainerImages,
  containerRegistryStore,
  projectOfImagePath,
  repositoryByPath,
  repositoryPath,
} from "./model";
import { removeTags } from "./jobs";
import { jobTokenGrant } from "../job-tokens";
import { ok, route, type ApiResponse, type RequestContext, type RouteDefinition } from "../../router";
import type { EmulatorState, User } from "../../state";

const TOKEN_ISSUER = "gitlab-issuer";
/** The login a CI job token goes with (its password is the token). */
const JOB_TOKEN_LOGIN = "gitlab-ci-token";
const TOKEN_AUDIENCE = "container_registry";
const TOKEN_LIFETIME_S = 300;
const CATALOG_DEFAULT_N = 100;

interface Access {
  type: string;
  name: string;
  actions: string[];
}

// ---------------------------------------------------------------------------
// Tokens

const base64url = (data: string | Buffer): string => Buffer.from(data).toString("base64url");

function signToken(state: EmulatorState, user: User | null, access: Access[]): string {
  const now = Math.floor(state.clock() / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const claims = { iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, sub: user?.username ?? "", iat: now, nbf: now - 5, exp: now + TOKEN_LIFETIME_S, jti: randomUUID(), access };
  const body = `${header}.${base64url(JSON.stringify(claims))}`;
  const signature = createHmac("sha256", containerRegistryStore.of(state).tokenSecret).update(body).digest("base64url");
  return `${body}.${signature}`;
}

/** The access a bearer token grants, or undefined for a token the registry rejects (bad signature, expired, not ours). */
function verifyToken(state: EmulatorState, token: string): Access[] | undefined {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature) return undefined;
  const expected = createHmac("sha256", containerRegistryStore.of(state).tokenSecret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { aud?: string; exp?: number; nbf?: number; access?: Access[] };
    const now = state.clock() / 1000;
    if (claims.aud !== TOKEN_AUDIENCE || (claims.exp ?? 0) <= now || (claims.nbf ?? 0) > now) return undefined;
    return Array.isArray(claims.access) ? claims.access : [];
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// /jwt/auth

const errorsBody = (code: string, message: string, detail?: unknown): unknown => ({
  errors: [detail === undefined ? { code, message } : { code, message, detail }],
});

function accessDenied(state: EmulatorState): ApiResponse {
  const help = `https://${state.instance.host}/help/user/profile/account/two_factor_authentication_troubleshooting.md#error-http-basic-access-denied-if-a-password-was-provided-for-git-authentication-`;
  const message =
    "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or " +
    "you're required to use a token instead of a password. If a token was provided, it was either incorrect, " +
    `expired, or improperly scoped. See ${help}`;
  return { status: 401, body: errorsBody("UNAUTHORIZED", message), headers: { "WWW-Authenticate": 'Basic realm="GitLab"' } };
}

/** Who the Basic credentials are: a user (with the one project a CI job token reaches), null when none were sent, "denied" for bad ones. */
interface BasicCaller {
  user: User;
  /** Set for a CI job token (`gitlab-ci-token`): the only project whose images it reaches. */
  projectId?: number;
}

function basicUser(state: EmulatorState, headers: IncomingHttpHeaders): BasicCaller | null | "denied" {
  const match = /^Basic\s+(\S+)\s*$/i.exec(headers.authorization ?? "");
  if (!match?.[1]) return headers.authorization ? "denied" : null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const login = colon === -1 ? decoded : decoded.slice(0, colon);
  const password = colon === -1 ? "" : decoded.slice(colon + 1);
  if (login === "" || password === "") return "denied";
  if (login === JOB_TOKEN_LOGIN) return jobTokenGrant(state, password) ?? "denied";
  const user = state.userByToken(password);
  return user ? { user } : "denied";
}

/** Only the actions this user may do on the image; undefined when none. */
function grantRepositoryAccess(state: EmulatorState, caller: BasicCaller | null, name: string, actions: string[]): Access | undefined {
  const project = projectOfImagePath(state, name);
  if (!project || (caller?.projectId !== undefined && caller.projectId !== project.id)) return undefined;
  const user = caller?.user ?? null;
  const allowed = (action: string): boolean => {
    switch (action) {
      case "pull": return canReadContainerImages(state, user, project);
      case "push": return canPushContainerImages(state, user, project);
      case "delete": return canDestroyContainerImages(state, user, project);
      case "*": return canAdminContainerImages(state, user, project);
      default: return false;
    }
  };
  const granted = actions.filter(allowed);
  return granted.length === 0 ? undefined : { type: "repository", name: name.toLowerCase(), actions: granted };
}

/** `type:name:actions`; the name may itself hold colons (`type, *name, actions = scope.split(':')`). */
function grantScope(state: EmulatorState, caller: BasicCaller | null, scope: string): Access | undefined {
  const parts = scope.split(":");
  if (parts.length < 3) return undefined;
  const type = parts[0] ?? "";
  const actions = (parts[parts.length - 1] ?? "").split(",").filter((a) => a !== "");
  const name = parts.slice(1, -1).join(":");
  if (type === "registry") {
    return name === "catalog" && actions.includes("*") && caller?.user.isAdmin && caller.projectId === undefined ? { type, name, actions: ["*"] } : undefined;
  }
  if (type === "repository") return grantRepositoryAccess(state, caller, name, actions);
  return undefined;
}

const jwtAuth = route("GET", "/jwt/auth", { outsideApi: true }, (ctx) => {
  if (ctx.url.searchParams.get("service") !== "container_registry") return { status: 404 };
  if (!containerRegistryStore.of(ctx.state).enabled) return { status: 404, body: errorsBody("UNAVAILABLE", "registry not enabled") };
  const caller = basicUser(ctx.state, ctx.headers);
  if (caller === "denied") return accessDenied(ctx.state);
  const scopes = ctx.url.searchParams.getAll("scope").flatMap((s) => s.split(" ")).filter((s) => s !== "");
  if (scopes.length === 0 && caller === null) return { status: 403, body: errorsBody("DENIED", "access forbidden") };
  const access = scopes.flatMap((scope) => grantScope(ctx.state, caller, scope) ?? []);
  return ok({ token: signToken(ctx.state, caller?.user ?? null, access) });
});

// ---------------------------------------------------------------------------
// The registry (/v2)

const REGISTRY_HEADERS = { "Docker-Distribution-API-Version": "registry/2.0" };

function registryError(status: number, code: string, message: string, detail?: unknown, headers: Record<string, string> = {}): ApiResponse {
  return { status, body: errorsBody(code, message, detail), headers: { ...REGISTRY_HEADERS, "Content-Type": "application/json; charset=utf-8", ...headers } };
}

/** Checks the bearer token for `needed`; a 401 answer with the registry's challenge, or undefined when granted. */
function checkBearer(ctx: RequestContext<unknown>, needed: Access): ApiResponse | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.headers.authorization ?? "")?.[1];
  const granted = bearer === undefined ? undefined : verifyToken(ctx.state, bearer);
  const covers = (access: Access): boolean =>
    access.type === needed.type && access.name === needed.name && needed.actions.every((a) => access.actions.includes(a) || access.actions.includes("*"));
  if (granted?.some(covers)) return undefined;
  const scope = `${needed.type}:${needed.name}:${needed.actions.join(",")}`;
  let challenge = `Bearer realm="${ctx.url.origin}/jwt/auth",service="container_registry",scope="${scope}"`;
  if (bearer !== undefined) challenge += granted === undefined ? ',error="invalid_token"' : ',error="insufficient_scope"';
  const detail = needed.actions.map((action) => ({ Type: needed.type, Class: "", Name: needed.name, Action: action }));
  return registryError(401, "UNAUTHORIZED", "authentication required", detail, { "WWW-Authenticate": challenge });
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** DELETE of a tag (`tags/reference/<tag>`) or of a manifest (`manifests/<digest>`): every check after the token. */
function deleteReference(ctx: RequestContext<unknown>, name: string, kind: "tag" | "manifest", reference: string): ApiResponse {
  const denied = checkBearer(ctx, { type: "repository", name: name.toLowerCase(), actions: ["delete"] });
  if (denied) return denied;
  const store = containerRegistryStore.of(ctx.state);
  if (!store.tagDelete) return registryError(405, "UNSUPPORTED", "The operation is unsupported.");
  const repository = repositoryByPath(ctx.state, name);
  if (!repository || repository.status !== null) {
    return registryError(404, "NAME_UNKNOWN", "repository name not known to registry", { name });
  }
  if (kind === "manifest" && !DIGEST.test(reference)) {
    return registryError(400, "DIGEST_INVALID", "provided digest did not match uploaded content");
  }
  const doomed = repository.tags.filter((tag) => (kind === "tag" ? tag.name === reference : tag.digest === reference));
  if (doomed.length === 0) {
    return registryError(404, "MANIFEST_UNKNOWN", "manifest unknown", kind === "tag" ? { Tag: reference } : { Revision: reference });
  }
  removeTags(repository, new Set(doomed.map((tag) => tag.name)));
  return { status: 202, headers: REGISTRY_HEADERS };
}

const registryDelete = route("DELETE", "/v2/*path", { outsideApi: true, params: { path: { type: "string", required: true } } }, (ctx) => {
  const path = ctx.params.path;
  const tag = /^(.+)\/tags\/reference\/([^/]+)$/.exec(path);
  if (tag?.[1] && tag[2]) return deleteReference(ctx, tag[1], "tag", tag[2]);
  const manifest = /^(.+)\/manifests\/([^/]+)$/.exec(path);
  if (manifest?.[1] && manifest[2]) return deleteReference(ctx, manifest[1], "manifest", manifest[2]);
  return { status: 404, body: "404 page not found\n" };
});

/** Docker's `n`/`last` pagination over all repository paths, lexically; `Link` to the next page. */
const catalog = route("GET", "/v2/_catalog", { outsideApi: true }, (ctx) => {
  const denied = checkBearer(ctx, { type: "registry", name: "catalog", actions: ["*"] });
  if (denied) return denied;
  const nText = ctx.url.searchParams.get("n");
  const n = nText === null || nText === "" ? CATALOG_DEFAULT_N : Number(nText);
  if (!Number.isInteger(n) || n < 0) {
    return registryError(400, "PAGINATION_NUMBER_INVALID", "invalid number of results requested", { n: nText });
  }
  const last = ctx.url.searchParams.get("last") ?? "";
  const names = containerRegistryStore
    .of(ctx.state)
    .repositories.map((repository) => repositoryPath(ctx.state, repository))
    .sort()
    .filter((name) => name > last);
  const page = names.slice(0, n);
  const headers: Record<string, string> = { ...REGISTRY_HEADERS };
  const lastOfPage = page[page.length - 1];
  if (names.length > n && lastOfPage !== undefined) {
    headers["Link"] = `</v2/_catalog?last=${encodeURIComponent(lastOfPage)}&n=${n}>; rel="next"`;
  }
  return ok({ repositories: page }, headers);
});

/** The API version check: 200 `{}` with a token, else the challenge clients use to find the token service. */
const versionCheck = route("GET", "/v2/", { outsideApi: true }, (ctx) => {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.headers.authorization ?? "")?.[1];
  if (bearer !== undefined && verifyToken(ctx.state, bearer) !== undefined) return ok({}, REGISTRY_HEADERS);
  const challenge = `Bearer realm="${ctx.url.origin}/jwt/auth",service="container_registry"${bearer === undefined ? "" : ',error="invalid_token"'}`;
  return registryError(401, "UNAUTHORIZED", "authentication required", null, { "WWW-Authenticate": challenge });
});

export const registryNativeRoutes: readonly RouteDefinition[] = [jwtAuth, versionCheck, catalog, registryDelete];
