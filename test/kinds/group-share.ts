import type { KindTests } from "./index.mts";

export default {
  kind: "GroupShare",
  matrix: () => [{ create: () => ({ group: "acme/platform", sharedWith: "beta", groupAccess: "developer" }), replace: { groupAccess: "maintainer" }, without: { update: "every input replaces" } }],
  secrets: { without: "a share has no secret field, input or output" },
} satisfies KindTests;
