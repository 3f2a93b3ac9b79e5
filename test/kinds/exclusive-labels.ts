import type { KindTests } from "./index.mts";
import { EXCLUSIVE_SET } from "./exclusive-pipeline-schedules";

export default {
  kind: "ExclusiveLabels",
  matrix: () => [{ create: () => ({ group: "acme", keep: [] }), without: { update: "as ExclusivePipelineSchedules", replace: "idem" } }],
  secrets: { without: EXCLUSIVE_SET },
} satisfies KindTests;
