import type { KindTests } from "./index.mts";

export default {
  kind: "CleanupPolicy",
  matrix: () => [{ create: () => ({ group: "acme", cadence: 7, enabled: true }), update: { cadence: 14 }, without: { replace: "only the group replaces: a create elsewhere, as create rows" } }],
  secrets: { declarations: [{ name: "cleanup", args: { group: "acme", enabled: true, cadence: 7 } }] },
} satisfies KindTests;
