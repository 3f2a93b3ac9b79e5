/**
 * The instance's container repositories, from the registry itself, which
 * takes its own token, not the API's: a registry token with the scope
 * `registry:catalog:*` from the configured server's `/jwt/auth` (HTTP Basic,
 * the personal token as the password; administrators only), then every page
 * of `GET {registry_url}/v2/_catalog` with that token.
 *
 * The registry's address is the one the API names: the host of a project's
 * `container_registry_image_prefix` (found through the groups' details), with
 * the configured server's scheme. The
 * personal token goes to the configured server only; the registry token (a
 * secret, five minutes of administrator access to the catalog) goes to that
 * host only, and is in no result, error or log.
 */
import { z } from "zod";
import { ApiError, NetworkError, PAGE_SIZE, roleNeeded, tokenRefused, type PlatformClient } from "../client";
import { groupRequests, groupPath } from "../api/groups";
import { ExplainedError } from "../engine/errors";
import { defineComposedFunction, type FunctionOptions, type FunctionOutputOptions, type InputArgs, type Reader } from "./core";

const NAME = "getRegistryCatalog";
const CATALOG_SCOPE = "registry:catalog:*";
/**
 * The Basic username sent with the personal token: the server checks a
 * personal access token by the password alone (`Gitlab::Auth.find_for_git_client`);
 * any non-empty name will do, and reading the user's would cost a request.
 */
const BASIC_USERNAME = "pulumi-platform";

const tokenAnswer = z.looseObject({ token: z.string().min(1) });
const catalogPage = z.looseObject({ repositories: z.array(z.string()) });

/** One container repository of the instance, as the catalog names it. */
export interface CatalogRepository {
  /** The repository's path (`acme/web/api-server`): the project's full path and the image name, in lower case. */
  path: string;
  /** Registry host and path: what `docker pull` takes. */
  location: string;
}

/** The access claims of a registry token (a JWT), read to tell a refusal before the registry is asked; undefined if unreadable. */
function grantedAccess(token: string): { type?: string; name?: string; actions?: string[] }[] | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { access?: unknown };
    return Array.isArray(claims.access) ? claims.access : undefined;
  } catch {
    return undefined;
  }
}

/** A registry token for the catalog, or an explanation of why the server gives none. */
async function catalogToken(read: Reader): Promise<string> {
  let answer: unknown;
  try {
    answer = (await read.client.getOutsideApi<unknown>("/jwt/auth", { service: "container_registry", scope: CATALOG_SCOPE }, { basicUsername: BASIC_USERNAME })).body;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new ExplainedError(
        `${NAME}: the server has no container registry: GET /jwt/auth answered 404${error.serverMessage ? ` (${error.serverMessage})` : ""}. ` +
          "An administrator enables it in the server's configuration (registry settings of gitlab.rb or gitlab.yml).",
      );
    }
    throw error;
  }
  const { token } = read.checked(tokenAnswer, answer);
  const access = grantedAccess(token);
  if (access !== undefined && !access.some((a) => a.type === "registry" && a.name === "catalog" && a.actions?.includes("*"))) {
    throw new ExplainedError(
      `${NAME}: ${roleNeeded("administrator", "the instance")}: the server's token service granted no ${CATALOG_SCOPE} access, which it gives to administrators only. ` +
        "Use an administrator's token, or list one project's or group's repositories with getRegistryRepositories. No registry request was sent.",
    );
  }
  return token;
}

/** The registry's host as a project shows it (`registry.example.com:5050/acme/web` → `registry.example.com:5050`), if it does. */
const prefixHost = (project: Record<string, unknown>): string | undefined =>
  typeof project.container_registry_image_prefix === "string" && project.container_registry_image_prefix !== ""
    ? project.container_registry_image_prefix.split("/")[0]
    : undefined;

/**
 * The registry's address as the API names it: the host of the first project
 * (of the groups, by id) that shows a `container_registry_image_prefix`, with
 * the configured server's scheme. The API names the registry nowhere else
 * (not in the metadata); an administrator sees every group, and a group's
 * detail lists its projects, so this is usually two requests. The prefix is
 * the instance's (`API::Entities::Project` shows `container_registry_url`
 * whenever the registry is on), whatever the project's own registry setting.
 */
async function registryAddress(client: PlatformClient): Promise<{ url: URL; host: string }> {
  let projects = 0;
  let host: string | undefined;
  search: for await (const groups of client.pages<{ id: number }>("/groups", { per_page: 20, order_by: "id", sort: "asc", all_available: true })) {
    for (const group of groups) {
      const detail = await groupRequests.get(client, groupPath(group.id), { with_projects: true });
      projects += detail.projects?.length ?? 0;
      host = detail.projects?.map(prefixHost).find((named) => named !== undefined);
      if (host !== undefined) break search;
    }
  }
  if (host === undefined) {
    throw new ExplainedError(
      `${NAME}: the server names no container registry: ` +
        (projects === 0
          ? "no group holds a project, and a project's container_registry_image_prefix is where the API names the registry's host."
          : `none of the ${projects} projects of its groups shows a container_registry_image_prefix, which the API shows only while the instance's registry is on.`),
    );
  }
  try {
    return { url: new URL(`${new URL(client.baseUrl).protocol}//${host}`), host };
  } catch {
    throw new ExplainedError(`${NAME}: the server names its registry host as ${JSON.stringify(host)}, which is not a host name.`);
  }
}

/** A failed request to the registry, explained with its address (never its token). */
function registryFailure(registry: URL, error: unknown): unknown {
  if (error instanceof ApiError && error.status === 401) {
    return new ExplainedError(
      `${NAME}: the registry at ${registry.origin} refused the catalog token the server issued (GET ${error.path} answered 401${error.serverMessage ? `: ${error.serverMessage}` : ""}). ` +
        "The registry and the server may not share their token key, or the token expired (registry tokens live minutes).",
    );
  }
  if (error instanceof ApiError && error.status === 404) {
    return new ExplainedError(`${NAME}: the registry at ${registry.origin} has no catalog (GET ${error.path} answered 404); it may not be a container registry.`);
  }
  if (error instanceof NetworkError) {
    return new ExplainedError(
      `${NAME}: could not reach the registry at ${registry.origin}, the host the API names in container_registry_image_prefix. ${error.message}`,
    );
  }
  return error;
}

/** The catalog's address from `last` on (the registry's own pagination), `n` a page. */
function catalogAddress(registry: URL, n: number, last: string | undefined): URL {
  const url = new URL("/v2/_catalog", registry);
  if (last !== undefined) url.searchParams.set("last", last);
  url.searchParams.set("n", String(n));
  return url;
}

async function readCatalog(read: Reader, limit: number): Promise<CatalogRepository[]> {
  let token = await catalogToken(read);
  const { url: registry, host } = await registryAddress(read.client);
  const paths: string[] = [];
  let renewedAt: number | undefined;
  for (;;) {
    try {
      for await (const page of read.client.pagesWithBearer<unknown>(catalogAddress(registry, Math.min(PAGE_SIZE, limit), paths.at(-1)), token)) {
        paths.push(...read.checked(catalogPage, page.body).repositories);
        if (paths.length >= limit) break;
      }
      break;
    } catch (error) {
      // Registry tokens live minutes (container_registry_token_expire_delay): a long catalog may outlast one.
      // A fresh token goes on from the last path read, once per page.
      if (error instanceof ApiError && error.status === 401 && paths.length > 0 && renewedAt !== paths.length) {
        renewedAt = paths.length;
        token = await catalogToken(read);
        continue;
      }
      throw registryFailure(registry, error);
    }
  }
  // The host as the API writes it in every `location` (a URL would drop a default port or change its case).
  return paths.slice(0, limit).map((path) => ({ path, location: `${host}/${path}` }));
}

const registryCatalog = defineComposedFunction({
  name: NAME,
  args: z.object({
    /** At most this many repositories, and only the pages they need. */
    limit: z.number().int().positive().optional(),
  }),
  subject: () => "the container registry catalog",
  refusals: { 401: () => `${tokenRefused()}.` },
  run: (read, args) => readCatalog(read, args.limit ?? Infinity),
});

/**
 * Every container repository of the instance, from the registry's catalog
 * (administrators only), in the registry's order (by path).
 *
 * ```ts
 * const repositories = await getRegistryCatalog();
 * const first10 = await getRegistryCatalog({ limit: 10 });
 * ```
 */
export const getRegistryCatalog = (args: { limit?: number } = {}, opts?: FunctionOptions): Promise<CatalogRepository[]> => registryCatalog(args, opts);
/** `getRegistryCatalog` as an Output. */
export const getRegistryCatalogOutput = (args: InputArgs<{ limit?: number }> = {}, opts?: FunctionOutputOptions) => registryCatalog.output(args, opts);
