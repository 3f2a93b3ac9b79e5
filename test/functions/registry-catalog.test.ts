/**
 * getRegistryCatalog against the emulator over real HTTP: the token from
 * /jwt/auth, the registry's address from the API, every page of /v2/_catalog,
 * and the refusals (not an administrator, no registry, a registry that
 * refuses the token), with the requests each one sends.
 */
import { createServer } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { getRegistryCatalog, getRegistryCatalogOutput } from "pulumi-platform";
import { defaultSeed, startEmulator, type Emulator, type EmulatorOptions, type Seed } from "pulumi-platform/emulator";
import { tokenOf, useEmulator } from "../support";

/** A port free now, for an emulator that must name its own address in its seed (the registry's host). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const registrySection = defaultSeed.containerRegistry as { repositories: Record<string, unknown[]> };
// The default seed's 4 repositories and 230 more on acme/api: three catalog pages of 100.
const EXTRA = 230;
const imageName = (i: number) => `img-${String(i).padStart(3, "0")}`;
const seedNaming = (host: string, change: Record<string, unknown> = {}): Seed => ({
  ...defaultSeed,
  containerRegistry: {
    ...registrySection,
    host,
    repositories: { ...registrySection.repositories, "acme/api": Array.from({ length: EXTRA }, (_, i) => ({ name: imageName(i) })) },
    ...change,
  },
});

// The registry is served at the emulator's root: the API names that address, known once a port is chosen.
let HOST = "";
const options: EmulatorOptions = {};
beforeAll(async () => {
  options.port = await freePort();
  HOST = `127.0.0.1:${options.port}`;
  options.seed = seedNaming(HOST);
});
const server = useEmulator(options);

beforeAll(async () => {
  await server.configureProviders("root");
});

const DEFAULT_PATHS = ["acme/platform/infra/tools", "acme/web", "acme/web/api-server", "beta/site"];

describe("getRegistryCatalog", () => {
  it("lists every repository of the instance: one token, the first group's projects for the registry's address, then every page of 100", async () => {
    let catalog: Awaited<ReturnType<typeof getRegistryCatalog>> = [];
    const requests = await server.requestsDuring(async () => {
      catalog = await getRegistryCatalog();
    });
    expect(requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      "GET /jwt/auth 200",
      "GET /api/v4/groups 200",
      "GET /api/v4/groups/1 200",
      "GET /v2/_catalog 200",
      "GET /v2/_catalog 200",
      "GET /v2/_catalog 200",
    ]);
    const catalogQueries = server.emulator.requestLog.slice(-3).map((entry) => entry.query);
    expect(catalogQueries[0]).toBe("n=100");
    expect(catalogQueries[1]).toMatch(/^last=.+&n=100$/);
    const expected = [...DEFAULT_PATHS, ...Array.from({ length: EXTRA }, (_, i) => `acme/api/${imageName(i)}`)].sort();
    expect(catalog.map((repository) => repository.path)).toEqual(expected);
    expect(catalog[0]).toEqual({ path: expected[0], location: `${HOST}/${expected[0]}` });
  });

  it("limit reads only the pages it needs, at most 100 a page", async () => {
    const requests = await server.requestsDuring(async () => {
      expect((await getRegistryCatalog({ limit: 3 })).map((repository) => repository.path)).toEqual(["acme/api/img-000", "acme/api/img-001", "acme/api/img-002"]);
    });
    expect(requests.filter((request) => request.path === "/v2/_catalog")).toHaveLength(1);
    expect(server.emulator.requestLog.at(-1)!.query).toBe("n=3");
    expect(await getRegistryCatalog({ limit: 150 })).toHaveLength(150);
  });

  it("the Output form gives the same list", async () => {
    const paths = await new Promise<string[]>((resolve) => getRegistryCatalogOutput({ limit: 2 }).apply((catalog) => resolve(catalog.map((r) => r.path))));
    expect(paths).toEqual(["acme/api/img-000", "acme/api/img-001"]);
  });

  it("a user who is not an administrator is told so, and the registry is not asked", async () => {
    const requests = await server.requestsDuring(async () => {
      await expect(server.actingAs("alice", () => getRegistryCatalog())).rejects.toThrow(
        /^getRegistryCatalog: the token's user needs administrator rights on the instance: the server's token service granted no registry:catalog:\* access.*No registry request was sent\.$/,
      );
    });
    expect(requests.map((request) => request.path)).toEqual(["/jwt/auth"]);
  });

  it("a token the server does not accept is named as the setting to check, and nothing else is asked", async () => {
    const requests = await server.requestsDuring(async () => {
      await expect(getRegistryCatalog({}, { connection: { url: server.emulator.url, token: "glpat-not-a-token" } })).rejects.toThrow(
        /^getRegistryCatalog: GET \/jwt\/auth answered 401 \(HTTP Basic: Access denied\..*\): the server refused the token in platform:token \(or PLATFORM_TOKEN\): it is mistyped, expired or revoked;/,
      );
    });
    expect(requests.map((request) => request.path)).toEqual(["/jwt/auth"]);
  });

  it("a bad argument is refused before any request", async () => {
    const mark = server.emulator.mark();
    await expect(getRegistryCatalog({ limit: 0 })).rejects.toThrow(/^getRegistryCatalog: invalid arguments: limit: .*No request was sent\.$/);
    await expect(getRegistryCatalog({ limt: 5 } as never)).rejects.toThrow(/limt: unknown property; did you mean limit\?/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("a registry that refuses the token is named, and the token is in no message", async () => {
    server.emulator.inject({ method: "GET", path: "/v2/_catalog", status: 401, body: { errors: [{ code: "UNAUTHORIZED", message: "authentication required" }] } });
    const failure = await getRegistryCatalog().catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(new RegExp(`^getRegistryCatalog: the registry at http://${HOST.replace(/\./g, "\\.")} refused the catalog token`));
    // A registry token is a JWT: its header starts with these characters in base64url.
    expect((failure as Error).message).not.toMatch(/eyJ/);
    expect((failure as Error).message).not.toContain(tokenOf(server.emulator, "root"));
  });

  it("a server whose projects name no registry host is explained, and no registry is asked", async () => {
    // A group's real answer, with projects that show no registry prefix.
    const group = (await fetch(`${server.emulator.url}/api/v4/groups/acme?with_projects=true`, { headers: { "PRIVATE-TOKEN": tokenOf(server.emulator, "root") } }).then((answer) =>
      answer.json(),
    )) as { projects: Record<string, unknown>[] };
    const projects = group.projects.map(({ container_registry_image_prefix: _prefix, ...project }) => project);
    server.emulator.inject({ method: "GET", path: /^\/api\/v4\/groups\/\d+$/, times: 50, status: 200, body: { ...group, projects } });
    try {
      const requests = await server.requestsDuring(async () => {
        await expect(getRegistryCatalog()).rejects.toThrow(
          /^getRegistryCatalog: the server names no container registry: none of the \d+ projects of its groups shows a container_registry_image_prefix/,
        );
      });
      expect(requests.some((request) => request.path.startsWith("/v2/"))).toBe(false);
    } finally {
      server.emulator.clearFaults();
    }
  });
});

describe("getRegistryCatalog on a server without a registry", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: seedNaming("unused.example.test", { enabled: false }) });
    return () => emulator.stop();
  });

  it("says the server has no registry, after one request", async () => {
    const mark = emulator.mark();
    await expect(getRegistryCatalog({}, { connection: { url: emulator.url, token: tokenOf(emulator, "root") } })).rejects.toThrow(
      /^getRegistryCatalog: the server has no container registry: GET \/jwt\/auth answered 404 \(registry not enabled\)/,
    );
    expect(emulator.requestsSince(mark).map((request) => request.path)).toEqual(["/jwt/auth"]);
  });
});

describe("getRegistryCatalog when the registry token expires part way through", () => {
  it("takes a fresh token once and goes on from the last path read", async () => {
    const port = await freePort();
    const start = Date.parse("2024-06-01T00:00:00.000Z");
    let emulator: Emulator | undefined;
    // Once the first catalog page is served, the clock moves past the first token's five minutes.
    const clock = () => start + (emulator?.requestLog.some((request) => request.path === "/v2/_catalog" && request.status === 200) ? 301_000 : 0);
    emulator = await startEmulator({ port, seed: seedNaming(`127.0.0.1:${port}`), clock });
    try {
      const mark = emulator.mark();
      const catalog = await getRegistryCatalog({}, { connection: { url: emulator.url, token: tokenOf(emulator, "root") } });
      expect(catalog).toHaveLength(DEFAULT_PATHS.length + EXTRA);
      expect(new Set(catalog.map((repository) => repository.path)).size).toBe(catalog.length);
      const requests = emulator.requestsSince(mark);
      expect(requests.map((request) => `${request.path} ${request.status}`)).toEqual([
        "/jwt/auth 200",
        "/api/v4/groups 200",
        "/api/v4/groups/1 200",
        "/v2/_catalog 200",
        "/v2/_catalog 401",
        "/jwt/auth 200",
        "/v2/_catalog 200",
        "/v2/_catalog 200",
      ]);
      // The renewed read starts after the last path of the first page, as the failed page did.
      expect(requests[6]!.query).toBe(requests[4]!.query);
    } finally {
      await emulator.stop();
    }
  });
});
