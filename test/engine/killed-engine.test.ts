/**
 * What the provider does when the Pulumi engine has ended (src/engine/engine-end.ts), and how a create the
 * killed run left pending is told made or not (src/engine/pending-creates.ts), against the emulator.
 */
import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { useEmulator } from "../support";

// Node's own copies, which the package's providers use (the watch and the connection are state of their modules).
const load = createRequire(__filename);
const { resetEngineWatch, watchEngine } = load("../../dist/engine/engine-end.js") as typeof import("../../dist/engine/engine-end");
const { lookUpPendingCreate } = load("../../dist/engine/pending-creates.js") as typeof import("../../dist/engine/pending-creates");
const { definitions } = load("../../dist/resources/index.js") as typeof import("../../dist/resources");

const server = useEmulator();

const badge = (name: string) => ({ project: "acme/web", name, linkUrl: `https://ci.example.com/${name}`, imageUrl: `https://img.example.com/${name}.svg` });
const posts = (since: number) => server.emulator.requestsSince(since).filter((entry) => entry.method === "POST");

afterEach(() => {
  resetEngineWatch();
  server.emulator.setFaultPlan(undefined);
});

describe("when the engine has ended", () => {
  it("a write under way finishes, none starts after, and the process exits once the operation is over", async () => {
    await server.configureProviders();
    const input = new PassThrough();
    let exits = 0;
    // The check before each write says when the POST leaves: the engine goes right then, not after a guessed wait.
    let leaving!: () => void;
    const left = new Promise<void>((resolve) => (leaving = resolve));
    watchEngine({ input, engineAlive: () => (leaving(), true), exit: () => exits++, graceMs: 60_000 });
    // The emulator holds the POST (and logs it once answered): the engine goes while it is under way.
    server.emulator.setFaultPlan({ slowMs: 600, rules: [{ method: "POST", rate: 1, kinds: ["slow"] }] });
    const mark = server.emulator.mark();

    const underWay = providers.Badge.create(badge("under-way"));
    await left;
    expect(posts(mark)).toHaveLength(0);
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toBe(0);
    const made = await underWay;
    expect(made.id).toMatch(/^projects\/acme%2Fweb\/badges\/\d+$/);
    expect(exits).toBe(1);

    await expect(providers.Badge.create(badge("after"))).rejects.toThrow(/not sent, because the Pulumi engine that asked for it has ended/);
    expect(posts(mark)).toHaveLength(1);
  });

  it("a request waiting to leave is refused before it is sent, retries included", async () => {
    await server.configureProviders();
    const input = new PassThrough();
    watchEngine({ input, exit: () => undefined, graceMs: 60_000 });
    // The first attempt fails before the server applies it; the retry would be sent after the engine is gone.
    server.emulator.setFaultPlan({ rules: [{ method: "POST", sequence: ["connection-reset"] }] });
    const mark = server.emulator.mark();
    const create = providers.Badge.create(badge("retried"));
    while (posts(mark).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    input.end();
    const error = await create.then(() => undefined, (failure: unknown) => failure);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/POST \/projects\/acme%2Fweb\/badges: not sent, because the Pulumi engine that asked for it has ended/);
    expect(posts(mark)).toHaveLength(1);
  });

  it("a write is refused once the engine is seen gone by the check before it, before the stream ends", async () => {
    await server.configureProviders();
    let alive = true;
    watchEngine({ input: new PassThrough(), engineAlive: () => alive, exit: () => undefined, graceMs: 60_000 });
    const mark = server.emulator.mark();
    await providers.Badge.create(badge("while-alive"));
    alive = false;
    await expect(providers.Badge.create(badge("after-death"))).rejects.toThrow(/POST \/projects\/acme%2Fweb\/badges: not sent/);
    expect(posts(mark)).toHaveLength(1);
  });
});

describe("a create the killed run left pending", () => {
  it("is found by the resource's own lookup when it made its object, and sends no write", async () => {
    await server.configureProviders();
    const made = await providers.Badge.create(badge("made"));
    const mark = server.emulator.mark();
    const inputs = { ...badge("made"), __provider: "stub" };
    expect(await lookUpPendingCreate(definitions.Badge, inputs)).toEqual({ made: true, id: made.id });
    // Another image is another badge: not the one this create would have made.
    expect(await lookUpPendingCreate(definitions.Badge, { ...inputs, imageUrl: "https://img.example.com/other.svg" })).toEqual({ made: false });
    expect(server.emulator.requestsSince(mark).filter((entry) => entry.method !== "GET")).toEqual([]);
  });

  it("cannot be told where the lookup compares with what existed before the create", async () => {
    await server.configureProviders();
    const found = await lookUpPendingCreate(definitions.ErrorTrackingClientKey, { project: "acme/web" });
    expect(found).toMatchObject({ made: "unknown" });
  });
});
