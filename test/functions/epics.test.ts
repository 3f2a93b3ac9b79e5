/** getEpic and getEpicChildren against the emulator. */
import { beforeAll, describe, expect, it } from "vitest";
import { getEpic, getEpicChildren, getEpicChildrenOutput, getEpicOutput } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// acme&20 with 150 children (more than one page of 100): a seed may hold more than the 100 a parent can be given.
const seed: Seed = {
  ...defaultSeed,
  epics: {
    ...(defaultSeed.epics as object),
    "acme/platform": [
      ...((defaultSeed.epics as Record<string, unknown[]>)["acme/platform"] ?? []),
      { iid: 20, title: "Big initiative" },
      ...Array.from({ length: 150 }, (_, index) => ({ iid: 100 + index, title: `Task ${index}`, parent: 20 })),
    ],
  },
};
const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("guest");
});

describe("getEpicChildren", () => {
  it("the children in their order, in camelCase with the fields of part 2.5", async () => {
    const children = await getEpicChildren({ group: "acme", epicIid: 1 });
    expect(children.map((child) => child.title)).toEqual(["Self-serve onboarding", "Usage-based billing", "Public API v2"]);
    expect(children[0]).toMatchObject({
      id: 2,
      iid: 2,
      parentId: 1,
      author: { username: "alice", webUrl: "https://platform.example.test/alice" },
      startDate: "2025-01-15",
      startDateIsFixed: true,
      dueDate: "2025-04-30",
      endDate: "2025-04-30",
      dueDateFromInheritedSource: null,
      labels: ["growth"],
    });
  });

  it("an epic without children is an empty list", async () => {
    expect(await getEpicChildren({ group: "acme", epicIid: 5 })).toEqual([]);
  });

  it("every child across pages, 100 a request, and a limit that stops early", async () => {
    const all = await server.requestsDuring(async () => expect(await getEpicChildren({ group: "acme/platform", epicIid: 20 })).toHaveLength(150));
    expect(all).toHaveLength(2);
    const some = await server.requestsDuring(async () => {
      const children = await getEpicChildren({ group: "acme/platform", epicIid: 20, limit: 5 });
      expect(children.map((child) => child.title)).toEqual(["Task 0", "Task 1", "Task 2", "Task 3", "Task 4"]);
    });
    expect(some).toHaveLength(1);
  });

  it("the Output form", async () => {
    const titles = await new Promise<string[]>((resolve) => getEpicChildrenOutput({ group: "acme", epicIid: 1, limit: 2 }).apply((children) => resolve(children.map((child) => child.title))));
    expect(titles).toEqual(["Self-serve onboarding", "Usage-based billing"]);
  });

  it("a missing epic and a missing group are named", async () => {
    await expect(getEpicChildren({ group: "acme", epicIid: 99 })).rejects.toThrow(/getEpicChildren: the child epics of epic &99 of group acme was not found: .*404 Epic Not Found/);
    await expect(getEpicChildren({ group: "nope", epicIid: 1 })).rejects.toThrow(/getEpicChildren: the child epics of epic &1 of group nope was not found: .*404 Group Not Found/);
  });

  it("a Free group is refused, and the message names the tier", async () => {
    await server.configureProviders("alice");
    try {
      const error = (await getEpicChildren({ group: "beta", epicIid: 1 }).catch((caught: Error) => caught)) as Error;
      expect(error.message).toMatch(/getEpicChildren: the token's user may not read the child epics of epic &1 of group beta: .*403.*Premium or Ultimate tier/);
    } finally {
      await server.configureProviders("guest");
    }
  });

  it("a caller who cannot see the group gets its 404", async () => {
    await server.configureProviders("outsider");
    try {
      await expect(getEpicChildren({ group: "acme", epicIid: 1 })).rejects.toThrow(/404 Group Not Found/);
    } finally {
      await server.configureProviders("guest");
    }
  });

  it("bad arguments are refused before any request", async () => {
    const mark = server.emulator.mark();
    await expect(getEpicChildren({ group: "acme", epicIid: 0 })).rejects.toThrow(/epicIid: must be the parent epic's iid: a positive integer/);
    await expect(getEpicChildren({ group: "acme/", epicIid: 1 })).rejects.toThrow(/group: must be a numeric id or a full path/);
    await expect(getEpicChildren({ group: "acme", epicIid: 1, child: 2 } as never)).rejects.toThrow(/child: unknown/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("getEpic", () => {
  it("one epic in camelCase, in one request; the Output form's fields are Outputs", async () => {
    let epic: Awaited<ReturnType<typeof getEpic>> | undefined;
    const requests = await server.requestsDuring(async () => {
      epic = await getEpic({ group: "acme", epicIid: 2 });
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe("/api/v4/groups/acme/epics/2");
    expect(epic).toMatchObject({ id: 2, iid: 2, parentId: 1, title: "Self-serve onboarding", author: { username: "alice" } });
    const title = await new Promise<string>((resolve) => getEpicOutput({ group: "acme", epicIid: 1 }).title.apply(resolve));
    expect(title).toBe("2025 roadmap");
  });

  it("a missing epic is named; a Free group's refusal names the tier", async () => {
    await expect(getEpic({ group: "acme", epicIid: 99 })).rejects.toThrow(/getEpic: epic &99 of group acme was not found: .*404 Epic Not Found/);
    await server.configureProviders("alice");
    try {
      await expect(getEpic({ group: "beta", epicIid: 1 })).rejects.toThrow(/getEpic: the token's user may not read epic &1 of group beta: .*Premium or Ultimate tier/);
    } finally {
      await server.configureProviders("guest");
    }
  });

  it("bad arguments are refused before any request", async () => {
    const mark = server.emulator.mark();
    await expect(getEpic({ group: "acme", epicIid: -1 })).rejects.toThrow(/epicIid: must be the epic's iid: a positive integer/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});
