/**
 * What a delete leaves, as a kind says it (`words.says`): an
 * unprotected branch or tag is named among what destroys, with what it opens.
 */
import { describe, expect, it } from "vitest";
import { reviewOf } from "../../src/review/changes";
import { markdownOf } from "../../src/review/markdown";
import type { PreviewOutput } from "../../src/review/preview";

const type = (kind: string) => `pulumi-nodejs:dynamic/platform:${kind}`;
const urn = (kind: string, name: string) => `urn:pulumi:dev::infra::${type(kind)}::${name}`;

const preview = {
  steps: [
    {
      op: "delete",
      urn: urn("ProtectedBranch", "main"),
      oldState: { type: type("ProtectedBranch"), id: "projects/acme%2Fweb/protected_branches/main", inputs: { project: "acme/web", name: "main", pushAccessLevel: "maintainer" }, outputs: { project: "acme/web", name: "main" } },
    },
    {
      op: "delete",
      urn: urn("ProtectedTag", "releases"),
      oldState: { type: type("ProtectedTag"), id: "projects/acme%2Fweb/protected_tags/v*", inputs: { project: "acme/web", name: "v*" }, outputs: { project: "acme/web", name: "v*" } },
    },
    {
      op: "delete",
      urn: urn("Badge", "gone"),
      oldState: { type: type("Badge"), id: "projects/acme%2Fweb/badges/3", inputs: { project: "acme/web", name: "coverage" }, outputs: { project: "acme/web", name: "coverage" } },
    },
  ],
} as PreviewOutput;

describe("a delete whose kind says what it leaves", () => {
  const review = reviewOf(preview);

  it("unprotecting a branch or a tag is destructive, and says what it opens to whom; a badge's delete says nothing more", () => {
    expect(review.counts.delete).toBe(3);
    expect(review.changes.map((change) => [change.object, change.owner, change.note])).toEqual([
      ["badge 3 `coverage`", "project acme/web", undefined],
      ["protected branch `main`", "project acme/web", expect.stringMatching(/^unprotects it: the branches it matched can then be pushed to, force pushed and merged into by anyone with the Developer role/)],
      ["protected tag `v*`", "project acme/web", expect.stringMatching(/^unprotects it: anyone with the Developer role can then create the tags it matched/)],
    ]);
  });

  it("the report lists it first, under Deletes, with the note beside it", () => {
    const report = markdownOf(review, { stack: "dev" });
    expect(report).toMatch(/Destroys 3 objects/);
    const line = report.split("\n").find((text) => text.includes("protected branch"))!;
    expect(line).toContain("deletes protected branch <code>main</code> of project <code>acme/web</code>, <em>unprotects it: the branches it matched can then be pushed to");
    expect(report.indexOf("protected branch")).toBeLessThan(report.indexOf("Creates") === -1 ? Number.POSITIVE_INFINITY : report.indexOf("Creates"));
  });
});
