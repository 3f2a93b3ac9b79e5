/**
 * A project's delete in the review, through the kind's `deletion` part: said
 * first, as marked for deletion where the server delays deletions (never as
 * gone), with the commits of its repository that go with it.
 */
import { describe, expect, it } from "vitest";
import { reviewOf } from "../../src/review/changes";
import { markdownOf } from "../../src/review/markdown";
import type { PreviewOutput } from "../../src/review/preview";
import { summaryOf } from "../../src/review/summary";

const BADGE = "pulumi-nodejs:dynamic/platform:Badge";
const PROJECT = "pulumi-nodejs:dynamic/platform:Project";
const urn = (type: string, name: string) => `urn:pulumi:dev::infra::${type}::${name}`;
const badge = { name: "coverage", linkUrl: "https://ci.example.com", imageUrl: "https://ci.example.com/b.svg", group: "acme" };

const preview = (deletionMode: unknown): PreviewOutput =>
  ({
    steps: [
      { op: "delete", urn: urn(BADGE, "old-badge"), oldState: { type: BADGE, id: "groups/acme/badges/3", inputs: badge, outputs: badge } },
      {
        op: "delete",
        urn: urn(PROJECT, "web"),
        oldState: { type: PROJECT, id: "42", inputs: { group: "zeta", name: "Web", path: "web" }, outputs: { group: "zeta", name: "Web", path: "web", commitCount: 1234, deletionMode, markedForDeletionOn: null } },
      },
    ],
  }) as PreviewOutput;

describe("a project's delete", () => {
  it("comes first, marked for deletion where the server delays it, with the commits that go with it", () => {
    const review = reviewOf(preview({ delayed: true, periodDays: null }));
    const [first, second] = summaryOf(review).sentences;
    expect(first).toMatch(/^marks for deletion project `zeta\/web` of group zeta/);
    expect(second).toMatch(/^deletes badge 3/);
    const report = markdownOf(review, { stack: "dev" });
    expect(report).toContain("1234 commits of its repository");
    expect(report).not.toMatch(/deletes project/);
  });

  it("deleted at once where the server does so: nothing can be restored", () => {
    const report = markdownOf(reviewOf(preview({ delayed: false })), { stack: "dev" });
    expect(report).toMatch(/deletes project <code>zeta\/web<\/code>/);
    expect(report).toContain("the server deletes it at once, with 1234 commits of its repository: nothing can be restored");
  });
});
