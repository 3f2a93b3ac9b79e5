import type { KindTests } from "./index.mts";

export default {
  kind: "ProjectVariable",
  matrix: () => [
    { create: (n) => ({ project: "acme/web", key: `MATRIX_${n}`, value: `value-${n}` }), update: { protected: true }, replace: { environmentScope: "production" } },
    // Another scope on a group needs its Premium tier: acme has it (Ultimate).
    { create: (n) => ({ project: "acme/web", key: `MATRIX_${n}`, value: `masked-value-${n}`, masked: true, environmentScope: "review/*" }), update: { description: "changed" }, replace: { key: "MATRIX_RENAMED" } },
  ],
  secrets: { declarations: [{ name: "project-variable", args: { project: "acme/web", key: "SECRETS_PLAN", value: "planted", masked: false } }] },
} satisfies KindTests;
