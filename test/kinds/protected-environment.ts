import type { KindTests } from "./index.mts";

export default {
  kind: "ProtectedEnvironment",
  matrix: () => [
    {
      create: (n) => ({ project: "acme/web", name: `matrix-${n}`, deployAccessLevels: [{ accessLevel: "maintainer" }] }),
      update: { deployAccessLevels: [{ accessLevel: "developer" }], approvalRules: [{ accessLevel: "maintainer", requiredApprovals: 2 }] },
      replace: { project: "acme/api" },
    },
  ],
  secrets: { without: "a protected environment has no secret field, input or output" },
} satisfies KindTests;
