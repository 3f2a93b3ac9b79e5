/**
 * ProjectVariable, GroupVariable and InstanceVariable through the provider
 * objects Pulumi calls, against the emulator over HTTP: create, refresh (a
 * value changed by hand is drift of it, never shown), update, replace,
 * delete, takeover, a hidden variable's value, and the preview's refusals.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { selfManagedSeed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const server = useEmulator();
const variable = providers.ProjectVariable;
const groupVariable = providers.GroupVariable;

type Args = Record<string, unknown>;
const web = apiPath`/projects/${"acme/web"}/variables`;
let counter = 0;
const uniqueKey = () => `VAR_${++counter}_${Math.random().toString(36).slice(2, 6).toUpperCase()}`;

async function createWith(provider: typeof variable, inputs: Args) {
  const checked = await provider.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await provider.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Args, outs: created.outs as Args };
}
const create = (overrides: Args = {}) => createWith(variable, { project: "acme/web", key: uniqueKey(), value: "first-value", ...overrides });
const onServer = (key: string, scope = "*") => server.as().get<{ value: string | null; protected: boolean; environment_scope: string }>(`${web}/${key}`, { "filter[environment_scope]": scope });

beforeAll(async () => {
  await server.configureProviders();
});

describe("check (preview), before any request", () => {
  it("refuses a key, a masked value or hidden the server would refuse, naming the property and never the value", async () => {
    const requests = await server.requestsDuring(async () => {
      const badKey = await variable.check({}, { project: "acme/web", key: "BAD-KEY", value: "x" });
      expect(badKey.failures?.map((f) => f.reason).join()).toMatch(/key: may hold only letters, digits and _/);
      const short = await variable.check({}, { project: "acme/web", key: "SHORT", value: "s3cr", masked: true });
      expect(short.failures?.[0]?.reason).toMatch(/value: a masked value must be at least 8 characters long \(the value is not shown\)/);
      expect(JSON.stringify(short.failures)).not.toContain("s3cr");
      const spaced = await variable.check({}, { project: "acme/web", key: "SPACED", value: "pass word!", masked: true });
      expect(spaced.failures?.[0]?.reason).toMatch(/value: a masked value \(not raw\) may hold only/);
      expect(JSON.stringify(spaced.failures)).not.toContain("pass word");
      const hidden = await variable.check({}, { project: "acme/web", key: "HIDDEN", value: "long-enough-value", hidden: true });
      expect(hidden.failures?.[0]?.reason).toMatch(/hidden: a hidden variable must be masked: set masked: true/);
      const scope = await variable.check({}, { project: "acme/web", key: "SCOPED", value: "v", environmentScope: "prod;rm" });
      expect(scope.failures?.[0]?.reason).toMatch(/environmentScope: may hold only letters/);
    });
    expect(requests).toEqual([]);
  });

  it("a masked raw value may hold any characters but whitespace", async () => {
    expect((await variable.check({}, { project: "acme/web", key: "RAW", value: "pa$$word!%", masked: true, raw: true })).failures ?? []).toEqual([]);
  });
});

describe("lifecycle", () => {
  it("create sends one POST and records the value as declared, its id the key and scope", async () => {
    let made: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      made = await create({ environmentScope: "review/*", protected: true });
    });
    expect(requests).toEqual([{ method: "POST", path: "/api/v4/projects/acme%2Fweb/variables", status: 201 }]);
    const { id, inputs, outs } = made!;
    expect(id).toBe(`projects/acme%2Fweb/variables/${inputs.key}/review%2F*`);
    expect(outs).toMatchObject({ key: inputs.key, value: "first-value", environmentScope: "review/*", protected: true, masked: false, hidden: false, valueReadable: true });
    expect((await onServer(inputs.key as string, "review/*")).value).toBe("first-value");
  });

  it("no change against its own state; a new value updates in place (one PUT, the scope as its filter), named as a secret change", async () => {
    const { id, inputs, outs } = await create({ environmentScope: "production" });
    expect(await variable.diff(id, outs, inputs)).toMatchObject({ changes: false, replaces: [] });
    const changed = { ...inputs, value: "second-value", description: "the deploy target" };
    // A secret changed: "changes unknown", so the CLI compares (and masks) the inputs itself.
    expect(await variable.diff(id, outs, changed)).toMatchObject({ changes: undefined, replaces: [] });
    const requests = await server.requestsDuring(async () => {
      expect((await variable.update(id, outs, changed)).outs).toMatchObject({ value: "second-value", description: "the deploy target" });
    });
    expect(requests).toEqual([{ method: "PUT", path: `/api/v4/projects/acme%2Fweb/variables/${inputs.key}`, status: 200 }]);
    expect((await onServer(inputs.key as string, "production")).value).toBe("second-value");
  });

  it("a change of key, scope or hidden replaces the variable; the same key and scope goes first", async () => {
    const { id, inputs, outs } = await create();
    expect(await variable.diff(id, outs, { ...inputs, key: "OTHER_KEY" })).toMatchObject({ replaces: ["key"], deleteBeforeReplace: false });
    expect(await variable.diff(id, outs, { ...inputs, environmentScope: "staging" })).toMatchObject({ replaces: ["environmentScope"] });
    expect(await variable.diff(id, outs, { ...inputs, hidden: true, masked: true, value: "long-enough-value" })).toMatchObject({ replaces: ["hidden"], deleteBeforeReplace: true });
  });

  it("a value changed by hand is drift of that value: the refresh names it and the next diff puts it back", async () => {
    const { id, inputs, outs } = await create();
    await server.as().put(`${web}/${inputs.key}`, { value: "changed-by-hand" });
    const requests = await server.requestsDuring(async () => {
      const refreshed = await variable.read(id, outs);
      expect(refreshed.props).toMatchObject({ value: "changed-by-hand", __secretsChanged: ["value"] });
      expect(refreshed.props).not.toHaveProperty("__secretsUnread");
      expect(refreshed.inputs).toMatchObject({ value: "changed-by-hand" });
      expect(await variable.diff(id, refreshed.props!, inputs)).toMatchObject({ changes: undefined, replaces: [] });
    });
    expect(requests).toEqual([{ method: "GET", path: `/api/v4/projects/acme%2Fweb/variables/${inputs.key}`, status: 200 }]);
    expect((await variable.read(id, outs)).props).toMatchObject({ __secretsChanged: ["value"] });
    // A refresh that finds the value last applied names nothing.
    await server.as().put(`${web}/${inputs.key}`, { value: "first-value" });
    expect((await variable.read(id, outs)).props).not.toHaveProperty("__secretsChanged");
  });

  it("a hidden variable's value is never read back: the state keeps the value applied, and valueReadable says it was not compared", async () => {
    const { id, inputs, outs } = await create({ masked: true, hidden: true, value: "hidden-value-1" });
    expect(outs).toMatchObject({ value: "hidden-value-1", hidden: true, masked: true, valueReadable: false });
    expect((await onServer(inputs.key as string)).value).toBeNull();
    await server.as().put(`${web}/${inputs.key}`, { value: "changed-unseen" });
    const refreshed = await variable.read(id, outs);
    expect(refreshed.props).toMatchObject({ value: "hidden-value-1", valueReadable: false, __secretsUnread: ["value"] });
    expect(refreshed.props).not.toHaveProperty("__secretsChanged");
    expect(await variable.diff(id, refreshed.props!, inputs)).toMatchObject({ changes: false });
  });

  it("two variables of one key in two scopes are each read, changed and deleted alone", async () => {
    const key = uniqueKey();
    const production = await create({ key, environmentScope: "production", value: "for-production" });
    const review = await create({ key, environmentScope: "review/*", value: "for-review" });
    await variable.update(review.id, review.outs, { ...review.inputs, protected: true });
    expect((await onServer(key, "production")).protected).toBe(false);
    await variable.delete(production.id, production.outs);
    expect((await variable.read(review.id, review.outs)).props).toMatchObject({ value: "for-review", protected: true });
    expect(await variable.read(production.id, production.outs)).toEqual({ id: "" });
  });

  it("delete sends one DELETE with the scope; deleting it again succeeds", async () => {
    const { id, inputs, outs } = await create();
    const requests = await server.requestsDuring(() => variable.delete(id, outs));
    expect(requests).toEqual([{ method: "DELETE", path: `/api/v4/projects/acme%2Fweb/variables/${inputs.key}`, status: 204 }]);
    await expect(variable.delete(id, outs)).resolves.toBeUndefined();
  });

  it("a lost answer to the POST makes no second variable", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "POST", path: /\/variables$/, sequence: ["commit-then-error"] }] });
    const { inputs } = await create();
    const all = await server.as().list<{ key: string }>(web);
    expect(all.filter((one) => one.key === inputs.key)).toHaveLength(1);
  });
});

describe("takeover by id (the import option)", () => {
  const imported = async (id: string, inputs: Args) => {
    const checked = await variable.check({}, { ...inputs, __engine: { importId: id } });
    expect(checked.failures ?? []).toEqual([]);
    return variable.create(checked.inputs);
  };

  it("takes a variable over, writing only what differs", async () => {
    const key = uniqueKey();
    await server.as().post(web, { key, value: "on-server", protected: true });
    const id = `projects/acme%2Fweb/variables/${key}/*`;
    const requests = await server.requestsDuring(() => imported(id, { project: "acme/web", key, value: "on-server", protected: true }));
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
  });

  it("a hidden variable's value is written, since what the server holds cannot be read", async () => {
    const key = uniqueKey();
    await server.as().post(web, { key, value: "unknown-value", masked_and_hidden: true });
    const id = `projects/acme%2Fweb/variables/${key}/*`;
    const requests = await server.requestsDuring(async () => {
      const created = await imported(id, { project: "acme/web", key, value: "declared-value", masked: true, hidden: true });
      expect(created.outs).toMatchObject({ value: "declared-value", valueReadable: false });
    });
    expect(requests.map((r) => r.method)).toEqual(["GET", "PUT"]);
  });
});

describe("the preview's checks on the server", () => {
  const verifying = async <T>(user: string, action: () => Promise<T>) => {
    await server.configureProviders(user, { "platform:verifyAtPreview": "true" });
    try {
      return await action();
    } finally {
      await server.configureProviders();
    }
  };

  it("a project's variables need a Maintainer; a group's the Owner", async () => {
    const asDev = await verifying("dev", () => variable.check({}, { project: "acme/web", key: uniqueKey(), value: "v" }));
    expect(asDev.failures?.[0]?.reason).toMatch(/Maintainer/);
    const asMaintainer = await verifying("maintainer", () => groupVariable.check({}, { group: "acme", key: uniqueKey(), value: "v" }));
    expect(asMaintainer.failures?.[0]?.reason).toMatch(/Owner/);
  });

  it("a scope other than * on a Free group is refused for its tier, naming environmentScope", async () => {
    const refused = await verifying("alice", () => groupVariable.check({}, { group: "beta", key: uniqueKey(), value: "v", environmentScope: "production" }));
    expect(refused.failures?.[0]?.reason).toMatch(/environmentScope: .*Premium/);
    const plain = await verifying("alice", () => groupVariable.check({}, { group: "beta", key: uniqueKey(), value: "v" }));
    expect(plain.failures ?? []).toEqual([]);
  });

  it("a variable of the same key and scope is named, with the id to take it over", async () => {
    const { inputs } = await create({ environmentScope: "production" });
    const again = await verifying("root", () => variable.check({}, { project: "acme/web", key: inputs.key, value: "x", environmentScope: "production" }));
    expect(again.failures?.[0]?.reason).toContain(`a variable ${inputs.key} of environment scope production already exists in project acme/web`);
    expect(again.failures?.[0]?.reason).toContain(`import: "projects/acme%2Fweb/variables/${inputs.key}/production"`);
    const otherScope = await verifying("root", () => variable.check({}, { project: "acme/web", key: inputs.key, value: "x", environmentScope: "staging" }));
    expect(otherScope.failures ?? []).toEqual([]);
  });
});

describe("group variables", () => {
  it("a Premium group's variable has its scope; the id names the group", async () => {
    const { id, outs } = await createWith(groupVariable, { group: "acme", key: uniqueKey(), value: "group-value", environmentScope: "production" });
    expect(id).toMatch(/^groups\/acme\/variables\/VAR_\w+\/production$/);
    expect(outs).toMatchObject({ environmentScope: "production", valueReadable: true });
    await groupVariable.delete(id, outs);
  });
});

describe("instance variables (self-managed)", () => {
  const selfManaged = useEmulator({ seed: selfManagedSeed });
  const instanceVariable = providers.InstanceVariable;
  beforeAll(async () => {
    await selfManaged.configureProviders();
  });

  it("create, drift of the value, update and delete", async () => {
    const { id, inputs, outs } = await createWith(instanceVariable, { key: "HTTPS_PROXY", value: "http://proxy.internal:3128" });
    expect(id).toBe("admin/ci/variables/HTTPS_PROXY");
    expect(outs).toMatchObject({ value: "http://proxy.internal:3128", valueReadable: true });
    await selfManaged.as().put("/admin/ci/variables/HTTPS_PROXY", { value: "http://elsewhere:3128" });
    expect((await instanceVariable.read(id, outs)).props).toMatchObject({ __secretsChanged: ["value"] });
    await instanceVariable.update(id, outs, { ...inputs, protected: true });
    await instanceVariable.delete(id, outs);
    expect(await instanceVariable.read(id, outs)).toEqual({ id: "" });
  });

  it("needs an administrator at preview", async () => {
    await selfManaged.configureProviders("alice", { "platform:verifyAtPreview": "true" });
    try {
      const refused = await instanceVariable.check({}, { key: "BY_ALICE", value: "v" });
      expect(refused.failures?.[0]?.reason).toMatch(/administrator/);
    } finally {
      await selfManaged.configureProviders();
    }
  });
});
