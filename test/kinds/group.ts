import type { KindTests } from "./index.mts";

export default {
  kind: "Group",
  matrix: () => [
    {
      create: (n) => ({ parent: "acme", path: `matrix-${n}`, name: `Matrix ${n}` }),
      update: { description: "changed" },
      without: { replace: "a group is never replaced: a new path renames it, a new parent transfers it" },
    },
  ],
  secrets: { without: "a group has no secret field, input or output" },
} satisfies KindTests;
