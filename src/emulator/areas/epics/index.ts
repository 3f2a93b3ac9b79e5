/** Epics: an epic and its child epics (the epic tree). */
import { areaSeed, type EmulatorArea } from "../../area";
import { applyEpicsSeed, epicsSeedSchema } from "./seed";
import { epicsRoutes } from "./routes";

export const epicsArea: EmulatorArea = {
  name: "epics",
  routes: epicsRoutes,
  seed: areaSeed({ key: "epics", schema: epicsSeedSchema, apply: applyEpicsSeed }),
};
