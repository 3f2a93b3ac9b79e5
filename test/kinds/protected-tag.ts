import type { KindTests } from "./index.mts";

export default {
  kind: "ProtectedTag",
  matrix: () => [
    {
      create: (n) => ({ project: "acme/web", name: `matrix-${n}-*`, createAccessLevel: "maintainer" }),
      replace: { createAccessLevel: "developer" },
      without: { update: "every input replaces a protected tag rule: the API changes none in place" },
    },
  ],
  secrets: { without: "a protected tag rule has no secret field, input or output" },
} satisfies KindTests;
