import type { KindTests } from "./index.mts";

export default {
  kind: "ContainerRegistryCleanup",
  matrix: { without: "needs registry tags per row: test/resources/container-registry-cleanup.test.ts" },
  secrets: { without: "no secret input or output (a rule of tag names and ages)" },
} satisfies KindTests;
