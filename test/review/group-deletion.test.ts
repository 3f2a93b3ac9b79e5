/**
 * A group's delete in the review: said as what it is (marked for deletion,
 * restorable, or deleted at once), with what goes with it counted, first
 * among the deletes; its counts are never drift. From the outputs the
 * kind's declaration names (`deletion` on `Group`).
 */
import { describe, expect, it } from "vitest";
import { reviewOf } from "../../src/review/changes";
import { markdownOf } from "../../src/review/markdown";
import { type PreviewOutput } from "../../src/review/preview";
import { summaryOf } from "../../src/review/summary";

const GROUP = "pulumi-nodejs:dynamic/platform:Group";
const BADGE = "pulumi-nodejs:dynamic/platform:Badge";
const urn = (type: string, name: string) => `urn:pulumi:dev::infra::${type}::${name}`;
const group = (id: number, path: string, outputs: Record<string, unknown>) => ({
  type: GROUP,
  id: `groups/${id}`,
  inputs: { parent: "acme", path, name: path },
  outputs: { parent: "acme", path, name: path, groupId: id, fullPath: `acme/${path}`, ...outputs },
});
const badge = { name: "coverage", linkUrl: "https://ci.example.com", imageUrl: "https://ci.example.com/b.svg", group: "acme" };

const preview: PreviewOutput = {
  steps: [
    { op: "delete", urn: urn(BADGE, "coverage"), oldState: { type: BADGE, id: "groups/acme/badges/3", inputs: badge, outputs: badge } },
    { op: "delete", urn: urn(GROUP, "empty"), oldState: group(20, "empty", { deletionMode: { delayed: false }, subgroupCount: 0, projectCount: 0 }) },
    { op: "delete", urn: urn(GROUP, "platform"), oldState: group(12, "platform", { deletionMode: { delayed: true, periodDays: 30 }, subgroupCount: 2, projectCount: 5 }) },
    { op: "delete", urn: urn(GROUP, "tools"), oldState: group(14, "tools", { deletionMode: { delayed: false }, subgroupCount: 1, projectCount: null }) },
  ],
} as PreviewOutput;

describe("a group's delete in the review", () => {
  it("comes first when it takes other objects with it, and says whether it is only marked", () => {
    const review = reviewOf(preview);
    expect(summaryOf(review).sentences).toEqual([
      "marks for deletion group `acme/platform` of group acme",
      "deletes group `acme/tools` of group acme",
      "deletes badge 3 `coverage` of group acme",
      "deletes group `acme/empty` of group acme",
    ]);
    const notes = Object.fromEntries(review.changes.map((change) => [change.name, change.note]));
    expect(notes).toEqual({
      platform: "with 2 subgroups and 5 projects; restorable for 30 days after it is marked, then removed by the server",
      tools: "the server deletes it at once, with 1 subgroup and projects (more than the server counts): nothing can be restored",
      coverage: undefined,
      empty: "the server deletes it at once, with nothing else: nothing can be restored",
    });
  });

  it("the report never says a group only marked is deleted, before or after the apply", () => {
    const report = markdownOf(reviewOf(preview), { stack: "dev" });
    expect(report).toContain("marks for deletion");
    expect(report).toMatch(/marks for deletion group <code>acme\/platform<\/code> .* restorable for 30 days/);
    const applied = markdownOf(reviewOf({ ...preview, applied: true } as PreviewOutput), { stack: "dev", applied: true });
    expect(applied).toMatch(/marked for deletion group <code>acme\/platform<\/code>/);
    expect(applied).not.toMatch(/deleted group <code>acme\/platform/);
  });

  it("the counts a refresh reads again are not drift", () => {
    const recorded = group(12, "platform", { deletionMode: { delayed: true, periodDays: 30 }, subgroupCount: 2, projectCount: 5 });
    const refreshed = group(12, "platform", { deletionMode: { delayed: true, periodDays: 30 }, subgroupCount: 3, projectCount: 9 });
    const review = reviewOf({ steps: [{ op: "refresh", urn: urn(GROUP, "platform"), oldState: recorded, newState: refreshed }, { op: "same", urn: urn(GROUP, "platform"), oldState: refreshed, newState: refreshed }] } as PreviewOutput);
    expect(review.changes.filter((change) => change.kind === "drift")).toEqual([]);
  });
});
