/** Groups: a group, its avatar, the group lists, its settings and details (custom attributes, storage, statistics). */
import { areaSeed, type EmulatorArea } from "../../area";
import { applyGroupDetailsSeed, groupDetailsSeedSchema } from "./seed";
import { groupRoutes } from "./routes";

export const groupsArea: EmulatorArea = {
  name: "groups",
  routes: groupRoutes,
  seed: areaSeed({ key: "groupDetails", schema: groupDetailsSeedSchema, apply: applyGroupDetailsSeed }),
};
