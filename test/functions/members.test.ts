/** getGroupMembers and getProjectMembers against the emulator. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { getGroupMembers, getProjectMembers, getProjectMembersOutput } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();

beforeAll(async () => {
  await server.configureProviders("dev");
});

const valueOf = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));
const humans = <T extends { username: string }>(members: T[]) => members.filter((member) => !member.username.includes("_bot"));

describe("getProjectMembers", () => {
  it("the direct members, in one request, camelCased", async () => {
    let members: Awaited<ReturnType<typeof getProjectMembers>> = [];
    const requests = await server.requestsDuring(async () => {
      members = await getProjectMembers({ project: "acme/platform/infra" });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/projects/acme%2Fplatform%2Finfra/members", status: 200 }]);
    expect(members).toEqual([expect.objectContaining({ username: "dev", accessLevel: 40, expiresAt: null, membershipState: "active", state: "active" })]);
  });

  it("with all, the groups' members too, each once at their highest role", async () => {
    const members = humans(await getProjectMembers({ project: "acme/platform/infra", all: true }));
    expect(members.map((member) => [member.username, member.accessLevel])).toEqual([
      ["alice", 50],
      ["maintainer", 40],
      ["dev", 40],
      ["guest", 10],
    ]);
  });

  it("filters by text and by user ids", async () => {
    const alice = server.emulator.state.userByUsername("alice")!.id;
    const guest = server.emulator.state.userByUsername("guest")!.id;
    expect((await getProjectMembers({ project: "acme/web", all: true, query: "mia" })).map((member) => member.username)).toEqual(["maintainer"]);
    expect((await getProjectMembers({ project: "acme/web", all: true, userIds: [alice, guest] })).map((member) => member.username)).toEqual(["alice", "guest"]);
  });

  it("the Output form", async () => {
    const names = await valueOf(getProjectMembersOutput({ project: "acme/platform/infra" }).apply((members) => members.map((member) => member.username)));
    expect(names).toEqual(["dev"]);
  });

  it("a project the user cannot see is named, as missing or hidden", async () => {
    await expect(server.actingAs("outsider", () => getProjectMembers({ project: "acme/web" }))).rejects.toThrow(/project acme\/web does not exist, or the token's user cannot see it/);
  });
});

describe("getGroupMembers", () => {
  it("a subgroup's direct members are its own; with all, its parents' too", async () => {
    expect(await getGroupMembers({ group: "acme/platform" })).toEqual([]);
    expect(humans(await getGroupMembers({ group: "acme/platform", all: true })).map((member) => member.username)).toEqual(["alice", "maintainer", "dev", "guest"]);
  });

  it("bad arguments fail before any request, naming the argument", async () => {
    const requests = await server.requestsDuring(async () => {
      await expect(getGroupMembers({ group: "acme/..", all: true })).rejects.toThrow(/group/);
      await expect(getGroupMembers({ group: "acme", userIds: [0] })).rejects.toThrow(/userIds/);
    });
    expect(requests).toEqual([]);
  });
});
