/** The protected environment lookups against the emulator: results in camelCase, the Output form, the refusals. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, getGroupProtectedEnvironments, getProtectedEnvironments, getProtectedEnvironmentsOutput } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();

const resolved = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

beforeAll(async () => {
  await server.as().post(apiPath`/projects/${"acme/web"}/protected_environments`, { name: "staging", deploy_access_levels: [{ access_level: 30 }] });
  await server.as().post(apiPath`/projects/${"acme/web"}/protected_environments`, { name: "production", deploy_access_levels: [{ access_level: 40 }], approval_rules: [{ access_level: 40, required_approvals: 2 }] });
  await server.as().post(apiPath`/groups/${"acme"}/protected_environments`, { name: "production", deploy_access_levels: [{ access_level: 40 }] });
  await server.configureProviders("maintainer");
});

describe("getProtectedEnvironments", () => {
  it("a project's rules by name, in camelCase, in one request", async () => {
    let rules: Awaited<ReturnType<typeof getProtectedEnvironments>> = [];
    const requests = await server.requestsDuring(async () => {
      rules = await getProtectedEnvironments({ project: "acme/web" });
    });
    expect(requests.map((request) => request.path)).toEqual(["/api/v4/projects/acme%2Fweb/protected_environments"]);
    expect(rules.map((rule) => rule.name)).toEqual(["production", "staging"]);
    expect(rules[0]).toMatchObject({
      deployAccessLevels: [{ accessLevel: 40, accessLevelDescription: "Maintainers", userId: null, groupId: null, groupInheritanceType: 0 }],
      requiredApprovalCount: 0,
      approvalRules: [{ accessLevel: 40, requiredApprovals: 2 }],
    });
    expect((await resolved(getProtectedEnvironmentsOutput({ project: "acme/web" }))).map((rule) => rule.name)).toEqual(["production", "staging"]);
  });

  it("a Developer is refused naming the Maintainer role", async () => {
    await server.configureProviders("dev");
    try {
      await expect(getProtectedEnvironments({ project: "acme/web" })).rejects.toThrow(/the protected environments of project acme\/web.*at least the Maintainer role/);
    } finally {
      await server.configureProviders("maintainer");
    }
  });
});

describe("getGroupProtectedEnvironments", () => {
  it("a group's rules, each named by its tier, for its Owner; a Maintainer is refused naming the Owner role", async () => {
    await expect(getGroupProtectedEnvironments({ group: "acme" })).rejects.toThrow(/the protected environments of group acme.*the Owner role/);
    await server.configureProviders("alice");
    try {
      expect(await getGroupProtectedEnvironments({ group: "acme" })).toEqual([expect.objectContaining({ name: "production", deployAccessLevels: [expect.objectContaining({ accessLevel: 40 })] })]);
    } finally {
      await server.configureProviders("maintainer");
    }
  });
});
