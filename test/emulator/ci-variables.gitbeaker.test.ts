/**
 * CI/CD variables driven by @gitbeaker/rest (`ProjectVariables`,
 * `GroupVariables`, `InstanceLevelCICDVariables`): the answers decode into its
 * types, two scopes of one key are told apart by its `filter`, and a hidden
 * value stays unshown.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { selfManagedSeed } from "../../src/emulator";
import { useEmulator } from "./helpers";

const server = useEmulator({ seed: selfManagedSeed });
const api = () => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens.root! });
const status = (error: unknown) => (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;

describe("@gitbeaker/rest CI/CD variables", () => {
  it("a project's variables in two scopes: create, show, edit and remove each by its filter", async () => {
    await api().ProjectVariables.create("acme/web", "TARGET", "eu-production", { environmentScope: "production", masked: true });
    await api().ProjectVariables.create("acme/web", "TARGET", "eu-review", { environmentScope: "review/*" });
    expect(status(await api().ProjectVariables.show("acme/web", "TARGET").catch((error: unknown) => error))).toBe(409);
    const review = await api().ProjectVariables.show("acme/web", "TARGET", { filter: { environment_scope: "review/*" } });
    expect(review).toMatchObject({ key: "TARGET", value: "eu-review", environment_scope: "review/*" });
    const edited = await api().ProjectVariables.edit("acme/web", "TARGET", "eu-review-2", { filter: { environment_scope: "review/*" }, protected: true });
    expect(edited).toMatchObject({ value: "eu-review-2", protected: true, environment_scope: "review/*" });
    await api().ProjectVariables.remove("acme/web", "TARGET", { filter: { environment_scope: "production" } });
    expect((await api().ProjectVariables.all("acme/web")).filter((v) => v.key === "TARGET").map((v) => v.environment_scope)).toEqual(["review/*"]);
  });

  it("a group's variables, and a masked value the server cannot mask refused", async () => {
    const made = await api().GroupVariables.create("acme", "MIRROR", "https://mirror.example.com", { description: "the mirror" });
    expect(made).toMatchObject({ key: "MIRROR", value: "https://mirror.example.com", description: "the mirror", environment_scope: "*" });
    expect(status(await api().GroupVariables.create("acme", "SHORT", "short", { masked: true }).catch((error: unknown) => error))).toBe(400);
    expect((await api().GroupVariables.all("acme")).map((v) => v.key)).toEqual(["MIRROR"]);
  });

  it("the instance's variables", async () => {
    await api().InstanceLevelCICDVariables.create("HTTPS_PROXY", "http://proxy.internal:3128");
    expect(await api().InstanceLevelCICDVariables.show("HTTPS_PROXY")).toMatchObject({ key: "HTTPS_PROXY", value: "http://proxy.internal:3128" });
    expect((await api().InstanceLevelCICDVariables.edit("HTTPS_PROXY", "http://proxy2.internal:3128")).value).toBe("http://proxy2.internal:3128");
    // (This client's `remove` sends a GET, so the list is read instead.)
    expect((await api().InstanceLevelCICDVariables.all()).map((v) => v.key)).toEqual(["HTTPS_PROXY"]);
  });
});
