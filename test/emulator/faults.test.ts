import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  FAULT_KINDS,
  FaultPlanError,
  defaultSeed,
  faultCounts,
  startEmulator,
  type Emulator,
  type FaultKind,
  type FaultPlan,
  type RequestLogEntry,
} from "../../src/emulator";
import { call, useEmulator } from "./helpers";
import { whenOutput } from "../spawned";
import { untilLogged } from "../support";

// A clock the tests set, so that the rate-limit headers can be checked exactly.
const NOW = Date.parse("2025-03-01T12:00:00.400Z");
const server = useEmulator({ clock: () => NOW });

const badgeBody = (name: string) => ({ link_url: "https://f.example/l", image_url: "https://f.example/i.svg", name });

const badgeNames = async (emulator: Emulator = server.emulator): Promise<string[]> =>
  (await call(emulator, "/projects/acme%2Fweb/badges?per_page=100")).body.map((badge: { name: string }) => badge.name);

/** A plan whose one rule gives `kinds`, in order, to the next requests matching `method` and `path`. */
const sequencePlan = (path: string | RegExp, sequence: (FaultKind | "pass")[], method?: string): FaultPlan => ({
  rules: [{ method, path, sequence }],
});

/** The error of a request that got no HTTP answer (undici's `fetch failed`, with the socket error as cause). */
async function networkFailure(emulator: Emulator, path: string, init: RequestInit = {}): Promise<TypeError & { cause?: { code?: string } }> {
  const outcome: unknown = await fetch(emulator.apiUrl + path, {
    ...init,
    headers: { "PRIVATE-TOKEN": emulator.tokens.root!, "Content-Type": "application/json", ...init.headers },
  }).then(
    (response) => new Error(`answered ${response.status}`),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(TypeError);
  return outcome as TypeError & { cause?: { code?: string } };
}

/** The log entries of the requests `action` sent. */
async function logOf(action: () => Promise<unknown>): Promise<RequestLogEntry[]> {
  const mark = server.emulator.mark();
  await action();
  return server.emulator.requestsSince(mark);
}

const summary = ({ status, fault, handled }: RequestLogEntry) => ({ status, fault, handled });

describe("each fault kind's answer on the wire", () => {
  it("error-500: the API's own JSON error", async () => {
    server.emulator.setFaultPlan(sequencePlan("/version", ["error-500"]));
    const log = await logOf(async () => {
      const result = await call(server.emulator, "/version");
      expect(result.status).toBe(500);
      expect(result.headers.get("content-type")).toBe("application/json");
      expect(result.text).toBe('{"message":"500 Internal Server Error"}');
    });
    expect(log.map(summary)).toEqual([{ status: 500, fault: "error-500", handled: false }]);
  });

  it("error-502 and error-503: Workhorse's HTML error pages, not cacheable", async () => {
    server.emulator.setFaultPlan(sequencePlan("/version", ["error-502", "error-503"]));
    for (const [status, headline] of [
      [502, "Whoops, GitLab is taking too much time to respond."],
      [503, "Whoops, GitLab is currently unavailable."],
    ] as const) {
      const result = await call(server.emulator, "/version");
      expect(result.status).toBe(status);
      expect(result.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(result.headers.get("cache-control")).toBe("no-cache, no-store, max-age=0, must-revalidate");
      expect(result.text).toMatch(/^<!DOCTYPE html>\n<html>/);
      expect(result.text).toContain(`<title>GitLab is not responding (${status})</title>`);
      expect(result.text).toContain(`<h3>${headline}</h3>`);
    }
  });

  it("error-504: nginx's own page", async () => {
    server.emulator.setFaultPlan(sequencePlan("/version", ["error-504"]));
    const result = await call(server.emulator, "/version");
    expect(result.status).toBe(504);
    expect(result.headers.get("content-type")).toBe("text/html");
    expect(result.headers.get("server")).toBe("nginx");
    expect(result.text).toBe(
      "<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
    );
  });

  it("rate-limit: Rack::Attack's plain-text 429 whose Retry-After and RateLimit-Reset agree", async () => {
    server.emulator.setFaultPlan(sequencePlan("/version", ["rate-limit"]));
    const result = await call(server.emulator, "/version");
    expect(result.status).toBe(429);
    expect(result.headers.get("content-type")).toBe("text/plain");
    expect(result.text).toBe("Retry later\n");
    const nowSeconds = Math.floor(NOW / 1000);
    expect(Object.fromEntries([...result.headers].filter(([name]) => name.startsWith("ratelimit-") || name === "retry-after"))).toEqual({
      "ratelimit-name": "throttle_authenticated_api",
      "ratelimit-limit": "600",
      "ratelimit-observed": "11",
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(nowSeconds + 1),
      "ratelimit-resettime": new Date((nowSeconds + 1) * 1000).toUTCString(),
      "retry-after": "1",
    });
  });

  it("rate-limit-json: the endpoint limiter's JSON 429, without rate-limit headers", async () => {
    server.emulator.setFaultPlan(sequencePlan("/version", ["rate-limit-json"]));
    const result = await call(server.emulator, "/version");
    expect(result.status).toBe(429);
    expect(result.headers.get("content-type")).toBe("application/json");
    expect(result.body).toEqual({ message: { error: "This endpoint has been requested too many times. Try again later." } });
    expect([...result.headers.keys()].filter((name) => name.startsWith("ratelimit-") || name === "retry-after")).toEqual([]);
  });

  it("request-timeout: 408 with the API's statement-timeout body", async () => {
    server.emulator.setFaultPlan(sequencePlan("/version", ["request-timeout"]));
    const result = await call(server.emulator, "/version");
    expect(result.status).toBe(408);
    expect(result.body).toEqual({ message: { error: "Request timed out" } });
  });

  it.each([
    ["connection-reset", "before handling: the POST creates nothing", false],
    ["commit-then-reset", "after handling: the POST's badge exists", true],
  ] as const)("%s: a TCP reset %s", async (kind, _, committed) => {
    server.emulator.setFaultPlan(sequencePlan(/\/badges$/, [kind], "POST"));
    const log = await logOf(async () => {
      const error = await networkFailure(server.emulator, "/projects/acme%2Fweb/badges", { method: "POST", body: JSON.stringify(badgeBody(kind)) });
      expect(error.cause?.code).toBe("ECONNRESET");
    });
    expect(log.map(summary)).toEqual([{ status: 0, fault: kind, handled: committed }]);
    expect((await badgeNames()).includes(kind)).toBe(committed);
  });

  it("commit-then-error: the write is applied, then a 502 page (or the rule's 5xx) replaces the answer", async () => {
    server.emulator.setFaultPlan({
      rules: [
        { method: "POST", path: /\/badges$/, sequence: ["commit-then-error"], times: 1 },
        { method: "POST", path: /\/badges$/, sequence: ["commit-then-error"], status: 500 },
      ],
    });
    const log = await logOf(async () => {
      const first = await call(server.emulator, "/projects/acme%2Fweb/badges", { method: "POST", body: badgeBody("committed-502") });
      expect(first.status).toBe(502);
      expect(first.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const second = await call(server.emulator, "/projects/acme%2Fweb/badges", { method: "POST", body: badgeBody("committed-500") });
      expect(second.status).toBe(500);
      expect(second.body).toEqual({ message: "500 Internal Server Error" });
    });
    expect(log.map(summary)).toEqual([
      { status: 502, fault: "commit-then-error", handled: true },
      { status: 500, fault: "commit-then-error", handled: true },
    ]);
    expect(await badgeNames()).toEqual(expect.arrayContaining(["committed-502", "committed-500"]));
  });

  it("slow: a client that waits gets the real answer", async () => {
    server.emulator.setFaultPlan({ slowMs: 100, ...sequencePlan(/\/badges$/, ["slow"], "POST") });
    const log = await logOf(async () => {
      const result = await call(server.emulator, "/projects/acme%2Fweb/badges", { method: "POST", body: badgeBody("slow-but-waited") });
      expect(result.status).toBe(201);
    });
    expect(log.map(summary)).toEqual([{ status: 201, fault: "slow", handled: true }]);
    expect(await badgeNames()).toContain("slow-but-waited");
  });

  it("slow: the request of a client that hung up meanwhile is never handled", async () => {
    server.emulator.setFaultPlan({ slowMs: 60_000, ...sequencePlan(/\/badges$/, ["slow"], "POST") });
    const mark = server.emulator.mark();
    // The client hangs up once the whole request has left (not after a guessed time, which on a busy
    // machine could come before it was even sent): the emulator has it, and is holding it.
    const body = JSON.stringify(badgeBody("abandoned"));
    const request = httpRequest(`${server.emulator.apiUrl}/projects/acme%2Fweb/badges`, {
      method: "POST",
      headers: { "PRIVATE-TOKEN": server.emulator.tokens.root!, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
    });
    const answered = new Promise<string>((resolve) => {
      request.once("response", () => resolve("answered"));
      request.once("error", (error) => resolve(error.message));
    });
    await new Promise<void>((resolve) => request.end(body, resolve));
    request.destroy();
    expect(await answered).toBe("socket hang up");
    // The emulator notices the hang-up and logs the request then.
    await untilLogged(() => expect(server.emulator.requestsSince(mark).map(summary)).toEqual([{ status: 0, fault: "slow", handled: false }]));
    expect(await badgeNames()).not.toContain("abandoned");
  });

  it("applies only to API requests", async () => {
    server.emulator.setFaultPlan({ rules: [{ rate: 1, kinds: ["error-500"] }] });
    const outside = await fetch(`${server.emulator.url}/-/health`);
    expect(outside.status).toBe(404);
    expect((await call(server.emulator, "/version")).status).toBe(500);
    server.emulator.setFaultPlan(undefined);
    expect((await call(server.emulator, "/version")).status).toBe(200);
  });

  afterAll(() => server.emulator.clearFaults());
});

describe("sequences", () => {
  it("gives the kinds in order, lets 'pass' through, then lets everything through", async () => {
    server.emulator.setFaultPlan(sequencePlan("/api/v4/version", ["error-503", "pass", "rate-limit-json", "error-500"]));
    const log = await logOf(async () => {
      for (let i = 0; i < 5; i++) await call(server.emulator, "/version");
    });
    expect(log.map(({ status, fault }) => [status, fault])).toEqual([
      [503, "error-503"],
      [200, undefined],
      [429, "rate-limit-json"],
      [500, "error-500"],
      [200, undefined],
    ]);
  });

  it("a rule's times bounds the faults it injects", async () => {
    server.emulator.setFaultPlan({ rules: [{ path: "/version", rate: 1, kinds: ["error-502"], times: 2 }] });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(server.emulator, "/version")).status);
    expect(statuses).toEqual([502, 502, 200, 200]);
  });
});

describe("rates", () => {
  const QUICK_KINDS: FaultKind[] = ["error-500", "error-503", "rate-limit-json", "request-timeout"];

  /** The log of `count` GETs under `plan`. */
  async function logUnder(count: number, plan: FaultPlan): Promise<RequestLogEntry[]> {
    server.emulator.setFaultPlan(plan);
    return logOf(async () => {
      for (let i = 0; i < count; i++) await call(server.emulator, "/version");
    });
  }
  const faultsOf = (log: RequestLogEntry[]) => log.map((entry) => entry.fault ?? "-");

  it("are reproducible from the seed, and close to the rate", async () => {
    const plan = { seed: 42, rules: [{ rate: 0.2, kinds: QUICK_KINDS }] };
    const first = await logUnder(1000, plan);
    const again = await logUnder(1000, plan);
    const otherSeed = await logUnder(1000, { ...plan, seed: 43 });
    expect(faultsOf(again)).toEqual(faultsOf(first));
    expect(faultsOf(otherSeed)).not.toEqual(faultsOf(first));

    const counts = faultCounts(first);
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    console.log(`rate 0.2 over 1000 requests, seed 42: ${total} faults`, counts);
    expect(total).toBeGreaterThan(160);
    expect(total).toBeLessThan(240);
    for (const kind of QUICK_KINDS) expect(counts[kind]).toBeGreaterThan(20);
  });

  it("draw every kind when the rule names none", async () => {
    server.emulator.setFaultPlan({ seed: 7, slowMs: 1, rules: [{ path: "/version", rate: 1 }] });
    const log = await logOf(async () => {
      for (let i = 0; i < 200; i++) {
        await call(server.emulator, "/version").catch(() => undefined);
      }
    });
    const counts = faultCounts(log);
    expect(Object.keys(counts).sort()).toEqual([...FAULT_KINDS].sort());
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBe(200);
  });

  afterAll(() => server.emulator.clearFaults());
});

describe("matching requests to rules", () => {
  it("matches by method and by raw path, exact (with or without /api/v4) or a ^pattern", async () => {
    server.emulator.setFaultPlan({
      rules: [
        { method: "post", path: "^/api/v4/projects/[^/]+/badges$", rate: 1, kinds: ["error-500"] },
        { path: "/version", rate: 1, kinds: ["error-503"] },
      ],
    });
    expect((await call(server.emulator, "/projects/acme%2Fweb/badges")).status).toBe(200);
    expect((await call(server.emulator, "/projects/acme%2Fweb/badges", { method: "POST", body: badgeBody("never") })).status).toBe(500);
    expect((await call(server.emulator, "/version")).status).toBe(503);
    expect((await call(server.emulator, "/projects/acme%2Fweb")).status).toBe(200);
    server.emulator.setFaultPlan(undefined);
  });

  it("the first rule that matches and is not spent decides", async () => {
    server.emulator.setFaultPlan({
      rules: [
        { path: "/version", sequence: ["pass", "error-502"] },
        { rate: 1, kinds: ["error-500"] },
      ],
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(server.emulator, "/version")).status);
    expect(statuses).toEqual([200, 502, 500]);
    server.emulator.setFaultPlan(undefined);
  });
});

describe("place in the pipeline", () => {
  it("a fault before handling comes before the rate limiter, which does not count the request", async () => {
    const emulator = await startEmulator({ clock: () => NOW, rateLimit: { requests: 1, periodSeconds: 60 }, faults: sequencePlan("/version", ["error-503"]) });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await call(emulator, "/version")).status);
      expect(statuses).toEqual([503, 200, 429]);
    } finally {
      await emulator.stop();
    }
  });

  it("a fault after handling replaces whatever the application answered; handled says whether the handler ran", async () => {
    server.emulator.setFaultPlan(sequencePlan(/\/badges$/, ["commit-then-error", "commit-then-error", "commit-then-error"], "POST"));
    const log = await logOf(async () => {
      for (const request of [
        { body: badgeBody("committed-before-502") },
        { body: badgeBody("anonymous"), as: null },
        { body: { name: "without-urls" } },
      ]) {
        expect((await call(server.emulator, "/projects/acme%2Fweb/badges", { method: "POST", ...request })).status).toBe(502);
      }
    });
    // Only the first reached the handler: the second was refused before it (401), the third by its declared params (400).
    expect(log.map(summary)).toEqual([
      { status: 502, fault: "commit-then-error", handled: true },
      { status: 502, fault: "commit-then-error", handled: false },
      { status: 502, fault: "commit-then-error", handled: false },
    ]);
    expect(await badgeNames()).toContain("committed-before-502");
    expect(await badgeNames()).not.toContain("anonymous");
  });
});

describe("plan validation", () => {
  const problem = (plan: unknown): string => {
    try {
      server.emulator.setFaultPlan(plan as FaultPlan);
    } catch (error) {
      expect(error).toBeInstanceOf(FaultPlanError);
      return (error as Error).message;
    }
    throw new Error("the plan was accepted");
  };

  it.each([
    [{ rules: [{ rate: 0.1, kinds: ["error-501"] }] }, /^invalid fault plan: rules\[0\]\.kinds\[0\]: unknown fault kind "error-501" \(kinds: error-500, /],
    [{ rules: [{ sequence: ["pass", "timeout"] }] }, /rules\[0\]\.sequence\[1\]: unknown fault kind "timeout"/],
    [{ rules: [{ rate: 1.5 }] }, /rules\[0\]\.rate: rate must be between 0 and 1/],
    [{ rules: [{ rate: -0.1 }] }, /rules\[0\]\.rate: rate must be between 0 and 1/],
    [{ rules: [{ rate: 0.2, sequence: ["error-500"] }] }, /rules\[0\]: a rule takes either a rate or a sequence, not both/],
    [{ rules: [{ path: "/version" }] }, /rules\[0\]: a rule needs a rate \(0\.\.1\) or a sequence of kinds/],
    [{ rules: [{ sequence: ["error-500"], kinds: ["error-500"] }] }, /kinds go with a rate/],
    [{ rules: [{ path: "^/api/v4/(", rate: 1 }] }, /rules\[0\]\.path: path is not a valid regular expression/],
    [{ rules: [{ path: 7, rate: 1 }] }, /rules\[0\]\.path: path must be a string or a RegExp/],
    [{ rules: [{ rate: 1, kinds: ["error-500"], status: 504 }] }, /status is the answer of commit-then-error, which this rule never injects/],
    [{ rules: [{ sequence: ["commit-then-error"], status: 501 }] }, /status \(the answer of commit-then-error\) must be one of 500, 502, 503, 504/],
    [{ rules: [{ method: "FETCH", rate: 1 }] }, /rules\[0\]\.method: method must be one of GET, HEAD, POST, PUT, PATCH, DELETE/],
    [{ rules: [{ rate: 1, times: 0 }] }, /rules\[0\]\.times: times must be at least 1/],
    [{ rules: [{ rate: 1, every: 2 }] }, /rules\[0\]: Unrecognized key: "every"/],
    [{ slowMs: 0, rules: [] }, /slowMs: slowMs must be at least 1/],
    [{}, /^invalid fault plan: rules: rules must be a list of rules/],
  ])("%j is refused", (plan, message) => {
    expect(problem(plan)).toMatch(message);
  });

  it("a refused plan leaves the plan in force unchanged", async () => {
    server.emulator.setFaultPlan(sequencePlan("/version", ["error-503"]));
    expect(() => server.emulator.setFaultPlan({ rules: [{ rate: 2 }] })).toThrow(FaultPlanError);
    expect((await call(server.emulator, "/version")).status).toBe(503);
  });

  it("a bad plan in the options or the seed fails the start", async () => {
    await expect(startEmulator({ faults: { rules: [{ rate: 2 }] } })).rejects.toThrow(/^invalid fault plan: rules\[0\]\.rate/);
    await expect(startEmulator({ seed: { ...defaultSeed, faults: { rules: [{ sequence: [] }] } } })).rejects.toThrow(
      /^invalid fault plan in the seed \(faults\): rules\[0\]\.sequence: sequence must list at least one step/,
    );
  });
});

describe("injected answers", () => {
  it("replace the next matching answer as many times as asked, logged as injected", async () => {
    server.emulator.inject({ method: "GET", path: "/version", status: 503, body: { message: "down" }, headers: { "Retry-After": "2" }, times: 2 });
    const log = await logOf(async () => {
      const faulted = await call(server.emulator, "/version");
      expect(faulted.body).toEqual({ message: "down" });
      expect(faulted.headers.get("retry-after")).toBe("2");
      await call(server.emulator, "/version");
      await call(server.emulator, "/version");
    });
    expect(log.map(summary)).toEqual([
      { status: 503, fault: "injected", handled: false },
      { status: 503, fault: "injected", handled: false },
      { status: 200, fault: undefined, handled: true },
    ]);
  });

  it("match a RegExp against the raw, still encoded path, and only the given method", async () => {
    server.emulator.inject({ method: "POST", path: /\/projects\/acme%2Fweb\/badges$/, status: 500 });
    expect((await call(server.emulator, "/projects/acme%2Fweb/badges")).status).toBe(200);
    const post = await call(server.emulator, "/projects/acme%2Fweb/badges", { method: "POST", body: badgeBody("not-created") });
    expect(post.status).toBe(500);
    expect(await badgeNames()).not.toContain("not-created");
  });

  it("send a string body as text/plain", async () => {
    server.emulator.inject({ path: "/version", status: 429, body: "Retry later\n" });
    const result = await call(server.emulator, "/version");
    expect(result.text).toBe("Retry later\n");
    expect(result.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("come before the plan, and clearFaults removes both", async () => {
    server.emulator.setFaultPlan({ rules: [{ path: "/version", rate: 1, kinds: ["error-500"] }] });
    server.emulator.inject({ path: "/version", status: 418 });
    expect((await call(server.emulator, "/version")).status).toBe(418);
    expect((await call(server.emulator, "/version")).status).toBe(500);
    server.emulator.inject({ path: "/version", status: 418, times: 5 });
    server.emulator.clearFaults();
    expect((await call(server.emulator, "/version")).status).toBe(200);
  });

  it("refuse an answer without a valid status", () => {
    expect(() => server.emulator.inject({ body: "x" } as never)).toThrow(/needs a status/);
  });
});

describe("a plan from the options or the seed", () => {
  it("the seed's faults are in force from the start; a JSON seed writes patterns as ^strings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fault-seed-"));
    const seedFile = join(dir, "seed.json");
    writeFileSync(seedFile, JSON.stringify({ ...defaultSeed, faults: { rules: [{ method: "GET", path: "^/api/v4/vers", sequence: ["error-504"] }] } }));
    const emulator = await startEmulator({ seed: seedFile });
    try {
      expect((await call(emulator, "/version")).status).toBe(504);
      expect((await call(emulator, "/version")).status).toBe(200);
    } finally {
      await emulator.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the options' plan replaces the seed's", async () => {
    const emulator = await startEmulator({
      seed: { ...defaultSeed, faults: sequencePlan("/version", ["error-504"]) },
      faults: sequencePlan("/version", ["request-timeout"]),
    });
    try {
      expect((await call(emulator, "/version")).status).toBe(408);
    } finally {
      await emulator.stop();
    }
  });
});

describe("the command line", () => {
  const bin = resolve(__dirname, "../../dist/emulator/bin.js");
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  });

  /** Runs bin.js with `args`: the process, its output so far, its exit code, and its API URL once it listens. */
  function run(args: string[]) {
    const child = spawn(process.execPath, [bin, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const output = { stdout: "", stderr: "" };
    child.stdout!.on("data", (chunk: Buffer) => (output.stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    const listening = () =>
      whenOutput(child, () => {
        const url = /listening on (\S+)/.exec(output.stdout)?.[1];
        return url === undefined ? undefined : `${url}/api/v4`;
      });
    return { child, output, exited, listening };
  }

  it("--fault-rate 1 faults every API request, and says which kind in its log", async () => {
    const { child, output, exited, listening } = run(["--fault-rate", "1"]);
    const apiUrl = await listening();
    for (let i = 0; i < 4; i++) {
      // A slow answer is cut short: the test only needs each request to reach the emulator.
      await fetch(`${apiUrl}/version`, { headers: { "PRIVATE-TOKEN": "glpat-root-token" }, signal: AbortSignal.timeout(1_000) }).catch(() => undefined);
    }
    await whenOutput(child, () => ((output.stderr.match(/^GET \/api\/v4\/version → .*$/gm)?.length ?? 0) >= 4 ? true : undefined));
    expect(output.stderr.match(/^GET \/api\/v4\/version → .*$/gm)).toHaveLength(4);
    for (const line of output.stderr.match(/^GET \/api\/v4\/version → .*$/gm)!) {
      expect(line).toMatch(new RegExp(`\\(fault (${FAULT_KINDS.join("|")}), (handled|not handled)\\)$`));
    }
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("--faults plan.json puts that plan in force", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fault-plan-"));
    const planFile = join(dir, "plan.json");
    writeFileSync(planFile, JSON.stringify({ rules: [{ path: "/version", sequence: ["error-503"] }] }));
    const { child, exited, listening } = run(["--faults", planFile, "--quiet"]);
    try {
      const apiUrl = await listening();
      const version = () => fetch(`${apiUrl}/version`, { headers: { "PRIVATE-TOKEN": "glpat-root-token" } });
      expect((await version()).status).toBe(503);
      expect((await version()).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a bad rate or plan with a message and exit status 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fault-plan-"));
    const planFile = join(dir, "plan.json");
    writeFileSync(planFile, JSON.stringify({ rules: [{ rate: 0.5, kinds: ["error-418"] }] }));
    try {
      const badRate = run(["--fault-rate", "20%"]);
      expect(await badRate.exited).toBe(2);
      expect(badRate.output.stderr).toContain("--fault-rate takes a number from 0 to 1, e.g. 0.2; got 20%");
      const badPlan = run(["--faults", planFile]);
      expect(await badPlan.exited).toBe(2);
      expect(badPlan.output.stderr).toContain(`invalid fault plan ${planFile}: rules[0].kinds[0]: unknown fault kind "error-418"`);
      const both = run(["--faults", planFile, "--fault-rate", "0.1"]);
      expect(await both.exited).toBe(2);
      expect(both.output.stderr).toContain("give either --faults or --fault-rate, not both");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
