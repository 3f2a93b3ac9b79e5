import type { KindTests } from "./index.mts";
import { EXCLUSIVE_SET } from "./exclusive-pipeline-schedules";

export default {
  kind: "ExclusiveUpstreams",
  matrix: { without: "test/engine/verify-registries-and-sets.test.ts" },
  secrets: { without: EXCLUSIVE_SET },
} satisfies KindTests;
