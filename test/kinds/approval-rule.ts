import type { KindTests } from "./index.mts";

export default {
  kind: "ApprovalRule",
  matrix: () => [{ create: (n) => ({ project: "acme/web", name: `matrix ${n}`, approvalsRequired: 1 }), update: { approvalsRequired: 2 }, replace: { project: "acme/api" } }],
  secrets: { without: "an approval rule has no secret field, input or output" },
} satisfies KindTests;
