/** The protected branch and tag lookups against the emulator: results, filters, Output forms, refusals. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { getProtectedBranch, getProtectedBranches, getProtectedBranchesOutput, getProtectedBranchOutput, getProtectedTag, getProtectedTags, getProtectedTagsOutput } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const seed: Seed = {
  ...defaultSeed,
  protectedRefs: {
    branches: { "acme/web": [{ name: "release/*", pushAccessLevel: 0, mergeAccessLevel: 30 }] },
    tags: { "acme/web": [{ name: "v*", createAccessLevel: 40 }] },
  },
};
const server = useEmulator({ seed });

const resolved = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

describe("getProtectedBranches and getProtectedBranch", () => {
  it("the project's rules in camelCase, the default branch's first, in one request", async () => {
    let rules: Awaited<ReturnType<typeof getProtectedBranches>> = [];
    const requests = await server.requestsDuring(async () => {
      rules = await getProtectedBranches({ project: "acme/web" });
    });
    expect(requests.map((request) => request.path)).toEqual(["/api/v4/projects/acme%2Fweb/protected_branches"]);
    expect(rules.map((rule) => rule.name)).toEqual(["main", "release/*"]);
    expect(rules[1]).toMatchObject({
      pushAccessLevels: [{ accessLevel: 0, accessLevelDescription: "No one" }],
      mergeAccessLevels: [{ accessLevel: 30, accessLevelDescription: "Developers + Maintainers" }],
      allowForcePush: false,
      codeOwnerApprovalRequired: false,
    });
    expect((await getProtectedBranches({ project: "acme/web", search: "rel" })).map((rule) => rule.name)).toEqual(["release/*"]);
  });

  it("one rule by its name, a wildcard as written; a branch it matches is no rule's name", async () => {
    expect(await getProtectedBranch({ project: "acme/web", name: "release/*" })).toMatchObject({ name: "release/*", pushAccessLevels: [{ accessLevel: 0 }] });
    await expect(getProtectedBranch({ project: "acme/web", name: "release/1.x" })).rejects.toThrow(
      /getProtectedBranch: could not read protected branch release\/1\.x of project acme\/web: .*404.*read by its own name/,
    );
  });

  it("the Output forms", async () => {
    const rules = await resolved(getProtectedBranchesOutput({ project: pulumi.output("acme/web") }));
    expect(rules.map((rule) => rule.name)).toEqual(["main", "release/*"]);
    expect((await resolved(getProtectedBranchOutput({ project: "acme/web", name: pulumi.output("main") }))).pushAccessLevels).toMatchObject([{ accessLevel: 40 }]);
  });

  it("a Developer reads them (real servers need only the code); a Guest is told what reading needs; a bad name is refused before any request", async () => {
    await server.configureProviders("dev");
    try {
      expect((await getProtectedBranches({ project: "acme/web" })).map((rule) => rule.name)).toContain("main");
    } finally {
      await server.configureProviders("maintainer");
    }
    await server.configureProviders("guest");
    try {
      await expect(getProtectedBranches({ project: "acme/web" })).rejects.toThrow(/could not read the protected branches of project acme\/web: .*403.*the Reporter role on a private project/);
    } finally {
      await server.configureProviders("maintainer");
    }
    const mark = server.emulator.mark();
    await expect(getProtectedBranch({ project: "acme/web", name: "" })).rejects.toThrow(/getProtectedBranch: invalid arguments: name: /);
    await expect(getProtectedBranch({ project: "acme/web", name: ".." })).rejects.toThrow(/name: must not be "\." or "\.\."/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("getProtectedTags and getProtectedTag", () => {
  it("the project's tag rules with who may create matching tags; one by its name; the Output form", async () => {
    expect(await getProtectedTags({ project: "acme/web" })).toEqual([{ name: "v*", createAccessLevels: [expect.objectContaining({ accessLevel: 40, accessLevelDescription: "Maintainers" })] }]);
    expect(await getProtectedTag({ project: "acme/web", name: "v*" })).toMatchObject({ name: "v*" });
    expect(await resolved(getProtectedTagsOutput({ project: "acme/api" }))).toEqual([]);
  });
});
