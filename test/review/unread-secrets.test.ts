/**
 * A secret value the server never shows (a hidden CI/CD variable's) is
 * reported as not compared, never as matching; a secret value changed by hand
 * is drift of it, named and never shown.
 */
import { describe, expect, it } from "vitest";
import { reviewOf } from "../../src/review/changes";
import { driftFound } from "../../src/review/drift";
import { markdownOf } from "../../src/review/markdown";
import { parsePreview } from "../../src/review/preview";

const TYPE = "pulumi-nodejs:dynamic/platform:ProjectVariable";
const urnOf = (name: string) => `urn:pulumi:drift::platform::${TYPE}::${name}`;
const state = (name: string, key: string, outputs: Record<string, unknown> = {}) => ({
  urn: urnOf(name),
  custom: true,
  type: TYPE,
  id: `projects/acme%2Fweb/variables/${key}/*`,
  inputs: { project: "acme/web", key, value: "[secret]", masked: true },
  outputs: { project: "acme/web", key, value: "[secret]", masked: true, valueReadable: true, ...outputs },
});

/** A drift check's preview: a hidden variable (its value never shown) and a variable whose value was changed by hand. */
function previewOf(hiddenOutputs: Record<string, unknown>, changedOutputs: Record<string, unknown>) {
  const hidden = state("deploy-token", "DEPLOY_TOKEN", { hidden: true, valueReadable: false });
  const changed = state("registry-password", "REGISTRY_PASSWORD");
  return parsePreview(
    JSON.stringify({
      steps: [
        { op: "refresh", urn: urnOf("deploy-token"), oldState: hidden, newState: hidden },
        { op: "same", urn: urnOf("deploy-token"), oldState: { ...hidden, outputs: { ...hidden.outputs, ...hiddenOutputs } }, newState: hidden },
        { op: "refresh", urn: urnOf("registry-password"), oldState: changed, newState: changed },
        { op: "update", urn: urnOf("registry-password"), oldState: { ...changed, outputs: { ...changed.outputs, ...changedOutputs } }, newState: changed, detailedDiff: { value: { kind: "update" } } },
      ],
      diagnostics: [],
    }),
  );
}

describe("secret values the refresh could not compare", () => {
  it("a hidden value is listed as not compared; a value changed by hand is drift of it, never shown", () => {
    const review = reviewOf(previewOf({ __secretsUnread: ["value"] }, { __secretsChanged: ["value"] }));
    expect(review.unread).toEqual([
      { type: "ProjectVariable", name: "deploy-token", urn: urnOf("deploy-token"), owner: "project acme/web", object: "project variable `DEPLOY_TOKEN`", paths: ["value"] },
    ]);
    const drift = review.changes.filter((change) => change.kind === "drift");
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatchObject({ name: "registry-password", fields: [{ path: "value", before: { secret: true }, after: { secret: true } }] });
    expect(driftFound(review).outside.map((change) => change.name)).toEqual(["registry-password"]);
    const report = markdownOf(review);
    expect(report).toContain("#### Not compared (1)");
    expect(report).toMatch(/- <code>value<\/code> of project variable <code>DEPLOY_TOKEN<\/code> of project <code>acme\/web<\/code>/);
  });

  it("nothing is said when every value was compared", () => {
    const review = reviewOf(previewOf({}, {}));
    expect(review.unread).toBeUndefined();
    expect(markdownOf(review)).not.toContain("Not compared");
  });
});
