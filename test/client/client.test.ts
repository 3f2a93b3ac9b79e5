import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ApiError, NetworkError, PlatformClient, apiPath } from "pulumi-platform";
import { SkippingClock, tokenOf, untilLogged, useClientClock, useEmulator } from "../support";

// The clients' waits (backoff, Retry-After, the rate-limit gate) pass at once on a clock the emulators share;
// the tests read how long something took on it, so a wait skipped counts as if it had been waited.
const clock = new SkippingClock();
const server = useEmulator({ clock: clock.now });
useClientClock(clock);

interface Badge {
  id: number;
  name: string | null;
  link_url: string;
  image_url: string;
  kind: string;
}

const badgesOf = (project: string) => apiPath`/projects/${project}/badges`;

function fastClient(overrides: Partial<ConstructorParameters<typeof PlatformClient>[0]> = {}): PlatformClient {
  return new PlatformClient({ url: server.emulator.url, token: tokenOf(server.emulator, "root"), retryBaseDelayMs: 10, ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("requests", () => {
  it("sends the token and encodes full paths in the URL", async () => {
    const requests = await server.requestsDuring(async () => {
      const project = await fastClient().get<{ path_with_namespace: string }>(apiPath`/projects/${"acme/web"}`);
      expect(project.path_with_namespace).toBe("acme/web");
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/projects/acme%2Fweb", status: 200 }]);
  });

  it("sends JSON bodies and reads JSON answers", async () => {
    const client = fastClient();
    const created = await client.post<Badge>(badgesOf("acme/web"), { link_url: "https://a.example/x", image_url: "https://a.example/x.svg", name: "json-body" });
    expect(created).toMatchObject({ name: "json-body", link_url: "https://a.example/x", kind: "project" });
    await client.delete(apiPath`/projects/${"acme/web"}/badges/${created.id}`);
  });

  it("follows the redirect of a renamed project to its new path", async () => {
    const former = server.emulator.state.projects.find((project) => project.formerPaths.length > 0);
    expect(former, "the default seed has a renamed project").toBeDefined();
    const requests = await server.requestsDuring(async () => {
      const project = await fastClient().get<{ id: number }>(apiPath`/projects/${former!.formerPaths[0]!}`);
      expect(project.id).toBe(former!.id);
    });
    expect(requests.map((r) => r.status)).toEqual([301, 200]);
  });
});

describe("errors", () => {
  it("a missing project: 404 with the server's message and what it likely means", async () => {
    const error = await failure(fastClient().get(apiPath`/projects/${"acme/nothing-here"}`));
    expect(error.status).toBe(404);
    expect(error.kind).toBe("not-found");
    expect(error.serverMessage).toBe("404 Project Not Found");
    expect(error.notFoundSubject).toBe("Project");
    expect(error.message).toContain("GET /projects/acme%2Fnothing-here failed with 404: 404 Project Not Found.");
    expect(error.message).toContain("cannot see it");
  });

  it("an unknown route: the `error` body shape, not a missing object", async () => {
    const error = await failure(fastClient().get("/no/such/route"));
    expect(error.status).toBe(404);
    expect(error.errorKey).toBe(true);
    expect(error.notFoundSubject).toBeUndefined();
  });

  it("a missing badge: `404 Not found` names no owner", async () => {
    const error = await failure(fastClient().get(apiPath`/projects/${"acme/web"}/badges/999999`));
    expect(error.notFoundSubject).toBe("");
  });

  it("field validation errors: {message: {field: [...]}} as 400", async () => {
    const error = await failure(fastClient().post(badgesOf("acme/web"), { link_url: "not a url", image_url: "https://a.example/i.svg" }));
    expect(error.status).toBe(400);
    expect(error.kind).toBe("validation");
    expect(error.fieldErrors).toEqual({ link_url: ["must be a valid URL"] });
    expect(error.message).toContain("link_url must be a valid URL");
  });

  it("parameter errors: {error: ...} as 400", async () => {
    const error = await failure(fastClient().post(badgesOf("acme/web"), { image_url: "https://a.example/i.svg" }));
    expect(error.status).toBe(400);
    expect(error.serverMessage).toBe("link_url is missing");
    expect(error.errorKey).toBe(true);
  });

  it("a bad token: 401 says the token was refused, where it is set and what to do", async () => {
    const client = new PlatformClient({ url: server.emulator.url, token: "glpat-not-a-real-token" });
    const error = await failure(client.get(apiPath`/projects/${"acme/web"}`));
    expect(error.status).toBe(401);
    expect(error.message).toBe(
      "GET /projects/acme%2Fweb failed with 401: 401 Unauthorized. The server refused the token in platform:token (or PLATFORM_TOKEN): " +
        "it is mistyped, expired or revoked; set a valid one with `pulumi config set --secret platform:token <token>`.",
    );
    expect(error.message).not.toContain("glpat-not-a-real-token");
  });

  it("a 401 that says the token expired is read as that", () => {
    // Real servers answer an expired personal access token with `{"error":"invalid_token","error_description":"Token has expired."}`.
    const error = new ApiError({ status: 401, method: "GET", path: "/user", serverMessage: "invalid_token (Token has expired.)", errorKey: true });
    expect(error.message).toBe(
      "GET /user failed with 401: invalid_token (Token has expired.). The token in platform:token (or PLATFORM_TOKEN) has expired (the server said so); " +
        "set a valid one with `pulumi config set --secret platform:token <token>`.",
    );
  });

  it("a role too low: 403 says so", async () => {
    const developer = server.as("dev");
    const error = await failure(developer.post(badgesOf("acme/web"), { link_url: "https://a.example", image_url: "https://a.example/i.svg" }));
    expect(error.status).toBe(403);
    expect(error.kind).toBe("forbidden");
    expect(error.message).toContain("role");
  });

  it("a proxy's HTML error page becomes its title and headings, not markup", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "GET", path: "/api/v4/version", sequence: ["error-502", "error-504"] }] });
    const error = await failure(fastClient({ maxAttempts: 2 }).get("/version"));
    server.emulator.setFaultPlan(undefined);
    expect(error.status).toBe(504);
    expect(error.serverMessage).toBe("504 Gateway Time-out (an HTML page from a proxy in front of the API)");
    expect(error.message).not.toMatch(/[<>]/);
  });

  it("422 is a validation failure too, and plain-text bodies are read as the message", async () => {
    server.emulator.inject({ method: "GET", path: "/api/v4/version", status: 422, body: "ref is ambiguous\n", headers: { "content-type": "text/plain" } });
    const error = await failure(fastClient().get("/version"));
    expect(error.kind).toBe("validation");
    expect(error.serverMessage).toBe("ref is ambiguous");
  });

  it("a nested {message: {error: ...}} body (endpoint rate limiter) is flattened", async () => {
    server.emulator.inject({ method: "GET", path: "/api/v4/version", status: 400, body: { message: { error: "This endpoint has been requested too many times." } } });
    const error = await failure(fastClient().get("/version"));
    expect(error.serverMessage).toBe("This endpoint has been requested too many times.");
  });
});

describe("retries", () => {
  it("retries 502, 503, 504 and 408 on a GET until it succeeds", async () => {
    for (const status of [502, 503, 504, 408]) server.emulator.inject({ method: "GET", path: "/api/v4/version", status });
    const requests = await server.requestsDuring(() => fastClient().get("/version"));
    expect(requests.map((r) => r.status)).toEqual([502, 503, 504, 408, 200]);
  });

  it("retries a dropped connection", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "GET", path: "/api/v4/version", sequence: ["connection-reset"] }] });
    const requests = await server.requestsDuring(() => fastClient().get("/version"));
    expect(requests).toHaveLength(2);
    expect(requests[1]!.status).toBe(200);
  });

  it("honours Retry-After on a 429", async () => {
    server.emulator.inject({ method: "GET", path: "/api/v4/version", status: 429, headers: { "retry-after": "1" }, body: "Retry later\n" });
    const started = clock.now();
    await fastClient().get("/version");
    expect(clock.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("honours RateLimit-Reset when there is no Retry-After", async () => {
    const reset = Math.ceil(clock.now() / 1000) + 1;
    server.emulator.inject({ method: "GET", path: "/api/v4/version", status: 429, headers: { "ratelimit-reset": String(reset) } });
    await fastClient().get("/version");
    expect(clock.now()).toBeGreaterThanOrEqual(reset * 1000 - 50);
  });

  it("gives up after the attempt limit, with the last error", async () => {
    server.emulator.inject({ method: "GET", path: "/api/v4/version", status: 503, times: 10 });
    const requests = await server.requestsDuring(async () => {
      const error = await failure(fastClient({ maxAttempts: 3 }).get("/version"));
      expect(error.status).toBe(503);
    });
    server.emulator.clearFaults();
    expect(requests).toHaveLength(3);
  });

  it("a server that keeps failing gives an error within the retry time, saying how long it tried", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "GET", path: "/api/v4/version", rate: 1, kinds: ["error-502", "error-503", "request-timeout"] }] });
    const started = clock.now();
    const error = await failure(fastClient({ maxAttempts: 1_000, retryTimeoutMs: 1_500 }).get("/version"));
    const elapsed = clock.now() - started;
    server.emulator.setFaultPlan(undefined);
    // A bound on a hang, not a speed requirement: the deadline is 1.5 s.
    expect(elapsed).toBeLessThan(4_000);
    expect([502, 503, 408]).toContain(error.status);
    expect(error.message).toMatch(/Gave up after \d+ attempts in [\d.]+s \(retries stop after platform:retryTimeout, now 1.5s\)/);
  });

  it("a server that never answers in time: each attempt is cut to the deadline", async () => {
    server.emulator.setFaultPlan({ slowMs: 20_000, rules: [{ method: "GET", path: "/api/v4/version", rate: 1, kinds: ["slow"] }] });
    const mark = server.emulator.mark();
    const started = clock.now();
    const error = await fastClient({ retryTimeoutMs: 1_500 })
      .get("/version")
      .catch((e: unknown) => e);
    const elapsed = clock.now() - started;
    server.emulator.setFaultPlan(undefined);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain("platform:retryTimeout");
    expect(elapsed).toBeLessThan(4_000);
    // Every attempt the message counts reached the server, was abandoned and never handled.
    const attempts = Number(/Gave up after (\d+) attempt/.exec((error as Error).message)?.[1]);
    await untilLogged(() => expect(server.emulator.requestsSince(mark)).toHaveLength(attempts));
    expect(server.emulator.requestsSince(mark).every((entry) => entry.fault === "slow" && !entry.handled)).toBe(true);
  });

  it("a 429 with no wait hint (an application rate limit) backs off exponentially by its own count, and gets through", async () => {
    server.emulator.inject({ method: "GET", path: "/api/v4/version", status: 429, body: { message: "This endpoint has been requested too many times. Try again later." }, times: 6 });
    const mark = server.emulator.mark();
    await fastClient({ retryBaseDelayMs: 40 }).get("/version");
    const requests = server.emulator.requestsSince(mark);
    expect(requests.map((r) => r.status)).toEqual([429, 429, 429, 429, 429, 429, 200]);
    // Each wait is at least half of base * 2^(n-1): 20, 40, 80, 160, 320 ms (n = 1..5; the first retry waits base/2 at least).
    const gaps = requests.slice(1).map((r, i) => r.time - requests[i]!.time);
    for (const [n, gap] of gaps.slice(1).entries()) expect(gap).toBeGreaterThanOrEqual(Math.floor(20 * 2 ** n) - 5);
  });

  it("does not wait beyond its time budget: a long Retry-After fails at once and says how long", async () => {
    server.emulator.inject({ method: "GET", path: "/api/v4/version", status: 429, headers: { "retry-after": "600" } });
    const requests = await server.requestsDuring(async () => {
      const error = await failure(fastClient({ retryTimeoutMs: 2_000 }).get("/version"));
      expect(error.kind).toBe("rate-limited");
      expect(error.message).toContain("600s");
    });
    expect(requests).toHaveLength(1);
  });

  it("paces itself by the server's RateLimit headers: a throttled server is not hammered", async () => {
    const limited = await import("pulumi-platform/emulator").then((m) => m.startEmulator({ port: 0, rateLimit: { requests: 3, periodSeconds: 1 }, clock: clock.now }));
    try {
      const client = new PlatformClient({ url: limited.url, token: tokenOf(limited, "root"), retryBaseDelayMs: 10 });
      await Promise.all(Array.from({ length: 10 }, () => client.get("/version")));
      expect(limited.requestLog.filter((r) => r.status === 200)).toHaveLength(10);
      // The first answer tells the client the window's allowance; after that it waits for each window instead of being refused.
      expect(limited.requestLog.filter((r) => r.status === 429).length).toBeLessThanOrEqual(1);
      const windows = new Set(limited.requestLog.map((r) => Math.floor(r.time / 1000)));
      expect(windows.size).toBeGreaterThanOrEqual(4);
    } finally {
      await limited.stop();
    }
  });

  for (const [where, skewMs] of [["ahead of", 30_000], ["behind", -30_000]] as const) {
    it(`paces itself just as well when the server's clock is 30 s ${where} ours (read from its Date header)`, async () => {
      const limited = await import("pulumi-platform/emulator").then((m) =>
        m.startEmulator({ port: 0, rateLimit: { requests: 3, periodSeconds: 1 }, clock: () => clock.now() + skewMs }),
      );
      try {
        const client = new PlatformClient({ url: limited.url, token: tokenOf(limited, "root"), retryBaseDelayMs: 10 });
        const started = clock.now();
        await Promise.all(Array.from({ length: 10 }, () => client.get("/version")));
        expect(limited.requestLog.filter((r) => r.status === 200)).toHaveLength(10);
        // The Date header has whole seconds, so a window's end is known to half a second: at most one early request per window.
        expect(limited.requestLog.filter((r) => r.status === 429).length).toBeLessThanOrEqual(4);
        // A few one-second windows: a reset read on the wrong clock would wait 30 s, or probe one request at a time.
        expect(clock.now() - started).toBeLessThan(10_000);
      } finally {
        await limited.stop();
      }
    });
  }

  it("retries a PUT on a 502", async () => {
    const client = fastClient();
    const badge = await client.post<Badge>(badgesOf("acme/web"), { link_url: "https://a.example/put", image_url: "https://a.example/put.svg" });
    server.emulator.inject({ method: "PUT", path: /\/badges\//, status: 502 });
    const updated = await client.put<Badge>(apiPath`/projects/${"acme/web"}/badges/${badge.id}`, { name: "after-502" });
    expect(updated.name).toBe("after-502");
    await client.delete(apiPath`/projects/${"acme/web"}/badges/${badge.id}`);
  });

  it("times out a request that does not answer, and retries it", async () => {
    server.emulator.setFaultPlan({ slowMs: 1_500, rules: [{ method: "GET", path: "/api/v4/version", sequence: ["slow"] }] });
    const requests = await server.requestsDuring(() => fastClient({ requestTimeoutMs: 300 }).get("/version"));
    expect(requests.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
  });

  it("a request that never gets an answer ends in a NetworkError that says what to check", async () => {
    const client = new PlatformClient({ url: "http://127.0.0.1:9", token: "t", maxAttempts: 2, retryBaseDelayMs: 10 });
    const error = await client.get("/version").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain("platform:url");
  });
});

describe("POST retries never duplicate", () => {
  const body = (name: string) => ({ link_url: `https://a.example/${name}`, image_url: `https://a.example/${name}.svg`, name });
  const findByName = (client: PlatformClient, name: string) => () =>
    client.find<Badge>(badgesOf("acme/web"), { name }, (badge) => badge.kind === "project");

  it("a lost response: the object the first attempt created is found, not created again", async () => {
    const client = fastClient();
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/badges$/, sequence: ["commit-then-error"] }] });
    const requests = await server.requestsDuring(async () => {
      const created = await client.post<Badge>(badgesOf("acme/web"), body("lost-response"), findByName(client, "lost-response"));
      expect(created.name).toBe("lost-response");
    });
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(await client.list<Badge>(badgesOf("acme/web"), { name: "lost-response" })).toHaveLength(1);
  });

  it("a dropped connection after the server acted: found, not duplicated", async () => {
    const client = fastClient();
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/badges$/, sequence: ["commit-then-reset"] }] });
    await client.post<Badge>(badgesOf("acme/web"), body("dropped"), findByName(client, "dropped"));
    expect(await client.list<Badge>(badgesOf("acme/web"), { name: "dropped" })).toHaveLength(1);
  });

  it("an attempt that did not create anything is sent again", async () => {
    const client = fastClient();
    server.emulator.inject({ method: "POST", path: /\/badges$/, status: 502 });
    const requests = await server.requestsDuring(() => client.post<Badge>(badgesOf("acme/web"), body("not-created"), findByName(client, "not-created")));
    expect(requests.filter((r) => r.method === "POST").map((r) => r.status)).toEqual([502, 201]);
    expect(await client.list<Badge>(badgesOf("acme/web"), { name: "not-created" })).toHaveLength(1);
  });

  it("when the lookup fails too, the error is the POST's, says it could not be checked, and ends by the POST's deadline", async () => {
    const client = fastClient({ retryTimeoutMs: 1_500 });
    server.emulator.setFaultPlan({
      rules: [
        { method: "POST", path: /\/badges$/, sequence: ["commit-then-error"], status: 502 },
        { method: "GET", path: /\/badges$/, rate: 1, kinds: ["error-503"] },
      ],
    });
    const started = clock.now();
    const error = await failure(client.post<Badge>(badgesOf("acme/web"), body("lookup-fails"), findByName(client, "lookup-fails")));
    const elapsed = clock.now() - started;
    server.emulator.setFaultPlan(undefined);
    expect(error.method).toBe("POST");
    expect(error.status).toBe(502);
    expect(error.message).toContain("Whether the server created it anyway could not be checked");
    expect(error.message).toContain("GET /projects/acme%2Fweb/badges failed with 503");
    // The lookup had what was left of the POST's 1.5 s, not a deadline of its own (a bound on a hang, not a speed test).
    expect(elapsed).toBeLessThan(3_000);
  });

  it("without a way to check, an unsure POST is not retried", async () => {
    const client = fastClient();
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/badges$/, sequence: ["commit-then-error"], status: 504 }] });
    const requests = await server.requestsDuring(async () => {
      await failure(client.post(badgesOf("acme/web"), body("unchecked")));
    });
    expect(requests).toHaveLength(1);
  });

  it("a 429 means the POST was not processed: it is simply sent again", async () => {
    const client = fastClient();
    server.emulator.inject({ method: "POST", path: /\/badges$/, status: 429, headers: { "retry-after": "0" } });
    const requests = await server.requestsDuring(() => client.post(badgesOf("acme/web"), body("after-429")));
    expect(requests.map((r) => r.status)).toEqual([429, 201]);
  });
});

describe("pagination", () => {
  it("follows Link rel=next across pages with per_page=100", async () => {
    const client = fastClient();
    const project = "acme/api";
    await Promise.all(
      Array.from({ length: 230 }, (_, i) =>
        client.post(badgesOf(project), { link_url: `https://a.example/p${i}`, image_url: `https://a.example/p${i}.svg`, name: `page-${i}` }),
      ),
    );
    const requests = await server.requestsDuring(async () => {
      const all = await client.list<Badge>(badgesOf(project));
      expect(all.filter((badge) => badge.name?.startsWith("page-"))).toHaveLength(230);
      expect(new Set(all.map((badge) => badge.id)).size).toBe(all.length);
    });
    expect(requests).toHaveLength(3);
    const pageQueries = server.emulator.requestLog.slice(-3).map((entry) => new URLSearchParams(entry.query));
    expect(pageQueries.map((query) => [query.get("page"), query.get("per_page")])).toEqual([
      [null, "100"],
      ["2", "100"],
      ["3", "100"],
    ]);
  });

  it("find stops reading pages once it has a match", async () => {
    const requests = await server.requestsDuring(async () => {
      const found = await fastClient().find<Badge>(badgesOf("acme/api"), undefined, () => true);
      expect(found).toBeDefined();
    });
    expect(requests).toHaveLength(1);
  });

  it("follows a keyset cursor link as given", async () => {
    const next = `${server.emulator.url}/api/v4/projects/acme%2Fapi/badges?cursor=eyJpZCI6MX0&pagination=keyset&per_page=100`;
    // Two scripted pages: the first points to the second by cursor, the second ends the collection.
    server.emulator.inject({ method: "GET", path: "/api/v4/projects/acme%2Fapi/badges", status: 200, body: [{ id: -1 }], headers: { link: `<${next}>; rel="next"` } });
    server.emulator.inject({ method: "GET", path: "/api/v4/projects/acme%2Fapi/badges", status: 200, body: [{ id: -2 }] });
    const requests = await server.requestsDuring(async () => {
      const all = await fastClient().list<Badge>(badgesOf("acme/api"), { pagination: "keyset", order_by: "id", sort: "asc" });
      expect(all.map((badge) => badge.id)).toEqual([-1, -2]);
    });
    expect(requests).toHaveLength(2);
    expect(server.emulator.requestLog.at(-1)!.query).toContain("cursor=eyJpZCI6MX0");
  });
});

describe("downloads", () => {
  // Bytes that are not valid UTF-8: reading the body as text would change them.
  const image = Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3])]);

  it("returns the file's exact bytes, type and name", async () => {
    const client = fastClient();
    await client.putForm(apiPath`/groups/${"beta"}`, { avatar: { filename: "logo mark.png", content: image, contentType: "image/png" } });
    try {
      const file = await client.download(apiPath`/groups/${"beta"}/avatar`);
      expect(file.content.equals(image)).toBe(true);
      expect(file).toMatchObject({ contentType: "image/png", filename: "logo mark.png" });
    } finally {
      await client.put(apiPath`/groups/${"beta"}`, { avatar: null });
    }
  });

  it("follows a redirect to another host (object storage) without the token; other requests still refuse it", async () => {
    let seen: IncomingHttpHeaders | undefined;
    const storage = createServer((request, response) => {
      seen = request.headers;
      response.writeHead(200, { "content-type": "image/png; charset=binary", "content-disposition": "attachment; filename*=UTF-8''caf%C3%A9.png" });
      response.end(image);
    });
    await new Promise<void>((resolve) => storage.listen(0, "127.0.0.1", resolve));
    // The same machine under another name is another origin, as a storage host would be.
    const signed = `http://localhost:${(storage.address() as AddressInfo).port}/bucket/avatar.png?signature=abc`;
    try {
      server.emulator.inject({ method: "GET", path: "/api/v4/groups/beta/avatar", status: 302, headers: { location: signed } });
      const file = await fastClient().download(apiPath`/groups/${"beta"}/avatar`);
      expect(file.content.equals(image)).toBe(true);
      expect(file).toMatchObject({ contentType: "image/png", filename: "café.png" });
      expect(seen).toBeDefined();
      expect(seen!["private-token"]).toBeUndefined();

      seen = undefined;
      server.emulator.inject({ method: "GET", path: "/api/v4/version", status: 302, headers: { location: signed } });
      await expect(fastClient().get(apiPath`/version`)).rejects.toThrow(/another host.*refusing to send the token/);
      expect(seen).toBeUndefined();
    } finally {
      await new Promise((resolve) => storage.close(resolve));
    }
  });
});
