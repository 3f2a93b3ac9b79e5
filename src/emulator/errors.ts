/**
 * Errors a route handler throws, each carrying the exact status and body a
 * real server sends.
 * Real servers use two body keys: `message` for errors raised by the
 * application, `error` for parameter validation and unknown routes.
 */

export type ErrorBody = { message: unknown } | { error: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${JSON.stringify(body)}`);
    this.name = "ApiError";
  }
}

/**
 * Thrown when a project was addressed by a path it had before a rename or a
 * transfer; the server answers 301 with the same URL, the project's numeric
 * id in place of the former path (`url_with_project_id`).
 */
export class MovedError extends Error {
  constructor(
    /** Name of the path parameter that held the old path (`id`). */
    readonly param: string,
    /** What replaces the former path in the URL: the project's numeric id. */
    readonly replacement: string,
  ) {
    super(`moved: ${replacement}`);
    this.name = "MovedError";
  }
}

/** `unauthorized!`: no user, or an invalid token. */
export const unauthorized = (): ApiError => new ApiError(401, { message: "401 Unauthorized" });

/** `forbidden!` / a failed `authorize!`. */
export const forbidden = (): ApiError => new ApiError(403, { message: "403 Forbidden" });

/** `not_found!('Group')` → `404 Group Not Found`; without a resource → `404 Not Found`. */
export const notFound = (resource?: string): ApiError =>
  new ApiError(404, { message: resource ? `404 ${resource} Not Found` : "404 Not Found" });

/** ActiveRecord's RecordNotFound, rescued globally: note the lowercase `f`. */
export const recordNotFound = (): ApiError => new ApiError(404, { message: "404 Not found" });

/** The catch-all route for anything no endpoint matches. */
export const routeNotFound = (): ApiError => new ApiError(404, { error: "404 Not Found" });

/** A Grape parameter error: `{"error":"link_url is missing"}`. */
export const paramError = (message: string): ApiError => new ApiError(400, { error: message });

/** `render_validation_error!`: model errors keyed by attribute, status 400. */
export const validationError = (errors: Record<string, string[]>): ApiError =>
  new ApiError(400, { message: errors });

/** `bad_request!(reason)`: note the lowercase `request`. */
export const badRequest = (reason?: string): ApiError =>
  new ApiError(400, { message: reason ? `400 Bad request - ${reason}` : "400 Bad request" });

export const internalServerError = (): ApiError =>
  new ApiError(500, { message: "500 Internal Server Error" });

/**
 * A token whose scopes allow neither this request (`api`, or `read_api` for a
 * GET or HEAD): 403, as Rack::OAuth2's Bearer::Forbidden answers.
 */
export function insufficientScope(): ApiError {
  const body = {
    error: "insufficient_scope",
    error_description: "The request requires higher privileges than provided by the access token.",
    scope: "api read_api",
  };
  return new ApiError(403, body);
}

/** Whether a token's scopes let it make a request with `method` to /api/v4. */
export function scopesAllow(scopes: readonly string[], method: string): boolean {
  return scopes.includes("api") || ((method === "GET" || method === "HEAD") && scopes.includes("read_api"));
}
