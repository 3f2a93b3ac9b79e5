/**
 * An input the program gives as a secret (`pulumi.secret(...)`) reaches the
 * dynamic provider plain (the host accepts no secrets): the resource class
 * sends the names of those inputs in the engine's envelope (`secretInputs`,
 * src/engine/envelope.ts), and the provider treats them as secret wherever a
 * property's own `secret` trait applies: a takeover and its warning name the
 * field only, and every message is masked of its new and recorded values.
 * Through `providers.<Name>` against the emulator; the whole path through the
 * real CLI is test/e2e/secret-inputs.e2e.test.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { resourceProps } from "../../dist/engine/resource";
import { badgeDefinition } from "../../dist/resources/badge";
import { warn } from "../../dist/engine/engine-log";
import { failureOf, useEmulator } from "../support";

const server = useEmulator();
const OLD = "https://scan.example.com/?key=OLDSECRET-1234";
const NEW = "https://scan.example.com/?key=NEWSECRET-5678";
const IMAGE = "https://scan.example.com/badge.svg";

// check reads the object it takes over only with the verification at preview on.
beforeAll(() => server.configureProviders("root", { "platform:verifyAtPreview": "true" }));
afterEach(() => vi.restoreAllMocks());

function settled<T>(value: unknown): Promise<T> {
  return new Promise((resolve) => (value as pulumi.Output<T>).apply((v) => resolve(v)));
}

describe("the resource class names the inputs given as secrets, never their values", () => {
  it("a secret linkUrl is listed; a plain program sends no list", async () => {
    const props = resourceProps(badgeDefinition, { project: "acme/web", name: "scan", linkUrl: pulumi.secret(NEW), imageUrl: pulumi.output(IMAGE) });
    expect(await settled<string[]>((props.__engine as { secretInputs: unknown }).secretInputs)).toEqual(["linkUrl"]);
    expect(resourceProps(badgeDefinition, { project: "acme/web", name: "scan", linkUrl: NEW, imageUrl: IMAGE })).not.toHaveProperty("__engine");
  });
});

describe("the provider treats a property given as a secret as secret", () => {
  it("a takeover over an existing badge: the field is named, the old and new values appear in neither the takeover nor the warning", async () => {
    const existing = await server.as().post<{ id: number }>(apiPath`/projects/${"acme/web"}/badges`, { name: "scan", link_url: OLD, image_url: IMAGE });
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const inputs = { project: "acme/web", name: "scan", linkUrl: NEW, imageUrl: IMAGE, adoptExisting: true, __engine: { secretInputs: ["linkUrl"] } };
    const checked = await providers.Badge.check({}, inputs);
    expect(checked.failures ?? []).toEqual([]);
    expect((checked.inputs.takeover as { overwrites: unknown }).overwrites).toEqual({ linkUrl: "[secret]" });
    // Kept for the later operations of the resource (update, delete, refresh), names only.
    expect(checked.inputs.__engine).toEqual({ secretInputs: ["linkUrl"] });
    const warned = warnings.mock.calls.map((call) => String(call[0])).join("\n");
    expect(warned).toContain("linkUrl (secret, not shown)");
    expect(JSON.stringify(checked.inputs.takeover) + warned).not.toMatch(/OLDSECRET|NEWSECRET/);

    // A server that repeats the secret, and the value it replaces, in its refusal: both masked in the error.
    server.emulator.inject({ method: "PUT", path: `/projects/acme%2Fweb/badges/${existing.id}`, status: 400, body: { message: { link_url: [`${NEW} is blocked (was ${OLD})`] } } });
    const error = await failureOf(() => providers.Badge.create(checked.inputs));
    expect(error.message).toContain("[secret] is blocked (was [secret])");
    expect(`${error.message}\n${error.stack}`).not.toMatch(/OLDSECRET|NEWSECRET/);
  });

  it("an update's error is masked of the new value and the recorded one", async () => {
    const checked = await providers.Badge.check({}, { project: "acme/web", name: "upd", linkUrl: OLD, imageUrl: IMAGE, __engine: { secretInputs: ["linkUrl"] } });
    const created = await providers.Badge.create(checked.inputs);
    const olds = { ...checked.inputs, ...created.outs };
    const next = await providers.Badge.check(olds, { project: "acme/web", name: "upd", linkUrl: NEW, imageUrl: IMAGE, __engine: { secretInputs: ["linkUrl"] } });
    server.emulator.inject({ method: "PUT", path: `/projects/acme%2Fweb/badges/${(created.outs as { badgeId: number }).badgeId}`, status: 400, body: { message: { link_url: [`${NEW} replaces ${OLD}`] } } });
    const error = await failureOf(() => providers.Badge.update(created.id, olds, next.inputs));
    expect(error.message).toContain("[secret] replaces [secret]");
    expect(`${error.message}\n${error.stack}`).not.toMatch(/OLDSECRET|NEWSECRET/);
  });

  it("an exclusive set's record of the badges it would remove shows the value another resource gave as a secret masked", async () => {
    const link = "https://scan.example.com/?key=STRAYSECRET-9012";
    await providers.Badge.create((await providers.Badge.check({}, { group: "beta", name: "stray", linkUrl: link, imageUrl: IMAGE, __engine: { secretInputs: ["linkUrl"] } })).inputs);
    const checked = await providers.ExclusiveBadges.check({}, { group: "beta", keep: [] });
    const created = await providers.ExclusiveBadges.create(checked.inputs);
    const { props } = await providers.ExclusiveBadges.read(created.id, { ...checked.inputs, ...created.outs });
    expect(props!.unexpected).toEqual([expect.objectContaining({ name: "stray", linkUrl: "[secret]" })]);
    expect(JSON.stringify(props)).not.toContain("STRAYSECRET");
  });

  it("a warning of the process that quotes a value given as a secret shows it masked", async () => {
    const link = "https://scan.example.com/?key=WARNSECRET-3456";
    await providers.Badge.check({}, { project: "acme/web", name: "warned", linkUrl: link, imageUrl: IMAGE, __engine: { secretInputs: ["linkUrl"] } });
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await warn(`the server answered: ${link} is unreachable`);
    expect(warnings.mock.calls.map((call) => String(call[0]))).toEqual(["warning: the server answered: [secret] is unreachable"]);
  });
});
