import type { KindTests } from "./index.mts";

export default {
  kind: "ProjectShare",
  matrix: () => [
    { create: () => ({ project: "acme/web", sharedWith: "beta", groupAccess: "reporter" }), replace: { groupAccess: "developer" }, without: { update: "every input replaces" } },
    // Above the sharer's role: only an Owner (or an administrator) shares with the Owner role.
    { create: () => ({ project: "acme/web", sharedWith: "beta", groupAccess: "owner" }), without: { update: "every input replaces", delete: "the first row's", replace: "the first row's" } },
  ],
  secrets: { without: "a share has no secret field, input or output" },
} satisfies KindTests;
