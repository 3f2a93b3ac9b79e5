/**
 * CI/CD variables in the emulator: a project's, a group's and the instance's,
 * with the server's rules (key, masking, hidden, scopes by tier, key and
 * scope unique, the limits) and roles (Maintainer, Owner, administrator).
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, selfManagedSeed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const web = `/projects/${encodeURIComponent("acme/web")}/variables`;
const acme = "/groups/acme/variables";
const beta = "/groups/beta/variables";
const post = (path: string, body: object, as = "root") => call(server.emulator, path, { method: "POST", body, as });

const server = useEmulator({ seed: defaultSeed });

describe("project variables", () => {
  it("creates, lists, reads, updates and deletes; the defaults as the docs give them", async () => {
    const made = await post(web, { key: "DEPLOY_ENV", value: "staging" });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      variable_type: "env_var", key: "DEPLOY_ENV", value: "staging", hidden: false, protected: false, masked: false, raw: false, environment_scope: "*", description: null,
    });
    expect((await call(server.emulator, web)).body.map((v: { key: string }) => v.key)).toContain("DEPLOY_ENV");
    const changed = await call(server.emulator, `${web}/DEPLOY_ENV`, { method: "PUT", body: { value: "production", protected: true, description: "where" } });
    expect(changed.body).toMatchObject({ value: "production", protected: true, description: "where" });
    expect((await call(server.emulator, `${web}/DEPLOY_ENV`)).body.value).toBe("production");
    expect((await call(server.emulator, `${web}/DEPLOY_ENV`, { method: "DELETE" })).status).toBe(204);
    expect(await call(server.emulator, `${web}/DEPLOY_ENV`)).toMatchObject({ status: 404, body: { message: "404 Variable Not Found" } });
  });

  it("a key is unique per environment scope; two of one key need filter[environment_scope]", async () => {
    expect((await post(web, { key: "SCOPED", value: "a", environment_scope: "production" })).status).toBe(201);
    expect((await post(web, { key: "SCOPED", value: "b", environment_scope: "review/*" })).status).toBe(201);
    expect(await post(web, { key: "SCOPED", value: "c", environment_scope: "production" })).toMatchObject({ status: 400, body: { message: { key: ["(SCOPED) has already been taken"] } } });
    expect(await call(server.emulator, `${web}/SCOPED`)).toMatchObject({ status: 409, body: { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" } });
    const one = await call(server.emulator, `${web}/SCOPED?filter%5Benvironment_scope%5D=${encodeURIComponent("review/*")}`);
    expect(one.body).toMatchObject({ value: "b", environment_scope: "review/*" });
    const put = await call(server.emulator, `${web}/SCOPED`, { method: "PUT", body: { value: "b2", filter: { environment_scope: "review/*" } } });
    expect(put.body).toMatchObject({ value: "b2", environment_scope: "review/*" });
    expect((await call(server.emulator, `${web}/SCOPED?filter%5Benvironment_scope%5D=production`, { method: "DELETE" })).status).toBe(204);
    expect((await call(server.emulator, `${web}/SCOPED`)).body).toMatchObject({ value: "b2" });
  });

  it("refuses a bad key, a value a mask cannot hide, and hidden without masked", async () => {
    expect(await post(web, { key: "BAD-KEY", value: "x" })).toMatchObject({ status: 400, body: { message: { key: ["can contain only letters, digits and '_'."] } } });
    expect(await post(web, { key: "K".repeat(256), value: "x" })).toMatchObject({ status: 400, body: { message: { key: ["is too long (maximum is 255 characters)"] } } });
    expect(await post(web, { key: "SHORT", value: "short", masked: true })).toMatchObject({ status: 400, body: { message: { value: ["is invalid"] } } });
    expect(await post(web, { key: "SPACED", value: "has a space", masked: true, raw: true })).toMatchObject({ status: 400, body: { message: { value: ["is invalid"] } } });
    expect(await post(web, { key: "DOLLAR", value: "pa$$word!", masked: true })).toMatchObject({ status: 400 });
    expect((await post(web, { key: "DOLLAR", value: "pa$$word!", masked: true, raw: true })).status).toBe(201);
    expect(await post(web, { key: "VARTYPE", value: "x", variable_type: "yaml" })).toMatchObject({ status: 400, body: { error: "variable_type does not have a valid value" } });
    expect(await post(web, { key: "LONG", value: "v".repeat(10_001) })).toMatchObject({ status: 400, body: { message: { value: ["is too long (maximum is 10000 characters)"] } } });
  });

  it("a hidden variable's value is never shown again, and its masking stays", async () => {
    const made = await post(web, { key: "HIDDEN_TOKEN", value: "s3cr3t-value-123", masked_and_hidden: true });
    expect(made.body).toMatchObject({ value: null, hidden: true, masked: true });
    expect((await call(server.emulator, `${web}/HIDDEN_TOKEN`)).body.value).toBeNull();
    expect((await call(server.emulator, web)).body.find((v: { key: string }) => v.key === "HIDDEN_TOKEN").value).toBeNull();
    const unmask = await call(server.emulator, `${web}/HIDDEN_TOKEN`, { method: "PUT", body: { masked: false } });
    expect(unmask).toMatchObject({ status: 400, body: { message: { base: ["Updating masked attribute is not allowed on updates for hidden variables."] } } });
    // The value itself may change; it stays unshown.
    expect((await call(server.emulator, `${web}/HIDDEN_TOKEN`, { method: "PUT", body: { value: "an0ther-value-456" } })).body.value).toBeNull();
  });

  it("needs a Maintainer: 403 for a Developer, 404 for who cannot see the project", async () => {
    expect((await call(server.emulator, web, { as: "maintainer" })).status).toBe(200);
    expect((await call(server.emulator, web, { as: "dev" })).status).toBe(403);
    expect((await post(web, { key: "BY_DEV", value: "x" }, "dev")).status).toBe(403);
    expect((await call(server.emulator, web, { as: "outsider" })).status).toBe(404);
  });
});

describe("group variables", () => {
  it("need the Owner; a Maintainer is refused", async () => {
    expect((await post(acme, { key: "GROUP_VAR", value: "x" }, "maintainer")).status).toBe(403);
    expect((await post(acme, { key: "GROUP_VAR", value: "x" }, "alice")).status).toBe(201);
    expect(await call(server.emulator, `${acme}/NOPE`)).toMatchObject({ status: 404, body: { message: "404 GroupVariable Not Found" } });
  });

  it("have environment scopes from Premium; a Free group's variables are all of scope *", async () => {
    expect((await post(acme, { key: "SCOPED", value: "x", environment_scope: "production" })).body.environment_scope).toBe("production");
    expect((await post(beta, { key: "SCOPED", value: "x", environment_scope: "production" })).body.environment_scope).toBe("*");
    expect(await post(beta, { key: "SCOPED", value: "y", environment_scope: "staging" })).toMatchObject({ status: 400, body: { message: { key: ["(SCOPED) has already been taken"] } } });
  });

  it("filter[environment_scope] narrows on every tier; a blank one is no filter", async () => {
    expect((await post(beta, { key: "FREE_FILTER", value: "x" })).status).toBe(201);
    const scoped = (scope: string) => `${beta}/FREE_FILTER?filter%5Benvironment_scope%5D=${encodeURIComponent(scope)}`;
    expect(await call(server.emulator, scoped("production"))).toMatchObject({ status: 404, body: { message: "404 GroupVariable Not Found" } });
    expect((await call(server.emulator, scoped("production"), { method: "DELETE" })).status).toBe(404);
    expect((await call(server.emulator, scoped("*"))).body).toMatchObject({ key: "FREE_FILTER", value: "x" });
    expect((await call(server.emulator, scoped(""))).body).toMatchObject({ key: "FREE_FILTER", value: "x" });
  });

  it("PUT without a filter, or with one that matches none, changes the first variable of the key", async () => {
    expect((await post(acme, { key: "FIRST_OF_KEY", value: "one", environment_scope: "production" })).status).toBe(201);
    expect((await post(acme, { key: "FIRST_OF_KEY", value: "two", environment_scope: "staging" })).status).toBe(201);
    const unfiltered = await call(server.emulator, `${acme}/FIRST_OF_KEY`, { method: "PUT", body: { value: "one-b" } });
    expect(unfiltered).toMatchObject({ status: 200, body: { value: "one-b", environment_scope: "production" } });
    const unmatched = await call(server.emulator, `${acme}/FIRST_OF_KEY`, { method: "PUT", body: { value: "one-c", filter: { environment_scope: "review/*" } } });
    expect(unmatched).toMatchObject({ status: 200, body: { value: "one-c", environment_scope: "production" } });
    const matched = await call(server.emulator, `${acme}/FIRST_OF_KEY`, { method: "PUT", body: { value: "two-b", filter: { environment_scope: "staging" } } });
    expect(matched.body).toMatchObject({ value: "two-b", environment_scope: "staging" });
    // Reads and removals still need the filter.
    expect((await call(server.emulator, `${acme}/FIRST_OF_KEY`)).status).toBe(409);
    expect(await call(server.emulator, `${acme}/NO_SUCH_KEY`, { method: "PUT", body: { value: "x" } })).toMatchObject({ status: 404, body: { message: "404 GroupVariable Not Found" } });
  });
});

describe("instance variables", () => {
  it("do not exist on the hosted offering", async () => {
    expect((await call(server.emulator, "/admin/ci/variables")).status).toBe(404);
  });
});

describe("instance variables (self-managed)", () => {
  const selfManaged = useEmulator({ seed: selfManagedSeed });
  const path = "/admin/ci/variables";
  it("administrators only; no hidden, no scope; the key unique; at most 25", async () => {
    expect((await call(selfManaged.emulator, path, { as: "alice" })).status).toBe(403);
    const made = await call(selfManaged.emulator, path, { method: "POST", body: { key: "SHARED", value: "v", environment_scope: "production", masked_and_hidden: true } });
    expect(made.body).toEqual({ variable_type: "env_var", key: "SHARED", value: "v", protected: false, masked: false, raw: false, description: null });
    expect((await call(selfManaged.emulator, path, { method: "POST", body: { key: "SHARED", value: "w" } })).body).toEqual({ message: { key: ["(SHARED) has already been taken"] } });
    for (let n = 1; n < 25; n++) expect((await call(selfManaged.emulator, path, { method: "POST", body: { key: `V${n}`, value: "v" } })).status).toBe(201);
    const full = await call(selfManaged.emulator, path, { method: "POST", body: { key: "ONE_MORE", value: "v" } });
    expect(full).toMatchObject({ status: 400, body: { message: { base: ["Maximum number of instance ci variables (25) exceeded"] } } });
    expect((await call(selfManaged.emulator, `${path}/SHARED`, { method: "DELETE" })).status).toBe(204);
    expect(await call(selfManaged.emulator, `${path}/SHARED`)).toMatchObject({ status: 404, body: { message: "404 InstanceVariable Not Found" } });
  });
});
