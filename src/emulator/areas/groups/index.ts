/** Groups: a group, its avatar, the group lists, its settings and details (custom attributes, storage, statistics). */
import { z } from "zod";
import { areaSeed, keyedSection, type EmulatorArea } from "../../area";
import { applyGroupDetailsSeed } from "./model";
import { groupRoutes } from "./routes";

export const groupsArea: EmulatorArea = {
  name: "groups",
  routes: groupRoutes,
  seed: areaSeed({ key: "groupDetails", schema: keyedSection("group full path", z.unknown()), apply: applyGroupDetailsSeed }),
};
