/** Groups: creating, transferring, deleting and restoring a group; a group, its avatar, the group lists, its settings and details (custom attributes, storage, statistics). */
import { areaSeed, type EmulatorArea } from "../../area";
import { applyGroupDetailsSeed, groupDetailsSeedSchema } from "./seed";
import { groupRoutes } from "./routes";
import { groupLifecycleRoutes, runDueDeletions } from "./lifecycle";

export const groupsArea: EmulatorArea = {
  name: "groups",
  routes: [...groupRoutes, ...groupLifecycleRoutes],
  runDue: runDueDeletions,
  seed: areaSeed({ key: "groupDetails", schema: groupDetailsSeedSchema, apply: applyGroupDetailsSeed }),
};
