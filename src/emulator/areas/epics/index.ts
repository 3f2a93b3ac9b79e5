/** Epics: an epic and its child epics (the epic tree). */
import { z } from "zod";
import { areaSeed, keyedSection, type EmulatorArea } from "../../area";
import { applyEpicsSeed } from "./model";
import { epicsRoutes } from "./routes";

export const epicsArea: EmulatorArea = {
  name: "epics",
  routes: epicsRoutes,
  seed: areaSeed({ key: "epics", schema: keyedSection("group full path", z.unknown()), apply: applyEpicsSeed }),
};
