/**
 * Every action the package offers, one module per API area. To add one:
 * declare it in its area's module with `defineAction` (./core.ts) and name it
 * in that module's block here. A module is loaded when one of its actions is
 * first read (../lazy-load.ts).
 */
import { lazyLoad } from "../lazy-load";

export type { Action, ActionOptions } from "./core";

export const runPipelineSchedule: typeof import("./pipeline-schedules").runPipelineSchedule = null as any;
lazyLoad(exports, ["runPipelineSchedule"], () => require("./pipeline-schedules"));

export const purgeVirtualRegistryCache: typeof import("./virtual-registries").purgeVirtualRegistryCache = null as any;
export const purgeUpstreamCache: typeof import("./virtual-registries").purgeUpstreamCache = null as any;
lazyLoad(exports, ["purgeVirtualRegistryCache", "purgeUpstreamCache"], () => require("./virtual-registries"));

export const commitChangelog: typeof import("./repository").commitChangelog = null as any;
lazyLoad(exports, ["commitChangelog"], () => require("./repository"));

export const createMergeRequestPipeline: typeof import("./merge-requests").createMergeRequestPipeline = null as any;
lazyLoad(exports, ["createMergeRequestPipeline"], () => require("./merge-requests"));

export const startLdapGroupSync: typeof import("./groups").startLdapGroupSync = null as any;
export const revokeToken: typeof import("./groups").revokeToken = null as any;
lazyLoad(exports, ["startLdapGroupSync", "revokeToken"], () => require("./groups"));

export const createChildEpic: typeof import("./epics").createChildEpic = null as any;
lazyLoad(exports, ["createChildEpic"], () => require("./epics"));

export const deleteRegistryTag: typeof import("./container-registry").deleteRegistryTag = null as any;
export const deleteRegistryRepository: typeof import("./container-registry").deleteRegistryRepository = null as any;
lazyLoad(exports, ["deleteRegistryTag", "deleteRegistryRepository"], () => require("./container-registry"));

export const testHook: typeof import("./hooks").testHook = null as any;
lazyLoad(exports, ["testHook"], () => require("./hooks"));
