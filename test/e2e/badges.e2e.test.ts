/** The badges example through the end-to-end steps (see scenario.ts). */
import { expect } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import { describeExample } from "./scenario";

interface LiveBadge {
  id: number;
  name: string | null;
  link_url: string;
  kind: string;
}

const projectBadges = async (api: PlatformClient, project = "acme/web") =>
  (await api.list<LiveBadge>(apiPath`/projects/${project}/badges`)).filter((badge) => badge.kind === "project");
const groupBadges = (api: PlatformClient, group = "acme") => api.list<LiveBadge>(apiPath`/groups/${group}/badges`);
const names = (badges: LiveBadge[]) => badges.map((badge) => badge.name).sort();

let handMade: LiveBadge;

describeExample({
  example: "badges",

  async snapshot({ api }) {
    const summary = (badges: LiveBadge[]) => badges.map((badge) => `${badge.kind} ${badge.name} ${badge.link_url}`).sort();
    return {
      web: summary(await projectBadges(api)),
      api: summary(await projectBadges(api, "acme/api")),
      acme: summary(await groupBadges(api)),
      beta: summary(await groupBadges(api, "beta")),
    };
  },

  async prepare({ api }) {
    // A badge made by hand before the program existed; the program declares it with adoptExisting.
    handMade = await api.post<LiveBadge>(apiPath`/projects/${"acme/web"}/badges`, {
      name: "coverage",
      link_url: "https://old-ci.example.com/coverage",
      image_url: "https://old-ci.example.com/coverage.svg",
    });
  },

  async verifyCreated({ api }) {
    const web = await projectBadges(api);
    expect(names(web)).toEqual(["coverage", "pipeline"]);
    expect(web.find((badge) => badge.name === "coverage")!.link_url).toBe("https://ci.example.com/%{project_path}/-/graphs/%{default_branch}/charts");
    expect(names(await groupBadges(api))).toEqual(["docs"]);
  },

  async verifyAdopted({ api }) {
    const coverage = (await projectBadges(api)).filter((badge) => badge.name === "coverage");
    expect(coverage.map((badge) => badge.id)).toEqual([handMade.id]);
  },

  change: {
    config: { ciHost: "ci.next.example.com", group: "beta" },
    expect: {
      pipeline: { op: "update", changed: ["imageUrl", "linkUrl"] },
      coverage: { op: "update", changed: ["imageUrl", "linkUrl"] },
      docs: { op: "replace", changed: ["group"] },
    },
    async verify({ api }) {
      expect((await projectBadges(api)).every((badge) => badge.link_url.startsWith("https://ci.next.example.com/"))).toBe(true);
      expect(await groupBadges(api)).toEqual([]);
      expect(names(await groupBadges(api, "beta"))).toEqual(["docs"]);
    },
  },

  drift: {
    async apply({ api }) {
      const pipeline = (await projectBadges(api)).find((badge) => badge.name === "pipeline")!;
      await api.put(apiPath`/projects/${"acme/web"}/badges/${pipeline.id}`, { link_url: "https://tampered.example.com" });
      const docs = (await groupBadges(api, "beta"))[0]!;
      await api.delete(apiPath`/groups/${"beta"}/badges/${docs.id}`);
    },
    expect: {
      pipeline: { op: "update", changed: ["linkUrl"] },
      docs: { op: "create" },
    },
    async verify({ api }) {
      expect((await projectBadges(api)).find((badge) => badge.name === "pipeline")!.link_url).toMatch(/^https:\/\/ci\.next\.example\.com\//);
      expect(names(await groupBadges(api, "beta"))).toEqual(["docs"]);
    },
  },
});
