/** getLabels, getUser and getUsers against the emulator. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { getLabels, getLabelsOutput, getUser, getUserOutput, getUsers, getUsersOutput } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// acme has two labels, acme/platform one, acme/platform/infra one with a priority; 120 on acme/api take two pages.
const MANY = 120;
const seed: Seed = {
  ...defaultSeed,
  labels: {
    groups: { acme: [{ name: "bug", color: "#d9534f", description: "Something is broken" }, { name: "triage", color: "orange" }], "acme/platform": [{ name: "infra-wide", color: "#123" }] },
    projects: {
      "acme/platform/infra": [{ name: "terraform", color: "purple", priority: 1 }],
      "acme/api": Array.from({ length: MANY }, (_, i) => ({ name: `api-${String(i).padStart(3, "0")}`, color: "#000000" })),
    },
  },
};
const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("dev");
});

const valueOf = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

describe("getLabels", () => {
  it("a project's labels and its groups', in name order, told apart by isProjectLabel, in one request", async () => {
    let labels: Awaited<ReturnType<typeof getLabels>> = [];
    const requests = await server.requestsDuring(async () => {
      labels = await getLabels({ project: "acme/platform/infra" });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/projects/acme%2Fplatform%2Finfra/labels", status: 200 }]);
    expect(labels.map((label) => [label.name, label.isProjectLabel, label.priority])).toEqual([
      ["bug", false, null],
      ["infra-wide", false, null],
      ["terraform", true, 1],
      ["triage", false, null],
    ]);
    expect(labels[2]).toMatchObject({ color: "#800080", description: null, textColor: expect.any(String) });
  });

  it("a group's own labels with includeAncestorGroups false; a search; every page, or only what limit needs", async () => {
    expect((await getLabels({ group: "acme/platform", includeAncestorGroups: false })).map((label) => label.name)).toEqual(["infra-wide"]);
    expect((await getLabels({ group: "acme", search: "BROKEN" })).map((label) => label.name)).toEqual(["bug"]);
    const all = await getLabels({ project: "acme/api", includeAncestorGroups: false });
    expect(all.filter((label) => label.isProjectLabel && label.name.startsWith("api-"))).toHaveLength(MANY);
    const requests = await server.requestsDuring(async () => {
      expect(await getLabels({ project: "acme/api", limit: 5 })).toHaveLength(5);
    });
    expect(requests).toHaveLength(1);
  });

  it("the Output form", async () => {
    const output = getLabelsOutput({ group: pulumi.output("acme") });
    expect(await valueOf(output.apply((labels) => labels.map((label) => label.name)))).toEqual(["bug", "triage"]);
    expect(await pulumi.isSecret(output)).toBe(false);
  });

  it("exactly one of project and group; a group's options refused for a project; nothing sent", async () => {
    const requests = await server.requestsDuring(async () => {
      await expect(getLabels({})).rejects.toThrow(/getLabels: invalid arguments: project: set exactly one of project and group.*No request was sent/);
      await expect(getLabels({ project: "acme/web", onlyGroupLabels: false })).rejects.toThrow(/onlyGroupLabels: only a group's list takes it/);
    });
    expect(requests).toEqual([]);
  });

  it("a project the token's user cannot see is named as missing or hidden", async () => {
    await expect(server.actingAs("outsider", () => getLabels({ project: "acme/web" }))).rejects.toThrow(/getLabels: could not read the labels of project acme\/web: .*404.*project acme\/web does not exist, or the token's user cannot see it/);
  });
});

describe("getUser and getUsers", () => {
  it("getUser finds one user by username, in any case, with one request", async () => {
    let found: Awaited<ReturnType<typeof getUser>> | undefined;
    const requests = await server.requestsDuring(async () => {
      found = await getUser({ username: "Maintainer" });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/users", status: 200 }]);
    expect(found).toMatchObject({ username: "maintainer", name: "Mia Maintainer", state: "active", webUrl: expect.stringMatching(/\/maintainer$/) });
    expect(await valueOf(getUserOutput({ username: pulumi.output("alice") }).id)).toBe(found!.id - 1);
  });

  it("getUser of a username nobody has fails naming it; a bad username sends nothing", async () => {
    await expect(getUser({ username: "nobody" })).rejects.toThrow(/getUser: no user has the username nobody/);
    const requests = await server.requestsDuring(() => expect(getUser({ username: "not a name" })).rejects.toThrow(/username: must be a username/));
    expect(requests).toEqual([]);
  });

  it("getUsers by username or by a search over usernames, names and whole emails", async () => {
    expect((await getUsers({ username: "DEV" })).map((user) => user.username)).toEqual(["dev"]);
    expect((await getUsers({ search: "owner" })).map((user) => user.username)).toEqual(["alice"]);
    expect((await getUsers({ search: "nobody-at-all" }))).toEqual([]);
    expect(await valueOf(getUsersOutput({ search: "guest" }).apply((users) => users.map((user) => user.username)))).toEqual(["guest"]);
  });
});
