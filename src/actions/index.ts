/**
 * Every action the package offers, one module per API area. To add one:
 * declare it in its area's module with `defineAction` (./core.ts) and export it here.
 */
export type { Action, ActionOptions } from "./core";
export { runPipelineSchedule } from "./pipeline-schedules";
export { purgeVirtualRegistryCache, purgeUpstreamCache } from "./virtual-registries";
export { commitChangelog } from "./repository";
export { createMergeRequestPipeline } from "./merge-requests";
export { startLdapGroupSync, revokeToken } from "./groups";
export { createChildEpic } from "./epics";
export { deleteRegistryTag, deleteRegistryRepository } from "./container-registry";
export { testHook } from "./hooks";
