/**
 * The groups-and-projects example through the end-to-end steps (see
 * scenario.ts): a subgroup of acme with two projects and their labels. A
 * project's new path is an update and the old path still answers; archiving
 * is an update; the review of the destroy says, first, what goes with the
 * group and that the server only marks it for deletion; after the destroy the
 * group and the projects are marked (still there, restorable), which the
 * snapshot leaves out as the server's lists do for a user.
 */
import { expect } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import { describeExample } from "./scenario";

interface LiveGroup {
  id: number;
  full_path: string;
  marked_for_deletion_on?: string | null;
}
interface LiveProject {
  id: number;
  path: string;
  path_with_namespace: string;
  archived: boolean;
  merge_method: string;
  description: string | null;
  default_branch: string | null;
  marked_for_deletion_on?: string | null;
  marked_for_deletion_at?: string | null;
}
interface LiveLabel {
  id: number;
  name: string;
  color: string;
  priority?: number | null;
  is_project_label?: boolean;
}

const live = <T extends { marked_for_deletion_on?: string | null; marked_for_deletion_at?: string | null }>(items: T[]) =>
  items.filter((item) => !item.marked_for_deletion_on && !item.marked_for_deletion_at);
const subgroups = async (api: PlatformClient) => live(await api.list<LiveGroup>(apiPath`/groups/${"acme"}/descendant_groups`));
const projects = async (api: PlatformClient) => live(await api.list<LiveProject>(apiPath`/groups/${"acme"}/projects`, { include_subgroups: true }));
const ownLabels = async (api: PlatformClient, path: string, kind: "groups" | "projects") =>
  (await api.list<LiveLabel & { group_id?: number }>(kind === "groups" ? apiPath`/groups/${path}/labels` : apiPath`/projects/${path}/labels`, { include_ancestor_groups: false })).filter(
    (label) => kind === "groups" || label.is_project_label !== false,
  );

let handMade: LiveLabel;

describeExample({
  example: "groups-and-projects",

  async snapshot({ api }) {
    return {
      groups: (await subgroups(api)).map((group) => group.full_path).sort(),
      projects: (await projects(api)).map((project) => project.path_with_namespace).sort(),
      acmeLabels: (await ownLabels(api, "acme", "groups")).map((label) => `${label.name} ${label.color}`).sort(),
    };
  },

  async prepare({ api }) {
    handMade = await api.post<LiveLabel>(apiPath`/groups/${"acme"}/labels`, { name: "security", color: "#FF0000" });
  },

  async verifyCreated({ api }) {
    expect((await subgroups(api)).map((group) => group.full_path)).toContain("acme/payments");
    const mine = (await projects(api)).filter((project) => project.path_with_namespace.startsWith("acme/payments/"));
    expect(mine.map((project) => project.path_with_namespace).sort()).toEqual(["acme/payments/payments-api", "acme/payments/payments-web"]);
    const apiProject = mine.find((project) => project.path === "payments-api")!;
    expect(apiProject.merge_method).toBe("ff");
    expect(apiProject.default_branch).toBe("main");
    expect((await ownLabels(api, "acme/payments", "groups")).map((label) => `${label.name} ${label.color}`)).toEqual(["bug #FF0000"]);
    const incident = (await ownLabels(api, "acme/payments/payments-api", "projects")).filter((label) => label.name === "incident");
    expect(incident.map((label) => [label.color, label.priority])).toEqual([["#D9534F", 1]]);
  },

  async verifyAdopted({ api }) {
    const security = (await ownLabels(api, "acme", "groups")).filter((label) => label.name === "security");
    expect(security.map((label) => [label.id, label.color])).toEqual([[handMade.id, "#AD4363"]]);
  },

  change: {
    config: { apiPath: "payments-core", archiveWeb: "true", bugColor: "#CC0000" },
    expect: {
      api: { op: "update", changed: ["path"] },
      web: { op: "update", changed: ["archived"] },
      bug: { op: "update", changed: ["color"] },
    },
    async verify({ api }) {
      // Renamed in place: the old path still answers, with the new one.
      const renamed = await api.get<LiveProject>(apiPath`/projects/${"acme/payments/payments-api"}`);
      expect(renamed.path_with_namespace).toBe("acme/payments/payments-core");
      expect((await api.get<LiveProject>(apiPath`/projects/${"acme/payments/payments-web"}`)).archived).toBe(true);
      expect((await ownLabels(api, "acme/payments", "groups")).map((label) => label.color)).toEqual(["#CC0000"]);
    },
  },

  drift: {
    async apply({ api }) {
      await api.put(apiPath`/projects/${"acme/payments/payments-core"}`, { description: "edited by hand" });
      const incident = (await ownLabels(api, "acme/payments/payments-core", "projects")).find((label) => label.name === "incident")!;
      await api.delete(apiPath`/projects/${"acme/payments/payments-core"}/labels/${incident.id}`);
    },
    expect: {
      api: { op: "update", changed: ["description"] },
      incident: { op: "create" },
    },
    drifted: { api: ["description"] },
    async verify({ api }) {
      expect((await api.get<LiveProject>(apiPath`/projects/${"acme/payments/payments-core"}`)).description).toBe("Charges, refunds and payouts");
      expect((await ownLabels(api, "acme/payments/payments-core", "projects")).map((label) => label.name)).toContain("incident");
    },
  },

  destroyReview(report) {
    // The group's delete first, with what goes with it, and that the server only marks it; then its projects, marked too.
    const deletes = report.split("\n").filter((line) => line.startsWith("- `-`"));
    expect(deletes[0], report).toMatch(/^- `-` marks for deletion group <code>acme\/payments<\/code> of group <code>acme<\/code>, <em>with 2 projects; restorable/);
    expect(deletes.filter((line) => /marks for deletion project <code>acme\/payments\/payments-[a-z]+<\/code> of group <code>acme\/payments<\/code>/.test(line))).toHaveLength(2);
    expect(report).not.toMatch(/deletes (group|project)/);
  },
});
