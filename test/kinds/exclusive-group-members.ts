import type { KindTests } from "./index.mts";
import { EXCLUSIVE_SET } from "./exclusive-pipeline-schedules";

export default {
  kind: "ExclusiveGroupMembers",
  matrix: () => [{ create: () => ({ group: "acme/platform", keep: [] }), without: { update: "as ExclusivePipelineSchedules", replace: "idem" } }],
  secrets: { without: EXCLUSIVE_SET },
} satisfies KindTests;
