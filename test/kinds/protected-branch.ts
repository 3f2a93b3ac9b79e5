import type { KindTests } from "./index.mts";

export default {
  kind: "ProtectedBranch",
  matrix: () => [
    {
      create: (n) => ({ project: "acme/web", name: `matrix-${n}/*`, pushAccessLevel: "maintainer", mergeAccessLevel: "maintainer" }),
      update: { mergeAccessLevel: "developer" },
      replace: { project: "acme/api" },
    },
  ],
  secrets: { without: "a protected branch rule has no secret field, input or output" },
} satisfies KindTests;
