import type { KindTests } from "./index.mts";
import { EXCLUSIVE_SET } from "./exclusive-pipeline-schedules";

export default {
  kind: "ExclusiveProjectMembers",
  matrix: () => [{ create: () => ({ project: "acme/api", keep: [] }), without: { update: "as ExclusivePipelineSchedules", replace: "idem" } }],
  secrets: { without: EXCLUSIVE_SET },
} satisfies KindTests;
