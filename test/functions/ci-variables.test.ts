/** getProjectVariables, getGroupVariables and getInstanceVariables against the emulator. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, getGroupVariables, getInstanceVariables, getProjectVariables, getProjectVariablesOutput } from "pulumi-platform";
import { selfManagedSeed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const server = useEmulator({ seed: selfManagedSeed });
const web = apiPath`/projects/${"acme/web"}/variables`;

async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await new Promise<T>((resolve) => output.apply((inner) => resolve(inner)));
  return { value, secret: await pulumi.isSecret(output) };
}

beforeAll(async () => {
  await server.configureProviders();
  await server.as().post(web, { key: "DEPLOY_TOKEN", value: "planted-variable-secret", masked: true, environment_scope: "production" });
  await server.as().post(web, { key: "DEPLOY_TOKEN", value: "review-secret-value", environment_scope: "review/*" });
  await server.as().post(web, { key: "HIDDEN_KEY", value: "never-shown-again", masked_and_hidden: true });
  for (let n = 0; n < 110; n++) await server.as().post(apiPath`/groups/${"acme"}/variables`, { key: `GROUP_${n}`, value: `value-${n}` });
  await server.as().post("/admin/ci/variables", { key: "HTTPS_PROXY", value: "http://proxy.internal:3128" });
});

describe("getProjectVariables", () => {
  it("every scope of each key, camelCased; a hidden value is null", async () => {
    const variables = await getProjectVariables({ project: "acme/web" });
    expect(variables).toEqual([
      { variableType: "env_var", key: "DEPLOY_TOKEN", value: "planted-variable-secret", hidden: false, protected: false, masked: true, raw: false, environmentScope: "production", description: null },
      expect.objectContaining({ key: "DEPLOY_TOKEN", environmentScope: "review/*" }),
      expect.objectContaining({ key: "HIDDEN_KEY", value: null, hidden: true }),
    ]);
  });

  it("the Output form is secret", async () => {
    const { value, secret } = await settle(getProjectVariablesOutput({ project: "acme/web" }));
    expect(value).toHaveLength(3);
    expect(secret).toBe(true);
  });

  it("a Developer is refused with the role the list needs", async () => {
    await expect(server.actingAs("dev", () => getProjectVariables({ project: "acme/web" }))).rejects.toThrow(/getProjectVariables: .*403.*Maintainer/);
  });
});

describe("getGroupVariables and getInstanceVariables", () => {
  it("a group's variables across pages, 100 a request", async () => {
    const requests = await server.requestsDuring(async () => expect(await getGroupVariables({ group: "acme" })).toHaveLength(110));
    expect(requests).toHaveLength(2);
  });

  it("the instance's, for an administrator; without scope or hidden", async () => {
    expect(await getInstanceVariables({})).toEqual([{ variableType: "env_var", key: "HTTPS_PROXY", value: "http://proxy.internal:3128", protected: false, masked: false, raw: false, description: null }]);
    await expect(server.actingAs("alice", () => getInstanceVariables({}))).rejects.toThrow(/403.*administrator/);
  });
});
