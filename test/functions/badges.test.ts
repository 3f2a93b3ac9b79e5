/** getBadges, getBadge and getRenderedBadge against the emulator. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { getBadge, getBadges, getBadgesOutput, getRenderedBadge } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// A group badge on acme, a project badge on acme/web, and 130 on acme/api: its list (131 with the group's) takes two pages.
const MANY = 130;
const badgeName = (i: number) => `build-${String(i).padStart(3, "0")}`;
const seed: Seed = {
  ...defaultSeed,
  badges: {
    groups: { acme: [{ name: "chat", linkUrl: "https://chat.example.test/%{group_name}", imageUrl: "https://img.example.test/chat.svg" }] },
    projects: {
      "acme/web": [{ name: "coverage", linkUrl: "https://ci.example.test/%{project_path}/-/jobs", imageUrl: "https://ci.example.test/%{project_path}/badges/%{default_branch}/coverage.svg" }],
      "acme/api": Array.from({ length: MANY }, (_, i) => ({ name: badgeName(i), linkUrl: `https://ci.example.test/${i}`, imageUrl: `https://img.example.test/${i}.svg` })),
    },
  },
};
const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

/** Runs `action` as another seed user, then as the file's user again. */
const as = <T>(username: string, action: () => Promise<T>): Promise<T> => server.actingAs(username, action);

describe("getBadges", () => {
  it("a project's badges and its group's, told apart by kind, rendered, in one request", async () => {
    let badges: Awaited<ReturnType<typeof getBadges>> = [];
    const requests = await server.requestsDuring(async () => {
      badges = await getBadges({ project: "acme/web" });
    });
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/projects/acme%2Fweb/badges", status: 200 }]);
    expect(badges).toEqual([
      {
        id: expect.any(Number),
        name: "chat",
        kind: "group",
        linkUrl: "https://chat.example.test/%{group_name}",
        imageUrl: "https://img.example.test/chat.svg",
        renderedLinkUrl: "https://chat.example.test/Acme",
        renderedImageUrl: "https://img.example.test/chat.svg",
      },
      {
        id: expect.any(Number),
        name: "coverage",
        kind: "project",
        linkUrl: "https://ci.example.test/%{project_path}/-/jobs",
        imageUrl: "https://ci.example.test/%{project_path}/badges/%{default_branch}/coverage.svg",
        renderedLinkUrl: "https://ci.example.test/acme/web/-/jobs",
        renderedImageUrl: "https://ci.example.test/acme/web/badges/main/coverage.svg",
      },
    ]);
  });

  it("a group's list holds its own badges only; the name filter is exact", async () => {
    expect((await getBadges({ group: "acme" })).map((badge) => [badge.name, badge.kind])).toEqual([["chat", "group"]]);
    expect((await getBadges({ project: "acme/web", name: "chat" })).map((badge) => badge.kind)).toEqual(["group"]);
    expect(await getBadges({ project: "acme/web", name: "Chat" })).toEqual([]);
  });

  it("every badge across pages, 100 a request, and a limit that stops early", async () => {
    let names: (string | null)[] = [];
    const requests = await server.requestsDuring(async () => {
      names = (await getBadges({ project: "acme/api" })).map((badge) => badge.name);
    });
    expect(names).toEqual(["chat", ...Array.from({ length: MANY }, (_, i) => badgeName(i))]);
    expect(requests).toHaveLength(2);
    expect(server.emulator.requestLog.slice(-2).every((entry) => entry.query.includes("per_page=100"))).toBe(true);
    const limited = await server.requestsDuring(async () => expect(await getBadges({ project: "acme/api", limit: 3 })).toHaveLength(3));
    expect(limited).toHaveLength(1);
  });

  it("the Output form", async () => {
    const output = getBadgesOutput({ group: pulumi.output("acme") });
    const names = await new Promise<(string | null)[]>((resolve) => output.apply((badges) => resolve(badges.map((badge) => badge.name))));
    expect(names).toEqual(["chat"]);
    expect(await pulumi.isSecret(output)).toBe(false);
  });

  it("exactly one of project and group, a non-empty name; nothing sent", async () => {
    const mark = server.emulator.mark();
    await expect(getBadges({})).rejects.toThrow(/getBadges: invalid arguments: project: set exactly one of project and group.* No request was sent\./);
    await expect(getBadges({ project: "acme/web", group: "acme" })).rejects.toThrow(/set exactly one of project and group/);
    await expect(getBadges({ group: "acme", name: "" })).rejects.toThrow(/name: /);
    await expect(getBadges({ group: "acme", nmae: "chat" } as never)).rejects.toThrow(/nmae: unknown property; did you mean name\?/);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("a missing project is named; a non-member is told the same, since private projects hide", async () => {
    await expect(getBadges({ project: "acme/nope" })).rejects.toThrow(/getBadges: could not read the badges of project acme\/nope: GET \/projects\/acme%2Fnope\/badges answered 404 \(404 Project Not Found\)/);
    await as("outsider", () => expect(getBadges({ group: "acme" })).rejects.toThrow(/could not read the badges of group acme: .*404 Group Not Found.*hidden from non-members/));
  });
});

describe("getBadge", () => {
  it("one badge of a project or of a group", async () => {
    const [chat, coverage] = await getBadges({ project: "acme/web" });
    expect(await getBadge({ project: "acme/web", id: coverage!.id })).toEqual(coverage);
    expect(await getBadge({ group: "acme", id: chat!.id })).toMatchObject({ name: "chat", kind: "group", renderedLinkUrl: "https://chat.example.test/Acme" });
  });

  it("a group badge read through a project is not found, and the message says where to read it", async () => {
    const [chat] = await getBadges({ project: "acme/web" });
    await expect(getBadge({ project: "acme/web", id: chat!.id })).rejects.toThrow(
      new RegExp(`getBadge: could not read badge ${chat!.id} of project acme/web: .*404 Not found.*read through the group`),
    );
  });

  it("a missing badge is an error that names it; a bad id sends nothing", async () => {
    await expect(getBadge({ group: "acme", id: 99_999 })).rejects.toThrow(/getBadge: could not read badge 99999 of group acme/);
    const mark = server.emulator.mark();
    await expect(getBadge({ group: "acme", id: 1.5 })).rejects.toThrow(/getBadge: invalid arguments: id: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("getRenderedBadge", () => {
  const urls = { linkUrl: "https://ci.example.test/%{project_path}/-/commit/%{commit_sha}", imageUrl: "https://img.example.test/%{project_id}/%{latest_tag}.svg" };

  it("resolves the placeholders with the project's values, and creates nothing", async () => {
    const before = (await getBadges({ project: "acme/web" })).length;
    const rendered = await getRenderedBadge({ project: "acme/web", ...urls });
    const web = server.emulator.state.projectByFullPath("acme/web")!;
    expect(rendered).toMatchObject({
      ...urls,
      renderedLinkUrl: `https://ci.example.test/acme/web/-/commit/${web.lastCommitSha}`,
      renderedImageUrl: `https://img.example.test/${web.id}/v1.4.0.svg`,
    });
    expect(server.emulator.requestLog.at(-1)).toMatchObject({ method: "GET", path: "/api/v4/projects/acme%2Fweb/badges/render" });
    expect((await getBadges({ project: "acme/web" })).length).toBe(before);
  });

  it("for a group, with its first project by creation date", async () => {
    expect((await as("alice", () => getRenderedBadge({ group: "acme", ...urls }))).renderedLinkUrl).toMatch(/^https:\/\/ci\.example\.test\/acme\/web\/-\/commit\//);
  });

  it("a URL that is not http(s) is refused before any request", async () => {
    const mark = server.emulator.mark();
    await expect(getRenderedBadge({ project: "acme/web", linkUrl: "ftp://files.example.test/x", imageUrl: urls.imageUrl })).rejects.toThrow(/getRenderedBadge: invalid arguments: linkUrl: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("a Developer may read badges but not render them, and is told the role it needs", async () => {
    await as("dev", async () => {
      expect(await getBadges({ project: "acme/web" })).toHaveLength(2);
      await expect(getRenderedBadge({ project: "acme/web", ...urls })).rejects.toThrow(
        /getRenderedBadge: could not read a badge rendered for project acme\/web: .*403.*at least the Maintainer role/,
      );
    });
    // A group's badges are the Owners' to manage: a Maintainer of the group cannot render there.
    await expect(getRenderedBadge({ group: "acme", ...urls })).rejects.toThrow(/403.*the Owner role/);
  });
});
