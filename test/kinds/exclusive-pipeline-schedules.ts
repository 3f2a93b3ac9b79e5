import type { KindTests } from "./index.mts";

/** Why the exclusive sets (src/resources/exclusive-set.ts) are not in the secrets program. */
export const EXCLUSIVE_SET =
  "no secret input or output (an entry of `unexpected` names an object by id, name, URL or slug); a refresh in the secrets program would record the other declarations' objects as unexpected, and exclusive-sets.e2e.test.ts checks its own exported state";

export default {
  kind: "ExclusivePipelineSchedules",
  matrix: () => [{ create: () => ({ project: "acme/web", keep: [] }), without: { update: "its removals follow a refresh: test/engine/verify-registries-and-sets.test.ts", replace: "idem" } }],
  secrets: { without: EXCLUSIVE_SET },
} satisfies KindTests;
