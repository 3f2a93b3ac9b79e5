/** Error tracking: client keys (API) and the collector that receives events. */
import { z } from "zod";
import { areaSeed, keyedSection, type EmulatorArea } from "../../area";
import { applyErrorTrackingSeed, dropExpiredEvents, errorTrackingRoutes } from "./routes";

export const errorTrackingArea: EmulatorArea = {
  name: "error-tracking",
  routes: errorTrackingRoutes,
  runDue: dropExpiredEvents,
  seed: areaSeed({ key: "errorTracking", schema: keyedSection("project full path", z.unknown()), apply: applyErrorTrackingSeed }),
};
