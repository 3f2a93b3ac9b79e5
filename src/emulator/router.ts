/**
 * Routes: what a route module declares, what its handler receives, and the
 * matcher that picks a route for a request.
 *
 * Matching works on the RAW path, segment by segment, so an encoded `%2F`
 * stays inside its segment: `/projects/acme%2Fweb/badges` gives `:id` =
 * `acme/web`, while `/projects/acme/web/badges` matches nothing (404), as on
 * real servers. When several routes match, the one with a literal segment
 * earliest wins (`/badges/render` before `/badges/:badge_id`).
 *
 * A last segment `*name` takes the rest of the path, one segment or more
 * (`/v2/*path` matches `/v2/acme/web/manifests/latest` with `path` =
 * `acme/web/manifests/latest`, each segment decoded, joined with "/"); it is
 * less specific than a literal or a `:param` in the same place.
 */
import type { IncomingHttpHeaders } from "node:http";
import { unauthorized } from "./errors";
import {
  isKeysetRequest,
  keysetUnavailable,
  paginateKeyset,
  paginateOffset,
  readOffsetPageRequest,
  type KeysetOptions,
} from "./pagination";
import type { DeclaredParams, ParamSpec, RawParams } from "./params";
import type { EmulatorState, User } from "./state";

export const API_PREFIX = "/api/v4";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ApiResponse {
  status: number;
  /** undefined: no body; a string: text/plain; a Buffer: bytes (set Content-Type); a node Readable: streamed bytes (archives); anything else: JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RequestContext<P = Record<string, unknown>> {
  readonly method: string;
  /** The path as sent, still URL-encoded, without the query. */
  readonly rawPath: string;
  /** The full request URL on this emulator (used to build `Link` headers). */
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
  /** Path parameters, decoded. */
  readonly pathParams: Readonly<Record<string, string>>;
  /** Query, body and path parameters merged, before declaration. */
  readonly rawParams: RawParams;
  /** The route's declared parameters, coerced and checked. */
  readonly params: P;
  /** The request body as sent (endpoints that take other than JSON or forms: the error-tracking envelope). */
  readonly rawBody: Buffer;
  /** The authenticated user; null for an anonymous request. */
  readonly user: User | null;
  /** Set when a CI job token authenticated the request: the one project it reaches (areas/job-tokens/). */
  readonly jobTokenProjectId?: number;
  readonly state: EmulatorState;
}

export type RouteHandler<P> = (ctx: RequestContext<P>) => ApiResponse | Promise<ApiResponse>;

export interface RouteDefinition {
  readonly method: HttpMethod;
  /** Path below `/api/v4`, with `:name` parameters; with `outsideApi`, the whole path. */
  readonly path: string;
  /**
   * The route is not part of `/api/v4` (`/jwt/auth`, the registry's `/v2/...`):
   * its path is taken as it is, and it authenticates by itself (Basic
   * credentials, registry bearer tokens), so the core neither reads an access
   * token for it (`ctx.user` is null) nor refuses anonymous writes.
   */
  readonly outsideApi: boolean;
  /** A CI job token (`JOB-TOKEN`) authenticates on this route; elsewhere it is ignored (areas/job-tokens/). */
  readonly jobTokenAllowed: boolean;
  readonly params: ParamSpec;
  /** Validate `page`/`per_page` before the handler runs, as Grape's `use :pagination` does. */
  readonly paginated: boolean;
  readonly handler: RouteHandler<Record<string, unknown>>;
}

export interface RouteOptions<S extends ParamSpec> {
  /** Declared parameters, path parameters included (`id: { type: "string", required: true }`). */
  params?: S;
  paginated?: boolean;
  /** See `RouteDefinition.outsideApi`. */
  outsideApi?: boolean;
  /** See `RouteDefinition.jobTokenAllowed`. */
  jobTokenAllowed?: boolean;
}

/** Declares a route; the handler's `ctx.params` is typed from `options.params`. */
export function route<S extends ParamSpec = Record<never, never>>(
  method: HttpMethod,
  path: string,
  options: RouteOptions<S>,
  handler: RouteHandler<DeclaredParams<S>>,
): RouteDefinition {
  return {
    method,
    path,
    params: options.params ?? {},
    paginated: options.paginated ?? false,
    outsideApi: options.outsideApi ?? false,
    jobTokenAllowed: options.jobTokenAllowed ?? false,
    // The server declares `params` with this route's spec before calling the handler.
    handler: handler as RouteHandler<unknown> as RouteHandler<Record<string, unknown>>,
  };
}

// ---------------------------------------------------------------------------
// Response helpers

/** The access token of a request: `PRIVATE-TOKEN`, `Authorization: Bearer`, or `private_token`. */
export function accessTokenOf(headers: IncomingHttpHeaders, query: URLSearchParams): string | undefined {
  const privateToken = headers["private-token"];
  if (typeof privateToken === "string" && privateToken !== "") return privateToken;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? "");
  if (bearer?.[1]) return bearer[1];
  return query.get("private_token") ?? undefined;
}

export const ok = (body: unknown, headers?: Record<string, string>): ApiResponse => ({ status: 200, body, headers });
export const created = (body: unknown): ApiResponse => ({ status: 201, body });
/** `destroy_conditionally!`: 204 with an empty body. */
export const noContent = (): ApiResponse => ({ status: 204 });

/** `authenticate!`: 401 for an anonymous request. */
export function requireUser(ctx: RequestContext<unknown>): User {
  if (!ctx.user) throw unauthorized();
  return ctx.user;
}

/**
 * A 200 list response with pagination headers: offset pagination, or keyset
 * when the request asks for it and the route supports it (`keyset` given).
 */
export function paginate<T>(
  ctx: RequestContext<unknown>,
  items: readonly T[],
  options: { present?: (item: T) => unknown; keyset?: KeysetOptions<T> } = {},
): ApiResponse {
  let page;
  if (isKeysetRequest(ctx.rawParams)) {
    if (!options.keyset) throw keysetUnavailable();
    page = paginateKeyset(items, ctx.url, ctx.rawParams, options.keyset);
  } else {
    page = paginateOffset(items, ctx.url, readOffsetPageRequest(ctx.rawParams));
  }
  const present = options.present ?? ((item: T): unknown => item);
  return ok(page.items.map(present), page.headers);
}

// ---------------------------------------------------------------------------
// Matching

type Segment = { kind: "literal"; text: string } | { kind: "param"; name: string } | { kind: "rest"; name: string };

interface CompiledRoute {
  definition: RouteDefinition;
  segments: Segment[];
}

export interface RouteMatch {
  route: RouteDefinition;
  pathParams: Record<string, string>;
  /** Index of each parameter's segment in the raw path split on "/" (for redirects). */
  paramSegmentIndex: Record<string, number>;
}

function compile(definition: RouteDefinition): CompiledRoute {
  const texts = ((definition.outsideApi ? "" : API_PREFIX) + definition.path).split("/");
  const segments = texts.map((text, index): Segment => {
    if (text.startsWith(":")) return { kind: "param", name: text.slice(1) };
    if (text.startsWith("*")) {
      if (index !== texts.length - 1) throw new Error(`route ${definition.path}: a *segment must come last`);
      return { kind: "rest", name: text.slice(1) };
    }
    return { kind: "literal", text };
  });
  return { definition, segments };
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

const SPECIFICITY: Record<Segment["kind"], number> = { literal: 0, param: 1, rest: 2 };

/** Negative when `a` is more specific: its first differing segment is a literal (or a `:param` against a `*rest`). */
function bySpecificity(a: CompiledRoute, b: CompiledRoute): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const kindA = a.segments[i]?.kind ?? "rest";
    const kindB = b.segments[i]?.kind ?? "rest";
    if (kindA !== kindB) return SPECIFICITY[kindA] - SPECIFICITY[kindB];
  }
  return 0;
}

const hasRest = (compiled: CompiledRoute): boolean => compiled.segments[compiled.segments.length - 1]?.kind === "rest";

export class Router {
  private readonly routes: CompiledRoute[] = [];

  constructor(modules: readonly { readonly name: string; readonly routes: readonly RouteDefinition[] }[]) {
    const seen = new Set<string>();
    for (const module of modules) {
      for (const definition of module.routes) {
        const key = `${definition.method} ${definition.outsideApi ? "" : API_PREFIX}${definition.path.replace(/:[^/]+/g, ":").replace(/\*[^/]+$/, "*")}`;
        if (seen.has(key)) throw new Error(`route ${key} is declared twice (module ${module.name})`);
        seen.add(key);
        this.routes.push(compile(definition));
      }
    }
  }

  match(method: string, rawPath: string): RouteMatch | undefined {
    const wanted = method === "HEAD" ? "GET" : method;
    const rawSegments = rawPath.split("/");
    const candidates: { compiled: CompiledRoute; match: RouteMatch }[] = [];
    for (const compiled of this.routes) {
      if (compiled.definition.method !== wanted) continue;
      const lengthFits = hasRest(compiled)
        ? rawSegments.length >= compiled.segments.length
        : rawSegments.length === compiled.segments.length;
      if (!lengthFits) continue;
      const match = this.matchSegments(compiled, rawSegments);
      if (match) candidates.push({ compiled, match });
    }
    candidates.sort((a, b) => bySpecificity(a.compiled, b.compiled));
    return candidates[0]?.match;
  }

  private matchSegments(compiled: CompiledRoute, rawSegments: string[]): RouteMatch | undefined {
    const pathParams: Record<string, string> = {};
    const paramSegmentIndex: Record<string, number> = {};
    for (const [index, segment] of compiled.segments.entries()) {
      const raw = rawSegments[index] ?? "";
      if (segment.kind === "rest") {
        const decoded = rawSegments.slice(index).map(decodeSegment);
        if (decoded.some((part) => part === undefined || part === "")) return undefined;
        pathParams[segment.name] = decoded.join("/");
        paramSegmentIndex[segment.name] = index;
        break;
      }
      if (segment.kind === "literal") {
        if (raw !== segment.text) return undefined;
        continue;
      }
      const value = raw === "" ? undefined : decodeSegment(raw);
      if (value === undefined) return undefined;
      pathParams[segment.name] = value;
      paramSegmentIndex[segment.name] = index;
    }
    return { route: compiled.definition, pathParams, paramSegmentIndex };
  }
}
